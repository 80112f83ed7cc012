"""The SQLite store's connections: opening a cache file, and keeping it usable whatever happens to it.

:class:`Connections` is the part of :class:`~robotrules.cache.sqlite.SQLiteStore` that owns the
file: the write connection (WAL, the schema, one lock), the pool of read connections (a read
never waits for a write), and what is done when the file is damaged (moved aside and rebuilt),
moved by another process (reopened), read-only (read, not written) or unusable (bypassed). The
store's methods (``get``, ``put``, ...) run their statements through :meth:`Connections._call`
and :meth:`Connections._read`. See the store's module for the whole story.
"""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Literal, TypeVar

from robotrules.errors import StoreError

__all__ = ["APPLICATION_ID", "READERS", "SCHEMA_VERSION", "Connections", "is_busy", "private_file"]

log = logging.getLogger("robotrules.cache")

APPLICATION_ID = 0x52527478  # "RRtx": marks the file as a robotrules cache (PRAGMA application_id)

SCHEMA_VERSION = 1  # PRAGMA user_version; bump on any incompatible change of the tables below

READERS = 8
"""Read connections a store keeps per process (reads beyond that wait for one of them, never for a write)."""

_SCHEMA = (
    "CREATE TABLE entries (key TEXT PRIMARY KEY, fetched_at REAL NOT NULL, data BLOB NOT NULL)",
    "CREATE INDEX entries_fetched_at ON entries (fetched_at)",
    "CREATE TABLE locks (key TEXT PRIMARY KEY, token TEXT NOT NULL, expires REAL NOT NULL)",
    "CREATE INDEX locks_expires ON locks (expires)",
    f"PRAGMA application_id = {APPLICATION_ID}",
    f"PRAGMA user_version = {SCHEMA_VERSION}",
)

_SCHEMA_STATE = ("SELECT (SELECT application_id FROM pragma_application_id), (SELECT user_version FROM pragma_user_version), "
                 "(SELECT count(*) FROM sqlite_master)")
"""The file's application id, schema version and number of schema objects, from one snapshot."""

_T = TypeVar("_T")

_Kind = Literal["busy", "corrupt", "moved", "readonly", "cantopen", "other"]

# SQLite's primary result codes (the low byte of an extended code) and the one extended code
# that matters here: the file was renamed or deleted under an open connection.
_CODES: dict[int, _Kind] = {5: "busy", 6: "busy", 8: "readonly", 11: "corrupt", 14: "cantopen", 26: "corrupt"}
_READONLY_DBMOVED = 1032
_MESSAGES: tuple[tuple[str, _Kind], ...] = (  # Python 3.10 has no sqlite_errorcode
    ("database is locked", "busy"),
    ("database disk image is malformed", "corrupt"),
    ("file is not a database", "corrupt"),
    ("readonly database", "readonly"),
    ("unable to open database file", "cantopen"),
)


def _kind(exc: sqlite3.Error) -> _Kind:
    """What an SQLite error means for the store: worth recovering from, or just a failed call."""
    code = getattr(exc, "sqlite_errorcode", None)  # Python >= 3.11
    if code is not None:
        if code == _READONLY_DBMOVED:
            return "moved"
        return _CODES.get(code & 0xFF, "other")
    text = str(exc)
    return next((kind for message, kind in _MESSAGES if message in text), "other")


def is_busy(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` is SQLITE_BUSY ("database is locked"), which is worth retrying."""
    return _kind(exc) == "busy"


class _Unusable(Exception):
    """Opening failed in a way that a read-only connection or a bypass answers (internal)."""


class Connections:
    """The connections of one SQLite cache file (see the module); the store sets these up in its
    ``__init__`` before it calls :meth:`_establish`."""

    path: str
    timeout: float
    _memory: bool
    _file: str
    _lock: threading.Lock
    _readers: list[tuple[int, sqlite3.Connection]]
    _reading: int
    _pool: threading.Condition
    _generation: int
    _closed: bool
    _pid: int
    _conn: sqlite3.Connection | None
    _file_id: tuple[int, int] | None
    _readonly: str
    _bypass: str

    def _uri(self, read_only: bool) -> str:
        uri = Path(self._file).as_uri()
        return uri + "?mode=ro" if read_only else uri

    def _connect(self, read_only: bool = False) -> sqlite3.Connection:
        """Connect, switch to WAL, and create or check the schema (sqlite3.Error or StoreError)."""
        target = self.path if self._memory else self._uri(read_only)
        conn = sqlite3.connect(target, timeout=self.timeout, isolation_level=None, check_same_thread=False,
                               uri=not self._memory)
        conn.text_factory = bytes  # a TEXT value that is not UTF-8 (written behind our back) still reads
        try:
            conn.execute(f"PRAGMA busy_timeout = {max(1, int(self.timeout * 1000))}")
            if not read_only:
                self._use_wal(conn)
                conn.execute("PRAGMA synchronous = NORMAL")  # WAL: consistent after a crash; a cache needs no more
            self._check_schema(conn, read_only)
        except BaseException:
            conn.close()
            raise
        return conn

    def _use_wal(self, conn: sqlite3.Connection) -> None:
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                # Switching a new file to WAL can fail with SQLITE_BUSY at once, without the
                # busy handler, while another process does the same: retry until the timeout.
                conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if _kind(exc) == "readonly":
                    return  # a read-only file in another journal mode: it can still be read
                if not is_busy(exc) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.005)

    def _check_schema(self, conn: sqlite3.Connection, read_only: bool) -> None:
        """Create the tables in a new file; refuse a file of another application or schema.

        An existing cache is checked without the write lock; only a new file takes it.
        """
        if self._schema_state(conn) == "ours":
            return
        if read_only:
            raise _Unusable("it is not a robotrules cache yet, and it cannot be written")
        conn.execute("BEGIN IMMEDIATE")  # several processes may open a new file at once
        try:
            if self._schema_state(conn) == "empty":
                for statement in _SCHEMA:
                    conn.execute(statement)
            conn.execute("COMMIT")
        except BaseException:
            self._rollback(conn)
            raise

    def _schema_state(self, conn: sqlite3.Connection) -> Literal["ours", "empty"]:
        """What the file holds, read in one statement and so from one snapshot: read one by one,
        the values could straddle another process's creation of the schema (application_id still
        0, user_version already set) and a new cache would pass for another application's file."""
        app, version, tables = conn.execute(_SCHEMA_STATE).fetchone()
        if app == APPLICATION_ID and version == SCHEMA_VERSION:
            return "ours"
        if app == 0 and version == 0:
            if tables:
                raise StoreError(f"{self.path!r} is an SQLite database of another application, not a robotrules cache")
            return "empty"
        if app != APPLICATION_ID:
            raise StoreError(f"{self.path!r} is an SQLite database of another application (application_id {app:#x})")
        raise StoreError(
            f"{self.path!r} is a robotrules cache of schema version {version}; this version of robotrules "
            f"reads version {SCHEMA_VERSION}: use another path or delete the file (it is only a cache)"
        )

    @staticmethod
    def _rollback(conn: sqlite3.Connection) -> None:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):  # a damaged file may refuse even this
                conn.execute("ROLLBACK")

    def _establish(self) -> None:
        """Open the file for this process: read-write, else rebuilt, read-only or bypassed.

        Raises StoreError only for a transient failure (busy) or a foreign database. What was
        found of an earlier file (read-only) does not carry over: a new file is tried for writing.
        """
        self._readonly = ""
        self._remember_file()  # the file as found: a damaged one is moved aside only if still there
        try:
            self._conn = self._connect()
            self._generation += 1
        except sqlite3.Error as exc:
            kind = _kind(exc)
            if kind == "corrupt":
                self._rebuild(exc)
            elif kind in ("readonly", "cantopen"):
                self._open_read_only(exc)
            elif kind == "busy":
                raise StoreError(f"cannot use SQLite cache {self.path!r}: {exc}") from exc
            else:
                self._give_up(f"cannot use it: {exc}")
            return
        self._remember_file()

    def _remember_file(self) -> None:
        if not self._memory:
            self._file_id = self._current_file_id()

    def _current_file_id(self) -> tuple[int, int] | None:
        try:
            st = os.stat(self._file)
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    def _open_read_only(self, why: sqlite3.Error) -> None:
        try:
            self._conn = self._connect(read_only=True)
        except (sqlite3.Error, _Unusable) as exc:
            self._give_up(f"cannot open it for writing ({why}) nor for reading ({exc})")
            return
        self._remember_file()
        self._read_only(str(why))

    def _read_only(self, why: str) -> None:
        if not self._readonly:
            self._readonly = why or "read-only"
            log.warning("robotrules: SQLite cache %r is read-only (%s): reading it, not writing it", self.path, why)

    def _give_up(self, why: str) -> None:
        self._bypass = why
        self._close_connection()
        log.warning("robotrules: SQLite cache %r is bypassed, every call fails with StoreError: %s", self.path, why)

    def _close_connection(self) -> None:
        conn, self._conn = self._conn, None
        self._generation += 1  # the read connections go with it
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        self._close_readers()

    def _close_readers(self) -> None:
        with self._pool:
            idle, self._readers = self._readers, []
            self._reading -= len(idle)
        for _, conn in idle:
            with contextlib.suppress(sqlite3.Error):
                conn.close()

    def _rebuild(self, why: sqlite3.Error) -> None:
        """Move a damaged file aside and start an empty cache in its place (one warning)."""
        self._close_connection()  # before the rename: our close must not touch the renamed files
        if self._memory:
            self._give_up(f"the in-memory database is damaged: {why}")
            return
        try:
            aside = self._move_aside()
        except OSError as exc:
            self._give_up(f"it is damaged ({why}) and cannot be moved aside ({exc})")
            return
        if aside:
            log.warning("robotrules: SQLite cache %r is damaged (%s): moved it to %r and started an empty cache",
                        self.path, why, aside)
        try:
            self._conn = self._connect()
        except (sqlite3.Error, StoreError) as exc:
            self._give_up(f"it was damaged ({why}) and a new one cannot be made ({exc})")
            return
        self._remember_file()

    def _move_aside(self) -> str:
        """Rename the file and its WAL and index to ``.corrupt-<timestamp>``; "" when another
        process already replaced the damaged file (then it is not ours to move)."""
        with _FileLock(self._file + ".rebuild-lock"):
            found = self._current_file_id()
            if found is None or (self._file_id is not None and found != self._file_id):
                return ""  # someone else moved the damaged file aside (and made a new one)
            now = time.time()
            stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime(now)) + f".{int(now % 1 * 1e6):06d}Z"
            aside = f"{self._file}.corrupt-{stamp}"
            if os.path.exists(aside):
                aside += f"-{os.getpid()}"
            for suffix in ("-wal", "-shm"):  # moved first: a new file must not find the old WAL
                with contextlib.suppress(FileNotFoundError):
                    os.replace(self._file + suffix, aside + suffix)
            os.replace(self._file, aside)
            return aside

    def _connection(self) -> sqlite3.Connection:
        """The connection of this process (opened again after a fork); call with ``self._lock`` held."""
        if self._closed:
            raise StoreError("the SQLite store is closed")
        if self._pid != os.getpid() and not self._memory:
            self._pid = os.getpid()
            self._conn = None  # the parent's connections are left alone: they are the parent's
            with self._pool:
                self._readers, self._reading = [], 0
        if self._conn is not None and self._file_id is not None and self._file_id != self._current_file_id():
            self._close_connection()  # another process moved a damaged file aside: use the new one
        if self._conn is None and not self._bypass:
            self._establish()
        if self._bypass:
            raise StoreError(f"SQLite cache {self.path!r} is bypassed: {self._bypass}")
        if self._conn is None:  # pragma: no cover - _establish either connects or bypasses
            raise StoreError(f"SQLite cache {self.path!r} is not open")
        return self._conn

    def _call(self, operation: Callable[[sqlite3.Connection], _T], *, write: bool) -> _T:
        """Run ``operation`` on the connection, under the lock; recover from a damaged or moved
        file once (then run it again); every sqlite3.Error becomes StoreError."""
        with self._lock:
            for attempt in (1, 2):
                conn = self._connection()
                if write and self._readonly:
                    raise StoreError(f"SQLite cache {self.path!r} is read-only: {self._readonly}")
                try:
                    return operation(conn)
                except sqlite3.Error as exc:
                    self._rollback(conn)
                    kind = _kind(exc)
                    if attempt == 1 and kind == "corrupt":
                        self._rebuild(exc)
                        continue
                    if attempt == 1 and kind == "moved":  # replaced under us (by another process's rebuild)
                        self._close_connection()
                        continue
                    if kind == "readonly" and write:
                        self._read_only(str(exc))
                    raise StoreError(f"SQLite cache {self.path!r}: {exc}") from exc
                except BaseException:
                    self._rollback(conn)
                    raise
            raise StoreError(f"SQLite cache {self.path!r}: still failing after it was rebuilt")  # pragma: no cover

    def _read(self, operation: Callable[[sqlite3.Connection], _T]) -> _T:
        """Run the read ``operation`` on a pooled read connection, which never waits for a write;
        on the write connection (:meth:`_call`) when there is none to use, or when it fails there
        (:meth:`_call` recovers from a damaged or moved file, or raises StoreError)."""
        taken = self._take()
        if taken is None:
            return self._call(operation, write=False)
        try:
            result = operation(taken[1])
        except sqlite3.Error:
            self._give_back(taken, broken=True)
            return self._call(operation, write=False)
        self._give_back(taken)
        return result

    def _take(self) -> tuple[int, sqlite3.Connection] | None:
        """An idle read connection of the current write connection's file, a new one (up to
        :data:`READERS`), or None: the store is in memory, read-only, bypassed, not open yet or
        moved, a fork happened, or every read connection stayed busy for ``timeout``."""
        if (self._memory or self._closed or self._readonly or self._bypass or self._conn is None
                or self._pid != os.getpid() or self._file_id != self._current_file_id()):
            return None
        stale: list[sqlite3.Connection] = []
        taken: tuple[int, sqlite3.Connection] | None = None
        make = False
        with self._pool:
            deadline = time.monotonic() + self.timeout
            while taken is None and not make:
                while self._readers:
                    generation, conn = self._readers.pop()
                    if generation == self._generation:
                        taken = (generation, conn)
                        break
                    self._reading -= 1
                    stale.append(conn)
                if taken is None and self._reading < READERS:
                    self._reading += 1
                    make = True
                elif taken is None and not self._pool.wait(deadline - time.monotonic()):
                    break
            generation = self._generation
        for conn in stale:
            with contextlib.suppress(sqlite3.Error):
                conn.close()
        if not make:
            return taken
        try:
            return generation, self._reader()
        except sqlite3.Error:
            with self._pool:
                self._reading -= 1
                self._pool.notify()
            return None

    def _reader(self) -> sqlite3.Connection:
        """A new read connection to the file (query only; the file is in WAL mode already)."""
        conn = sqlite3.connect(self._uri(False), timeout=self.timeout, isolation_level=None, check_same_thread=False,
                               uri=True)
        conn.text_factory = bytes
        try:
            conn.execute(f"PRAGMA busy_timeout = {max(1, int(self.timeout * 1000))}")
            conn.execute("PRAGMA query_only = ON")
        except BaseException:
            conn.close()
            raise
        return conn

    def _give_back(self, taken: tuple[int, sqlite3.Connection], broken: bool = False) -> None:
        """Return a read connection to the pool; close it when it failed or belongs to an older file."""
        generation, conn = taken
        with self._pool:
            keep = not broken and not self._closed and generation == self._generation and self._pid == os.getpid()
            if keep:
                self._readers.append(taken)
            else:
                self._reading -= 1
            self._pool.notify()
        if not keep:
            with contextlib.suppress(sqlite3.Error):
                conn.close()


def private_file(path: str) -> None:
    """Create the cache file's directory (0700) and the file itself (0600) when they do not exist.

    SQLite creates a missing file with the process's default mode (usually 0644) and gives its
    ``-wal`` and ``-shm`` files the mode of the database file, so creating the file first, empty,
    makes all three private. An existing file or directory is left as it is.
    """
    parent = Path(path).parent
    if not parent.is_dir():
        parent.parent.mkdir(parents=True, exist_ok=True)
        parent.mkdir(mode=0o700, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


class _FileLock:
    """An exclusive ``flock`` on a side file while a damaged cache is moved aside, so two processes
    that find it damaged at once do not both move it (the second would move the new one).
    Where ``fcntl`` is missing (Windows) or the side file cannot be made, it does nothing."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None

    def __enter__(self) -> _FileLock:
        try:
            import fcntl

            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
            fcntl.flock(self._fd, fcntl.LOCK_EX)
        except (ImportError, OSError):
            self._close()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._close()

    def _close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)  # closing drops the flock

