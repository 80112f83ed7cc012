"""The fault suite's machinery: the sites, the fleet of crawler processes, the Redis server.

- :class:`Sites`: one loopback HTTP server (``tests/servers/http.py``) answering for several
  host names, told apart by the ``Host`` header (the workers' HTTP client sends every host name
  to 127.0.0.1:port and keeps the header: ``tests/client/_stores.loopback_http``). Each host is
  ``steady`` (200 always), ``outage`` (200, then 503 once :attr:`Sites.outage` is set) or
  ``dark`` (503 always); the bodies come from :func:`tests.faults._worker.body`.
- :class:`Fleet`: worker processes (``python -m tests.faults._worker``), each with its own
  client on the shared store. Every process is killed in the fixture's finalizer if it has not
  ended; every wait on it is bounded.
- ``private_redis``: a ``redis-server`` of the test alone on a spare loopback port, which the
  test may SIGKILL, restart empty, SIGSTOP and SIGCONT; its finalizer resumes and kills it
  (``tests/cache/conftest.py``). The shared Redis on 6379 is never touched.

The one-line summary of each scenario is printed (``pytest -s``) and repeated at the end of the
run, in a "fault suite" section.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.cache.conftest import private_redis  # noqa: F401  (the fixture, shared)
from tests.faults._worker import KINDS, body
from tests.servers.http import Exchange, HTTPServer, respond

ROOT = Path(__file__).resolve().parents[2]

HOSTS: list[tuple[str, str, int]] = [
    (f"{kind}-{n}.test", kind, i)
    for i, (kind, n) in enumerate([("steady", 0), ("steady", 1), ("outage", 0), ("outage", 1), ("outage", 2),
                                   ("dark", 0), ("dark", 1)])
]
"""(host, kind, index): the sites every worker checks; ``index`` makes each body (and its deciding lines) its own."""

assert {kind for _, kind, _ in HOSTS} == set(KINDS)

SUMMARIES: list[str] = []


class Sites:
    """The loopback HTTP server for every host of :data:`HOSTS` (see the module docstring)."""

    def __init__(self) -> None:
        self.server = HTTPServer()
        self.kinds = {host: kind for host, kind, _ in HOSTS}
        self.ok = {host: respond(200, body(host, index), {"Content-Type": "text/plain"}) for host, _, index in HOSTS}
        self.down = respond(503, b"down for maintenance\n")
        self.missing = respond(404, b"not found\n")
        self.outage_started = False
        self.server.default = self.answer

    @property
    def port(self) -> int:
        return self.server.port

    def start_outage(self) -> None:
        """From now on the ``outage`` hosts answer 503."""
        self.outage_started = True

    def answer(self, exchange: Exchange) -> None:
        host = exchange.request.headers.get("host", "").rsplit(":", 1)[0]
        kind = self.kinds.get(host)
        if exchange.request.path != "/robots.txt" or kind is None:
            self.missing(exchange)
        elif kind == "dark" or (kind == "outage" and self.outage_started):
            self.down(exchange)
        else:
            self.ok[host](exchange)

    def fetches(self) -> int:
        """Requests for /robots.txt so far, all hosts."""
        return self.server.hits("/robots.txt")


@pytest.fixture
def sites() -> Iterator[Sites]:
    made = Sites()
    made.server.start()
    try:
        yield made
    finally:
        made.server.stop()


class WorkerFailed(AssertionError):
    pass


class Fleet:
    """``workers`` crawler processes on one store (``store``: [kind, where, prefix]); see the module docstring."""

    READY_TIMEOUT = 60.0  # seconds for every process to start, import and warm up
    STOP_TIMEOUT = 30.0  # seconds for every process to finish its final checks and report

    def __init__(self, tmp: Path, store: list[str], port: int, *, workers: int = 4, threads: int = 2,
                 ttl: float = 0.25, store_timeout: float = 0.25, store_cooldown: float = 1.0,
                 pause: float = 0.002, read_only_applies: bool = False, max_seconds: float = 120.0) -> None:
        self.tmp = tmp
        self.procs: list[subprocess.Popen[str]] = []
        self.logs: list[Path] = []
        self.reports: list[Path] = []
        self.ready: list[Path] = []
        self.configs: list[dict[str, Any]] = []
        tmp.mkdir(parents=True, exist_ok=True)
        for n in range(workers):
            config = {
                "store": store, "port": port, "hosts": HOSTS, "seed": n + 1, "threads": threads, "ttl": ttl,
                "store_timeout": store_timeout, "store_cooldown": store_cooldown, "pause": pause,
                "max_seconds": max_seconds, "read_only_applies": read_only_applies,
                "ready": str(tmp / f"ready-{n}.json"), "report": str(tmp / f"report-{n}.json"),
            }
            self.configs.append(config)
            self.ready.append(Path(config["ready"]))
            self.reports.append(Path(config["report"]))
            self.logs.append(tmp / f"worker-{n}.log")

    def start(self) -> list[dict[str, Any]]:
        """Start the processes and wait until each has warmed up; what each wrote in its ready file."""
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        for config, log in zip(self.configs, self.logs, strict=True):
            with open(log, "w") as out:
                self.procs.append(subprocess.Popen(
                    [sys.executable, "-m", "tests.faults._worker", json.dumps(config)],
                    cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT, text=True,
                ))
        deadline = time.monotonic() + self.READY_TIMEOUT
        while not all(path.exists() for path in self.ready):
            for n, proc in enumerate(self.procs):
                if proc.poll() is not None and not self.ready[n].exists():
                    raise WorkerFailed(f"worker {n} exited ({proc.returncode}) before it was ready:\n{self.log(n)}")
            if time.monotonic() > deadline:
                raise WorkerFailed(f"the workers were not ready within {self.READY_TIMEOUT:g} s")
            time.sleep(0.02)
        return [json.loads(path.read_text()) for path in self.ready]

    def phase(self, name: str) -> None:
        """Tell every process that a phase starts (the phases only label the counts)."""
        for proc in self.procs:
            with contextlib.suppress(OSError):  # a dead worker is reported by stop()
                assert proc.stdin is not None
                proc.stdin.write(name + "\n")
                proc.stdin.flush()

    def stop(self) -> list[dict[str, Any]]:
        """Stop every process and read its report (bounded); a process that failed fails the test."""
        self.phase("stop")
        for proc in self.procs:
            with contextlib.suppress(OSError):
                assert proc.stdin is not None
                proc.stdin.close()
        deadline = time.monotonic() + self.STOP_TIMEOUT
        for n, proc in enumerate(self.procs):
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                raise WorkerFailed(f"worker {n} did not stop within {self.STOP_TIMEOUT:g} s:\n{self.log(n)}") from None
            if proc.returncode != 0 or not self.reports[n].exists():
                raise WorkerFailed(f"worker {n} failed (exit {proc.returncode}):\n{self.log(n)}")
        return [json.loads(path.read_text()) for path in self.reports]

    def log(self, n: int) -> str:
        try:
            return self.logs[n].read_text()[-4000:]
        except OSError:
            return "(no log)"

    def kill(self) -> None:
        """Kill every process still running and reap it (the finalizer)."""
        for proc in self.procs:
            if proc.poll() is None:
                proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=10)
            if proc.stdin is not None:
                with contextlib.suppress(OSError):
                    proc.stdin.close()


@pytest.fixture
def fleet_factory(tmp_path: Path) -> Iterator[Any]:
    """``make(store, port, **options)``: a :class:`Fleet` (not started); killed afterwards, whatever happened."""
    made: list[Fleet] = []

    def make(store: list[str], port: int, **options: Any) -> Fleet:
        fleet = Fleet(tmp_path / f"fleet-{len(made)}", store, port, **options)
        made.append(fleet)
        return fleet

    try:
        yield make
    finally:
        for fleet in made:
            fleet.kill()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if SUMMARIES:
        terminalreporter.section("fault suite")
        for line in SUMMARIES:
            terminalreporter.write_line(line)
