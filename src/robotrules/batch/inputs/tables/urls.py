"""Tables and lists of URLs to decide, with an optional agent per row, streamed.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import IO, Any

from robotrules._cells import csv_value
from robotrules.batch.engine.rows import Item
from robotrules.batch.inputs.tables.rows import table_rows
from robotrules.errors import SourceError, require

__all__ = ["count_urls", "read_items", "read_urls"]


_TABLE_INPUTS = (".parquet", ".csv", ".csv.gz", ".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")


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


def count_urls(path: str) -> tuple[int, bool] | None:
    """How many rows :func:`read_urls` will give for ``path``, and whether they may name their own
    agent, when that is known without decoding the rows (a progress bar's total): a text list's
    lines that hold a URL, an uncompressed CSV or JSON Lines file's lines, a Parquet table's rows
    from its footer. None for standard input, compressed files and anything unreadable (the
    run itself says why). One pass over the bytes, at the speed of the disk."""
    lower = path.lower()
    if path == "-" or lower.endswith(".gz"):
        return None
    try:
        if lower.endswith(".parquet"):
            parquet: Any = require("pyarrow.parquet", "batch")
            found = parquet.ParquetFile(path)
            names = found.schema_arrow.names
            return (int(found.metadata.num_rows), "agent" in names) if "url" in names else None
        with open(path, "rb") as handle:
            if not lower.endswith(_TABLE_INPUTS):  # a list: the lines that are neither blank nor comments
                return sum(1 for raw in handle if (line := raw.strip()) and not line.startswith(b"#")), False
            head = handle.readline()
            lines = (1 if head.strip() else 0) + sum(1 for raw in handle if raw.strip())
    except Exception:  # not readable here (or no pyarrow): the run itself says why
        return None
    if lower.endswith(".csv"):
        return max(0, lines - 1), b"agent" in head.lower()  # the header names the columns
    return lines, True  # JSON Lines: any object may name an agent
