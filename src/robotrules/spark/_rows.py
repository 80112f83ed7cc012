"""Stage 2 of a batch job: every (url, agent) row decided next to its robots.txt, and the job.

Two paths, one decision (every row is the one :func:`~robotrules.batch.engine.rows.decide_url` makes,
built as Arrow columns by :class:`~robotrules.spark._columns.Columns`):

* **In place** (captures of at most ``broadcast_limit`` bytes): the captures are read once and
  sent to every task (:mod:`._shipped`); the URL table is read and decided in one
  ``mapInArrow`` pass where its rows are, with no shuffle, each robots.txt judged once per
  worker process.
* **Shuffle** (larger capture sets, and live fetching): URL rows and one row per robots.txt URL
  (an Entry replayed from captures, :mod:`._entries`, or what a live fetch found,
  :mod:`._live`) are unioned, repartitioned by robots.txt URL (plus an optional salt bucket for
  giant sites) and sorted so that each robots URL's row comes first; a ``mapInArrow`` pass then
  builds each robots.txt's :class:`~robotrules.answers.Governing` once per partition, when
  its first URL row arrives, and decides the rows after it (with ``preferences``, their
  preference columns read by one :class:`~robotrules.batch.engine.rows.PreferenceReader` per
  robots.txt, as the local engine reads them). Bodies cross the shuffle once per robots URL (per
  bucket), never once per URL row.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from robotrules.answers import COLUMNS, Governing, arrow_schema, spark_schema
from robotrules.batch.kit import BadRecord, DamagedArchive, governing, row_columns, row_fields
from robotrules.cache import Store
from robotrules.core.policy import Policy
from robotrules.errors import require
from robotrules.fetch import DEFAULT_USER_AGENT
from robotrules.spark._columns import Columns, tokens_for
from robotrules.spark._entries import entries, entry_of
from robotrules.spark._frames import (
    bad_records_accumulator,
    captures_frame,
    damage_of,
    read_urls,
    session,
    sorted_records,
    with_robots_url,
    write_observed,
)
from robotrules.spark._live import governing_frame, governing_of, live_fetch
from robotrules.spark._shipped import DEFAULT_BROADCAST_BYTES, Shipment, captured, ship, url_decider

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["OUTPUT_SCHEMA", "PREFERENCES_SCHEMA", "VERDICT_COUNTS", "collect_rows", "decide", "run_job"]

OUTPUT_SCHEMA = spark_schema(row_fields())
"""The Spark schema of :func:`decide`'s output: exactly :data:`robotrules.answers.FIELDS`."""

PREFERENCES_SCHEMA = spark_schema(row_fields(preferences=True))
"""The Spark schema of :func:`decide`'s output with ``preferences``: :data:`OUTPUT_SCHEMA`, then
:data:`robotrules.batch.engine.rows.PREFERENCE_FIELDS`."""

Judge = Callable[[str, Mapping[str, Any]], Governing]
"""Builds the Governing of a robots URL from the values of its row (by column name)."""


def archive_judge(policy: Policy, mode: str, now: float | None) -> Judge:
    """A :data:`Judge` of Entry rows: the entry as the policy says it stands, as of ``now`` or,
    when None, of its capture (the local engine's :class:`~robotrules.batch.engine.sources.ArchiveSource`)."""

    def judge(robots_url: str, values: Mapping[str, Any]) -> Governing:
        entry = entry_of(robots_url, values)
        when = now if now is not None else (entry.fetched_at if entry is not None else 0.0)
        return governing(robots_url, entry, policy, when, mode)

    return judge


def live_judge(mode: str) -> Judge:
    """A :data:`Judge` of live rows (:func:`~robotrules.spark._live.governing_of`)."""

    def judge(robots_url: str, values: Mapping[str, Any]) -> Governing:
        return governing_of(robots_url, values, mode)

    return judge


def _decider(judge: Judge, names: Sequence[str], policy: Policy, mode: str, preferences: bool = False) -> Any:
    """The mapInArrow function of the shuffle path: robots URL rows, each before the URL rows
    it governs (sorted so), and URL rows -> output rows (with ``preferences``, each with its
    preference columns), as Arrow columns (:class:`~robotrules.spark._columns.Columns`).

    A robots URL's row is judged when the first URL row needs it (a bucket's copy of a robots
    URL already judged in the partition is not judged again); the rows of one URL that follow
    each other are decided together."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        pa: Any = require("pyarrow", "spark")
        pc: Any = require("pyarrow.compute", "spark")

        schema = arrow_schema(pa, row_fields(preferences))
        key: str | None = None
        gov: Governing | None = None
        carried: dict[str, Mapping[str, Any]] = {}  # the last robots URL row, when no URL row followed it yet
        for batch in batches:
            side = batch.column("side")
            robots_part = batch.filter(pc.equal(side, 0))
            rows_part = batch.filter(pc.not_equal(side, 0))
            waiting = dict(carried)
            if robots_part.num_rows:
                cols = {name: robots_part.column(name).to_pylist() for name in ("robots_url", *names)}
                for i, robots_url in enumerate(cols["robots_url"]):
                    waiting[robots_url] = {name: cols[name][i] for name in names}
                carried = {robots_url: waiting[robots_url]}
            if not rows_part.num_rows:
                continue
            out = Columns(preferences)
            add = out.add
            robots_urls = rows_part.column("robots_url").to_pylist()
            urls = rows_part.column("url").to_pylist()
            own = rows_part.column("agent").to_pylist()
            n = len(urls)
            i = 0
            while i < n:
                robots_url, url = robots_urls[i], urls[i]
                if not robots_url:
                    here: Governing | None = None
                else:
                    if robots_url != key:  # the first row of a robots URL in this partition
                        values = waiting.get(robots_url)
                        key = robots_url
                        gov = judge(robots_url, values) if values is not None else \
                            governing(robots_url, None, policy, 0.0, mode)  # nothing captured of it
                        carried.pop(robots_url, None)
                    here = gov
                j = i + 1
                while j < n and urls[j] == url and robots_urls[j] == robots_url:
                    j += 1
                group = (own[i],) if j == i + 1 else tuple(own[i:j])
                add(url, group, tokens_for(group), here)
                i = j
            yield out.batch(pa, pc, schema, rows_part.column("url"), rows_part.column("agent"))

    return run


def _decide_rows(rows: DataFrame, side: DataFrame, judge: Judge, *, policy: Policy, mode: str,
                 buckets: int, preferences: bool = False) -> DataFrame:
    """Stage 2: ``rows`` (url, agent, robots_url) decided by ``side`` (robots_url first, then the
    columns ``judge`` reads), each side row copied to every salt bucket of its robots URL."""
    F: Any = require("pyspark.sql.functions", "spark")
    fields = [f for f in side.schema.fields if f.name != "robots_url"]
    names = [f.name for f in fields]
    salt = F.pmod(F.xxhash64("url"), F.lit(buckets)).cast("int") if buckets > 1 else F.lit(0)
    url_side = rows.select(
        "robots_url", salt.alias("bucket"), F.lit(1).alias("side"), "url", "agent",
        *[F.lit(None).cast(f.dataType).alias(f.name) for f in fields],
    )
    robots_side = side.select(
        "robots_url", F.explode(F.sequence(F.lit(0), F.lit(buckets - 1))).alias("bucket"), F.lit(0).alias("side"),
        F.lit(None).cast("string").alias("url"), F.lit(None).cast("string").alias("agent"), *names,
    )
    both = url_side.unionByName(robots_side)
    spark = rows.sparkSession
    partitions = int(spark.conf.get("spark.sql.shuffle.partitions") or "200")
    laid = both.repartition(partitions, "robots_url", "bucket").sortWithinPartitions("robots_url", "bucket", "side")
    return laid.mapInArrow(_decider(judge, names, policy, mode, preferences),
                           PREFERENCES_SCHEMA if preferences else OUTPUT_SCHEMA)


def decide(
    urls_df: DataFrame,
    robots: DataFrame | str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None = None,
    agents: Sequence[str] | None = None,
    *,
    policy: Policy | None = None,
    mode: str = "google",
    now: float | None = None,
    buckets: int = 1,
    store: Store | str | os.PathLike[str] | None = None,
    user_agent: str = DEFAULT_USER_AGENT,
    refresh: bool = False,
    skipped: Any = None,
    preferences: bool = False,
    broadcast_limit: int | None = None,
) -> DataFrame:
    """Decide every (url, agent) row of ``urls_df`` against the captures ``robots``, or live.

    Returns a DataFrame with exactly :data:`~robotrules.answers.COLUMNS` (in no set order),
    the same rows as the local engine; with ``preferences``, then the preference columns
    (:data:`PREFERENCES_SCHEMA`: each URL's AI-use preferences for the row's agent, A1-A7, with
    the local engine's values).

    Captures of at most ``broadcast_limit`` bytes (default
    :data:`~robotrules.spark._shipped.DEFAULT_BROADCAST_BYTES`; 0: never) are read now, once,
    and sent to every task, and the URL rows are decided where they are, in one pass, with no
    shuffle (:mod:`robotrules.spark._shipped`): a giant site's rows stay spread over the tasks
    that read them. Larger capture sets, and live fetching, take the shuffle path: URL rows move
    to their robots.txt URL's partition, and ``buckets`` > 1 spreads each robots URL's rows over
    that many salt buckets (giant sites no longer land in one task; the robots URL's row is
    copied to each).

    ``robots`` None fetches each robots.txt live, once, in the executors, through a
    client on ``store`` (see :func:`~robotrules.spark._live.live_fetch`: a SQLite file path, a
    Redis URL, a store object; default the shared SQLite cache file) with ``policy``, ``mode``
    and the ``user_agent`` header (``refresh``: fetched again, however fresh the cached copy);
    ``now`` applies to captures only (live files are judged when fetched). A damaged capture
    file fails the job with :class:`~robotrules.errors.DamagedArchive` (see
    :func:`~robotrules.spark.captures_frame`), unless ``skipped`` (a
    :func:`~robotrules.spark.bad_records_accumulator`) collects its damaged records.
    """
    if buckets < 1:
        raise ValueError("buckets must be at least 1")
    if "url" not in urls_df.columns:
        raise ValueError("the URL table needs a url column")
    policy = policy or Policy()
    spark = urls_df.sparkSession
    if robots is not None:
        caps = captured(captures_frame(spark, robots, skipped=skipped))
        limit = DEFAULT_BROADCAST_BYTES if broadcast_limit is None else broadcast_limit
        shipped = ship(spark, caps, policy=policy, mode=mode, now=now, limit=limit)
        if shipped is not None:
            return _decide_in_place(urls_df, shipped, agents, preferences)
        rows = with_robots_url(urls_df, agents).localCheckpoint()
        table = entries(rows, caps, policy=policy, now=now)
        return _decide_rows(rows, table, archive_judge(policy, mode, now), policy=policy, mode=mode,
                            buckets=buckets, preferences=preferences)
    live = live_fetch(store, policy=policy, mode=mode, user_agent=user_agent, refresh=refresh)
    rows = with_robots_url(urls_df, agents).localCheckpoint()
    return _decide_rows(rows, governing_frame(rows, live), live_judge(mode), policy=policy, mode=mode,
                        buckets=buckets, preferences=preferences)


def _decide_in_place(urls_df: DataFrame, shipped: Shipment, agents: Sequence[str] | None,
                     preferences: bool) -> DataFrame:
    """The fast path: ``urls_df``'s rows decided where they are by the shipped captures."""
    F: Any = require("pyspark.sql.functions", "spark")
    columns = [F.col("url").cast("string").alias("url")]
    if "agent" in urls_df.columns:
        columns.append(F.col("agent").cast("string").alias("agent"))
    names = tuple(agents) if agents else ("*",)
    return urls_df.select(*columns).mapInArrow(url_decider(shipped.broadcast, names, preferences),
                                               PREFERENCES_SCHEMA if preferences else OUTPUT_SCHEMA)


def run_job(
    urls_path: str | os.PathLike[str],
    robots_paths: Sequence[str | os.PathLike[str]] | None,
    output_path: str | os.PathLike[str],
    agents: Sequence[str] = (),
    *,
    policy: Policy | None = None,
    mode: str = "google",
    now: float | None = None,
    spark: SparkSession | None = None,
    master: str = "local[*]",
    buckets: int = 1,
    store: Store | str | os.PathLike[str] | None = None,
    user_agent: str = DEFAULT_USER_AGENT,
    refresh: bool = False,
    bad_records: list[BadRecord] | None = None,
    preferences: bool = False,
    verdicts: dict[str, int] | None = None,
) -> int:
    """Read the URL table and captures, decide every row, write ``output_path``; the row count.

    The Spark half of ``robotrules batch --engine spark``. Starts a local session (:func:`session`)
    unless ``spark`` is given (under ``spark-submit``, pass ``SparkSession.builder.getOrCreate()``).
    ``robots_paths`` None fetches live, through ``store`` (see :func:`decide`). A damaged capture
    file raises :class:`~robotrules.errors.DamagedArchive` (and nothing is written); when
    ``bad_records`` is a list, damaged records are skipped and added to it, in file order.
    ``preferences``: the rows end with the preference columns (see :func:`decide`). When
    ``verdicts`` is a dict, the rows written are counted into it as Spark writes them
    (:data:`VERDICT_COUNTS`: ``rows``, ``allowed``, ``disallowed``, ``unknown``).
    """
    if robots_paths is not None and not robots_paths:
        raise ValueError("no robots.txt sources given")
    spark = spark or session(master)
    urls = read_urls(spark, urls_path)
    robots = None if robots_paths is None else list(robots_paths)
    # Damaged records are always collected (a task that raised would fill the log with Spark's
    # stack traces); without ``bad_records`` the first one is raised before anything is written.
    skipped = bad_records_accumulator(spark) if robots is not None else None
    try:
        # decide() reads every capture file before it returns (once), so the damaged records are
        # known before anything is written; the rows are then computed once, and counted, as they
        # are written.
        result = decide(urls, robots, agents or None, policy=policy, mode=mode, now=now, buckets=buckets, store=store,
                        user_agent=user_agent, refresh=refresh, skipped=skipped, preferences=preferences)
        found = sorted_records(skipped.value) if skipped is not None else ()
        if found and bad_records is None:
            raise DamagedArchive(found[0])
        counted = write_observed(result, output_path, _verdict_counts())
    except Exception as exc:
        damage = damage_of(exc)
        if damage is not None:
            raise damage from None
        raise
    if bad_records is not None:
        bad_records.extend(found)
    if verdicts is not None:
        verdicts.update({name: int(counted[name] or 0) for name in VERDICT_COUNTS})
    return int(counted["rows"] or 0)


VERDICT_COUNTS = ("rows", "allowed", "disallowed", "unknown")
"""What :func:`run_job` counts of the rows it writes (a :class:`~robotrules.batch.Summary`'s counts)."""


def _verdict_counts() -> dict[str, Any]:
    """:data:`VERDICT_COUNTS` as aggregate columns over output rows (``allowed`` null: unknown)."""
    F: Any = require("pyspark.sql.functions", "spark")
    allowed = F.col("allowed")
    return {"rows": F.count(F.lit(1)), "allowed": F.count(F.when(allowed, True)),
            "disallowed": F.count(F.when(~allowed, True)), "unknown": F.count(F.when(allowed.isNull(), True))}


def collect_rows(frame: DataFrame) -> list[tuple[Any, ...]]:
    """The rows of a :func:`decide` result as tuples in :data:`COLUMNS` order (then the preference
    columns, when it has them), sorted (for tests, small tables)."""
    names = row_columns(preferences=len(frame.columns) > len(COLUMNS))
    return sorted((tuple(row[c] for c in names) for row in frame.collect()), key=repr)
