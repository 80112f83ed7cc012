"""Smoke test: the archive benchmark (issue #20, section 4) runs end to end on a tiny archive (no timing assertions)."""
from __future__ import annotations

import json

import pytest

from tests.bench._loader import load_bench

pytestmark = pytest.mark.slow  # a benchmark's smoke run: seconds


def test_archive_bench_quick_reads_with_every_reader_and_audits(tmp_path, capsys):
    """Every reading job counts the same captures as were written; the audit rows are sites x agents."""
    ab = load_bench("archive_bench")
    corpus = ab.default_corpus()
    if not (corpus / "robotfiles").is_dir():
        pytest.skip(f"corpus absent: {corpus}")
    out_json, out_md = tmp_path / "a.json", tmp_path / "a.md"
    assert ab.main(["--quick", "--captures", "120", "--audit-captures", "20", "--agents", "googlebot,*", "--quiet",
                    "--json", str(out_json), "--markdown", str(out_md)]) == 0
    report = json.loads(out_json.read_text())
    captures = report["meta"]["captures"]
    assert captures >= 120 and report["meta"]["records"] > captures
    reading = [r for r in report["results"] if not r["name"].startswith("audit")]
    assert {r["name"] for r in reading} >= {"read, warcio stream", "read, fast path"}
    assert all(r["counted"] == captures for r in reading), reading
    audits = [r for r in report["results"] if r["name"].startswith("audit")]
    assert len(audits) == 2 and audits[0]["counted"] == audits[1]["counted"] > 0
    assert "read_rate" in report["summary"] and "| Job |" in out_md.read_text()
    assert "captures/s per core" in capsys.readouterr().out
