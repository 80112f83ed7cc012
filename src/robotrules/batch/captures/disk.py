"""Capture sets that do not fit in memory: an index of captures on disk, in one SQLite file.

A Common Crawl robots.txt capture set holds tens of millions of captures and many GB of bodies;
an :class:`~robotrules.batch.captures.archive.Archive` over :class:`SQLiteCaptures` keeps them on disk and
reads one capture at a time, by URL, so the memory of a job does not grow with the archive.
It is a storage choice only: the archive's replay of the fetch policy is the same over it.

The file has two tables::

    meta(key TEXT PRIMARY KEY, value TEXT)        robotrules version, source files, counts, damaged records
    urls(url TEXT PRIMARY KEY)                    each URL once, in the order first seen (rowid)
    captures(url, status, fetched_at, error, headers (JSON), body BLOB)   every capture, indexed by url

Building (:func:`build`) reads the source files once, keeping every capture (several of one URL
are all kept: the archive replays them in time order) in large transactions, into a new file
beside the target that replaces it only when complete: an index path only ever holds a whole
index. Revisit records are resolved against :class:`DiskBodies`, a temporary file, so a WARC file
whose bodies do not fit in memory can be read too. Damaged records skipped while building
(``skip_bad_records``) are kept in ``meta``: an index that has any is used only by a job that
skips them too (any other job gets :class:`~robotrules.errors.DamagedArchive`, as reading
the files would give).

Reading opens a read-only connection lazily in each process (and thread) that asks: an archive
over an index pickles as just its path, and the worker processes of the local engine, made by
fork or spawn, each open their own. A temporary index (``build(files, None)``) is deleted when its
archive is closed or collected, by the process that made it.

A process killed while it builds (SIGKILL, a power cut) cannot delete its files: the new index
(``.<index name>.<pid>-<host>.<random>.partial`` beside the target), the bodies file
(``robotrules-bodies-<pid>-<host>.<random>.sqlite3``) and a temporary index
(``robotrules-index-<pid>-<host>.<random>.sqlite3`` in the temporary folder). Each name says which
process on which host made it, so the next build in that folder deletes those whose process is
gone (:func:`clean_leftovers`) and never touches a file a live process is writing: another build
running at the same time (even of the same index), or one on another host sharing the folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import tempfile
import threading
import weakref
from collections.abc import Iterator, Sequence
from typing import Any
from urllib.parse import quote

from robotrules._version import __version__
from robotrules.batch.captures.archive import Archive, Capture
from robotrules.batch.captures.scratch import _maker, clean_leftovers
from robotrules.batch.inputs.files import read_captures
from robotrules.batch.inputs.warc.captures import Bodies
from robotrules.batch.inputs.warc.reading import BadRecord
from robotrules.errors import DamagedArchive, SourceError

__all__ = [
    "APPLICATION_ID",
    "AUTO_INDEX_BYTES",
    "FORMAT",
    "DiskBodies",
    "SQLiteCaptures",
    "build",
    "fingerprint",
    "open_index",
    "open_or_build",
]

AUTO_INDEX_BYTES = 128 * 1024 * 1024
"""Source files larger than this in total (as stored on disk, compressed or not) are indexed on
disk in a temporary file by :func:`~robotrules.batch.captures.keeping.archive_of`, unless an index path is
given; smaller ones are read into memory. Measured: a 123 MiB WARC.gz of 200,000 captures
(319 MiB uncompressed) takes 440 MiB in one process held in memory, 75 MiB while indexed; the
rows per second of a job are the same from either."""

APPLICATION_ID = int.from_bytes(b"rbtx", "big")
"""The SQLite header's application id (``PRAGMA application_id``) of every capture index: what
tells an index (even a damaged one, which is rebuilt) from any other file (which is left alone)."""

FORMAT = 3
"""The layout of this version's indexes (``PRAGMA user_version``); an index of another is rebuilt.
3: every capture of a URL kept, not only the latest.
2: bodies kept to the size limit and one byte more, damaged records listed in ``meta``."""

_FLUSH_ROWS = 10_000
_FLUSH_BYTES = 16 * 1024 * 1024
"""Captures are written in transactions of this many rows or bytes of bodies, whichever comes first."""

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE urls (url TEXT PRIMARY KEY);
CREATE TABLE captures (
    url TEXT NOT NULL, status INTEGER NOT NULL, fetched_at REAL, error TEXT NOT NULL,
    headers TEXT NOT NULL, body BLOB NOT NULL
);
"""

_INDEX = "CREATE INDEX captures_by_url ON captures (url)"
"""Made once the captures are written (faster than keeping it up to date row by row)."""

_KEEP_URL = "INSERT OR IGNORE INTO urls (url) VALUES (?)"
_KEEP = "INSERT INTO captures (url, status, fetched_at, error, headers, body) VALUES (?, ?, ?, ?, ?, ?)"

_ORDER = "ORDER BY coalesce(fetched_at, 0), rowid"
"""Captures oldest first, and of two made at the same time the one read first first
(:func:`~robotrules.batch.captures.archive.replaces`: the latest is the last)."""


def _connect_ro(path: str) -> sqlite3.Connection:
    """A read-only connection; ``immutable``: an index is never written once built (a rebuild
    replaces the file), so readers take no locks."""
    return sqlite3.connect(f"file:{quote(os.path.abspath(path))}?mode=ro&immutable=1", uri=True,
                           check_same_thread=False)


def _unreadable(path: str, exc: BaseException) -> SourceError:
    return SourceError(f"cannot read the capture index {path}: {exc}")


def _discard(path: str, owner: int) -> None:
    """Delete a temporary index, in the process that made it only (a forked worker exits too)."""
    if os.getpid() == owner:
        with contextlib.suppress(OSError):
            os.unlink(path)


class SQLiteCaptures:
    """A :class:`~robotrules.batch.captures.archive.CaptureStore` in an SQLite file: captures by URL,
    bodies as BLOBs, nothing held in Python memory between reads.

    ``SQLiteCaptures(path)`` reads a finished index; :meth:`create` makes a new one to write (the
    archive's :meth:`~robotrules.batch.captures.archive.Archive.add` writes through :meth:`keep`) until
    :meth:`finish`. Reads open a read-only connection per process and thread, lazily. ``owned``:
    the file is this job's temporary index, deleted by :meth:`close` or when the store is
    collected. Pickles as its path (never as the owner of the file).
    """

    def __init__(self, path: str, *, owned: bool = False) -> None:
        self.path = path
        self._local = threading.local()
        self._writer: sqlite3.Connection | None = None
        self._pending: list[tuple[str, int, float | None, str, str, bytes]] = []
        self._pending_bytes = 0
        self._count: int | None = None
        self._finalizer = weakref.finalize(self, _discard, path, os.getpid()) if owned else None

    @classmethod
    def create(cls, path: str) -> SQLiteCaptures:
        """A new, empty index at ``path`` (an existing file there is overwritten), open for writing."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        store = cls(path)
        writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        writer.execute("PRAGMA page_size = 16384")
        writer.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        writer.execute(f"PRAGMA user_version = {FORMAT}")
        writer.execute("PRAGMA journal_mode = OFF")  # a partial file is never used: see build()
        writer.execute("PRAGMA synchronous = OFF")
        writer.execute("PRAGMA cache_size = -32768")  # 32 MiB
        writer.executescript(_SCHEMA)
        store._writer = writer
        return store

    def __getstate__(self) -> dict[str, Any]:
        if self._writer is not None:
            raise TypeError("a capture index being built cannot be sent to another process")
        return {"path": self.path}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["path"])  # type: ignore[misc]

    # -- writing ---------------------------------------------------------------------------------

    def keep(self, capture: Capture) -> None:
        """Hold ``capture`` beside the other captures of its URL (written in batches)."""
        if self._writer is None:
            raise ValueError(f"the capture index {self.path} is read-only: captures are added while it is built")
        body = bytes(capture.body)
        self._pending.append((capture.url, capture.status, capture.fetched_at, capture.error,
                              json.dumps(dict(capture.headers), separators=(",", ":")), body))
        self._pending_bytes += len(body)
        if len(self._pending) >= _FLUSH_ROWS or self._pending_bytes >= _FLUSH_BYTES:
            self._flush()

    def _flush(self) -> None:
        if self._writer is None or not self._pending:
            return
        self._writer.execute("BEGIN")
        self._writer.executemany(_KEEP_URL, ((row[0],) for row in self._pending))
        self._writer.executemany(_KEEP, self._pending)
        self._writer.execute("COMMIT")
        self._pending.clear()
        self._pending_bytes = 0

    def finish(self, sources: list[list[Any]], bad_records: Sequence[BadRecord] = ()) -> None:
        """Write the last captures and the ``meta`` table (``sources``: :func:`fingerprint`;
        ``bad_records``: the damaged records skipped), and close the file for writing; the store
        reads from then on."""
        writer = self._writer
        if writer is None:
            raise ValueError(f"the capture index {self.path} is already finished")
        self._flush()
        writer.execute(_INDEX)
        count = writer.execute("SELECT count(*) FROM urls").fetchone()[0]
        captures = writer.execute("SELECT count(*) FROM captures").fetchone()[0]
        meta = {"version": __version__, "sources": json.dumps(sources), "urls": str(count), "captures": str(captures),
                "bad_records": json.dumps([[bad.path, bad.offset, bad.detail] for bad in bad_records])}
        writer.execute("BEGIN")
        writer.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
        writer.execute("COMMIT")
        writer.close()
        self._writer = None
        self._count = count

    # -- reading ---------------------------------------------------------------------------------

    def _reader(self) -> sqlite3.Connection:
        if self._writer is not None:
            self._flush()
            return self._writer
        local = self._local
        if getattr(local, "pid", None) != os.getpid():  # none yet, or inherited through fork
            try:
                local.connection = _connect_ro(self.path)
            except sqlite3.Error as exc:
                raise _unreadable(self.path, exc) from None
            local.pid = os.getpid()
        connection: sqlite3.Connection = local.connection
        return connection

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        try:
            return self._reader().execute(sql, args).fetchall()
        except sqlite3.Error as exc:
            raise _unreadable(self.path, exc) from None

    def get(self, url: str) -> Capture | None:
        """The latest capture of exactly ``url``, if any (read from the file)."""
        found = self.history(url)
        return found[-1] if found else None

    def history(self, url: str) -> list[Capture]:
        """Every capture of exactly ``url``, oldest first (read from the file)."""
        found = self._query(f"SELECT status, headers, body, fetched_at, error FROM captures WHERE url = ? {_ORDER}",
                            (url,))
        return [Capture(url, status, json.loads(headers), bytes(body), fetched_at, error)
                for status, headers, body, fetched_at, error in found]

    def __contains__(self, url: object) -> bool:
        return isinstance(url, str) and bool(self._query("SELECT 1 FROM urls WHERE url = ?", (url,)))

    def __len__(self) -> int:
        """How many URLs are held."""
        if self._writer is not None:  # being built: count what is written so far
            return int(self._query("SELECT count(*) FROM urls")[0][0])
        if self._count is None:  # a finished index says how many it holds
            self._count = int(self._query("SELECT value FROM meta WHERE key = 'urls'")[0][0])
        return self._count

    def urls(self) -> Iterator[str]:
        """Every URL held, in the order first seen, streamed from the file."""
        try:
            cursor = self._reader().execute("SELECT url FROM urls ORDER BY rowid")
            while True:
                rows = cursor.fetchmany(4096)
                if not rows:
                    return
                for (url,) in rows:
                    yield url
        except sqlite3.Error as exc:
            raise _unreadable(self.path, exc) from None

    def close(self) -> None:
        """Close this process's connections; a temporary index is deleted."""
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        connection = getattr(self._local, "connection", None)
        if connection is not None and getattr(self._local, "pid", None) == os.getpid():
            connection.close()
        self._local = threading.local()
        if self._finalizer is not None:
            self._finalizer()

    def __repr__(self) -> str:
        return f"SQLiteCaptures({self.path!r})"


class DiskBodies(Bodies):
    """The bodies a WARC file's revisit records may refer to, kept in a temporary SQLite file
    (deleted by :meth:`close`) instead of memory: each distinct payload digest's body once, and
    for each URI the digest (or, without one, the body) of its latest response."""

    def __init__(self, folder: str | None = None) -> None:
        handle, self.path = tempfile.mkstemp(prefix=f"robotrules-bodies-{_maker()}.", suffix=".sqlite3", dir=folder)
        os.close(handle)
        self._db = sqlite3.connect(self.path, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode = OFF")
        self._db.execute("PRAGMA synchronous = OFF")
        self._db.execute("PRAGMA cache_size = -8192")  # 8 MiB
        self._db.executescript("CREATE TABLE bodies (digest TEXT PRIMARY KEY, body BLOB NOT NULL);"
                               "CREATE TABLE uris (uri TEXT PRIMARY KEY, digest TEXT, body BLOB);")

    def fresh(self) -> DiskBodies:
        """Forget every body (a new WARC file starts) and return this store."""
        self._db.execute("DELETE FROM bodies")
        self._db.execute("DELETE FROM uris")
        return self

    def keep(self, uri: str, digest: str, body: bytes) -> None:
        """Remember the body of a response to ``uri`` (``digest``: its payload digest, or "")."""
        if digest:
            self._db.execute("INSERT OR REPLACE INTO bodies (digest, body) VALUES (?, ?)", (digest, body))
            self._db.execute("INSERT OR REPLACE INTO uris (uri, digest, body) VALUES (?, ?, NULL)", (uri, digest))
        else:
            self._db.execute("INSERT OR REPLACE INTO uris (uri, digest, body) VALUES (?, NULL, ?)", (uri, body))

    def find(self, digest: str, refers: str) -> bytes | None:
        """The body with payload ``digest``, else that of the latest response to ``refers``."""
        if digest:
            row = self._db.execute("SELECT body FROM bodies WHERE digest = ?", (digest,)).fetchone()
            if row is not None:
                return bytes(row[0])
        row = self._db.execute("SELECT digest, body FROM uris WHERE uri = ?", (refers,)).fetchone()
        if row is None:
            return None
        if row[1] is not None:
            return bytes(row[1])
        held = self._db.execute("SELECT body FROM bodies WHERE digest = ?", (row[0],)).fetchone()
        return bytes(held[0]) if held is not None else None

    def close(self) -> None:
        """Delete the temporary file."""
        self._db.close()
        with contextlib.suppress(OSError):
            os.unlink(self.path)


# -- building and reusing --------------------------------------------------------------------------


def fingerprint(files: Sequence[str]) -> list[list[Any]]:
    """What an index was built from: each file's absolute path, size and modification time (ns)."""
    found: list[list[Any]] = []
    for path in files:
        try:
            status = os.stat(path)
        except OSError as exc:
            raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from None
        found.append([os.path.abspath(path), status.st_size, status.st_mtime_ns])
    return found


def _header(path: str) -> tuple[int, int, int] | None:
    """(format, pages, page size) from the SQLite header of a capture index; None for any other file."""
    with open(path, "rb") as handle:
        head = handle.read(100)
    if len(head) < 100 or not head.startswith(b"SQLite format 3\0"):
        return None
    if int.from_bytes(head[68:72], "big") != APPLICATION_ID:
        return None
    page_size = int.from_bytes(head[16:18], "big")
    pages = int.from_bytes(head[28:32], "big") if head[92:96] == head[24:28] else 0
    return int.from_bytes(head[60:64], "big"), pages, 65536 if page_size == 1 else page_size


def open_index(path: str, files: Sequence[str], *, skip_bad_records: bool = False) -> Archive | None:
    """The archive over the index at ``path`` when it was built from ``files`` as they are now;
    None when there is none to use (no file, an empty one, an index of other files or of another
    version, a damaged one). :class:`SourceError` when the file is not an index at all;
    :class:`DamagedArchive` when the files have damaged records (the index lists them) and
    ``skip_bad_records`` is false."""
    if os.path.isdir(path):
        raise SourceError(f"the index path {path} is a folder: give a file name")
    try:
        size = os.path.getsize(path)
        header = _header(path) if size else None
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise SourceError(f"cannot read the capture index {path}: {exc.strerror or exc}") from None
    if size == 0:
        return None
    if header is None:
        raise SourceError(f"{path} is not a capture index made by robotrules: delete it or choose another "
                          "index path")
    layout, pages, page_size = header
    if layout != FORMAT or pages * page_size != size:
        return None  # another layout, or cut short: rebuilt
    try:
        with contextlib.closing(_connect_ro(path)) as connection:
            meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.Error:
        return None  # damaged: rebuilt
    if meta.get("version") != __version__ or meta.get("sources") != json.dumps(fingerprint(files)):
        return None
    try:
        bad = [BadRecord(str(p), int(o), str(d)) for p, o, d in json.loads(meta.get("bad_records") or "[]")]
    except (ValueError, TypeError):
        return None  # damaged: rebuilt
    if bad and not skip_bad_records:
        raise DamagedArchive(bad[0])
    return Archive(store=SQLiteCaptures(path), bad_records=bad)


def open_or_build(files: Sequence[str], path: str, *, skip_bad_records: bool = False) -> Archive:
    """The index at ``path`` if it was built from ``files`` as they are now, else a new one built there."""
    if not path:
        raise SourceError("the index path is empty")
    clean_leftovers(os.path.dirname(os.path.abspath(path)), os.path.basename(path))
    found = open_index(path, files, skip_bad_records=skip_bad_records)
    return found if found is not None else build(files, path, skip_bad_records=skip_bad_records)


def build(files: Sequence[str], path: str | None, *, skip_bad_records: bool = False) -> Archive:
    """Read ``files`` into a new index at ``path`` (replacing what is there once complete), or
    into a temporary file deleted with the archive when ``path`` is None. A damaged record raises
    :class:`DamagedArchive` (and no index is left), or with ``skip_bad_records`` is skipped and
    listed in the index. The files builds killed midway left there (or in the temporary folder)
    are deleted first (:func:`clean_leftovers`)."""
    sources = fingerprint(files)
    folder = os.path.dirname(os.path.abspath(path)) if path is not None else None
    if folder is not None and not os.path.isdir(folder):
        raise SourceError(f"cannot write the capture index {path}: the folder {folder} does not exist")
    clean_leftovers(folder, os.path.basename(path) if path is not None else None)
    prefix = f".{os.path.basename(path)}.{_maker()}." if path is not None else f"robotrules-index-{_maker()}."
    try:
        handle, building = tempfile.mkstemp(prefix=prefix, suffix=".partial" if path else ".sqlite3", dir=folder)
    except OSError as exc:
        raise SourceError(f"cannot write the capture index {path or ''}: {exc.strerror or exc}") from None
    os.close(handle)
    store = memo = None
    bad: list[BadRecord] | None = [] if skip_bad_records else None
    try:
        store = SQLiteCaptures.create(building)
        memo = DiskBodies(folder)
        Archive(read_captures(list(files), bodies=memo.fresh, bad_records=bad), store=store)  # Archive.add keeps by the one rule
        store.finish(sources, bad or ())
        if path is not None:
            os.replace(building, path)
    except BaseException as exc:
        if store is not None:
            store.close()
        with contextlib.suppress(OSError):
            os.unlink(building)
        if isinstance(exc, (sqlite3.Error, OSError)):
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise SourceError(f"cannot write the capture index {path or building}: {reason}") from None
        raise
    finally:
        if memo is not None:
            memo.close()
    if path is None:
        return Archive(store=SQLiteCaptures(building, owned=True), bad_records=bad or ())
    return Archive(store=SQLiteCaptures(path), bad_records=bad or ())
