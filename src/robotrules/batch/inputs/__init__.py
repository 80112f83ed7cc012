"""Where a batch's robots.txt captures and URLs come from, one sub-package per kind of input:
:mod:`~robotrules.batch.inputs.warc` (WARC files), :mod:`~robotrules.batch.inputs.tables`
(tables of captures and of URLs), :mod:`~robotrules.batch.inputs.ccindex` (Common Crawl's
columnar index), and :mod:`~robotrules.batch.engine.sources` (live fetching through a client).
:func:`read_captures` reads any mix of capture files and folders."""

from __future__ import annotations

from robotrules.batch.inputs.fields import file_size
from robotrules.batch.inputs.files import (
    TABLE_SUFFIXES,
    WARC_SUFFIXES,
    read_captures,
    skipped_of,
    source_files,
    source_kind,
    with_skipped,
)

__all__ = [
    "TABLE_SUFFIXES",
    "WARC_SUFFIXES",
    "file_size",
    "read_captures",
    "skipped_of",
    "source_files",
    "source_kind",
    "with_skipped",
]
