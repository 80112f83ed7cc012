"""Smoke test: the limits benchmark (memory with maximum-size files, a stalled store) runs end to
end on tiny inputs and writes its figures (no timing assertions)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.bench._loader import run_bench
from tests.needs import unavailable

pytestmark = pytest.mark.slow  # a benchmark's smoke run: seconds


def test_limits_bench_rss_runs_on_a_few_files_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "rss.json"
    run_bench("limits_bench", "rss", "--files", "3", "--json", str(out))
    assert json.loads(out.read_text())


def test_limits_bench_budget_runs_on_a_few_files_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "budget.json"
    run_bench("limits_bench", "budget", "--files", "3", "--budget-mib", "1", "--shapes", "blank,sitemaps", "--json", str(out))
    report = json.loads(out.read_text())
    assert len(report["rows"]) == 3 and report["max_charged"] <= report["budget"]


def test_limits_bench_stalled_store_runs_a_few_checks(tmp_path: Path) -> None:
    if shutil.which("redis-server") is None:
        unavailable("no redis-server on PATH to start and stop (SIGSTOP) a private Redis")
    out = tmp_path / "stalled.json"
    run_bench("limits_bench", "stalled-store", "--checks", "3", "--json", str(out))
    assert json.loads(out.read_text())
