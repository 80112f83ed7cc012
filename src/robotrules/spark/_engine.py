"""robotrules' Spark engine as the batch package sees it: :data:`ENGINE`, found by its entry point.

``robotrules batch --engine spark`` and :func:`robotrules.batch.run` with ``engine="spark"`` reach
:func:`run`; :func:`robotrules.batch.audit.table` with ``engine="spark"`` reaches :func:`audit`
(see :mod:`robotrules.batch.engine.registry`). Both hand the job to the Spark API of this package and
bring the result back in the batch package's forms (a :class:`~robotrules.batch.Summary`, an
audit table sorted as the local engine sorts it). A task that raised the batch package's
:class:`~robotrules.errors.SourceError` (a bad row in a table of captures, say) fails the
job with that error and the local engine's message; any other failure is Spark's own error.
Either way the failure is reported once, by that exception: while a job runs, the executor's log
does not print the failed task's trace again on stderr (:func:`~robotrules.spark._frames.quiet_task_failures`).
"""

from __future__ import annotations

import os
import time
import warnings
from types import SimpleNamespace
from typing import Any

from robotrules.batch.kit import (
    AUDIT_COLUMNS,
    Archive,
    AuditJob,
    BadRecord,
    DamagedArchive,
    RunJob,
    SourceError,
    Summary,
    capture_paths,
    checked_agents,
    site_keys,
    with_skipped,
)
from robotrules.cache import MemoryStore, Store
from robotrules.client import RobotsClient
from robotrules.core.policy import Policy
from robotrules.crawlers import CRAWLERS
from robotrules.errors import require
from robotrules.spark._audit import audit as spark_audit
from robotrules.spark._frames import (
    bad_records_accumulator,
    damage_of,
    quiet_task_failures,
    session,
    source_error_of,
)
from robotrules.spark._rows import run_job

__all__ = ["ENGINE", "audit", "run"]


def _is_path(value: object) -> bool:
    return isinstance(value, (str, os.PathLike))


def _raise_source_error(exc: Exception) -> None:
    """Raise the :class:`SourceError` a task raised (``exc``, Spark's error for it, as its cause),
    so that a source the executors cannot use fails as on the local engine, with its message.
    Any other failure of the job is left to the caller (the command line makes it one line)."""
    found = source_error_of(exc)
    if found is not None and found is not exc:
        raise found from exc


def _live(client: RobotsClient | None, store: Store | None, refresh: bool, policy: Policy | None,
          mode: str) -> tuple[dict[str, Any], Policy | None, str]:
    """The live-fetching arguments of :func:`run_job` and :func:`robotrules.spark.audit` for a
    job without captures: through clients like ``client`` (its store, User-Agent, policy and
    mode, in every task), else on ``store`` with the job's ``policy`` and ``mode``; the one place
    a client's settings become the executors' (:func:`~robotrules.spark._live.live_fetch`)."""
    if client is not None:
        return {"store": client.store, "user_agent": client.user_agent, "refresh": refresh}, client.policy, client.mode
    return {"store": store, "refresh": refresh}, policy, mode


def run(job: RunJob) -> Summary:
    """:func:`robotrules.batch.run` on Spark: :func:`run_job`, its rows counted as they are written.

    Captures must be files (the executors read them). Without ``robots`` the executors fetch live
    through clients like ``client`` (its store, policy, mode and User-Agent), else on ``store``
    (default: the shared SQLite cache file), as :func:`source_of` does for the local engine.
    """
    urls, output, agents, robots, policy, mode = job.urls, job.output, job.agents, job.robots, job.policy, job.mode
    paths: list[str] | None = None
    live: dict[str, Any] = {}
    if robots is None:
        live, policy, mode = _live(job.client, job.store, job.refresh, policy, mode)
    else:
        given = [os.fspath(robots)] if _is_path(robots) else list(robots)
        if not all(_is_path(path) for path in given):
            raise SourceError("the Spark engine reads robots.txt captures from files: give their paths as robots")
        paths = [os.fspath(path) for path in given]
    require("pyspark", "spark")
    skipped: list[BadRecord] | None = [] if job.skip_bad_records else None
    counts: dict[str, int] = {}
    with warnings.catch_warnings():  # pyspark's notes on pandas versions are not the user's concern
        warnings.simplefilter("ignore", FutureWarning)
        spark = session()
        with quiet_task_failures(spark):  # nor the executor's log of a failed task: the error says it
            try:
                run_job(urls, paths, output, list(agents), policy=policy, mode=mode, spark=spark,
                        bad_records=skipped, preferences=job.preferences, verdicts=counts, **live)
            except Exception as exc:
                _raise_source_error(exc)
                raise
    return Summary(counts["rows"], counts["allowed"], counts["disallowed"], counts["unknown"],
                   time.perf_counter() - job.started, output, "spark", tuple(skipped or ()))


def audit(job: AuditJob) -> Any:
    """:func:`robotrules.batch.audit.table` on Spark: :func:`robotrules.spark.audit` in the running
    (or a local) session, collected (one row per site and agent) and sorted by site and agent;
    damaged records skipped (``skip_bad_records``) in ``attrs["bad_records"]``."""
    source, agents, sites, registry, policy = job.source, job.agents, job.sites, job.registry, job.policy
    mode, now, refresh, skip_bad_records = job.mode, job.now, job.refresh, job.skip_bad_records
    require("pyspark", "spark")
    registry = tuple(registry) if registry is not None else CRAWLERS
    names = checked_agents(agents, registry)
    robots = capture_paths(source)
    live: dict[str, Any] = {}
    if robots is None:
        if isinstance(source, Archive):
            raise SourceError("the Spark engine reads robots.txt captures from files: give their paths")
        if isinstance(source, RobotsClient):  # the same store, policy, mode and User-Agent in every task
            live, policy, mode = _live(source, None, refresh, policy, mode)
            sites = sites if sites is not None else ()
        elif isinstance(source, (str, bytes)):
            raise TypeError("give the sites as a list of URLs, not one string")
        else:  # site URLs: a new client on a memory store, as the local engine makes
            sites = source
            live, policy, mode = _live(None, MemoryStore(), refresh, policy, mode)
    sites = list(sites) if sites is not None else None
    spark = session()
    skipped = bad_records_accumulator(spark) if robots is not None else None  # always: see run_job
    # pyspark's notes on pandas versions are not the user's concern, nor the executor's log of a failed task
    with warnings.catch_warnings(), quiet_task_failures(spark):
        warnings.simplefilter("ignore", FutureWarning)
        try:
            frame: Any = spark_audit(spark, robots, names, sites=sites, registry=registry, policy=policy, mode=mode,
                                  now=now, skipped=skipped, **live).toPandas()
        except Exception as exc:
            damage = damage_of(exc)
            if damage is not None:
                raise damage from None
            _raise_source_error(exc)
            raise
    agent_at = {agent: number for number, agent in enumerate(names)}
    if sites is None:
        site_at: Any = frame["site"]
    else:
        order = {key.site: number for number, key in enumerate(site_keys(sites))}
        site_at = frame["site"].map(order)
    frame = frame.assign(_site=site_at, _agent=frame["agent"].map(agent_at))
    frame = frame.sort_values(["_site", "_agent"], kind="stable").reset_index(drop=True)
    frame = frame[list(AUDIT_COLUMNS)]
    found = sorted(skipped.value, key=lambda bad: (bad.path, bad.offset)) if skipped is not None else []
    if found and not skip_bad_records:
        raise DamagedArchive(found[0])
    return with_skipped(frame, found)


ENGINE = SimpleNamespace(run=run, audit=audit)
"""The Spark engine (:class:`robotrules.batch.engine.registry.Engine`), named ``spark`` by the
``robotrules.engines`` entry point and registered when this package is imported."""
