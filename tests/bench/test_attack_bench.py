"""Smoke tests of the service attack benchmark (issues #16-H1 and #33): tiny runs end to end, no figures judged."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.bench._loader import load_bench

pytestmark = pytest.mark.slow  # a benchmark's smoke run: seconds

pytest.importorskip("uvicorn")
pytest.importorskip("fastapi")


def test_attack_bench_quick_run_measures_and_cleans_up(tmp_path: Path) -> None:
    """The bench starts the service, attacks it, measures the steady client, writes its reports and
    leaves no process behind."""
    bench = load_bench("service_attack_bench")
    out_json, out_md = tmp_path / "a.json", tmp_path / "a.md"
    code = bench.main(["--quick", "--no-baseline", "--scenarios", "refused", "--quiet",
                       "--json", str(out_json), "--markdown", str(out_md)])
    assert code == 0
    report = json.loads(out_json.read_text())
    run = report["runs"][0]
    assert run["attack"]["sent"] > 0 and run["steady"]["healthz"]["before"]["requests"] > 0
    assert len(run["goals"]) == 4
    assert "## The service under attack" in out_md.read_text()
    left = subprocess.run(["pgrep", "-f", "service_attack_bench.py _worker"], check=False, capture_output=True,
                          text=True)
    assert left.stdout == ""


def test_attack_bench_drafts_and_preferences_quick_run(tmp_path: Path) -> None:
    """The scenarios of issue #33 run end to end on tiny inputs: hostile drafts (some clients hanging
    up) beside an honest draft client, and checks of a cached robots.txt full of Content-Usage lines;
    the report has their figures and goals (none judged here) and no process is left behind."""
    bench = load_bench("service_attack_bench")
    out_json, out_md = tmp_path / "a.json", tmp_path / "a.md"
    code = bench.main(["--quick", "--no-baseline", "--scenarios", "drafts,preferences", "--quiet",
                       "--edit-lines", "50", "--diff-lines", "60", "--preference-lines", "100",
                       "--preference-agents", "3", "--json", str(out_json), "--markdown", str(out_md)])
    assert code == 0
    report = json.loads(out_json.read_text())
    drafts, preferences = report["runs"]
    assert (drafts["scenario"], preferences["scenario"]) == ("drafts", "preferences")
    assert drafts["kinds"] == ["healthz", "check", "draft"] and preferences["kinds"] == ["healthz", "check"]
    assert drafts["steady"]["draft"]["before"]["requests"] > 0 and drafts["steady"]["draft"]["during"]["requests"] > 0
    assert set(drafts["goals"]) == {"healthz_p99", "draft_p99", "cpu_after", "attack_answered"}
    assert set(preferences["goals"]) == {"healthz_p99", "check_p99", "cpu_after", "attack_answered"}
    for run in report["runs"]:
        attack = run["attack"]
        assert attack["sent"] > 0 and attack["largest_answer_bytes"] > 0
        assert {"hung_up", "hangup_clients", "timeouts"} <= set(attack)
        assert {"cpu_s_after_attack", "cpu_s_after_attack_excess", "peak_rss"} <= set(run["service"])
    assert drafts["attack"]["hangup_clients"] == 1 and preferences["attack"]["hangup_clients"] == 0
    assert any(w.get("hostile") and w["status"] == 200 for w in preferences["warm_up"])
    text = out_md.read_text()
    assert "### Goals (issue #33)" in text and "honest draft" in text
    left = subprocess.run(["pgrep", "-f", "service_attack_bench.py _worker"], check=False, capture_output=True,
                          text=True)
    assert left.stdout == ""
