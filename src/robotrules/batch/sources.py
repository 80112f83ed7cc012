"""Where the robots.txt files of a batch come from: crawl archives, tables of captures, live sites.

Four kinds of source, all giving, for a robots.txt URL, the :class:`~robotrules.batch.decide.Governing`
that decides its URLs:

* WARC files (``.warc``, ``.warc.gz``) of robots.txt captures, read with warcio: ``response``
  records (WARC-Target-URI and the raw HTTP response, as Common Crawl's robots.txt sets hold
  them) become :class:`Capture` objects; a ``revisit`` record takes the body of the response it
  refers to (by payload digest or target URI) when the archive holds it, else it is skipped; a
  ``metadata`` record whose WARC fields carry ``error`` (or ``fetch-error``) is a failed capture
  (status 0, the error's kind); ``request``, ``warcinfo`` and other records are skipped. Bodies
  are decoded as a stream and kept to the size limit and one byte more, and every record is read
  to its end before it is used (:mod:`robotrules.batch.warc`): a damaged record (a file cut short,
  a corrupt gzip member) raises :class:`DamagedArchive`, or is skipped and counted when asked.
* Tables of captures (``.parquet``, ``.csv``, ``.jsonl``; ``.csv.gz`` and ``.jsonl.gz``): a row
  per capture with ``robots_url`` (or ``url``), ``status``, ``headers`` (a JSON object, a map,
  or ``name: value`` lines), ``body`` (bytes or text) and optionally ``fetched_at`` (seconds
  since the epoch or an ISO 8601 time) and ``error``.
* Common Crawl's columnar index (:mod:`robotrules.batch.ccindex`): the captures of some hosts or
  URLs, selected in the index and read record by record (by byte range) with :func:`read_warc`.
* Live fetching through :class:`~robotrules.RobotsClient` and its store (:class:`LiveSource`).

Archived answers are judged by :class:`~robotrules.batch.captures.Archive`, which replays the
fetch policy exactly as a live fetch drives it (F1-F9): each robots.txt is judged as of the time
it was captured. :func:`archive_of` keeps the captures in memory, or, for capture sets too large
for that, in an index on disk (:mod:`robotrules.batch.index`).
"""

from __future__ import annotations

import base64
import csv
import gzip
import io
import json
import math
import os
import sys
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import IO, TYPE_CHECKING, Any, cast

from robotrules.batch.captures import Archive, Capture
from robotrules.batch.decide import Governing, governing
from robotrules.batch.warc import KEEP, BadRecord
from robotrules.core.policy import Policy
from robotrules.errors import BlockedAddress, DamagedArchive, InvalidURL, SourceError, require
from robotrules.outcomes import outcome_of

if TYPE_CHECKING:
    from robotrules.client import RobotsClient

__all__ = [
    "ArchiveSource",
    "BadRecord",
    "Bodies",
    "DamagedArchive",
    "LiveSource",
    "SourceError",
    "capture_of_row",
    "file_size",
    "read_captures",
    "read_table_captures",
    "read_warc",
    "skipped_of",
    "source_files",
    "source_kind",
    "with_skipped",
]

WARC_SUFFIXES = (".warc", ".warc.gz")
TABLE_SUFFIXES = (".parquet", ".csv", ".csv.gz", ".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")
ERROR_KINDS = ("dns", "connect", "timeout", "reset", "protocol", "tls")


def with_skipped(frame: Any, records: Sequence[BadRecord]) -> Any:
    """``frame`` (a pandas DataFrame) noting the damaged ``records`` skipped to make it, as JSON-ready
    data in ``frame.attrs["bad_records"]`` (pandas keeps it with the frame, even in a Parquet
    file); nothing is added when there are none."""
    if records:
        frame.attrs["bad_records"] = [record.to_dict() for record in records]
    return frame


def skipped_of(frame: Any) -> list[BadRecord]:
    """The damaged records skipped to make ``frame`` (:func:`with_skipped`)."""
    found = getattr(frame, "attrs", {}).get("bad_records") or ()
    return [BadRecord(str(item["path"]), int(item["offset"]), str(item["detail"])) for item in found]


def source_kind(path: str) -> str:
    """"warc" or "table" from the file name; :class:`SourceError` for any other suffix."""
    lower = path.lower()
    if lower.endswith(WARC_SUFFIXES):
        return "warc"
    if lower.endswith(TABLE_SUFFIXES):
        return "table"
    raise SourceError(f"{path}: not a robots.txt source this can read (expected a file ending in "
                      f"{', '.join(WARC_SUFFIXES + TABLE_SUFFIXES)})")


def _files(path: str) -> list[str]:
    """The source files of ``path``: itself, or the readable files a directory holds (sorted)."""
    if os.path.isdir(path):
        found = sorted(os.path.join(path, name) for name in os.listdir(path)
                       if name.lower().endswith(WARC_SUFFIXES + TABLE_SUFFIXES))
        if not found:
            raise SourceError(f"{path}: the folder holds no WARC or table files")
        return found
    source_kind(path)
    if not os.path.exists(path):
        raise SourceError(f"cannot read {path}: no such file")
    return [path]


def source_files(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> list[str]:
    """The files ``paths`` name, in reading order: each file, and the WARC and table files of each
    folder (sorted); :class:`SourceError` for a missing file or an unknown suffix."""
    given = [paths] if isinstance(paths, (str, os.PathLike)) else paths
    return [path for one in given for path in _files(os.fspath(one))]


def read_captures(paths: str | Sequence[str], *, bodies: Callable[[], Bodies] | None = None,
                  bad_records: list[BadRecord] | None = None) -> Iterator[Capture]:
    """The captures of WARC files, tables of captures and folders of them, in file order.

    ``bodies`` makes the :class:`Bodies` each WARC file's revisit records are resolved against
    (default: in memory). A damaged record raises :class:`DamagedArchive`; when
    ``bad_records`` is a list it is appended there instead, and reading goes on.
    """
    for path in source_files(paths):
        if source_kind(path) == "warc":
            yield from read_warc(path, bodies() if bodies is not None else None, bad_records=bad_records)
        else:
            yield from read_table_captures(path, bad_records=bad_records)


def file_size(path: str) -> int:
    """The size of ``path`` in bytes; :class:`SourceError` when it cannot be read."""
    try:
        return os.path.getsize(path)
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from None


# -- WARC --------------------------------------------------------------------------------------


def _timestamp(text: Any) -> float | None:
    """Seconds since the epoch of a number, a datetime or an ISO 8601 time; None when absent."""
    if text is None or text == "":
        return None
    if isinstance(text, datetime):
        when = text if text.tzinfo else text.replace(tzinfo=timezone.utc)
        return when.timestamp()
    if isinstance(text, (int, float)):
        return float(text) if math.isfinite(text) else None  # NaN: pandas' missing value
    value = str(text).strip()
    try:
        number = float(value)
    except ValueError:
        pass
    else:
        return number if math.isfinite(number) else None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).timestamp()


def _error_kind(text: str) -> str:
    """The failure kind (F8) a free-form error names: dns, connect, timeout, ... else other."""
    lower = text.lower()
    for kind in ERROR_KINDS:
        if kind in lower:
            return kind
    if "refused" in lower or "unreachable" in lower:
        return "connect"
    if "ssl" in lower or "certificate" in lower:
        return "tls"
    return "other"


def _http_headers(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for name, value in pairs:
        key = name.lower()
        if key in headers and key != "location":
            headers[key] = f"{headers[key]}, {value}"
        else:
            headers.setdefault(key, value)
    return headers


class Bodies:
    """The response bodies of one WARC file that its revisit records may refer to, by payload
    digest and by target URI, held in memory. :class:`robotrules.batch.index.DiskBodies` holds
    them in a temporary file instead, for files whose bodies do not fit in memory."""

    def __init__(self) -> None:
        self._by_digest: dict[str, bytes] = {}
        self._by_uri: dict[str, bytes] = {}

    def keep(self, uri: str, digest: str, body: bytes) -> None:
        """Remember the body of a response to ``uri`` (``digest``: its payload digest, or "")."""
        if digest:
            self._by_digest[digest] = body
        self._by_uri[uri] = body

    def find(self, digest: str, refers: str) -> bytes | None:
        """The body with payload ``digest``, else that of the latest response to ``refers``."""
        body = self._by_digest.get(digest) if digest else None
        return body if body is not None else self._by_uri.get(refers)


def read_warc(path: str, bodies: Bodies | None = None, *,
              bad_records: list[BadRecord] | None = None) -> Iterator[Capture]:
    """The robots.txt captures of one WARC (or WARC.gz) file, read with warcio (see the module).

    Memory is bounded whatever the file holds: payloads are decoded as a stream and kept to the
    size limit and one byte more (F9; :mod:`robotrules.batch.warc`). Each record is read to its
    end before its capture is given out; a damaged one (the file cut short, a corrupt gzip
    member, a wrong length) raises :class:`DamagedArchive`, or, when ``bad_records`` is a list,
    is appended to it and skipped, and reading goes on at the next readable record.
    ``bodies`` keeps the response bodies the file's revisit records may refer to (default: a new
    :class:`Bodies`, in memory).
    """
    from robotrules.batch import warc

    seen = bodies if bodies is not None else Bodies()
    pending: list[tuple[str, str, str, int, dict[str, str], float | None]] = []

    def bad(record: BadRecord) -> None:
        if bad_records is None:
            raise DamagedArchive(record)
        bad_records.append(record)

    try:
        yield from warc.records(path, lambda record: _record(record, seen, pending), bad)
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from None
    except warc.NotAnArchive as exc:
        raise SourceError(f"{path}: {exc}") from None
    for uri, digest, refers, status, headers, when in pending:  # revisits of later records
        body = seen.find(digest, refers)
        if body is not None:
            yield Capture(uri, status, headers, body, when)


def _record(record: Any, bodies: Bodies,
            pending: list[tuple[str, str, str, int, dict[str, str], float | None]]) -> Capture | None:
    from robotrules.batch.warc import Undecodable, fields_of, payload

    kind = record.rec_type
    uri = (record.rec_headers.get_header("WARC-Target-URI") or "").strip("<>")
    if not uri:
        return None
    when = _timestamp(record.rec_headers.get_header("WARC-Date"))
    if kind == "response":
        http = record.http_headers
        if http is None:
            return Capture(uri, 0, {}, b"", when, "protocol")
        try:
            status = int(http.get_statuscode() or 0)
        except ValueError:
            return Capture(uri, 0, {}, b"", when, "protocol")
        try:
            body = payload(record)
        except Undecodable:  # F8: a live fetch of a 2xx gets a protocol failure; other statuses need no body
            if 200 <= status < 300:
                return Capture(uri, 0, {}, b"", when, "protocol")
            body = b""
        bodies.keep(uri, record.rec_headers.get_header("WARC-Payload-Digest") or "", body)
        return Capture(uri, status, _http_headers(http.headers), body, when)
    if kind == "revisit":
        http = record.http_headers
        if http is None:
            return None
        try:
            status = int(http.get_statuscode() or 0)
        except ValueError:
            return None
        digest = record.rec_headers.get_header("WARC-Payload-Digest") or ""
        refers = record.rec_headers.get_header("WARC-Refers-To-Target-URI") or uri
        headers = _http_headers(http.headers)
        held = bodies.find(digest, refers)
        if held is None:
            pending.append((uri, digest, refers, status, headers, when))
            return None
        return Capture(uri, status, headers, held, when)
    if kind == "metadata":
        fields = fields_of(record)
        error = fields.get("error") or fields.get("fetch-error") or fields.get("fetcherror")
        if error:
            return Capture(uri, 0, {}, b"", when, _error_kind(error))
    return None


# -- tables ------------------------------------------------------------------------------------


def _opened(path: str) -> IO[bytes]:
    return cast("IO[bytes]", gzip.open(path, "rb") if path.lower().endswith(".gz") else open(path, "rb"))


def _compressed_at(raw: IO[bytes] | None) -> int:
    """How far into the file (compressed bytes) a gzip reader has read."""
    inner = getattr(raw, "fileobj", None)
    try:
        return int(inner.tell()) if inner is not None else 0
    except (OSError, ValueError):
        return 0


def table_rows(path: str, what: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The rows of a Parquet, CSV or JSONL file as dicts, numbered from 1, streamed.

    Shared by the capture tables here and the URL tables of :mod:`robotrules.batch.tables`. A
    compressed file cut short or corrupt raises :class:`DamagedArchive` (after the rows before
    the damage).
    """
    lower = path.lower()
    raw: IO[bytes] | None = None
    try:
        if lower.endswith(".parquet"):
            yield from _parquet_rows(path, what)
        elif lower.endswith((".csv", ".csv.gz")):
            with _opened(path) as raw:
                text = io.TextIOWrapper(raw, encoding="utf-8", newline="")
                csv.field_size_limit(sys.maxsize)
                reader = csv.DictReader(text)
                if not reader.fieldnames:
                    return
                for number, row in enumerate(reader, 1):
                    yield number, {key.strip().lower(): value for key, value in row.items() if key is not None}
        else:
            with _opened(path) as raw:
                for number, line in enumerate(raw, 1):
                    if not line.strip():
                        continue
                    try:
                        data = json.loads(line)
                    except ValueError:
                        raise SourceError(f"{path}, line {number}: not a JSON object") from None
                    if isinstance(data, str):
                        data = {"url": data}
                    if not isinstance(data, dict):
                        raise SourceError(f"{path}, line {number}: not a JSON object")
                    yield number, {str(key).lower(): value for key, value in data.items()}
    except EOFError:  # gzip: the stream ends before its end marker
        size = file_size(path)
        raise DamagedArchive(BadRecord(path, size, "the file ends inside its gzip stream: the file is cut short")) \
            from None
    except (zlib.error, gzip.BadGzipFile) as exc:
        raise DamagedArchive(BadRecord(path, _compressed_at(raw), f"bad gzip data ({exc})")) from None
    except OSError as exc:
        raise SourceError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise SourceError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except csv.Error as exc:
        raise SourceError(f"{path}: not a readable CSV file ({exc})") from None


def _parquet_rows(path: str, what: str) -> Iterator[tuple[int, dict[str, Any]]]:
    parquet: Any = require("pyarrow.parquet", "batch")
    try:
        handle = parquet.ParquetFile(path)
    except OSError:
        raise
    except Exception as exc:  # pyarrow.ArrowInvalid: not a Parquet file
        raise SourceError(f"{path}: not a readable Parquet file ({exc})") from None
    number = 0
    for batch in handle.iter_batches(batch_size=8192):
        for row in batch.to_pylist():
            number += 1
            yield number, {str(key).lower(): value for key, value in row.items()}


def _headers_of(value: Any, where: str) -> dict[str, str]:
    if value is None or value == "" or (isinstance(value, float) and math.isnan(value)):
        return {}
    if isinstance(value, Mapping):
        return {str(k).lower(): str(v) for k, v in value.items()}
    if isinstance(value, list):  # a Parquet map reads as a list of (key, value) pairs
        return _http_headers((str(k), str(v)) for k, v in value)
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            data = json.loads(stripped)
        except ValueError:
            raise SourceError(f"{where}: the headers are not a JSON object") from None
        if not isinstance(data, dict):
            raise SourceError(f"{where}: the headers are not a JSON object")
        return {str(k).lower(): str(v) for k, v in data.items()}
    return _http_headers((name.strip(), v.strip()) for name, sep, v in
                         (line.partition(":") for line in stripped.splitlines()) if sep)


def _body_of(value: Any, encoding: str) -> bytes:
    """A capture's body from a table cell, kept to the size limit and one byte more (F9: the rest is ignored)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return b""
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value[:KEEP])
    if encoding == "base64":
        return base64.b64decode(str(value))[:KEEP]
    return str(value).encode("utf-8")[:KEEP]


def read_table_captures(path: str, *, bad_records: list[BadRecord] | None = None) -> Iterator[Capture]:
    """The captures of a table (see the module for its columns); :class:`SourceError` for a bad row.

    A compressed table cut short or corrupt raises :class:`DamagedArchive`, or, when
    ``bad_records`` is a list, ends there with the damage appended to it.
    """
    rows = table_rows(path, "the captures")
    if bad_records is not None:
        rows = _until_damage(rows, bad_records)
    for number, row in rows:
        yield capture_of_row(row, f"{path}, row {number}")


def _blank(value: Any) -> bool:
    """A missing cell: None, empty, or NaN (pandas' missing value)."""
    return value is None or value == "" or (isinstance(value, float) and math.isnan(value))


def capture_of_row(row: Mapping[str, Any], where: str) -> Capture:
    """The capture of one row of a table of captures, whatever holds it: a file (CSV, JSON Lines,
    Parquet), a pandas DataFrame, or a Spark row (the one reader of rows, so the same capture is
    judged alike from any of them). Columns: ``robots_url`` (or ``url``), ``status`` (a number, as
    a number or text; missing: 0, a failed fetch), ``headers`` (a mapping, a JSON object, pairs or
    ``Name: value`` lines), ``body`` (bytes, or text; base64 text when ``body_encoding`` is
    "base64"), ``fetched_at`` (seconds since the epoch, a datetime or ISO 8601) and ``error``
    (free text, read as its failure kind, F8). :class:`SourceError` naming ``where`` for a bad row.
    """
    url = row.get("robots_url") or row.get("url")
    if _blank(url):
        raise SourceError(f"{where}: no robots_url (or url) value")
    raw_status: Any = row.get("status")
    try:
        status = 0 if _blank(raw_status) else int(float(raw_status))
    except (TypeError, ValueError, OverflowError):
        raise SourceError(f"{where}: the status {raw_status!r} is not a number") from None
    raw_error = row.get("error")
    error = "" if _blank(raw_error) else str(raw_error)
    if status == 0 and not error:
        error = "other"
    encoding = row.get("body_encoding")
    return Capture(str(url), status, _headers_of(row.get("headers"), where),
                   _body_of(row.get("body"), "" if _blank(encoding) else str(encoding)),
                   _timestamp(row.get("fetched_at")), _error_kind(error) if error else "")


def _until_damage(rows: Iterator[tuple[int, dict[str, Any]]],
                  bad_records: list[BadRecord]) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        yield from rows
    except DamagedArchive as exc:
        bad_records.append(BadRecord(exc.path, exc.offset, exc.detail))


# -- sources as the engines use them -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ArchiveSource:
    """An archive judged by ``policy`` in ``mode``: picklable, so each worker process judges its
    own rows. ``now`` None judges each robots.txt as of its capture (as a crawler did then)."""

    archive: Archive
    policy: Policy = field(default_factory=Policy)
    mode: str = "google"
    now: float | None = None

    def governing(self, robots_url: str) -> Governing:
        """What decides the URLs of ``robots_url`` (kind "unknown" when it was never captured)."""
        entry = self.archive.entry(robots_url, self.policy, self.now)
        when = self.now if self.now is not None else (entry.fetched_at if entry is not None else 0.0)
        return governing(robots_url, entry, self.policy, when, self.mode)


class LiveSource:
    """Live robots.txt files through ``client`` and its store: fetched in the calling process,
    ``threads`` at a time, then handed to the engine as :class:`Governing` objects. With
    ``refresh``, each robots.txt is fetched again the first time this source is asked for it,
    however fresh the cached copy (C2 still applies to a failed fetch), and the new copy serves the
    rest of the job."""

    def __init__(self, client: RobotsClient, threads: int = 16, *, refresh: bool = False) -> None:
        from robotrules.client import JobRobots

        self.client = client
        self.threads = max(1, threads)
        self.refresh = refresh
        self._robots = JobRobots(client, refresh=refresh)

    def governing(self, robots_url: str) -> Governing:
        """What decides ``robots_url``'s URLs now, as :meth:`RobotsClient.check` sees it."""
        try:
            state = self._robots.robots(robots_url)
        except (InvalidURL, BlockedAddress) as exc:
            return Governing(robots_url, "unknown", 0, str(exc), outcome="no_capture")
        return Governing(robots_url, state.kind, state.status, state.reason, state.robots, outcome_of(state.entry))

    def fetch_all(self, robots_urls: Iterable[str]) -> dict[str, Governing]:
        """:meth:`governing` of each URL, fetched concurrently."""
        wanted = list(dict.fromkeys(robots_urls))
        if len(wanted) <= 1 or self.threads == 1:
            return {url: self.governing(url) for url in wanted}
        with ThreadPoolExecutor(min(self.threads, len(wanted))) as pool:
            return dict(zip(wanted, pool.map(self.governing, wanted), strict=True))
