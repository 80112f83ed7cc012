"""Audits on Spark: one row per site and agent, classified in the executors by the local code.

From captures: the sites are every captured robots.txt URL (less those that are only where
another's redirects end, :func:`robotrules.batch.audit.sites.redirected_away`), or the robots.txt URLs
of ``sites``. When the captures are small (``broadcast_limit``, as for
:func:`~robotrules.spark.decide`), they are sent to every task (:mod:`._shipped`) and each task
replays the policy for its sites over the whole archive and classifies them with
:func:`robotrules.batch.audit.sites.classify_jobs`, exactly as a local worker does; no entry crosses a
shuffle. Larger capture sets are joined with their entries (:func:`~robotrules.spark.entries`,
the policy replayed over the captures in Spark, redirect chains across hosts resolved in rounds),
and each partition classifies its sites with the same function. Live: the distinct
sites are spread over tasks, and each task fetches and classifies its sites with
:func:`robotrules.batch.audit.sites.live_rows` through one client on the shared store
(:mod:`._live`), so each robots.txt is fetched once per job.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

from robotrules.answers import arrow_schema, spark_schema
from robotrules.batch.kit import (
    AUDIT_COLUMNS,
    AUDIT_FIELDS,
    SiteKey,
    checked_agents,
    classify_jobs,
    job_of,
    live_rows,
    redirected_away,
    site_key,
    site_keys,
)
from robotrules.cache import Store
from robotrules.core.policy import Policy
from robotrules.crawlers import CRAWLERS, Crawler
from robotrules.errors import require
from robotrules.fetch import DEFAULT_USER_AGENT
from robotrules.spark._entries import ENTRY_NAMES, entries, entry_of
from robotrules.spark._frames import captures_frame
from robotrules.spark._live import LiveFetch, clients, live_fetch
from robotrules.spark._shipped import DEFAULT_BROADCAST_BYTES, Shipment, captured, ship, worker_of

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["AUDIT_SCHEMA", "audit"]

AUDIT_SCHEMA = spark_schema(AUDIT_FIELDS)
"""The Spark schema of :func:`audit`'s output: exactly :data:`robotrules.batch.audit.columns.AUDIT_FIELDS`."""


def audit(
    spark: SparkSession,
    robots: DataFrame | str | os.PathLike[str] | Sequence[str | os.PathLike[str]] | None,
    agents: Sequence[str] | None = None,
    *,
    sites: DataFrame | Iterable[str] | None = None,
    registry: Sequence[Crawler] | None = None,
    policy: Policy | None = None,
    mode: str = "google",
    now: float | None = None,
    store: Store | str | os.PathLike[str] | None = None,
    user_agent: str = DEFAULT_USER_AGENT,
    refresh: bool = False,
    skipped: Any = None,
    broadcast_limit: int | None = None,
) -> DataFrame:
    """Audit sites' robots.txt for ``agents``: the rows of :func:`robotrules.batch.audit.sites.audit_rows`
    (columns :data:`~robotrules.batch.audit.columns.AUDIT_COLUMNS`, in no set order).

    ``robots``: captures, as :func:`~robotrules.spark.decide` takes them (a DataFrame or paths read
    in the executors); every captured robots.txt is audited, or those of ``sites``; each is judged
    as of its capture, or ``now``. ``robots`` None fetches the robots.txt of ``sites`` live in the
    executors, once each, through a client on ``store`` (a SQLite file path, a Redis URL, a store
    object; default the shared SQLite cache file: see :func:`~robotrules.spark.decide`) with
    ``policy``, ``mode`` and the ``user_agent`` header (``refresh``: fetched again, however fresh
    the cached copy); the result is computed when this returns.
    ``sites``: URLs or bare host names (https then), as a list or a DataFrame with a ``url``
    column. ``agents`` and ``registry`` as for the local audit (default: the registry's crawlers
    by name, and ``*``). A damaged capture file fails the job, unless ``skipped`` (a
    :func:`~robotrules.spark.bad_records_accumulator`) collects its damaged records (see
    :func:`~robotrules.spark.captures_frame`). Captures of at most ``broadcast_limit`` bytes
    (default :data:`~robotrules.spark._shipped.DEFAULT_BROADCAST_BYTES`; 0: never) are read now
    and sent to every task (see the module docstring); the table of every captured site is then
    computed when this returns.
    """
    registry = tuple(registry) if registry is not None else CRAWLERS
    names = checked_agents(agents, registry)
    policy = policy or Policy()
    if robots is None:
        if sites is None:
            raise ValueError("give the sites to fetch live (sites=...), or robots.txt captures")
        live = live_fetch(store, policy=policy, mode=mode, user_agent=user_agent, refresh=refresh)
        keys = _site_keys(spark, sites)
        partitions = int(spark.conf.get("spark.sql.shuffle.partitions") or "200")
        return keys.repartition(partitions, "key").mapInArrow(_live_auditor(live, names, registry),
                                                             AUDIT_SCHEMA).localCheckpoint()
    caps = captured(captures_frame(spark, robots, skipped=skipped))
    limit = DEFAULT_BROADCAST_BYTES if broadcast_limit is None else broadcast_limit
    shipped = ship(spark, caps, policy=policy, mode=mode, now=now, limit=limit)
    if shipped is not None:
        return _audit_shipped(spark, shipped, names, registry, sites)
    targets = _site_keys(spark, sites) if sites is not None else _captured_keys(caps)
    found = entries(targets, caps, policy=policy, now=now)
    joined = targets.join(found, "robots_url", "left")
    if sites is None:  # the archive's sites: not the robots.txt files others' redirects end at
        joined = joined.join(_redirected_away(found), "robots_url", "left_anti")
    return joined.mapInArrow(_archive_auditor(names, registry, policy, now, mode), AUDIT_SCHEMA)


def _audit_shipped(spark: SparkSession, shipped: Shipment, agents: tuple[str, ...], registry: tuple[Crawler, ...],
                   sites: DataFrame | Iterable[str] | None) -> DataFrame:
    """The fast path: the sites classified in tasks that each hold the whole archive."""
    if sites is not None:
        return _site_keys(spark, sites).mapInArrow(_shipped_auditor(shipped.broadcast, agents, registry, False),
                                                   AUDIT_SCHEMA)
    urls = [(url, url) for url in shipped.source.archive.robots_urls()]
    slices = max(1, min(len(urls), 4 * spark.sparkContext.defaultParallelism))
    keys = spark.createDataFrame(spark.sparkContext.parallelize(urls, slices), KEYS)
    rows = keys.mapInArrow(_shipped_auditor(shipped.broadcast, agents, registry, True),
                           f"{AUDIT_SCHEMA}, final string").localCheckpoint()
    finals = {row["site"]: row["final"] for row in rows.select("site", "final").distinct().collect()}
    gone = redirected_away(finals)  # F3: a target of others' redirects is no site of its own
    if gone:
        F: Any = require("pyspark.sql.functions", "spark")
        rows = rows.join(F.broadcast(spark.createDataFrame([(url,) for url in sorted(gone)], "site string")),
                         "site", "left_anti")
    return rows.select(*AUDIT_COLUMNS)


def _shipped_auditor(broadcast: Any, agents: tuple[str, ...], registry: tuple[Crawler, ...], finals: bool) -> Any:
    """mapInArrow: site keys -> audit rows, each site's entry replayed over the shipped archive
    (with ``finals``, each row then says where its site's redirects ended: "" for none)."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        pa: Any = require("pyarrow", "spark")

        source = worker_of(broadcast).source
        archive, policy, now = source.archive, source.policy, source.now
        for batch in batches:
            jobs = []
            ends: list[str] = []
            for site, robots_url in zip(batch.column("key").to_pylist(), batch.column("robots_url").to_pylist(),
                                        strict=True):
                entry = archive.entry(robots_url, policy, now) if robots_url else None
                jobs.append(job_of(SiteKey(site, robots_url), entry))
                ends.append(entry.final_url if entry is not None else "")
            rows = classify_jobs(jobs, agents, registry, policy, now, source.mode)
            if not rows:
                continue
            out = _audit_batch(rows)
            if finals:
                width = len(rows) // len(jobs)  # classify_jobs gives every site one row per agent
                final = pa.array([end for end in ends for _ in range(width)], pa.string())
                out = pa.RecordBatch.from_arrays([*out.columns, final], names=[*out.schema.names, "final"])
            yield out

    return run


def _redirected_away(found: DataFrame) -> DataFrame:
    """:func:`robotrules.batch.audit.sites.redirected_away` on the entries' final URLs: the robots.txt
    URLs where another's redirects end and whose own redirects end nowhere else."""
    F: Any = require("pyspark.sql.functions", "spark")
    ends = found.select("robots_url", F.coalesce(F.col("final_url"), F.lit("")).alias("final"))
    moved = ends.where((F.col("final") != "") & (F.col("final") != F.col("robots_url")))
    own = ends.select(F.col("robots_url").alias("target"), F.col("final").alias("target_final"))
    stays = moved.join(own, moved["final"] == own["target"], "inner").where(
        (F.col("target_final") == "") | (F.col("target_final") == F.col("target")))
    return stays.select(F.col("target").alias("robots_url")).distinct()


KEYS = "key string, robots_url string"
"""The site keys of an audit as columns (:class:`~robotrules.batch.audit.sites.SiteKey`)."""


def _site_keys(spark: SparkSession, sites: DataFrame | Iterable[str]) -> DataFrame:
    """The distinct site keys (:func:`robotrules.batch.audit.sites.site_key`) of ``sites``: a ``key``
    column (the site as the rows name it) and a ``robots_url`` column ("" for a site without one)."""
    sql: Any = require("pyspark.sql", "spark")
    if isinstance(sites, sql.DataFrame):
        if "url" not in sites.columns:
            raise ValueError(f"the sites table needs a url column (found: {', '.join(sites.columns) or 'none'})")
        keys: DataFrame = sites.select(sites["url"].cast("string").alias("url")).mapInArrow(_keys_of, KEYS)
        return keys.distinct()
    if isinstance(sites, (str, bytes)):
        raise TypeError("give the sites as a list of URLs, not one string")
    return spark.createDataFrame([tuple(key) for key in site_keys(cast("Iterable[str]", sites))], KEYS)


def _keys_of(batches: Iterator[Any]) -> Iterator[Any]:
    """mapInArrow: site URLs in, their keys out (blank ones dropped)."""
    pa: Any = require("pyarrow", "spark")

    for batch in batches:
        keys = [key for key in (site_key(url) for url in batch.column("url").to_pylist() if url is not None)
                if key is not None]
        yield pa.RecordBatch.from_arrays([pa.array([key.site for key in keys], pa.string()),
                                          pa.array([key.robots_url for key in keys], pa.string())],
                                         names=["key", "robots_url"])


def _captured_keys(caps: DataFrame) -> DataFrame:
    """Every captured URL that is a robots.txt URL (as :meth:`Archive.robots_urls`), as a ``key`` column."""
    return caps.select("url").distinct().mapInArrow(_robots_urls_of, KEYS)


def _robots_urls_of(batches: Iterator[Any]) -> Iterator[Any]:
    pa: Any = require("pyarrow", "spark")

    from robotrules.core.urls import is_robots_url

    for batch in batches:
        urls = [url for url in batch.column("url").to_pylist() if url is not None and is_robots_url(url)]
        column = pa.array(urls, pa.string())
        yield pa.RecordBatch.from_arrays([column, column], names=["key", "robots_url"])


def _audit_batch(rows: list[tuple[Any, ...]]) -> Any:
    pa: Any = require("pyarrow", "spark")

    schema = arrow_schema(pa, AUDIT_FIELDS)
    columns = list(zip(*rows, strict=True)) if rows else [()] * len(schema)
    return pa.RecordBatch.from_arrays([pa.array(list(c), f.type) for c, f in zip(columns, schema, strict=True)],
                                      schema=schema)


def _archive_auditor(agents: tuple[str, ...], registry: tuple[Crawler, ...], policy: Policy, now: float | None,
                     mode: str) -> Any:
    """mapInArrow: site keys with their Entry fields (null: nothing captured) -> audit rows."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        for batch in batches:
            cols = {name: batch.column(name).to_pylist() for name in ("key", "robots_url", *ENTRY_NAMES[1:])}
            jobs = [job_of(SiteKey(key, cols["robots_url"][i]),
                           entry_of(cols["robots_url"][i] or key, {name: cols[name][i] for name in ENTRY_NAMES[1:]}))
                    for i, key in enumerate(cols["key"])]
            rows = classify_jobs(jobs, agents, registry, policy, now, mode)
            if rows:
                yield _audit_batch(rows)

    return run


def _live_auditor(live: LiveFetch, agents: tuple[str, ...], registry: tuple[Crawler, ...]) -> Any:
    """mapInArrow: site keys -> audit rows, each site fetched through the task's client."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        for client, batch in clients(live, batches):
            sites = batch.column("key").to_pylist()  # each site's key is its own key again
            rows = list(live_rows(client, sites, agents, registry, live.threads, refresh=live.refresh))
            if rows:
                yield _audit_batch(rows)

    return run
