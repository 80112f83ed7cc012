"""The files of a batch's robots.txt captures: which files a path names, their kinds, and
the damaged records a run skipped (F9).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from robotrules.batch.captures.archive import Capture
from robotrules.batch.inputs.tables.captures import read_table_captures
from robotrules.batch.inputs.warc.captures import Bodies, read_warc
from robotrules.batch.inputs.warc.reading import BadRecord
from robotrules.errors import SourceError

if TYPE_CHECKING:
    pass

__all__ = ["TABLE_SUFFIXES", "WARC_SUFFIXES", "read_captures", "skipped_of", "source_files", "source_kind", "with_skipped"]


WARC_SUFFIXES = (".warc", ".warc.gz")


TABLE_SUFFIXES = (".parquet", ".csv", ".csv.gz", ".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz")


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

