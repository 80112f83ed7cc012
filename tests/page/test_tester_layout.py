"""The tester page's layout and access: nothing cut off in small scroll boxes, readable at 390 px,
the group each verdict used, the draft downloadable and copyable, Google's special-case crawlers
offered, the crawler picker one tab stop, a clear focus ring, lint fixes beside their findings,
and no serious or critical axe-core violation (issue #19, item 11; item 8 for the fixes).

Everything runs in Debian's Chromium through Playwright; axe-core is the copy bundled with the
``axe-playwright-python`` package (nothing is downloaded).
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.needs import unavailable
from tests.page._tester import TesterPage
from tests.servers.http import HTTPServer, respond

if TYPE_CHECKING:
    from playwright.sync_api import Route, ViewportSize

pytestmark = pytest.mark.browser

TEXT = {"Content-Type": "text/plain; charset=utf-8"}
PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1400, "height": 1000}

DRAFT = (
    "User-agent: *\n"
    "Disallow: /private/\n"
    "\n"
    "User-agent: Googlebot\n"
    "Disallow: /drafts/\n"
)
LONG_URL = "https://www.example.com/drafts/reports/2026/annual-results-for-the-whole-group-and-subsidiaries.html?lang=en&format=print"

# Google's crawlers with special cases (they ignore the * group, or are product tokens of their own).
SPECIAL_CRAWLERS = ("AdsBot-Google", "Mediapartners-Google", "Googlebot-News", "Googlebot-Video", "Storebot-Google",
                    "Google-InspectionTool")


def post(service_url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """The service's own JSON answer, asked directly (not through the page)."""
    request = urllib.request.Request(service_url + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
    return answer


def overflowing(tester: TesterPage, selector: str) -> list[str]:
    """The elements under ``selector`` (itself included) whose content is taller than their box and
    that hide the rest (a scroll box or clipped): what a reader could miss."""
    found: list[str] = tester.page.eval_on_selector_all(
        selector + ", " + selector + " *",
        """nodes => nodes.filter(n => {
             const style = getComputedStyle(n);
             return ['auto', 'scroll', 'hidden'].includes(style.overflowY) && n.clientWidth > 1  // not a visually hidden label
               && n.scrollHeight > n.clientHeight + 1;
           }).map(n => n.id || n.className || n.tagName)""")
    return found


def test_findings_and_diff_tables_are_shown_whole_without_inner_scroll_boxes(tester: TesterPage, site: HTTPServer) -> None:
    """Forty findings, forty changed rules and verdicts and a long line diff: every one is on the
    page itself, none behind a small scroll box that cuts it off without a cue."""
    live = "User-agent: *\nDisallow: /keep/\n"
    site.route("/robots.txt", respond(200, live.encode(), TEXT))
    tester.open()
    tester.choose_agents("Googlebot")
    tester.fetch_live(site.url("/"))
    draft = live + "".join(f"Disallow: /section-{n}/\nDisalow: /typo-{n}/\n" for n in range(40))
    tester.set_urls(*(f"https://example.com/section-{n}/page" for n in range(40)))
    tester.set_draft(draft)

    assert tester.page.locator("#findings li").count() >= 40
    assert tester.page.locator("#diff-rules tbody tr").count() >= 40
    assert tester.page.locator("#diff-verdicts tbody tr").count() >= 40
    for selector in ("#findings", "#diff-rules-wrap", "#diff-verdicts-wrap", "#line-diff", "#results-section"):
        assert overflowing(tester, selector) == [], selector


def test_the_results_name_the_group_each_verdict_used(tester: TesterPage, service_url: str) -> None:
    """Each row shows the group that applied, as the service's verdict JSON names it: "*", the
    crawler's own group, or none (G2, G3)."""
    body = DRAFT
    urls = ["https://example.com/private/x", "https://example.com/drafts/y"]
    agents = ["Googlebot", "GPTBot"]
    tester.open()
    tester.set_draft(body)
    tester.set_urls(*urls)
    tester.choose_agents(*agents)
    answer = post(service_url, "/v1/test", {"robots": body, "urls": urls, "agents": agents, "mode": "google"})
    expected = [(v["url"], v["agent"], v["group"]) for v in answer["results"]]
    assert "*" in {group for _, _, group in expected} and len({group for _, _, group in expected}) == 2
    shown = tester.page.eval_on_selector_all(
        "#results-body tr", "rs => rs.map(r => [r.dataset.url, r.dataset.agent, r.dataset.group, r.querySelector('td.group').textContent])")
    assert [(url, agent, group) for url, agent, group, _ in shown] == expected
    for (*_, text), (*_, want) in zip(shown, expected, strict=True):
        assert text == ("* (all others)" if want == "*" else want)
    assert tester.page.inner_text("#results thead").count("Group used") == 1

    tester.set_draft("# no groups at all\n")
    groups = tester.page.eval_on_selector_all("#results-body td.group", "cs => cs.map(c => c.textContent)")
    assert groups and set(groups) == {"none"}


def test_the_draft_can_be_downloaded_as_robots_txt(tester: TesterPage, tmp_path: Path) -> None:
    """"Download robots.txt" saves the draft exactly as edited, under the name robots.txt."""
    tester.open()
    draft = DRAFT + "# edited here: ünïcode kept\n"
    tester.set_draft(draft)
    with tester.page.expect_download() as info:
        tester.page.click("#draft-download")
    download = info.value
    assert download.suggested_filename == "robots.txt"
    saved = tmp_path / "robots.txt"
    download.save_as(saved)
    assert saved.read_text(encoding="utf-8") == draft
    assert "saved as robots.txt" in tester.status()[1]


def test_the_draft_can_be_copied_to_the_clipboard(tester: TesterPage) -> None:
    """"Copy the draft" puts the draft, as edited, on the clipboard."""
    tester.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=tester.base_url)
    tester.open()
    tester.set_draft(DRAFT)
    tester.page.click("#draft-copy")
    tester.page.wait_for_function("() => document.getElementById('status').textContent.includes('copied')")
    assert tester.page.evaluate("() => navigator.clipboard.readText()") == DRAFT


def test_googles_special_case_crawlers_are_in_the_picker(tester: TesterPage) -> None:
    """AdsBot-Google, Mediapartners-Google, Googlebot-News, Googlebot-Video, Storebot-Google and
    Google-InspectionTool can be chosen, and each is tested under its own name (G2, A8)."""
    tester.open()
    for name in SPECIAL_CRAWLERS:
        assert tester.chip(name).count() == 1, name
    tester.set_draft("User-agent: *\nDisallow: /\n\nUser-agent: Googlebot-News\nAllow: /\n")
    tester.set_urls("/page")
    tester.choose_agents(*SPECIAL_CRAWLERS)
    rows = {row.agent: row for row in tester.rows()}
    assert set(rows) == set(SPECIAL_CRAWLERS)
    assert rows["Googlebot-News"].allowed and rows["Googlebot-News"].line == 5
    assert rows["AdsBot-Google"].allowed  # it ignores the * group: no group applies to it
    assert not rows["Storebot-Google"].allowed


def test_the_crawler_picker_is_one_tab_stop_moved_by_arrow_keys(tester: TesterPage) -> None:
    """Tab reaches one chip of the picker and the next Tab leaves it; arrow keys, Home and End move
    between the chips shown, and Tab comes back to the chip last reached."""
    tester.open()
    page = tester.page
    stops = page.eval_on_selector_all("#agent-chips .chip", "cs => cs.filter(c => c.tabIndex === 0).length")
    assert stops == 1
    page.focus("#agent-search")
    page.keyboard.press("Tab")
    first = page.evaluate("() => document.activeElement.dataset.agent")
    assert first == "*"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    shown = tester.visible_chips()
    assert page.evaluate("() => document.activeElement.dataset.agent") == shown[2]
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.agent") == shown[1]
    page.keyboard.press("End")
    assert page.evaluate("() => document.activeElement.dataset.agent") == shown[-1]
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("() => document.activeElement.dataset.agent") == shown[1]
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "ua"  # one Tab leaves the whole picker
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.dataset.agent") == shown[1]
    was = shown[1] in tester.chosen_agents()
    page.keyboard.press("Space")
    tester.wait_idle()
    assert (shown[1] in tester.chosen_agents()) is not was

    tester.search_agents("GPTBot")  # the tab stop follows the filter to a chip still shown
    assert page.eval_on_selector_all(
        "#agent-chips .chip", "cs => cs.filter(c => c.tabIndex === 0).map(c => c.dataset.agent)") == [tester.visible_chips()[0]]


def test_keyboard_focus_shows_a_clear_ring(tester: TesterPage) -> None:
    """A chip, a result row and a button reached by keyboard each show a solid outline at least
    2 px wide."""
    tester.open()
    page = tester.page
    ring = "() => { const n = document.activeElement, s = getComputedStyle(n); return [n.className || n.id, s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    for start, reached in (("#agent-search", "chip"), ("#purpose", ""), ("#live-url", "live-fetch")):
        page.focus(start)
        page.keyboard.press("Tab")  # a chip, the first result row, the fetch button
        name, style, width = page.evaluate(ring)
        assert name == reached or (start == "#purpose" and page.evaluate("() => document.activeElement.tagName") == "TR"), name
        assert style == "solid" and width >= 2, (start, name, style, width)


def test_results_rows_are_table_rows_and_cells_to_assistive_technology(tester: TesterPage) -> None:
    """The rows keep their row and cell roles, also when a narrow screen lays them out as cards."""
    tester.open()
    page = tester.page
    page.set_viewport_size(PHONE)
    snapshot = page.locator("#results").aria_snapshot()
    assert "- row " in snapshot and "- cell " in snapshot and "- columnheader " in snapshot


def test_at_390_px_results_are_cards_with_urls_that_wrap_and_the_deciding_line_in_view(tester: TesterPage) -> None:
    """On a 390 px phone the page does not scroll sideways; each verdict is a card whose URL wraps
    at its slashes and whose deciding line is shown whole inside the card."""
    tester.open()
    page = tester.page
    page.set_viewport_size(PHONE)
    tester.set_draft(DRAFT)
    tester.set_urls(LONG_URL, "/drafts/new")
    tester.choose_agents("Googlebot")
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], width
    cards = page.eval_on_selector_all("#results-body tr", """rows => rows.map(r => {
        const box = r.getBoundingClientRect();
        const url = r.querySelector('td.url').getBoundingClientRect();
        const line = r.querySelector('td.deciding').getBoundingClientRect();
        return {display: getComputedStyle(r).display, left: box.left, right: box.right,
                urlRight: url.right, urlHeight: url.height, lineRight: line.right, lineTop: line.top,
                bottom: box.bottom, label: getComputedStyle(r.querySelector('td.deciding'), '::before').content,
                text: r.querySelector('td.deciding').innerText};
      })""")
    assert len(cards) == 2
    for card in cards:
        assert card["display"] == "block"
        assert card["right"] <= 390 and card["urlRight"] <= card["right"] and card["lineRight"] <= card["right"]
        assert card["lineTop"] < card["bottom"]
        assert card["label"] == '"Deciding line"'
    assert "Line 5: Disallow: /drafts/" in cards[0]["text"]
    assert cards[0]["urlHeight"] > 30  # the long URL wraps onto more lines
    lines = page.eval_on_selector("#results-body tr td.url", "td => td.innerText")
    # Breaks come after / ? & = (never in the middle of a word when a break point is near).
    assert all(line.endswith(("/", "?", "&", "=")) for line in lines.split("\n")[:-1]), lines


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1400px", "390px"])
def test_axe_core_finds_no_serious_or_critical_violations(tester: TesterPage, site: HTTPServer, viewport: ViewportSize) -> None:
    """axe-core (bundled with axe-playwright-python) checks the working page, with results, a
    selected row, findings, a fetched live file and its diff: no serious or critical violation."""
    try:
        import axe_playwright_python.sync_playwright as axe_playwright
    except ImportError:
        unavailable("axe-playwright-python (the test extra) is not installed")
    site.route("/robots.txt", respond(200, b"User-agent: *\nDisallow: /old/\n", TEXT))
    tester.open()
    page = tester.page
    page.set_viewport_size(viewport)
    tester.set_draft(DRAFT + "Disalow: /typo\nDisallow: admin/\n")
    tester.choose_agents("Googlebot", "GPTBot", "AdsBot-Google")
    tester.set_urls(LONG_URL, "/drafts/new")
    tester.fetch_live(site.url("/"))
    tester.set_draft(DRAFT + "Disalow: /typo\nDisallow: admin/\n")
    tester.select_row(LONG_URL, "Googlebot")
    assert page.is_visible("#diff-section")
    results = axe_playwright.Axe().run(page)
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert bad == []


def add_fix(route: Route) -> None:
    """Passes the service's answer on, giving every path-without-slash finding a fix."""
    response = route.fetch()
    data = response.json()
    for finding in data.get("diagnostics", []):
        if finding["code"] == "path-without-slash":
            finding["fix"] = "Disallow: /admin/"
    route.fulfill(response=response, json=data)


def test_a_lint_fix_is_shown_beside_its_finding_and_can_be_applied(tester: TesterPage) -> None:
    """A finding with a fix shows the corrected line next to it; Apply puts it in the draft, which
    is tested again (the finding goes); findings without a fix show none."""
    tester.page.route("**/v1/test", add_fix)
    tester.page.route("**/v1/lint", add_fix)
    tester.open()
    tester.set_draft("User-agent: *\nDisallow: admin/\nDisalow: /typo\n")
    fixes = tester.page.eval_on_selector_all(
        "#findings li", "ls => ls.map(l => [l.dataset.code, l.dataset.fix ?? null, l.querySelector('.fix code')?.textContent ?? null])")
    assert ["path-without-slash", "Disallow: /admin/", "Disallow: /admin/"] in fixes
    assert all((fix is None) == (shown is None) for _, fix, shown in fixes)
    tester.page.click("#findings li[data-code='path-without-slash'] button.apply-fix")
    tester.wait_idle()
    assert tester.draft() == "User-agent: *\nDisallow: /admin/\nDisalow: /typo\n"
    codes = tester.page.eval_on_selector_all("#findings li", "ls => ls.map(l => l.dataset.code)")
    assert "path-without-slash" not in codes


def test_the_page_shows_exactly_the_fixes_the_service_gives(tester: TesterPage, service_url: str) -> None:
    """With the real service (with or without fixes in its lint JSON), each finding shows the fix
    the service gives for it, and none when it gives none."""
    body = "User-agent: *\nDisallow: admin/\nDisalow: /typo\nCrawl-delay: fast\n"
    answer = post(service_url, "/v1/lint", {"robots": body, "mode": "google"})
    expected = [[d["code"], d.get("fix") if isinstance(d.get("fix"), str) else None] for d in answer["diagnostics"]]
    tester.open()
    tester.set_draft(body)
    shown = tester.page.eval_on_selector_all(
        "#findings li", "ls => ls.map(l => [l.dataset.code, l.querySelector('.fix code') ? l.dataset.fix : null])")
    assert sorted(map(tuple, shown), key=str) == sorted(map(tuple, expected), key=str)
