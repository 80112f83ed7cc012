"""Smoke test: both benchmark scripts run end to end on a tiny input (no timing assertions)."""
from __future__ import annotations

import json

import pytest

from tests.bench._loader import load_bench, run_bench

pytestmark = pytest.mark.slow  # a benchmark's smoke run: seconds


def test_corpus_bench_runs_on_five_files_and_writes_json_and_markdown(tmp_path):
    corpus = load_bench("corpus_bench").default_corpus()
    if not (corpus / "robotfiles").is_dir():
        pytest.skip(f"corpus absent: {corpus}")
    out_json, out_md = tmp_path / "r.json", tmp_path / "r.md"
    done = run_bench("corpus_bench", "--corpus", str(corpus), "--limit", "5", "--repeat", "1", "--quiet",
                     "--json", str(out_json), "--markdown", str(out_md))
    report = json.loads(out_json.read_text())
    assert report["corpus"]["robotfiles"] == 5
    assert set(report["summary"]["targets"]) == {"parse", "check_median", "e2e", "memory"}
    assert "urllib" in report["results"]  # the stdlib peer is always there
    assert "| Metric |" in out_md.read_text()
    assert "Targets" in done.stdout


def test_pathological_bench_runs_tiny(tmp_path):
    out_json = tmp_path / "p.json"
    done = run_bench("pathological_bench", "--limit", "5", "--repeat", "1", "--quiet", "--json", str(out_json))
    data = json.loads(out_json.read_text())
    assert data["rules"] == 500 and data["url_length"] == 20
    assert "(a) Disallow:" in done.stdout


def test_classes_bench_runs_on_a_few_files_and_reports_each_class(tmp_path):
    corpus = load_bench("corpus_bench").default_corpus()
    if not (corpus / "robotfiles").is_dir():
        pytest.skip(f"corpus absent: {corpus}")
    pytest.importorskip("protego")
    out_json = tmp_path / "c.json"
    done = run_bench("classes_bench", "--corpus", str(corpus), "--limit", "40", "--repeat", "1", "--quiet",
                     "--json", str(out_json))
    rows = json.loads(out_json.read_text())["classes"]
    assert {row["class"] for row in rows} >= {"0-1 user-agent lines", "up to 4 KB"}
    assert sum(row["files"] for row in rows if "user-agent" in row["class"]) == 40
    assert all(row["parse_ratio"] > 0 for row in rows)
    assert "protego" in done.stdout


def test_check_instructions_workload_checks_the_usual_urls_as_documented():
    """The instruction benchmark's workload (run under valgrind by the script) decides its four
    URLs as its docstring says: two allowed, two disallowed by literal rules."""
    bench = load_bench("check_instructions")
    from robotrules import parse

    robots = parse(bench.BODY)
    assert [robots.allowed(url, bench.AGENT) for url in bench.URLS] == [True, False, False, True]
    assert [robots.check(url, bench.AGENT).line for url in bench.URLS] == [0, 4, 2, 0]
    bench.workload(40, counted=True)  # runs; what it costs is callgrind's to count


def test_check_instructions_corpus_workloads_count_every_link_and_every_file():
    """The --corpus and --parse workloads (run under valgrind by the script) decide every corpus
    link and parse every corpus file: what the per-check and per-parse figures divide by."""
    bench = load_bench("check_instructions")
    corpus = load_bench("corpus_bench").default_corpus()
    if not (corpus / "robotfiles").is_dir():
        pytest.skip(f"corpus absent: {corpus}")
    files = sum(1 for _ in (corpus / "robotfiles").iterdir())
    assert bench.corpus_workload("parse", counted=True) == files
    assert bench.corpus_workload("check", counted=False) > 0


def test_audit_bench_audits_real_files_through_the_command_and_reports_memory_and_bytes(tmp_path):
    """The audit benchmark writes real corpus files as captures, runs ``robotrules audit`` in a
    child process and reports its rows, bytes a row on disk and peak memory."""
    corpus = load_bench("corpus_bench").default_corpus()
    if not (corpus / "robotfiles").is_dir():
        pytest.skip(f"corpus absent: {corpus}")
    pytest.importorskip("warcio")
    pytest.importorskip("pyarrow")
    out_json, out_md = tmp_path / "a.json", tmp_path / "a.md"
    run_bench("audit_bench", "--captures", "12", "--corpus", str(corpus), "--workdir", str(tmp_path / "work"),
              "--json", str(out_json), "--markdown", str(out_md))
    (run,) = json.loads(out_json.read_text())["runs"]
    assert run["ok"] and run["captures"] == 12
    assert run["rows"] % 12 == 0 and run["rows"] > 12  # a row per site and crawler of the registry
    assert run["bytes_per_row"] > 0 and run["peak_rss_mib"] > 0
    assert "| working tree | 12 |" in out_md.read_text()
