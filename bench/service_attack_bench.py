#!/usr/bin/env python3
"""The HTTP service under hostile load (issue #16, H1): one client's batch requests must not starve the others.

    python bench/service_attack_bench.py [--attack-seconds 20] [--clients 100] [--hosts 1000]
                                         [--scenarios refused,tarpit] [--baseline REV] [--no-baseline | --no-worktree]
                                         [--python PATH] [--quick] [--json OUT] [--markdown OUT] [--quiet]

Everything runs on loopback (127.0.0.0/8), with IP literals only: no host name is ever resolved.

Set-up, for every version and scenario, from scratch:

* **The service as users run it**: ``python -m robotrules serve --host 127.0.0.1 --port P
  --cache <fresh SQLite file>`` (the default SQLite store, the default private-address guard),
  with ``PYTHONPATH`` set to the ``src/`` of the version under test; its own session and
  process group, stdout and stderr to a log file. Loaded once ``/healthz`` answers; stopped with
  SIGINT, a second SIGINT (uvicorn's force quit) after half of ``--stop-bound`` (10 s), SIGKILL
  after all of it (the report says which one ended it, and when).
* **Versions**: the work tree (``src/`` of this repository, as it is now, committed or not) and a
  baseline revision (``--baseline REV``, default ``0d8cde6``) checked out with ``git worktree add
  --detach`` into a temporary directory (removed afterwards); ``--no-baseline`` skips it,
  ``--no-worktree`` measures the baseline alone, ``--src PATH`` measures another tree in place of
  the work tree (an unpacked wheel, say).
* **Four scenarios** (the first two attack with batch checks, issue #16; the last two with
  requests whose work is large, issue #33):

  - ``refused``: the service with the default guard. The attack hosts are refused (403) by the
    guard; the steady client's "cached check" is ``GET /v1/check?url=http://127.0.0.1:<site>/x
    &agent=Googlebot``, which the guard answers 403 without any fetch: the cheapest check this
    instance answers (a 403 is expected; anything else is an error).
  - ``tarpit``: the service with ``--allow-private``. Every attack host ``127.a.b.c`` reaches a
    *tarpit* on the attack port (a thread of the bench listening on 0.0.0.0, which closes any
    peer outside 127.0.0.0/8 at once): it accepts and never answers, so every fetch hangs until
    the service's own timeouts. The cached check targets a small robots.txt site on 127.0.0.1
    (``http.server`` in a thread of the bench), warmed by one request before the load, so it is
    answered from the cache (200 expected).

  - ``drafts``: the service with the default guard (the cached check is the 403 of ``refused``).
    The attack is ``--draft-clients`` (4) clients sending in turn ``POST /v1/edit`` of one group of
    ``--edit-lines`` (10,000) ``User-agent`` lines of distinct product tokens (``botaaaa``, ...:
    Google reads ``bot1`` as ``bot``) and ``Disallow: /x``, blocking GPTBot (200 KB), and ``POST
    /v1/diff`` of that group on each side (``--diff-lines``, 20,000 lines, 840 KB), its rule
    changed; ``--hangups`` (half) of them hang up after ``--hangup-seconds`` (2 s), the others wait
    ``--draft-timeout`` (20 s). The steady client also sends an honest draft, ``POST /v1/lint`` and
    ``POST /v1/test`` of 5 lines in turn, ``--draft-rate`` (10) a second: a 503 is an error.
  - ``preferences``: the service with ``--allow-private``; a second loopback site serves
    ``User-agent: *``, ``Disallow: /private`` and ``--preference-lines`` (23,000) ``Content-Usage:
    /*b x`` lines (483 KB), cached by one check before the load; the attack is
    ``--preference-clients`` (3) clients sending ``GET /v1/check`` of its ``/page`` for
    ``--preference-agents`` (50) agents (``Botaa``, ``Botba``, ...), client timeout ``--draft-timeout``.
    The cached check is that of ``tarpit``.

  The tarpit runs in every scenario: in ``refused`` it must accept no connection at all (the
  report counts them). A service that limits the distinct hosts of one request refuses the
  attack requests (4xx) before any fetch: ``--hosts`` under that limit measures hanging fetches.

Method. A **steady client** (its own process, two threads, ``http.client`` with keep-alive) sends
``GET /healthz`` and the cached check, each at a fixed pace (``--steady-rate``, default 20/s
each; a request that takes longer than the interval is followed at once by the next, never by a
burst), with a short timeout (``--steady-timeout``, default 2 s) that counts as an error, as does
any unexpected status. It starts ``--pre-seconds`` (default 5) before the attack (the baseline
latency), runs through the attack and until recovery.

The **attack** (its own process, asyncio with raw sockets, one keep-alive connection per client)
of ``refused`` and ``tarpit`` is ``--clients`` (default 100) concurrent clients, each sending ``POST /v1/check`` with
``{"urls": [...], "agents": ["Googlebot"]}`` of ``--hosts`` (default 1,000) URLs
``http://127.a.b.c:<tarpit port>/x/page.html`` (about 41 KB a request) one after the other, for
``--attack-seconds`` (default 20), each request with a client timeout of ``--attack-timeout``
(default 60 s). Hosts are drawn from 127.1.0.0-127.255.255.254 in order, never twice in one
attack (so an attack has at most 16,711 requests of 1,000 hosts; it stops earlier if they run
out). The first round of bodies is built before the clock starts, the rest as needed. After
``--attack-seconds`` no new request is sent; the requests in flight are waited for until they are
answered or time out; the attack **ends** when the last one has (all connections closed).

Figures, per version and scenario:

* steady client, per request type: p50/p99 latency before, during (first attack request sent to
  the attack's end) and after the attack (its end to the end of the measurement), with errors.
  An error or timeout counts as an infinitely slow request in the percentiles (a p99 shown as
  "timeout" fell on one);
* attack: requests sent, answered by status code, timed out, connection errors, answered
  latency p50 and the max (every request should be answered within the service's deadline);
* time back to baseline: the first moment after the attack's end from which every steady request
  (both types) succeeds in under ``--recovery-factor`` (2) x its type's pre-attack p99 for
  ``--recovery-hold`` (2) s; the wait is capped (``--recovery-cap``, 60 s: "> 60 s");
* drafts and preferences: the largest answer the attack received, the requests of hanging-up
  clients given up, and the service's CPU after the attack beyond the steady client's own cost
  (its CPU per second alone with the service, before the attack, times the time watched; the
  service is watched at least ``--after-min``, 5 s, after the attack);
* the service process: CPU time it used after the attack ended (work for clients that are gone),
  tarpit connections it opened during and after the attack, peak RSS, threads, cache file size,
  and how it stopped;
* the goals of the issue, marked met / NOT met (never a failure of the script): healthz p99 during
  the attack < 100 ms, cached check p99 during the attack < 50 ms, recovery < 5 s, and every
  attack request answered within the deadline (``--deadline``, 10 s, plus 1 s for the transfer).
  For ``drafts`` and ``preferences`` (issue #33): healthz p99 during the attack < 100 ms; the
  honest drafts' p99 during the attack < 1 s with no error (``drafts``) or the cached check's p99
  < 50 ms (``preferences``); service CPU after the attack < 1 s beyond the steady client's own;
  every request of a patient attack client answered within the deadline (+1 s).

The attack process, the steady client and the service all share the machine (on a 2-core box the
attacker takes a core when the service answers fast); figures are for comparing versions within
one run. Every process the bench starts is stopped at the end, also on Ctrl-C, SIGTERM or an
error (and the children die with the bench through ``PR_SET_PDEATHSIG`` on Linux).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import http.server
import ipaddress
import json
import math
import os
import platform
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from types import FrameType
from typing import IO, Any, NamedTuple
from urllib.parse import urlencode

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_BASELINE = "0d8cde6"
SCENARIOS = ("refused", "tarpit", "drafts", "preferences")
BATCH = ("refused", "tarpit")  # the scenarios whose attack is batch checks (issue #16)
AGENT = "Googlebot"
FIRST_HOST = 1 << 16  # 127.1.0.0: 127.0.0.0/16 is left to the site and the service
LAST_HOST = (1 << 24) - 2  # 127.255.255.254
GOALS = {"healthz_p99_ms": 100.0, "check_p99_ms": 50.0, "recovery_s": 5.0,
         "draft_p99_ms": 1000.0, "cpu_after_excess_s": 1.0}
DEADLINE_GRACE = 1.0  # seconds on top of --deadline for the upload, queueing and the answer's transfer
HEALTH_WAIT = 30.0  # seconds for a service to answer /healthz after its start

ROBOTS = b"""\
User-agent: *
Disallow: /private

User-agent: Googlebot
Disallow: /private/page
Allow: /
"""

# The honest draft of the steady client in ``drafts`` (5 lines): /v1/lint and /v1/test of it, in turn.
HONEST_DRAFT = "User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n"
HONEST_REQUESTS = (
    ("/v1/lint", json.dumps({"robots": HONEST_DRAFT})),
    ("/v1/test", json.dumps({"robots": HONEST_DRAFT, "urls": ["/private/x", "/"], "agents": ["Googlebot", "GPTBot"]})),
)
PREFERENCE_LINE = "Content-Usage: /*b x\n"  # 21 bytes: 23,000 of them are 483 KB, under Google's 500 KiB

# The service is started through this launcher: it asks Linux to SIGKILL it when the bench dies
# (PR_SET_PDEATHSIG survives exec), then replaces itself with ``python -m robotrules serve ...``.
LAUNCHER = """\
import ctypes, os, signal, sys
try:
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
except Exception:
    pass
if os.getppid() != int(sys.argv[1]):
    sys.exit(70)
os.execv(sys.executable, [sys.executable] + sys.argv[2:])
"""


class BenchError(RuntimeError):
    """A run could not be made (the service did not start, a worker died, ...)."""


def _die_with_parent(parent: int) -> None:
    """Linux: be killed when the bench dies; exit now if it already has."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)
    except Exception:
        pass
    if os.getppid() != parent:
        raise SystemExit(70)


def _stdin_closed(on_close: Callable[[], object]) -> None:
    """Call ``on_close`` when stdin reaches EOF (the bench closed it or died), from a daemon thread."""

    def watch() -> None:  # os.read, not sys.stdin: a daemon thread must not hold the buffer's lock at exit
        with contextlib.suppress(OSError):
            while os.read(0, 4096):
                pass
        on_close()

    threading.Thread(target=watch, daemon=True).start()


# --------------------------------------------------------------------------- the steady client


def steady_worker(cfg: dict[str, Any]) -> int:
    """Two threads, /healthz and the cached check, each at ``rate``/s (a third, ``draft``, at
    ``draft_rate``/s with ``drafts``: an honest client's /v1/lint and /v1/test of a 5-line draft, in
    turn); one JSON line per request on stdout."""
    _die_with_parent(int(cfg["parent"]))
    host, port, rate, timeout = str(cfg["host"]), int(cfg["port"]), float(cfg["rate"]), float(cfg["timeout"])
    stop = threading.Event()
    _stdin_closed(stop.set)
    deadline = time.monotonic() + float(cfg["max_seconds"])
    out = threading.Lock()

    def loop(kind: str, requests: list[tuple[str, str, str | None]], expected: set[int], pace: float) -> None:
        """Send ``requests`` (method, path, JSON body or None) in turn, ``pace`` a second."""
        interval = 1.0 / pace
        conn: http.client.HTTPConnection | None = None
        due = time.monotonic()
        sent = 0
        while not stop.is_set() and time.monotonic() < deadline:
            wait = due - time.monotonic()
            if wait > 0 and stop.wait(wait):
                break
            due = max(due + interval, time.monotonic())
            status: int | None = None
            error: str | None = None
            start = time.monotonic()
            method, path, body = requests[sent % len(requests)]
            sent += 1
            try:
                if conn is None:
                    conn = http.client.HTTPConnection(host, port, timeout=timeout)
                if body is None:
                    conn.request(method, path)
                else:
                    conn.request(method, path, body.encode(), {"Content-Type": "application/json"})
                response = conn.getresponse()
                response.read()
                status = response.status
                if response.will_close:
                    conn.close()
                    conn = None
            except TimeoutError:
                error = "timeout"
            except (OSError, http.client.HTTPException) as exc:
                error = type(exc).__name__
            end = time.monotonic()
            if error is not None and conn is not None:
                conn.close()
                conn = None
            if error is None and end - start > timeout:
                error = "timeout"
            if error is None and status not in expected:
                error = f"status {status}"
            line = json.dumps({"k": kind, "t": start, "ms": (end - start) * 1000, "s": status, "e": error})
            with out:
                sys.stdout.write(line + "\n")
                sys.stdout.flush()
        if conn is not None:
            conn.close()

    threads = [threading.Thread(target=loop, args=("healthz", [("GET", "/healthz", None)], {200}, rate)),
               threading.Thread(target=loop, args=("check", [("GET", str(cfg["check_path"]), None)],
                                                   set(cfg["check_status"]), rate))]
    if cfg.get("drafts"):
        honest: list[tuple[str, str, str | None]] = [("POST", path, body) for path, body in HONEST_REQUESTS]
        threads.append(threading.Thread(target=loop, args=("draft", honest, {200}, float(cfg["draft_rate"]))))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return 0


# --------------------------------------------------------------------------- the attack


def attack_body(block: int, hosts: int, port: int) -> bytes:
    """The JSON body of attack request ``block``: ``hosts`` URLs on hosts no other block uses."""
    first = FIRST_HOST + block * hosts
    urls = ",".join(f'"http://127.{i >> 16 & 255}.{i >> 8 & 255}.{i & 255}:{port}/x/page.html"'
                    for i in range(first, first + hosts))
    return ('{"urls":[' + urls + '],"agents":["' + AGENT + '"]}').encode()


def attack_blocks(hosts: int) -> int:
    """How many requests of ``hosts`` distinct hosts 127.1.0.0-127.255.255.254 gives."""
    return (LAST_HOST - FIRST_HOST + 1) // hosts


def token_name(i: int) -> str:
    """A distinct product token for each ``i`` < 26**4: ``bot`` and four letters. Google reads a
    product token as its leading letters, ``-`` and ``_``, so ``bot1`` and ``bot2`` would both be ``bot``."""
    letters = ""
    for _ in range(4):
        letters += chr(97 + i % 26)
        i //= 26
    return "bot" + letters


def agent_group(agents: int, rule: str) -> str:
    """One group of ``agents`` ``User-agent`` lines of distinct tokens, then ``rule``."""
    return "".join(f"User-agent: {token_name(i)}\n" for i in range(agents)) + rule + "\n"


def edit_body(agents: int) -> bytes:
    """The hostile ``POST /v1/edit`` (issue #33): one group of ``agents`` user-agent lines, one crawler to block."""
    return json.dumps({"robots": agent_group(agents, "Disallow: /x"), "block": ["GPTBot"]}).encode()


def diff_body(agents: int) -> bytes:
    """The hostile ``POST /v1/diff`` (issue #33): that group on each side, its one rule changed."""
    return json.dumps({"old": agent_group(agents, "Disallow: /x"), "new": agent_group(agents, "Disallow: /y")}).encode()


def preference_robots(lines: int) -> bytes:
    """The hostile robots.txt of ``preferences`` (issue #33): ``lines`` path-scoped Content-Usage lines."""
    return b"User-agent: *\nDisallow: /private\n" + PREFERENCE_LINE.encode() * lines


def preference_agents(count: int) -> list[str]:
    """``count`` distinct product tokens (``Botaa``, ``Botba``, ...: letters only, see :func:`token_name`)."""
    return ["Bot" + chr(97 + i % 26) + chr(97 + i // 26 % 26) for i in range(count)]


def _request_bytes(host: str, port: int, body: bytes | None, method: str = "POST", path: str = "/v1/check") -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: application/json\r\n"
    if body is None:
        return (head + "\r\n").encode("ascii")
    head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
    return head.encode("ascii") + body


def fixed_requests(cfg: dict[str, Any]) -> list[bytes]:
    """The requests of a ``drafts`` or ``preferences`` attack, which each client sends in turn."""
    host, port = str(cfg["host"]), int(cfg["port"])
    if cfg["mode"] == "drafts":
        return [_request_bytes(host, port, edit_body(int(cfg["edit_lines"])), path="/v1/edit"),
                _request_bytes(host, port, diff_body(int(cfg["diff_lines"])), path="/v1/diff")]
    return [_request_bytes(host, port, None, "GET", str(cfg["path"]))]


class _Connection:
    """One attack client's keep-alive connection (raw asyncio streams)."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def exchange(self, request: bytes) -> tuple[int, bool, int]:
        """Send ``request``, read the whole response: (status, Retry-After given, body bytes)."""
        if self.writer is None or self.reader is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port, limit=1 << 20)
        reader, writer = self.reader, self.writer
        writer.write(request)
        await writer.drain()
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split()[1])
        headers: dict[str, str] = {}
        for line in head[1:]:
            name, sep, value = line.partition(":")
            if sep:
                headers[name.strip().lower()] = value.strip()
        received = 0
        if "content-length" in headers:
            received = len(await reader.readexactly(int(headers["content-length"])))
        elif "chunked" in headers.get("transfer-encoding", "").lower():
            while True:
                size = int((await reader.readuntil(b"\r\n")).split(b";")[0], 16)
                await reader.readexactly(size + 2)
                received += size
                if size == 0:
                    break
        else:
            received = len(await reader.read())
            headers["connection"] = "close"
        if headers.get("connection", "").lower() == "close":
            self.close()
        return status, "retry-after" in headers, received

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


def attack_worker(cfg: dict[str, Any]) -> int:
    """The attack: ``clients`` coroutines sending batch checks (``mode`` batch), hostile drafts
    (drafts) or checks of a hostile robots.txt (preferences); one JSON summary line on stdout at the end."""
    _die_with_parent(int(cfg["parent"]))
    summary = asyncio.run(_attack(cfg))
    sys.stdout.write(json.dumps(summary) + "\n")
    sys.stdout.flush()
    return 0


async def _attack(cfg: dict[str, Any]) -> dict[str, Any]:
    host, port = str(cfg["host"]), int(cfg["port"])
    clients, hosts, target_port = int(cfg["clients"]), int(cfg["hosts"]), int(cfg["target_port"])
    seconds, timeout, most = float(cfg["seconds"]), float(cfg["timeout"]), int(cfg["max_requests"])
    batch = cfg.get("mode", "batch") == "batch"
    hangups, hangup_after = int(cfg.get("hangups", 0)), float(cfg.get("hangup_seconds", 2.0))
    loop = asyncio.get_running_loop()
    abort = asyncio.Event()
    _stdin_closed(lambda: loop.call_soon_threadsafe(abort.set))

    if batch:
        prebuilt = [_request_bytes(host, port, attack_body(block, hosts, target_port))
                    for block in range(min(clients, most))]
    else:
        prebuilt = fixed_requests(cfg)
        most = 1 << 62
    size = max(map(len, prebuilt), default=0)
    next_block = 0
    statuses: Counter[int] = Counter()
    errors: Counter[str] = Counter()
    latencies: list[float] = []  # answered requests, seconds
    timed_out: list[float] = []  # requests of a patient client that timed out
    hung_up: list[float] = []  # requests a hanging-up client gave up after ``hangup_after``
    retry_after = 0
    cancelled = 0
    largest = 0
    first_send = last_send = math.nan
    start = time.monotonic()
    send_end = start + seconds

    async def client(number: int) -> None:
        nonlocal next_block, retry_after, cancelled, first_send, last_send, largest
        conn = _Connection(host, port)
        impatient = number < hangups
        mine = 0
        try:
            while time.monotonic() < send_end and next_block < most and not abort.is_set():
                block, next_block = next_block, next_block + 1
                if batch:
                    request = prebuilt[block] if block < len(prebuilt) else \
                        _request_bytes(host, port, attack_body(block, hosts, target_port))
                else:  # each client sends the requests in turn, every other client from the second
                    request = prebuilt[(number + mine) % len(prebuilt)]
                    mine += 1
                sent = time.monotonic()
                if math.isnan(first_send):
                    first_send = sent
                last_send = sent
                try:
                    status, retry, received = await asyncio.wait_for(conn.exchange(request),
                                                                     hangup_after if impatient else timeout)
                except TimeoutError:
                    (hung_up if impatient else timed_out).append(time.monotonic() - sent)
                    conn.close()
                except asyncio.CancelledError:
                    cancelled += 1
                    raise
                except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError, IndexError) as exc:
                    errors[type(exc).__name__] += 1
                    conn.close()
                    await asyncio.sleep(0.05)  # a refused connection must not become a busy loop
                else:
                    latencies.append(time.monotonic() - sent)
                    statuses[status] += 1
                    retry_after += retry and status in (429, 503)
                    largest = max(largest, received)
        finally:
            conn.close()

    tasks = [asyncio.ensure_future(client(number)) for number in range(clients)]
    aborted = asyncio.ensure_future(abort.wait())
    await asyncio.wait([*tasks, aborted], return_when=asyncio.FIRST_COMPLETED)
    while not all(task.done() for task in tasks) and not aborted.done():
        await asyncio.wait([*tasks, aborted], return_when=asyncio.FIRST_COMPLETED)
    for task in tasks:
        task.cancel()
    aborted.cancel()
    await asyncio.gather(*tasks, aborted, return_exceptions=True)
    await asyncio.sleep(0)  # let the transports close
    end = time.monotonic()
    answered = sorted(latencies)
    return {
        "start": first_send if not math.isnan(first_send) else start,
        "last_send": last_send if not math.isnan(last_send) else start,
        "end": end,
        "aborted": abort.is_set(),
        "sent": sum(statuses.values()) + len(timed_out) + len(hung_up) + sum(errors.values()) + cancelled,
        "request_bytes": size,
        "hosts_used": next_block * hosts if batch else 0,
        "hangup_clients": min(hangups, clients),
        "hung_up": len(hung_up),
        "largest_answer_bytes": largest,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "retry_after": retry_after,
        "timeouts": len(timed_out),
        "errors": dict(errors),
        "cancelled": cancelled,
        "answered_p50_ms": _rank(answered, 50) * 1000 if answered else None,
        "answered_p99_ms": _rank(answered, 99) * 1000 if answered else None,
        "answered_max_ms": answered[-1] * 1000 if answered else None,
        "max_ms": max(answered[-1:] + timed_out) * 1000 if answered or timed_out else None,
    }


def _rank(ordered: list[float], percent: float) -> float:
    """Nearest-rank percentile of a sorted, non-empty list."""
    return ordered[max(0, math.ceil(percent / 100 * len(ordered)) - 1)]


# --------------------------------------------------------------------------- loopback servers


class _Site(http.server.BaseHTTPRequestHandler):
    """Serves its server's ``robots`` at /robots.txt, 404 elsewhere; counts the requests of every site."""

    protocol_version = "HTTP/1.1"
    hits = 0

    def do_GET(self) -> None:
        _Site.hits += 1
        found = self.path == "/robots.txt"
        body = getattr(self.server, "robots", ROBOTS) if found else b"not found\n"
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def robots_site(body: bytes = ROBOTS) -> Iterator[int]:
    """A site on 127.0.0.1 (a thread) whose /robots.txt is ``body``; yields its port."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    server.daemon_threads = True
    server.robots = body  # type: ignore[attr-defined]  # read by _Site
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


class Tarpit:
    """Accepts TCP connections from 127.0.0.0/8 on one port of every address and never answers.

    Listens on 0.0.0.0 (so every 127.a.b.c reaches it) and closes any other peer at once. What
    is sent is read and dropped; a connection is closed when its peer closes it (or when more
    than ``most`` are held, the oldest first). Every accept is timed, to count them per phase.
    """

    def __init__(self, most: int = 15_000) -> None:
        self.most = most
        self.listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("0.0.0.0", 0))
        self.listener.listen(4096)
        self.listener.setblocking(False)
        self.port = int(self.listener.getsockname()[1])
        self.accepted: list[float] = []
        self.foreign = 0
        self.peak = 0
        self._held: dict[socket.socket, float] = {}
        self._stop = threading.Event()
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.listener, selectors.EVENT_READ)
        self._thread = threading.Thread(target=self._run, name="tarpit", daemon=True)
        self._thread.start()

    def since(self, start: float, end: float = math.inf) -> int:
        return sum(1 for t in list(self.accepted) if start <= t < end)

    def _run(self) -> None:
        while not self._stop.is_set():
            for key, _ in self._selector.select(0.2):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                if sock is self.listener:
                    self._accept()
                else:
                    try:
                        data = sock.recv(65536)
                    except OSError:
                        data = b""
                    if not data:
                        self._drop(sock)

    def _accept(self) -> None:
        while True:
            try:
                sock, peer = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # out of descriptors: leave it in the backlog
                return
            if not ipaddress.ip_address(peer[0]).is_loopback:
                self.foreign += 1
                sock.close()
                continue
            sock.setblocking(False)
            self.accepted.append(time.monotonic())
            self._held[sock] = time.monotonic()
            self._selector.register(sock, selectors.EVENT_READ)
            if len(self._held) > self.most:
                self._drop(next(iter(self._held)))
            self.peak = max(self.peak, len(self._held))

    def _drop(self, sock: socket.socket) -> None:
        self._held.pop(sock, None)
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(sock)
        sock.close()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for sock in list(self._held):
            self._drop(sock)
        self._selector.close()
        self.listener.close()


# --------------------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def service_command(python: str, port: int, cache: str, allow_private: bool) -> list[str]:
    command = [python, "-m", "robotrules", "serve", "--host", "127.0.0.1", "--port", str(port), "--cache", cache]
    return command + (["--allow-private"] if allow_private else [])


def stop_process(process: subprocess.Popen[bytes], bound: float, interrupt: bool) -> str:
    """Stop a child and say how it ended. ``interrupt``: SIGINT, a second SIGINT after half of
    ``bound`` (uvicorn's "CTRL+C to force quit"), SIGKILL after ``bound`` seconds; else the child
    is expected to exit by itself (its stdin closed), and is killed after ``bound``."""
    if process.poll() is not None:
        return f"had exited ({process.returncode})"
    begin = time.monotonic()
    signals = 0
    try:
        for wait in ((bound / 2, bound / 2) if interrupt else (bound,)):
            if interrupt:
                process.send_signal(signal.SIGINT)
                signals += 1
            try:
                process.wait(wait)
            except subprocess.TimeoutExpired:
                continue
            how = "SIGINT" if signals == 1 else "second SIGINT" if signals else "exited"
            return f"{how} after {time.monotonic() - begin:.1f} s ({process.returncode})"
    except BaseException:  # Ctrl-C while waiting: do not leave it behind
        process.kill()
        process.wait(10)
        raise
    process.kill()
    process.wait(10)
    return f"SIGKILL after {bound:g} s{' (2 SIGINT ignored)' if interrupt else ''}"


def get(port: int, path: str, timeout: float) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return ""


@dataclass
class Service:
    """A running service process, and what is known of it when it stops."""

    process: subprocess.Popen[bytes]
    port: int
    log: Path
    cache: Path
    stopped: str = ""

    def cpu_seconds(self) -> float | None:
        try:
            fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            return None

    def status(self) -> dict[str, int]:
        """VmHWM (peak RSS, bytes) and Threads from /proc, when there."""
        found: dict[str, int] = {}
        try:
            for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
                name, _, value = line.partition(":")
                if name == "VmHWM":
                    found["peak_rss"] = int(value.split()[0]) * 1024
                elif name == "Threads":
                    found["threads"] = int(value)
        except (OSError, ValueError):
            pass
        return found


@contextlib.contextmanager
def service(python: str, src: Path, workdir: Path, allow_private: bool, stop_bound: float) -> Iterator[Service]:
    """``python -m robotrules serve`` of the tree ``src``; yields it once /healthz answers."""
    port = free_port()
    cache = workdir / "robots.sqlite3"
    log = workdir / "service.log"
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONUNBUFFERED": "1"}
    command = service_command(python, port, str(cache), allow_private)
    with open(log, "wb") as out:
        process = subprocess.Popen([python, "-c", LAUNCHER, str(os.getpid()), *command[1:]], env=env,
                                   stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                   start_new_session=True)
    running = Service(process, port, log, cache)
    try:
        deadline = time.monotonic() + HEALTH_WAIT
        while True:
            if process.poll() is not None:
                raise BenchError(f"the service exited with {process.returncode}:\n{_tail(log)}")
            try:
                if get(port, "/healthz", 1.0)[0] == 200:
                    break
            except (OSError, http.client.HTTPException):
                pass
            if time.monotonic() > deadline:
                raise BenchError(f"the service did not answer /healthz within {HEALTH_WAIT:.0f} s:\n{_tail(log)}")
            time.sleep(0.1)
        yield running
    finally:
        running.stopped = stop_process(process, stop_bound, interrupt=True)


@dataclass
class Worker:
    """A worker process of this script (steady client or attack), its stdout read line by line."""

    process: subprocess.Popen[bytes]
    stderr: Path
    lines: list[dict[str, Any]] = field(default_factory=list)
    reader: threading.Thread | None = None
    stopped: str = ""

    def read(self, out: IO[bytes]) -> None:
        for raw in out:
            with contextlib.suppress(ValueError):
                self.lines.append(json.loads(raw))

    def alive(self) -> bool:
        return self.process.poll() is None


@contextlib.contextmanager
def worker(kind: str, cfg: dict[str, Any], workdir: Path, stop_bound: float) -> Iterator[Worker]:
    """``python <this file> _worker <kind> <json>`` in its own session; closing its stdin stops it."""
    stderr = workdir / f"{kind}.stderr"
    with open(stderr, "wb") as err:
        process = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "_worker", kind,
                                    json.dumps({**cfg, "parent": os.getpid()})],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, start_new_session=True)
    assert process.stdout is not None and process.stdin is not None
    running = Worker(process, stderr)
    running.reader = threading.Thread(target=running.read, args=(process.stdout,), daemon=True)
    running.reader.start()
    try:
        yield running
    finally:
        with contextlib.suppress(OSError):
            process.stdin.close()
        running.stopped = stop_process(process, stop_bound, interrupt=False)
        running.reader.join(5)
        process.stdout.close()


@contextlib.contextmanager
def checkout(rev: str) -> Iterator[tuple[Path, str]]:
    """``git worktree add --detach`` of ``rev`` in a temporary directory; yields (its src/, the full hash)."""
    commit = subprocess.run(["git", "-C", str(REPO_ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                            check=True, capture_output=True, text=True).stdout.strip()
    where = Path(tempfile.mkdtemp(prefix="robotrules-attack-baseline-"))
    try:
        subprocess.run(["git", "-C", str(REPO_ROOT), "worktree", "add", "--detach", "--quiet", str(where), commit],
                       check=True, capture_output=True, text=True)
        yield where / "src", commit
    finally:
        subprocess.run(["git", "-C", str(REPO_ROOT), "worktree", "remove", "--force", str(where)],
                       capture_output=True, check=False)
        shutil.rmtree(where, ignore_errors=True)
        subprocess.run(["git", "-C", str(REPO_ROOT), "worktree", "prune"], capture_output=True, check=False)


def imported_from(python: str, src: Path) -> str:
    """Where ``python`` with ``PYTHONPATH=src`` imports robotrules from (to be sure which tree is measured)."""
    done = subprocess.run([python, "-c", "import robotrules; print(robotrules.__file__)"], capture_output=True,
                          text=True, env={**os.environ, "PYTHONPATH": str(src)}, timeout=60, check=False)
    return done.stdout.strip() or f"import failed: {done.stderr.strip()[-200:]}"


# --------------------------------------------------------------------------- analysis


class Sample(NamedTuple):
    kind: str  # "healthz" or "check"
    start: float  # time.monotonic() when sent
    ms: float
    status: int | None
    error: str | None


def samples_of(lines: list[dict[str, Any]]) -> list[Sample]:
    found = [Sample(str(x["k"]), float(x["t"]), float(x["ms"]), x["s"], x["e"]) for x in list(lines) if "k" in x]
    return sorted(found, key=lambda s: s.start)


def phase(samples: list[Sample], kind: str, start: float, end: float) -> dict[str, Any]:
    """p50/p99 (ms) of one request type sent in [start, end); an error is an infinitely slow request."""
    chosen = [s for s in samples if s.kind == kind and start <= s.start < end]
    keyed = sorted(chosen, key=lambda s: math.inf if s.error else s.ms)
    out: dict[str, Any] = {"requests": len(chosen), "errors": sum(1 for s in chosen if s.error),
                           "timeouts": sum(1 for s in chosen if s.error == "timeout"),
                           "error_kinds": dict(Counter(s.error for s in chosen if s.error))}
    for name, percent in (("p50", 50), ("p99", 99)):
        if not keyed:
            out[f"{name}_ms"], out[f"{name}_error"] = None, None
            continue
        at = keyed[max(0, math.ceil(percent / 100 * len(keyed)) - 1)]
        out[f"{name}_ms"] = None if at.error else round(at.ms, 3)
        out[f"{name}_error"] = at.error
    ok = [s.ms for s in chosen if not s.error]
    out["max_ok_ms"] = round(max(ok), 3) if ok else None
    return out


def recovery(samples: list[Sample], after: float, limits: dict[str, float], hold: float,
             need: int) -> float | None:
    """The first sample start >= ``after`` from which every sample (both types) is good (no error,
    under its type's limit) for ``hold`` seconds, with at least ``need`` samples of each type in
    that window, and each type already seen past it; None when there is no such moment yet."""
    chosen = [s for s in samples if s.start >= after]
    last = {kind: max((s.start for s in chosen if s.kind == kind), default=-math.inf) for kind in limits}
    candidate: float | None = None
    counts: Counter[str] = Counter()
    for s in chosen:
        good = s.error is None and s.ms < limits[s.kind]
        if not good:
            candidate = None
            counts.clear()
            continue
        if candidate is None:
            candidate = s.start
        if s.start < candidate + hold:
            counts[s.kind] += 1
        elif all(counts[kind] >= need and last[kind] >= candidate + hold for kind in limits):
            return candidate
    if candidate is not None and all(counts[kind] >= need and last[kind] >= candidate + hold for kind in limits):
        return candidate
    return None


def series(samples: list[Sample], origin: float, until: float, kinds: tuple[str, ...] = ("healthz", "check")
           ) -> list[dict[str, Any]]:
    """Per second from ``origin``: requests, errors and the slowest good request of each type."""
    out = []
    first = math.floor(min((s.start for s in samples), default=origin) - origin)
    for second in range(first, math.ceil(until - origin)):
        row: dict[str, Any] = {"t": second}
        for kind in kinds:
            chosen = [s for s in samples if s.kind == kind and second <= s.start - origin < second + 1]
            ok = [s.ms for s in chosen if not s.error]
            row[kind] = {"n": len(chosen), "errors": len(chosen) - len(ok), "max_ms": round(max(ok), 1) if ok else None}
        out.append(row)
    return out


# --------------------------------------------------------------------------- one run


@dataclass
class Options:
    python: str
    clients: int
    hosts: int
    attack_seconds: float
    attack_timeout: float
    max_requests: int
    pre_seconds: float
    rate: float
    steady_timeout: float
    recovery_cap: float
    recovery_hold: float
    recovery_factor: float
    recovery_floor: float
    deadline: float
    stop_bound: float
    quiet: bool
    # drafts and preferences (issue #33): their attack, the honest drafts, the watch after the attack
    draft_clients: int = 4
    hangups: int = 2
    hangup_seconds: float = 2.0
    edit_lines: int = 10_000
    diff_lines: int = 20_000
    draft_rate: float = 10.0
    draft_timeout: float = 20.0
    preference_clients: int = 3
    preference_lines: int = 23_000
    preference_agents: int = 50
    after_min: float = 5.0


def say(opts: Options, text: str) -> None:
    if not opts.quiet:
        print(text, file=sys.stderr, flush=True)


def run_one(opts: Options, version: str, src: Path, scenario: str, site: int, tarpit: Tarpit,
            workdir: Path, hostile_site: int | None = None) -> dict[str, Any]:
    """One version under one scenario: a fresh service, warm-up, steady client, attack, recovery.

    ``hostile_site``: the port of the site serving the hostile robots.txt of ``preferences``."""
    batch = scenario in BATCH
    allow_private = scenario in ("tarpit", "preferences")
    check_path = "/v1/check?" + urlencode({"url": f"http://127.0.0.1:{site}/x", "agent": AGENT})
    expected = 200 if allow_private else 403
    kinds: tuple[str, ...] = ("healthz", "check", "draft") if scenario == "drafts" else ("healthz", "check")
    clients = opts.clients if batch else opts.draft_clients if scenario == "drafts" else opts.preference_clients
    timeout = opts.attack_timeout if batch else opts.draft_timeout
    result: dict[str, Any] = {"version": version, "scenario": scenario, "cached_check": f"GET {check_path}",
                              "cached_check_status": expected, "kinds": list(kinds)}
    with contextlib.ExitStack() as stack:
        svc = stack.enter_context(service(opts.python, src, workdir, allow_private, opts.stop_bound))
        result["service_command"] = " ".join(service_command("python", svc.port, str(svc.cache), allow_private))
        hits = _Site.hits
        warm = []
        for _ in range(2):
            status, body = get(svc.port, check_path, 15.0)
            state = None
            with contextlib.suppress(ValueError, KeyError, IndexError, TypeError):
                state = json.loads(body)["results"][0]["robots"]["cache"]
            warm.append({"status": status, "cache": state})
            if status != expected:
                raise BenchError(f"warm-up: {check_path} answered {status}, not {expected}: {body[:300]!r}")
        attack_path = None
        if scenario == "preferences":
            assert hostile_site is not None
            page = f"http://127.0.0.1:{hostile_site}/page"
            attack_path = "/v1/check?" + urlencode([("url", page)] + [("agent", a) for a in
                                                                     preference_agents(opts.preference_agents)])
            began = time.monotonic()  # one agent: the robots.txt is fetched and cached, few verdicts are made
            status, body = get(svc.port, "/v1/check?" + urlencode({"url": page, "agent": AGENT}), 120.0)
            warm.append({"status": status, "hostile": True, "seconds": round(time.monotonic() - began, 3)})
            if status != 200:
                raise BenchError(f"warm-up of the hostile robots.txt answered {status}: {body[:300]!r}")
        result["warm_up"] = warm
        result["site_fetches"] = _Site.hits - hits
        say(opts, f"[{scenario} / {version}] service on port {svc.port}; warm-up {warm}")

        steady_cfg = {"host": "127.0.0.1", "port": svc.port, "rate": opts.rate, "timeout": opts.steady_timeout,
                      "check_path": check_path, "check_status": [expected],
                      "drafts": "draft" in kinds, "draft_rate": opts.draft_rate,
                      "max_seconds": (opts.pre_seconds + opts.attack_seconds + timeout
                                      + opts.recovery_cap + opts.recovery_hold + opts.after_min + 60)}
        cpu_steady = svc.cpu_seconds()
        steady = stack.enter_context(worker("steady", steady_cfg, workdir, opts.steady_timeout + 5))
        steady_start = time.monotonic()
        time.sleep(opts.pre_seconds)
        if not steady.alive():
            raise BenchError(f"the steady client exited:\n{_tail(steady.stderr)}")
        cpu_before = svc.cpu_seconds()
        pre_wall = time.monotonic() - steady_start

        attack_cfg = {"host": "127.0.0.1", "port": svc.port, "clients": clients, "hosts": opts.hosts,
                      "target_port": tarpit.port, "seconds": opts.attack_seconds, "timeout": timeout,
                      "max_requests": opts.max_requests, "mode": "batch" if batch else scenario,
                      "hangups": opts.hangups if scenario == "drafts" else 0, "hangup_seconds": opts.hangup_seconds,
                      "edit_lines": opts.edit_lines, "diff_lines": opts.diff_lines, "path": attack_path}
        say(opts, f"[{scenario} / {version}] attack: {clients} clients, {opts.attack_seconds:g} s")
        with worker("attack", attack_cfg, workdir, 10.0) as attacker:
            bound = time.monotonic() + opts.attack_seconds + timeout + 30
            while attacker.alive() and time.monotonic() < bound:
                time.sleep(0.1)
        summaries = [line for line in attacker.lines if "sent" in line]
        if not summaries:
            raise BenchError(f"the attack gave no summary ({attacker.stopped}):\n{_tail(attacker.stderr)}")
        attack = summaries[-1]
        attack["stopped"] = attacker.stopped
        attack_start, attack_end = float(attack["start"]), float(attack["end"])
        cpu_end = svc.cpu_seconds()
        say(opts, f"[{scenario} / {version}] attack over after {attack_end - attack_start:.1f} s: "
                  f"{attack['sent']} sent, {attack['statuses']}, {attack['timeouts']} timed out, "
                  f"{attack['hung_up']} hung up; waiting for recovery")

        before = samples_of(steady.lines)
        limits = {}
        for kind in kinds:
            ok = sorted(s.ms for s in before if s.kind == kind and steady_start + 0.5 <= s.start < attack_start
                        and not s.error)
            if not ok:
                raise BenchError(f"no successful {kind} request before the attack:\n{_tail(steady.stderr)}")
            limits[kind] = max(opts.recovery_factor * _rank(ok, 99), opts.recovery_floor)
        slowest = min(opts.rate, opts.draft_rate) if "draft" in kinds else opts.rate
        need = max(1, int(opts.recovery_hold * slowest / 2))
        after_min = 0.0 if batch else opts.after_min  # watch a while: work for nobody shows as CPU
        back: float | None = None
        wait_until = attack_end + max(opts.recovery_cap + opts.recovery_hold, after_min)
        while time.monotonic() < wait_until and steady.alive():
            if back is None:
                back = recovery(samples_of(steady.lines), attack_end, limits, opts.recovery_hold, need)
            if back is not None and time.monotonic() >= attack_end + after_min:
                break
            time.sleep(0.25)
        measured_until = time.monotonic()
        cpu_after = svc.cpu_seconds()
        result["service_status"] = svc.status()
        stack.pop_all().close()  # steady client, then the service
    samples = samples_of(steady.lines)
    if back is None:
        back = recovery(samples, attack_end, limits, opts.recovery_hold, need)
    if back is not None and back - attack_end > opts.recovery_cap:
        back = None
    windows = {"before": (steady_start + 0.5, attack_start), "during": (attack_start, attack_end),
               "after": (attack_end, measured_until)}
    result["steady"] = {kind: {name: phase(samples, kind, *window) for name, window in windows.items()}
                        for kind in kinds}
    result["steady"]["stopped"] = steady.stopped
    result["attack"] = attack
    result["attack"]["duration_s"] = round(attack_end - attack_start, 3)
    result["attack"]["send_window_s"] = round(float(attack["last_send"]) - attack_start, 3)
    result["attack"]["clients"] = clients
    result["attack"]["timeout_s"] = timeout
    result["recovery"] = {"seconds": None if back is None else round(max(0.0, back - attack_end), 3),
                          "cap_s": opts.recovery_cap, "hold_s": opts.recovery_hold,
                          "limits_ms": {k: round(v, 3) for k, v in limits.items()},
                          "measured_after_s": round(measured_until - attack_end, 3)}
    # The steady client's own cost, from its time alone with the service: CPU after the attack beyond
    # it is work for clients that are gone.
    steady_rate = None if cpu_steady is None or cpu_before is None else (cpu_before - cpu_steady) / pre_wall
    cpu_after_s = None if cpu_end is None or cpu_after is None else round(cpu_after - cpu_end, 2)
    result["service"] = {
        "stopped": svc.stopped,
        "cpu_s_before_attack": cpu_before,
        "cpu_s_during_attack": None if cpu_before is None or cpu_end is None else round(cpu_end - cpu_before, 2),
        "cpu_s_after_attack": cpu_after_s,
        "cpu_s_per_s_steady": None if steady_rate is None else round(steady_rate, 3),
        "cpu_s_after_attack_excess": None if cpu_after_s is None or steady_rate is None else
        round(max(0.0, cpu_after_s - steady_rate * (measured_until - attack_end)), 2),
        "cache_file_bytes": svc.cache.stat().st_size if svc.cache.exists() else None,
        "log_lines": len(svc.log.read_text(errors="replace").splitlines()) if svc.log.exists() else 0,
        "log_tracebacks": svc.log.read_text(errors="replace").count("Traceback") if svc.log.exists() else 0,
        **result.pop("service_status"),
    }
    result["tarpit"] = {"during_attack": tarpit.since(attack_start, attack_end),
                        "after_attack": tarpit.since(attack_end, measured_until),
                        "after_until_stopped": tarpit.since(attack_end)}
    result["series"] = series(samples, attack_start, measured_until, kinds)
    result["goals"] = goals(result, opts.deadline) if batch else hostile_goals(result, opts.deadline)
    return result


def _answered(attack: dict[str, Any], deadline: float) -> dict[str, Any]:
    """Goal: every attack request of a patient client answered (no timeout, no connection error)
    within the deadline and its grace; a hanging-up client's requests are not waited for."""
    answered = attack["timeouts"] == 0 and not attack["errors"] and not attack["cancelled"] and attack["sent"] > 0
    worst = attack["answered_max_ms"] if attack["timeouts"] == 0 else attack["max_ms"]
    return {"goal": f"all answered, max <= {deadline:g} s + {DEADLINE_GRACE:g} s", "value": worst,
            "met": answered and worst is not None and worst <= (deadline + DEADLINE_GRACE) * 1000}


def goals(result: dict[str, Any], deadline: float) -> dict[str, dict[str, Any]]:
    steady, attack = result["steady"], result["attack"]
    health, check = steady["healthz"]["during"]["p99_ms"], steady["check"]["during"]["p99_ms"]
    back = result["recovery"]["seconds"]
    return {
        "healthz_p99": {"goal": f"< {GOALS['healthz_p99_ms']:.0f} ms", "value": health,
                        "met": health is not None and health < GOALS["healthz_p99_ms"]},
        "check_p99": {"goal": f"< {GOALS['check_p99_ms']:.0f} ms", "value": check,
                      "met": check is not None and check < GOALS["check_p99_ms"]},
        "recovery": {"goal": f"< {GOALS['recovery_s']:.0f} s", "value": back,
                     "met": back is not None and back < GOALS["recovery_s"]},
        "attack_answered": _answered(attack, deadline),
    }


def hostile_goals(result: dict[str, Any], deadline: float) -> dict[str, dict[str, Any]]:
    """The goals of issue #33 for ``drafts`` and ``preferences``: /healthz p99 during the attack,
    the honest drafts (``drafts``: p99 under 1 s, no error, a 503 included) or the cached check
    (``preferences``: p99 under 50 ms), no work for clients that are gone, attack answered in time."""
    steady = result["steady"]
    health = steady["healthz"]["during"]["p99_ms"]
    found: dict[str, dict[str, Any]] = {
        "healthz_p99": {"goal": f"< {GOALS['healthz_p99_ms']:.0f} ms", "value": health,
                        "met": health is not None and health < GOALS["healthz_p99_ms"]}}
    if "draft" in steady:
        during = steady["draft"]["during"]
        value = during["p99_ms"]
        found["draft_p99"] = {"goal": f"< {GOALS['draft_p99_ms']:.0f} ms, no error (503 included)", "value": value,
                              "errors": during["errors"], "error_kinds": during["error_kinds"],
                              "met": value is not None and value < GOALS["draft_p99_ms"] and during["errors"] == 0
                              and during["requests"] > 0}
    else:
        check = steady["check"]["during"]["p99_ms"]
        found["check_p99"] = {"goal": f"< {GOALS['check_p99_ms']:.0f} ms", "value": check,
                              "met": check is not None and check < GOALS["check_p99_ms"]}
    excess = result["service"]["cpu_s_after_attack_excess"]
    found["cpu_after"] = {"goal": f"< {GOALS['cpu_after_excess_s']:g} s beyond the steady client's own",
                          "value": excess, "met": excess is not None and excess < GOALS["cpu_after_excess_s"]}
    found["attack_answered"] = _answered(result["attack"], deadline)
    return found


# --------------------------------------------------------------------------- report


def _ms(value: float | None, error: str | None = None) -> str:
    if value is None:
        return error or "-"
    if value >= 1000:
        return f"{value / 1000:,.1f} s"
    return f"{value:,.1f}" if value < 100 else f"{value:,.0f}"


def _cell(p: dict[str, Any]) -> str:
    if not p["requests"]:
        return "-"
    errors = f", {p['errors']} err" if p["errors"] else ""
    return f"{_ms(p['p50_ms'], p['p50_error'])} / {_ms(p['p99_ms'], p['p99_error'])} ({p['requests']}{errors})"


def _kb(size: float) -> str:
    return f"{size / 1000:,.0f} KB" if size >= 1000 else f"{size:,.0f} B"


def _errors_cell(p: dict[str, Any]) -> str:
    """The errors of a phase by kind (``status 503: 12``), for the honest drafts."""
    return ", ".join(f"{k}: {v}" for k, v in p["error_kinds"].items()) or "none"


def report(data: dict[str, Any]) -> str:
    cfg = data["config"]
    scenarios = cfg.get("scenarios", list(BATCH))
    runs = data["runs"]
    attacks = []
    if set(scenarios) & set(BATCH):
        attacks.append(
            f"**{' and '.join(s for s in scenarios if s in BATCH)}**: {cfg['clients']} clients x `POST /v1/check` "
            f"of {cfg['hosts']:,} distinct hosts in 127.0.0.0/8 (~{_kb(max((r['attack']['request_bytes'] for r in runs if r['scenario'] in BATCH), default=0))} "
            f"a request), sent for {cfg['attack_seconds']:g} s, client timeout {cfg['attack_timeout']:g} s.")
    if "drafts" in scenarios:
        attacks.append(
            f"**drafts**: {cfg['draft_clients']} clients ({cfg['hangups']} hanging up after "
            f"{cfg['hangup_seconds']:g} s, the others wait {cfg['draft_timeout']:g} s), each sending in turn `POST "
            f"/v1/edit` of one group of {cfg['edit_lines']:,} `User-agent` lines of distinct tokens and `Disallow: /x`, "
            f"blocking GPTBot (~{_kb(cfg['edit_bytes'])}), and `POST /v1/diff` of that group on each side with "
            f"{cfg['diff_lines']:,} lines, its rule changed (~{_kb(cfg['diff_bytes'])}), for {cfg['attack_seconds']:g} s; "
            f"the steady client also sends an honest draft (`POST /v1/lint` and `POST /v1/test` of 5 lines, in turn), "
            f"{cfg['draft_rate']:g}/s (any error, a 503 included, counts).")
    if "preferences" in scenarios:
        attacks.append(
            f"**preferences**: {cfg['preference_clients']} clients each sending `GET /v1/check` of one page for "
            f"{cfg['preference_agents']} agents, on a loopback site whose robots.txt is `User-agent: *`, "
            f"`Disallow: /private` and {cfg['preference_lines']:,} `Content-Usage: /*b x` lines "
            f"(~{_kb(cfg['preference_bytes'])}, cached by one request before the load), for {cfg['attack_seconds']:g} s, "
            f"client timeout {cfg['draft_timeout']:g} s.")
    lines = [
        "## The service under attack (issue #16, H1; issue #33)",
        "",
        *[f"- {text}" for text in attacks],
        "",
        (f"Steady client: `GET /healthz` and a cached `GET /v1/check`, {cfg['steady_rate']:g}/s each, timeout "
         f"{cfg['steady_timeout']:g} s. {data['machine']['cpus']} CPUs, Python {data['machine']['python']}, "
         f"{data['date']}."),
        "",
    ]
    for v in data["versions"]:
        lines.append(f"- **{v['name']}**: `{v['src']}` ({v['describe']}); robotrules imported from `{v['imported_from']}`")
    lines += ["", ("Scenarios: **refused** = default guard, the attack hosts and the cached check are answered "
              "403 by the guard; **tarpit** = `--allow-private`, every attack host is a tarpit that accepts and "
              "never answers, the cached check is a warmed robots.txt on 127.0.0.1; **drafts** = default guard "
              "(cached check 403), hostile drafts; **preferences** = `--allow-private`, checks of a warmed hostile "
              "robots.txt, the cached check as in tarpit."), ""]

    labels = {"healthz": "/healthz", "draft": "honest draft (lint / test)"}
    lines += ["### Steady client: p50 / p99 latency (ms unless marked), (requests, errors)", "",
              "| scenario | version | request | before the attack | during the attack | after the attack |",
              "|---|---|---|---:|---:|---:|"]
    for r in runs:
        for kind in r.get("kinds", ("healthz", "check")):
            label = labels.get(kind, f"cached check ({r['cached_check_status']})")
            p = r["steady"][kind]
            lines.append(f"| {r['scenario']} | {r['version']} | {label} | {_cell(p['before'])} | "
                         f"{_cell(p['during'])} | {_cell(p['after'])} |")
    for r in runs:
        if "draft" in r["steady"] and r["steady"]["draft"]["during"]["errors"]:
            lines += ["", (f"Honest drafts' errors during the attack ({r['scenario']} / {r['version']}): "
                           f"{_errors_cell(r['steady']['draft']['during'])}.")]

    lines += ["", "### Attack requests", "",
              ("| scenario | version | sent | answered, by status | Retry-After | timed out | hung up | connection "
               "errors | answered p50 | max latency | largest answer | attack lasted |"),
              "|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in runs:
        a = r["attack"]
        by_status = ", ".join(f"{k}: {v:,}" for k, v in a["statuses"].items()) or "none"
        errors = ", ".join(f"{k}: {v}" for k, v in a["errors"].items()) or "0"
        worst = _ms(a["max_ms"]) + (" (timeout)" if a["timeouts"] else "")
        sent = f"{a['sent']:,}" + (" (all hosts used)" if r["scenario"] in BATCH and
                                   a["hosts_used"] + cfg["hosts"] > LAST_HOST - FIRST_HOST + 1 else "")
        hung = f"{a.get('hung_up', 0):,} ({a['hangup_clients']} clients)" if a.get("hangup_clients") else "-"
        lines.append(f"| {r['scenario']} | {r['version']} | {sent} | {by_status} | {a['retry_after']:,} | "
                     f"{a['timeouts']:,} | {hung} | {errors} | {_ms(a['answered_p50_ms'])} | {worst} | "
                     f"{_kb(a.get('largest_answer_bytes', 0))} | {a['duration_s']:.1f} s |")

    for r in runs:
        if r["scenario"] == "tarpit" and not r["tarpit"]["after_until_stopped"] and r["attack"]["statuses"].get("422"):
            lines += ["", (f"Note: {r['version']} refused the tarpit attack's requests up front (422) and opened no "
                          "connection to the tarpit: run with `--hosts` under its per-request limit of distinct hosts "
                          "to measure hanging fetches.")]

    lines += ["", "### Recovery and the service process", "",
              ("| scenario | version | back to baseline | limits (ms) | service CPU during / after the attack "
               "(after, beyond the steady client's own) | tarpit connections during / after | peak RSS | threads | "
               "cache file | service stop |"),
              "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in runs:
        rec, s, t = r["recovery"], r["service"], r["tarpit"]
        back = f"{rec['seconds']:.1f} s" if rec["seconds"] is not None else f"> {rec['cap_s']:g} s"
        cpu = f"{_num(s['cpu_s_during_attack'])} s / {_num(s['cpu_s_after_attack'])} s"
        if s.get("cpu_s_after_attack_excess") is not None:
            cpu += f" ({_num(s['cpu_s_after_attack_excess'])} s in {rec['measured_after_s']:.0f} s)"
        rss = f"{s['peak_rss'] / 2**20:,.0f} MiB" if "peak_rss" in s else "-"
        size = f"{s['cache_file_bytes'] / 2**20:,.1f} MiB" if s["cache_file_bytes"] is not None else "-"
        limits = " / ".join(f"{_ms(v)}" for v in rec["limits_ms"].values())
        lines.append(f"| {r['scenario']} | {r['version']} | {back} | {limits} | {cpu} | "
                     f"{t['during_attack']:,} / {t['after_until_stopped']:,} | {rss} | {s.get('threads', '-')} | "
                     f"{size} | {s['stopped']} |")

    batch = [r for r in runs if r["scenario"] in BATCH]
    if batch:
        lines += ["", "### Goals (issue #16, H1)", "",
                  ("| scenario | version | healthz p99 during < 100 ms | cached check p99 during < 50 ms | "
                   f"recovery < 5 s | every attack request answered within {cfg['deadline']:g} s (+{DEADLINE_GRACE:g}) |"),
                  "|---|---|---|---|---|---|"]
    for r in batch:
        g = r["goals"]
        rec = r["recovery"]
        cells = [
            _verdict(g["healthz_p99"]["met"], _ms(g["healthz_p99"]["value"], r["steady"]["healthz"]["during"]["p99_error"])),
            _verdict(g["check_p99"]["met"], _ms(g["check_p99"]["value"], r["steady"]["check"]["during"]["p99_error"])),
            _verdict(g["recovery"]["met"], f"{rec['seconds']:.1f} s" if rec["seconds"] is not None else f"> {rec['cap_s']:g} s"),
            _verdict(g["attack_answered"]["met"], _answered_cell(r)),
        ]
        lines.append(f"| {r['scenario']} | {r['version']} | " + " | ".join(cells) + " |")
    hostile = [r for r in runs if r["scenario"] not in BATCH]
    if hostile:
        lines += ["", "### Goals (issue #33)", "",
                  ("| scenario | version | healthz p99 during < 100 ms | honest drafts p99 during < 1 s, no error "
                   f"(drafts) / cached check p99 during < 50 ms (preferences) | service CPU after the attack < "
                   f"{GOALS['cpu_after_excess_s']:g} s beyond the steady client's | every attack request of a patient "
                   f"client answered within {cfg['deadline']:g} s (+{DEADLINE_GRACE:g}) |"),
                  "|---|---|---|---|---|---|"]
    for r in hostile:
        g, steady = r["goals"], r["steady"]
        if "draft_p99" in g:
            d = steady["draft"]["during"]
            second = _verdict(g["draft_p99"]["met"], _ms(d["p99_ms"], d["p99_error"])
                              + (f", {d['errors']} errors ({_errors_cell(d)})" if d["errors"] else ""))
        else:
            second = _verdict(g["check_p99"]["met"], _ms(g["check_p99"]["value"], steady["check"]["during"]["p99_error"]))
        excess = g["cpu_after"]["value"]
        cells = [
            _verdict(g["healthz_p99"]["met"], _ms(g["healthz_p99"]["value"], steady["healthz"]["during"]["p99_error"])),
            second,
            _verdict(g["cpu_after"]["met"], "-" if excess is None else f"{excess:,.1f} s"),
            _verdict(g["attack_answered"]["met"], _answered_cell(r)),
        ]
        lines.append(f"| {r['scenario']} | {r['version']} | " + " | ".join(cells) + " |")
    lines += ["", "Commands:", "", "```sh", data["command"]] + [f"# {r['scenario']} / {r['version']}: {r['service_command']}"
                                                                  for r in runs] + ["```", ""]
    return "\n".join(lines)


def _answered_cell(r: dict[str, Any]) -> str:
    a = r["attack"]
    return (f"max {_ms(a['max_ms'])}, {a['timeouts']} timed out"
            + (f", {sum(a['errors'].values())} connection errors" if a["errors"] else ""))


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:,.1f}"


def _verdict(met: bool, value: str) -> str:
    return f"met ({value})" if met else f"**NOT met** ({value})"


# --------------------------------------------------------------------------- main


def describe_worktree() -> str:
    def git(*args: str) -> str:
        done = subprocess.run(["git", "-C", str(REPO_ROOT), *args], capture_output=True, text=True, check=False)
        return done.stdout.strip()

    head = git("rev-parse", "--short", "HEAD")
    dirty = git("status", "--porcelain", "--", "src")
    return f"HEAD {head or '?'}, " + ("uncommitted changes in src/" if dirty else "src/ as committed")


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt(f"signal {signum}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_worker"] and len(argv) == 3:
        return (steady_worker if argv[1] == "steady" else attack_worker)(json.loads(argv[2]))
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n", 1)[0])
    parser.add_argument("--attack-seconds", type=float, default=None, help="how long the attack sends (default 20)")
    parser.add_argument("--clients", type=int, default=None, help="concurrent attack clients (default 100)")
    parser.add_argument("--hosts", type=int, default=None, help="distinct hosts per attack request (default 1,000)")
    parser.add_argument("--attack-timeout", type=float, default=None, help="attack client timeout, s (default 60)")
    parser.add_argument("--max-requests", type=int, default=None,
                        help="attack requests at most (default: as many as 127.0.0.0/8 has hosts for)")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS),
                        help=f"{','.join(SCENARIOS)} (default all)")
    parser.add_argument("--baseline", default=DEFAULT_BASELINE, help=f"git revision measured too (default {DEFAULT_BASELINE})")
    parser.add_argument("--no-baseline", action="store_true", help="measure only the work tree")
    parser.add_argument("--no-worktree", action="store_true", help="measure only the baseline")
    parser.add_argument("--src", type=Path, default=REPO_ROOT / "src",
                        help="the tree measured as the work tree (default: src/ of this repository)")
    parser.add_argument("--python", default=sys.executable, help="the interpreter that runs the service")
    parser.add_argument("--pre-seconds", type=float, default=None, help="steady client alone before the attack (default 5)")
    parser.add_argument("--steady-rate", type=float, default=None, help="requests/s of each steady type (default 20)")
    parser.add_argument("--steady-timeout", type=float, default=2.0, help="steady client timeout, s (default 2)")
    parser.add_argument("--recovery-cap", type=float, default=None, help="longest wait for recovery, s (default 60)")
    parser.add_argument("--recovery-hold", type=float, default=2.0, help="recovered: this long under the limit (2 s)")
    parser.add_argument("--recovery-factor", type=float, default=2.0, help="limit = this x the pre-attack p99 (2)")
    parser.add_argument("--recovery-floor", type=float, default=0.0,
                        help="the limit is at least this many ms (default 0: exactly factor x p99)")
    parser.add_argument("--deadline", type=float, default=10.0, help="the service's request deadline, s (default 10)")
    parser.add_argument("--stop-bound", type=float, default=None, help="SIGINT to SIGKILL, s (default 10)")
    hostile = parser.add_argument_group("drafts and preferences (issue #33)")
    hostile.add_argument("--draft-clients", type=int, default=None, help="attack clients of drafts (default 4)")
    hostile.add_argument("--hangups", type=int, default=None,
                         help="of them, clients that hang up after --hangup-seconds (default half)")
    hostile.add_argument("--hangup-seconds", type=float, default=2.0, help="when they hang up, s (default 2)")
    hostile.add_argument("--edit-lines", type=int, default=None,
                         help="User-agent lines of the hostile /v1/edit (default 10,000)")
    hostile.add_argument("--diff-lines", type=int, default=None,
                         help="User-agent lines of each side of the hostile /v1/diff (default 20,000)")
    hostile.add_argument("--draft-rate", type=float, default=None, help="honest drafts a second (default 10)")
    hostile.add_argument("--draft-timeout", type=float, default=None,
                         help="timeout of a patient attack client of drafts and preferences, s (default 20)")
    hostile.add_argument("--preference-clients", type=int, default=None, help="attack clients of preferences (default 3)")
    hostile.add_argument("--preference-lines", type=int, default=None,
                         help="Content-Usage lines of the hostile robots.txt (default 23,000)")
    hostile.add_argument("--preference-agents", type=int, default=None, help="agents of each attack check (default 50)")
    hostile.add_argument("--after-min", type=float, default=None,
                         help="watch the service at least this long after the attack, s (default 5)")
    parser.add_argument("--quick", action="store_true",
                        help=("a smoke run: 4 clients, 50 hosts, 1 s of attack, 3 s timeouts and recovery cap; "
                              "drafts of 200 / 300 lines, 500 Content-Usage lines and 5 agents"))
    parser.add_argument("--workdir", type=Path, default=None, help="keep the service logs and caches here")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--markdown", type=Path, default=None)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)

    quick = args.quick

    def pick(given: Any, normal: Any, small: Any) -> Any:
        return given if given is not None else small if quick else normal

    hosts = pick(args.hosts, 1000, 50)
    opts = Options(
        python=args.python, clients=pick(args.clients, 100, 4), hosts=hosts,
        attack_seconds=pick(args.attack_seconds, 20.0, 1.0), attack_timeout=pick(args.attack_timeout, 60.0, 3.0),
        max_requests=min(pick(args.max_requests, attack_blocks(hosts), attack_blocks(hosts)), attack_blocks(hosts)),
        pre_seconds=pick(args.pre_seconds, 5.0, 1.0), rate=pick(args.steady_rate, 20.0, 20.0),
        steady_timeout=args.steady_timeout, recovery_cap=pick(args.recovery_cap, 60.0, 3.0),
        recovery_hold=args.recovery_hold, recovery_factor=args.recovery_factor,
        recovery_floor=args.recovery_floor, deadline=args.deadline,
        stop_bound=pick(args.stop_bound, 10.0, 3.0), quiet=args.quiet,
        draft_clients=pick(args.draft_clients, 4, 2), hangup_seconds=args.hangup_seconds,
        edit_lines=pick(args.edit_lines, 10_000, 200), diff_lines=pick(args.diff_lines, 20_000, 300),
        draft_rate=pick(args.draft_rate, 10.0, 10.0), draft_timeout=pick(args.draft_timeout, 20.0, 3.0),
        preference_clients=pick(args.preference_clients, 3, 2),
        preference_lines=pick(args.preference_lines, 23_000, 500),
        preference_agents=pick(args.preference_agents, 50, 5), after_min=pick(args.after_min, 5.0, 1.0))
    opts.hangups = min(opts.draft_clients, args.hangups if args.hangups is not None else opts.draft_clients // 2)
    if args.no_baseline and args.no_worktree:
        parser.error("--no-baseline and --no-worktree leave nothing to measure")
    scenarios = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    if not scenarios or set(scenarios) - set(SCENARIOS):
        parser.error(f"--scenarios: a list of {', '.join(SCENARIOS)}")
    if min(opts.clients, opts.hosts, opts.max_requests) < 1 or min(opts.attack_seconds, opts.attack_timeout,
                                                                    opts.rate, opts.steady_timeout) <= 0:
        parser.error("--clients, --hosts, --max-requests, --attack-seconds, --attack-timeout, --steady-rate and "
                     "--steady-timeout must be positive")
    if min(opts.draft_clients, opts.edit_lines, opts.diff_lines, opts.preference_clients, opts.preference_lines,
           opts.preference_agents) < 1 or min(opts.draft_rate, opts.draft_timeout, opts.hangup_seconds) <= 0 \
            or opts.hangups < 0 or opts.after_min < 0 or max(opts.edit_lines, opts.diff_lines) > 26 ** 4:
        parser.error("the options of drafts and preferences must be positive (--edit-lines and --diff-lines at "
                     f"most {26 ** 4:,})")

    previous = signal.signal(signal.SIGTERM, _on_sigterm) if threading.current_thread() is threading.main_thread() \
        else None
    try:
        return _bench(args, opts, scenarios, argv)
    except KeyboardInterrupt:
        print("interrupted: every process of the bench was stopped", file=sys.stderr)
        return 130
    except BenchError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _bench(args: argparse.Namespace, opts: Options, scenarios: list[str], argv: list[str]) -> int:
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard if hard != resource.RLIM_INFINITY else 65536, hard))
    runs: list[dict[str, Any]] = []
    versions: list[dict[str, str]] = []
    with contextlib.ExitStack() as stack:
        src = args.src.resolve()
        mine = src == (REPO_ROOT / "src").resolve()
        trees = [] if args.no_worktree else [("work tree" if mine else f"src {src}", src,
                                              describe_worktree() if mine else "given with --src")]
        if not args.no_baseline:
            src, commit = stack.enter_context(checkout(args.baseline))
            trees.append((f"baseline {args.baseline}", src, f"git worktree of {commit[:12]}"))
        for name, src, describe in trees:
            versions.append({"name": name, "src": str(src), "describe": describe,
                             "imported_from": imported_from(opts.python, src)})
        root = args.workdir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="robotrules-attack-")))
        site = stack.enter_context(robots_site())
        hostile_site = stack.enter_context(robots_site(preference_robots(opts.preference_lines))) \
            if "preferences" in scenarios else None
        tarpit = Tarpit()
        stack.callback(tarpit.close)
        for scenario in scenarios:
            for name, src, _ in trees:
                workdir = root / f"{scenario}-{name.split()[0] if name.split()[0] != 'src' else 'other'}"
                workdir.mkdir(parents=True, exist_ok=True)
                runs.append(run_one(opts, name, src, scenario, site, tarpit, workdir, hostile_site))
        foreign = tarpit.foreign

    data = {
        "benchmark": "service_attack_bench",
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0], "platform": platform.platform(),
                    "service_python": opts.python},
        "command": " ".join(["python bench/service_attack_bench.py", *argv]),
        "config": {"clients": opts.clients, "hosts": opts.hosts, "attack_seconds": opts.attack_seconds,
                   "attack_timeout": opts.attack_timeout, "max_requests": opts.max_requests,
                   "request_bytes": max((r["attack"]["request_bytes"] for r in runs if r["scenario"] in BATCH), default=0),
                   "pre_seconds": opts.pre_seconds, "steady_rate": opts.rate, "steady_timeout": opts.steady_timeout,
                   "recovery_cap": opts.recovery_cap, "recovery_hold": opts.recovery_hold,
                   "recovery_factor": opts.recovery_factor, "recovery_floor_ms": opts.recovery_floor,
                   "deadline": opts.deadline, "stop_bound": opts.stop_bound,
                   "quick": args.quick, "scenarios": scenarios,
                   "draft_clients": opts.draft_clients, "hangups": opts.hangups,
                   "hangup_seconds": opts.hangup_seconds, "draft_timeout": opts.draft_timeout,
                   "edit_lines": opts.edit_lines, "edit_bytes": len(edit_body(opts.edit_lines)),
                   "diff_lines": opts.diff_lines, "diff_bytes": len(diff_body(opts.diff_lines)),
                   "draft_rate": opts.draft_rate, "preference_clients": opts.preference_clients,
                   "preference_lines": opts.preference_lines,
                   "preference_bytes": len(preference_robots(opts.preference_lines)),
                   "preference_agents": opts.preference_agents, "after_min": opts.after_min},
        "versions": versions,
        "goals": GOALS,
        "tarpit_foreign_peers": foreign,
        "runs": runs,
    }
    text = report(data)
    print(text)
    if args.json:
        args.json.write_text(json.dumps(data, indent=2) + "\n")
    if args.markdown:
        args.markdown.write_text(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
