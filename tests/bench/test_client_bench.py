"""Smoke test: the client benchmark runs end to end on a tiny input (no timing assertions)."""
from __future__ import annotations

import json

import pytest

import robotrules
from tests.bench._loader import load_bench, run_bench

pytestmark = pytest.mark.slow  # a benchmark's smoke run: seconds


def test_client_bench_quick_writes_every_stores_figures(tmp_path):
    corpus = load_bench("corpus_bench").default_corpus()
    if not (corpus / "robotfiles").is_dir():
        pytest.skip(f"corpus absent: {corpus}")
    done = run_bench("client_bench", "--quick", "--quiet", "--out", str(tmp_path))
    build = "compiled" if robotrules.core.COMPILED else "pure"
    report = json.loads((tmp_path / f"client-{build}.json").read_text())
    assert (tmp_path / f"client-{build}.md").read_text().startswith("### robotrules fetch-and-cache client benchmark")
    assert set(report["stores"]) == {"memory", "sqlite", "redis"}
    for name, res in report["stores"].items():
        if name == "redis" and res["status"].startswith("skipped"):
            continue  # no Redis on 127.0.0.1:6379: reported, not failed
        assert res["status"] == "ok", (name, res["status"])
        for figure in ("warm", "no_cache", "small_cache"):
            assert res[figure]["decisions_per_s"] > 0, (name, figure)
        for figure in ("miss_fetch", "miss_store"):
            assert res[figure]["median_ns"] > 0 and res[figure]["p90_ns"] >= res[figure]["median_ns"], (name, figure)
        assert all(report["ratios"][name][peer] > 0 for peer in report["peers"])
        assert "overhead_ns_per_decision" in report["ratios"][name]
    assert {"robotrules_dict", "urllib"} <= set(report["peers"])
    # every client agreed with parse(); no fetch during a cached figure (an absent optional peer,
    # protego from the bench extra, is only reported)
    assert [p for p in report["problems"] if not p.endswith("not installed; skipped")] == []
    assert "| Figure |" in done.stdout
