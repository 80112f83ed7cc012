"""Audits on Spark give the local audit's rows, from real WARC captures and through the command line.

Issue #11: ``robotrules audit`` takes the same sources and engines as ``robotrules batch``; on
Spark the executors run the local classification code (``classify_jobs`` over entries replayed by
the fetch policy, F1-F9), so every row is the local engine's.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from robotrules.batch import audit
from robotrules.batch.audit import AUDIT_COLUMNS
from tests.batch.conftest import SITES, warc  # noqa: F401 (the WARC fixture of the audit tests)
from tests.cli.harness import in_process

pytestmark = pytest.mark.jvm

pandas = pytest.importorskip("pandas", reason="the audit table needs pandas (robotrules[batch])")
pytest.importorskip("warcio", reason="reading WARC files needs warcio (robotrules[batch])")

AGENTS = ["GPTBot", "CCBot", "Googlebot/2.1", "*"]


def test_spark_audit_of_every_captured_robots_txt_is_the_local_table(spark: Any, warc: Path) -> None:  # noqa: F811
    """F1-F5 on Spark: rules, a redirect chain, 404, 503, a failed fetch, HTML, a redirect to a
    target never captured: every captured robots.txt gives the local engine's row, with the same
    column types (the Spark table comes sorted by site)."""
    local = audit.table(warc, AGENTS, processes=1)
    on_spark = audit.table([warc], AGENTS, engine="spark")
    by_site = local.assign(order=local["agent"].map(AGENTS.index)).sort_values(["site", "order"], kind="stable")
    pandas.testing.assert_frame_equal(on_spark, by_site.drop(columns="order").reset_index(drop=True))
    assert len(on_spark) == len(AGENTS) * (len(SITES) + 2)
    verdicts = {(row.site, row.agent): row.verdict for row in on_spark.itertuples(index=False)}
    assert verdicts["http://chain.test/robots.txt", "*"] == "blocked"  # the chain's captured target decides
    assert verdicts["http://away.test/robots.txt", "GPTBot"] == "unreachable"  # its target was never captured
    assert verdicts["http://nodns.test/robots.txt", "*"] == "unreachable"  # a failed fetch


def test_robotrules_audit_engine_spark_writes_the_local_table_and_the_report(spark: Any, warc: Path,  # noqa: F811
                                                                           tmp_path: Path) -> None:
    """``robotrules audit --engine spark`` from the command line (in process, on the running
    session): exit code 0, the very table the local engine writes for the same sites (pages of
    captured sites, a repeat, a site never captured, text that is no URL: in the order given),
    and the HTML report."""
    env = {**os.environ, "ROBOTRULES_CACHE": str(tmp_path / "cache.sqlite3"), "NO_COLOR": "1"}
    (tmp_path / "sites.txt").write_text("http://rules.test/a\nhttp://down.test/\nhttp://missing.test/x\n"
                                        "http://rules.test/b\nhttp://never.test/\nnot a url\nhttp://html.test/\n")
    common = ["audit", "--robots", str(warc), "--sites", "sites.txt", "-a", "GPTBot", "-a", "*"]

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return in_process([*common, *args], cwd=tmp_path, env=env, timeout=240)

    # An absolute output path: the running session's JVM resolves relative paths against its own
    # working directory, not this run's (a subprocess started its JVM in tmp_path).
    on_spark = run("--output", str(tmp_path / "spark.csv"), "--report", "report.html", "--engine", "spark")
    local = run("--output", "local.csv")
    assert on_spark.returncode == local.returncode == 0, on_spark.stderr[-2000:]
    assert "Traceback" not in on_spark.stderr
    assert on_spark.stdout.split(" -> ")[0] == local.stdout.split(" -> ")[0]  # "audited 6 sites for 2 crawlers: ..."
    written = (tmp_path / "spark.csv").read_text(encoding="utf-8")
    assert written == (tmp_path / "local.csv").read_text(encoding="utf-8")
    table = pandas.read_csv(tmp_path / "spark.csv", keep_default_na=False)
    assert list(table.columns) == list(AUDIT_COLUMNS)
    assert list(table["site"])[::2] == ["http://rules.test/robots.txt", "http://down.test/robots.txt",
                                        "http://missing.test/robots.txt", "http://never.test/robots.txt",
                                        "not a url", "http://html.test/robots.txt"]
    assert (tmp_path / "report.html").read_text(encoding="utf-8").count("<svg") == 5  # 2 of the purpose view


def test_spark_counts_a_site_whose_robots_txt_redirects_once_as_the_local_engine_does(spark: Any,
                                                                                      tmp_path: Path) -> None:
    """F3: a captured robots.txt that another's redirects end at is no site of its own on either
    engine (robotrules.batch.audit.sites.redirected_away); a redirect loop keeps both its sites."""
    from tests.batch.test_report_counts import _redirect_warc

    archive = _redirect_warc(tmp_path)
    local = audit.table(archive, ["GPTBot", "*"], processes=1)
    on_spark = audit.table([archive], ["GPTBot", "*"], engine="spark")
    assert sorted(set(on_spark.site)) == sorted(set(local.site)) == [
        "http://loop-a.test/robots.txt", "http://loop-b.test/robots.txt", "http://moved.test/robots.txt",
        "http://plain.test/robots.txt"]
    by_site = local.sort_values(["site", "agent"], kind="stable").reset_index(drop=True)
    pandas.testing.assert_frame_equal(on_spark.sort_values(["site", "agent"], kind="stable").reset_index(drop=True),
                                      by_site)
