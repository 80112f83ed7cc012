"""Lint of the AI-use lines, judged by effect (A1-A7): each finding on the line that causes it."""

from __future__ import annotations

import pytest

import robotrules


def codes(body: str, mode: str = "google") -> set[tuple[int, str]]:
    return {(d.line, d.code) for d in robotrules.lint(body.encode(), mode) if not d.code.endswith("-field")}


@pytest.mark.parametrize(("why", "body", "expected"), [
    ("A1 before any user-agent line", "content-usage: train-ai=n\nuser-agent: *\nallow: /\n",
     {(1, "usage-outside-group")}),
    ("A5 an upper-case key", "user-agent: *\ncontent-usage: Train-ai=n\n", {(2, "usage-unreadable")}),
    ("A5 a trailing comma", "user-agent: *\ncontent-usage: train-ai=n,\n", {(2, "usage-unreadable")}),
    ("A5 a quoted value", 'user-agent: *\ncontent-usage: train-ai="n"\n', {(2, "usage-unknown-value")}),
    ("A5 yes instead of y", "user-agent: *\ncontent-usage: train-ai=yes\n", {(2, "usage-unknown-value")}),
    ("A5 a key given twice", "user-agent: *\ncontent-usage: train-ai=y, train-ai=n\n", {(2, "usage-duplicate")}),
    ("A5 an old label", "user-agent: *\ncontent-usage: train-genai=n\n", {(2, "usage-old-label")}),
    ("A1 a space in a path", "user-agent: *\ncontent-usage: /my docs/ train-ai=n\n", {(2, "usage-path")}),
    ("A1 a path without its slash", "user-agent: *\ncontent-usage: docs/ train-ai=n\n", {(2, "usage-path")}),
    ("A3 a preference on a disallowed path", "user-agent: *\ndisallow: /p/\ncontent-usage: /p/ train-ai=n\n",
     {(3, "usage-on-disallowed")}),
    ("A3 an allow under it gives the line an effect", ("user-agent: *\ndisallow: /p/\nallow: /p/open/\n"
     "content-usage: /p/ train-ai=n\n"), set()),
    ("A7 Content-Signals misspelt", "user-agent: *\ncontent-signals: ai-train=no\n", {(2, "signal-misspelt")}),
    ("A7 a value other than yes or no", "user-agent: *\ncontent-signal: ai-train=n\n", {(2, "signal-value")}),
    ("A6 the two lines contradict", "user-agent: *\ncontent-signal: ai-train=no\ncontent-usage: train-ai=y\n",
     {(2, "signal-contradicts-usage")}),
    ("a correct file has no finding", ("user-agent: *\ncontent-signal: search=yes, ai-train=no\n"
     "content-usage: train-ai=n, search=y\ncontent-usage: /open/ train-ai=y\nallow: /\n"), set()),
])
def test_each_ai_use_mistake_is_found_on_its_line(why: str, body: str, expected: set[tuple[int, str]]) -> None:
    """A1-A7: what the line makes of the author's intent, one finding per mistake."""
    assert codes(body) == expected, why


def test_legacy1994_reports_no_ai_use_findings() -> None:
    """Modes: the 1994 standard knows neither line; only the ignored-field note remains."""
    assert codes("content-usage: Train-ai=n\n", "legacy1994") == set()


def test_the_messages_say_the_effect_and_cite_no_ids() -> None:
    """Messages people read name the effect in plain words."""
    from robotrules.core.lint_usage import CODES

    for severity, message in CODES.values():
        assert severity in ("error", "warning", "info")
        assert not any(word[:1] in "SFCPGRNAL" and word[1:].isdigit() for word in message.split())
