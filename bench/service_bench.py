#!/usr/bin/env python3
"""Load benchmark of the HTTP decision service: sustained GET /v1/check throughput and p99 latency.

    python bench/service_bench.py [--seconds 10] [--connections 8] [--repeat 3] [--redis-url URL] [--python PATH]

Set-up. A robots.txt site on 127.0.0.1 (``http.server`` in a thread), then the service as
deployed: ``uvicorn --factory robotrules.service:from_env`` in separate processes (one worker
each, access log off), configured through the environment (``ROBOTRULES_REDIS`` with a key
prefix of this run, deleted afterwards; ``ROBOTRULES_ALLOW_PRIVATE=1`` since the site is on
loopback). Two configurations, one after the other:

* **one instance**;
* **two instances sharing Redis**, loaded both at once; their figures are summed (requests/s)
  and the worse p99 is reported.

* **the floor**: a minimal ASGI app (:func:`floor`, in this file) on the same uvicorn, httptools
  and uvloop, answering every request with a fixed JSON body of the size of the service's answer
  (``ROBOTRULES_BENCH_FLOOR_SIZE``). The one-instance service and the floor are loaded in turn,
  ``--repeat`` times each (floor, service, floor, service, ...), so each service figure has a
  floor figure taken moments before it: the table gives the median of each and the ratio
  service/floor (the goal of issue #21: at least 1/4, and a p99 under 5 ms at 8 connections).

Every uvicorn process runs with ``--loop uvloop --http httptools`` (the ``serve`` extra installs
both; ``robotrules serve`` picks them too, see :func:`robotrules.service.server_config`).

Each instance is warmed first (one check: the first instance fetches the robots.txt, the second
finds it in Redis), so the timed load is the steady state of a service: every request is
answered from the in-process cache of parsed files (Redis is read only when an entry is
missing or stale). The load is Debian's ``wrk`` (``wrk -t1 -c<connections> -d<seconds>s
--latency``, one wrk per instance) against ``GET /v1/check?url=<site>/private/page&agent=Googlebot``;
without wrk, a bounded Python load (httpx, ``--connections`` threads) is used instead and the
table says so (it measures less: the Python client is slower than the service).

The machine is shared by the load generator and the instances: on a small box (2 cores) the
two-instance figure is bounded by the cores, not by the service. Figures are for comparing
configurations within one run.
"""

from __future__ import annotations

import argparse
import http.server
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

ROBOTS = b"""\
User-agent: *
Disallow: /private
Allow: /private/open

User-agent: Googlebot
Disallow: /private/page
Allow: /

Sitemap: https://example.com/sitemap.xml
"""


@dataclass
class Load:
    """One load run's result: requests/s sustained, p99 latency (ms), requests, errors, tool."""

    rps: float
    p99_ms: float
    requests: int
    errors: int
    tool: str


class _Site(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        body = ROBOTS if self.path == "/robots.txt" else b"not found\n"
        self.send_response(200 if self.path == "/robots.txt" else 404)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def site() -> Iterator[str]:
    """A robots.txt site on 127.0.0.1; yields its origin."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


FAST = ["--loop", "uvloop", "--http", "httptools"]
"""uvicorn's fast event loop and HTTP parser, named (not "auto"), so a missing one is an error, not a silent fallback."""


def uvicorn_command(python: str, port: int) -> list[str]:
    return [python, "-m", "uvicorn", "--factory", "robotrules.service:from_env", "--host", "127.0.0.1",
            "--port", str(port), "--log-level", "warning", "--no-access-log", *FAST]


def floor_command(python: str, port: int) -> list[str]:
    """The floor: :func:`floor` from this file on the same uvicorn, loop and parser."""
    return [python, "-m", "uvicorn", "--app-dir", os.path.dirname(os.path.abspath(__file__)), "service_bench:floor",
            "--host", "127.0.0.1", "--port", str(port), "--log-level", "warning", "--no-access-log", *FAST]


_FLOOR_SIZE = max(10, int(os.environ.get("ROBOTRULES_BENCH_FLOOR_SIZE", "1500")))
_FLOOR_BODY = b'{"pad":"' + b"x" * (_FLOOR_SIZE - 10) + b'"}'
_FLOOR_HEADERS = [(b"content-type", b"application/json"), (b"content-length", str(len(_FLOOR_BODY)).encode())]


async def floor(scope: MutableMapping[str, Any], receive: Callable[[], Awaitable[Any]],
                send: Callable[[MutableMapping[str, Any]], Awaitable[None]]) -> None:
    """The floor of the load benchmark: a minimal ASGI app answering every request with a fixed JSON
    body of ``ROBOTRULES_BENCH_FLOOR_SIZE`` bytes (the size of the service's answer; read at import)."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    await send({"type": "http.response.start", "status": 200, "headers": _FLOOR_HEADERS})
    await send({"type": "http.response.body", "body": _FLOOR_BODY})


@contextmanager
def instance(python: str, env: dict[str, str], command: Callable[[str, int], list[str]] = uvicorn_command,
             ready: str = "/healthz") -> Iterator[str]:
    """One service process (or the floor); yields its base URL once ``ready`` answers (30 s at most)."""
    import httpx

    port = free_port()
    process = subprocess.Popen(command(python, port), env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the service exited with {process.returncode}")
            try:
                if httpx.get(f"{base}{ready}", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError("the service did not start within 30 s")
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


def warm(base: str, query: str) -> tuple[str, int]:
    """One check (fetch or shared-cache read); returns its cache state and the answer's size in bytes."""
    import httpx

    response = httpx.get(f"{base}/v1/check?{query}", timeout=10)
    response.raise_for_status()
    cache: str = response.json()["results"][0]["robots"]["cache"]
    return cache, len(response.content)


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def wrk_command(url: str, seconds: int, connections: int) -> list[str]:
    return ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", url]


def parse_wrk(output: str) -> Load:
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))  # type: ignore[union-attr]
    value, unit = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$", output, re.M).groups()  # type: ignore[union-attr]
    requests = int(re.search(r"(\d+) requests in", output).group(1))  # type: ignore[union-attr]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    failed = int(errors.group(1)) if errors else 0
    if socket_errors:
        failed += sum(int(n) for n in socket_errors.groups())
    return Load(rps, float(value) * _UNITS[unit], requests, failed, "wrk")


def python_load(url: str, seconds: int, connections: int) -> Load:
    """The fallback load: ``connections`` threads with an httpx client each, for ``seconds``."""
    import httpx

    latencies: list[list[float]] = [[] for _ in range(connections)]
    errors = [0] * connections
    stop = time.monotonic() + seconds

    def work(n: int) -> None:
        with httpx.Client(timeout=10) as client:
            while time.monotonic() < stop:
                start = time.perf_counter()
                try:
                    ok = client.get(url).status_code == 200
                except httpx.HTTPError:
                    ok = False
                latencies[n].append(time.perf_counter() - start)
                errors[n] += not ok

    threads = [threading.Thread(target=work, args=(n,)) for n in range(connections)]
    begin = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 30)
    elapsed = time.monotonic() - begin
    every = sorted(x for lat in latencies for x in lat)
    p99 = statistics.quantiles(every, n=100)[98] * 1000 if len(every) >= 100 else float("nan")
    return Load(len(every) / elapsed, p99, len(every), sum(errors), "python (httpx threads)")


def load_all(urls: list[str], seconds: int, connections: int) -> list[Load]:
    """Load every URL at once (one wrk each), for ``seconds``."""
    if shutil.which("wrk"):
        processes = [subprocess.Popen(wrk_command(url, seconds, connections), stdout=subprocess.PIPE, text=True)
                     for url in urls]
        return [parse_wrk(process.communicate(timeout=seconds + 60)[0]) for process in processes]
    results: list[Load | None] = [None] * len(urls)

    def one(n: int) -> None:
        results[n] = python_load(urls[n], seconds, connections)

    threads = [threading.Thread(target=one, args=(n,)) for n in range(len(urls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 60)
    return [result for result in results if result is not None]


def redis_ok(url: str) -> bool:
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=0.5)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


def cleanup_redis(url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=0.5)
    try:
        for key in client.scan_iter(match=prefix + "*"):
            client.delete(key)
    finally:
        client.close()


def _median_load(loads: list[Load]) -> Load:
    """The median of each figure over repeated runs of one configuration."""
    return Load(statistics.median(r.rps for r in loads), statistics.median(r.p99_ms for r in loads),
                sum(r.requests for r in loads), sum(r.errors for r in loads), loads[0].tool)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--seconds", type=int, default=10, help="load duration per configuration (default 10)")
    parser.add_argument("--connections", type=int, default=8, help="connections per instance (default 8)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of the floor and of one instance, in turn (default 3; the medians are reported)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--python", default=sys.executable, help="the interpreter that runs the service")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    args = parser.parse_args(argv)
    if args.seconds < 1 or args.connections < 1 or args.repeat < 1:
        parser.error("--seconds, --connections and --repeat must be >= 1")

    tool = "wrk" if shutil.which("wrk") else None
    if tool is None:
        print("wrk is not installed (apt-get install wrk): using a bounded Python load instead", file=sys.stderr)
    shared = redis_ok(args.redis_url)
    prefix = f"robotrules-bench:{uuid.uuid4().hex}:"
    env = {**os.environ, "ROBOTRULES_ALLOW_PRIVATE": "1", "ROBOTRULES_FETCH_TIMEOUT": "5"}
    cache_dir = None
    if shared:
        env.update(ROBOTRULES_REDIS=args.redis_url, ROBOTRULES_REDIS_PREFIX=prefix)
        store = f"Redis ({args.redis_url}, prefix {prefix})"
    else:
        import tempfile

        print(f"Redis does not answer at {args.redis_url}: the instances share an SQLite file instead", file=sys.stderr)
        cache_dir = tempfile.mkdtemp(prefix="robotrules-bench-")
        env["ROBOTRULES_CACHE"] = os.path.join(cache_dir, "robots.sqlite3")
        store = "SQLite (one file, shared)"

    rows: list[tuple[str, Load, list[Load]]] = []
    floors: list[Load] = []
    alones: list[Load] = []
    size = 0
    try:
        with site() as origin:
            query = urlencode({"url": f"{origin}/private/page", "agent": "Googlebot"})
            with ExitStack() as stack:
                first = stack.enter_context(instance(args.python, env))
                cache, size = warm(first, query)
                print(f"warm-up: first instance {cache}, answer {size} bytes", file=sys.stderr)
                with instance(args.python, {**env, "ROBOTRULES_BENCH_FLOOR_SIZE": str(size)}, floor_command,
                              ready="/") as bare:
                    for _ in range(args.repeat):
                        floors += load_all([f"{bare}/"], args.seconds, args.connections)
                        alones += load_all([f"{first}/v1/check?{query}"], args.seconds, args.connections)
                rows.append(("floor: minimal ASGI app, same body size", _median_load(floors), floors))
                rows.append(("1 instance", _median_load(alones), alones))
                second = stack.enter_context(instance(args.python, env))
                print(f"warm-up: second instance {warm(second, query)[0]}", file=sys.stderr)
                both = load_all([f"{first}/v1/check?{query}", f"{second}/v1/check?{query}"], args.seconds,
                                args.connections)
                total = Load(sum(r.rps for r in both), max(r.p99_ms for r in both), sum(r.requests for r in both),
                             sum(r.errors for r in both), both[0].tool)
                rows.append(("2 instances, shared cache (summed)", total, both))
    finally:
        if shared:
            cleanup_redis(args.redis_url, prefix)
        if cache_dir:
            shutil.rmtree(cache_dir, ignore_errors=True)

    ratios = [a.rps / f.rps for f, a in zip(floors, alones, strict=True) if f.rps]
    ratio = statistics.median(ratios) if ratios else float("nan")
    print()
    print(f"robotrules service load benchmark: GET /v1/check, {args.seconds} s per run, "
          f"{args.connections} connections per instance, {args.repeat} runs of the floor and of one instance "
          f"in turn (medians), answer {size} bytes, store {store.split(' (')[0]}, "
          f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, uvicorn with uvloop and httptools")
    print()
    print("| configuration | requests/s | p99 latency | requests | errors | load tool |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, load, parts in rows:
        detail = (" + " if name.startswith("2 ") else ", ").join(f"{p.rps:,.0f}" for p in parts) if len(parts) > 1 else ""
        rps = f"{load.rps:,.0f}" + (f" ({detail})" if detail else "")
        p99 = f"{load.p99_ms:.1f} ms"
        if len(parts) > 1 and not name.startswith("2 "):
            p99 += " (" + ", ".join(f"{p.p99_ms:.1f}" for p in parts) + ")"
        print(f"| {name} | {rps} | {p99} | {load.requests:,} | {load.errors} | {load.tool} |")
    print()
    print(f"one instance / floor, requests/s: {ratio:.2f} (median of the {len(ratios)} same-run pairs: "
          + ", ".join(f"{r:.2f}" for r in ratios) + "); goal >= 0.25, and p99 < 5 ms")
    print()
    print("commands:")
    print("  service: ROBOTRULES_REDIS=... ROBOTRULES_ALLOW_PRIVATE=1 " + " ".join(uvicorn_command("python", 8000)))
    print(f"  floor:   ROBOTRULES_BENCH_FLOOR_SIZE={size} " + " ".join(floor_command("python", 8001)))
    url = f"http://127.0.0.1:8000/v1/check?{query}"
    if tool:
        print("  load:    " + " ".join(wrk_command(url, args.seconds, args.connections)))
    else:
        print(f"  load:    {args.connections} httpx threads for {args.seconds} s against {url}")
    if args.json:
        import json

        figures = {"seconds": args.seconds, "connections": args.connections, "repeat": args.repeat,
                   "answer_bytes": size, "store": store.split(" (")[0], "cpus": os.cpu_count(),
                   "python": sys.version.split()[0], "ratio_to_floor": ratio, "ratios": ratios,
                   "rows": [{"configuration": name, "rps": load.rps, "p99_ms": load.p99_ms, "requests": load.requests,
                             "errors": load.errors, "tool": load.tool,
                             "runs": [{"rps": p.rps, "p99_ms": p.p99_ms} for p in parts]}
                            for name, load, parts in rows]}
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
            out.write("\n")
    return 0 if all(load.errors == 0 for _, load, _ in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
