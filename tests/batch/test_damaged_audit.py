"""``robotrules audit`` on a damaged archive: an error, or with --skip-bad-records a count (issue #16-M5).

A .warc.gz cut in half used to drop the sites it lost from the audit, with exit 0. Now it is one
line naming the file and the byte (exit 2); with ``--skip-bad-records`` the rest is audited and
the damaged records are counted in the summary and in the report.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from robotrules.batch import DamagedArchive, audit
from robotrules.batch.inputs import skipped_of
from tests.batch.warcs import Record, write
from tests.cli.harness import in_process

pytest.importorskip("pandas", reason="the audit table needs pandas (robotrules[batch])")

def robotrules(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ROBOTRULES_CACHE": str(cwd / "cache.sqlite3"), "NO_COLOR": "1"}
    return in_process(args, cwd=cwd, env=env, timeout=120)


@pytest.fixture
def half(tmp_path: Path) -> tuple[Path, int]:
    """Eight sites' captures in a .warc.gz cut inside the sixth record; where that record starts."""
    whole = tmp_path / "whole.warc.gz"
    offsets = write(whole, [Record.of(f"http://s{n}.test/robots.txt", b"User-agent: GPTBot\nDisallow: /\n" * 30)
                            for n in range(8)])
    path = tmp_path / "half.warc.gz"
    path.write_bytes(whole.read_bytes()[: (offsets[5] + offsets[6]) // 2])
    return path, offsets[5]


def test_audit_of_a_cut_archive_is_one_line_naming_the_file_and_the_byte(tmp_path: Path,
                                                                        half: tuple[Path, int]) -> None:
    """#16-M5: exit 2, one ``robotrules: error:`` line, no traceback, no table, no report."""
    path, offset = half
    done = robotrules("audit", "--robots", str(path), "-a", "GPTBot", "--output", "out.csv", "--report", "r.html",
                      cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"robotrules: error: {path}: damaged at byte {offset}: ")
    assert not (tmp_path / "out.csv").exists() and not (tmp_path / "r.html").exists()


def test_skip_bad_records_audits_the_rest_and_counts_them_in_the_summary_and_the_report(
        tmp_path: Path, half: tuple[Path, int]) -> None:
    """#16-M5: with --skip-bad-records the five whole sites are audited; the summary line, the JSON
    summary and the report count the damaged record and say where it is."""
    path, offset = half
    done = robotrules("audit", "--robots", str(path), "-a", "GPTBot", "--output", "out.csv", "--report", "r.html",
                      "--skip-bad-records", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    summary = f"audited 5 sites for 1 crawler: 5 blocked; 1 damaged record of the archives skipped ({path} at byte {offset})"
    assert summary in done.stdout
    report = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "1 damaged record of the archives skipped" in report and 'id="damaged"' in report
    assert f"<td class=\"num\">{offset}</td>" in report
    as_json = robotrules("audit", "--robots", str(path), "-a", "GPTBot", "--output", "out.jsonl",
                         "--skip-bad-records", "--json", cwd=tmp_path)
    summary = json.loads(as_json.stdout)
    assert summary["bad_records"] == 1 and summary["skipped"][0]["offset"] == offset


def test_the_audit_library_raises_or_notes_the_damaged_records(half: tuple[Path, int]) -> None:
    """#16-M5: audit.table() raises DamagedArchive; with skip_bad_records the table notes them in its attrs,
    which survive a Parquet round trip."""
    path, offset = half
    with pytest.raises(DamagedArchive) as raised:
        audit.table(str(path), ["GPTBot"])
    assert raised.value.offset == offset
    frame = audit.table(str(path), ["GPTBot"], skip_bad_records=True)
    assert len(frame) == 5
    assert [(bad.path, bad.offset) for bad in skipped_of(frame)] == [(str(path), offset)]
    frame.to_parquet(path.with_suffix(".parquet"))


def test_skip_bad_records_needs_archives(tmp_path: Path) -> None:
    """--skip-bad-records is about the --robots archives: with live sites it is a usage error."""
    (tmp_path / "sites.txt").write_text("example.com\n")
    done = robotrules("audit", "--sites", "sites.txt", "--output", "o.csv", "--skip-bad-records", cwd=tmp_path)
    assert done.returncode == 2 and "--skip-bad-records is for the archives of --robots" in done.stderr
