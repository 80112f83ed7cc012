#!/usr/bin/env python3
"""The client's limits: memory with maximum-size robots.txt files, time with a stalled store.

    python bench/limits_bench.py calibrate [--corpus PATH] [--limit N] [--json OUT]
    python bench/limits_bench.py budget [--files 8] [--budget-mib 16] [--shapes wild,delays] [--json OUT]
    python bench/limits_bench.py rss [--files 1000] [--shapes rules,wild,groups,lines] [--json OUT]
    python bench/limits_bench.py stalled-store [--checks 6] [--redis-timeout S] [--json OUT]

``calibrate``: what an in-process slot of :class:`~robotrules.RobotsClient` really retains
(``tracemalloc``: an entry decoded from the store as SQLite and Redis give it, the parsed file,
the state, the LRU link) against what the client charges it (``client.cached_bytes``), for every
corpus file and for maximum-size (512,000-byte) synthetic files of every costly shape. The
constants of ``robotrules.client._cost.slot_cost`` come from this table; the ratio retained /
charged must stay at or below 1 for the synthetic shapes (the byte budget is then a bound) and
should not be far below it for real files.

``budget``: the calibration's consequence for a whole cache: ``--files`` maximum-size files (the
shapes taken in turn) checked through one ``RobotsClient(cache_bytes=...)``; reported after each
file: the bytes charged (never above the budget) and what the client retains (``tracemalloc``,
after ``gc.collect()``), which should stay within a small factor of the budget, not files x size.
(The suite pins the charges with a table and one slot's bound: tests/client/test_memory_bounds.py.)

``rss``: a fresh process (``python -c``, nothing else loaded) makes one ``RobotsClient()`` with
the default settings (default ``MemoryStore``, ``cache_size``, ``cache_bytes``) and checks one
URL on each of ``--files`` distinct hosts, each serving a different maximum-size file (the
shapes taken in turn) from an HTTP server on 127.0.0.1 (a forked child; the host names reach it
through an httpx transport that rewrites the address and keeps the Host header). Reported: the
process's resident set (``VmRSS``) after start-up and after the files, its peak (``VmHWM``), and
what the client and the store account for. Run it with ``PYTHONPATH`` pointing at another tree
to compare (the script only uses the public API, and ``cached_bytes`` when there is one).

``stalled-store``: a ``redis-server`` started on a spare loopback port, given one entry, then
stopped with ``SIGSTOP`` (it accepts connections and never answers, like a hung server); a
``RobotsClient(RedisStore(...))`` with the default settings checks ``--checks`` distinct
uncached hosts, each serving a small robots.txt on 127.0.0.1 (``--redis-timeout`` sets the
store's own per-call timeout, default: RedisStore's). Reported: the wall time of each check, the store calls it
made and the breaker's state after it; then the same with the server running (for scale). The
server is always sent ``SIGCONT`` and killed, whatever happens.

Figures are for one machine and one run; see bench/README.md.
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import json
import multiprocessing
import os
import platform
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
import tracemalloc
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
SIZE = 512_000  # F9: Google's limit, the largest file that counts
AGENT = "googlebot"


# --------------------------------------------------------------------------- maximum-size files


def _fill(head: bytes, unit: Callable[[int], bytes]) -> bytes:
    """``head``, then ``unit(0)``, ``unit(1)``, ... up to exactly SIZE bytes."""
    parts, n, i = [head], len(head), 0
    while n < SIZE:
        line = unit(i)
        parts.append(line)
        n += len(line)
        i += 1
    return b"".join(parts)[:SIZE]


# Each shape: (what it is, a function of a variant number giving a 512,000-byte body). The
# variant goes into a comment line and the paths, so no two hosts serve the same bytes.
SHAPES: dict[str, tuple[str, Callable[[int], bytes]]] = {
    "rules": ("one group, ~32,000 short literal disallow rules",
              lambda v: _fill(b"# %d\nuser-agent: *\n" % v, lambda i: b"disallow: /%x/%x\n" % (v, i))),
    "allow": ("one group, ~36,000 short literal allow rules",
              lambda v: _fill(b"# %d\nuser-agent: *\n" % v, lambda i: b"allow: /%x%x\n" % (v, i))),
    "wild": ("one group, ~27,000 wildcard rules",
             lambda v: _fill(b"# %d\nuser-agent: *\n" % v, lambda i: b"disallow: /*%x*%x\n" % (v, i))),
    "exact": ("one group, ~28,000 rules ending in $",
              lambda v: _fill(b"# %d\nuser-agent: *\n" % v, lambda i: b"disallow: /%x/%x$\n" % (v, i))),
    "index": ("one group, ~40,000 allow .../index.html rules (each implies a second rule)",
              lambda v: _fill(b"# %d\nuser-agent: *\n" % v, lambda i: b"allow: /%x/index.html\n" % i)),
    "nonascii": ("one group, ~27,000 rules with non-ASCII characters",
                 lambda v: _fill(b"# %d\nuser-agent: *\n" % v, lambda i: f"disallow: /é{i:x}\n".encode())),
    "groups": ("~15,000 groups, one agent and one rule each",
               lambda v: _fill(b"# %d\n" % v, lambda i: b"user-agent: b%x\ndisallow: /%x\n" % (i, i))),
    "merged": ("~17,000 groups for one agent (merged, G4)",
               lambda v: _fill(b"# %d\n" % v, lambda i: b"user-agent: bot\ndisallow: /%x\n" % i)),
    "stars": ("~17,000 '*' groups (merged, G4)",
              lambda v: _fill(b"# %d\n" % v, lambda i: b"user-agent: *\ndisallow: /%x\n" % i)),
    "mixed": ("~11,000 groups naming '*' and an agent",
              lambda v: _fill(b"# %d\n" % v, lambda i: b"user-agent: *\nuser-agent: b%x\ndisallow: /%x\n" % (i, i))),
    "agents": ("one group of ~29,000 user-agent lines",
               lambda v: _fill(b"# %d\n" % v, lambda i: b"user-agent: b%x\n" % i)),
    "delays": ("one group, ~27,000 crawl-delay lines",
               lambda v: _fill(b"# %d\nuser-agent: *\n" % v, lambda i: b"crawl-delay: %d\n" % i)),
    "lines": ("~70,000 other lines outside any group (N2)",
              lambda v: _fill(b"# %d\n" % v, lambda i: b"x:%x\n" % i)),
    "sitemaps": ("~19,000 sitemap lines",
                 lambda v: _fill(b"# %d\n" % v, lambda i: b"sitemap: http://e.test/%x\n" % i)),
    "cr": ("one group, rules ending in CR only",
           lambda v: _fill(b"# %d\ruser-agent: *\r" % v, lambda i: b"disallow:/%x\r" % i)),
    "percent": ("one group, percent-encoded rules",
                lambda v: _fill(b"# %d\nuser-agent: *\n" % v, lambda i: b"disallow: /%%C3%%A9%x\n" % i)),
    "blank": ("blank lines only", lambda v: b"# %d\n" % v + b"\n" * (SIZE - len(b"# %d\n" % v))),
    "garbage": ("lines that are not robots.txt lines",
                lambda v: _fill(b"# %d\n" % v, lambda i: b"zzz\n")),
    "longrule": ("one rule of ~512,000 bytes",
                 lambda v: _fill(b"# %d\nuser-agent: *\ndisallow: /" % v, lambda i: b"a" * 4096)),
    "onerule": ("one group, rules of one character",
                lambda v: _fill(b"# %d\nuser-agent: *\n" % v, lambda i: b"disallow:/%x\n" % (i % 16))),
}
RSS_SHAPES = "rules,wild,groups,lines"
SMALL = b"# %d\nuser-agent: *\ndisallow: /private/\nallow: /private/press/\n\nsitemap: https://e.test/s.xml\n"
"""What host "small-<n>.test" serves: a typical small robots.txt."""


# --------------------------------------------------------------------------- a server of generated files


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Silent: the fetcher may hang up once it has what it needs."""


def _handler() -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        """GET /robots.txt on host "<shape>-<n>.test": SHAPES[shape](n); anything else 404."""

        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True

        def do_GET(self) -> None:
            host = (self.headers.get("Host") or "").split(":", 1)[0].lower()
            shape, _, rest = host.partition("-")
            number = rest.partition(".")[0]
            body = None
            if self.path == "/robots.txt" and shape in SHAPES and number.isdigit():
                body = SHAPES[shape][1](int(number))
            elif self.path == "/robots.txt" and shape == "small" and number.isdigit():
                body = SMALL % int(number)
            head = "200 OK" if body is not None else "404 Not Found"
            body = body or b""
            self.wfile.write(f"HTTP/1.1 {head}\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


@contextlib.contextmanager
def serving() -> Iterator[int]:
    """An HTTP server of generated files on 127.0.0.1 in a forked child: its port."""
    server = _QuietServer(("127.0.0.1", 0), _handler())
    port: int = server.server_address[1]
    proc = multiprocessing.get_context("fork").Process(target=server.serve_forever, daemon=True)
    proc.start()
    server.server_close()
    try:
        yield port
    finally:
        proc.terminate()
        proc.join(5)


LOOPBACK_CLIENT = textwrap.dedent("""
    import httpx

    class Loopback(httpx.HTTPTransport):
        def __init__(self, port):
            super().__init__()
            self.port = port

        def handle_request(self, request):
            request.url = request.url.copy_with(scheme="http", host="127.0.0.1", port=self.port)
            return super().handle_request(request)
""")


def loopback_http(port: int) -> Any:
    """An httpx.Client that sends every request to 127.0.0.1:port, the Host header unchanged."""
    namespace: dict[str, Any] = {}
    exec(LOOPBACK_CLIENT, namespace)  # the same class the rss child defines
    import httpx

    return httpx.Client(transport=namespace["Loopback"](port))


# --------------------------------------------------------------------------- calibrate


def calibrate(corpus: Path | None, limit: int | None) -> dict[str, Any]:
    """Retained bytes of one slot (tracemalloc) against the client's charge, per file."""
    from robotrules import RobotsClient
    from robotrules.cache.base import decode_entry, encode_entry
    from robotrules.core.policy import Entry

    class Decoding:
        """A store that hands out a new Entry (and body) on every read, as SQLite and Redis do."""

        blocking = False

        def __init__(self) -> None:
            self.blobs: dict[str, bytes] = {}

        def get(self, key: str) -> Entry | None:
            blob = self.blobs.get(key)
            return decode_entry(blob) if blob is not None else None

        def put(self, entry: Entry) -> None:
            self.blobs[entry.url] = encode_entry(entry)

        def delete(self, key: str) -> None:
            self.blobs.pop(key, None)

        def acquire(self, key: str, ttl: float) -> str | None:
            return "token"

        def release(self, key: str, token: str) -> None:
            pass

        def close(self) -> None:
            pass

    now = 1_700_000_000.0
    files: list[tuple[str, str, bytes]] = []
    if corpus is not None and (corpus / "robotfiles").is_dir():
        names = sorted(p.name for p in (corpus / "robotfiles").iterdir() if p.is_file())[:limit]
        files += [("corpus", name, (corpus / "robotfiles" / name).read_bytes()) for name in names]
    files += [("synthetic", shape, make(0)) for shape, (_, make) in SHAPES.items()]
    store = Decoding()
    for i, (_, _, body) in [(-1, ("", "", b"user-agent: *\ndisallow: /x\n")), *enumerate(files)]:
        url = f"http://h{i}.test/robots.txt"
        store.blobs[url] = encode_entry(Entry(
            url=url, outcome="rules", status=200, reason="200: rules from the body (F2)", fetched_at=now,
            expires_at=now + 10 * 86_400 * 365, body=body, good_status=200, good_at=now, final_url=url))
    rows = []
    tracemalloc.start()
    try:
        for i, (kind, name, body) in enumerate(files):
            # A new client per file, warmed up on a small file: the growth of the LRU's and the
            # memo's tables (amortised over thousands of slots) is not charged to one file.
            client = RobotsClient(store, clock=lambda: now, cache_bytes=1 << 40, cache_size=1 << 30)
            client.allowed("http://h-1.test/", AGENT)
            gc.collect()
            before, charged = tracemalloc.get_traced_memory()[0], client.cached_bytes
            client.allowed(f"http://h{i}.test/x", AGENT)
            gc.collect()
            retained = tracemalloc.get_traced_memory()[0] - before
            rows.append({"kind": kind, "name": name, "bytes": len(body), "retained": retained,
                         "charged": client.cached_bytes - charged})
            client.close()
            del client
    finally:
        tracemalloc.stop()
    return {"rows": rows, "summary": summarise(rows)}


def budget(files: int, budget_mib: int, shapes: list[str]) -> dict[str, Any]:
    """Charged and retained bytes (tracemalloc) of one budgeted client after each maximum-size file."""
    from robotrules import MemoryStore, RobotsClient
    from robotrules.core.policy import Entry

    now = 1_700_000_000.0
    limit = budget_mib * 2**20
    store = MemoryStore(max_entries=100_000, max_bytes=1 << 40)
    names = [shapes[i % len(shapes)] for i in range(files)]
    for i, shape in enumerate(["small", *names]):
        url = f"http://h{i}.test/robots.txt"
        body = b"user-agent: *\ndisallow: /private\n" if shape == "small" else SHAPES[shape][1](i)
        store.put(Entry(url=url, outcome="rules", status=200, reason="200: rules from the body (F2)", fetched_at=now,
                        expires_at=now + 10 * 86_400 * 365, body=body, good_status=200, good_at=now, final_url=url))
    client = RobotsClient(store, clock=lambda: now, cache_bytes=limit)
    client.allowed("http://h0.test/", AGENT)  # warm-up: first-call set-up not counted
    rows = []
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for i, shape in enumerate(names, 1):
            client.allowed(f"http://h{i}.test/x", AGENT)
            gc.collect()
            retained = tracemalloc.get_traced_memory()[0] - base
            rows.append({"file": i, "shape": shape, "charged": client.cached_bytes, "retained": retained})
    finally:
        tracemalloc.stop()
    client.close()
    return {"budget": limit, "rows": rows, "max_charged": max(r["charged"] for r in rows),
            "max_retained": max(r["retained"] for r in rows)}


def print_budget(report: dict[str, Any]) -> None:
    mib = 2**20
    print(f"cache_bytes = {report['budget'] / mib:.0f} MiB")
    print("| file | shape | charged | retained | retained / budget |")
    print("|---:|---|---:|---:|---:|")
    for r in report["rows"]:
        print(f"| {r['file']} | {r['shape']} | {r['charged'] / mib:.2f} MiB | {r['retained'] / mib:.2f} MiB "
              f"| {r['retained'] / report['budget']:.2f} |")
    print(f"\nat most {report['max_charged'] / mib:.2f} MiB charged and {report['max_retained'] / mib:.2f} MiB retained "
          f"for a budget of {report['budget'] / mib:.0f} MiB")


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in ("corpus", "synthetic"):
        sel = [r for r in rows if r["kind"] == kind]
        if not sel:
            continue
        ratios = sorted(r["retained"] / r["charged"] for r in sel)
        worst = max(sel, key=lambda r: r["retained"] / r["charged"])
        out[kind] = {
            "files": len(sel),
            "ratio_median": statistics.median(ratios),
            "ratio_p90": ratios[int(0.9 * (len(ratios) - 1))],
            "ratio_max": ratios[-1],
            "ratio_max_file": worst["name"],
            "ratio_total": sum(r["retained"] for r in sel) / sum(r["charged"] for r in sel),
            "retained_total": sum(r["retained"] for r in sel),
            "charged_total": sum(r["charged"] for r in sel),
        }
    return out


def print_calibration(report: dict[str, Any]) -> None:
    print("| file | shape | retained | charged | retained / charged |")
    print("|---|---|---:|---:|---:|")
    for r in report["rows"]:
        if r["kind"] == "synthetic":
            print(f"| {r['name']} | {SHAPES[r['name']][0]} | {r['retained'] / 2**20:.2f} MiB "
                  f"| {r['charged'] / 2**20:.2f} MiB | {r['retained'] / r['charged']:.2f} |")
    for kind, s in report["summary"].items():
        print(f"\n{kind}: {s['files']} files; retained / charged: median {s['ratio_median']:.2f}, "
              f"p90 {s['ratio_p90']:.2f}, max {s['ratio_max']:.2f} ({s['ratio_max_file']}), "
              f"all files together {s['ratio_total']:.2f} ({s['retained_total'] / 2**20:.1f} MiB retained, "
              f"{s['charged_total'] / 2**20:.1f} MiB charged)")


# --------------------------------------------------------------------------- rss

RSS_CHILD = LOOPBACK_CLIENT + textwrap.dedent("""
    import json, sys, time

    def status():
        fields = dict(line.split(":", 1) for line in open("/proc/self/status"))
        return {k: int(fields[k].split()[0]) * 1024 for k in ("VmRSS", "VmHWM")}

    import robotrules
    from robotrules import RobotsClient

    port, shapes, files = int(sys.argv[1]), sys.argv[2].split(","), int(sys.argv[3])
    http = httpx.Client(transport=Loopback(port))
    client = RobotsClient(http_client=http)  # every other setting is the default
    client.allowed("http://none-0.test/", "googlebot")  # a 404: warms imports and the connection
    start = status()
    t0 = time.perf_counter()
    verdicts = 0
    for i in range(files):
        verdicts += client.allowed(f"http://{shapes[i % len(shapes)]}-{i}.test/zz", "googlebot")
    seconds = time.perf_counter() - t0
    after = status()
    store = client.store
    print(json.dumps({
        "start_rss": start["VmRSS"], "rss": after["VmRSS"], "peak_rss": after["VmHWM"], "seconds": seconds,
        "cache_size": getattr(client, "cache_size", None), "cache_bytes": getattr(client, "cache_bytes", None),
        "cached_bytes": getattr(client, "cached_bytes", None), "slots": len(client._slots),
        "store_entries": len(store), "store_bytes": getattr(store, "total_bytes", None),
        "robotrules": robotrules.__file__, "allowed": verdicts,
    }))
""")


def rss(files: int, shapes: list[str], python: str) -> dict[str, Any]:
    unknown = [s for s in shapes if s not in SHAPES]
    if unknown:
        raise SystemExit(f"unknown shapes {unknown}; known: {', '.join(SHAPES)}")
    with serving() as port:
        done = subprocess.run([python, "-c", RSS_CHILD, str(port), ",".join(shapes), str(files)],
                              capture_output=True, text=True, timeout=3600, check=False)
    if done.returncode:
        raise SystemExit(f"the measuring process failed:\n{done.stderr}")
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    report.update(files=files, shapes=shapes)
    return report


def print_rss(r: dict[str, Any]) -> None:
    mib = 2**20
    print(f"{r['files']:,} maximum-size files ({', '.join(r['shapes'])} in turn), RobotsClient() with the defaults "
          f"(cache_size={r['cache_size']}, cache_bytes={r['cache_bytes']}), core {r['robotrules']}")
    print(f"- RSS after start-up: {r['start_rss'] / mib:.0f} MiB; after the files: {r['rss'] / mib:.0f} MiB "
          f"(+{(r['rss'] - r['start_rss']) / mib:.0f} MiB); peak {r['peak_rss'] / mib:.0f} MiB; {r['seconds']:.0f} s")
    charged = "n/a" if r["cached_bytes"] is None else f"{r['cached_bytes'] / mib:.0f} MiB"
    stored = "n/a" if r["store_bytes"] is None else f"{r['store_bytes'] / mib:.0f} MiB"
    print(f"- in-process LRU: {r['slots']} parsed files, charged {charged}; store: {r['store_entries']} entries, {stored}")


# --------------------------------------------------------------------------- stalled store


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def redis_server() -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """A private redis-server on a spare loopback port; always resumed and killed at the end."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise SystemExit("redis-server is not on the PATH")
    port = free_port()
    workdir = tempfile.mkdtemp(prefix="robotrules-stall-")
    proc = subprocess.Popen([exe, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", workdir], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.2) as s:
                s.sendall(b"PING\r\n")
                if s.recv(16).startswith(b"+PONG"):
                    break
            if time.monotonic() > deadline:
                raise SystemExit("redis-server did not start")
            time.sleep(0.05)
        yield proc, port
    finally:
        with contextlib.suppress(ProcessLookupError):
            proc.send_signal(signal.SIGCONT)
        proc.kill()
        proc.wait(10)
        shutil.rmtree(workdir, ignore_errors=True)


def stalled_store(checks: int, redis_timeout: float | None) -> dict[str, Any]:
    from robotrules import RedisStore, RobotsClient

    class Counting:
        """Counts the calls the client makes on the store it wraps."""

        def __init__(self, inner: Any) -> None:
            self.inner, self.calls = inner, 0
            self.blocking = inner.blocking

        def __getattr__(self, name: str) -> Any:
            method = getattr(self.inner, name)

            def call(*args: Any) -> Any:
                self.calls += 1
                return method(*args)

            return call

    out: dict[str, Any] = {}
    with serving() as http_port, redis_server() as (proc, port):
        for label, stop in (("stalled", True), ("running", False)):
            options = {} if redis_timeout is None else {"timeout": redis_timeout}
            inner = RedisStore(f"redis://127.0.0.1:{port}/0", prefix=f"bench-{label}:", **options)
            inner.get("warm-up")  # a pooled connection exists before the stall, as in a running crawler
            store = Counting(inner)
            http = loopback_http(http_port)
            client = RobotsClient(store, http_client=http)  # every other setting is the default
            rows = []
            if stop:
                proc.send_signal(signal.SIGSTOP)
            try:
                for i in range(checks):
                    calls = store.calls
                    t0 = time.perf_counter()
                    client.allowed(f"http://small-{i}.test/private/x", AGENT)
                    rows.append({"seconds": time.perf_counter() - t0, "store_calls": store.calls - calls,
                                 "store_state": getattr(client, "store_state", "n/a")})
            finally:
                if stop:
                    proc.send_signal(signal.SIGCONT)
                client.close()
                http.close()
                with contextlib.suppress(Exception):
                    inner.close()
            out[label] = rows
        out["settings"] = {k: getattr(client, k, None) for k in ("store_deadline", "store_failures", "store_cooldown")}
        out["redis_timeout"] = getattr(inner, "timeout", None)
    return out


def print_stalled(r: dict[str, Any]) -> None:
    print(f"RobotsClient(RedisStore(...)) with the defaults {r['settings']}; RedisStore timeout {r['redis_timeout']}")
    for label in ("stalled", "running"):
        print(f"\n{label} Redis: one uncached check per host")
        print("| check | time | store calls | breaker after |")
        print("|---:|---:|---:|---|")
        for i, row in enumerate(r[label], 1):
            print(f"| {i} | {row['seconds'] * 1000:.1f} ms | {row['store_calls']} | {row['store_state']} |")


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="what", required=True)
    c = sub.add_parser("calibrate", help="retained vs charged bytes per parsed file (tracemalloc)")
    c.add_argument("--corpus", type=Path, default=None, help="corpus directory (default: as corpus_bench.py)")
    c.add_argument("--limit", type=int, default=None, help="only the first N corpus files")
    b = sub.add_parser("budget", help="charged and retained bytes of one budgeted client, file after file (tracemalloc)")
    b.add_argument("--files", type=int, default=8)
    b.add_argument("--budget-mib", type=int, default=16, help="cache_bytes in MiB (default 16)")
    b.add_argument("--shapes", default="wild,delays", help=f"comma-separated, taken in turn; known: {', '.join(SHAPES)}")
    r = sub.add_parser("rss", help="RSS of a fresh process after N maximum-size files, default settings")
    r.add_argument("--files", type=int, default=1000)
    r.add_argument("--shapes", default=RSS_SHAPES, help=f"comma-separated, taken in turn (default {RSS_SHAPES}); "
                   f"known: {', '.join(SHAPES)}")
    r.add_argument("--python", default=sys.executable, help="interpreter of the measured process")
    s = sub.add_parser("stalled-store", help="time of uncached checks with a SIGSTOPped Redis, default settings")
    s.add_argument("--checks", type=int, default=6)
    s.add_argument("--redis-timeout", type=float, default=None, help="RedisStore(timeout=...) (default: its default)")
    for q in (c, b, r, s):
        q.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = p.parse_args(argv)
    print(f"Python {platform.python_version()} on {platform.platform()}; {os.cpu_count()} CPUs", file=sys.stderr)
    if args.what == "calibrate":
        corpus = args.corpus
        if corpus is None:
            env = os.environ.get("ROBOTRULES_CORPUS")
            corpus = Path(env) if env else (REPO_ROOT / ".." / "shared" / "corpus").resolve()
        report = calibrate(corpus, args.limit)
        print_calibration(report)
    elif args.what == "budget":
        report = budget(args.files, args.budget_mib, args.shapes.split(","))
        print_budget(report)
    elif args.what == "rss":
        report = rss(args.files, args.shapes.split(","), args.python)
        print_rss(report)
    else:
        report = stalled_store(args.checks, args.redis_timeout)
        print_stalled(report)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
