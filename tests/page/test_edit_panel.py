"""The tester page's "Edit safely" panel: the edit of ``POST /v1/edit`` with its diff, in the browser.

Issue #19, item 14: "The tester page offers the same edit with its diff." The panel sends the
current draft with the crawlers to block or allow and an AI-use preference, shows the notes, the
changed lines and the verdicts that change (or the refusal, plainly), and "Apply to the draft"
puts the edited text in the editor, which is tested again. Everything runs in Debian's Chromium.
"""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

import pytest

from tests.needs import unavailable

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

    from tests.page._tester import TesterPage

DRAFT = (
    "# Our robots.txt\n"
    "User-agent: *\n"
    "Disallow: /private/\n"
    "Content-Signal: search=yes\n"
    "\n"
    "User-agent: Googlebot\n"
    "Disallow: /drafts/\n"
    "\n"
    "Sitemap: https://www.example.com/sitemap.xml\n"
)
DESKTOP: ViewportSize = {"width": 1400, "height": 1000}
PHONE: ViewportSize = {"width": 390, "height": 844}


def preview(tester: TesterPage, *, block: str = "", allow: str = "", usage: str = "") -> None:
    page = tester.page
    page.fill("#edit-block", block)
    page.fill("#edit-allow", allow)
    page.fill("#edit-usage", usage)
    page.click("#edit-preview")
    tester.wait_idle()


def only_insertions(before: str, after: str) -> bool:
    """Whether ``after`` is ``before`` with lines inserted and none removed or changed."""
    ops = difflib.SequenceMatcher(a=before.split("\n"), b=after.split("\n"), autojunk=False).get_opcodes()
    return all(tag in ("equal", "insert") for tag, *_ in ops)


def test_a_preview_that_blocks_gptbot_shows_its_diff_and_applied_disallows_gptbot_on_root(tester: TesterPage) -> None:
    """Previewing "block GPTBot" shows the added lines and GPTBot's verdict on "/" turning
    disallowed without touching the draft; applying it puts the edit in the editor, the draft is
    re-tested (GPTBot disallowed on "/", Googlebot unchanged) and every other line is kept."""
    tester.open()
    page = tester.page
    tester.set_draft(DRAFT)
    tester.choose_agents("Googlebot", "GPTBot")
    tester.set_urls("/", "/drafts/x")
    before = {(r.url, r.agent): r.allowed for r in tester.rows()}
    assert before[("/", "GPTBot")] is True

    preview(tester, block="GPTBot")
    assert page.is_visible("#edit-changes")
    added = page.eval_on_selector_all("#edit-lines .dl.add .text", "ts => ts.map(t => t.textContent)")
    assert "User-agent: GPTBot" in added and "Disallow: /" in added
    assert page.eval_on_selector_all("#edit-lines .dl.del", "ds => ds.length") == 0
    verdicts = page.eval_on_selector_all("#edit-verdicts tbody tr", "rs => rs.map(r => ({...r.dataset}))")
    assert {"url": "/", "agent": "GPTBot", "oldAllowed": "true", "newAllowed": "false"} in verdicts
    assert {v["agent"] for v in verdicts} == {"GPTBot"}
    assert "blocks GPTBot" in page.inner_text("#edit-summary")
    assert tester.draft() == DRAFT  # a preview changes nothing

    page.click("#edit-apply")
    tester.wait_idle()
    after = tester.draft()
    assert after != DRAFT and only_insertions(DRAFT, after)
    rows = {(r.url, r.agent): r for r in tester.rows()}
    assert rows[("/", "GPTBot")].allowed is False
    assert rows[("/", "GPTBot")].text == "Disallow: /"
    assert rows[("/", "Googlebot")].allowed == before[("/", "Googlebot")]
    assert rows[("/drafts/x", "Googlebot")].allowed == before[("/drafts/x", "Googlebot")]
    assert page.is_hidden("#edit-changes")


def test_a_refused_edit_shows_the_plain_message_and_leaves_the_draft(tester: TesterPage) -> None:
    """Blocking "AI2Bot", which Google reads as the token "AI", is refused: the panel says why in
    plain words (no error code), offers nothing to apply, and the draft is unchanged."""
    tester.open()
    page = tester.page
    tester.set_draft(DRAFT)
    preview(tester, block="AI2Bot")
    summary = page.locator("#edit-summary")
    assert summary.get_attribute("data-kind") == "error"
    text = summary.inner_text()
    assert "The edit was not made" in text and "Google reads 'AI2Bot' as 'AI'" in text
    assert "edit_refused" not in text and "422" not in text
    assert page.is_hidden("#edit-changes")
    assert tester.draft() == DRAFT


def test_an_applied_preview_of_an_older_draft_asks_for_a_new_preview(tester: TesterPage) -> None:
    """When the draft is edited after a preview, "Apply" does not overwrite it: it asks for a new preview."""
    tester.open()
    page = tester.page
    tester.set_draft(DRAFT)
    preview(tester, block="GPTBot")
    tester.set_draft(DRAFT + "Disallow: /new/\n")
    page.click("#edit-apply")
    tester.wait_idle()
    assert tester.draft() == DRAFT + "Disallow: /new/\n"
    assert "preview the edit again" in page.inner_text("#edit-summary")


def test_the_edit_panel_is_usable_by_keyboard_alone(tester: TesterPage) -> None:
    """Typing a name, tabbing to "Preview the edit", Enter, then Tab to "Apply to the draft" and
    Enter edits the draft; a purpose is a checkbox toggled with Space."""
    tester.open()
    page = tester.page
    tester.set_draft(DRAFT)
    page.focus("#edit-block")
    page.keyboard.type("GPTBot")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.value") == "ai-training"  # the first purpose
    for _ in range(20):
        if page.evaluate("() => document.activeElement.id") == "edit-preview":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "edit-preview"
    page.keyboard.press("Enter")
    tester.wait_idle()
    assert page.is_visible("#edit-changes")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "edit-apply"
    page.keyboard.press("Enter")
    tester.wait_idle()
    assert "User-agent: GPTBot" in tester.draft()
    assert page.evaluate("() => document.activeElement.id") == "edit-preview"  # focus stays in the panel

    page.focus("#edit-purposes input[value=ai-search]")
    page.keyboard.press("Space")
    assert page.is_checked("#edit-purposes input[value=ai-search]")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1400px", "390px"])
def test_the_edit_panel_with_a_preview_is_axe_clean_and_fits(tester: TesterPage, viewport: ViewportSize) -> None:
    """With a preview shown (notes, changed lines, verdicts), axe-core finds no serious or critical
    violation, and the panel needs no sideways scrolling, at 1400 and 390 px."""
    try:
        import axe_playwright_python.sync_playwright as axe_playwright
    except ImportError:
        unavailable("axe-playwright-python (the test extra) is not installed")
    tester.open()
    page = tester.page
    page.set_viewport_size(viewport)
    tester.set_draft(DRAFT)
    page.check("#edit-purposes input[value=ai-training]")
    preview(tester, block="GPTBot", usage="train-ai=n")
    assert page.is_visible("#edit-changes")
    wide = page.eval_on_selector("#edit-section", "s => s.scrollWidth - s.clientWidth")
    assert wide <= 0
    results = axe_playwright.Axe().run(page)
    bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
           for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    assert bad == []
