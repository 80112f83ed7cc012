"""Opt-outs over time on Spark (issue #20, section 2): the per-crawl audits run on Spark, the
combine step gives the very trends and changes tables the local engine's audits give.

The crawls are those of :mod:`tests.batch.test_audit_over_time` (a site that starts blocking
GPTBot, one that stops, one from partly to entirely, one missing from a crawl, one adding
``train-ai=n``, one answering 503).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from robotrules.batch.audit import audit_over_time
from tests.batch.test_audit_over_time import AGENTS, LABELS, THIRD_CRAWL_CHANGES, TWO_CRAWL_CHANGES, crawl_warcs
from tests.cli.harness import in_process

pytestmark = pytest.mark.jvm

pandas = pytest.importorskip("pandas", reason="the audit table needs pandas (robotrules[batch])")
pytest.importorskip("warcio", reason="reading WARC files needs warcio (robotrules[batch])")


def test_spark_audits_of_three_crawls_give_the_local_trends_and_changes(spark: Any, tmp_path: Path) -> None:
    """R1, R6, A1-A3, F5 on Spark: each crawl audited by the Spark engine (rows sorted by site),
    combined, gives exactly the local engine's trends and changes tables."""
    paths = crawl_warcs(tmp_path, 3)
    local = audit_over_time(paths, AGENTS, processes=1)
    on_spark = audit_over_time({label: [path] for label, path in paths.items()}, AGENTS, engine="spark")
    assert list(on_spark.audits["site"]) != list(local.audits["site"])  # another order of the same rows
    pandas.testing.assert_frame_equal(on_spark.trends, local.trends)
    pandas.testing.assert_frame_equal(on_spark.changes, local.changes)
    assert [tuple(row) for row in on_spark.changes.itertuples(index=False)] == TWO_CRAWL_CHANGES + THIRD_CRAWL_CHANGES
    key = ["crawl", "site", "agent"]
    pandas.testing.assert_frame_equal(on_spark.audits.sort_values(key).reset_index(drop=True),
                                      local.audits.sort_values(key).reset_index(drop=True))


def test_robotrules_audit_crawl_engine_spark_writes_the_local_tables(spark: Any, tmp_path: Path) -> None:
    """``robotrules audit --crawl ... --engine spark`` (in process, on the running session) writes
    the trends and changes files the local engine writes, byte for byte."""
    paths = crawl_warcs(tmp_path, 2)
    env = {**os.environ, "ROBOTRULES_CACHE": str(tmp_path / "cache.sqlite3"), "NO_COLOR": "1"}
    common = ["audit", *(arg for label, path in paths.items() for arg in ("--crawl", f"{label}={path}")),
              *(arg for agent in AGENTS for arg in ("-a", agent))]
    on_spark = in_process([*common, "--output", str(tmp_path / "spark.csv"), "--engine", "spark"], cwd=tmp_path,
                          env=env, timeout=240)
    local = in_process([*common, "--output", str(tmp_path / "local.csv")], cwd=tmp_path, env=env, timeout=240)
    assert on_spark.returncode == local.returncode == 0, on_spark.stderr[-2000:]
    assert on_spark.stdout.split(" -> ")[0] == local.stdout.split(" -> ")[0]
    assert on_spark.stdout.startswith(f"audited 2 crawls ({LABELS[0]} 6 sites, {LABELS[1]} 5 sites)")
    for name in ("trends", "changes"):
        assert (tmp_path / f"spark.{name}.csv").read_text() == (tmp_path / f"local.{name}.csv").read_text(), name
