"""Decide and audit robots.txt at scale: tables of URLs, crawl archives, live sites, Spark.

The contract every engine shares: :mod:`robotrules.batch.captures.archive` (archived answers judged by
the fetch policy) and :mod:`robotrules.batch.engine.rows` (the one decision of a row). Around it:
:mod:`~robotrules.batch.inputs` (WARC files, tables of captures, live fetching),
:mod:`~robotrules.batch.inputs.ccindex.reading` (Common Crawl's columnar index: :func:`captures_from_index`),
:mod:`~robotrules.batch.writers` (URL inputs, outputs) and :mod:`~robotrules.batch.engine.local` (the
local engine). The library calls are :func:`decide` (a pandas DataFrame) and :func:`run` (a file
written, a :class:`Summary` returned)::

    import robotrules.batch as batch
    frame = batch.decide(["https://example.com/a"], agents=["Googlebot", "GPTBot"],
                         robots=["robots-captures.warc.gz"])
    summary = batch.run("urls.parquet", "verdicts.parquet", agents=["GPTBot"], robots="captures/")

With ``preferences=True`` each row also has the URL's AI-use preferences, one nullable boolean
column per usage category (:data:`PREFERENCE_COLUMNS`: ``train_ai``, ``search``, ``ai_input``,
as :meth:`RobotsTxt.usage <robotrules.RobotsTxt.usage>` gives them, A1-A7); without it the
rows have exactly :data:`COLUMNS`.

A damaged archive (a WARC file cut short, a corrupt gzip member) raises
:class:`DamagedArchive` naming the file and the byte where the damage starts; with
``skip_bad_records=True`` the damaged records are skipped, the rest is read, and they are
counted (:attr:`Summary.bad_records`, ``frame.attrs["bad_records"]``).
"""

from __future__ import annotations

from robotrules.batch.captures.archive import Archive, Capture
from robotrules.batch.captures.keeping import archive_of
from robotrules.batch.engine.blocks import Block
from robotrules.batch.engine.rows import (
    COLUMNS,
    PREFERENCE_COLUMNS,
    PREFERENCE_FIELDS,
    Governing,
    decide_row,
    governing,
    robots_url_of,
)
from robotrules.batch.engine.sources import ArchiveSource, LiveSource
from robotrules.batch.inputs.ccindex.reading import (
    COMMON_CRAWL,
    captures_from_index,
    read_index_captures,
    select_records,
)
from robotrules.batch.inputs.files import read_captures
from robotrules.batch.inputs.warc.reading import BadRecord
from robotrules.batch.summary import Summary, skipped_note
from robotrules.batch.workflow import decide, rows, run, source_of
from robotrules.errors import DamagedArchive, SourceError

__all__ = [
    "COLUMNS",
    "COMMON_CRAWL",
    "PREFERENCE_COLUMNS",
    "PREFERENCE_FIELDS",
    "Archive",
    "ArchiveSource",
    "BadRecord",
    "Block",
    "Capture",
    "DamagedArchive",
    "Governing",
    "LiveSource",
    "SourceError",
    "Summary",
    "archive_of",
    "captures_from_index",
    "decide",
    "decide_row",
    "governing",
    "read_captures",
    "read_index_captures",
    "robots_url_of",
    "rows",
    "run",
    "select_records",
    "skipped_note",
    "source_of",
]
