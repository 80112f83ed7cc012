"""The embedded default store: one SQLite file shared by the threads and processes of a host.

Why SQLite: no server to run, yet several crawler processes on one machine share one cached
copy of each robots.txt (C3) and fetch it once (the lock table). The file holds two tables::

    entries(key TEXT PRIMARY KEY, fetched_at REAL, data BLOB)   -- data: encode_entry(entry)
    locks(key TEXT PRIMARY KEY, token TEXT, expires REAL)       -- expires: time.time() seconds

``data`` is the self-describing blob of :func:`~robotrules.cache.base.encode_entry`, so every
store writes the same bytes; ``fetched_at`` is copied out of it for :meth:`SQLiteStore.purge`.

Concurrency: the database runs in WAL journal mode (readers never wait for the writer) with a
busy timeout (a writer waits for another writer instead of failing). Every operation is one
short statement in autocommit mode, except :meth:`SQLiteStore.acquire`, which is one
``BEGIN IMMEDIATE`` transaction (take the write lock first, drop expired locks, ``INSERT OR
IGNORE``, look at the row count), so two processes can never both win a lock. Opening a new
file from several processes at once is safe: the switch to WAL is retried while SQLite reports
it busy, and the schema is created inside ``BEGIN IMMEDIATE``.

Versioning: the file carries ``PRAGMA application_id`` (this is a robotrules cache) and ``PRAGMA
user_version`` (its schema). A file of another application, of a newer schema, or not a
database at all gives a clear :class:`~robotrules.errors.StoreError` when the store is opened.
"""

from __future__ import annotations

import os
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from robotrules.cache.base import decode_entry, encode_entry
from robotrules.core.policy import Entry
from robotrules.errors import StoreError

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "SQLiteStore"]

APPLICATION_ID = 0x52527478  # "RRtx": marks the file as a robotrules cache (PRAGMA application_id)

SCHEMA_VERSION = 1  # PRAGMA user_version; bump on any incompatible change of the tables below

_SCHEMA = (
    "CREATE TABLE entries (key TEXT PRIMARY KEY, fetched_at REAL NOT NULL, data BLOB NOT NULL)",
    "CREATE INDEX entries_fetched_at ON entries (fetched_at)",
    "CREATE TABLE locks (key TEXT PRIMARY KEY, token TEXT NOT NULL, expires REAL NOT NULL)",
    "CREATE INDEX locks_expires ON locks (expires)",
    f"PRAGMA application_id = {APPLICATION_ID}",
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)


def _is_busy(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` is SQLITE_BUSY ("database is locked"), which is worth retrying."""
    code = getattr(exc, "sqlite_errorcode", None)  # Python >= 3.11
    if code is not None:
        return bool(code & 0xFF == 5)  # SQLITE_BUSY and its extended codes
    return "database is locked" in str(exc)


class SQLiteStore:
    """Entries and fetch locks in one SQLite file, safe across threads and processes.

    ``path`` is the database file; missing parent directories are created. ``":memory:"`` gives
    a private in-memory database: fine for one process (all its threads share it, since the
    store has one connection), invisible to every other process. ``timeout`` is how long (in
    seconds) a statement waits for another writer before failing with :class:`StoreError`.

    One connection, guarded by a :class:`threading.Lock` and opened with
    ``check_same_thread=False``, rather than one connection per thread: every statement is a few
    microseconds to milliseconds on small rows, so serialising the threads of one process
    costs little; it makes ``":memory:"`` work (each connection to it would be a separate
    database), lets :meth:`close` close everything from any thread, and leaves no connection
    behind in threads that end. Processes still run in parallel: WAL lets their readers go on
    while one of them writes.

    After ``os.fork()`` the child opens its own connection to the file on first use (an SQLite
    connection must not cross a fork); an in-memory database is not shared with the child.

    Every :class:`sqlite3.Error` is raised as :class:`StoreError`.
    """

    blocking = True

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = 30.0) -> None:
        self.path = os.fspath(path)
        self.timeout = timeout
        self._memory = self.path == ":memory:" or self.path == ""
        if not self._memory:
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._closed = False
        self._pid = os.getpid()
        self._conn = self._open()

    # -- connection ---------------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        """Connect, switch to WAL, and create or check the schema."""
        try:
            conn = sqlite3.connect(self.path, timeout=self.timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open SQLite cache {self.path!r}: {exc}") from exc
        deadline = time.monotonic() + self.timeout
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(self.timeout * 1000)}")
            while True:
                try:
                    # Switching a new file to WAL can fail with SQLITE_BUSY at once, without the
                    # busy handler, while another process does the same: retry until the timeout.
                    conn.execute("PRAGMA journal_mode = WAL")
                    break
                except sqlite3.OperationalError as exc:
                    if not _is_busy(exc) or time.monotonic() >= deadline:
                        raise
                    time.sleep(0.005)
            conn.execute("PRAGMA synchronous = NORMAL")  # WAL: consistent after a crash; a cache needs no more
            self._check_schema(conn)
        except sqlite3.Error as exc:
            conn.close()
            raise StoreError(f"cannot use SQLite cache {self.path!r}: {exc}") from exc
        except StoreError:
            conn.close()
            raise
        return conn

    def _check_schema(self, conn: sqlite3.Connection) -> None:
        """Create the tables in a new file; refuse a file of another application or schema."""
        conn.execute("BEGIN IMMEDIATE")  # several processes may open a new file at once
        try:
            app = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if app == 0 and version == 0:
                tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
                if tables:
                    raise StoreError(f"{self.path!r} is an SQLite database of another application, not a robotrules cache")
                for statement in _SCHEMA:
                    conn.execute(statement)
            elif app != APPLICATION_ID:
                raise StoreError(f"{self.path!r} is an SQLite database of another application (application_id {app:#x})")
            elif version != SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path!r} is a robotrules cache of schema version {version}; this version of robotrules "
                    f"reads version {SCHEMA_VERSION}: use another path or delete the file (it is only a cache)"
                )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _connection(self) -> sqlite3.Connection:
        """The connection of this process (reopened after a fork); call with ``self._lock`` held."""
        if self._closed:
            raise StoreError("the SQLite store is closed")
        if self._pid != os.getpid() and not self._memory:
            self._pid = os.getpid()
            self._conn = self._open()  # the parent's connection is left alone: it is the parent's
        return self._conn

    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
        """The rows of one autocommit SELECT, read to the end while the lock is held."""
        with self._lock:
            try:
                return self._connection().execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise StoreError(f"SQLite cache {self.path!r}: {exc}") from exc

    def _change(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        """Run one autocommit write statement: the number of rows it changed."""
        with self._lock:
            try:
                return self._connection().execute(sql, params).rowcount
            except sqlite3.Error as exc:
                raise StoreError(f"SQLite cache {self.path!r}: {exc}") from exc

    # -- the Store protocol -------------------------------------------------------------

    def get(self, key: str) -> Entry | None:
        """The entry stored for ``key``, or None. An unreadable row raises StoreError."""
        rows = self._query("SELECT data FROM entries WHERE key = ?", (key,))
        if not rows:
            return None
        try:
            return decode_entry(bytes(rows[0][0]))
        except ValueError as exc:
            raise StoreError(f"SQLite cache {self.path!r}: entry for {key!r}: {exc}") from exc

    def put(self, entry: Entry) -> None:
        """Store ``entry`` under ``entry.url``, replacing what was there."""
        blob = encode_entry(entry)
        self._change("INSERT OR REPLACE INTO entries (key, fetched_at, data) VALUES (?, ?, ?)",
                  (entry.url, entry.fetched_at, blob))

    def delete(self, key: str) -> None:
        """Forget ``key`` (no error when absent)."""
        self._change("DELETE FROM entries WHERE key = ?", (key,))

    def acquire(self, key: str, ttl: float) -> str | None:
        """Take the fetch lock of ``key`` for ``ttl`` seconds (> 0, wall clock): a token, or None.

        Atomic across processes: one ``BEGIN IMMEDIATE`` transaction drops expired locks and
        inserts ours unless a live one is there.
        """
        if not ttl > 0:
            raise ValueError("ttl must be > 0")
        token = secrets.token_hex(16)
        with self._lock:
            try:
                conn = self._connection()
                conn.execute("BEGIN IMMEDIATE")
                try:
                    now = time.time()
                    conn.execute("DELETE FROM locks WHERE expires <= ?", (now,))
                    cur = conn.execute("INSERT OR IGNORE INTO locks (key, token, expires) VALUES (?, ?, ?)",
                                       (key, token, now + ttl))
                    won = cur.rowcount == 1
                    conn.execute("COMMIT")
                except BaseException:
                    if conn.in_transaction:
                        conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise StoreError(f"SQLite cache {self.path!r}: {exc}") from exc
        return token if won else None

    def release(self, key: str, token: str) -> None:
        """Give the lock of ``key`` back, only if ``token`` still holds it."""
        self._change("DELETE FROM locks WHERE key = ? AND token = ?", (key, token))

    def close(self) -> None:
        """Close the connection; further calls raise StoreError. Closing twice is harmless."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._pid == os.getpid() or self._memory:
                try:
                    self._conn.close()
                except sqlite3.Error as exc:
                    raise StoreError(f"SQLite cache {self.path!r}: {exc}") from exc

    # -- extras -------------------------------------------------------------------------

    def purge(self, older_than: float) -> int:
        """Remove the entries fetched before ``older_than`` (seconds since the epoch); their count."""
        return self._change("DELETE FROM entries WHERE fetched_at < ?", (older_than,))

    def __len__(self) -> int:
        """The number of entries stored (in the file, by every process)."""
        return int(self._query("SELECT count(*) FROM entries")[0][0])

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
