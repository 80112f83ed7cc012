"""The embedded default store: one SQLite file shared by the threads and processes of a host.

Why SQLite: no server to run, yet several crawler processes on one machine share one cached
copy of each robots.txt (C3) and fetch it once (the lock table). The file holds two tables::

    entries(key TEXT PRIMARY KEY, fetched_at REAL, data BLOB)   -- data: encode_entry(entry)
    locks(key TEXT PRIMARY KEY, token TEXT, expires REAL)       -- expires: time.time() seconds

``data`` is the self-describing blob of :func:`~robotrules.cache.base.encode_entry`, so every
store writes the same bytes; ``fetched_at`` is copied out of it for :meth:`SQLiteStore.purge`.

Concurrency: the database runs in WAL journal mode (readers never wait for the writer) with a
short busy timeout (a writer waits for another writer up to ``timeout``, then fails with
StoreError). Reads are one autocommit statement, on a pool of read connections of their own
(up to :data:`READERS` per process), so many readers never wait behind one writer, in this
process or another; writes go through the one write connection, one at a time. Writes that must see what is there are one
``BEGIN IMMEDIATE`` transaction (take the write lock first, then read, decide, write, commit):
:meth:`SQLiteStore.put` reads the stored entry, applies :func:`~robotrules.core.policy.merge`
and writes the result, so no writer in any process loses a good copy (C2);
:meth:`SQLiteStore.acquire` drops expired locks, ``INSERT OR IGNORE`` and looks at the row
count, so two processes never both win a lock. Opening a new file from several processes at
once is safe: the switch to WAL is retried while SQLite reports it busy, and the schema is
created inside ``BEGIN IMMEDIATE``; opening an existing cache takes no write lock.

Reads are checked: a row that does not decode or fails
:func:`~robotrules.cache.base.validate_entry` (a wrong type, a URL other than its key, ...) is
logged and read as missing, and the next ``put`` replaces it.

Permissions: a new cache file is created readable and writable by its owner only (0600; SQLite
gives its ``-wal`` and ``-shm`` files the same mode), and a directory the store creates for it
is 0700: robots.txt files are public, but which sites a crawler visits is not. An existing file
or directory keeps its mode.

Versioning: the file carries ``PRAGMA application_id`` (this is a robotrules cache) and ``PRAGMA
user_version`` (its schema). A database of another application or of a newer schema gives a
clear :class:`~robotrules.errors.StoreError` when the store is opened, and is left untouched.

Damage and permissions (the store is only a cache; it never stops the client):

- A file that is not a database, or one SQLite finds malformed when it is opened or at any later
  call, is moved aside (renamed ``<path>.corrupt-<UTC timestamp>``, with its ``-wal`` and
  ``-shm`` files) and a new empty cache is made in its place, with one warning (logger
  ``robotrules.cache``); the call that found it runs again on the new file. A process that
  finds the file replaced by another one reopens it at its next call (each call compares the
  file's inode with the one it opened) and does not move the new file; a ``<path>.rebuild-lock``
  side file keeps two processes from moving it at once. (SQLite warns against renaming a
  database that others have open; for a damaged cache that is the lesser harm.)
- A file this process may read but not write is used read-only: reads work, writes raise
  StoreError (one warning when that is found).
- A file or directory that cannot be opened at all (no permission, a parent that is a file, a
  read-only directory where SQLite cannot make its WAL index) makes the store a bypass: one
  warning, then every call raises StoreError, so the client goes on without a store.
"""

from __future__ import annotations

import logging
import os
import secrets
import sqlite3
import threading
import time
from typing import TYPE_CHECKING

from robotrules.cache._sqlite_connections import (
    APPLICATION_ID,
    READERS,
    SCHEMA_VERSION,
    Connections,
    is_busy,
    private_file,
)
from robotrules.cache.base import encode_entry, load_entry, validate_entry
from robotrules.core.policy import Entry, merge
from robotrules.errors import StoreError

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["APPLICATION_ID", "DEFAULT_TIMEOUT", "READERS", "SCHEMA_VERSION", "SQLiteStore", "default_path"]

log = logging.getLogger("robotrules.cache")

def default_path() -> str:
    """The cache file the command line and the service share: ``$ROBOTRULES_CACHE``, else
    ``robotrules/robots.sqlite3`` in the user's cache directory (``$XDG_CACHE_HOME`` or ``~/.cache``)."""
    if os.environ.get("ROBOTRULES_CACHE"):
        return os.environ["ROBOTRULES_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "robotrules", "robots.sqlite3")


DEFAULT_TIMEOUT = 0.25
"""Seconds a call waits for another writer's lock before raising StoreError (see :class:`SQLiteStore`)."""

class SQLiteStore(Connections):
    """Entries and fetch locks in one SQLite file, safe across threads and processes.

    ``path`` is the database file; missing parent directories are created. ``":memory:"`` gives
    a private in-memory database: fine for one process (all its threads share it, since the
    store has one connection), invisible to every other process.

    ``timeout`` (seconds, > 0; default :data:`DEFAULT_TIMEOUT`, 0.25 s) is SQLite's busy timeout
    and the connection's: how long a call waits for another connection's write lock before
    raising :class:`StoreError`. Why 0.25 s: writers here hold the lock for one short
    transaction on one row (well under a millisecond in WAL mode, where commits do not wait for
    the disk), so only a stuck holder (a process stopped inside a transaction, a tool keeping a
    write open, a long :meth:`purge`) makes a call wait that long; the client then goes on
    without the store for that call rather than stalling a check (Python's default, 5 s per
    statement, cost a check up to 90 s). Reads never wait: WAL readers do not take the lock.

    The constructor does not raise for a damaged, read-only or unreachable file (see the module
    docstring: it is rebuilt, read only, or bypassed, with one warning); it raises StoreError
    for a database of another application or of a newer schema, which is left as it is.

    Writes use one connection, guarded by a :class:`threading.Lock` and opened with
    ``check_same_thread=False``: every write is one short transaction, so serialising them
    costs little, and it lets :meth:`close` close everything from any thread. Reads of a file
    use a pool of up to :data:`READERS` read connections (taken and given back per read, so no
    connection is left behind in threads that end): a read never waits for a write of this
    process or another (WAL). ``":memory:"`` has the one connection only (each connection to
    it would be a separate database), and so has a file found read-only or damaged, until it
    is usable again.

    After ``os.fork()`` the child opens its own connection to the file on first use (an SQLite
    connection must not cross a fork); an in-memory database is not shared with the child.

    Every :class:`sqlite3.Error` is raised as :class:`StoreError`.
    """

    blocking = True

    def __init__(self, path: str | os.PathLike[str], *, timeout: float = DEFAULT_TIMEOUT) -> None:
        if not timeout > 0:
            raise ValueError("timeout must be > 0")
        self.path = os.fspath(path)
        self.timeout = timeout
        self._memory = self.path in {":memory:", ""}
        self._file = self.path if self._memory else os.path.abspath(self.path)  # fixed, whatever the cwd later
        self._lock = threading.Lock()
        self._readers: list[tuple[int, sqlite3.Connection]] = []  # idle read connections, by generation
        self._reading = 0  # read connections open now (idle or in use)
        self._pool = threading.Condition(threading.Lock())
        self._generation = 0  # the write connection's: read connections of an older one are closed
        self._closed = False
        self._pid = os.getpid()
        self._conn: sqlite3.Connection | None = None
        self._file_id: tuple[int, int] | None = None  # (st_dev, st_ino) of the file we opened
        self._readonly = ""  # why writes are refused, once found read-only
        self._bypass = ""  # why every call is refused, once found unusable
        if not self._memory:
            try:
                private_file(self._file)
            except OSError as exc:
                self._give_up(f"cannot create its directory or file: {exc}")
                return
        try:
            self._establish()
        except StoreError as exc:
            if not isinstance(exc.__cause__, sqlite3.Error) or not is_busy(exc.__cause__):
                raise  # another application's database, a newer schema: left alone, said clearly
            # busy: another process holds the file's write lock; the first call tries again

    # -- the Store protocol -------------------------------------------------------------

    def get(self, key: str) -> Entry | None:
        """The entry stored for ``key``, or None (also for an invalid row: logged, see base.Store.get)."""
        rows = self._read(lambda conn: conn.execute("SELECT data FROM entries WHERE key = ?", (key,)).fetchall())
        if not rows:
            return None
        return self._decode(key, rows[0][0])

    def _decode(self, key: str, data: object) -> Entry | None:
        if not isinstance(data, bytes):  # a row written behind the store's back
            data = data.encode("utf-8", "replace") if isinstance(data, str) else repr(data).encode()
        return load_entry(key, data, f"SQLite cache {self.path!r}")

    def put(self, entry: Entry) -> None:
        """Store the merge of the stored entry and ``entry`` under ``entry.url``, in one
        ``BEGIN IMMEDIATE`` transaction (read, :func:`~robotrules.core.policy.merge`, write), so a
        good copy is never lost to a concurrent writer. ``InvalidEntry`` for an invalid ``entry``."""
        validate_entry(entry)

        def write(conn: sqlite3.Connection) -> None:
            conn.execute("BEGIN IMMEDIATE")
            row = conn.execute("SELECT data FROM entries WHERE key = ?", (entry.url,)).fetchone()
            kept = merge(None if row is None else self._decode(entry.url, row[0]), entry)
            conn.execute("INSERT OR REPLACE INTO entries (key, fetched_at, data) VALUES (?, ?, ?)",
                         (kept.url, kept.fetched_at, encode_entry(kept)))
            conn.execute("COMMIT")

        self._call(write, write=True)

    def delete(self, key: str) -> None:
        """Forget ``key`` (no error when absent)."""
        self._call(lambda conn: conn.execute("DELETE FROM entries WHERE key = ?", (key,)), write=True)

    def acquire(self, key: str, ttl: float) -> str | None:
        """Take the fetch lock of ``key`` for ``ttl`` seconds (> 0, wall clock): a token, or None.

        Atomic across processes: one ``BEGIN IMMEDIATE`` transaction drops expired locks and
        inserts ours unless a live one is there.
        """
        if not ttl > 0:
            raise ValueError("ttl must be > 0")
        token = secrets.token_hex(16)

        def take(conn: sqlite3.Connection) -> bool:
            conn.execute("BEGIN IMMEDIATE")
            now = time.time()
            conn.execute("DELETE FROM locks WHERE expires <= ?", (now,))
            cur = conn.execute("INSERT OR IGNORE INTO locks (key, token, expires) VALUES (?, ?, ?)",
                               (key, token, now + ttl))
            won = cur.rowcount == 1
            conn.execute("COMMIT")
            return won

        return token if self._call(take, write=True) else None

    def release(self, key: str, token: str) -> None:
        """Give the lock of ``key`` back, only if ``token`` still holds it."""
        self._call(lambda conn: conn.execute("DELETE FROM locks WHERE key = ? AND token = ?", (key, token)),
                   write=True)

    def close(self) -> None:
        """Close the connection; further calls raise StoreError. Closing twice is harmless."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            conn, self._conn = self._conn, None
            if self._pid == os.getpid():
                self._close_readers()  # those in use are closed when given back
            if conn is not None and (self._pid == os.getpid() or self._memory):
                try:
                    conn.close()
                except sqlite3.Error as exc:
                    raise StoreError(f"SQLite cache {self.path!r}: {exc}") from exc

    # -- extras -------------------------------------------------------------------------

    def purge(self, older_than: float) -> int:
        """Remove the entries fetched before ``older_than`` (seconds since the epoch); their count."""
        return self._call(
            lambda conn: conn.execute("DELETE FROM entries WHERE fetched_at < ?", (older_than,)).rowcount, write=True)

    def __len__(self) -> int:
        """The number of entries stored (in the file, by every process)."""
        return int(self._read(lambda conn: conn.execute("SELECT count(*) FROM entries").fetchone()[0]))

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
