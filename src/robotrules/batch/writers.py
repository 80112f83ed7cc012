"""The tables a batch writes: decided rows streamed in chunks, and whole frames, as Parquet,
CSV (no cell a spreadsheet runs) or JSON Lines.
"""

from __future__ import annotations

import csv
import functools
import gzip
import io
import json
import os
from collections.abc import Callable, Sequence
from typing import IO, Any, cast

from robotrules._cells import csv_cell
from robotrules.answers import FieldType, arrow_schema
from robotrules.batch.engine.blocks import Block
from robotrules.batch.engine.rows import row_fields
from robotrules.errors import SourceError, require

__all__ = ["OUTPUT_SUFFIXES", "RowWriter", "csv_frame", "open_writer", "output_format", "write_frame"]


OUTPUT_SUFFIXES = {".parquet": "parquet", ".csv": "csv", ".csv.gz": "csv", ".jsonl": "jsonl",
                   ".jsonl.gz": "jsonl", ".ndjson": "jsonl", ".ndjson.gz": "jsonl"}


# The rule of robotrules.crawlers' CSV export (crawlers/_files.py: _cell, _uncell), which this
# package may not import (a private module); tests/batch/test_csv_formulas.py pins that both agree.
def csv_frame(frame: Any) -> Any:
    """The pandas ``frame`` to write as CSV: a copy whose text cells are :func:`csv_cell` cells
    (``frame`` itself is left as it is, for the report and summary made from it)."""
    safe = frame.copy(deep=False)
    for name in frame.columns:
        if frame[name].dtype.kind in "OSU":  # object and every string dtype
            safe[name] = frame[name].map(lambda value: csv_cell(value) if isinstance(value, str) else value)
        elif frame[name].dtype.kind == "b" or str(frame[name].dtype) == "boolean":  # as RowWriter writes them
            missing = frame[name].isna()
            safe[name] = [_csv_bool(None if gone else bool(value)) for value, gone in zip(frame[name], missing, strict=True)]
    return safe


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
    holds one chunk at most. The columns are a batch row's (``preferences``: ending with the
    preference columns), or ``fields`` (name and type: an audit's). ``repeated_text``: the text
    cells of the rows repeat (an audit's: a site's group text in every crawler's row), so a
    Parquet file takes them through dictionaries, each distinct text converted once; the file
    reads back as plain text columns. A context manager.
    """

    def __init__(self, path: str, preferences: bool = False, *,
                 fields: tuple[tuple[str, FieldType], ...] | None = None, repeated_text: bool = False) -> None:
        self.path = path
        self.repeated_text = repeated_text
        self.format = output_format(path)
        self.preferences = preferences
        self.fields = fields if fields is not None else row_fields(preferences)
        self.columns = tuple(name for name, _ in self.fields)
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
                self._parquet = parquet.ParquetWriter(path, _schema(self.fields, repeated_text),
                                                      store_schema=not repeated_text)  # read back as text
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

    def write(self, rows: Sequence[tuple[Any, ...]]) -> None:
        """Append ``rows`` (tuples in the order of :attr:`columns`); a CSV file's text cells as :func:`csv_cell` cells."""
        if not rows:
            return
        self.rows += len(rows)
        if self._parquet is not None:
            schema = _schema(self.fields, self.repeated_text)
            if isinstance(rows, Block):  # its columns as they are: no row tuples
                self._parquet.write_table(rows.to_arrow(schema))
                return
            pyarrow: Any = require("pyarrow", "batch")
            columns = list(zip(*rows, strict=True))
            self._parquet.write_table(pyarrow.Table.from_arrays(
                [_column(pyarrow, column, field.type) for column, field in zip(columns, schema, strict=True)],
                schema=schema))
        elif self._csv is not None:
            cells = _csv_cells(self.fields)
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


def _column(pyarrow: Any, values: Sequence[Any], kind: Any) -> Any:
    """An Arrow column of ``values`` of type ``kind``. A dictionary column's distinct values are
    converted once and taken by index (an audit's rows repeat a site's group text for every
    crawler, the same string object each time, so a lookup is a hash already known)."""
    if not pyarrow.types.is_dictionary(kind):
        return pyarrow.array(values, type=kind)
    distinct: dict[Any, int] = {}
    indices = [distinct.setdefault(value, len(distinct)) for value in values]
    return pyarrow.DictionaryArray.from_arrays(pyarrow.array(indices, type=kind.index_type),
                                               pyarrow.array(list(distinct), type=kind.value_type))


def _csv_bool(value: object) -> str:
    """A nullable boolean cell of a CSV file: "true", "false" or empty."""
    return "" if value is None else ("true" if value else "false")


def _as_is(value: object) -> object:
    return value


def _csv_number(value: object) -> object:
    """A nullable number of a CSV file: as it is, or empty."""
    return "" if value is None else value


@functools.lru_cache(maxsize=4)
def _csv_cells(fields: tuple[tuple[str, str], ...]) -> tuple[Callable[[Any], object], ...]:
    """How each column of a row becomes a CSV cell (from its type): text as :func:`csv_cell`,
    nullable booleans as :func:`_csv_bool`, numbers as they are (a missing one empty)."""
    made = {"string": csv_cell, "bool": _csv_bool, "double": _csv_number}
    return tuple(made.get(kind, _as_is) for _, kind in fields)


def open_writer(path: str, preferences: bool = False) -> RowWriter:
    """A :class:`RowWriter` for ``path`` (the format from its suffix)."""
    return RowWriter(path, preferences)


@functools.lru_cache(maxsize=4)
def _schema(fields: tuple[tuple[str, str], ...], repeated_text: bool = False) -> Any:
    """The Arrow schema of ``fields`` (made once, lazily: pyarrow is an optional extra); with
    ``repeated_text``, text columns as dictionaries (see :class:`RowWriter`)."""
    pyarrow: Any = require("pyarrow", "batch")
    schema = arrow_schema(pyarrow, fields)
    if not repeated_text:
        return schema
    text = pyarrow.dictionary(pyarrow.int32(), pyarrow.string())
    return pyarrow.schema([(field.name, text if field.type == pyarrow.string() else field.type) for field in schema])


def write_frame(frame: Any, path: str) -> None:
    """Write a whole table (a pandas DataFrame: an audit, its trends and changes) to ``path`` in
    the format of its suffix: Parquet, CSV with no cell a spreadsheet runs as a formula, or JSON
    Lines. OSError when the file cannot be written."""
    fmt = output_format(path)
    if fmt == "parquet":
        require("pyarrow", "batch")
        frame.to_parquet(path, index=False)
    elif fmt == "csv":
        csv_frame(frame).to_csv(path, index=False)
    else:
        frame.to_json(path, orient="records", lines=True)
