"""Which rows of a crawl's columnar index can be used, and where each comes from (private to
:mod:`robotrules.batch`; the face, whose docstring says how the index is read, is
:mod:`robotrules.batch.inputs.ccindex.reading`).

The index is read as a pyarrow dataset a batch of rows at a time, each row with its place (the
index file, the byte where its row group starts, its row number), repeated rows merged by pyarrow.
Its rows come from strangers: a row becomes an :class:`IndexRecord` only when its URL is text, its
``warc_filename`` a plain name under the WARC prefix, its offset and length whole numbers in
bounds; otherwise what is wrong with it is said, and placed as a damaged record."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any
from urllib.parse import unquote

from robotrules.batch.inputs.warc.reading import BadRecord
from robotrules.errors import SourceError, require

__all__ = [
    "MAX_RECORD",
    "ROWS_AT_ONCE",
    "IndexRecord",
    "bad_row",
    "fsspec_module",
    "is_local",
    "local_path",
    "name_problem",
    "open_index",
    "record_of",
    "scan",
    "shown",
]

MAX_RECORD = 64 * 1024 * 1024
"""The longest range read as one record: 64 MiB (a robots.txt record is a few kilobytes; its body
counts to 500 KiB, F9). A longer one is a damaged record, not read."""

ROWS_AT_ONCE = 65_536  # index rows scanned at once: what memory is bounded by, not the size of the index
_ROW = "__robotrules_row"  # the row number column added to each batch
_LAST_BYTE = 2**63 - 1  # the last byte a file can have (a signed 64-bit position)
_DRIVE = re.compile(r"[A-Za-z]:")  # a Windows drive ("C:"): an absolute name


@dataclass(frozen=True, slots=True)
class IndexRecord:
    """One selected row of the index: the record's ``url``, the WARC file that holds it (its name
    relative to the prefix), the byte ``offset`` and ``length`` of its gzip member, and the
    ``redirect`` target the index gives ("" for none)."""

    url: str
    warc_filename: str
    offset: int
    length: int
    redirect: str = ""
    place: tuple[str, int, int] | None = field(default=None, compare=False, repr=False)
    """Where the row is: (the index file, the byte where its row group starts, its row number, from 0)."""


def is_local(prefix: str) -> bool:
    """Whether ``prefix`` names a local folder (a path, or ``file://``), read with the operating system."""
    return "://" not in prefix or prefix.startswith("file://")


def local_path(prefix: str) -> str:
    """The path of a local ``prefix`` (without ``file://``)."""
    return prefix[len("file://"):] if prefix.startswith("file://") else prefix


def fsspec_module() -> Any:
    """fsspec, which reads index and WARC files that are not local; a missing extra is said by name."""
    return require("fsspec", "commoncrawl")


def open_index(index: str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
             storage_options: dict[str, Any]) -> Any:
    """The index as a pyarrow dataset (hive partitions: ``crawl=``, ``subset=``)."""
    dataset: Any = require("pyarrow.dataset", "batch")
    given = [os.fspath(index)] if isinstance(index, (str, os.PathLike)) else [os.fspath(one) for one in index]
    if not given:
        raise SourceError("no index files given")
    filesystem = None
    if not all(is_local(one) for one in given):
        fsspec = fsspec_module()
        filesystem, _ = fsspec.core.url_to_fs(given[0], **storage_options)
        given = [fsspec.core.url_to_fs(one, **storage_options)[1] for one in given]
    else:
        given = [local_path(one) for one in given]
        for one in given:
            if not os.path.exists(one):
                raise SourceError(f"cannot read the index {one}: no such file or folder")
    try:
        return dataset.dataset(given[0] if len(given) == 1 else given, filesystem=filesystem, format="parquet",
                               partitioning="hive")
    except OSError as exc:
        raise SourceError(f"cannot read the index {given[0]}: {exc}") from None
    except Exception as exc:  # pyarrow.ArrowInvalid: not Parquet
        raise SourceError(f"{given[0]}: not a readable Parquet index ({exc})") from None


def _group_byte(metadata: Any, group: int) -> int:
    """The byte of the index file where row group ``group`` starts (its first column's first page)."""
    column = metadata.row_group(group).column(0)
    return int(column.dictionary_page_offset if column.has_dictionary_page else column.data_page_offset)


def scan(dataset: Any, where: Any, columns: list[str]) -> Iterator[tuple[tuple[str, int, int], dict[str, Any]]]:
    """Each row of ``dataset`` that ``where`` selects, with its place (index file, byte of its row
    group, row number in the file), in file order. Files whose partitions, and row groups whose
    statistics, exclude the selection are not read; the others are read :data:`ROWS_AT_ONCE`
    rows at a time (a file at a time, not a dataset scan, which holds a whole row group decoded),
    and only the selected rows of a batch, each distinct one once, become Python values."""
    arrow: Any = require("pyarrow", "batch")
    scanning: Any = require("pyarrow.dataset", "batch")
    parquet: Any = require("pyarrow.parquet", "batch")
    for fragment in dataset.get_fragments(filter=where):
        groups = [piece.row_groups[0].id for piece in fragment.split_by_row_group(where, schema=dataset.schema)]
        if not groups:
            continue
        fixed = scanning.get_partition_keys(fragment.partition_expression)
        with fragment.filesystem.open_input_file(fragment.path) as handle:
            table = parquet.ParquetFile(handle, pre_buffer=True)  # a row group's needed columns in few reads
            metadata = table.metadata
            starts = list(accumulate((metadata.row_group(n).num_rows for n in range(metadata.num_row_groups)), initial=0))
            present = [name for name in columns if name in table.schema_arrow.names]
            for group in groups:
                byte, row = _group_byte(metadata, group), starts[group]
                for batch in table.iter_batches(batch_size=ROWS_AT_ONCE, row_groups=[group], columns=present,
                                                use_threads=False):
                    numbered = arrow.Table.from_batches([batch])
                    for name in columns:  # a partition's value, or nulls for a column this file lacks
                        if name not in present:
                            kind = dataset.schema.field(name).type
                            numbered = numbered.append_column(name, arrow.repeat(arrow.scalar(fixed.get(name), kind),
                                                                                 batch.num_rows))
                    numbered = numbered.append_column(_ROW, _numbers(row, batch.num_rows))
                    row += batch.num_rows
                    for found in _distinct(numbered.filter(where)).to_pylist():
                        yield (fragment.path, byte, found.pop(_ROW)), found


def _numbers(first: int, count: int) -> Any:
    """The row numbers ``first`` to ``first + count - 1`` as a pyarrow array (made by pyarrow, not by Python ints)."""
    arrow: Any = require("pyarrow", "batch")
    counting: Any = require("pyarrow.compute", "batch")
    return counting.add(counting.cumulative_sum(arrow.repeat(arrow.scalar(1, arrow.int64()), count)), first - 1)


def _distinct(table: Any) -> Any:
    """``table`` without rows that repeat an earlier one (all columns but the row number alike),
    in row order: 2,000,000 copies of a row cost one Python row, not 2,000,000. ``table`` as it
    is when its columns cannot be grouped (a list column: each row is then judged on its own)."""
    keys = [name for name in table.column_names if name != _ROW]
    if table.num_rows < 2:
        return table
    arrow: Any = require("pyarrow", "batch")
    try:
        firsts = table.group_by(keys, use_threads=False).aggregate([(_ROW, "min")])
    except arrow.ArrowException:  # a column type that cannot be grouped (a list)
        return table
    firsts = firsts.rename_columns([_ROW if name == f"{_ROW}_min" else name for name in firsts.column_names])
    return firsts.sort_by(_ROW).select(table.column_names)


def shown(value: object) -> str:
    """``value`` as a message shows a stranger's value: its repr, on one line, at most 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _whole_number(value: object, what: str, least: int, most: int, beyond: str) -> int | str:
    """``value`` (a cell of the index) as a whole number from ``least`` to ``most``, or what is wrong with it.

    A float is taken only when whole (a column written as floating point): never truncated.
    ``beyond`` says what a number over ``most`` means."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if value is None:
        return f"{what} is missing"
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{what} {shown(value)} is not a whole number of bytes"
    if value < least:
        return f"{what} {value:,} is negative" if value < 0 else f"{what} {value:,} gives the record no bytes"
    if value > most:
        return f"{what} {value:,} is {beyond}"
    return value


def name_problem(name: object) -> str | None:
    """What makes ``name`` (a ``warc_filename`` cell) unusable as a name under the WARC prefix, or
    None: it must be text naming a file below the prefix (no ``..``, not absolute, no scheme,
    no control character), read as it is and percent-decoded, since a server decodes it."""
    if not isinstance(name, str) or not name:
        return f"the file name is {shown(name)}, not the name of a file"
    for form in (name, unquote(name)):
        if any(ord(character) < 0x20 or ord(character) == 0x7F for character in form):
            return f"the file name {shown(name)} holds a control character (such as NUL)"
        if form.startswith(("/", "\\")) or _DRIVE.match(form) or "://" in form or "::" in form:
            return f"the file name {shown(name)} is absolute, not a name under the WARC prefix"
        if ".." in form.replace("\\", "/").split("/"):
            return f"the file name {shown(name)} leads outside the WARC prefix (..)"
    return None


def record_of(place: tuple[str, int, int], row: dict[str, Any]) -> IndexRecord | str:
    """The record one index row gives, or what makes the row unusable."""
    url, name = row["url"], row["warc_filename"]
    if not isinstance(url, str) or not url:
        return f"the URL is {shown(url)}, not a URL"
    problem = name_problem(name)
    if problem is not None:
        return problem
    offset = _whole_number(row["warc_record_offset"], "the offset", 0, _LAST_BYTE - MAX_RECORD,
                           "past the end of any file")
    if isinstance(offset, str):
        return offset
    length = _whole_number(row["warc_record_length"], "the length", 1, MAX_RECORD,
                           f"more than the {MAX_RECORD:,} bytes of any robots.txt record")
    if isinstance(length, str):
        return length
    redirect = row.get("fetch_redirect")
    return IndexRecord(url, name, offset, length, redirect if isinstance(redirect, str) else "", place)


def bad_row(place: tuple[str, int, int], problem: str) -> BadRecord:
    """The damaged record of an unusable index row: the index file, the byte of its row group, the row and what is wrong."""
    path, byte, row = place
    return BadRecord(path, byte, f"row {row:,} of the index: {problem}")

