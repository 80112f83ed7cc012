"""The tables of a batch: URL inputs read and decided rows written, both streamed in chunks.

Inputs (the format from the file name): Parquet (``.parquet``), CSV (``.csv``, ``.csv.gz``) with
a header row, JSON Lines (``.jsonl``, ``.ndjson``, optionally ``.gz``; objects, or plain JSON
strings), or anything else read as one URL a line (blank lines and ``#`` comments skipped). A
table names its URLs in a ``url`` column and may have an ``agent`` column: a row with an agent
is decided for that agent only; a row without one, for each of the run's agents. A table row
whose ``url`` is empty or missing (null) is kept, with an empty URL, and decided "invalid URL",
so the output's rows line up with the input's.

Outputs (the format from the file name): ``.parquet``, ``.csv``, ``.csv.gz``, ``.jsonl``,
``.jsonl.gz``, with the columns of :data:`~robotrules.batch.decide.COLUMNS` (and, for a job that
asks for them, the preference columns :data:`~robotrules.batch.decide.PREFERENCE_FIELDS`);
``allowed`` is empty (null) when nothing is known of the site, a preference when it is unknown
or not applicable.
"""

from __future__ import annotations

import csv
import functools
import gzip
import io
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, Any, cast

from robotrules.answers import COLUMNS, Row, arrow_schema
from robotrules.batch.block import Block
from robotrules.batch.decide import Item, row_columns, row_fields
from robotrules.batch.sources import SourceError, table_rows
from robotrules.errors import require

__all__ = ["OUTPUT_SUFFIXES", "RowWriter", "open_writer", "output_format", "read_items", "read_urls"]

OUTPUT_SUFFIXES = {".parquet": "parquet", ".csv": "csv", ".csv.gz": "csv", ".jsonl": "jsonl",
                   ".jsonl.gz": "jsonl", ".ndjson": "jsonl", ".ndjson.gz": "jsonl"}
_TABLE_INPUTS = (".parquet", ".csv", ".csv.gz", ".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")


def read_urls(path: str, stdin: IO[bytes] | None = None) -> Iterator[tuple[str, str | None]]:
    """``(url, agent or None)`` for each row of the input at ``path`` ("-": ``stdin``, one URL a line)."""
    if path == "-":
        if stdin is None:
            raise SourceError("no standard input to read URLs from")
        yield from _lines(stdin, "<stdin>")
        return
    if not os.path.exists(path):
        raise SourceError(f"cannot read the URL list {path}: no such file")
    if os.path.isdir(path):
        raise SourceError(f"cannot read the URL list {path}: it is a folder")
    if not path.lower().endswith(_TABLE_INPUTS):
        try:
            with open(path, "rb") as handle:
                yield from _lines(handle, path)
        except OSError as exc:
            raise SourceError(f"cannot read the URL list {path}: {exc.strerror or exc}") from None
        return
    first = True
    for _number, row in table_rows(path, "the URL list"):
        url = row.get("url")
        if first and "url" not in row:  # a JSON Lines object may lack a key: the first one must have it
            raise SourceError(f"{path}: no 'url' column (found: {', '.join(row) or 'none'})")
        first = False
        agent = row.get("agent")
        yield ("" if url is None else str(url).strip()), (str(agent).strip() or None) if agent is not None else None


def _lines(handle: Iterable[bytes], name: str) -> Iterator[tuple[str, str | None]]:
    for number, raw in enumerate(handle, 1):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise SourceError(f"{name}, line {number}: not UTF-8 text") from None
        if line and not line.startswith("#"):
            yield line, None


def read_items(rows: Iterable[tuple[str, str | None]]) -> Iterator[Item]:
    """The items to decide: a row's URL alone (decided for the job's agents), or (url, agent)
    when the row names its own agent. Rows are expanded into (url, agent) rows by the engine."""
    for url, agent in rows:
        yield (url, agent) if agent else url


def output_format(path: str) -> str:
    """"parquet", "csv" or "jsonl" from the output file name; :class:`SourceError` otherwise."""
    lower = path.lower()
    for suffix in sorted(OUTPUT_SUFFIXES, key=len, reverse=True):
        if lower.endswith(suffix):
            return OUTPUT_SUFFIXES[suffix]
    raise SourceError(f"{path}: cannot tell the output format from the file name "
                      f"(use one of {', '.join(OUTPUT_SUFFIXES)})")


class RowWriter:
    """Writes rows to one file as they come (:meth:`write` per chunk); :meth:`close` finishes it.

    Parquet is written one row group per chunk, CSV and JSON Lines line by line, so memory
    holds one chunk at most. ``preferences``: the rows end with the preference columns. A
    context manager.
    """

    def __init__(self, path: str, preferences: bool = False) -> None:
        self.path = path
        self.format = output_format(path)
        self.preferences = preferences
        self.columns = row_columns(preferences)
        self.rows = 0
        self._parquet: Any = None
        self._text: IO[str] | None = None
        self._csv: Any = None
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise SourceError(f"cannot write {path}: the folder {folder} does not exist")
        try:
            if self.format == "parquet":
                parquet: Any = require("pyarrow.parquet", "batch")
                self._parquet = parquet.ParquetWriter(path, _schema(preferences))
            else:
                # the writer owns the file until close(): no with-block can span its life
                raw = cast("IO[bytes]", gzip.open(path, "wb") if path.lower().endswith(".gz")  # noqa: SIM115
                           else open(path, "wb"))  # noqa: SIM115
                self._text = io.TextIOWrapper(raw, encoding="utf-8", newline="")
                if self.format == "csv":
                    self._csv = csv.writer(self._text)
                    self._csv.writerow(self.columns)
        except OSError as exc:
            raise SourceError(f"cannot write {path}: {exc.strerror or exc}") from None

    def write(self, rows: Sequence[Row]) -> None:
        """Append ``rows`` (tuples in the order of :attr:`columns`)."""
        if not rows:
            return
        self.rows += len(rows)
        if self._parquet is not None:
            schema = _schema(self.preferences)
            if isinstance(rows, Block):  # its columns as they are: no row tuples
                self._parquet.write_table(rows.to_arrow(schema))
                return
            pyarrow: Any = require("pyarrow", "batch")
            columns = list(zip(*rows, strict=True))
            self._parquet.write_table(pyarrow.Table.from_arrays(
                [pyarrow.array(column, type=field.type) for column, field in zip(columns, schema, strict=True)],
                schema=schema))
        elif self._csv is not None:
            if self.preferences:
                width = len(COLUMNS)  # then the preference columns, nullable booleans too
                self._csv.writerows((row[0], row[1], _csv_bool(row[2]), *row[3:width], *map(_csv_bool, row[width:]))
                                    for row in rows)
            else:
                self._csv.writerows((row[0], row[1], _csv_bool(row[2]), *row[3:]) for row in rows)
        else:
            assert self._text is not None
            dumps, names = json.dumps, self.columns
            self._text.write("".join(dumps(dict(zip(names, row, strict=True))) + "\n" for row in rows))

    def close(self) -> None:
        """Finish the file (a Parquet footer, the last buffered bytes)."""
        if self._parquet is not None:
            self._parquet.close()
            self._parquet = None
        if self._text is not None:
            self._text.close()
            self._text = None

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _csv_bool(value: object) -> str:
    """A nullable boolean cell of a CSV file: "true", "false" or empty."""
    return "" if value is None else ("true" if value else "false")


def open_writer(path: str, preferences: bool = False) -> RowWriter:
    """A :class:`RowWriter` for ``path`` (the format from its suffix)."""
    return RowWriter(path, preferences)


@functools.lru_cache(maxsize=2)
def _schema(preferences: bool = False) -> Any:
    """The Arrow schema of the output (made once, lazily: pyarrow is an optional extra)."""
    return arrow_schema(require("pyarrow", "batch"), row_fields(preferences))
