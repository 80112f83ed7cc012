"""The audit report says what its numbers count, counts a site whose robots.txt redirects to
another host once, and gives the operator and purpose of every crawler it lists (issue #19-12)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest

from robotrules.batch import audit
from robotrules.batch.audit import archive_sites
from robotrules.batch.audit.report import render_report
from robotrules.batch.audit.report.page import NOT_IN_REGISTRY
from robotrules.batch.captures import archive_of
from tests.batch.conftest import write_answers_warc
from tests.cli.conftest import cli_env, console_script

__all__ = ["cli_env", "console_script"]

pytest.importorskip("pandas", reason="the audit table needs pandas (robotrules[batch])")
pytest.importorskip("matplotlib", reason="the report's plots need matplotlib (robotrules[audit])")

PLAIN = (200, {"content-type": "text/plain"}, b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n")


def _redirect_warc(tmp_path: Path) -> Path:
    """Two sites: ``moved.test`` whose robots.txt redirects to ``www.moved.test`` (captured too, as
    a crawler that followed the redirect holds it), and ``plain.test``; plus a redirect loop."""
    answers: Mapping[str, tuple[int, Mapping[str, str], bytes] | str] = {
        "http://www.moved.test/robots.txt": PLAIN,  # the target first: the order of the archive does not matter
        "http://moved.test/robots.txt": (301, {"location": "http://www.moved.test/robots.txt"}, b""),
        "http://plain.test/robots.txt": PLAIN,
        "http://loop-a.test/robots.txt": (301, {"location": "http://loop-b.test/robots.txt"}, b""),
        "http://loop-b.test/robots.txt": (301, {"location": "http://loop-a.test/robots.txt"}, b""),
    }
    return write_answers_warc(tmp_path / "moved.warc.gz", answers)


def test_a_redirect_target_is_not_one_more_site(tmp_path: Path) -> None:
    """F3: the target of a captured robots.txt redirect is where that site's file was read, not a
    site of its own; the redirecting site gets the target's rules; a redirect loop keeps its sites."""
    archive = archive_of(str(_redirect_warc(tmp_path)))
    assert list(archive_sites(archive)) == ["http://moved.test/robots.txt", "http://plain.test/robots.txt",
                                            "http://loop-a.test/robots.txt", "http://loop-b.test/robots.txt"]
    frame = audit.table(archive, ["GPTBot", "*"])
    assert "http://www.moved.test/robots.txt" not in set(frame.site)
    moved = frame[frame.site == "http://moved.test/robots.txt"].set_index("agent")
    assert moved.loc["GPTBot", "verdict"] == "blocked" and moved.loc["*", "verdict"] == "partly"
    page = render_report(frame)
    assert "4 sites (each robots.txt once" in page and "8 site \u00d7 crawler pairs" in page


def test_every_heading_caption_and_legend_says_what_it_counts(tmp_path: Path) -> None:
    """Each heading, table caption and plot legend over numbers names its unit: sites, or site x
    crawler pairs."""
    frame = audit.table(archive_of(str(_redirect_warc(tmp_path))), ["GPTBot", "Googlebot", "*"])
    page = render_report(frame)
    titles = re.findall(r"<h[23][^>]*>(.*?)</h[23]>|<caption>(.*?)</caption>", page)
    assert len(titles) > 8
    for heading, caption in titles:
        text = heading or caption
        if text == "What the verdicts mean":  # a glossary: no numbers
            continue
        assert re.search(r"\bsites?\b|site \u00d7 crawler pairs", text), text
    assert '<h2 id="totals">All verdicts (site \u00d7 crawler pairs)</h2>' in page
    legends = re.findall(r"Each bar: the sites, by verdict", page)
    assert len(legends) == 2  # the plot of crawlers and the plot of purposes
    head = re.search(r'<table id="crawlers">.*?</thead>', page, re.S)
    assert head is not None and "Blocked entirely or partly (share of sites)" in head.group()


def test_every_crawler_listed_has_an_operator_and_a_purpose(tmp_path: Path) -> None:
    """A8: the registry's operator and purpose for known crawlers; a crawler the registry lacks is
    said to be not in it; '*' is any crawler no group names."""
    frame = audit.table(archive_of(str(_redirect_warc(tmp_path))), ["GPTBot", "MadeUpBot", "*"])
    page = render_report(frame)
    table = re.search(r'<table id="crawlers">.*?</table>', page, re.S)
    assert table is not None
    rows = {re.match(r"<td[^>]*>([^<]*)", row).group(1): row  # type: ignore[union-attr]
            for row in re.findall(r"<tr>(.*?)</tr>", table.group()) if row.startswith("<td")}
    assert set(rows) == {"GPTBot", "MadeUpBot", "*"}
    assert "OpenAI" in rows["GPTBot"]
    assert rows["MadeUpBot"].count(NOT_IN_REGISTRY) == 2  # operator and purpose
    assert "any operator" in rows["*"] and "Any crawler not named in the file" in rows["*"]
    sections = re.findall(r"<details><summary>([^<]*): blocked entirely on", page)
    assert sections and all(" (" in summary for summary in sections)
    assert f"MadeUpBot ({NOT_IN_REGISTRY}: unknown: {NOT_IN_REGISTRY})" in sections


def test_the_command_line_report_counts_a_redirected_site_once(console_script, tmp_path: Path) -> None:
    """``robotrules audit --robots``: the table and the report count the redirecting site once."""
    import pandas  # type: ignore[import-untyped]

    warc = _redirect_warc(tmp_path)
    done = console_script("audit", "--robots", str(warc), "-a", "GPTBot", "-a", "*", "--output", "out.csv",
                          "--report", "report.html", timeout=120)
    assert done.returncode == 0, done.stderr
    assert "audited 4 sites for 2 crawlers" in done.stdout
    assert set(pandas.read_csv(tmp_path / "out.csv").site) == {
        f"http://{name}.test/robots.txt" for name in ("moved", "plain", "loop-a", "loop-b")}
    assert "4 sites (each robots.txt once" in (tmp_path / "report.html").read_text(encoding="utf-8")
