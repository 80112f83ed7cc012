"""Smoke test: bench/batch_bench.py runs end to end on a few sites (no timing assertions)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bench._loader import load_bench

pytestmark = pytest.mark.slow


def test_batch_bench_quick_run_writes_every_job_and_both_ratios(tmp_path: Path) -> None:
    """Issue #11 benchmark: local engine, protego and the bare loop on the same rows, both ratios reported."""
    pytest.importorskip("warcio")
    bench = load_bench("batch_bench")
    corpus = bench.default_corpus()
    if not (corpus / "robotfiles").is_dir():
        pytest.skip(f"corpus absent: {corpus}")
    out = tmp_path / "r.json"
    assert bench.main(["--quick", "--rows", "4000", "--peer-rows", "2000", "--limit", "40", "--no-spark",
                       "--processes", "1", "--quiet", "--json", str(out), "--markdown", str(tmp_path / "r.md")]) == 0
    data = json.loads(out.read_text())
    names = {r["name"] for r in data["results"]}
    assert {"local, 1 process", "bare check loop"} <= names
    assert all(r["rows"] > 0 for r in data["results"])
    assert "overhead_vs_bare" in data["summary"]
    assert "| Job |" in (tmp_path / "r.md").read_text()
