"""One crawler process of the fault suite: ``python -m tests.faults._worker CONFIG_JSON``.

It opens the shared store (a RedisStore or an SQLiteStore), makes its own
:class:`~robotrules.RobotsClient`, checks every host once (the warm-up), writes its ready file,
then checks a stream of URLs from a few threads until told to stop, comparing every verdict with
the right answer. It imports no pytest and no test module but :mod:`tests.client._stores` (the
loopback HTTP client), so it starts fast.

Control, on stdin: one phase name a line (``outage``, ``fault``, ``recovered``; before the first,
the phase is ``warm``); ``stop`` or the end of stdin stops it (so does ``max_seconds``). After
the stop it checks every host once more (the ``final`` phase) and writes its report, a JSON
object, to the ``report`` path: per phase the checks, exceptions, wrong verdicts and seconds;
samples of exceptions (with tracebacks) and wrong verdicts; the store's calls and StoreErrors.

The right answers (the hosts and their bodies come from :func:`body`, shared with the test):

- ``steady`` hosts always answer 200: ``/private/`` disallowed, ``/public/`` allowed, each by
  its line;
- ``outage`` hosts answer 200, then 503 once the outage starts: the good copy fetched before goes
  on deciding (C2), so the answers never change;
- ``dark`` hosts always answer 503 and were never fetched successfully: full disallow (F5).
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import random
import sys
import threading
import time
import traceback
from collections import Counter
from typing import Any

KINDS = ("steady", "outage", "dark")
SAMPLES = 5  # exceptions and wrong verdicts kept verbatim per worker


def body(host: str, index: int) -> bytes:
    """The robots.txt of a host that answers 200: ``index + 1`` comment lines first, so that each
    host's deciding lines differ (a copy of another host's file would give the wrong line)."""
    head = "".join(f"# robots.txt of {host}, line {n + 1}\n" for n in range(index + 1))
    return (head + "user-agent: *\ndisallow: /private/\nallow: /public/\n").encode()


def expected(kind: str, index: int, section: str) -> tuple[bool, int]:
    """(allowed, deciding line) for ``/<section>/...`` on a host of ``kind``; line 0: no rule decides."""
    if kind == "dark":
        return False, 0  # F5: never fetched, 503: full disallow
    first_rule = index + 3  # comment lines, then user-agent, then the disallow line
    return (False, first_rule) if section == "private" else (True, first_rule + 1)


class CountingStore:
    """The shared store, passed through untouched; counts each method's calls and what they raised."""

    blocking = True

    def __init__(self, inner: Any, phase: Phase) -> None:
        self.inner = inner
        self.phase = phase
        self.calls: Counter[str] = Counter()
        self.store_errors: Counter[str] = Counter()
        self.store_errors_by_phase: Counter[str] = Counter()
        self.other_errors: Counter[str] = Counter()  # anything but StoreError: escapes the client's guard
        self._lock = threading.Lock()

    def _run(self, name: str, call: Any, *args: Any) -> Any:
        from robotrules.errors import StoreError

        with self._lock:
            self.calls[name] += 1
        try:
            return call(*args)
        except StoreError:
            with self._lock:
                self.store_errors[name] += 1
                self.store_errors_by_phase[self.phase.name] += 1
            raise
        except Exception as exc:
            with self._lock:
                self.other_errors[f"{name}: {type(exc).__name__}: {str(exc)[:200]}"] += 1
            raise

    def get(self, key: str) -> Any:
        return self._run("get", self.inner.get, key)

    def put(self, entry: Any) -> None:
        self._run("put", self.inner.put, entry)

    def delete(self, key: str) -> None:
        self._run("delete", self.inner.delete, key)

    def acquire(self, key: str, ttl: float) -> Any:
        return self._run("acquire", self.inner.acquire, key, ttl)

    def release(self, key: str, token: str) -> None:
        self._run("release", self.inner.release, key, token)

    def close(self) -> None:
        self.inner.close()


class LogCounter(logging.Handler):
    """Counts the library's log records by level and keeps the first few messages."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.levels: Counter[str] = Counter()
        self.first: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.levels[record.levelname] += 1
        if len(self.first) < 8:
            self.first.append(f"{record.name} {record.levelname}: {record.getMessage()[:300]}")


class Phase:
    """The current phase, set by the stdin reader; when each phase started (monotonic seconds)."""

    def __init__(self) -> None:
        self.name = "warm"
        self.started: dict[str, float] = {"warm": time.monotonic()}
        self.stop = threading.Event()

    def enter(self, name: str) -> None:
        self.started[name] = time.monotonic()
        self.name = name

    def read_commands(self) -> None:
        for line in sys.stdin:
            command = line.strip()
            if command == "stop":
                break
            if command:
                self.enter(command)
        self.stop.set()  # "stop", or the parent went away


class Tally:
    """What one thread saw: per phase, checks, exceptions and wrong verdicts; and samples of each."""

    def __init__(self) -> None:
        self.checks: Counter[str] = Counter()
        self.exceptions: Counter[str] = Counter()
        self.wrong: Counter[str] = Counter()
        self.exception_types: Counter[str] = Counter()
        self.exception_samples: list[str] = []
        self.wrong_samples: list[str] = []
        self.good_copy_after_failure = 0  # outage hosts answered by their good copy after a failed refresh (C2)
        self.store_states: Counter[str] = Counter()  # the client's store breaker, as check() reported it
        self.cache_states: Counter[str] = Counter()

    def merge(self, other: Tally) -> None:
        for mine, theirs in ((self.checks, other.checks), (self.exceptions, other.exceptions),
                             (self.wrong, other.wrong), (self.exception_types, other.exception_types),
                             (self.store_states, other.store_states), (self.cache_states, other.cache_states)):
            mine.update(theirs)
        self.exception_samples += other.exception_samples[: SAMPLES - len(self.exception_samples)]
        self.wrong_samples += other.wrong_samples[: SAMPLES - len(self.wrong_samples)]
        self.good_copy_after_failure += other.good_copy_after_failure


def check_one(client: Any, tally: Tally, phase: str, host: str, kind: str, index: int, section: str, n: int,
              full: bool) -> None:
    """One check (``check()`` if ``full``, else ``allowed()``), compared with the right answer."""
    url = f"http://{host}/{section}/page-{n}.html"
    want, line = expected(kind, index, section)
    tally.checks[phase] += 1
    try:
        if full:
            result = client.check(url, "faultbot")
            got: tuple[Any, ...] = (result.allowed, result.line)
            right = got == (want, line)
            state = result.state
            tally.store_states[state.store] += 1
            tally.cache_states[state.cache] += 1
            if kind == "outage" and right and state.failures > 0 and state.kind == "rules":
                tally.good_copy_after_failure += 1
            why = f"{state.kind}, {state.reason}, failures {state.failures}, cache {state.cache}, store {state.store}"
        else:
            allowed = client.allowed(url, "faultbot")
            got = (allowed,)
            right = allowed is want
            why = "allowed()"
    except Exception as exc:  # the suite's point: nothing may escape allowed()/check()
        tally.exceptions[phase] += 1
        tally.exception_types[f"{type(exc).__name__}: {str(exc)[:200]}"] += 1
        if len(tally.exception_samples) < SAMPLES:
            tally.exception_samples.append(f"[{phase}] {url}\n{traceback.format_exc()}")
        return
    if not right:
        tally.wrong[phase] += 1
        if len(tally.wrong_samples) < SAMPLES:
            tally.wrong_samples.append(f"[{phase}] {url}: got {got}, want {(want, line)} ({why})")


def open_store(spec: list[str], timeout: float) -> Any:
    from robotrules import RedisStore, SQLiteStore

    kind, where, prefix = spec
    if kind == "redis":
        return RedisStore(where, prefix=prefix, timeout=timeout)
    if kind == "sqlite":
        return SQLiteStore(where, timeout=timeout)
    raise ValueError(kind)


def make_policy(ttl: float) -> Any:
    """The worker's policy: Google's rules with every lifetime and retry interval ``ttl`` seconds,
    so that refreshes (and so outages and store faults) happen within the test."""
    from robotrules import Policy

    return Policy(default_ttl=ttl, min_ttl=0.0, retry_after_error=ttl, retry_after_503=ttl,
                  max_retry_interval=ttl, fetch_timeout=5.0)


def run(config: dict[str, Any]) -> dict[str, Any]:
    from robotrules import RobotsClient
    from tests.client._stores import loopback_http

    logs = LogCounter()
    logging.getLogger("robotrules").addHandler(logs)
    logging.getLogger("robotrules").setLevel(logging.INFO)
    logging.getLogger("robotrules").propagate = False  # counted here, not printed on stderr

    hosts: list[tuple[str, str, int]] = [(h, k, i) for h, k, i in config["hosts"]]
    phase = Phase()
    store = CountingStore(open_store(config["store"], config["store_timeout"]), phase)
    http = loopback_http(config["port"])
    client = RobotsClient(store, http_client=http, policy=make_policy(config["ttl"]),
                          store_cooldown=config["store_cooldown"])
    deadline = time.monotonic() + config["max_seconds"]

    warm = Tally()
    for host, kind, index in hosts:
        for section in ("private", "public"):
            check_one(client, warm, "warm", host, kind, index, section, 0, True)
    with open(config["ready"] + ".tmp", "w") as f:
        json.dump({"pid": os.getpid(), "permissions_apply": config.get("permissions_apply")}, f)
    os.replace(config["ready"] + ".tmp", config["ready"])  # the parent sees it whole or not at all

    threading.Thread(target=phase.read_commands, daemon=True).start()

    def loop(seed: int, tally: Tally) -> None:
        rng = random.Random(seed)
        work = [(h, k, i, s) for h, k, i in hosts for s in ("private", "public")]
        n = 0
        while not phase.stop.is_set() and time.monotonic() < deadline:
            rng.shuffle(work)
            for host, kind, index, section in work:
                n += 1
                check_one(client, tally, phase.name, host, kind, index, section, n % 97, n % 2 == 0)
            time.sleep(config["pause"])  # a crawler does other work between checks; leaves CPU to the servers

    tallies = [Tally() for _ in range(config["threads"])]
    threads = [threading.Thread(target=loop, args=(config["seed"] * 100 + t, tallies[t]), daemon=True)
               for t in range(config["threads"])]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(config["max_seconds"] + 10)
    stopped = time.monotonic()

    phase.enter("final")  # after the faults: every host once more, every answer still right
    final = Tally()
    for host, kind, index in hosts:
        for section in ("private", "public"):
            check_one(client, final, "final", host, kind, index, section, 0, True)
    ended = time.monotonic()

    total = Tally()
    for tally in (warm, *tallies, final):
        total.merge(tally)
    # How long each phase lasted: until the next one started; the last before "final" until the
    # threads stopped; "final" until its checks were done.
    order = sorted(phase.started, key=phase.started.__getitem__)  # warm, outage, fault, recovered, final
    seconds = {}
    for name, following in itertools.pairwise([*order, None]):
        end = ended if following is None else stopped if following == "final" else phase.started[following]
        seconds[name] = round(max(0.0, end - phase.started[name]), 3)
    client.close()
    http.close()
    store.close()
    return {
        "pid": os.getpid(),
        "alive_threads": sum(t.is_alive() for t in threads),
        "checks": dict(total.checks),
        "exceptions": dict(total.exceptions),
        "wrong": dict(total.wrong),
        "seconds": seconds,
        "exception_types": dict(total.exception_types),
        "exception_samples": total.exception_samples,
        "wrong_samples": total.wrong_samples,
        "good_copy_after_failure": total.good_copy_after_failure,
        "store_states": dict(total.store_states),
        "cache_states": dict(total.cache_states),
        "store_calls": dict(store.calls),
        "store_errors": dict(store.store_errors),
        "store_errors_by_phase": dict(store.store_errors_by_phase),
        "store_other_errors": dict(store.other_errors),
        "log_levels": dict(logs.levels),
        "log_first": logs.first,
    }


_DROPPED = "ROBOTRULES_FAULTS_DAC_DROPPED"


def drop_dac_and_reexec() -> None:
    """Run as root without the capabilities that override file permissions, so that a read-only
    file is read-only to this process as to an ordinary user: drop CAP_DAC_OVERRIDE,
    CAP_DAC_READ_SEARCH and CAP_FOWNER from the bounding set, then exec this module again (the
    new program starts without them). A refusal is not an error: :func:`permissions_apply`
    tells the parent, which skips."""
    if os.environ.get(_DROPPED) or os.geteuid() != 0 or not sys.platform.startswith("linux"):
        return
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2, 3):  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER
        libc.prctl(24, cap, 0, 0, 0)  # PR_CAPBSET_DROP
    os.environ[_DROPPED] = "1"
    sys.stdout.flush()
    os.execv(sys.executable, [sys.executable, "-m", "tests.faults._worker", *sys.argv[1:]])


def permissions_apply(directory: str) -> bool:
    """Whether this process is refused writing a file of mode 0444 (False: it is root with
    CAP_DAC_OVERRIDE, and a read-only cache file would not be read-only to it)."""
    probe = os.path.join(directory, f"permission-probe-{os.getpid()}")
    with open(probe, "w") as f:
        f.write("probe")
    os.chmod(probe, 0o444)
    try:
        with open(probe, "r+b"):
            return False
    except PermissionError:
        return True
    finally:
        os.unlink(probe)


def main() -> None:
    config = json.loads(sys.argv[1])
    if config.get("read_only_applies"):
        drop_dac_and_reexec()
        config["permissions_apply"] = permissions_apply(os.path.dirname(config["report"]))
    report = run(config)
    with open(config["report"] + ".tmp", "w") as f:
        json.dump(report, f)
    os.replace(config["report"] + ".tmp", config["report"])


if __name__ == "__main__":
    main()
