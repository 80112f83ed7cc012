"""SQLiteStore: one file shared by threads and processes, versioned, purgeable (DESIGN cache/ SQLite)."""

from __future__ import annotations

import multiprocessing
import sqlite3
import sys
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

import pytest

from robotrules.cache import SQLiteStore
from robotrules.cache.sqlite import SCHEMA_VERSION
from robotrules.errors import StoreError

from ._workers import contend, put_entry, put_with_inherited, read_entry, sample_entry

URL = "https://example.com/robots.txt"
SPAWN = multiprocessing.get_context("spawn")


def test_two_processes_share_one_cached_copy(sqlite_path: Path) -> None:
    """C3: what one process caches, another process on the machine reads (and vice versa)."""
    mine = SQLiteStore(sqlite_path)  # opened before the other process writes
    body = bytes(range(256)) + b"\nUser-agent: *\nDisallow: /private\n"
    with ProcessPoolExecutor(max_workers=1, mp_context=SPAWN) as pool:
        pool.submit(put_entry, "sqlite", str(sqlite_path), "", URL, body).result(timeout=60)
        got = mine.get(URL)
        assert got is not None and got.body == body
        other = "http://other.example/robots.txt"
        mine.put(sample_entry(other, b"from the parent"))
        seen = pool.submit(read_entry, "sqlite", str(sqlite_path), "", other).result(timeout=60)
    assert seen == (b"from the parent", 1_700_000_000.25, sample_entry(other, b"").reason)
    mine.close()


def test_lock_has_one_holder_at_a_time_across_four_processes(sqlite_path: Path, tmp_path: Path) -> None:
    """DESIGN cache/ single flight: 4 processes x 150 attempts on one key never overlap
    (each winner creates an O_EXCL marker file while it holds the lock). The four open the new
    file at the same moment, so creating the schema concurrently is covered too."""
    barrier = SPAWN.Barrier(4)
    results = SPAWN.Queue()
    marker = str(tmp_path / "held")
    procs = [
        SPAWN.Process(target=contend, args=(str(sqlite_path), URL, marker, 150, barrier, results))
        for _ in range(4)
    ]
    for p in procs:
        p.start()
    reports = [results.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    assert [r[3] for r in reports] == [[]] * 4, "a worker raised"
    assert sum(r[2] for r in reports) == 0, "two processes held the lock at once"
    assert sum(r[1] for r in reports) > 0
    with SQLiteStore(sqlite_path) as store:  # every holder released: the lock is free
        assert store.acquire(URL, ttl=1) is not None


def test_lock_held_in_one_process_blocks_another(sqlite_path: Path) -> None:
    """DESIGN cache/ single flight: a live lock taken here is seen by a separate connection."""
    a = SQLiteStore(sqlite_path)
    b = SQLiteStore(sqlite_path)
    token = a.acquire(URL, ttl=30)
    assert token is not None
    assert b.acquire(URL, ttl=30) is None
    b.release(URL, token + "x")
    assert b.acquire(URL, ttl=30) is None
    a.release(URL, token)
    assert b.acquire(URL, ttl=30) is not None
    a.close()
    b.close()


@pytest.mark.skipif(sys.platform == "win32", reason="os.fork is POSIX only")
def test_forked_child_uses_its_own_connection(sqlite_path: Path) -> None:
    """DESIGN cache/ SQLite: a store made before fork() keeps working in the child (new connection)."""
    store = SQLiteStore(sqlite_path)
    store.put(sample_entry(URL, b"before fork"))
    child = multiprocessing.get_context("fork").Process(target=put_with_inherited, args=(store, "http://child.example/robots.txt"))
    child.start()
    child.join(timeout=30)
    assert child.exitcode == 0
    got = store.get("http://child.example/robots.txt")
    assert got is not None and got.body == b"from the forked child"
    assert store.get(URL) is not None
    store.close()


def test_threads_share_one_store(sqlite_path: Path) -> None:
    """base.Store (thread-safe): 8 threads writing and reading one store see no errors."""
    store = SQLiteStore(sqlite_path)

    def work(n: int) -> None:
        for i in range(100):
            key = f"https://t{n}.example/{i % 7}/robots.txt"
            store.put(sample_entry(key, f"{n}-{i}".encode()))
            got = store.get(key)
            assert got is not None and got.body == f"{n}-{i}".encode()

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(work, range(8)))  # re-raises the first failure of any thread
    assert len(store) == 8 * 7
    store.close()


def test_in_memory_database_works_within_one_process() -> None:
    """DESIGN cache/ SQLite: ':memory:' is a private store, shared by the threads of the process."""
    store = SQLiteStore(":memory:")
    store.put(sample_entry(URL, b"m"))
    seen: list[object] = []
    t = threading.Thread(target=lambda: seen.append(store.get(URL)))
    t.start()
    t.join()
    assert seen == [sample_entry(URL, b"m")]
    assert len(store) == 1
    store.close()


def test_file_uses_wal_and_parent_directories_are_created(tmp_path: Path) -> None:
    """DESIGN cache/ SQLite: readers never wait for writers (WAL); the path's folders are made."""
    path = tmp_path / "a" / "b" / "c.sqlite3"
    store = SQLiteStore(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    store.close()


def test_purge_removes_entries_fetched_before_the_cutoff(sqlite_path: Path) -> None:
    """C1, C2: old entries (by fetched_at, epoch seconds) can be purged; newer ones stay."""
    store = SQLiteStore(sqlite_path)
    for i, fetched_at in enumerate([100.0, 200.0, 300.0]):
        store.put(sample_entry(f"https://p{i}.example/robots.txt", b"x", fetched_at=fetched_at))
    assert store.purge(older_than=250.0) == 2
    assert len(store) == 1
    assert store.get("https://p2.example/robots.txt") is not None
    assert store.purge(older_than=250.0) == 0
    store.close()


def test_file_that_is_not_a_database_gives_store_error(sqlite_path: Path) -> None:
    """DESIGN 10 (one error tree): a corrupted cache file is a StoreError, not a raw sqlite3 error."""
    sqlite_path.parent.mkdir(parents=True)
    sqlite_path.write_bytes(b"this is not an SQLite database\n" * 200)
    with pytest.raises(StoreError, match="cannot use SQLite cache"):
        SQLiteStore(sqlite_path)


def test_database_of_another_application_gives_store_error(sqlite_path: Path) -> None:
    """DESIGN cache/ SQLite versioning: a file that is not a robotrules cache is refused, untouched."""
    sqlite_path.parent.mkdir(parents=True)
    with sqlite3.connect(sqlite_path) as conn:
        conn.execute("CREATE TABLE entries (anything)")
    conn.close()
    with pytest.raises(StoreError, match="another application"):
        SQLiteStore(sqlite_path)
    with sqlite3.connect(sqlite_path) as conn:
        assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["entries"]
    conn.close()


def test_newer_schema_version_gives_a_clear_store_error(sqlite_path: Path) -> None:
    """DESIGN cache/ SQLite versioning: a file of another schema version is detected and named."""
    SQLiteStore(sqlite_path).close()
    with sqlite3.connect(sqlite_path) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match=f"schema version {SCHEMA_VERSION + 1}"):
        SQLiteStore(sqlite_path)


def test_unreadable_row_gives_store_error(sqlite_path: Path) -> None:
    """DESIGN 10: a row this code did not write is a StoreError on get, not a crash."""
    store = SQLiteStore(sqlite_path)
    with sqlite3.connect(sqlite_path) as conn:
        conn.execute("INSERT INTO entries (key, fetched_at, data) VALUES (?, 0, ?)", (URL, b"garbage"))
    conn.close()
    with pytest.raises(StoreError):
        store.get(URL)
    store.close()


def test_closed_store_raises_store_error(sqlite_path: Path) -> None:
    """base.Store.close: using a closed store is a StoreError; closing twice is harmless."""
    store = SQLiteStore(sqlite_path)
    store.close()
    store.close()
    with pytest.raises(StoreError):
        store.get(URL)
    with pytest.raises(StoreError):
        store.acquire(URL, ttl=1)
