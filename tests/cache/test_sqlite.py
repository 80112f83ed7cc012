"""SQLiteStore: one file shared by threads and processes, versioned, purgeable (DESIGN cache/ SQLite)."""

from __future__ import annotations

import logging
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
from .conftest import unprivileged_python

URL = "https://example.com/robots.txt"
SPAWN = multiprocessing.get_context("spawn")


def _cache_warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == "robotrules.cache" and r.levelno == logging.WARNING]


def _corrupt_copies(path: Path) -> list[Path]:
    """The damaged files moved aside next to ``path`` (not their -wal and -shm)."""
    return sorted(p for p in path.parent.glob(path.name + ".corrupt-*") if not p.name.endswith(("-wal", "-shm")))


def _truncated_cache(path: Path) -> list[str]:
    """A real cache of 200 entries, cut to a third of its size: its keys."""
    keys = [f"https://h{i}.example/robots.txt" for i in range(200)]
    with SQLiteStore(path) as store:
        for key in keys:
            store.put(sample_entry(key, bytes(range(256)) * 12))
    size = path.stat().st_size
    with path.open("r+b") as f:
        f.truncate(size // 3)
    return keys


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


def test_six_threads_opening_one_new_file_at_once_all_take_it_for_a_cache(tmp_path: Path) -> None:
    """C3: whoever opens a new cache file while another creates its schema reads the file's state
    from one snapshot. Read one value at a time, a new cache could be seen half made (application
    id still 0, schema version already set) and refused as another application's database (two
    Spark tasks once did; six threads, about 1 open in 130). 150 new files x 6 threads."""
    errors: list[str] = []

    def open_once(path: Path, barrier: threading.Barrier) -> None:
        barrier.wait(timeout=30)
        try:
            SQLiteStore(path).close()
        except StoreError as exc:
            errors.append(str(exc))

    for n in range(150):
        barrier = threading.Barrier(6)
        threads = [threading.Thread(target=open_once, args=(tmp_path / f"new-{n}.sqlite3", barrier)) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=30)
    assert errors == []


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


def test_file_that_is_not_a_database_is_moved_aside_and_rebuilt_with_one_warning(
        sqlite_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """#8 item 10: a cache file of garbage does not stop the client from starting: the store moves
    it aside (``.corrupt-<timestamp>``, bytes kept for a post-mortem), starts an empty cache in its
    place with one warning, and works."""
    sqlite_path.parent.mkdir(parents=True)
    garbage = b"this is not an SQLite database\n" * 200
    sqlite_path.write_bytes(garbage)
    with caplog.at_level(logging.WARNING, logger="robotrules.cache"):
        store = SQLiteStore(sqlite_path)
    assert len(_cache_warnings(caplog)) == 1
    aside = _corrupt_copies(sqlite_path)
    assert len(aside) == 1 and aside[0].read_bytes() == garbage
    store.put(sample_entry(URL, b"after"))
    assert store.get(URL) == sample_entry(URL, b"after")
    store.close()


def test_database_found_damaged_during_use_is_moved_aside_and_rebuilt(
        sqlite_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """#8 item 10: a real cache cut short (a crash, a full disk) opens, then reads 'malformed'; the
    store does not stay malformed for the life of the process: the call that finds it moves the
    file aside (one warning), answers from a new empty cache, and later calls work."""
    keys = _truncated_cache(sqlite_path)
    store = SQLiteStore(sqlite_path)  # the first pages are intact: it opens
    with caplog.at_level(logging.WARNING, logger="robotrules.cache"):
        found = [store.get(key) for key in keys]  # raises nothing
    assert found.count(None) >= 1
    assert len(_cache_warnings(caplog)) == 1
    assert len(_corrupt_copies(sqlite_path)) == 1
    store.put(sample_entry(URL, b"after"))
    assert store.get(URL) == sample_entry(URL, b"after")
    assert len(store) == 1
    store.close()
    with sqlite3.connect(sqlite_path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()


def test_store_whose_damaged_file_another_store_replaced_reopens_it_without_moving_it_again(
        sqlite_path: Path) -> None:
    """#8 item 10, C3: two processes on one damaged cache: the first to find it moves it aside;
    the other reopens the new file (it does not move the new one aside), and both share it."""
    keys = _truncated_cache(sqlite_path)
    a, b = SQLiteStore(sqlite_path), SQLiteStore(sqlite_path)
    for key in keys:
        a.get(key)
    a.put(sample_entry(URL, b"written after the rebuild"))
    assert b.get(URL) == sample_entry(URL, b"written after the rebuild")
    b.put(sample_entry("https://b.example/robots.txt", b"from b"))
    assert a.get("https://b.example/robots.txt") is not None
    assert len(_corrupt_copies(sqlite_path)) == 1
    a.close()
    b.close()


@pytest.mark.parametrize("value", ["text, not bytes", 12345, 1.5], ids=["text", "integer", "real"])
def test_row_whose_data_has_another_sql_type_reads_as_missing(
        sqlite_path: Path, value: object, caplog: pytest.LogCaptureFixture) -> None:
    """#8 item 4: a row another program wrote with a TEXT, INTEGER or REAL ``data`` reads as missing
    (one warning) and the next put replaces it."""
    store = SQLiteStore(sqlite_path)
    with sqlite3.connect(sqlite_path) as conn:
        conn.execute("INSERT INTO entries (key, fetched_at, data) VALUES (?, 0, ?)", (URL, value))
    conn.close()
    with caplog.at_level(logging.WARNING, logger="robotrules.cache"):
        assert store.get(URL) is None
    assert len(_cache_warnings(caplog)) == 1
    store.put(sample_entry(URL, b"x"))
    assert store.get(URL) == sample_entry(URL, b"x")
    store.close()


def test_path_whose_parent_is_a_file_is_bypassed_with_one_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """#8 item 10: a cache path that cannot exist (its parent is a file) does not stop the client
    from starting: one warning, then every call raises StoreError, so the client goes on without
    a store (works as root too: no permission is involved)."""
    (tmp_path / "a-file").write_text("x")
    with caplog.at_level(logging.WARNING, logger="robotrules.cache"):
        store = SQLiteStore(tmp_path / "a-file" / "cache" / "robots.sqlite3")
    assert len(_cache_warnings(caplog)) == 1
    for call in (lambda: store.get(URL), lambda: store.put(sample_entry(URL, b"x")), lambda: store.delete(URL),
                 lambda: store.acquire(URL, 1.0), lambda: store.release(URL, "t"), lambda: len(store)):
        with pytest.raises(StoreError, match="bypassed"):
            call()
    assert len(_cache_warnings(caplog)) == 1  # one line, not one per call
    store.close()


_READ_ONLY_CHILD = """
import json, logging, os, sys
path = sys.argv[1]
try:
    with open(path, "r+b"):
        pass
except PermissionError:
    pass
else:
    print(json.dumps({"skip": "this process can still write a 0444 file: file permissions cannot be tested here"}))
    raise SystemExit(0)
records = []
class Keep(logging.Handler):
    def emit(self, record):
        records.append(record.getMessage())
logging.getLogger("robotrules.cache").addHandler(Keep(logging.WARNING))
from robotrules.cache import SQLiteStore
from robotrules.core.policy import Entry
from robotrules.errors import StoreError
url = "https://example.com/robots.txt"
out = {}
store = SQLiteStore(path)
def read():
    try:
        got = store.get(url)
    except StoreError:
        return "StoreError"
    return None if got is None else got.body.decode()
out["get"] = read()
entry = Entry(url, "rules", 200, "200", 1.0, 2.0, b"new", 200, 1.0)
for name, call in [("put", lambda: store.put(entry)), ("acquire", lambda: store.acquire(url, 1.0)),
                   ("delete", lambda: store.delete(url))]:
    try:
        call()
        out[name] = "ok"
    except StoreError as exc:
        out[name] = "StoreError"
out["get_after"] = read()
out["warnings"] = records
store.close()
print(json.dumps(out))
"""


def _read_only_cache(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "robots.sqlite3"
    with SQLiteStore(path) as store:
        store.put(sample_entry(URL, b"cached"))
    path.chmod(0o444)
    return path


def test_read_only_cache_file_is_read_but_not_written(tmp_path: Path) -> None:
    """#8 item 10: a cache file the process may not write does not stop the client from starting:
    it is read (the cached copy still decides), writes raise StoreError, and it says so once.
    Run in a child to which file permissions apply (see conftest.unprivileged_python)."""
    path = _read_only_cache(tmp_path / "cache")
    out = unprivileged_python(_READ_ONLY_CHILD, str(path))
    assert out["get"] == "cached" and out["get_after"] == "cached"
    assert (out["put"], out["acquire"], out["delete"]) == ("StoreError",) * 3
    assert len(out["warnings"]) == 1 and "read-only" in out["warnings"][0]


def test_read_only_directory_it_cannot_use_is_bypassed(tmp_path: Path) -> None:
    """#8 item 10: a read-only file in a read-only directory, where SQLite cannot make the WAL
    index it needs, is bypassed: the constructor does not raise, every call raises StoreError,
    one warning. Run in a child to which file permissions apply."""
    directory = tmp_path / "cache"
    path = _read_only_cache(directory)
    directory.chmod(0o555)
    try:
        out = unprivileged_python(_READ_ONLY_CHILD, str(path))
    finally:
        directory.chmod(0o755)
    # Either it could be opened read-only (an SQLite able to read a WAL file without making its
    # index) or it is bypassed; either way the constructor did not raise and nothing is written.
    assert (out["put"], out["acquire"], out["delete"]) == ("StoreError",) * 3
    assert out["get"] == out["get_after"] and out["get"] in ("cached", "StoreError")
    assert len(out["warnings"]) == 1


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


def test_unreadable_row_reads_as_missing(sqlite_path: Path) -> None:
    """#8 item 4, DESIGN 10: a row this code did not write is None on get (logged), not a crash."""
    store = SQLiteStore(sqlite_path)
    with sqlite3.connect(sqlite_path) as conn:
        conn.execute("INSERT INTO entries (key, fetched_at, data) VALUES (?, 0, ?)", (URL, b"garbage"))
    conn.close()
    assert store.get(URL) is None
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


_WRITABLE_AGAIN_CHILD = _READ_ONLY_CHILD[: _READ_ONLY_CHILD.index("records = []")] + """
import os, shutil
from robotrules.cache import SQLiteStore
from robotrules.core.policy import Entry
from robotrules.errors import StoreError
url = "https://example.com/robots.txt"
store = SQLiteStore(path)
def put(body):
    try:
        now = 2e9 + len(body)  # newer than the copy already stored: the merge keeps the newest copy
        store.put(Entry(url, "rules", 200, "200", now, now + 86400, body, 200, now))
    except StoreError:
        return "StoreError"
    return "ok"
out = {"read_only": put(b"first")}
shutil.copyfile(path, path + ".new")
os.chmod(path + ".new", 0o644)
for suffix in ("-wal", "-shm"):  # restored as an operator would: the database alone, writable
    if os.path.exists(path + suffix):
        os.remove(path + suffix)
os.replace(path + ".new", path)  # a writable file in its place (a new inode)
out["writable_again"] = put(b"second!")
got = store.get(url)
out["body"] = None if got is None else got.body.decode()
print(json.dumps(out))
"""


def test_a_cache_file_made_writable_again_is_written_again(tmp_path: Path) -> None:
    """#8 item 10: read-only is what was found of one file, not a verdict for the process's life:
    when the file is replaced by a writable one, writes go through again (C2's good copies are
    stored again). Run in a child to which file permissions apply."""
    path = _read_only_cache(tmp_path / "cache")
    out = unprivileged_python(_WRITABLE_AGAIN_CHILD, str(path))
    assert out == {"read_only": "StoreError", "writable_again": "ok", "body": "second!"}


def test_reads_never_wait_behind_a_write_that_waits_for_the_lock(tmp_path: Path) -> None:
    """#16-H1, C3: a write stuck on the database's write lock (another program holds it) does not
    hold up this process's readers: 200 reads from 8 threads all finish while it still waits."""
    path = tmp_path / "cache.sqlite3"
    store = SQLiteStore(path, timeout=10.0)
    store.put(sample_entry(URL, b"User-agent: *\nDisallow: /x\n"))
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # another program writing, and taking its time
    writer = threading.Thread(target=store.put, args=(sample_entry("https://b.example/robots.txt", b""),), daemon=True)
    try:
        writer.start()
        assert not writer.join(0.2) and writer.is_alive()  # the write waits for the lock (up to 10 s)
        with ThreadPoolExecutor(max_workers=8) as pool:
            bodies = list(pool.map(lambda _: store.get(URL), range(200)))
        assert writer.is_alive(), "the reads waited for the write"
        assert all(entry is not None and entry.body.startswith(b"User-agent") for entry in bodies)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        writer.join(15)
    assert store.get("https://b.example/robots.txt") is not None
    store.close()


def test_pooled_read_connections_follow_a_file_another_store_rebuilt(sqlite_path: Path) -> None:
    """#16-H1: a store whose read connections were opened on a file that another store then found
    damaged and rebuilt reads the new file, never the old one."""
    keys = _truncated_cache(sqlite_path)
    a, b = SQLiteStore(sqlite_path), SQLiteStore(sqlite_path)
    b.get("https://nothing.example/robots.txt")  # b has a pooled read connection to the damaged file now
    for key in keys:
        a.get(key)  # finds the damage: moves the file aside, starts a new one
    a.put(sample_entry(URL, b"written after the rebuild"))
    assert b.get(URL) == sample_entry(URL, b"written after the rebuild")
    assert [b.get(key) for key in keys[:20]] == [None] * 20
    assert len(_corrupt_copies(sqlite_path)) == 1
    a.close()
    b.close()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")
def test_a_new_cache_file_and_its_directory_are_private(tmp_path: Path) -> None:
    """#16-L7: which sites a crawler visits is nobody else's business: a new cache directory is
    0700, the file and its -wal and -shm files 0600; an existing file keeps its mode."""
    path = tmp_path / "made" / "robots.sqlite3"
    with SQLiteStore(path) as store:
        store.put(sample_entry(URL, b"User-agent: *\n"))
        assert store.get(URL) is not None
        modes = {p.name: p.stat().st_mode & 0o777 for p in path.parent.iterdir()}
    assert path.parent.stat().st_mode & 0o777 == 0o700
    assert modes["robots.sqlite3"] == 0o600
    assert all(mode == 0o600 for name, mode in modes.items() if name.startswith("robots.sqlite3")), modes
    shared = tmp_path / "shared.sqlite3"
    SQLiteStore(shared).close()
    shared.chmod(0o644)
    with SQLiteStore(shared) as store:
        store.put(sample_entry(URL, b""))
    assert shared.stat().st_mode & 0o777 == 0o644
