"""The words of the tester page come from the service (GET /v1/vocabulary), in headless Chromium.

The page shows words for the codes of the service's answers: kinds of crawlers, usage categories,
verdicts, preferences and the answer to a use asked about. It keeps no copy of them: served other
words for the same codes, it shows those (tests/service/test_vocabulary.py holds the service's
words to their Python homes).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from robotrules.service._vocabulary import VOCABULARY
from tests.page._tester import TesterPage

if TYPE_CHECKING:
    from playwright.sync_api import Route

pytestmark = pytest.mark.browser


def _other_words() -> dict[str, Any]:
    """The vocabulary with every word changed: what the page shows must follow."""
    words: dict[str, Any] = json.loads(json.dumps(VOCABULARY))
    for kind in words["kinds"]:
        kind["label"] = f"Kind {kind['kind']}"
    for category in words["categories"]:
        category["label"] = f"Label {category['category']}"
        category["phrase"] = f"phrase {category['category']}"
    words["verdict"] = {"true": "permitted", "false": "forbidden"}
    words["preference"] = {"true": "welcome", "false": "unwelcome", "null": "unsaid", "not_applicable": "moot"}
    words["use"] = {"true": "granted", "false": "denied", "null": "unsaid", "not_applicable": "moot"}
    return words


def test_the_page_shows_the_words_the_service_gives(tester: TesterPage) -> None:
    """Served other words for the same codes, the page shows them: the picker's groups and the edit
    panel's purposes, the use selector, verdicts, preferences and the answer to the use asked
    about, and the summaries. The page keeps no copy of its own."""
    words = _other_words()

    def answer(route: Route) -> None:
        route.fulfill(status=200, content_type="application/json", body=json.dumps(words))

    tester.page.route("**/v1/vocabulary", answer)
    tester.open()
    page = tester.page
    headings = page.eval_on_selector_all("#agent-chips .chip-heading", "hs => hs.map(h => h.textContent)")
    assert headings[1:] and all(heading.startswith("Kind ") for heading in headings[1:])
    purposes = page.eval_on_selector_all("#edit-purposes label", "ls => ls.map(l => l.textContent.trim())")
    assert purposes == [kind["label"] for kind in words["kinds"]]
    options = page.eval_on_selector_all("#purpose option", "os => os.map(o => [o.value, o.textContent])")
    assert options[1:] == [[c["category"], c["phrase"]] for c in words["categories"]]

    tester.set_draft("User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n\n")
    tester.set_urls("/page", "/private/page")
    tester.choose_agents("GPTBot")
    page.select_option("#purpose", "train-ai")
    tester.wait_idle()
    allowed = tester.row_locator("/page", "GPTBot")
    assert allowed.locator(".badge.allow").text_content() == "Permitted"
    assert allowed.get_attribute("data-use") == "denied"
    assert allowed.locator(".prefs li").evaluate_all("ls => ls.map(l => l.textContent)") == [
        "Label train-ai: unwelcome", "Label search: unsaid", "Label ai-input: unsaid"]
    assert allowed.locator("p.use").text_content() == "denied for phrase train-ai"
    disallowed = tester.row_locator("/private/page", "GPTBot")
    assert disallowed.locator(".badge.disallow").text_content() == "Forbidden"
    assert "Moot: this URL may not be crawled." in disallowed.inner_text()
    assert page.inner_text("#results-summary") == "2 verdicts: 1 permitted, 1 forbidden."
    assert page.inner_text("#purpose-summary").startswith("May the content be used for phrase train-ai? 1 denied, 0 granted")


def test_without_its_vocabulary_the_page_says_so_and_still_tests(tester: TesterPage) -> None:
    """When GET /v1/vocabulary fails, the status line says so in plain words; the verdicts are
    still tested and shown (their codes standing for the missing words)."""

    def fail(route: Route) -> None:
        route.fulfill(status=503, content_type="application/json",
                      body=json.dumps({"error": {"code": "overloaded", "message": "Too much work queued."}}))

    tester.page.route("**/v1/vocabulary", fail)
    tester.open()
    kind, text = tester.status()
    assert kind == "error" and "could not be loaded: Too much work queued." in text
    tester.set_draft("User-agent: *\nDisallow: /private/\n")
    tester.set_urls("/private/page")
    tester.choose_agents("Googlebot")
    [row] = tester.rows()
    assert (row.agent, row.allowed, row.line) == ("Googlebot", False, 2)
