"""SPEC N1, N2: lines outside groups, as tables.

N1: ``rt.sitemaps`` lists every sitemap URL in file order, wherever the line is, whatever host
it names; it belongs to no group, so it is one list for every crawler. In google mode the
lists are cross-checked against the values the reference's parser reports.
N2: ``rt.crawl_delay(agent)`` is the crawl-delay of the group that applies to the agent
(G2 selection), as a float; None when that group has none or the value is not a number.
"""

from __future__ import annotations

import math

import pytest

import robotrules

from ._cases import BOTH, GOOGLE, U, oracle_sitemaps


def sm(id, body, expected, why, *, modes=BOTH, google_only=False):
    marks = [pytest.mark.google_only] if google_only else []
    return [pytest.param(mode, body, expected, why, id=f"{id}-{mode}", marks=marks)
            for mode in modes]


SITEMAPS = [
    *sm("N1-none", "user-agent: *\ndisallow: /\n", [], "no sitemap lines"),
    *sm("N1-one", "sitemap: https://example.com/sitemap.xml\n",
        ["https://example.com/sitemap.xml"], "a sitemap line alone, no group at all"),
    *sm("N1-several-in-file-order",
        "Sitemap: https://example.com/b.xml\n"
        "user-agent: *\ndisallow: /x\n"
        "sitemap: https://example.com/a.xml\n"
        "user-agent: bot\nallow: /\n"
        "SITEMAP: https://example.com/c.xml\n",
        ["https://example.com/b.xml", "https://example.com/a.xml", "https://example.com/c.xml"],
        "several sitemaps, before, between and after groups, kept in file order"),
    *sm("N1-other-hosts",
        "sitemap: https://cdn.example.net/sitemaps/index.xml\n"
        "sitemap: http://other.example.org/s.xml.gz\n",
        ["https://cdn.example.net/sitemaps/index.xml", "http://other.example.org/s.xml.gz"],
        "a sitemap may live on another host"),
    *sm("N1-comment-and-space",
        "  sitemap  :  https://example.com/s.xml   # the index\n",
        ["https://example.com/s.xml"], "whitespace and comment around the value are dropped"),
    *sm("N1-inside-group",
        "user-agent: a\nsitemap: https://example.com/s.xml\ndisallow: /x\n",
        ["https://example.com/s.xml"], "a sitemap inside a group still belongs to no group"),
    *sm("N1-query-kept",
        "sitemap: https://example.com/sitemap.php?part=1&lang=en\n",
        ["https://example.com/sitemap.php?part=1&lang=en"], "the URL is kept as written"),
    *sm("N1-typo-site-map", "site-map: https://example.com/s.xml\n",
        ["https://example.com/s.xml"], "the reference accepts the typo 'site-map'",
        modes=GOOGLE, google_only=True),
]


@pytest.mark.parametrize(("mode", "body", "expected", "why"), SITEMAPS)
def test_sitemaps(mode, body, expected, why):
    """N1: rt.sitemaps lists the sitemap URLs in file order."""
    assert list(robotrules.parse(body, mode=mode).sitemaps) == expected, why


@pytest.mark.oracle
@pytest.mark.parametrize(("mode", "body", "expected", "why"),
                         [p for p in SITEMAPS if p.values[0] == "google"])
def test_reference_sitemaps_agree(mode, body, expected, why):
    """The google-mode sitemap lists above are the values the reference's parser reports."""
    assert oracle_sitemaps(body) == expected, why


@pytest.mark.parametrize("mode", BOTH)
def test_sitemaps_visible_whatever_the_agent_and_rules(mode):
    """N1: a sitemap is visible to every crawler, even one that is disallowed everywhere, and
    does not change any allow/disallow decision."""
    body = "user-agent: *\ndisallow: /\nsitemap: https://example.com/s.xml\n"
    rt = robotrules.parse(body, mode=mode)
    assert list(rt.sitemaps) == ["https://example.com/s.xml"]
    assert rt.allowed(U + "/s.xml", "bot") is False
    assert rt.allowed(U + "/x", "bot") is False


def cd(id, body, agent, expected, why, *, modes=BOTH):
    return [pytest.param(mode, body, agent, expected, why, id=f"{id}-{mode}") for mode in modes]


GROUPS = (
    "user-agent: a\ncrawl-delay: 2\ndisallow: /x\n\n"
    "user-agent: b\ndisallow: /y\n\n"
    "user-agent: *\ncrawl-delay: 10\n"
)
CRAWL_DELAY = [
    *cd("N2-star", "user-agent: *\ncrawl-delay: 5\n", "bot", 5.0, "the '*' group's value"),
    *cd("N2-float", "user-agent: *\ncrawl-delay: 0.5\n", "bot", 0.5, "decimals are allowed"),
    *cd("N2-case-field", "user-agent: *\nCrawl-Delay: 3\n", "bot", 3.0,
        "field names are case-insensitive (P5)"),
    *cd("N2-comment", "user-agent: *\ncrawl-delay: 4 # be nice\n", "bot", 4.0,
        "the comment is not part of the value"),
    *cd("N2-absent", "user-agent: *\ndisallow: /x\n", "bot", None, "no crawl-delay line"),
    *cd("N2-empty-file", "", "bot", None, "no groups at all"),
    *cd("N2-specific-group", GROUPS, "a", 2.0, "the group that applies to 'a'"),
    *cd("N2-specific-group-case", GROUPS, "A", 2.0, "agents match case-insensitively"),
    *cd("N2-star-fallback", GROUPS, "zbot", 10.0, "no group of its own: the '*' group"),
    *cd("N2-own-group-without-delay", GROUPS, "b", None,
        "'b' follows its own group, which has no crawl-delay; '*' does not apply (G2)"),
    *cd("N2-before-any-agent", "crawl-delay: 7\nuser-agent: *\ndisallow: /x\n", "bot", None,
        "a crawl-delay before any user-agent line belongs to no group"),
    *cd("N2-invalid-word", "user-agent: *\ncrawl-delay: soon\n", "bot", None, "not a number"),
    *cd("N2-invalid-empty", "user-agent: *\ncrawl-delay:\n", "bot", None, "no value"),
    *cd("N2-invalid-negative", "user-agent: *\ncrawl-delay: -1\n", "bot", None,
        "a negative delay is not a valid delay"),
    *cd("N2-invalid-nan", "user-agent: *\ncrawl-delay: nan\n", "bot", None, "NaN is no delay"),
    *cd("N2-invalid-inf", "user-agent: *\ncrawl-delay: inf\n", "bot", None,
        "infinity is no delay"),
    *cd("N2-shared-group", "user-agent: a\ncrawl-delay: 5\nuser-agent: b\ndisallow: /x\n", "b",
        5.0, "an unknown-to-matching line does not end the group (P7), so a and b share it"),
]


@pytest.mark.parametrize(("mode", "body", "agent", "expected", "why"), CRAWL_DELAY)
def test_crawl_delay(mode, body, agent, expected, why):
    """N2: crawl_delay(agent) is the value of the group that applies to the agent."""
    value = robotrules.parse(body, mode=mode).crawl_delay(agent)
    if expected is None:
        assert value is None, why
    else:
        assert isinstance(value, float) and math.isclose(value, expected), why


@pytest.mark.parametrize("mode", BOTH)
def test_crawl_delay_does_not_change_decisions(mode):
    """N2: other fields are ignored by matching."""
    with_delay = robotrules.parse("user-agent: *\ncrawl-delay: 5\ndisallow: /x\n", mode=mode)
    without = robotrules.parse("user-agent: *\ndisallow: /x\n", mode=mode)
    for path in ("/x", "/y", "/"):
        assert with_delay.allowed(U + path, "bot") == without.allowed(U + path, "bot")
