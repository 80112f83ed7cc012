"""Issue #19 item 8: every lint finding with an obvious fix carries it, as the line should be written.

``Diagnostic.fix`` fixes its own finding only, keeps the line's comment and is None when the
fix is not obvious (P6, R2, G3, N2, A5, A7).
"""

from __future__ import annotations

import pytest

from robotrules import lint, parse


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
