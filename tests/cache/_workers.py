"""Functions run in child processes (multiprocessing 'spawn' and 'fork') by the store tests.

They live in their own module so a spawned child imports only this, not pytest's test modules.
Arguments and results are plain values, so nothing depends on pickling an Entry.
"""

from __future__ import annotations

import os
import time
from typing import Any

from robotrules.cache import RedisStore, SQLiteStore
from robotrules.cache.base import Store
from robotrules.core.policy import Entry


def sample_entry(url: str, body: bytes, fetched_at: float = 1_700_000_000.25) -> Entry:
    """A good 2xx entry with every field set."""
    return Entry(
        url=url, outcome="rules", status=200, reason="200: rules from the body (F2)", fetched_at=fetched_at,
        expires_at=fetched_at + 86_400, body=body, good_status=200, good_at=fetched_at, failures=0,
        failing_since=None, final_url=url,
    )


def racing_entries(url: str, i: int) -> tuple[Entry, Entry]:
    """Round ``i`` of a write race: a new good copy, and a newer failure carrying round i-1's copy
    (what a crawler that read the store just before the good write lands would write, C2)."""
    at = 1_700_000_000.0 + 10 * i
    good = sample_entry(url, f"good {i}".encode(), fetched_at=at)
    before = sample_entry(url, f"good {i - 1}".encode(), fetched_at=at - 10) if i else None
    failed = Entry(
        url=url, outcome="error", status=503, reason="503: server error", fetched_at=at + 5, expires_at=at + 305,
        body=before.body if before else b"", good_status=200 if before else 0,
        good_at=before.good_at if before else None, failures=1, failing_since=at + 5,
        final_url=before.final_url if before else "",
    )
    return good, failed


def race_puts(kind: str, where: str, prefix: str, url: str, me: int, rounds: int, barrier: Any, results: Any) -> None:
    """One of two processes racing :func:`racing_entries` writes; process 0 checks each round that
    the store holds the round's good copy. Puts the list of rounds that lost it (or an error text)."""
    lost: list[int] = []
    try:
        store = open_store(kind, where, prefix)
        try:
            for i in range(rounds):
                good, failed = racing_entries(url, i)
                barrier.wait(timeout=60)
                store.put(good if (i + me) % 2 else failed)
                barrier.wait(timeout=60)
                if me == 0:
                    got = store.get(url)
                    if got is None or (got.good_at, got.body) != (good.good_at, good.body):
                        lost.append(i)
                barrier.wait(timeout=60)
        finally:
            store.close()
    except Exception as exc:  # reported to the parent, which fails the test
        results.put(repr(exc))
        return
    results.put(lost)


def open_store(kind: str, where: str, prefix: str = "") -> Store:
    if kind == "sqlite":
        return SQLiteStore(where)
    if kind == "redis":
        return RedisStore(where, prefix=prefix, timeout=2.0)
    raise ValueError(kind)


def put_entry(kind: str, where: str, prefix: str, url: str, body: bytes) -> None:
    """Write one entry through a store opened in this process."""
    store = open_store(kind, where, prefix)
    try:
        store.put(sample_entry(url, body))
    finally:
        store.close()


def read_entry(kind: str, where: str, prefix: str, url: str) -> tuple[bytes, float, str] | None:
    """Read one entry through a store opened in this process: (body, fetched_at, reason) or None."""
    store = open_store(kind, where, prefix)
    try:
        entry = store.get(url)
        return None if entry is None else (entry.body, entry.fetched_at, entry.reason)
    finally:
        store.close()


def contend(path: str, key: str, marker: str, attempts: int, barrier: Any, results: Any, ttl: float = 30.0) -> None:
    """Try ``attempts`` times to take the lock of ``key``; while holding it, own ``marker``.

    ``marker`` is created with O_EXCL: if two processes ever held the lock at once, the second
    creation fails and is counted as an overlap. Puts (wins, overlaps, errors) on ``results``.
    """
    wins = overlaps = 0
    errors: list[str] = []
    barrier.wait()  # all open the (possibly new) file at once, then contend
    try:
        store = SQLiteStore(path)
    except Exception as exc:  # reported to the parent, which fails the test
        results.put((os.getpid(), 0, 0, [repr(exc)]))
        return
    try:
        for _ in range(attempts):
            token = store.acquire(key, ttl=ttl)
            if token is None:
                time.sleep(0.0002)
                continue
            wins += 1
            try:
                fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                overlaps += 1
                store.release(key, token)
                continue
            os.close(fd)
            time.sleep(0.0005)
            os.unlink(marker)
            store.release(key, token)
            time.sleep(0.001)  # let the others in
    except Exception as exc:  # reported to the parent, which fails the test
        errors.append(repr(exc))
    finally:
        store.close()
        results.put((os.getpid(), wins, overlaps, errors))


def put_with_inherited(store: SQLiteStore, url: str) -> None:
    """In a forked child: write through the store object created by the parent."""
    store.put(sample_entry(url, b"from the forked child"))
