"""Decide and audit robots.txt on Apache Spark: DataFrames in, DataFrames out.

The same decision as the local engine (:func:`robotrules.batch.engine.rows.governing` and
:func:`~robotrules.batch.engine.rows.decide_row`; for audits :func:`robotrules.batch.audit.sites.classify_jobs`
and :func:`~robotrules.batch.audit.sites.live_rows`), laid out for a cluster. Captures of at most ``broadcast_limit`` bytes are read once and sent to
every task (:mod:`._shipped`): the URL rows are decided where they are, in one pass, with no
shuffle. Otherwise a batch job has two stages:

1. **One row per robots.txt URL**, from captures (:mod:`._entries`: each robots URL's captures
   replayed through the fetch policy, F1-F9, redirect chains across hosts resolved in rounds) or
   live (:mod:`._live`: each robots URL fetched once, in the executors, through a client on a
   store they all share, C3).
2. **Rows** (:mod:`._rows`): URL rows meet their robots URL's row in one partition, sorted so it
   comes first; each robots.txt is parsed once per partition and every row after it is decided.

Either way the rows are decided a URL at a time and handed back as Arrow columns
(:mod:`._columns`).

Audits (:mod:`._audit`) classify each site for each agent in the executors, from the same
entries or live fetches. Sessions, capture frames, URL tables and outputs are in :mod:`._frames`.

Public names (``robotrules batch --engine spark`` calls :func:`run_job`; ``robotrules audit
--engine spark`` calls :func:`audit` through :func:`robotrules.batch.audit.table`)::

    session(master="local[*]", *, app_name="robotrules", shuffle_partitions=8, conf=None) -> SparkSession
    captures_frame(spark, robots, *, skipped=None) -> DataFrame   # url, status, headers (JSON), body, fetched_at, error
    bad_records_accumulator(spark) -> Accumulator       # damaged records skipped (skipped=...)
    damage_of(exc) -> DamagedArchive | None             # the damaged archive behind a failed job
    source_error_of(exc) -> SourceError | None          # the unusable source behind a failed task
    entries(urls_df, captures, *, policy=None, now=None) -> DataFrame   # one row per robots URL (ENTRY_FIELDS)
    decide(urls_df, robots=None, agents=None, *, policy=None, mode="google", now=None, buckets=1,
           store=None, user_agent=..., skipped=None, preferences=False, broadcast_limit=None) -> DataFrame
                                                        # OUTPUT_SCHEMA, or PREFERENCES_SCHEMA
    audit(spark, robots, agents=None, *, sites=None, registry=None, policy=None, mode="google",
          now=None, store=None, user_agent=..., skipped=None, broadcast_limit=None) -> DataFrame   # AUDIT_SCHEMA
    run_job(urls_path, robots_paths, output_path, agents=(), *, policy=None, mode="google",
            now=None, spark=None, master="local[*]", buckets=1, store=None, user_agent=...,
            bad_records=None, preferences=False, verdicts=None) -> int   # rows written, counted as written

``robots`` is a DataFrame of captures (``url`` or ``robots_url``, ``status``, ``headers``, ``body``,
``fetched_at``, ``error``; see :func:`captures_frame`) or paths of WARC, Parquet, CSV or JSONL
files, read in the executors (the paths must be readable there); None fetches live. ``now``
None judges each captured robots.txt as of its own capture time. A damaged capture file (cut
short, a corrupt gzip member) fails the job; with an accumulator of skipped records
(``skipped=``, ``bad_records=`` for :func:`run_job`) its damaged records are skipped, as the
local engine's ``skip_bad_records`` does. ``store`` names the cache the
executors share when fetching live: a SQLite file path or a Redis URL (default: the SQLite
cache file of the command line).
"""

from __future__ import annotations

from robotrules.batch.kit import register as _register
from robotrules.spark._audit import AUDIT_SCHEMA, audit
from robotrules.spark._engine import ENGINE as _ENGINE
from robotrules.spark._entries import ENTRY_FIELDS, entries
from robotrules.spark._frames import (
    bad_records_accumulator,
    captures_frame,
    damage_of,
    read_urls,
    session,
    source_error_of,
    with_robots_url,
    write,
)
from robotrules.spark._rows import OUTPUT_SCHEMA, PREFERENCES_SCHEMA, collect_rows, decide, run_job

_register("spark", _ENGINE)  # once; the robotrules.engines entry point finds the same object without this import

__all__ = [
    "AUDIT_SCHEMA",
    "ENTRY_FIELDS",
    "OUTPUT_SCHEMA",
    "PREFERENCES_SCHEMA",
    "audit",
    "bad_records_accumulator",
    "captures_frame",
    "collect_rows",
    "damage_of",
    "decide",
    "entries",
    "read_urls",
    "run_job",
    "session",
    "source_error_of",
    "with_robots_url",
    "write",
]
