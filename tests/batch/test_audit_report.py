"""The audit report: one self-contained HTML file, opened in real headless Chromium (Debian's).

The browser is ``/usr/bin/chromium`` launched by Playwright (never a downloaded one); the test
saves a screenshot, checks that the plots and tables rendered, and that the page asked for nothing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from robotrules.batch import audit
from robotrules.batch.audit.report import render_report, write_report
from robotrules.batch.captures import archive_of
from tests.batch.conftest import SITES

pytest.importorskip("pandas", reason="the audit table needs pandas (robotrules[batch])")
pytest.importorskip("matplotlib", reason="the report's plots need matplotlib (robotrules[audit])")

REQUIREMENT_ID = r"\b[SFCPGRNL][0-9]{1,2}\b"


@pytest.fixture
def report(warc: Path, tmp_path: Path) -> Path:
    frame = audit.table(archive_of(str(warc)), ["GPTBot", "CCBot", "Googlebot", "*"],
                  sites=[f"http://{name}.test/" for name in SITES] + ["http://nodns.test/", "http://never.test/"])
    path = tmp_path / "report.html"
    write_report(frame, path, title="Audit of the test sites")
    return path


def test_the_report_is_self_contained_and_plain(report: Path) -> None:
    """Inline CSS and SVG only: no script, no link, no external URL but the sites' own; no requirement ids."""
    text = report.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>") and text.count("<svg") == 5
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
    """The page opens in Chromium from a file: five plots drawn (two of them the purpose view), the
    tables filled, a screenshot saved, and no request made but the page itself."""
    with opened(report) as seen:
        page = seen.page
        page.locator("details").first.evaluate("element => element.open = true")
        plots = page.locator("figure svg")
        assert plots.count() == 5
        for index in range(5):
            box = plots.nth(index).bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 100
        assert page.locator("figure svg path").count() > 10  # bars and axes were drawn
        summary = page.locator("#crawlers")
        assert summary.locator("tbody tr:has(td)").count() == 4
        assert summary.locator("tbody th").all_inner_texts() == ["AI training: 2 crawlers", "Search: 1 crawler",
                                                                 "'*' and agents not in the registry"]
        assert "GPTBot" in summary.inner_text() and "OpenAI" in summary.inner_text()
        first_agent = page.locator("details").first.locator("tbody tr")
        assert first_agent.count() == len(SITES) + 2
        assert page.get_by_role("heading", name="Who is blocked").is_visible()
        shot = tmp_path / "report.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 20_000
    assert seen.requests == [report.as_uri()], seen.requests
    assert seen.errors == []


def test_a_wide_audit_groups_crawlers_by_purpose_and_collapses_those_treated_as_star(warc: Path) -> None:
    """A8: the whole registry (here 60 crawlers of several purposes) stays readable: the crawlers
    no file treats otherwise than '*' are one collapsed line per purpose and have no section of
    their own; the plot of crawlers shows only those that differ; every crawler is still named."""
    from robotrules.batch.audit.report.page import WIDE
    from robotrules.crawlers import Crawler

    kinds = ["ai-training", "ai-search", "search", "other"]
    registry = tuple(Crawler(f"Tail{chr(65 + n // 26)}{chr(97 + n % 26)}bot", "Op", "p", kinds[n % 4],
                             "https://x.test/") for n in range(56))
    registry += tuple(Crawler(token, "Op", "p", "ai-training", "https://x.test/") for token in ("GPTBot", "CCBot"))
    registry += (Crawler("Googlebot", "Google", "p", "search", "https://x.test/"),)
    frame = audit.table(archive_of(str(warc)), registry=registry)
    assert frame["agent"].nunique() == len(registry) + 1 > WIDE
    page = render_report(frame)
    assert page.count("<svg") == 5
    sections = re.findall(r"<details><summary>([^<(]*) \([^<]*\): blocked entirely on", page)
    assert sections == ["GPTBot", "CCBot", "*"]  # Googlebot and the tail are '*' on every site of the archive
    collapsed = re.findall(r"<summary>(\d+) (?:other )?crawlers? of this purpose, treated as '\*'", page)
    assert sum(map(int, collapsed)) == 57 and len(collapsed) == 4
    for crawler in registry:
        assert crawler.name in page
    share = re.search(r'<h2 id="share">.*?</figure>', page, re.S)
    assert share is not None and "Tailaabot" not in share.group() and ">GPTBot<" in share.group()
