"""Archived robots.txt answers judged by the fetch policy as of their capture (F1-F9, C1),
kept in memory or, for capture sets too large for that, in an index on disk."""

from __future__ import annotations

from robotrules.batch.captures.archive import (
    NOT_ARCHIVED,
    Archive,
    Capture,
    CaptureStore,
    MemoryCaptures,
)
from robotrules.batch.captures.disk import (
    AUTO_INDEX_BYTES,
    DiskBodies,
    SQLiteCaptures,
    build,
    open_index,
    open_or_build,
)
from robotrules.batch.captures.keeping import archive_of

__all__ = [
    "AUTO_INDEX_BYTES",
    "NOT_ARCHIVED",
    "Archive",
    "Capture",
    "CaptureStore",
    "DiskBodies",
    "MemoryCaptures",
    "SQLiteCaptures",
    "archive_of",
    "build",
    "open_index",
    "open_or_build",
]
