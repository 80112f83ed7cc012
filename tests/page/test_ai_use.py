"""The tester page's AI-use answers and crawler picker in real headless Chromium (issue #18).

Beside each verdict the page shows what the file says about using the page for AI training,
search and AI answers (A1-A7), highlights the Content-Usage and Content-Signal lines that say it,
lints both lines inline, asks the service about one use (the purpose selector), and offers the
whole crawler registry, grouped, searchable and with what each crawler's operator says (A8).
Every answer is checked against the library for the same file.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

import pytest

import robotrules
from robotrules import crawlers
from tests.page._tester import TesterPage
from tests.usage_drafts import ATTACH_EXAMPLE

if TYPE_CHECKING:
    from playwright.sync_api import Route

pytestmark = pytest.mark.browser

BODY = ATTACH_EXAMPLE
PATHS = ("/test", "/ai-ok/test", "/never/test")
CATEGORIES = ("train-ai", "search", "ai-input")
WORDS = {True: "allowed", False: "disallowed", None: "unknown"}
REQUIREMENT_ID = re.compile(r"\b[SFCPGRNAL][1-9][0-9]?\b")


def expected_preferences(body: str, path: str, agent: str) -> dict[str, str]:
    """What the library says, in the page's words: allowed, disallowed, unknown, not applicable (A3)."""
    usage = robotrules.parse(body).usage(path, robotrules.user_agent_token(agent))
    if not usage.crawlable:
        return dict.fromkeys(CATEGORIES, "not applicable")
    return {category: WORDS[usage.preference(category)] for category in CATEGORIES}


def shown_preferences(tester: TesterPage, path: str, agent: str) -> dict[str, str]:
    """The AI-use cell of a row: category -> word ("not applicable" for all when the URL may not be crawled)."""
    cell = tester.row_locator(path, agent).locator("td.verdict .usage")
    items: list[tuple[str, str]] = cell.locator("li").evaluate_all("ls => ls.map(l => [l.dataset.category, l.dataset.value])")
    if not items:
        assert "Not applicable" in cell.inner_text()
        return dict.fromkeys(CATEGORIES, "not applicable")
    return dict(items)


def pref_lines(tester: TesterPage) -> list[int]:
    return [int(n) for n in tester.page.eval_on_selector_all("#backdrop .line.decide-pref", "ls => ls.map(l => l.dataset.line)")]


def open_with(tester: TesterPage, body: str, *paths: str, agents: tuple[str, ...] = ("GPTBot",)) -> None:
    tester.open()
    tester.set_draft(body)
    tester.set_urls(*paths)
    tester.choose_agents(*agents)


def test_each_verdict_shows_its_ai_use_preferences_in_plain_words(tester: TesterPage) -> None:
    """A2-A4, A7: every row shows AI training, search and AI answers as allowed, disallowed or
    unknown, and "not applicable" where the URL may not be crawled (A3), as robotrules says."""
    open_with(tester, BODY, *PATHS, agents=("GPTBot", "Googlebot"))
    for path in PATHS:
        for agent in ("GPTBot", "Googlebot"):
            assert shown_preferences(tester, path, agent) == expected_preferences(BODY, path, agent), (path, agent)
    cell = tester.row_locator("/test", "GPTBot").locator("td.verdict .usage").inner_text()
    assert "AI training: disallowed" in cell and "Search: allowed" in cell and "AI answers: unknown" in cell
    never = tester.row_locator("/never/test", "GPTBot").locator("td.verdict .usage").inner_text()
    assert "Not applicable: this URL may not be crawled." in never
    assert not REQUIREMENT_ID.search(tester.page.inner_text("#results"))


def test_selecting_a_row_highlights_its_deciding_content_usage_lines(tester: TesterPage) -> None:
    """A2, A7: the Content-Usage and Content-Signal lines that decide a verdict's preferences are
    highlighted in the editor, as its deciding allow/disallow line is, and the explanation names
    them; a URL that may not be crawled highlights only its disallow line (A3)."""
    open_with(tester, BODY, *PATHS)
    assert pref_lines(tester) == []
    for path in PATHS:
        tester.select_row(path, "GPTBot")
        expected = robotrules.parse(BODY).usage(path, "GPTBot")
        lines = sorted({r.line for r in expected.rules} | {s.line for s in expected.signals}) if expected.crawlable else []
        assert pref_lines(tester) == lines, path
        for line in lines:
            assert "decide" in (tester.page.get_attribute(f"#gutter .num[data-line='{line}']", "class") or "")
            assert "AI-use preferences for GPTBot" in tester.page.inner_text(f"#backdrop .line[data-line='{line}'] .msg.pref")
    tester.select_row("/test", "GPTBot")
    assert pref_lines(tester) == [2, 4]
    why = tester.page.inner_text("#why")
    assert "AI use: AI training disallowed, search allowed, AI answers unknown (lines 2, 4)." in why
    tester.select_row("/never/test", "GPTBot")
    assert tester.decided_lines() == [3] and "not applicable" in tester.page.inner_text("#why")


def test_malformed_ai_use_lines_are_linted_inline(tester: TesterPage) -> None:
    """A5, A7: a Content-Usage value other than y/n, an unreadable statement, a Content-Signal value
    other than yes/no and the misspelt 'Content-Signals' are marked at their lines with the linter's
    message written at the end of the line (the most severe finding first), and listed."""
    body = ("User-agent: *\n"
            "Content-Usage: train-ai=N\n"
            "Content-Usage: TRAIN-AI=n\n"
            "Content-Signal: ai-train=maybe\n"
            "Content-Signals: search=yes\n")
    tester.open()
    tester.set_draft(body)
    found = robotrules.lint(body)
    listed = tester.page.eval_on_selector_all(
        "#findings .finding", "items => items.map(i => [Number(i.dataset.line), i.dataset.severity, i.dataset.code])")
    assert [tuple(item) for item in listed] == [(d.line, d.severity, d.code) for d in found]
    codes = {n: {d.code for d in found if d.line == n} for n in range(2, 6)}
    assert "usage-unknown-value" in codes[2] and "usage-unreadable" in codes[3]
    assert "signal-value" in codes[4] and "signal-misspelt" in codes[5]
    for line in range(2, 6):
        on_line = [d for d in found if d.line == line]
        worst = min(on_line, key=lambda d: ["error", "warning", "info"].index(d.severity))
        assert f"sev-{worst.severity}" in tester.editor_line_classes(line)
        assert worst.message in tester.page.inner_text(f"#backdrop .line[data-line='{line}'] .msg")
    assert "only y or n, unquoted and lower-case" in tester.page.inner_text("#backdrop .line[data-line='2'] .msg")


def test_the_purpose_selector_asks_the_service_and_counts_refusals(tester: TesterPage) -> None:
    """A3, A5: choosing a use sends it to the service with the draft; each row then answers it
    (refused, allowed, not applicable), the summary counts the refusals, the lines deciding that
    use are marked red or green, and the share link keeps the question."""
    open_with(tester, BODY, *PATHS)
    assert tester.page.inner_text("#purpose-summary") == ""
    with tester.page.expect_request(lambda r: r.url.endswith("/v1/test") and r.method == "POST") as asked:
        tester.page.select_option("#purpose", "train-ai")
    assert json.loads(asked.value.post_data or "{}")["purpose"] == "train-ai"
    tester.wait_idle()
    uses = {row.url: tester.row_locator(row.url, row.agent).get_attribute("data-use") for row in tester.rows()}
    assert uses == {"/test": "refused", "/ai-ok/test": "allowed", "/never/test": "not applicable"}
    summary = tester.page.inner_text("#purpose-summary")
    assert summary.startswith("May the content be used for AI training? 1 refused, 1 allowed, 0 unknown, 1 not applicable")
    assert "refused for AI training" in (tester.row_locator("/test", "GPTBot").locator("td.verdict .usage p.use").text_content() or "")

    tester.select_row("/test", "GPTBot")
    assert {"decide-pref", "pref-disallow"} <= set(tester.editor_line_classes(4))
    assert "decides AI training: disallowed for GPTBot" in tester.page.inner_text("#backdrop .line[data-line='4'] .msg.pref")
    assert "pref-stated" in tester.editor_line_classes(2)  # it states search, not the use asked about
    assert "Asked: train-ai disallowed by line 4" in tester.page.inner_text("#why")
    tester.select_row("/ai-ok/test", "GPTBot")
    assert "pref-allow" in tester.editor_line_classes(5)

    tester.page.select_option("#purpose", "ai-input")
    tester.wait_idle()
    assert {tester.row_locator(r.url, r.agent).get_attribute("data-use") for r in tester.rows()} == {
        "unknown", "not applicable"}
    tester.page.click("#copy-link")
    tester.wait_idle()
    other = tester.open_link(tester.page.input_value("#share-link"))
    assert other.input_value("#purpose") == "ai-input"
    assert "May the content be used for AI answers? 0 refused" in other.inner_text("#purpose-summary")

    tester.page.select_option("#purpose", "")
    tester.wait_idle()
    assert tester.page.inner_text("#purpose-summary") == ""
    assert all(tester.row_locator(r.url, r.agent).get_attribute("data-use") is None for r in tester.rows())


def _registry(**wanted: Any) -> crawlers.Crawler:
    """The first registry entry with these field values (the tests follow the data, not a copy of it)."""
    return next(c for c in crawlers.CRAWLERS if all(getattr(c, k) == v for k, v in wanted.items()))


def test_the_picker_offers_the_whole_registry_grouped_by_kind(tester: TesterPage) -> None:
    """A8: every registry crawler has a chip, in a group per kind headed by the registry's label for
    it, in the registry's order; '* (all others)' first."""
    tester.open()
    chips = tester.page.eval_on_selector_all("#agent-chips .chip", "cs => cs.map(c => [c.dataset.agent, c.closest('.chip-group').dataset.kind])")
    names = [name for name, _ in chips]
    assert names[0] == "*" and len(names) == len({n.lower() for n in names})
    kinds = dict(chips)
    for crawler in crawlers.CRAWLERS:
        assert kinds.get(crawler.name) == crawler.kind, crawler.name
    groups = tester.page.eval_on_selector_all(
        "#agent-chips .chip-group", "gs => gs.map(g => [g.dataset.kind, g.querySelector('.chip-heading').textContent])")
    present = set(kinds.values()) - {"any"}  # "any": the group of "*" alone, first
    assert [kind for kind, _ in groups] == ["any", *(kind for kind in crawlers.KIND_LABELS if kind in present)]
    assert dict(groups[1:]) == {kind: crawlers.KIND_LABELS[kind] for kind in present}  # in the registry's words
    assert f"{len(names)} crawlers" in tester.page.inner_text("#agent-count")
    box = tester.page.locator("#agent-chips").bounding_box()
    assert box is not None and box["height"] < 400  # it scrolls; it does not push the page down


def test_the_picker_search_finds_crawlers_and_shows_the_token_google_reads(tester: TesterPage) -> None:
    """G3, A8: searching by name, operator or purpose narrows the chips; a name that is not a
    product token shows the token Google reads from it, and its verdict is matched on that token."""
    odd = _registry(token_valid=False, origin="ai.robots.txt")
    tester.open()
    tester.set_draft("User-agent: *\nDisallow: /private/\n")
    tester.set_urls("/private/x")
    tester.choose_agents()
    tester.search_agents(odd.name)
    assert odd.name in tester.visible_chips() and len(tester.visible_chips()) < 10
    assert f"as {odd.token}" in tester.chip(odd.name).inner_text()
    assert "match" in tester.page.inner_text("#agent-count")
    tester.search_agents("OpenAI")
    shown = tester.visible_chips()
    assert "GPTBot" in shown and "Googlebot" not in shown
    tester.search_agents("zzz-no-such-crawler")
    assert tester.visible_chips() == [] and "No crawler" in tester.page.inner_text("#agent-count")

    tester.search_agents(odd.name)
    first = tester.visible_chips()[0]
    tester.page.press("#agent-search", "Enter")  # Enter chooses the first match
    tester.wait_idle()
    assert tester.chosen_agents() == [first]
    [row] = tester.rows()
    assert (row.agent, row.token) == (first, robotrules.user_agent_token(first))
    tester.page.click(f"#agent-chosen .chosen-chip[data-agent='{first}']")  # removed from the chosen list
    tester.wait_idle()
    assert tester.chosen_agents() == [] and tester.rows() == []


def test_a_crawler_that_ignores_robots_txt_or_the_star_group_is_flagged_beside_its_verdict(
        tester: TesterPage) -> None:
    """A8: when the operator says a crawler does not obey robots.txt, or that it ignores the '*'
    group (Google's AdsBot), the page says so on its chip and next to its verdict."""
    rogue = _registry(obeys="no")
    special = _registry(ignores_global=True)
    open_with(tester, "User-agent: *\nDisallow: /\n", "/page", agents=(rogue.name, special.name, "Googlebot"))
    assert "does not obey" in tester.chip(rogue.name).inner_text()
    assert "ignores *" in tester.chip(special.name).inner_text()
    rogue_note = tester.row_locator("/page", rogue.name).locator(".crawler-note").inner_text()
    assert "does not obey robots.txt" in rogue_note
    special_note = tester.row_locator("/page", special.name).locator(".crawler-note").inner_text()
    assert "ignores the * group" in special_note
    assert tester.row_locator("/page", "Googlebot").locator(".crawler-note").count() == 0
    assert not REQUIREMENT_ID.search(rogue_note + special_note)


def test_the_picker_reads_the_first_registry_form_too(tester: TesterPage) -> None:
    """The page reads registry entries defensively: the first form (token, operator, purpose, kind,
    source; no name, token_valid, obeys, ignores_global or origin) still gives a working picker."""
    old = [{"token": "Googlebot", "operator": "Google", "purpose": "Search", "kind": "search",
            "source": "https://developers.google.com/search"},
           {"token": "GPTBot", "operator": "OpenAI", "purpose": "Training", "kind": "ai-training",
            "source": "https://platform.openai.com/docs/bots"}, {"unexpected": True}, "not an object"]

    def answer(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps({"agents": old}))

    tester.page.route("**/v1/agents", answer)
    tester.open()
    assert sorted(c for c in tester.visible_chips() if c != "*") == ["GPTBot", "Googlebot"]  # in the groups' order
    tester.set_draft("User-agent: GPTBot\nDisallow: /\n")
    tester.set_urls("/x")
    tester.choose_agents("GPTBot")
    [row] = tester.rows()
    assert (row.agent, row.allowed) == ("GPTBot", False)
    assert tester.status()[0] != "error"
