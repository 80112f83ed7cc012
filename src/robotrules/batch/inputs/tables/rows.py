"""The rows of a Parquet, CSV or JSON Lines file, streamed, with damage placed (F9).
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import sys
import zlib
from collections.abc import Iterator
from typing import IO, TYPE_CHECKING, Any, cast

from robotrules.batch.inputs.fields import file_size
from robotrules.batch.inputs.warc.reading import BadRecord
from robotrules.errors import DamagedArchive, SourceError, require

if TYPE_CHECKING:
    pass

__all__ = ["table_rows"]


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

    Shared by the capture tables here and the URL tables of :mod:`robotrules.batch.writers`. A
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


def _until_damage(rows: Iterator[tuple[int, dict[str, Any]]],
                  bad_records: list[BadRecord]) -> Iterator[tuple[int, dict[str, Any]]]:
    try:
        yield from rows
    except DamagedArchive as exc:
        bad_records.append(BadRecord(exc.path, exc.offset, exc.detail))
