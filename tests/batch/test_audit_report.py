"""The audit report: one self-contained HTML file, opened in real headless Chromium (Debian's).

The browser is ``/usr/bin/chromium`` launched by Playwright (never a downloaded one); the test
saves a screenshot, checks that the plots and tables rendered, and that the page asked for nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from robotrules.batch.archives import archive_of
from robotrules.batch.audit import audit
from robotrules.batch.report import render_report, write_report
from tests.batch.conftest import SITES

pytest.importorskip("pandas", reason="the audit table needs pandas (robotrules[batch])")
pytest.importorskip("matplotlib", reason="the report's plots need matplotlib (robotrules[audit])")

REQUIREMENT_ID = r"\b[SFCPGRNL][0-9]{1,2}\b"


@pytest.fixture
def report(warc: Path, tmp_path: Path) -> Path:
    frame = audit(archive_of(str(warc)), ["GPTBot", "CCBot", "Googlebot", "*"],
                  sites=[f"http://{name}.test/" for name in SITES] + ["http://nodns.test/", "http://never.test/"])
    path = tmp_path / "report.html"
    write_report(frame, path, title="Audit of the test sites")
    return path


def test_the_report_is_self_contained_and_plain(report: Path) -> None:
    """Inline CSS and SVG only: no script, no link, no external URL but the sites' own; no requirement ids."""
    import re

    text = report.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.count("<svg") == 3
    assert "<script" not in text and "<link" not in text and "src=" not in text
    assert "default-src 'none'" in text
    visible = re.sub(r"<svg.*?</svg>|<style>.*?</style>|<[^>]+>", " ", text, flags=re.S)
    assert not re.search(REQUIREMENT_ID, visible)
    for words in ("Blocked entirely", "Blocked partly", "No robots.txt", "Unreachable", "Disallow: /private/"):
        assert words in visible or words.lower() in visible.lower(), words


def test_a_table_that_is_not_an_audit_is_a_clear_error() -> None:
    """A table without the audit's columns is a ValueError naming them, not a crash in the plots."""
    import pandas  # type: ignore[import-untyped]

    with pytest.raises(ValueError, match=r"lacks the columns? .*verdict"):
        render_report(pandas.DataFrame({"site": ["x"], "agent": ["*"]}))


@pytest.mark.browser
def test_the_report_renders_in_headless_chromium_without_any_request(report: Path, tmp_path: Path, opened: Any) -> None:
    """The page opens in Chromium from a file: three plots drawn, the tables filled, a screenshot saved,
    and no request made but the page itself."""
    with opened(report) as seen:
        page = seen.page
        page.locator("details").first.evaluate("element => element.open = true")
        plots = page.locator("figure svg")
        assert plots.count() == 3
        for index in range(3):
            box = plots.nth(index).bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 100
        assert page.locator("figure svg path").count() > 10  # bars and axes were drawn
        summary = page.locator("table").first
        assert summary.locator("tbody tr").count() == 4
        assert "GPTBot" in summary.inner_text() and "OpenAI" in summary.inner_text()
        first_agent = page.locator("details").first.locator("tbody tr")
        assert first_agent.count() == len(SITES) + 2
        assert page.get_by_role("heading", name="Who is blocked").is_visible()
        shot = tmp_path / "report.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 20_000
    assert seen.requests == [report.as_uri()], seen.requests
    assert seen.errors == []
