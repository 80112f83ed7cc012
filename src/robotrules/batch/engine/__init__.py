"""The engine of a batch: the one decision of a row (:mod:`~robotrules.batch.engine.rows`),
compact blocks of decided rows, the local engine on all cores, and the registry that other
engines join (what they may import is :mod:`robotrules.batch.kit`)."""

from __future__ import annotations

from robotrules.batch.engine.blocks import Block, BlockBuilder
from robotrules.batch.engine.local import DEFAULT_CHUNK, Counts, Decider, decide_rows
from robotrules.batch.engine.registry import LOCAL, AuditJob, Engine, RunJob, check, get, names, register
from robotrules.batch.engine.rows import (
    COLUMNS,
    NO_ROBOTS,
    NO_URL,
    PREFERENCE_COLUMNS,
    PREFERENCE_FIELDS,
    Governing,
    Row,
    decide_row,
    governing,
    robots_url_of,
    row_columns,
    row_fields,
)
from robotrules.batch.engine.sources import ArchiveSource, LiveSource

__all__ = [
    "COLUMNS",
    "DEFAULT_CHUNK",
    "LOCAL",
    "NO_ROBOTS",
    "NO_URL",
    "PREFERENCE_COLUMNS",
    "PREFERENCE_FIELDS",
    "ArchiveSource",
    "AuditJob",
    "Block",
    "BlockBuilder",
    "Counts",
    "Decider",
    "Engine",
    "Governing",
    "LiveSource",
    "Row",
    "RunJob",
    "check",
    "decide_row",
    "decide_rows",
    "get",
    "governing",
    "names",
    "register",
    "robots_url_of",
    "row_columns",
    "row_fields",
]
