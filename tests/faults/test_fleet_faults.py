"""Issue #8: a fleet of crawler processes keeps answering right while its shared store fails.

Four worker processes (``tests/faults/_worker.py``, two threads each), each with its own
``RobotsClient``, share one store: a real ``redis-server`` of the test's own on a spare
loopback port, or an SQLite file. They check a stream of URLs on seven hosts served by a
loopback HTTP server, each verdict with a known right answer (``steady`` hosts answer 200,
``outage`` hosts 200 then 503, ``dark`` hosts 503 from the start), while the test:

1. lets them warm up (every host fetched once), then starts the outage: the ``outage`` hosts
   answer 503 from now on, so their good copies must keep deciding (C2) and the ``dark`` hosts
   stay fully disallowed (F5);
2. injects the fault: Redis SIGKILLed and restarted empty on the same port, or SIGSTOPped and
   resumed; the SQLite file overwritten with garbage, replaced by a read-only copy (and then by
   a writable one), or deleted;
3. waits until the store holds every good copy again, lets the breakers close, and stops them.

Every scenario must show 0 exceptions out of ``allowed()``/``check()``, 0 wrong verdicts in any
phase, every worker answering from its good copy after failed refreshes of the outage hosts, and
after the faults the good copies still deciding: in every worker, in the store, and in a fresh
client reading the store. Policy lifetimes and retry intervals are 0.25 s, so refreshes (and so
the outage and the store's faults) happen many times in each scenario. Nothing is timed: the
summary line of each scenario reports the counts and rates, for the README.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import sqlite3
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from robotrules import RobotsClient
from robotrules.core.urls import robots_url
from robotrules.errors import StoreError
from tests.client._stores import loopback_http
from tests.faults._worker import body, expected, make_policy, open_store
from tests.needs import unavailable

from .conftest import HOSTS, SUMMARIES, Fleet, Sites

pytestmark = pytest.mark.slow  # fleets of processes, each scenario seconds long

TTL = 0.25  # the workers' robots.txt lifetime and retry interval (make_policy)
BEFORE_FAULT = 1.0  # seconds of outage before the fault
SETTLE = 1.5  # seconds after the store holds the good copies again: the breakers (cool-down 1 s) probe and close
KEPT_TIMEOUT = 20.0  # bound on waiting for the store to hold the good copies again
OUTAGE_HOSTS = [(host, index) for host, kind, index in HOSTS if kind == "outage"]


@dataclass
class Fault:
    name: str  # for the summary line
    store: list[str]  # [kind, where, prefix], as the workers open it
    inject: Callable[[], None]
    recover: Callable[[], None] = lambda: None
    hold: float = 2.0  # seconds between inject and recover


@dataclass
class Outcome:
    reports: list[dict[str, Any]]
    fetches: int
    kept: dict[str, str]  # outage host -> "ok" or what the store holds instead, after recovery
    fresh: list[str] = field(default_factory=list)  # what a fresh client answered wrong
    summary: str = ""

    def total(self, name: str) -> Counter[str]:
        """A per-phase (or per-method) count, summed over the workers."""
        out: Counter[str] = Counter()
        for report in self.reports:
            out.update(report[name])
        return out


def good_copies(spec: list[str]) -> dict[str, str]:
    """What the store holds for each outage host: "ok" (its good copy) or what is wrong."""
    found: dict[str, str] = {}
    try:
        store = open_store(spec, 0.5)
    except StoreError as exc:
        return {host: f"store not open: {exc}" for host, _ in OUTAGE_HOSTS}
    try:
        for host, index in OUTAGE_HOSTS:
            try:
                entry = store.get(robots_url(f"http://{host}/"))
            except StoreError as exc:
                found[host] = f"StoreError: {exc}"
                continue
            if entry is None:
                found[host] = "no entry"
            elif entry.good_at is None or entry.good_status != 200 or entry.body != body(host, index):
                found[host] = f"no good copy: {entry.reason!r}, good_status {entry.good_status}"
            else:
                found[host] = "ok"
    finally:
        with contextlib.suppress(StoreError):
            store.close()
    return found


def wait_for_good_copies(spec: list[str]) -> dict[str, str]:
    """Poll the store (bounded) until it holds every outage host's good copy; the last look."""
    deadline = time.monotonic() + KEPT_TIMEOUT
    while True:
        found = good_copies(spec)
        if set(found.values()) == {"ok"} or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def fresh_client_answers(spec: list[str], port: int) -> list[str]:
    """A new client on the store after recovery: what it answers wrong for any host (or raises)."""
    wrong: list[str] = []
    store = open_store(spec, 0.5)
    http = loopback_http(port)
    try:
        with RobotsClient(store, http_client=http, policy=make_policy(TTL)) as client:
            for host, kind, index in HOSTS:
                for section in ("private", "public"):
                    url = f"http://{host}/{section}/after.html"
                    try:
                        result = client.check(url, "faultbot")
                    except Exception as exc:  # reported, not raised: the test says what went wrong
                        wrong.append(f"{url}: raised {type(exc).__name__}: {exc}")
                        continue
                    state = result.state
                    if (result.allowed, result.line) != expected(kind, index, section) or (
                            kind == "outage" and state.kind != "rules"):
                        wrong.append(f"{url}: got {(result.allowed, result.line)}, want "
                                     f"{expected(kind, index, section)} ({state.kind}, {state.reason})")
    finally:
        http.close()
        with contextlib.suppress(StoreError):
            store.close()
    return wrong


def run_scenario(fault: Fault, sites: Sites, fleet: Fleet,
                 on_ready: Callable[[list[dict[str, Any]]], None] | None = None) -> Outcome:
    """Warm-up, outage, fault, recovery, stop (see the module docstring); the outcome, summarised.

    ``on_ready`` sees what the workers wrote in their ready files, before the outage.
    """
    began = time.monotonic()
    ready = fleet.start()
    if on_ready is not None:
        on_ready(ready)
    sites.start_outage()
    fleet.phase("outage")
    time.sleep(BEFORE_FAULT)
    fleet.phase("fault")
    try:
        fault.inject()
        time.sleep(fault.hold)
    finally:
        fault.recover()  # whatever happened: a stopped server resumes, a killed one restarts
    fleet.phase("recovered")
    kept = wait_for_good_copies(fault.store)
    time.sleep(SETTLE)
    reports = fleet.stop()
    outcome = Outcome(reports, sites.fetches(), kept)
    outcome.fresh = fresh_client_answers(fault.store, sites.port)
    outcome.summary = summarise(fault.name, outcome, time.monotonic() - began)
    print(f"\n{outcome.summary}")
    SUMMARIES.append(outcome.summary)
    return outcome


def summarise(name: str, outcome: Outcome, elapsed: float) -> str:
    checks, exceptions, wrong = outcome.total("checks"), outcome.total("exceptions"), outcome.total("wrong")
    seconds = outcome.total("seconds")
    workers = len(outcome.reports)

    def rate(phase: str) -> str:
        spent = seconds[phase] / workers if workers else 0
        return f"{checks[phase] / spent:,.0f}/s" if spent else "-"

    kept = sum(v == "ok" for v in outcome.kept.values())
    return (f"{name}: {sum(checks.values()):,} checks by {workers} processes (before the fault {rate('outage')}, "
            f"during {rate('fault')}, after {rate('recovered')}), {sum(exceptions.values())} exceptions, "
            f"{sum(wrong.values())} wrong verdicts, {sum(outcome.total('store_errors').values()):,} store errors, "
            f"{outcome.fetches:,} robots.txt fetches, good copies kept {kept}/{len(outcome.kept)} "
            f"(every worker, the store, a fresh client: {'yes' if not outcome.fresh else 'NO'}), {elapsed:.1f} s")


def assert_no_harm(outcome: Outcome) -> None:
    """0 exceptions, 0 wrong verdicts, and no good copy lost: in the workers, the store, a fresh client."""
    reports = outcome.reports
    exceptions = [(r["pid"], r["exception_types"], r["exception_samples"]) for r in reports if r["exceptions"]]
    assert not exceptions, f"exceptions escaped allowed()/check() ({outcome.summary}):\n{exceptions}"
    escaped = [(r["pid"], r["store_other_errors"]) for r in reports if r["store_other_errors"]]
    assert not escaped, f"the store raised something other than StoreError: {escaped}"
    wrong = [(r["pid"], r["wrong"], r["wrong_samples"]) for r in reports if r["wrong"]]
    assert not wrong, f"wrong verdicts ({outcome.summary}):\n{wrong}"
    assert all(r["alive_threads"] == 0 for r in reports), "a worker thread did not finish"
    for r in reports:  # every worker really went through the outage, answering from its good copy (C2)
        assert r["good_copy_after_failure"] > 0, f"worker {r['pid']} never saw a failed refresh: {r}"
        assert r["checks"].get("fault", 0) > 0 and r["checks"].get("final", 0) == 2 * len(HOSTS), r["checks"]
    assert set(outcome.kept.values()) == {"ok"}, f"the store lost good copies: {outcome.kept}"
    assert not outcome.fresh, "a fresh client reading the store answered wrong:\n" + "\n".join(outcome.fresh)


# -- Redis ----------------------------------------------------------------------------------------

def test_redis_killed_and_restarted_empty_during_the_outage(private_redis, sites, fleet_factory):
    """C2, C3, F5: Redis SIGKILLed under the fleet and restarted empty on the same port: every
    verdict stays right, and the good copies the processes hold go back into the new Redis."""
    spec = ["redis", private_redis.url, "faults:"]
    fault = Fault("Redis SIGKILL, restarted empty", spec, private_redis.kill, private_redis.start, hold=1.5)
    outcome = run_scenario(fault, sites, fleet_factory(spec, sites.port))
    assert_no_harm(outcome)
    assert sum(outcome.total("store_errors").values()) > 0  # the fault reached the clients


def test_redis_stopped_then_resumed_during_the_outage(private_redis, sites, fleet_factory):
    """C2, C3, F5: Redis SIGSTOPped for 2.5 s under the fleet (connections accepted, nothing
    answered), then SIGCONT: every verdict stays right and no good copy is lost."""
    spec = ["redis", private_redis.url, "faults:"]
    fault = Fault("Redis SIGSTOP 2.5 s, then SIGCONT", spec, private_redis.stop, private_redis.cont, hold=2.5)
    outcome = run_scenario(fault, sites, fleet_factory(spec, sites.port))
    assert_no_harm(outcome)
    assert outcome.total("store_errors")["get"] > 0  # the stalled calls timed out


# -- SQLite ---------------------------------------------------------------------------------------

@pytest.fixture
def sqlite_cache(tmp_path: Path) -> Path:
    path = tmp_path / "cache" / "robots.sqlite3"
    path.parent.mkdir()
    return path


def sqlite_files(path: Path) -> list[Path]:
    return [Path(f"{path}{suffix}") for suffix in ("", "-wal", "-shm")]


def test_sqlite_file_overwritten_with_garbage_during_the_outage(sqlite_cache, sites, fleet_factory):
    """C2, C3, F5: the SQLite file overwritten with garbage while four processes use it: the store
    moves it aside and starts an empty one; verdicts stay right; the good copies go back in."""
    spec = ["sqlite", str(sqlite_cache), ""]

    def corrupt() -> None:
        # First move what the WAL holds into the main file, so that the processes must read the
        # garbage (a cache whose pages all sit in the WAL would not notice for a while).
        conn = sqlite3.connect(sqlite_cache, timeout=2)
        try:
            deadline = time.monotonic() + 5
            while conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] and time.monotonic() < deadline:
                time.sleep(0.01)  # busy: a process was reading or writing; the next try gets through
        finally:
            conn.close()
        size = sqlite_cache.stat().st_size
        with open(sqlite_cache, "r+b") as f:
            f.write(random.Random(8).randbytes(size))
            f.flush()
            os.fsync(f.fileno())

    fault = Fault("SQLite file overwritten with garbage", spec, corrupt)
    outcome = run_scenario(fault, sites, fleet_factory(spec, sites.port))
    assert_no_harm(outcome)
    assert list(sqlite_cache.parent.glob("robots.sqlite3.corrupt-*")), "the garbage was never noticed"


def test_sqlite_file_made_read_only_during_the_outage(sqlite_cache, sites, fleet_factory):
    """C2, C3, F5: the SQLite file replaced under the fleet by a read-only copy (the processes find
    the new file and can only read it), then by a writable one: verdicts stay right throughout.

    The workers run as root without CAP_DAC_OVERRIDE (dropped before they start), so the mode
    0444 stops them as it stops an ordinary user; where that cannot be arranged the test skips.
    """
    spec = ["sqlite", str(sqlite_cache), ""]

    def swap_in(source: Path, mode: int) -> None:
        """Replace the cache by ``source`` (a new inode: each process opens it at its next call).
        The old WAL and index go aside first: they belong to the old file."""
        source.chmod(mode)
        for n, old in enumerate(sqlite_files(sqlite_cache)[1:]):
            with contextlib.suppress(FileNotFoundError):
                os.replace(old, sqlite_cache.with_name(f"old-{time.monotonic_ns()}-{n}"))
        os.replace(source, sqlite_cache)

    def make_read_only() -> None:
        copy = sqlite_cache.with_name("read-only-copy.sqlite3")
        src, dst = sqlite3.connect(sqlite_cache, timeout=2), sqlite3.connect(copy)
        try:
            src.backup(dst)  # a consistent copy of what the fleet wrote so far, good copies included
            # Without the fetch locks live at this instant: copied, they would be held by no one
            # until they expire (fetch_timeout + 5 s), and this scenario is about a read-only file.
            with dst:
                dst.execute("DELETE FROM locks")
            dst.execute("PRAGMA journal_mode = DELETE")  # readable without a WAL index
        finally:
            src.close()
            dst.close()
        swap_in(copy, 0o444)

    def make_writable() -> None:
        copy = sqlite_cache.with_name("writable-copy.sqlite3")
        shutil.copyfile(sqlite_cache, copy)
        swap_in(copy, 0o644)

    fault = Fault("SQLite file made read-only, then writable", spec, make_read_only, make_writable)

    def permissions_apply(ready: list[dict[str, Any]]) -> None:
        if not all(r["permissions_apply"] for r in ready):
            unavailable("running as root and CAP_DAC_OVERRIDE cannot be dropped: a 0444 file is not read-only here")

    fleet = fleet_factory(spec, sites.port, read_only_applies=True)
    outcome = run_scenario(fault, sites, fleet, on_ready=permissions_apply)
    assert_no_harm(outcome)
    assert outcome.total("store_errors")["put"] > 0  # the workers found the file read-only


def test_sqlite_file_deleted_during_the_outage(sqlite_cache, sites, fleet_factory):
    """C2, C3, F5: the SQLite file (and its WAL and index) deleted while four processes use it: they
    make a new one; verdicts stay right; the good copies go back in."""
    spec = ["sqlite", str(sqlite_cache), ""]

    def delete() -> None:
        for path in sqlite_files(sqlite_cache):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    fault = Fault("SQLite file deleted", spec, delete)
    outcome = run_scenario(fault, sites, fleet_factory(spec, sites.port))
    assert_no_harm(outcome)
    assert sqlite_cache.exists()  # a new file was made
