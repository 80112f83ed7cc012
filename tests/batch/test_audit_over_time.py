"""Opt-outs over time (issue #20, section 2): one audit per crawl, combined into trends and changes.

Three crawls of the same sites written as WARC files with the suite's helper
(:func:`tests.batch.conftest.write_answers_warc`): between the first two, one site starts blocking
GPTBot, one stops, one goes from partly to entirely (an ``Allow`` line removed: only the group's
lines show it), one is missing from the second crawl, one adds ``train-ai=n``; in the third, the
missing site is back and another's robots.txt answers 503. The trends and changes tables are
pinned exactly; the report shows them in Chromium; the command line writes all three tables.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from robotrules.batch import audit
from robotrules.batch.audit import AUDIT_COLUMNS, audit_over_time, changes, trends
from robotrules.batch.audit.over_time import CHANGE_COLUMNS, CHANGES, TREND_COLUMNS, labelled
from tests.batch.conftest import write_answers_warc

pandas = pytest.importorskip("pandas", reason="the audit table needs pandas (robotrules[batch])")
pytest.importorskip("warcio", reason="reading WARC files needs warcio (robotrules[batch])")

AGENTS = ["GPTBot", "CCBot", "Googlebot", "*"]
LABELS = ["CC-MAIN-2024-10", "CC-MAIN-2024-22", "CC-MAIN-2024-33"]

OPEN = b"User-agent: *\nAllow: /\n"
GPT_OUT = b"User-agent: GPTBot\nDisallow: /\n"
CRAWLS: list[dict[str, tuple[int, dict[str, str], bytes]]] = [
    {  # CC-MAIN-2024-10
        "starts": (200, {}, OPEN),
        "stops": (200, {}, GPT_OUT),
        "tightens": (200, {}, b"User-agent: GPTBot\nDisallow: /\nAllow: /public/\n"),
        "vanishes": (200, {}, GPT_OUT),
        "prefers": (200, {}, OPEN),
        "steady": (200, {}, b"User-agent: *\nDisallow: /tmp/\n"),
    },
    {  # CC-MAIN-2024-22
        "starts": (200, {}, GPT_OUT + b"\n" + OPEN),
        "stops": (200, {}, b"User-agent: *\nDisallow:\n"),
        "tightens": (200, {}, GPT_OUT),
        "prefers": (200, {}, OPEN + b"Content-Usage: train-ai=n\n"),
        "steady": (200, {}, b"User-agent: *\nDisallow: /tmp/\n"),
    },
    {  # CC-MAIN-2024-33
        "starts": (200, {}, GPT_OUT + b"\n" + OPEN),
        "stops": (200, {}, b"User-agent: *\nDisallow:\n"),
        "tightens": (503, {}, b"busy"),
        "vanishes": (200, {}, GPT_OUT),
        "prefers": (200, {}, OPEN + b"Content-Usage: train-ai=n\n"),
        "steady": (200, {}, b"User-agent: *\nDisallow: /tmp/\n"),
    },
]


def url(name: str) -> str:
    return f"http://{name}.test/robots.txt"


def crawl_warcs(folder: Path, count: int = 2) -> dict[str, Path]:
    """The first ``count`` crawls, each a gzipped WARC, by label."""
    return {label: write_answers_warc(folder / f"{label}.warc.gz", {url(name): answer for name, answer in sites.items()})
            for label, sites in zip(LABELS[:count], CRAWLS[:count], strict=True)}


def _rows(frame: Any) -> list[tuple[Any, ...]]:
    return [tuple(row) for row in frame.itertuples(index=False)]


A, B, C = LABELS


def _change(name: str, agent: str, kind: str, pair: tuple[str, str], change: str, train_ai: str,
            verdicts: tuple[str, str], rules: tuple[str, str], lines: tuple[str, str]) -> tuple[Any, ...]:
    return (url(name), agent, kind, *pair, change, train_ai, *verdicts, *rules, *lines)


GONE = ("Disallow: /", "")
TWO_CRAWL_CHANGES = [
    *(_change("prefers", agent, kind, (A, B), "", "started train-ai=n", ("allowed", "allowed"), ("", ""), ("", ""))
      for agent, kind in (("GPTBot", "ai-training"), ("CCBot", "ai-training"), ("Googlebot", "search"), ("*", ""))),
    _change("starts", "GPTBot", "ai-training", (A, B), "started blocking entirely", "", ("allowed", "blocked"),
            ("", "Disallow: /"), ("Allow: /", "Disallow: /")),
    _change("stops", "GPTBot", "ai-training", (A, B), "stopped blocking", "", ("blocked", "allowed"), GONE,
            ("Disallow: /", "Disallow:")),
    _change("tightens", "GPTBot", "ai-training", (A, B), "partly to entirely", "", ("partly", "blocked"),
            ("Disallow: /", "Disallow: /"), ("Allow: /public/", "")),
    _change("vanishes", "GPTBot", "ai-training", (A, B), "not captured", "", ("blocked", "not captured"), GONE,
            ("", "")),
]
THIRD_CRAWL_CHANGES = [
    _change("tightens", "GPTBot", "ai-training", (B, C), "unreadable", "", ("blocked", "unreachable"), GONE,
            ("", "")),
    _change("vanishes", "GPTBot", "ai-training", (B, C), "captured again", "", ("not captured", "blocked"),
            ("", "Disallow: /"), ("", "")),
]
TWO_CRAWL_TRENDS = [
    (A, "crawler", "GPTBot", "ai-training", 6, 2, 2, 2 / 6, 2 / 6, 3, 0, 0),
    (A, "crawler", "CCBot", "ai-training", 6, 0, 1, 0.0, 1 / 6, 0, 0, 0),
    (A, "crawler", "Googlebot", "search", 6, 0, 1, 0.0, 1 / 6, 0, 0, 0),
    (A, "crawler", "*", "", 6, 0, 1, 0.0, 1 / 6, 0, 0, 0),
    (A, "purpose", "", "ai-training", 6, 0, 4, 0.0, 4 / 6, 3, 0, 0),
    (A, "purpose", "", "search", 6, 0, 1, 0.0, 1 / 6, 0, 0, 0),
    (B, "crawler", "GPTBot", "ai-training", 5, 2, 1, 0.4, 0.2, 2, 1, 0),
    (B, "crawler", "CCBot", "ai-training", 5, 0, 1, 0.0, 0.2, 0, 1, 0),
    (B, "crawler", "Googlebot", "search", 5, 0, 1, 0.0, 0.2, 0, 0, 0),
    (B, "crawler", "*", "", 5, 0, 1, 0.0, 0.2, 0, 0, 0),
    (B, "purpose", "", "ai-training", 5, 0, 3, 0.0, 0.6, 2, 1, 0),
    (B, "purpose", "", "search", 5, 0, 1, 0.0, 0.2, 0, 0, 0),
]
THIRD_CRAWL_TRENDS = [
    (C, "crawler", "GPTBot", "ai-training", 6, 2, 1, 2 / 6, 1 / 6, 2, 1, 0),
    (C, "crawler", "CCBot", "ai-training", 6, 0, 1, 0.0, 1 / 6, 0, 1, 0),
    (C, "crawler", "Googlebot", "search", 6, 0, 1, 0.0, 1 / 6, 0, 0, 0),
    (C, "crawler", "*", "", 6, 0, 1, 0.0, 1 / 6, 0, 0, 0),
    (C, "purpose", "", "ai-training", 6, 0, 3, 0.0, 0.5, 2, 1, 0),
    (C, "purpose", "", "search", 6, 0, 1, 0.0, 1 / 6, 0, 0, 0),
]


def test_each_audit_row_holds_the_rule_lines_of_the_groups_its_crawler_obeys() -> None:
    """G1-G3, R1: ``group_rules`` is every allow and disallow line of the group(s) the crawler
    obeys, as written (comments left out), in file order; ``rules`` keeps its meaning (the
    disallow rules that can decide); a crawler no group names gets the ``*`` group's lines."""
    from robotrules import parse
    from robotrules.answers import Governing
    from robotrules.batch.audit import classify_site

    robots = parse("User-agent: GPTBot\nDisallow: /  # all\nAllow: /public/\n\n"
                   "User-agent: *\nDisallow: /tmp/\nUser-agent: CCBot\n")
    gov = Governing("https://a.test/robots.txt", "rules", 200, "200", robots)
    rows = {row[1]: dict(zip(AUDIT_COLUMNS, row, strict=True)) for row in classify_site(gov, ["GPTBot", "Googlebot"])}
    assert (rows["GPTBot"]["rules"], rows["GPTBot"]["group_rules"]) == ("Disallow: /", "Disallow: /\nAllow: /public/")
    assert (rows["Googlebot"]["rules"], rows["Googlebot"]["group_rules"]) == ("Disallow: /tmp/", "Disallow: /tmp/")
    assert AUDIT_COLUMNS[-3:] == ("group_rules", "reason", "outcome")


def test_two_crawls_give_the_sites_that_started_and_stopped_blocking_with_the_rule_lines(tmp_path: Path) -> None:
    """R1, R6, A1-A3: between two crawls, a site that starts blocking GPTBot, one that stops, one
    from partly to entirely (an Allow line removed: the group's lines say so), one missing from
    the second crawl (not captured, never "stopped blocking"), one adding train-ai=n (a change of
    preference for every crawler that may fetch "/"); the unchanged site is in no row."""
    over = audit_over_time(crawl_warcs(tmp_path), AGENTS, processes=1)
    assert list(over.changes.columns) == list(CHANGE_COLUMNS)
    assert _rows(over.changes) == TWO_CRAWL_CHANGES
    assert set(over.changes["change"]) - {""} <= set(CHANGES)


def test_two_crawls_give_per_crawl_shares_per_crawler_and_per_purpose(tmp_path: Path) -> None:
    """Per crawl: each crawler's sites blocking entirely and partly, and their shares; per purpose
    (by_purpose) the sites blocking every crawler or some, and the AI training opt-outs by
    robots.txt, train-ai=n (A1, A7), both."""
    over = audit_over_time(crawl_warcs(tmp_path), AGENTS, processes=1)
    assert list(over.trends.columns) == list(TREND_COLUMNS)
    assert _rows(over.trends) == TWO_CRAWL_TRENDS


def test_three_crawls_give_the_changes_of_each_consecutive_pair_and_a_site_captured_again(tmp_path: Path) -> None:
    """A site missing from the second crawl and back, blocking, in the third is "captured again";
    a robots.txt that answers 503 after blocking is "unreadable" (F5), never "stopped blocking"."""
    over = audit_over_time(crawl_warcs(tmp_path, 3), AGENTS, processes=1)
    assert _rows(over.changes) == TWO_CRAWL_CHANGES + THIRD_CRAWL_CHANGES
    assert _rows(over.trends) == TWO_CRAWL_TRENDS + THIRD_CRAWL_TRENDS
    assert list(over.audits.columns) == ["crawl", *AUDIT_COLUMNS]
    assert list(dict.fromkeys(over.audits["crawl"])) == LABELS


def test_the_combined_tables_do_not_depend_on_the_order_of_the_rows(tmp_path: Path) -> None:
    """The Spark engine's tables come sorted by site, the local engine's in archive order (each
    site's rows in the order of the agents, on both): the trends and changes of the same rows,
    the sites in any order, are the same tables."""
    tables = [(label, audit.table(path, AGENTS, processes=1)) for label, path in crawl_warcs(tmp_path, 3).items()]
    combined = labelled(tables)

    def sites_reordered(frame: Any, key: Any) -> Any:
        order = sorted(dict.fromkeys(frame["site"]), key=key)
        return frame.assign(place=frame["site"].map(order.index)).sort_values("place", kind="stable").drop(
            columns="place")

    shuffled = labelled([(label, sites_reordered(frame, lambda site: hash(site) % 7)) for label, frame in tables])
    by_site = labelled([(label, sites_reordered(frame, str)) for label, frame in tables])
    backwards = labelled([(label, sites_reordered(frame, lambda site: [-ord(c) for c in site]))
                          for label, frame in tables])
    assert list(by_site["site"]) != list(combined["site"])
    for other in (shuffled, by_site, backwards):
        pandas.testing.assert_frame_equal(trends(other), trends(combined))
        pandas.testing.assert_frame_equal(changes(other), changes(combined))


def test_a_site_that_never_blocked_and_is_missing_from_a_crawl_is_no_change(tmp_path: Path) -> None:
    """Only what a site said is compared: one that blocked nothing before it went missing (and
    came back blocking nothing) gives no row; an unchanged robots.txt gives none either."""
    quiet = [{"calm": (200, {}, OPEN), "steady": (200, {}, GPT_OUT)}, {"steady": (200, {}, GPT_OUT)},
             {"calm": (200, {}, OPEN), "steady": (200, {}, GPT_OUT)}]
    paths = {label: write_answers_warc(tmp_path / f"{label}.warc.gz", {url(n): a for n, a in sites.items()})
             for label, sites in zip(LABELS, quiet, strict=True)}
    over = audit_over_time(paths, AGENTS, processes=1)
    assert over.changes.empty and list(over.changes.columns) == list(CHANGE_COLUMNS)
    assert list(over.trends[over.trends["agent"] == "GPTBot"]["sites"]) == [2, 1, 2]


def test_crawl_labels_must_be_distinct_and_non_empty() -> None:
    """Two tables under one label would mix two crawls: a clear ValueError, as for an empty label."""
    frame = pandas.DataFrame(columns=list(AUDIT_COLUMNS))
    with pytest.raises(ValueError, match="given twice: x"):
        labelled([("x", frame), ("x", frame)])
    with pytest.raises(ValueError, match="non-empty"):
        labelled([(" ", frame)])


def test_the_report_of_several_crawls_has_the_trends_and_the_changed_sites_then_the_latest_crawl(
        tmp_path: Path) -> None:
    """Three line plots (per crawler, per purpose, the AI training opt-outs) and the tables of
    trends and changed sites come first; the rest of the report is the latest crawl's."""
    pytest.importorskip("matplotlib", reason="the report's plots need matplotlib (robotrules[audit])")
    from robotrules.batch.audit.report import render_report

    over = audit_over_time(crawl_warcs(tmp_path, 3), AGENTS, processes=1)
    page = render_report(over.audits)
    assert page.count("<svg") == 3 + 5
    assert page.index('<h2 id="trends">') < page.index('<h3 id="changes">') < page.index('<h2 id="latest">')
    assert '<h2 id="latest">The latest crawl: CC-MAIN-2024-33</h2>' in page
    changed = _table(page, "Sites that changed")
    assert len(changed) == len(TWO_CRAWL_CHANGES + THIRD_CRAWL_CHANGES)
    assert changed[4][:4] == ["http://starts.test/robots.txt", "GPTBot", "CC-MAIN-2024-10 →CC-MAIN-2024-22",
                              "started blocking entirely"]
    assert changed[6][3] == "partly to entirely" and changed[6][-2:] == ["Allow: /public/", ""]
    assert changed[7][3:5] == ["not captured", "Blocked entirely → not captured"]
    shares = _table(page, "Sites that block each crawler, per crawl: entirely + partly, of the sites captured")
    assert shares[0] == ["GPTBotAI training", "2 + 2 of 6 (67%)", "2 + 1 of 5 (60%)", "2 + 1 of 6 (50%)"]
    assert "audit of one crawl" not in page
    single = render_report(over.audits[over.audits["crawl"] == LABELS[0]])
    assert single.count("<svg") == 5 and 'id="trends"' not in single


@pytest.mark.browser
def test_the_report_of_several_crawls_renders_in_chromium_accessibly_without_any_request(tmp_path: Path,
                                                                                        opened: Any) -> None:
    """The trends' line plots are drawn, the changed sites listed, no request made but the page
    itself, and axe-core (bundled with axe-playwright-python) finds no serious or critical violation."""
    pytest.importorskip("matplotlib", reason="the report's plots need matplotlib (robotrules[audit])")
    from robotrules.batch.audit.report import write_report

    over = audit_over_time(crawl_warcs(tmp_path, 3), AGENTS, processes=1)
    report = tmp_path / "report.html"
    write_report(over.audits, report, title="Opt-outs over time")
    with opened(report) as seen:
        page = seen.page
        plots = page.locator("figure svg")
        assert plots.count() == 8
        for index in range(3):
            box = plots.nth(index).bounding_box()
            assert box is not None and box["width"] > 300 and box["height"] > 100
        assert page.get_by_role("heading", name="Over time (sites, per crawl)").is_visible()
        assert page.get_by_role("img", name=re.compile("for each crawler, the share of sites that block it")).count()
        changed = page.locator("table:has(caption:text-is('Sites that changed')) tbody tr")
        assert changed.count() == len(TWO_CRAWL_CHANGES + THIRD_CRAWL_CHANGES)
        assert "partly to entirely" in changed.nth(6).inner_text()
        try:
            import axe_playwright_python.sync_playwright as axe_playwright
        except ImportError:
            axe_playwright = None
        if axe_playwright is not None:
            results = axe_playwright.Axe().run(page)
            bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
                   for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
            assert bad == []
        page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
    assert seen.requests == [report.as_uri()], seen.requests
    assert seen.errors == []


def test_robotrules_audit_crawl_writes_the_labelled_table_the_trends_and_the_changes(
        tmp_path: Path, robotrules: Any) -> None:
    """``robotrules audit --crawl LABEL=SOURCE ...``: one audit per crawl (a label given twice
    gathers two files), the table with a crawl column, trends and changes beside it (the tables
    of :func:`audit_over_time`), the report, and a summary counting the changes."""
    paths = crawl_warcs(tmp_path, 3)
    # the second crawl in two files, under one label
    second = CRAWLS[1]
    half = {name: second[name] for name in list(second)[:2]}
    rest = {name: second[name] for name in list(second)[2:]}
    first_half = write_answers_warc(tmp_path / "b1.warc.gz", {url(n): a for n, a in half.items()})
    second_half = write_answers_warc(tmp_path / "b2.warc.gz", {url(n): a for n, a in rest.items()})
    agents = [arg for agent in AGENTS for arg in ("-a", agent)]
    done = robotrules("audit", "--crawl", f"{A}={paths[A]}", "--crawl", f"{B}={first_half}", "--crawl",
                      f"{B}={second_half}", "--crawl", f"{C}={paths[C]}", *agents, "--output", "out.csv",
                      "--report", "report.html", timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"audited 3 crawls ({A} 6 sites, {B} 5 sites, {C} 6 sites) for 4 crawlers: "
                                  "10 changes between crawls (4 started train-ai=n, ")
    assert done.stdout.rstrip().endswith("-> out.csv, out.trends.csv, out.changes.csv and report.html")
    over = audit_over_time(paths, AGENTS, processes=1)
    read = {"keep_default_na": False}
    written = pandas.read_csv(tmp_path / "out.changes.csv", **read)
    assert _rows(written.astype(str)) == [tuple(str(v) for v in row) for row in TWO_CRAWL_CHANGES + THIRD_CRAWL_CHANGES]
    found = pandas.read_csv(tmp_path / "out.trends.csv", **read)
    pandas.testing.assert_frame_equal(found, over.trends, check_dtype=False)
    table = pandas.read_csv(tmp_path / "out.csv", **read)
    assert list(table.columns) == ["crawl", *AUDIT_COLUMNS] and list(dict.fromkeys(table["crawl"])) == LABELS
    assert (tmp_path / "report.html").read_text(encoding="utf-8").count("<svg") == 8
    as_json = robotrules("audit", "--crawl", f"{A}={paths[A]}", "--crawl", f"{B}={paths[B]}", "-a", "GPTBot",
                         "--output", "out.parquet", "--json", timeout=120)
    assert as_json.returncode == 0, as_json.stderr
    summary = json.loads(as_json.stdout)
    assert [entry["crawl"] for entry in summary["crawls"]] == [A, B] and summary["changes"] == 5
    assert summary["changed"] == {"started train-ai=n": 1, "started blocking entirely": 1, "stopped blocking": 1,
                                  "partly to entirely": 1, "not captured": 1}
    assert len(pandas.read_parquet(tmp_path / "out.changes.parquet")) == 5


@pytest.mark.parametrize(("args", "message"), [
    (["--crawl", "no-equals-sign"], "is not LABEL=SOURCE"),
    (["--crawl", "=a.warc.gz"], "is not LABEL=SOURCE"),
    (["--crawl", "A=a.warc.gz", "--robots", "b.warc.gz"], "not both"),
    (["--crawl", "A=a.warc.gz", "--index", "i.sqlite3"], "cannot be used with --crawl"),
    (["--crawl", "A=a.warc.gz", "--refresh"], "for live fetching"),
])
def test_robotrules_audit_crawl_usage_errors_are_one_line(tmp_path: Path, robotrules: Any, args: list[str],
                                                          message: str) -> None:
    """A --crawl without a label or a source, or mixed with --robots, --index or live options: exit 2, one line."""
    done = robotrules("audit", *args, "--output", "out.csv")
    assert done.returncode == 2 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


def _table(page: str, caption: str) -> list[list[str]]:
    """The cells of the table with ``caption``, as text, row by row."""
    found = re.search(rf"<caption>{re.escape(caption)}</caption>.*?<tbody>(.*?)</tbody>", page, re.S)
    assert found is not None, caption
    return [[re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", found.group(1), re.S)]
