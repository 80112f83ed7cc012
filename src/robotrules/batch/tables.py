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

A CSV file is opened in spreadsheets, and its text comes from strangers (URLs, rule text, crawler
names): a cell that would start with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (which a
spreadsheet runs as a formula) is written with a ``'`` before it, as OWASP's CSV-injection
guidance says (:func:`csv_cell`; the audit tables too, :func:`csv_frame`), and a CSV URL list
takes that ``'`` off again (:func:`csv_value`). Parquet and JSON Lines hold the values exactly.
"""

from __future__ import annotations

import csv
import functools
import gzip
import io
import json
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any, cast

from robotrules._cells import csv_cell, csv_value
from robotrules.answers import Row, arrow_schema
from robotrules.batch.block import Block
from robotrules.batch.decide import Item, row_columns, row_fields
from robotrules.batch.sources import SourceError, table_rows
from robotrules.errors import require

__all__ = ["OUTPUT_SUFFIXES", "RowWriter", "csv_cell", "csv_frame", "csv_value", "open_writer", "output_format",
           "read_items", "read_urls"]

OUTPUT_SUFFIXES = {".parquet": "parquet", ".csv": "csv", ".csv.gz": "csv", ".jsonl": "jsonl",
                   ".jsonl.gz": "jsonl", ".ndjson": "jsonl", ".ndjson.gz": "jsonl"}
_TABLE_INPUTS = (".parquet", ".csv", ".csv.gz", ".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")

# The rule of robotrules.crawlers' CSV export (crawlers/_files.py: _cell, _uncell), which this
# package may not import (a private module); tests/batch/test_csv_formulas.py pins that both agree.
def csv_frame(frame: Any) -> Any:
    """The pandas ``frame`` to write as CSV: a copy whose text cells are :func:`csv_cell` cells
    (``frame`` itself is left as it is, for the report and summary made from it)."""
    safe = frame.copy(deep=False)
    for name in frame.columns:
        if frame[name].dtype.kind in "OSU":  # object and every string dtype
            safe[name] = frame[name].map(lambda value: csv_cell(value) if isinstance(value, str) else value)
    return safe


def read_urls(path: str, stdin: IO[bytes] | None = None) -> Iterator[tuple[str, str | None]]:
    """``(url, agent or None)`` for each row of the input at ``path`` ("-": ``stdin``, one URL a
    line); a CSV cell's leading ``'`` before a formula taken off (:func:`csv_value`), so a batch's
    own CSV output reads back as it was decided."""
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
    read = csv_value if path.lower().endswith((".csv", ".csv.gz")) else str
    for _number, row in table_rows(path, "the URL list"):
        url = row.get("url")
        if first and "url" not in row:  # a JSON Lines object may lack a key: the first one must have it
            raise SourceError(f"{path}: no 'url' column (found: {', '.join(row) or 'none'})")
        first = False
        agent = row.get("agent")
        url, agent = ("" if url is None else read(str(url)).strip()), None if agent is None else read(str(agent)).strip()
        yield url, agent or None


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
        """Append ``rows`` (tuples in the order of :attr:`columns`); a CSV file's text cells as :func:`csv_cell` cells."""
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
            cells = _csv_cells(self.preferences)
            self._csv.writerows([made(value) for made, value in zip(cells, row, strict=True)] for row in rows)
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


def _as_is(value: object) -> object:
    return value


@functools.lru_cache(maxsize=2)
def _csv_cells(preferences: bool) -> tuple[Callable[[Any], object], ...]:
    """How each column of a row becomes a CSV cell (from its type): text as :func:`csv_cell`,
    nullable booleans as :func:`_csv_bool`, numbers as they are."""
    made = {"string": csv_cell, "bool": _csv_bool}
    return tuple(made.get(kind, _as_is) for _, kind in row_fields(preferences))


def open_writer(path: str, preferences: bool = False) -> RowWriter:
    """A :class:`RowWriter` for ``path`` (the format from its suffix)."""
    return RowWriter(path, preferences)


@functools.lru_cache(maxsize=2)
def _schema(preferences: bool = False) -> Any:
    """The Arrow schema of the output (made once, lazily: pyarrow is an optional extra)."""
    return arrow_schema(require("pyarrow", "batch"), row_fields(preferences))
