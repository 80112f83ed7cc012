"""Common Crawl's columnar index as a robots.txt source: select captures, then read just those records.

Common Crawl indexes every record of a crawl in Parquet files (``cc-index/table/cc-main/warc/``,
partitioned ``crawl=CC-MAIN-.../subset=...``; robots.txt fetches are ``subset=robotstxt``), a row
per record with ``url``, ``url_host_name``, ``fetch_status``, ``fetch_redirect``,
``warc_filename``, ``warc_record_offset`` and ``warc_record_length``. Instead of reading whole
``robotstxt/`` WARC files (about a gigabyte each), a study of some sites:

1. **selects** the index rows of those sites, by host (``url_host_name``) or by robots.txt URL
   (``url``), with pyarrow, the filter pushed down to the Parquet scan (row groups whose
   statistics exclude the selection are not read; of the others only the needed columns);
2. **reads** exactly those records, each ``(warc_filename, offset, length)`` a byte range of
   ``prefix + warc_filename``: a local folder, or any fsspec URL (``https://data.commoncrawl.org/``,
   ``s3://commoncrawl/``), one ranged read per record, many at a time;
3. **follows** redirects: the targets of the redirects read (their ``Location``, and the index's
   ``fetch_redirect``) are selected by URL and read in the next round, up to the policy's hop
   limit (F3), so a chain to another host, or to an HTML page, is resolved as from the whole WARC.

Each range holds one record, one gzip member, and is read by the same bounded reader as a
whole WARC file (:func:`robotrules.batch.inputs.warc.captures.read_warc`, :mod:`robotrules.batch.inputs.warc.reading`: F9
bounds, payload decoding, damage found and placed). A range that does not hold exactly one
whole record (the file is shorter, the member is cut or corrupt, the bytes are no record, or
they hold several) is a damaged record: a :class:`~robotrules.batch.inputs.warc.reading.BadRecord` naming the
WARC file (as ``prefix + warc_filename``) and the byte where the damage starts in it, raised as
:class:`~robotrules.errors.DamagedArchive` or, when asked, skipped and listed. A range
longer than :data:`MAX_RECORD` is damaged without being read. A file that cannot be read at all
(missing, a server error, a server that ignores ``Range:``) is :class:`SourceError`.

The rows come from strangers too. A row that cannot be used (an offset or length that is
missing, negative, fractional, text or a list, a zero length, a length over :data:`MAX_RECORD`, a
``warc_filename`` that is not a plain name under the prefix) is a damaged record named by the
index file, the byte of its row group and its row number, found before any file is opened: a
name is never joined to the prefix unless it stays inside it (after links, and with a URL prefix
on the same host and path), so no message tells whether a file outside exists. The index is read
a batch of rows at a time and repeated rows are merged by pyarrow, so memory is bounded by a
batch and the distinct records selected, not by the number of rows (the rows are scanned and
judged in :mod:`robotrules.batch.inputs.ccindex._rows`).

The captures feed the same :class:`~robotrules.batch.captures.archive.Archive` a WARC file feeds, so the
replay of the fetch policy and everything downstream (:func:`robotrules.batch.engine.rows`,
:func:`~robotrules.batch.run`, audits) is unchanged: the rows equal those from reading the whole
WARC files the records come from (the records are read in the same order: by file name, then
offset). One difference: a ``revisit`` record takes its body from a response read before it in
the same file only (the reader of a whole file also looks after it).
"""

from __future__ import annotations

import contextlib
import os
import posixpath
import shutil
import tempfile
from collections.abc import Collection, Iterable, Iterator, Sequence
from itertools import groupby
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

from robotrules.batch.captures.archive import Archive, Capture
from robotrules.batch.engine.rows import robots_url_of
from robotrules.batch.inputs.ccindex._rows import (
    MAX_RECORD,
    IndexRecord,
    bad_row,
    fsspec_module,
    is_local,
    local_path,
    name_problem,
    open_index,
    scan,
    shown,
)
from robotrules.batch.inputs.ccindex._rows import ROWS_AT_ONCE as _ROWS_AT_ONCE  # noqa: F401 (tests bound the work per batch by it)
from robotrules.batch.inputs.ccindex._rows import (
    record_of as _record_of,  # read here at each call: tests count the rows judged
)
from robotrules.batch.inputs.warc.captures import Bodies, read_warc
from robotrules.batch.inputs.warc.reading import BadRecord
from robotrules.core.policy import Policy
from robotrules.errors import DamagedArchive, SourceError, require

__all__ = [
    "COMMON_CRAWL",
    "INDEX_COLUMNS",
    "MAX_RECORD",
    "IndexRecord",
    "RangeReader",
    "captures_from_index",
    "read_index_captures",
    "select_records",
]

COMMON_CRAWL = "https://data.commoncrawl.org/"
"""Where Common Crawl's files are served over HTTPS (``s3://commoncrawl/`` is the same bucket)."""

INDEX_COLUMNS = ("url", "warc_filename", "warc_record_offset", "warc_record_length")
"""The columns an index must have; ``url_host_name`` too to select by host, and ``fetch_redirect``
is used when present."""

_BATCH_BYTES = 16 * 1024 * 1024  # bytes of ranges asked for at once from a remote file system
_BATCH_RANGES = 64  # ranges asked for at once (concurrently, by an async file system such as HTTP)

_ROBOTSTXT = "robotstxt"
_PAST_THE_END = 416  # the HTTP status of a range that starts after the last byte of the file


def _selected(dataset: Any, wanted: Any, crawls: Collection[str],
              bad_records: list[BadRecord] | None, reported: set[tuple[str, ...]]) -> list[IndexRecord]:
    """The rows of ``dataset`` that ``wanted`` (a pyarrow expression) selects, in the robotstxt
    subset and ``crawls`` when the index has those partitions, sorted by file and offset, each
    (file, offset) once (the last row of it counts).

    An unusable row (a missing, negative, zero, fractional, non-numeric or too large offset or
    length, a file name that is not a plain name under the prefix) is a damaged record, raised
    or listed in ``bad_records``; ``reported`` keeps the rows already listed (a repeated row is
    listed once, at its first row). Memory: a batch of rows, plus the distinct records selected."""
    compute: Any = require("pyarrow.dataset", "batch")
    arrow: Any = require("pyarrow", "batch")
    names = set(dataset.schema.names)
    missing = [name for name in INDEX_COLUMNS if name not in names]
    if missing:
        raise SourceError(f"the index has no {', '.join(missing)} column (found: {', '.join(sorted(names))})")
    where = wanted
    if "subset" in names:
        where = where & (compute.field("subset") == _ROBOTSTXT)
    if crawls:
        if "crawl" not in names:
            raise SourceError("the index has no crawl column (partition) to select crawls by")
        where = where & compute.field("crawl").isin(sorted(crawls))
    columns = [*INDEX_COLUMNS, *(name for name in ("fetch_redirect", "url_host_name", "subset", "crawl") if name in names)]
    found: dict[tuple[str, int], IndexRecord] = {}
    try:
        for place, row in scan(dataset, where, columns):
            record = _record_of(place, row)
            if isinstance(record, IndexRecord):
                found[(record.warc_filename, record.offset)] = record
                continue
            key = (place[0], *(shown(row[name]) for name in INDEX_COLUMNS))
            if key not in reported:
                reported.add(key)
                _damaged(bad_row(place, record), bad_records)
    except OSError as exc:
        raise SourceError(f"cannot read the index: {exc}") from None
    except arrow.ArrowException as exc:  # a column of a type the selection cannot compare, a corrupt file
        raise SourceError(f"cannot read the index: {exc}") from None
    return [found[key] for key in sorted(found)]


def _many(given: Iterable[str] | None) -> Iterable[str] | None:
    """``given``, a lone string as a list of one (not its letters)."""
    return [given] if isinstance(given, str) else given


def select_records(index: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *,
                   hosts: Iterable[str] | None = None, urls: Iterable[str] | None = None,
                   crawls: Iterable[str] | None = None,
                   storage_options: dict[str, Any] | None = None,
                   bad_records: list[BadRecord] | None = None) -> list[IndexRecord]:
    """The rows of the columnar ``index`` (a Parquet file, a folder of them with ``crawl=`` and
    ``subset=`` partitions, several of either, local or an fsspec URL) that hold the robots.txt
    captures of ``hosts`` (exact host names, as ``url_host_name`` holds them: lower case, no
    port) or of ``urls`` (each page or robots.txt URL selects its robots.txt URL, S1-S5), in the
    ``robotstxt`` subset and ``crawls`` (``CC-MAIN-...``) when the index has those partitions.

    The filter is pushed down to the Parquet scan. Sorted by WARC file, then offset (the order
    a reader of the whole files meets them), without duplicates. At least one of ``hosts`` and
    ``urls`` is needed (every capture of a crawl is read faster from its WARC files).

    A row that cannot be used (see :func:`read_index_captures`) raises :class:`DamagedArchive`
    naming the index file and the row, or is listed in ``bad_records`` when that is a list.
    """
    chosen = _wanted(index, _many(hosts), _many(urls), storage_options or {})
    if chosen is None:
        return []
    return _selected(*chosen, set(_many(crawls) or ()), bad_records, set())


def _wanted(index: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], hosts: Iterable[str] | None,
            urls: Iterable[str] | None, storage_options: dict[str, Any]) -> tuple[Any, Any] | None:
    """The index as a dataset and the pyarrow expression selecting ``hosts`` and ``urls`` (None: nothing to select)."""
    compute: Any = require("pyarrow.dataset", "batch")
    host_set = sorted({host.strip().lower().rstrip(".") for host in hosts or () if host.strip()})
    robots_urls = sorted({found for url in urls or () if (found := robots_url_of(url.strip())) is not None})
    if hosts is None and urls is None:
        raise SourceError("select captures by hosts or by URLs (to read every capture, read the WARC files)")
    dataset = open_index(index, storage_options)
    names = set(dataset.schema.names)
    if host_set and "url_host_name" not in names:
        raise SourceError("the index has no url_host_name column to select hosts by")
    if not host_set and not robots_urls:
        return None
    by_host = compute.field("url_host_name").isin(host_set) if host_set else None
    by_url = compute.field("url").isin(robots_urls) if robots_urls else None
    return dataset, by_url if by_host is None else by_host if by_url is None else by_host | by_url


# -- ranged reads --------------------------------------------------------------------------------


class RangeReader:
    """Byte ranges of the files under ``prefix``: a local folder (or ``file://``) read with the
    operating system, else any fsspec URL (``https://``, ``s3://``, ...; ``storage_options``
    go to fsspec), asked for many ranges at a time. Not shared between threads."""

    def __init__(self, prefix: str | os.PathLike[str], storage_options: dict[str, Any] | None = None) -> None:
        self.prefix = os.fspath(prefix)
        self.local = is_local(self.prefix)
        self.storage_options = dict(storage_options or {})
        if not self.local:
            fsspec_module()  # a missing extra is said before any work

    def location(self, warc_filename: str) -> str:
        """Where ``warc_filename`` is: the prefix joined with the name."""
        if self.local:
            return os.path.join(local_path(self.prefix), warc_filename.lstrip("/"))
        return self.prefix.rstrip("/") + "/" + warc_filename.lstrip("/")

    def refused(self, warc_filename: str) -> str | None:
        """Why ``warc_filename`` is not read, or None: a name that is no plain name under the
        prefix, one that resolves (through symbolic links under a local prefix) outside it, or
        one that changes a URL prefix's scheme, host or path. Said before the file is opened, and
        alike whether or not a file is there."""
        problem = name_problem(warc_filename)
        if problem is not None:
            return problem
        location = self.location(warc_filename)
        if self.local:
            root = os.path.realpath(local_path(self.prefix))
            try:
                inside = os.path.commonpath([root, os.path.realpath(location)]) == root
            except ValueError:  # another drive
                inside = False
            return None if inside else f"the file name {shown(warc_filename)} leads outside the WARC prefix (through a link)"
        given, joined = urlsplit(self.prefix), urlsplit(location)
        base = posixpath.join(given.path, "")
        if (joined.scheme, joined.netloc) != (given.scheme, given.netloc) or joined.query or joined.fragment \
                or not posixpath.normpath(unquote(joined.path)).startswith(base):
            return f"the file name {shown(warc_filename)} leads outside the WARC prefix"
        return None

    def read(self, warc_filename: str, records: Sequence[IndexRecord]) -> Iterator[tuple[IndexRecord, bytes]]:
        """Each of ``records`` (all of ``warc_filename``) with its bytes, in order; fewer bytes
        than its length when the file ends first. :class:`SourceError` when the file cannot be
        read, or its name is refused (:meth:`refused`: then nothing is opened)."""
        problem = self.refused(warc_filename)
        if problem is not None:
            raise SourceError(f"cannot read {shown(warc_filename)}: {problem}")
        location = self.location(warc_filename)
        if self.local:
            yield from self._read_local(location, records)
        else:
            yield from self._read_remote(location, records)

    def _read_local(self, location: str, records: Sequence[IndexRecord]) -> Iterator[tuple[IndexRecord, bytes]]:
        try:
            with open(os.path.realpath(location), "rb") as handle:  # the file checked by refused()
                size = os.fstat(handle.fileno()).st_size
                for record in records:
                    if record.offset >= size:  # past the end: cut short (no seek a file system may refuse)
                        yield record, b""
                        continue
                    handle.seek(record.offset)
                    yield record, handle.read(record.length)
        except OSError as exc:
            raise SourceError(f"cannot read {location}: {exc.strerror or exc}") from None

    def _read_remote(self, location: str, records: Sequence[IndexRecord]) -> Iterator[tuple[IndexRecord, bytes]]:
        fsspec = fsspec_module()
        try:
            filesystem, path = fsspec.core.url_to_fs(location, **self.storage_options)
        except (ValueError, ImportError) as exc:
            raise SourceError(f"cannot read {location}: {exc}") from None
        for batch in _batches(records):
            try:
                found = filesystem.cat_ranges([path] * len(batch), [r.offset for r in batch],
                                              [r.offset + r.length for r in batch], on_error="return")
            except Exception as exc:  # the file system's own errors (network, permissions)
                raise SourceError(f"cannot read {location}: {exc}") from None
            for record, data in zip(batch, found, strict=True):
                if isinstance(data, FileNotFoundError):
                    raise SourceError(f"cannot read {location}: no such file")
                if getattr(data, "status", None) == _PAST_THE_END:  # the range starts past the end of the file
                    yield record, b""  # a record cut short: damaged, as for a local file
                    continue
                if isinstance(data, BaseException):
                    raise SourceError(f"cannot read {location}, bytes {record.offset}-"
                                      f"{record.offset + record.length - 1}: {data}")
                if len(data) > record.length:
                    raise SourceError(f"cannot read {location}: asked for {record.length:,} bytes at "
                                      f"{record.offset:,}, got {len(data):,} (the server does not honour Range requests)")
                yield record, bytes(data)


def _batches(records: Sequence[IndexRecord]) -> Iterator[list[IndexRecord]]:
    """``records`` in batches of at most :data:`_BATCH_RANGES` ranges and :data:`_BATCH_BYTES` bytes (or one range)."""
    batch: list[IndexRecord] = []
    size = 0
    for record in records:
        if batch and (len(batch) >= _BATCH_RANGES or size + record.length > _BATCH_BYTES):
            yield batch
            batch, size = [], 0
        batch.append(record)
        size += record.length
    if batch:
        yield batch


# -- records into captures -----------------------------------------------------------------------


class _Scratch:
    """One temporary file each range is written over, to be read by the WARC reader (which reads
    files). Kept open: truncating it in place costs microseconds, making it anew milliseconds."""

    def __init__(self) -> None:
        self.folder = tempfile.mkdtemp(prefix="robotrules-ranges-")
        self.path = os.path.join(self.folder, "record.warc.gz")
        self._handle = open(self.path, "w+b")  # noqa: SIM115 (closed by close())

    def holding(self, data: bytes) -> str:
        """The file's path, holding just ``data``."""
        self._handle.seek(0)
        self._handle.write(data)
        self._handle.truncate()
        self._handle.flush()
        return self.path

    def close(self) -> None:
        self._handle.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def _captures_of_range(scratch: _Scratch, location: str, record: IndexRecord, data: bytes,
                       bodies: Bodies) -> tuple[list[Capture], BadRecord | None]:
    """The capture of one range, or the damage that makes it unusable (placed in ``location``)."""
    if len(data) < record.length:
        return [], BadRecord(location, record.offset,
                             f"the file ends {record.length - len(data):,} bytes before the end of the record "
                             f"the index places here ({record.length:,} bytes): the file is cut short")
    path = scratch.holding(data)
    damage: list[BadRecord] = []
    try:
        found = list(read_warc(path, bodies, bad_records=damage))
    except SourceError:  # the range's bytes are no WARC record at all (the reader's words name the scratch file)
        return [], BadRecord(location, record.offset, "no WARC record starts here: the index's offset is wrong, "
                                                      "or the file is not the one indexed")
    if damage:
        first = damage[0]
        return [], BadRecord(location, record.offset + first.offset, first.detail)
    if len(found) > 1:
        return [], BadRecord(location, record.offset, f"the index's range ({record.length:,} bytes) holds "
                                                      f"{len(found)} records, not one: its length is wrong")
    return found, None


def _targets(captures: Iterable[Capture], records: Iterable[IndexRecord]) -> set[str]:
    """Where the redirects among ``captures`` lead (F3, resolved as the policy resolves them), and
    the index's own ``fetch_redirect`` targets."""
    found: set[str] = set()
    for capture in captures:
        location = capture.headers.get("location", "").strip()
        if 300 <= capture.status < 400 and location:
            with contextlib.suppress(ValueError):
                found.add(urljoin(capture.url, location).split("#", 1)[0])
    for record in records:
        if record.redirect:
            with contextlib.suppress(ValueError):
                found.add(urljoin(record.url, record.redirect.strip()))
    return found


def _damaged(record: BadRecord, bad_records: list[BadRecord] | None) -> None:
    """Raise :class:`DamagedArchive` for ``record``, or list it in ``bad_records`` when that is a list."""
    if bad_records is None:
        raise DamagedArchive(record)
    bad_records.append(record)


def read_index_captures(index: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *,
                        prefix: str | os.PathLike[str], hosts: Iterable[str] | None = None,
                        urls: Iterable[str] | None = None, crawls: Iterable[str] | None = None,
                        max_redirects: int | None = None,
                        bad_records: list[BadRecord] | None = None,
                        storage_options: dict[str, Any] | None = None) -> Iterator[Capture]:
    """The captures the columnar ``index`` selects (:func:`select_records`: ``hosts``, ``urls``,
    ``crawls``), read by byte range from the WARC files under ``prefix`` (a local folder or an
    fsspec URL such as :data:`COMMON_CRAWL`; ``storage_options`` go to fsspec), then the
    captures of their redirect targets, round by round, up to ``max_redirects`` rounds (F3).

    Records are read in order of file and offset, with the bounded WARC reader. A damaged record
    (see the module) raises :class:`DamagedArchive`; when ``bad_records`` is a list it is
    appended there instead, and reading goes on. :class:`SourceError` for an index or a file
    that cannot be read. ``max_redirects`` defaults to the policy's (F3: 5).

    An index row that cannot be used is a damaged record too, named by the index file, the byte
    where its row group starts and its row number (from 0): an offset or length that is missing,
    not a whole number (a fraction, text, a list), negative, a zero length, a length over
    :data:`MAX_RECORD`, an offset past any file; a ``warc_filename`` that is not a plain name
    under ``prefix`` (absolute, with a scheme, ``..``, a control character such as NUL, a link
    out of a local prefix). Such a name is refused before anything is opened, so the message is
    the same whether a file is there or not. A row repeated is read, or listed, once. Memory is
    bounded by a batch of index rows plus the distinct records selected, not by the index.
    """
    hops = Policy().max_redirects if max_redirects is None else max_redirects
    crawls = _many(crawls)
    scratch = _Scratch()
    options = dict(storage_options or {})
    reader = RangeReader(prefix, options)
    try:
        compute: Any = require("pyarrow.dataset", "batch")
        reported: set[tuple[str, ...]] = set()
        chosen = _wanted(index, _many(hosts), _many(urls), options)
        if chosen is None:
            return
        dataset = chosen[0]
        selected = _selected(*chosen, set(crawls or ()), bad_records, reported)
        read: set[tuple[str, int]] = set()
        asked: set[str] = set()
        for round_number in range(hops + 1):
            fresh = [record for record in selected if (record.warc_filename, record.offset) not in read]
            found: list[Capture] = []
            for name, group in groupby(fresh, key=lambda record: record.warc_filename):
                bodies = Bodies()  # a revisit refers to a response of its own file
                location = reader.location(name)
                records = list(group)
                read.update((record.warc_filename, record.offset) for record in records)
                refused = reader.refused(name)
                if refused is not None:  # never opened
                    for record in records:
                        _damaged(bad_row(record.place or (location, record.offset, 0), refused), bad_records)
                    continue
                for record, data in reader.read(name, records):
                    captures, damage = _captures_of_range(scratch, location, record, data, bodies)
                    if damage is not None:
                        _damaged(damage, bad_records)
                    found.extend(captures)
                    yield from captures
            asked.update(record.url for record in selected)
            targets = _targets(found, fresh) - asked
            if not targets or round_number == hops:
                return
            asked.update(targets)
            selected = _selected(dataset, compute.field("url").isin(sorted(targets)), set(crawls or ()),
                                 bad_records, reported)
    finally:
        scratch.close()


def captures_from_index(index: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *,
                        prefix: str | os.PathLike[str], hosts: Iterable[str] | None = None,
                        urls: Iterable[str] | None = None, crawls: Iterable[str] | None = None,
                        policy: Policy | None = None, skip_bad_records: bool = False,
                        storage_options: dict[str, Any] | None = None) -> Archive:
    """An :class:`Archive` (in memory) of the robots.txt captures of ``hosts`` or ``urls`` that
    Common Crawl's columnar ``index`` lists, read record by record from ``prefix``::

        import robotrules.batch as batch
        archive = batch.captures_from_index(
            "s3://commoncrawl/cc-index/table/cc-main/warc/crawl=CC-MAIN-2024-18/subset=robotstxt/",
            prefix=batch.COMMON_CRAWL, hosts=["example.com", "www.example.com"])
        frame = batch.decide(["https://www.example.com/a"], ["GPTBot"], archive)

    ``index``: a Parquet file, a folder of them (``crawl=`` and ``subset=`` partitions are read
    from the path: only ``subset=robotstxt`` is read, and only ``crawls`` when given), several of
    either, local or fsspec URLs. ``hosts`` are exact host names (``url_host_name``); ``urls``
    select the robots.txt URL of each. Redirect targets are read too, up to the hop limit of
    ``policy`` (F3). ``prefix``: where the WARC files are, a local folder or an fsspec URL
    (:data:`COMMON_CRAWL`, ``s3://commoncrawl/``; ``storage_options`` go to fsspec; non-local
    ones need ``robotrules[commoncrawl]``).

    The archive judges the captures exactly as if the whole WARC files had been read. A damaged
    record raises :class:`DamagedArchive`; with ``skip_bad_records`` it is skipped and listed in
    :attr:`Archive.bad_records`. See :mod:`robotrules.batch.inputs.ccindex.reading`.
    """
    bad: list[BadRecord] | None = [] if skip_bad_records else None
    hops = (policy or Policy()).max_redirects
    archive = Archive(read_index_captures(index, prefix=prefix, hosts=hosts, urls=urls, crawls=crawls,
                                          max_redirects=hops, bad_records=bad, storage_options=storage_options))
    archive.bad_records = tuple(bad or ())
    return archive
