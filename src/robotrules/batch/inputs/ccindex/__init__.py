"""Common Crawl's columnar index as a robots.txt source: select captures, then read just those
records, by byte range."""

from __future__ import annotations

from robotrules.batch.inputs.ccindex.reading import (
    COMMON_CRAWL,
    INDEX_COLUMNS,
    MAX_RECORD,
    IndexRecord,
    RangeReader,
    captures_from_index,
    read_index_captures,
    select_records,
)

__all__ = [
    "COMMON_CRAWL",
    "INDEX_COLUMNS",
    "MAX_RECORD",
    "IndexRecord",
    "RangeReader",
    "captures_from_index",
    "read_index_captures",
    "select_records",
]
