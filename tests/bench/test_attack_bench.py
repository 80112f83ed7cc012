"""Smoke test of the service attack benchmark (issue #16-H1): a tiny run end to end, no figures judged."""

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
