#!/usr/bin/env python3
"""Load benchmark of the HTTP decision service: sustained GET /v1/check throughput and p99 latency.

    python bench/service_bench.py [--seconds 10] [--connections 8] [--redis-url URL] [--python PATH]

Set-up. A robots.txt site on 127.0.0.1 (``http.server`` in a thread), then the service as
deployed: ``uvicorn --factory robotrules.service:from_env`` in separate processes (one worker
each, access log off), configured through the environment (``ROBOTRULES_REDIS`` with a key
prefix of this run, deleted afterwards; ``ROBOTRULES_ALLOW_PRIVATE=1`` since the site is on
loopback). Two configurations, one after the other:

* **one instance**;
* **two instances sharing Redis**, loaded both at once; their figures are summed (requests/s)
  and the worse p99 is reported.

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
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
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


def uvicorn_command(python: str, port: int) -> list[str]:
    return [python, "-m", "uvicorn", "--factory", "robotrules.service:from_env", "--host", "127.0.0.1",
            "--port", str(port), "--log-level", "warning", "--no-access-log"]


@contextmanager
def instance(python: str, env: dict[str, str]) -> Iterator[str]:
    """One service process; yields its base URL once /healthz answers (30 s at most)."""
    import httpx

    port = free_port()
    process = subprocess.Popen(uvicorn_command(python, port), env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"the service exited with {process.returncode}")
            try:
                if httpx.get(f"{base}/healthz", timeout=1).status_code == 200:
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


def warm(base: str, query: str) -> str:
    """One check (fetch or shared-cache read); returns its cache state."""
    import httpx

    response = httpx.get(f"{base}/v1/check?{query}", timeout=10)
    response.raise_for_status()
    cache: str = response.json()["results"][0]["robots"]["cache"]
    return cache


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--seconds", type=int, default=10, help="load duration per configuration (default 10)")
    parser.add_argument("--connections", type=int, default=8, help="connections per instance (default 8)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--python", default=sys.executable, help="the interpreter that runs the service")
    args = parser.parse_args(argv)
    if args.seconds < 1 or args.connections < 1:
        parser.error("--seconds and --connections must be >= 1")

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
    try:
        with site() as origin:
            query = urlencode({"url": f"{origin}/private/page", "agent": "Googlebot"})
            with ExitStack() as stack:
                first = stack.enter_context(instance(args.python, env))
                print(f"warm-up: first instance {warm(first, query)}", file=sys.stderr)
                [alone] = load_all([f"{first}/v1/check?{query}"], args.seconds, args.connections)
                rows.append(("1 instance", alone, [alone]))
                second = stack.enter_context(instance(args.python, env))
                print(f"warm-up: second instance {warm(second, query)}", file=sys.stderr)
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

    print()
    print(f"robotrules service load benchmark: GET /v1/check, {args.seconds} s per configuration, "
          f"{args.connections} connections per instance, store {store.split(' (')[0]}, "
          f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print()
    print("| configuration | requests/s | p99 latency | requests | errors | load tool |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, load, parts in rows:
        detail = " + ".join(f"{p.rps:,.0f}" for p in parts) if len(parts) > 1 else ""
        rps = f"{load.rps:,.0f}" + (f" ({detail})" if detail else "")
        print(f"| {name} | {rps} | {load.p99_ms:.1f} ms | {load.requests:,} | {load.errors} | {load.tool} |")
    print()
    print("commands:")
    print("  service: ROBOTRULES_REDIS=... ROBOTRULES_ALLOW_PRIVATE=1 " + " ".join(uvicorn_command("python", 8000)))
    url = f"http://127.0.0.1:8000/v1/check?{query}"
    if tool:
        print("  load:    " + " ".join(wrk_command(url, args.seconds, args.connections)))
    else:
        print(f"  load:    {args.connections} httpx threads for {args.seconds} s against {url}")
    return 0 if all(load.errors == 0 for _, load, _ in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
