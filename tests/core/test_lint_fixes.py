"""Issue #19 item 8: every lint finding with an obvious fix carries it, as the line should be written.

``Diagnostic.fix`` fixes its own finding only, keeps the line's comment and is None when the
fix is not obvious (P6, R2, G3, N2, A5, A7).
"""

from __future__ import annotations

import pytest

from robotrules import lint, parse
from robotrules.core import COMPILED


def _fixes(body: str, code: str) -> list[str | None]:
    return [d.fix for d in lint(body) if d.code == code]


@pytest.mark.parametrize(("line", "code", "fix"), [
    ("Disallow: admin/", "path-without-slash", "Disallow: /admin/"),
    ("Disallow: admin/  # back office", "path-without-slash", "Disallow: /admin/  # back office"),
    ("Disallow: https://example.com/private", "path-without-slash", "Disallow: /private"),
    ("Dissallow: /x", "field-typo", "Disallow: /x"),
    ("Disallowed: /y", "field-prefix", "Disallow: /y"),
    ("Disallow /z", "missing-colon", "Disallow: /z"),
    ("Crawl-delya: 5", "unknown-field", "Crawl-delay: 5"),
    ("Usre-agent: x", "unknown-field", "User-agent: x"),
    ("Content-Signals: ai-train=no", "signal-misspelt", "Content-Signal: ai-train=no"),
    ("Content-Signal: ai-train=n, search=yes", "signal-value", "Content-Signal: ai-train=no, search=yes"),
    ("Content-Usage: Train-AI=n", "usage-unreadable", "Content-Usage: train-ai=n"),
    ('Content-Usage: train-ai="n"', "usage-unknown-value", "Content-Usage: train-ai=n"),
    ("Content-Usage: /docs/ train-ai=no", "usage-unknown-value", "Content-Usage: /docs/ train-ai=n"),
])
def test_a_finding_with_an_obvious_fix_carries_the_line_as_it_should_be_written(line: str, code: str, fix: str):
    """P6, R2, N2, A5, A7: the fixed line, in a group of its own file."""
    assert _fixes(f"User-agent: *\n{line}\n", code) == [fix]


def test_the_fixed_line_reads_as_meant():
    """R2: the fix of a path without '/' is a rule that matches, so it decides."""
    fixed = _fixes("User-agent: *\nDisallow: admin/\n", "path-without-slash")[0]
    assert fixed is not None
    assert parse(f"User-agent: *\n{fixed}\n").allowed("https://example.com/admin/x", "FooBot") is False


@pytest.mark.parametrize(("agent", "fix"), [
    ("Googlebot/2.1", "User-agent: Googlebot"),
    ("Googlebot*", "User-agent: Googlebot"),
    ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "User-agent: Googlebot"),
    ("MJ12bot", None),  # read as "MJ": what was meant is not obvious
])
def test_a_user_agent_value_with_more_than_a_token_is_fixed_to_the_crawlers_name(agent: str, fix: str | None):
    """G3: the name that counts, when it is plain what was meant."""
    found = [d.fix for d in lint(f"User-agent: {agent}\nDisallow: /\n") if d.code.startswith("user-agent")]
    assert found == [fix]


@pytest.mark.parametrize(("body", "code"), [
    ("User-agent: *\nDisallow:\n", "empty-rule"),
    ("Disallow: /x\nUser-agent: *\n", "rule-outside-group"),
    ("Sitemap: /sitemap.xml\n", "sitemap-not-absolute"),
    ("User-agent: *\nContent-Usage: bots=n\n", "usage-old-label"),
    ("User-agent: *\nX-Frame: deny\n", "unknown-field"),
])
def test_a_finding_without_an_obvious_fix_has_none(body: str, code: str):
    """What the owner meant cannot be told from the line: no fix is made up."""
    assert _fixes(body, code) == [None]


@pytest.mark.skipif(COMPILED, reason="wrappers on module functions cannot see calls inside the compiled core")
def test_misspelt_field_names_are_looked_up_once_each_and_for_at_most_a_thousand_names(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """P6: a suggestion for an unknown field compares its name with the known ones; a file of
    30,000 lines of one unknown name compares it once, and a file of 5,000 distinct unknown names
    compares the first 1,000 (it cost seconds of string comparisons): the others get no fix."""
    import difflib

    calls = 0
    real = difflib.get_close_matches

    def counting(*args: object, **kwargs: object) -> list[str]:
        nonlocal calls
        calls += 1
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(difflib, "get_close_matches", counting)
    assert _fixes("Crawl-delya: 5\n" * 30_000, "unknown-field") == ["Crawl-delay: 5"] * 30_000
    assert calls == 1
    calls = 0
    fixes = _fixes("".join(f"k{n:x}x: v\n" for n in range(5_000)) + "Crawl-delya: 5\n", "unknown-field")
    assert calls == 1_000 and len(fixes) == 5_001 and fixes[-1] is None
