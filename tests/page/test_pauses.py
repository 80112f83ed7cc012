"""The page's own pauses, as a person gets them (the other page tests shorten them: see
``tests/page/conftest.py``): typing re-tests once, after the pause, and the share link is
rewritten after its own pause."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.chromium import shared_window
from tests.page._tester import TesterPage

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture
def person(browser: Browser, service_url: str) -> Iterator[tuple[TesterPage, list[str]]]:
    """The tester with the page's real pauses, and the paths of the page's API requests."""
    with shared_window(browser, 1400, 1000) as context:
        calls: list[str] = []
        context.on("request", lambda request: calls.append(request.url.removeprefix(service_url)))
        yield TesterPage(context, service_url, []), calls


RETEST_PAUSE_MS = 180
"""The page's pause after the last keystroke before it re-tests (``static/js/pauses.js``)."""

KEY_TIMES = "document.addEventListener('keydown', () => (window.keyTimes ??= []).push(performance.now()), true)"
"""When the page saw each keystroke: on a busy machine two keystrokes sent 40 ms apart can reach
it farther apart than the pause, and the page then rightly re-tests in between."""


def test_typing_a_word_re_tests_once_after_the_pause_and_then_rewrites_the_link(person) -> None:
    """Keystrokes 40 ms apart (faster than the 180 ms pause) make one re-test, not one each: one
    after the last keystroke, plus one for each gap the page itself saw as long as the pause (none
    on a quiet machine). The link (#state=...) follows once the page is idle."""
    tester, calls = person
    page = tester.open()
    before = page.url
    page.evaluate(f"() => {{ {KEY_TIMES}; }}")
    calls.clear()
    page.click("#robots")
    page.keyboard.press("End")
    page.keyboard.type("\nDisallow: /typed", delay=40)
    tester.wait_idle()
    retests = [call for call in calls if call.startswith("/v1/test")]
    seen: list[float] = page.evaluate("() => window.keyTimes")
    assert len(seen) == 1 + len("\nDisallow: /typed"), seen  # End, then each typed key
    gaps = [b - a for a, b in itertools.pairwise(seen)]
    pauses = sum(1 for gap in gaps if gap >= RETEST_PAUSE_MS - 10)  # 10 ms: the grain of the page's timers
    assert 1 <= len(retests) <= 1 + pauses, (calls, [round(gap) for gap in gaps])
    assert "/typed" in tester.draft()
    page.wait_for_function("(before) => location.href !== before", arg=before)
    assert "#state=" in page.url
