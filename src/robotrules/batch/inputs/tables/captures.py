"""Tables of robots.txt captures: one row per capture, read the same from a file, a pandas
DataFrame or a Spark row.
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from robotrules.batch.captures.archive import Capture
from robotrules.batch.inputs.fields import _error_kind, _http_headers, _timestamp
from robotrules.batch.inputs.tables.rows import _until_damage, table_rows
from robotrules.batch.inputs.warc.reading import KEEP, BadRecord
from robotrules.errors import SourceError

if TYPE_CHECKING:
    pass

__all__ = ["capture_of_row", "read_table_captures"]


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
