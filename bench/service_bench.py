#!/usr/bin/env python3
"""Load benchmark of the HTTP decision service as users start it: ``robotrules serve``, cached GET /v1/check.

    python bench/service_bench.py [--seconds 5] [--connections 8] [--repeat 5] [--redis-url URL]
        [--also factory,access-off,json] [--baseline [NAME=]PATH]... [--python PATH] [--workdir DIR]
        [--json OUT] [--markdown OUT]

Set-up. A robots.txt site on 127.0.0.1 (``http.server`` in a thread), then the service exactly
as a user starts it, in its own process: the console script ``robotrules serve --host 127.0.0.1
--port P --allow-private --cache FILE`` (``--allow-private``: the site is on loopback; ``FILE``: a
fresh SQLite file of this run; ``--redis-url URL`` gives ``--redis URL`` instead, and the run's
keys are deleted afterwards). Nothing else is turned off: the access log (on by default) goes to
a file, as it would to a terminal or a log collector, and the request-head deadline, the
connection limit, the ``Host`` check of a loopback service and the metrics all run. The script is
the one beside ``--python`` (else ``python -m robotrules``); ``PYTHONPATH`` is passed on, so
``PYTHONPATH=/tmp/compiled`` measures an unpacked wheel (the compiled core).

Configurations:

* **the floor**: a minimal ASGI app (:func:`floor`, in this file) on uvicorn with uvloop and
  httptools (``--no-access-log``), answering every request with a fixed JSON body of the size of
  the service's answer (``ROBOTRULES_BENCH_FLOOR_SIZE``);
* **robotrules serve**, one instance;
* with ``--also``, more rows loaded in the same rounds: ``factory`` (``uvicorn --factory
  robotrules.service:from_env --no-access-log``, what this benchmark measured before issue #35),
  ``access-off`` (``robotrules serve --access-log off``), ``json`` (``--access-log json``); with
  ``--baseline [NAME=]PATH`` (repeatable), ``robotrules serve`` run from another tree
  (``PYTHONPATH=PATH``: an unpacked wheel or a ``src/`` of an older version);
* **two instances** of ``robotrules serve`` sharing the store, loaded both at once (one run at
  the end): their figures are summed (requests/s) and the worse p99 is reported.

The floor, the service and the extra rows are loaded in turn, ``--repeat`` rounds (the floor
first, then the rows, their order rotated each round so that no row is always the one right after
the floor), so each figure has a floor figure taken moments before it: the table gives the median
of each and the ratio row/floor, the median of the same-round pairs. Goals (issues #21, #35): at least 1/4 of the floor, and a p99 under 5 ms at 8
connections.

Each instance is warmed first (one check: the first instance fetches the robots.txt, the second
finds it in the shared store), so the timed load is the steady state of a service: every request
is answered from the in-process cache of parsed files. The load is Debian's ``wrk`` (``wrk -t1
-c<connections> -d<seconds>s --latency``, one wrk per instance) against ``GET
/v1/check?url=<site>/private/page&agent=Googlebot``; without wrk, a bounded Python load (httpx,
``--connections`` threads) is used instead and the table says so (it measures less: the Python
client is slower than the service). The service's CPU time per request (``/proc/<pid>/stat``) is
reported beside each figure: on a busy machine it moves less than requests/s.

Every service is stopped with SIGINT (as Ctrl-C: it writes its last access log lines and ends),
SIGKILL after 10 s; the report counts the access log lines each wrote (one a request).

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
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
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

GOAL_RATIO = 0.25
GOAL_P99_MS = 5.0


@dataclass
class Load:
    """One load run's result: requests/s sustained, p99 latency (ms), requests, errors, tool, and the
    service's CPU time per request (µs; None when not measured)."""

    rps: float
    p99_ms: float
    requests: int
    errors: int
    tool: str
    cpu_us: float | None = None


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


def robotrules_command(python: str) -> list[str]:
    """How a user starts robotrules with ``python``'s installation: its console script, else ``python -m robotrules``."""
    script = os.path.join(os.path.dirname(python), "robotrules")
    return [script] if os.access(script, os.X_OK) else [python, "-m", "robotrules"]


def serve_command(python: str, port: int, store: list[str], extra: tuple[str, ...] = ()) -> list[str]:
    """``robotrules serve`` as a user starts it (``store``: ``--cache FILE`` or ``--redis URL``)."""
    return [*robotrules_command(python), "serve", "--host", "127.0.0.1", "--port", str(port), "--allow-private",
            *store, *extra]


def factory_command(python: str, port: int) -> list[str]:
    """The app factory on plain uvicorn, access log off: what this benchmark measured before issue #35."""
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


@dataclass
class Instance:
    """A started process: its base URL, pid, where its standard output goes, and how it was started."""

    base: str
    pid: int
    stdout: str
    command: list[str]
    ended_by: list[str] = field(default_factory=list)


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of ``pid`` so far (Linux), or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


@contextmanager
def instance(command: Callable[[int], list[str]], env: dict[str, str], workdir: str, name: str,
             ready: str = "/healthz") -> Iterator[Instance]:
    """One process (a service or the floor) in its own session, its output in ``workdir``; yields
    it once ``ready`` answers (30 s at most). Stopped with SIGINT (Ctrl-C), SIGKILL after 10 s."""
    import httpx

    port = free_port()
    argv = command(port)
    out_path = os.path.join(workdir, f"{name}.out")
    with open(out_path, "wb") as out, open(os.path.join(workdir, f"{name}.err"), "wb") as err:
        process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                                   start_new_session=True)
    started = Instance(f"http://127.0.0.1:{port}", process.pid, out_path, argv)
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"{name} exited with {process.returncode}: see {workdir}/{name}.err")
            try:
                if httpx.get(f"{started.base}{ready}", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"{name} did not start within 30 s")
            time.sleep(0.1)
        yield started
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(10)
                started.ended_by.append("SIGINT")
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
                started.ended_by.append("SIGKILL")


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


def load_all(targets: list[tuple[str, int]], seconds: int, connections: int) -> list[Load]:
    """Load every (URL, pid) at once (one wrk each), for ``seconds``; each with its process's CPU µs per request."""
    before = [cpu_seconds(pid) for _, pid in targets]
    if shutil.which("wrk"):
        processes = [subprocess.Popen(wrk_command(url, seconds, connections), stdout=subprocess.PIPE, text=True)
                     for url, _ in targets]
        loads = [parse_wrk(process.communicate(timeout=seconds + 60)[0]) for process in processes]
    else:
        results: list[Load | None] = [None] * len(targets)

        def one(n: int) -> None:
            results[n] = python_load(targets[n][0], seconds, connections)

        threads = [threading.Thread(target=one, args=(n,)) for n in range(len(targets))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(seconds + 60)
        loads = [result for result in results if result is not None]
    for load, (_, pid), start in zip(loads, targets, before, strict=False):
        end = cpu_seconds(pid)
        if start is not None and end is not None and load.requests:
            load.cpu_us = (end - start) / load.requests * 1e6
    return loads


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


def cleanup_redis(url: str, robots_url: str) -> None:
    """Delete the keys this run made (the entry and the lock of its own site, under the default prefix)."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=0.5)
    try:
        client.delete(f"robotrules:entry:{robots_url}", f"robotrules:lock:{robots_url}")
    finally:
        client.close()


def _median_load(loads: list[Load]) -> Load:
    """The median of each figure over repeated runs of one configuration."""
    cpus = [r.cpu_us for r in loads if r.cpu_us is not None]
    return Load(statistics.median(r.rps for r in loads), statistics.median(r.p99_ms for r in loads),
                sum(r.requests for r in loads), sum(r.errors for r in loads), loads[0].tool,
                statistics.median(cpus) if cpus else None)


def _lines(path: str) -> int:
    try:
        with open(path, "rb") as out:
            return sum(1 for _ in out)
    except OSError:
        return 0


EXTRAS = {
    "factory": "uvicorn --factory (app factory, no access log)",
    "access-off": "robotrules serve --access-log off",
    "json": "robotrules serve --access-log json",
}
"""The rows ``--also`` adds (loaded in the same rounds as the floor and ``robotrules serve``)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--seconds", type=int, default=5, help="load duration per run (default 5)")
    parser.add_argument("--connections", type=int, default=8, help="connections per instance (default 8)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="rounds of the floor, the service and the extra rows, in turn (default 5; medians reported)")
    parser.add_argument("--redis-url", default=None,
                        help="share the cache in Redis (robotrules serve --redis URL) instead of an SQLite file")
    parser.add_argument("--also", default="", help=f"extra rows, comma-separated: {', '.join(EXTRAS)}")
    parser.add_argument("--baseline", metavar="[NAME=]PATH", action="append", default=[],
                        help="also measure robotrules serve from another tree (PYTHONPATH=PATH), in the same rounds "
                             "(repeatable)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter that runs the services")
    parser.add_argument("--workdir", default=None, help="keep each process's output (access logs) here")
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    parser.add_argument("--markdown", metavar="PATH", help="also write the report as markdown to PATH")
    args = parser.parse_args(argv)
    if args.seconds < 1 or args.connections < 1 or args.repeat < 1:
        parser.error("--seconds, --connections and --repeat must be >= 1")
    extras = [name for name in args.also.split(",") if name]
    unknown = [name for name in extras if name not in EXTRAS]
    if unknown:
        parser.error(f"--also: unknown rows {', '.join(unknown)} (choose from {', '.join(EXTRAS)})")

    tool = "wrk" if shutil.which("wrk") else None
    if tool is None:
        print("wrk is not installed (apt-get install wrk): using a bounded Python load instead", file=sys.stderr)
    if args.redis_url and not redis_ok(args.redis_url):
        parser.error(f"Redis does not answer at {args.redis_url}")
    workdir = args.workdir or tempfile.mkdtemp(prefix="robotrules-service-bench-")
    os.makedirs(workdir, exist_ok=True)
    env = {**os.environ}
    store_args = ["--redis", args.redis_url] if args.redis_url else ["--cache", os.path.join(workdir, "robots.sqlite3")]
    store = "Redis" if args.redis_url else "SQLite (one file, shared)"
    py = args.python

    def serve(extra: tuple[str, ...] = ()) -> Callable[[int], list[str]]:
        return lambda port: serve_command(py, port, store_args, extra)

    factory_env = {**env, "ROBOTRULES_ALLOW_PRIVATE": "1"}
    if args.redis_url:
        factory_env["ROBOTRULES_REDIS"] = args.redis_url
    else:
        factory_env["ROBOTRULES_CACHE"] = store_args[1]
    configurations: list[tuple[str, str, Callable[[int], list[str]], dict[str, str]]] = [
        ("serve", "robotrules serve (1 instance)", serve(), env)]
    for n, given in enumerate(args.baseline):
        name, _, path = given.rpartition("=")
        key = name or ("baseline" if n == 0 else f"baseline-{n + 1}")
        if key in EXTRAS or key in ("floor", "serve", "serve-2", "two") or any(c[0] == key for c in configurations):
            parser.error(f"--baseline: the name {key!r} is taken")
        configurations.append((key, f"{key}: robotrules serve from {path}", serve(), {**env, "PYTHONPATH": path}))
    for name in extras:
        if name == "factory":
            configurations.append((name, EXTRAS[name], lambda port: factory_command(py, port), factory_env))
        else:
            configurations.append((name, EXTRAS[name], serve(("--access-log", "off" if name == "access-off" else "json")),
                                   env))

    loads: dict[str, list[Load]] = {"floor": []}
    rows: list[tuple[str, str, Load, list[Load]]] = []
    started: dict[str, Instance] = {}
    size = 0
    robots_url = ""
    try:
        with site() as origin:
            robots_url = f"{origin}/robots.txt"
            query = urlencode({"url": f"{origin}/private/page", "agent": "Googlebot"})
            with ExitStack() as stack:
                for key, _label, command, cenv in configurations:
                    started[key] = stack.enter_context(instance(command, cenv, workdir, key))
                    cache, answer = warm(started[key].base, query)
                    size = size or answer
                    print(f"warm-up: {key} {cache}, answer {answer} bytes", file=sys.stderr)
                started["floor"] = stack.enter_context(instance(
                    lambda port: floor_command(py, port), {**env, "ROBOTRULES_BENCH_FLOOR_SIZE": str(size)}, workdir,
                    "floor", ready="/"))
                for key, *_ in configurations:
                    loads[key] = []
                keys = [key for key, *_ in configurations]
                for round_ in range(args.repeat):
                    loads["floor"] += load_all([(f"{started['floor'].base}/", started["floor"].pid)], args.seconds,
                                               args.connections)
                    turn = round_ % len(keys)
                    for key in keys[turn:] + keys[:turn]:  # each row first after the floor in turn
                        loads[key] += load_all([(f"{started[key].base}/v1/check?{query}", started[key].pid)],
                                               args.seconds, args.connections)
                rows.append(("floor", "floor: minimal ASGI app, same body size", _median_load(loads["floor"]),
                             loads["floor"]))
                for key, label, *_ in configurations:
                    rows.append((key, label, _median_load(loads[key]), loads[key]))
                second = stack.enter_context(instance(serve(), env, workdir, "serve-2"))
                started["serve-2"] = second
                print(f"warm-up: second instance {warm(second.base, query)[0]}", file=sys.stderr)
                both = load_all([(f"{started['serve'].base}/v1/check?{query}", started["serve"].pid),
                                 (f"{second.base}/v1/check?{query}", second.pid)], args.seconds, args.connections)
                total = Load(sum(r.rps for r in both), max(r.p99_ms for r in both), sum(r.requests for r in both),
                             sum(r.errors for r in both), both[0].tool)
                rows.append(("two", "2 x robotrules serve, shared store (summed)", total, both))
    finally:
        if args.redis_url and robots_url:
            cleanup_redis(args.redis_url, robots_url)

    def ratios_of(key: str) -> list[float]:
        return [a.rps / f.rps for f, a in zip(loads["floor"], loads[key], strict=True) if f.rps]

    ratio_of = {key: (statistics.median(ratios_of(key)) if ratios_of(key) else float("nan"))
                for key, *_ in configurations}
    ratios = ratios_of("serve")
    ratio = ratio_of["serve"]
    serve_row = next(load for key, _, load, _ in rows if key == "serve")
    logged = {key: _lines(inst.stdout) for key, inst in started.items() if key not in ("floor", "factory")}
    served = {key: sum(load.requests for load in loads.get(key, [])) for key in logged}
    served["serve"] += both[0].requests
    served["serve-2"] = both[1].requests if len(both) > 1 else 0
    from robotrules.core import CORE_BUILD

    core = CORE_BUILD
    lines_out: list[str] = []

    def say(text: str = "") -> None:
        lines_out.append(text)
        print(text)

    say(f"robotrules service load benchmark: cached GET /v1/check, {args.seconds} s per run, "
        f"{args.connections} connections per instance, {args.repeat} rounds of the floor and of each row in turn "
        f"(medians), answer {size} bytes, store {store}, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}, "
        f"core of this interpreter's robotrules: {core}, uvicorn with uvloop and httptools")
    say()
    say("| configuration | requests/s | p99 latency | CPU per request | / floor | requests | errors | load tool |")
    say("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    for key, label, load, parts in rows:
        detail = (" + " if key == "two" else ", ").join(f"{p.rps:,.0f}" for p in parts) if len(parts) > 1 else ""
        rps = f"{load.rps:,.0f}" + (f" ({detail})" if detail else "")
        p99 = f"{load.p99_ms:.1f} ms"
        if len(parts) > 1 and key != "two":
            p99 += " (" + ", ".join(f"{p.p99_ms:.1f}" for p in parts) + ")"
        cpu = "" if load.cpu_us is None else f"{load.cpu_us:.0f} µs"
        versus = f"{ratio_of[key]:.2f}" if key in ratio_of else ""
        say(f"| {label} | {rps} | {p99} | {cpu} | {versus} | {load.requests:,} | {load.errors} | {load.tool} |")
    say()
    met = ratio >= GOAL_RATIO and serve_row.p99_ms < GOAL_P99_MS
    say(f"robotrules serve / floor, requests/s: {ratio:.2f} (median of the {len(ratios)} same-run pairs: "
        + ", ".join(f"{r:.2f}" for r in ratios) + f"); p99 {serve_row.p99_ms:.1f} ms; goal >= {GOAL_RATIO} and "
        f"p99 < {GOAL_P99_MS:g} ms: {'met' if met else 'NOT met'}")
    say("access log lines written: " + ", ".join(f"{key} {logged[key]:,} for {served.get(key, 0):,} timed requests"
                                                  for key in logged))
    say("stopped by: " + ", ".join(f"{key} {'/'.join(inst.ended_by) or '?'}" for key, inst in started.items()))
    say()
    say("commands:")
    shown = ["--redis", args.redis_url] if args.redis_url else ["--cache", "FILE"]
    say("  service: " + " ".join(["robotrules", *serve_command(py, 8000, shown)[len(robotrules_command(py)):]]))
    say(f"  floor:   ROBOTRULES_BENCH_FLOOR_SIZE={size} " + " ".join(floor_command("python", 8001)))
    url = f"http://127.0.0.1:8000/v1/check?{query}"
    if tool:
        say("  load:    " + " ".join(wrk_command(url, args.seconds, args.connections)))
    else:
        say(f"  load:    {args.connections} httpx threads for {args.seconds} s against {url}")
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as out:
            out.write("\n".join(lines_out) + "\n")
    if args.json:
        import json

        figures = {"seconds": args.seconds, "connections": args.connections, "repeat": args.repeat,
                   "answer_bytes": size, "store": store, "cpus": os.cpu_count(), "core": core,
                   "python": sys.version.split()[0], "ratio_to_floor": ratio, "ratios": ratios,
                   "ratios_by_row": {key: {"median": ratio_of[key], "pairs": ratios_of(key)} for key in ratio_of},
                   "goal_met": met, "access_log_lines": logged, "commands": {k: i.command for k, i in started.items()},
                   "rows": [{"key": key, "configuration": label, "rps": load.rps, "p99_ms": load.p99_ms,
                             "cpu_us": load.cpu_us, "requests": load.requests, "errors": load.errors, "tool": load.tool,
                             "runs": [{"rps": p.rps, "p99_ms": p.p99_ms, "cpu_us": p.cpu_us} for p in parts]}
                            for key, label, load, parts in rows]}
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(figures, out, indent=2)
            out.write("\n")
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if all(load.errors == 0 for _, _, load, _ in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
