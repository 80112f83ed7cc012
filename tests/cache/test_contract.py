"""The contract every store keeps, run against MemoryStore, SQLiteStore and RedisStore alike.

A store keeps entries keyed by robots.txt URL (C3) exactly as given, so the policy's answers
(C1 lifetime, C2 last good copy, C4 max-age) come back unchanged, and holds per-key fetch locks
(DESIGN: cache/, single flight; base.Store).

Issue #8, "the fleet cache loses nothing and nothing poisons it", store side:

- item 3: a write never replaces an entry holding a good copy with one that does not: ``put``
  merges (``policy.merge``) atomically, also when threads and processes race;
- item 4: nothing read is trusted: an invalid value is logged, read as missing, and replaced by
  the next ``put``;
- item 7: a copy another process stored before this one took the lock is read by the lock
  holder (what the client's read after ``acquire`` relies on for exact single flight);
- item 5: a stalled backend makes calls fail fast (StoreError within a small multiple of the
  store's ``timeout``), and a store reconnects once the backend is back.
"""

from __future__ import annotations

import json
import logging
import math
import multiprocessing
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotrules.cache import RedisStore, SQLiteStore, Store, decode_entry, encode_entry
from robotrules.core.policy import Entry
from robotrules.core.reasons import Reason
from robotrules.errors import StoreError
from tests.hypo import examples

from ._workers import race_puts, racing_entries, sample_entry
from .conftest import PrivateRedis

URL = "https://example.com/robots.txt"


def test_store_follows_the_store_protocol(store: Store) -> None:
    """DESIGN cache/: every store is a base.Store; only the in-process one is non-blocking."""
    assert isinstance(store, Store)
    assert store.blocking is (type(store).__name__ != "MemoryStore")


def test_round_trip_keeps_every_field_of_a_failing_entry(store: Store) -> None:
    """C2: an error entry with its last good copy, streak and timestamps comes back equal."""
    entry = Entry(
        url=URL, outcome="error", status=503, reason="503: server error; ünïcode ☃ \"quoted\"\nnewline",
        fetched_at=1_717_171_717.123456, expires_at=1_717_171_777.5, body=b"User-agent: *\nDisallow: /x\n",
        good_status=200, good_at=1_717_000_000.0, failures=3, failing_since=1_717_100_000.75,
        final_url="https://www.example.com/robots.txt",
    )
    store.put(entry)
    assert store.get(URL) == entry


def test_round_trip_keeps_none_and_default_fields(store: Store) -> None:
    """C2, F8: an entry with no good copy (good_at and failing_since None, status 0) comes back equal."""
    entry = Entry(url=URL, outcome="error", status=0, reason="dns error", fetched_at=5.0, expires_at=305.0)
    store.put(entry)
    got = store.get(URL)
    assert got == entry
    assert got is not None and got.good_at is None and got.failing_since is None


def test_body_with_every_byte_value_and_newlines_comes_back_exactly(store: Store) -> None:
    """C1: the cached copy is the body as fetched, byte for byte (P1 line ends, P3 any bytes)."""
    body = b"\n" + bytes(range(256)) * 3 + b"\r\n\r\n\x00\n" + b"\xef\xbb\xbfUser-agent: *\r"
    store.put(sample_entry(URL, body))
    got = store.get(URL)
    assert got is not None and got.body == body


def test_empty_body_comes_back_empty(store: Store) -> None:
    """F4: a 4xx entry has no body; it stays bytes and empty."""
    entry = Entry(url=URL, outcome="allow", status=404, reason="404", fetched_at=1.0, expires_at=2.0,
                  good_status=404, good_at=1.0)
    store.put(entry)
    got = store.get(URL)
    assert got == entry and got is not None and got.body == b""


def test_put_replaces_the_previous_entry(store: Store) -> None:
    """C1: a refresh replaces the cached copy for the same robots.txt URL."""
    store.put(sample_entry(URL, b"old"))
    newer = sample_entry(URL, b"new", fetched_at=1_700_086_400.0)
    store.put(newer)
    assert store.get(URL) == newer


def test_missing_key_is_none(store: Store) -> None:
    """base.Store.get: nothing stored gives None, not an error."""
    assert store.get("https://nothing.example/robots.txt") is None


def test_delete_forgets_and_deleting_twice_is_harmless(store: Store) -> None:
    """base.Store.delete: the entry is gone; deleting an absent key raises nothing."""
    store.put(sample_entry(URL, b"x"))
    store.delete(URL)
    assert store.get(URL) is None
    store.delete(URL)
    store.delete("https://never.example/robots.txt")


def test_entries_are_keyed_by_robots_url_not_agent(store: Store) -> None:
    """C3, S1: one entry per robots.txt URL; other schemes, hosts and ports are other keys."""
    urls = ["http://example.com/robots.txt", "https://example.com/robots.txt",
            "https://example.com:8443/robots.txt", "https://xn--mller-kva.eu/robots.txt"]
    for i, url in enumerate(urls):
        store.put(sample_entry(url, f"body {i}".encode()))
    for i, url in enumerate(urls):
        got = store.get(url)
        assert got is not None and got.url == url and got.body == f"body {i}".encode()
    store.delete(urls[0])
    assert store.get(urls[0]) is None and store.get(urls[1]) is not None


def test_lock_is_exclusive_until_released(store: Store) -> None:
    """DESIGN cache/ single flight: one holder per key; after release another may take it."""
    token = store.acquire(URL, ttl=30)
    assert isinstance(token, str) and token
    assert store.acquire(URL, ttl=30) is None
    store.release(URL, token)
    again = store.acquire(URL, ttl=30)
    assert again is not None and again != token
    store.release(URL, again)


def test_locks_of_different_keys_are_independent(store: Store) -> None:
    """C3: the lock is per robots.txt URL."""
    a = store.acquire(URL, ttl=30)
    b = store.acquire("http://example.com/robots.txt", ttl=30)
    assert a is not None and b is not None
    store.release(URL, a)
    store.release("http://example.com/robots.txt", b)


def test_release_with_a_wrong_token_keeps_the_lock(store: Store) -> None:
    """base.Store.release: only the holder's token releases; a stranger's does nothing."""
    token = store.acquire(URL, ttl=30)
    assert token is not None
    store.release(URL, "not-the-token")
    store.release("https://other.example/robots.txt", token)
    assert store.acquire(URL, ttl=30) is None
    store.release(URL, token)
    assert store.acquire(URL, ttl=30) is not None


def test_expired_lock_can_be_taken_and_the_old_holder_cannot_release_it(store: Store) -> None:
    """base.Store.acquire: a crashed holder's lock expires after ttl; its late release is ignored."""
    old = store.acquire(URL, ttl=0.3)
    assert old is not None
    assert store.acquire(URL, ttl=0.3) is None
    time.sleep(0.45)
    new = store.acquire(URL, ttl=30)
    assert new is not None
    store.release(URL, old)  # too late: the lock is someone else's now
    assert store.acquire(URL, ttl=30) is None
    store.release(URL, new)


@pytest.mark.parametrize("ttl", [0, -1.0])
def test_lock_ttl_must_be_positive(store: Store, ttl: float) -> None:
    """base.Store.acquire: a lock that expires at once is a caller bug, refused with ValueError."""
    with pytest.raises(ValueError):
        store.acquire(URL, ttl=ttl)


_urls = st.text(min_size=1, max_size=40).map(  # text() leaves out lone surrogates
    lambda s: "https://example.com/" + s
)
_times = st.floats(0, 253_402_300_799.0, allow_nan=False, allow_infinity=False, width=64)  # base.MAX_TIME
_entries = st.builds(
    Entry,
    url=_urls,
    outcome=st.sampled_from(["rules", "allow", "error"]),
    status=st.integers(0, 999),
    reason=st.text(max_size=60),
    fetched_at=_times,
    expires_at=_times,
    body=st.binary(max_size=300),
    good_status=st.integers(0, 999),
    good_at=st.none() | _times,
    failures=st.integers(0, 2**40),
    failing_since=st.none() | _times,
    final_url=st.text(max_size=40),
)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=_entries)
def test_any_entry_round_trips(store: Store, entry: Entry) -> None:
    """C1-C3: whatever valid entry the policy makes (hypothesis: any field values in range) comes
    back equal from an empty key."""
    store.delete(entry.url)  # one store serves every example: start each from an empty key
    store.put(entry)
    assert store.get(entry.url) == entry
    assert decode_entry(encode_entry(entry)) == entry


# -- issue #8 item 3: a write never loses a good copy ---------------------------------------------

def _error_without_copy(url: str, at: float) -> Entry:
    """A failed refresh by a process that knew no copy (F5: full disallow on its own)."""
    return Entry(url=url, outcome="error", status=503, reason="503: server error", fetched_at=at,
                 expires_at=at + 300, failures=1, failing_since=at)


def test_put_of_a_failure_never_replaces_a_stored_good_copy(store: Store) -> None:
    """C2, #8 item 3: a failure written over a good copy keeps the copy (with the failure's attempt:
    status, back-off, streak), on every backend."""
    good = sample_entry(URL, b"User-agent: *\nDisallow: /private\n")
    store.put(good)
    failed = _error_without_copy(URL, good.fetched_at + 90_000)
    store.put(failed)
    got = store.get(URL)
    assert got is not None
    assert (got.body, got.good_status, got.good_at, got.final_url) == (good.body, 200, good.good_at, good.final_url)
    assert (got.outcome, got.status, got.fetched_at, got.expires_at, got.failures) == (
        "error", 503, failed.fetched_at, failed.expires_at, 1)


def test_put_of_an_older_attempt_never_replaces_a_newer_one(store: Store) -> None:
    """#8 item 3: a slow writer that finishes last (an older fetched_at) does not roll back the entry."""
    newer = sample_entry(URL, b"new", fetched_at=1_700_100_000.0)
    store.put(newer)
    store.put(_error_without_copy(URL, 1_700_000_000.0))
    store.put(sample_entry(URL, b"old", fetched_at=1_700_050_000.0))
    assert store.get(URL) == newer


def test_put_of_a_good_copy_after_a_newer_failure_installs_the_copy(store: Store) -> None:
    """C2, #8 item 3: a copy beats none, even from a write that lands late."""
    store.put(_error_without_copy(URL, 1_700_100_000.0))
    late = sample_entry(URL, b"late copy", fetched_at=1_700_000_000.0)
    store.put(late)
    got = store.get(URL)
    assert got is not None and (got.body, got.good_at, got.outcome, got.fetched_at) == (
        b"late copy", late.good_at, "error", 1_700_100_000.0)


def test_racing_writers_in_threads_never_lose_the_good_copy(store: Store) -> None:
    """#8 item 3, base.Store.put (atomic merge): in each round two threads write at once, one a new
    good copy, the other a newer failure carrying the previous round's copy (as a crawler that read
    the store before fetching); after every round the store holds the new copy. Replacing, or a
    merge that is not atomic (read, then write), loses it whenever the failure lands last."""
    rounds = 150
    barrier = threading.Barrier(2)
    lost: list[int] = []

    def writer(me: int) -> None:
        for i in range(rounds):
            good, failed = racing_entries(URL, i)
            barrier.wait()
            store.put(good if (i + me) % 2 else failed)  # roles alternate, so either thread may land last
            barrier.wait()
            if me == 0:
                got = store.get(URL)
                if got is None or (got.good_at, got.body) != (good.good_at, good.body):
                    lost.append(i)
            barrier.wait()

    threads = [threading.Thread(target=writer, args=(me,)) for me in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)
    assert lost == [], f"the good copy was lost in {len(lost)} of {rounds} rounds"


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_racing_writers_in_processes_never_lose_the_good_copy(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """#8 item 3, C3: the same race between two processes sharing a store (SQLite file, Redis)."""
    if kind == "sqlite":
        where, prefix = str(tmp_path / "race.sqlite3"), ""
        SQLiteStore(where).close()  # made once, before the race
    else:
        where, prefix = request.getfixturevalue("redis_url"), request.getfixturevalue("redis_prefix")
    spawn = multiprocessing.get_context("spawn")
    barrier, results = spawn.Barrier(2), spawn.Queue()
    rounds = 60
    procs = [spawn.Process(target=race_puts, args=(kind, where, prefix, URL, me, rounds, barrier, results))
             for me in (0, 1)]
    for p in procs:
        p.start()
    try:
        reports = [results.get(timeout=120) for _ in procs]
    finally:
        for p in procs:
            p.join(timeout=30)
            if p.is_alive():
                p.kill()
    errors = [r for r in reports if isinstance(r, str)]
    assert errors == []
    lost = sorted(i for r in reports for i in r)
    assert lost == [], f"the good copy was lost in rounds {lost[:10]} (of {rounds})"


# -- issue #8 item 4: nothing read is trusted -----------------------------------------------------

def _blob(**changes: Any) -> bytes:
    """A blob as encode_entry writes it for URL, with some metadata fields replaced (raw JSON values)."""
    meta = json.loads(encode_entry(sample_entry(URL, b"")).partition(b"\n")[0])
    meta.update(changes)
    return json.dumps(meta).encode() + b"\nUser-agent: *\nDisallow: /\n"


_NAN = _blob().replace(b'"fetched_at": 1700000000.25', b'"fetched_at": NaN')
_INF = _blob().replace(b'"expires_at": 1700086400.25', b'"expires_at": Infinity')
_HUGE_EXP = _blob().replace(b'"expires_at": 1700086400.25', b'"expires_at": 1e999')
assert b"NaN" in _NAN and b"Infinity" in _INF and b"1e999" in _HUGE_EXP

BAD_VALUES: dict[str, bytes] = {
    "status-str": _blob(status="200"),
    "status-bool": _blob(status=True),
    "status-float": _blob(status=200.0),
    "status-negative": _blob(status=-1),
    "status-huge": _blob(status=10**30),
    "outcome-unknown": _blob(outcome="maybe"),
    "outcome-int": _blob(outcome=1),
    "reason-int": _blob(reason=5),
    "fetched_at-str": _blob(fetched_at="1700000000"),
    "fetched_at-bool": _blob(fetched_at=True),
    "fetched_at-nan": _NAN,
    "fetched_at-negative": _blob(fetched_at=-5.0),
    "expires_at-infinity": _INF,
    "expires_at-1e999": _HUGE_EXP,
    "expires_at-1e308": _blob(expires_at=1e308),
    "expires_at-huge-int": _blob(expires_at=10**40),
    "good_status-none": _blob(good_status=None),
    "good_at-str": _blob(good_at="yesterday"),
    "good_at-list": _blob(good_at=[1]),
    "failures-negative": _blob(failures=-1),
    "failures-float": _blob(failures=1.5),
    "failures-bool": _blob(failures=False),
    "failing_since-str": _blob(failing_since="now"),
    "final_url-none": _blob(final_url=None),
    "url-int": _blob(url=5),
    "url-other-host": _blob(url="https://attacker.example/robots.txt"),
    "url-other-scheme": _blob(url="http://example.com/robots.txt"),
    "missing-field": encode_entry(sample_entry(URL, b"")).replace(b',"status":200', b""),
    "unknown-field": _blob(extra=1),
    "why-decides": _blob(why={"code": "rules", "status": 200, "decides": "good-copy"}),
    "garbage": b"\x00\xffgarbage\x13\x37" * 40,
    "empty": b"",
    "no-newline": b'{"url": "x"}',
    "truncated-json": encode_entry(sample_entry(URL, b"body"))[:60] + b"\nbody",
    "truncated-blob": encode_entry(sample_entry(URL, b"body"))[:60],
    "json-list": b"[1, 2, 3]\nbody",
    "not-utf8": b"\xff\xfe{}\nbody",
}


def _warnings_about(caplog: pytest.LogCaptureFixture, key: str) -> list[logging.LogRecord]:
    return [r for r in caplog.records
            if r.name == "robotrules.cache" and r.levelno == logging.WARNING and key in r.getMessage()]


@pytest.mark.parametrize("value", list(BAD_VALUES.values()), ids=list(BAD_VALUES))
def test_invalid_stored_value_reads_as_missing_with_one_warning_and_the_next_put_replaces_it(
        store: Store, raw_writer: Callable[[str, object], None], caplog: pytest.LogCaptureFixture, value: bytes) -> None:
    """#8 item 4: a value written behind the store's back (wrong types, bool for int, NaN, huge
    numbers, another URL than its key, garbage, truncated JSON) is never handed out nor raised
    about: get() is None with one warning naming the key (logger robotrules.cache), and the
    next put() replaces it (the merge treats it as absent)."""
    raw_writer(URL, value)
    with caplog.at_level(logging.WARNING, logger="robotrules.cache"):
        assert store.get(URL) is None
    assert len(_warnings_about(caplog, URL)) == 1, [r.getMessage() for r in caplog.records]
    fresh = sample_entry(URL, b"User-agent: *\nAllow: /\n", fetched_at=1.0)  # older than the bad value's times
    store.put(fresh)
    assert store.get(URL) == fresh


def test_entry_stored_under_another_key_is_not_installed_for_it(
        store: Store, raw_writer: Callable[[str, object], None], caplog: pytest.LogCaptureFixture) -> None:
    """#8 item 4, C3: a valid entry for host B found under host A's key is not A's rules."""
    other = sample_entry("https://other.example/robots.txt", b"User-agent: *\nDisallow: /\n")
    raw_writer(URL, encode_entry(other))
    with caplog.at_level(logging.WARNING, logger="robotrules.cache"):
        assert store.get(URL) is None
    assert len(_warnings_about(caplog, URL)) == 1


@pytest.mark.parametrize(
    "bad",
    [
        {"status": True}, {"status": -1}, {"fetched_at": math.nan}, {"expires_at": math.inf},
        {"fetched_at": -1.0}, {"good_at": 1e308}, {"failures": -1}, {"outcome": "maybe"},
        {"body": "text"}, {"reason": None}, {"why": "200: rules from the body"},
        {"why": Reason("rules", 200, decides="good-copy")}, {"why": Reason("rules", "200")},  # type: ignore[arg-type]
        {"why": Reason("no-such-code")},  # type: ignore[arg-type]
    ],
    ids=lambda bad: "-".join(f"{k}={v!r}" for k, v in bad.items()),
)
def test_put_refuses_an_invalid_entry_and_keeps_what_is_stored(store: Store, bad: dict[str, Any]) -> None:
    """#8 item 4: nothing invalid gets in: put() raises ValueError and the stored entry stays."""
    good = sample_entry(URL, b"good")
    store.put(good)
    invalid = Entry(**{**{f: getattr(good, f) for f in Entry.__dataclass_fields__}, **bad})
    with pytest.raises(ValueError):
        store.put(invalid)
    assert store.get(URL) == good


# -- issue #8 item 5: a stalled backend fails fast ------------------------------------------------

DEFAULT_TIMEOUT_BOUND = 0.25  # the documented default per-call timeout is at most this (seconds)


def test_blocking_stores_default_to_a_short_per_call_timeout(tmp_path: Path) -> None:
    """#8 item 5: SQLiteStore and RedisStore have a ``timeout`` (seconds) whose default is short
    (<= 0.25 s), not redis-py's 5 s with retries or sqlite3's waits of up to 90 s per check."""
    import inspect

    for cls in (SQLiteStore, RedisStore):
        default = inspect.signature(cls).parameters["timeout"].default
        assert isinstance(default, float) and 0 < default <= DEFAULT_TIMEOUT_BOUND, cls
    with SQLiteStore(tmp_path / "t.sqlite3") as store:
        assert store.timeout == inspect.signature(SQLiteStore).parameters["timeout"].default


_HOLD_WRITE_LOCK = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("held", flush=True)
sys.stdin.read()  # until the test closes our stdin (or kills us)
"""


@pytest.fixture(params=["sqlite", "redis"])
def stalled(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Store, list[str]]]:
    """A store with default arguments whose backend is stalled, its timeout, and which calls may
    still succeed. SQLite: another process holds the write lock (WAL readers still read). Redis:
    the test's own server is stopped with SIGSTOP. (MemoryStore does no I/O: nothing can stall it.)
    Afterwards the holder is killed, the server resumed and killed."""
    if request.param == "sqlite":
        path = tmp_path / "stalled.sqlite3"
        lite = SQLiteStore(path)
        lite.put(sample_entry(URL, b"kept"))
        holder = subprocess.Popen([sys.executable, "-c", _HOLD_WRITE_LOCK, str(path)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        try:
            assert holder.stdout is not None and holder.stdout.readline().strip() == b"held"
            yield lite, ["get"]
        finally:
            holder.kill()
            holder.wait(timeout=10)
            lite.close()
        return
    server: PrivateRedis = request.getfixturevalue("private_redis")
    fleet = RedisStore(server.url)
    fleet.put(sample_entry(URL, b"kept"))
    server.stop()
    try:
        yield fleet, []
    finally:
        server.cont()
        fleet.close()


_CALLS: dict[str, Callable[[Store], object]] = {
    "get": lambda s: s.get(URL),
    "put": lambda s: s.put(sample_entry(URL, b"new", fetched_at=1_700_000_100.0)),
    "delete": lambda s: s.delete(URL),
    "acquire": lambda s: s.acquire(URL, 5.0),
    "release": lambda s: s.release(URL, "token"),
}


def test_every_call_to_a_stalled_store_fails_fast_with_store_error(stalled: tuple[Store, list[str]]) -> None:
    """#8 item 5: with the backend stalled (Redis stopped, SQLite's write lock held by another
    process), each store call made with the default arguments returns or raises StoreError (the
    backend never answers: its timeout ends the call; how long that takes is measured in
    bench/limits_bench.py, stalled-store), and the store says which timeout it applies."""
    store, may_succeed = stalled
    for name, call in _CALLS.items():
        try:  # the backend never answers: a call returns only because the store's timeout ends it
            call(store)
            outcome = "ok"
        except StoreError:
            outcome = "StoreError"
        assert outcome == ("ok" if name in may_succeed else "StoreError"), name
    assert getattr(store, "timeout", None) == DEFAULT_TIMEOUT_BOUND


def _another_process_view(store: Store, request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """A second handle on the same backend, as another process of the fleet has: the same object
    for memory (one process), another connection for SQLite and Redis."""
    if isinstance(store, SQLiteStore):
        return SQLiteStore(tmp_path / "contract.sqlite3")
    if isinstance(store, RedisStore):
        return RedisStore(request.getfixturevalue("redis_url"), prefix=request.getfixturevalue("redis_prefix"), timeout=2.0)
    return store


def test_a_copy_another_process_stored_before_the_lock_is_read_by_the_lock_holder(
        store: Store, request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """#8 item 7, C3: what the client's second read (after taking the lock) relies on. Another
    process's fetch ends (put, release) between this process's miss and its acquire: the lock is
    then free, and a read made after acquiring it sees that copy, so the holder need not fetch."""
    other = _another_process_view(store, request, tmp_path)
    try:
        assert store.get(URL) is None  # this process misses
        theirs = other.acquire(URL, 30.0)
        assert theirs is not None
        other.put(sample_entry(URL, b"fetched by the other process"))
        other.release(URL, theirs)
        token = store.acquire(URL, 30.0)  # this process takes the lock, now free
        assert token is not None
        seen = store.get(URL)
        assert seen is not None and seen.body == b"fetched by the other process"
        store.release(URL, token)
    finally:
        if other is not store:
            other.close()
