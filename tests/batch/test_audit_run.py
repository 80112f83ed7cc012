"""``robotrules.batch.audit.run``: the whole audit command as one library call. The table it
streams to its output holds the rows ``table()`` gives, its summary counts them as a table's
counts do, in every output format, with and without the report; a deprecated ``audit()`` still
answers and says what replaces it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from robotrules.batch import audit
from robotrules.errors import SourceError
from tests.batch.usage_sites import AUDIT_AGENTS, opt_out_warc

pandas = pytest.importorskip("pandas", reason="the audit table needs pandas (robotrules[batch])")
pytest.importorskip("warcio", reason="reading WARC files needs warcio (robotrules[batch])")


def _plain(value: object) -> object:
    """One cell as plain data, whatever type the format kept: None when missing, booleans as
    "true" and "false" (CSV writes them so), numbers as floats, text as it is."""
    if value is None or value is pandas.NA or value == "" or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, bool) or str(value) in ("True", "False", "true", "false"):
        return str(value).lower()
    if isinstance(value, (int, float)):
        return float(value)
    return value


def _cells(frame: object) -> list[list[object]]:
    """A table's rows as plain values (:func:`_plain`)."""
    return [[_plain(value) for value in row] for row in frame.astype(object).itertuples(index=False)]  # type: ignore[attr-defined]


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_the_streamed_table_holds_the_rows_of_table(tmp_path: Path, suffix: str) -> None:
    """A1-A8: the rows written a chunk at a time are the audit's rows, in its order."""
    warc = opt_out_warc(tmp_path)
    output = tmp_path / f"audit{suffix}"
    summary = audit.run(output, [warc], agents=AUDIT_AGENTS)
    expected = audit.table(warc, AUDIT_AGENTS, processes=1)
    if suffix == ".parquet":
        written = pandas.read_parquet(output)
    elif suffix == ".csv":
        written = pandas.read_csv(output, keep_default_na=False)
    else:
        written = pandas.read_json(output, lines=True, dtype=False)
    assert list(written.columns) == list(audit.AUDIT_COLUMNS)
    assert len(written) == len(expected) == summary.rows
    assert _cells(written) == _cells(expected)


def test_the_summary_counts_what_a_whole_table_counts(tmp_path: Path) -> None:
    """Sites, crawlers, verdicts and the sites' opt-outs counted as rows pass equal the table's."""
    warc = opt_out_warc(tmp_path)
    summary = audit.run(tmp_path / "audit.parquet", [warc], agents=AUDIT_AGENTS)
    frame = audit.table(warc, AUDIT_AGENTS, processes=1)
    assert isinstance(summary, audit.AuditSummary)
    assert summary.sites == frame["site"].nunique() and summary.agents == frame["agent"].nunique()
    assert summary.verdicts == dict(Counter(frame["verdict"]).most_common())
    assert summary.training_opt_out == audit.opt_out_counts(frame)
    assert json.loads(json.dumps(summary.to_dict()))["rows"] == len(frame)
    assert str(summary).startswith(f"audited {summary.sites} sites for {summary.agents} crawlers: ")


def test_the_report_is_made_from_the_same_rows(tmp_path: Path) -> None:
    """With a report, the table is still streamed to its file, and the page is written beside it."""
    warc = opt_out_warc(tmp_path)
    summary = audit.run(tmp_path / "audit.csv", [warc], agents=AUDIT_AGENTS, report_path=tmp_path / "audit.html")
    assert summary.report == str(tmp_path / "audit.html")
    assert "Opted out of AI training" in (tmp_path / "audit.html").read_text(encoding="utf-8")
    assert len(pandas.read_csv(tmp_path / "audit.csv")) == summary.rows


def test_a_source_without_captures_fails_before_any_file_is_written(tmp_path: Path) -> None:
    """An unknown output format, a report that is no HTML file, a capture file of no known kind."""
    warc = opt_out_warc(tmp_path)
    with pytest.raises(SourceError, match="cannot tell the output format"):
        audit.run(tmp_path / "audit.xlsx", [warc])
    with pytest.raises(SourceError, match="the report is an HTML file"):
        audit.run(tmp_path / "audit.csv", [warc], report_path=tmp_path / "report.pdf")
    (tmp_path / "captures.zip").write_bytes(b"PK")
    with pytest.raises(SourceError, match=r"not a robots\.txt source"):
        audit.run(tmp_path / "audit.csv", [tmp_path / "captures.zip"])
    assert not (tmp_path / "audit.csv").exists()


def test_the_old_name_still_answers_and_says_what_replaces_it(tmp_path: Path) -> None:
    warc = opt_out_warc(tmp_path)
    with pytest.warns(DeprecationWarning, match=r"use robotrules\.batch\.audit\.table\(\)"):
        old = audit.audit(warc, AUDIT_AGENTS, processes=1)
    assert old.equals(audit.table(warc, AUDIT_AGENTS, processes=1))
