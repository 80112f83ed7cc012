"""The audit's "opted out of AI training" as both signals say it (issue #18): robots.txt rules that
keep AI training crawlers out, a ``train-ai=n`` preference (Content-Usage, or Content-Signal
``ai-train=no``), both, or neither, per row, per site and purpose, in the summary and the report.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from robotrules import parse
from robotrules.answers import Governing
from robotrules.batch import audit
from robotrules.batch.audit import AUDIT_COLUMNS, OPT_OUTS, by_purpose, classify, classify_site, opt_out, opt_out_counts
from robotrules.batch.audit.purposes import PURPOSE_COLUMNS
from robotrules.batch.audit.report import render_report
from robotrules.batch.audit.report._words import OPT_OUT_LABELS
from robotrules.crawlers import Crawler
from tests.batch.usage_sites import AUDIT_AGENTS, EXPECTED_OPT_OUT, opt_out_warc, site_url
from tests.cli.harness import in_process

pandas = pytest.importorskip("pandas", reason="the audit table needs pandas (robotrules[batch])")
pytest.importorskip("warcio", reason="reading WARC files needs warcio (robotrules[batch])")

OPT_OUT_CASES = [
    # (kind, verdict, explicit, train_ai, expected, why)
    ("ai-training", "blocked", True, None, "robots.txt", "blocked by its own group"),
    ("ai-training", "blocked", False, None, "robots.txt", "blocked by the * group: it may fetch nothing"),
    ("ai-training", "partly", True, None, "robots.txt", "a group naming it closes some pages"),
    ("ai-training", "partly", False, None, "neither", "folders closed to every crawler say nothing of AI"),
    ("ai-training", "partly", False, False, "train-ai=n", "A7: a preference of the * group"),
    ("ai-training", "allowed", False, False, "train-ai=n", "A1: Content-Usage train-ai=n"),
    ("ai-training", "partly", True, False, "both", "its group closes pages and says train-ai=n"),
    ("ai-training", "allowed", False, True, "neither", "train-ai=y is no opt-out"),
    ("ai-training", "no-robots", False, None, "neither", "F4: no robots.txt, no preference"),
    ("ai-training", "unreachable", False, None, "unknown", "F5: nothing could be read"),
    ("ai-training", "unknown", False, None, "unknown", "nothing captured"),
    ("search", "blocked", True, False, "", "only AI training crawlers are opted out of AI training"),
    ("", "blocked", False, None, "", "'*' has no purpose"),
]


@pytest.mark.parametrize(("kind", "verdict", "explicit", "train_ai", "expected", "why"), OPT_OUT_CASES,
                         ids=[case[5] for case in OPT_OUT_CASES])
def test_a_rows_opt_out_follows_its_verdict_its_group_and_its_train_ai_preference(
        kind: str, verdict: str, explicit: bool, train_ai: bool | None, expected: str, why: str) -> None:
    """A3, A7, A8, F4, F5: robots.txt (blocked entirely, or partly by a group naming it), train-ai=n, both, neither."""
    assert opt_out(kind, verdict, explicit, train_ai) == expected, why


@pytest.fixture
def table(tmp_path: Path) -> pandas.DataFrame:
    return audit.table(opt_out_warc(tmp_path), AUDIT_AGENTS, processes=1)


def test_the_audit_table_says_how_each_site_opts_each_training_crawler_out(table: pandas.DataFrame) -> None:
    """A1-A8 per row: the train-ai preference for "/" as each crawler's group sees it (A2, A3, A5,
    A7) and, for AI training crawlers, the opt-out it adds up to; other crawlers have none."""
    assert list(table.columns) == list(AUDIT_COLUMNS)
    assert str(table["train_ai"].dtype) == "boolean"
    rows = table.set_index(["site", "agent"])
    for name, (gpt, cc, _) in EXPECTED_OPT_OUT.items():
        assert rows.loc[(site_url(name), "GPTBot"), "training_opt_out"] == gpt, name
        assert rows.loc[(site_url(name), "CCBot"), "training_opt_out"] == cc, name
        assert rows.loc[(site_url(name), "Googlebot"), "training_opt_out"] == "", name
        assert rows.loc[(site_url(name), "*"), "training_opt_out"] == "", name

    def train_ai(name: str, agent: str) -> bool | None:
        value = rows.loc[(site_url(name), agent), "train_ai"]
        return None if value is pandas.NA else bool(value)

    assert train_ai("usage", "Googlebot") is False  # a search crawler sees the preference too
    assert train_ai("signal", "*") is False  # A7: Content-Signal at the top of the file
    assert train_ai("both", "GPTBot") is None  # A3: its group blocks "/"
    assert train_ai("blocked-anyway", "CCBot") is None  # A3: not applicable, not "disallowed"
    assert train_ai("folder", "*") is None  # A2: the preference is for /drafts/ only
    assert train_ai("upper", "*") is None  # A5: an upper-case key fails the statement
    assert rows.loc[(site_url("signal"), "CCBot"), "content_signals"] == "search=yes, ai-train=no"
    assert rows.loc[(site_url("usage"), "CCBot"), "content_signals"] == "train-ai=n"
    assert rows.loc[(site_url("upper"), "CCBot"), "content_signals"] == ""  # nothing readable (A5)


def test_per_site_and_purpose_the_opt_out_is_robots_txt_train_ai_both_or_neither(table: pandas.DataFrame) -> None:
    """A8: per site and purpose, how many crawlers are blocked, the site's verdict for them, and
    for AI training the site's opt-out (both signals, from any of its training crawlers)."""
    purposes = by_purpose(table)
    assert list(purposes.columns) == list(PURPOSE_COLUMNS)
    assert set(purposes["kind"]) == {"ai-training", "search"}  # '*' has no purpose
    training = purposes[purposes["kind"] == "ai-training"].set_index("site")
    for name, (_, _, site) in EXPECTED_OPT_OUT.items():
        assert training.loc[site_url(name), "training_opt_out"] == site, name
        assert training.loc[site_url(name), "crawlers"] == 2
    assert tuple(training.loc[site_url("rules"), ["blocked", "partly", "verdict"]]) == (2, 0, "blocked")
    assert tuple(training.loc[site_url("both"), ["blocked", "partly", "verdict"]]) == (1, 0, "partly")
    assert tuple(training.loc[site_url("usage"), ["blocked", "partly", "verdict"]]) == (0, 0, "allowed")
    assert training.loc[site_url("down"), "verdict"] == "unreachable"
    search = purposes[purposes["kind"] == "search"].set_index("site")
    assert set(search["training_opt_out"]) == {""}
    assert opt_out_counts(table) == {"robots.txt": 3, "train-ai=n": 2, "both": 1, "neither": 4, "unknown": 1}
    assert opt_out_counts(table[table["kind"] != "ai-training"]) == dict.fromkeys(OPT_OUTS, 0)


def test_the_report_has_a_purpose_view_with_the_opt_out_breakdown(table: pandas.DataFrame) -> None:
    """The report counts the sites of each purpose by verdict, and the sites of each opt-out outcome."""
    pytest.importorskip("matplotlib", reason="the report's plots need matplotlib (robotrules[audit])")
    page = render_report(table)
    assert page.count("<svg") == 5
    assert '<h2 id="purposes">By purpose (sites, per purpose)</h2>' in page
    assert '<h3 id="training">Opted out of AI training (sites)</h3>' in page
    purposes = _table_rows(page, "Sites by purpose (number of sites)")
    assert purposes[0][:2] == ["AI training", "2"] and purposes[1][:2] == ["Search", "1"]
    assert [int(cell) for cell in purposes[0][2:]] == [2, 4, 3, 1, 1, 0]  # blocked, some, none, 404, 503, unknown
    breakdown = {row[0]: int(row[1]) for row in _table_rows(page, "AI training opt-out (number of sites)")}
    assert breakdown == {OPT_OUT_LABELS[outcome]: count for outcome, count in opt_out_counts(table).items()}


def test_the_command_line_writes_the_opt_out_columns_and_counts_them_by_site(tmp_path: Path) -> None:
    """``robotrules audit``: the table has train_ai and training_opt_out, the summary line and its
    JSON count the sites of each outcome, and the report shows the purpose view."""
    warc = opt_out_warc(tmp_path)
    env = {**os.environ, "ROBOTRULES_CACHE": str(tmp_path / "cache.sqlite3"), "NO_COLOR": "1"}
    agents = [arg for agent in AUDIT_AGENTS for arg in ("-a", agent)]
    done = in_process(["audit", "--robots", str(warc), *agents, "--output", "out.csv", "--report", "report.html"],
                      cwd=tmp_path, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "AI training opt-out by site: 3 robots.txt, 2 train-ai=n, 1 both, 4 neither, 1 unknown" in done.stdout
    written = pandas.read_csv(tmp_path / "out.csv", keep_default_na=False)
    assert list(written.columns) == list(AUDIT_COLUMNS)
    both = written[written["site"] == site_url("both")].set_index("agent")
    assert both.loc["CCBot", "training_opt_out"] == "train-ai=n" and str(both.loc["CCBot", "train_ai"]).lower() == "false"
    assert both.loc["GPTBot", "train_ai"] == ""  # not applicable: written empty
    assert "Opted out of AI training" in (tmp_path / "report.html").read_text(encoding="utf-8")
    as_json = in_process(["audit", "--robots", str(warc), *agents, "--output", "out.jsonl", "--json"],
                         cwd=tmp_path, env=env, timeout=120)
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["training_opt_out"] == {"robots.txt": 3, "train-ai=n": 2, "both": 1,
                                                               "neither": 4, "unknown": 1}
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert {row["train_ai"] for row in rows} == {None, False}


def test_a_crawler_that_ignores_the_star_group_is_audited_without_it_and_says_so() -> None:
    """A8: AdsBot-Google obeys only groups that name it: ``User-agent: * / Disallow: /`` does not
    block it, and its row says why; a group naming it does."""
    registry = (Crawler("AdsBot-Google", "Google", "Ads", "other", "https://x.test/", ignores_global=True),)
    star = Governing("https://a.test/robots.txt", "rules", 200, "200", parse("User-agent: *\nDisallow: /\n"))
    ads, other = classify_site(star, ["AdsBot-Google", "*"], registry)
    assert (ads[6], other[6]) == ("allowed", "blocked")
    assert ads[-2].endswith("AdsBot-Google ignores the group 'user-agent: *'") and other[-2] == "200"
    named = Governing("https://a.test/robots.txt", "rules", 200, "200",
                      parse("User-agent: AdsBot-Google\nDisallow: /\n\nUser-agent: *\nAllow: /\n"))
    assert classify_site(named, ["AdsBot-Google"], registry)[0][6] == "blocked"
    assert classify(parse("User-agent: *\nDisallow: /\n"), "AdsBot-Google", ignores_global=True).ignored_global


def test_agents_that_share_a_group_share_one_classification_and_get_the_same_facts() -> None:
    """G2, G3: crawlers no group names all get the '*' group's facts; names whose product token is
    the same ("AI2Bot" is read as "AI") get the same row but for their name."""
    robots = parse("User-agent: AI\nDisallow: /ai/\n\nUser-agent: *\nDisallow: /x\nCrawl-delay: 3\n"
                   "Content-Signal: ai-train=no\n")
    gov = Governing("https://a.test/robots.txt", "rules", 200, "200", robots)
    rows = classify_site(gov, ["AI2Bot", "AI2Bot-Dolma", "GPTBot", "CCBot", "*"])
    facts = [row[6:] for row in rows]
    assert facts[0] == facts[1] and rows[0][6:8] == ("partly", True)
    assert facts[2][:6] == facts[4][:6] == ("partly", False, 3.0, 0, "ai-train=no", False)
    for agent, row in zip(["AI2Bot", "AI2Bot-Dolma", "GPTBot", "CCBot", "*"], rows, strict=True):
        single = classify(robots, agent)
        assert (row[6], row[7], row[8], row[10], row[11]) == (single.verdict, single.explicit, single.crawl_delay,
                                                              single.content_signals, single.train_ai), agent


def test_the_loose_content_signal_parser_is_gone_the_audit_reads_exactly() -> None:
    """A5, A7: a quoted "n" in a Content-Usage statement is no preference (the old parser unquoted
    it and showed train-ai=n); Content-Signal is read as deployed (ASCII case ignored), the
    group's lines, else those outside any group, for every crawler."""
    robots = parse('Content-Signal: ai-train=no\n\nUser-agent: *\nContent-Usage: train-ai="n"\n'
                   "Content-Signal: SEARCH=YES\n")
    found = classify(robots, "GPTBot")
    assert found.train_ai is None  # a quoted "n" is a string, not the token n (A5)
    assert found.content_signals == "search=yes"  # the group's line, read as deployed (A7)
    top = classify(parse("Content-Signal: ai-train=no\n\nUser-agent: *\nDisallow: /x\n"), "GPTBot")
    assert (top.train_ai, top.content_signals) == (False, "ai-train=no")


def _table_rows(page: str, caption: str) -> list[list[str]]:
    """The cells of the table with ``caption``, as text, row by row."""
    found = re.search(rf"<caption>{re.escape(caption)}</caption>.*?<tbody>(.*?)</tbody>", page, re.S)
    assert found is not None, caption
    return [[re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", found.group(1), re.S)]
