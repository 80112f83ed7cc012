"""check(): the verdict with its deciding line, rule, groups, agent and path (DESIGN 5; R1-R6, G2-G5)."""

from __future__ import annotations

import pytest

import robotrules

# These tests pass odd agents and URLs on purpose (issue #19: they warn, tests/core/test_input_warnings.py).
pytestmark = pytest.mark.filterwarnings("ignore::robotrules.RobotsInputWarning")

BODY = b"""\
user-agent: googlebot-news
disallow: /fish

user-agent: *
disallow: /carrots
allow: /carrots/public$

user-agent: googlebot
disallow: /shrimp
allow: /shrimp/index.html
disallow: /%7Ebob
disallow: /caf\xc3\xa9
"""


def test_check_names_the_deciding_line_rule_group_and_path():
    d = robotrules.parse(BODY).check("https://example.com/shrimp/tail?x#frag", "googlebot")
    assert (d.allowed, d.line, d.agent, d.path) == (False, 9, "googlebot", "/shrimp/tail?x")
    assert d.rule == robotrules.Rule(False, "/shrimp", 9, "/shrimp", 7)
    assert [g.line for g in d.groups] == [8]
    assert d.explain() == "disallowed by line 9: 'disallow: /shrimp' (group for 'googlebot')"


def test_no_matching_rule_is_allowed_with_line_zero():
    """R1: no rule matches -> allowed; the reference reports line 0."""
    d = robotrules.parse(BODY).check("/other", "googlebot")
    assert (d.allowed, d.line, d.rule) == (True, 0, None)


def test_fallback_group_is_reported_as_star():
    """G2: an agent with no group of its own follows '*'."""
    d = robotrules.parse(BODY).check("/carrots/x", "otherbot")
    assert (d.allowed, d.line, d.agent) == (False, 5, "*")


def test_no_group_at_all_reports_no_agent():
    d = robotrules.parse(b"user-agent: a\ndisallow: /\n").check("/", "b")
    assert (d.allowed, d.agent, d.groups) == (True, None, ())


@pytest.mark.google_only
def test_index_html_rule_shows_as_written_while_allowing_the_directory():
    """Google-specific: allow /dir/index.html also allows /dir/; the explanation shows the line as written."""
    d = robotrules.parse(BODY).check("/shrimp/", "googlebot")
    assert (d.allowed, d.line, d.rule.value, d.rule.pattern) == (True, 10, "/shrimp/index.html", "/shrimp/$")
    group = robotrules.parse(BODY).groups[2]
    assert [rule.pattern for rule in group.rules] == ["/shrimp", "/shrimp/index.html", "/%7Ebob", "/caf%C3%A9"]


def test_written_value_is_kept_next_to_the_normalised_pattern():
    """R3: raw UTF-8 and lower-case escapes are normalised for matching but shown as written."""
    rt = robotrules.parse(BODY)
    d = rt.check("/caf%C3%A9/menu", "googlebot")
    assert (d.allowed, d.rule.pattern, d.rule.value) == (False, "/caf%C3%A9", "/caf\u00e9")
    assert rt.check("/%7Ebob/x", "googlebot").line == 11


def test_several_agents_obey_the_union_of_their_groups():
    """G5 (as the reference): a crawler acting for several tokens merges their groups."""
    rt = robotrules.parse(BODY)
    d = rt.check("/fish", ["googlebot-news", "googlebot"])
    assert (d.allowed, d.line) == (False, 2)
    assert [g.line for g in d.groups] == [1, 8]
    assert rt.check("/shrimp", ["googlebot-news", "googlebot"]).allowed is False


def test_allowed_agrees_with_check_for_every_mode_and_agent_form():
    rt_by_mode = {m: robotrules.parse(BODY, mode=m) for m in robotrules.MODES}
    for rt in rt_by_mode.values():
        for agent in ("googlebot", "GoogleBot", "otherbot", ["googlebot", "x"], "", "\u00e9"):
            for url in ("/fish", "/carrots/public", "/shrimp/", "https://h/caf%C3%A9", "//h", "?q"):
                assert rt.allowed(url, agent) == rt.check(url, agent).allowed


def test_rfc9309_implicitly_allows_robots_txt():
    """RFC 9309 2.2.2: /robots.txt is always allowed; Google's reference does not special-case it."""
    body = b"user-agent: *\ndisallow: /\n"
    assert robotrules.parse(body, mode="rfc9309").allowed("https://h/robots.txt", "x") is True
    assert robotrules.parse(body).allowed("https://h/robots.txt", "x") is False


def test_crawl_delay_and_friends_follow_the_selected_group():
    """N2: crawl-delay, request-rate, Content-Signal and Content-Usage, per group."""
    body = b"""\
crawl-delay: 99
user-agent: *
crawl-delay: 2.5
request-rate: 1/10s
content-signal: search=yes, ai-train=no
content-usage: train-ai=n
content-usage: /open/ train-ai=y
disallow: /x

user-agent: slowbot
crawl-delay: ten
crawl-delay: 30
host: example.com
"""
    rt = robotrules.parse(body)
    assert rt.crawl_delay("anybot") == 2.5
    assert rt.crawl_delay("slowbot") == 30.0  # the first valid value
    assert rt.request_rate("anybot") == robotrules.RequestRate(1, 10.0)
    assert rt.request_rate("slowbot") is None
    assert rt.content_signals("anybot") == {"search": "yes", "ai-train": "no"}
    assert rt.content_usage("anybot") == [
        robotrules.ContentUsage("/", {"train-ai": "n"}),
        robotrules.ContentUsage("/open/", {"train-ai": "y"}),
    ]
    assert rt.content_signals("slowbot") == {}
    assert rt.host == "example.com"
    assert [e.field for e in rt.extensions] == ["crawl-delay"]  # outside any group: kept, applies to no one


def test_user_agent_token_from_full_headers():
    """G3: callers pass a product token; this helper finds it in a User-Agent header."""
    cases = {
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)": "Googlebot",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; "
        "+http://www.google.com/bot.html) Chrome/120.0.0.0 Safari/537.36": "Googlebot",
        "Googlebot-Image/1.0": "Googlebot-Image",
        "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)": "bingbot",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.1; +https://openai.com/gptbot":
            "GPTBot",
        "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)": "facebookexternalhit",
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:109.0) Gecko/20100101 Firefox/115.0": "Mozilla",
        "": "",
    }
    for header, token in cases.items():
        assert robotrules.user_agent_token(header) == token, header
    rt = robotrules.parse(b"user-agent: googlebot\ndisallow: /\n")
    header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
    assert rt.allowed("/", header) is True  # the reference compares the whole string
    assert rt.allowed("/", robotrules.user_agent_token(header)) is False


def test_rfc9309_non_final_dollar_is_literal_on_both_sides():
    """RFC 9309 2.2.3: only a final "$" anchors; "/a$b" matches the URL path "/a$b" (or "/a%24b")."""
    rt = robotrules.parse(b"user-agent: *\ndisallow: /\nallow: /a$b\n", mode="rfc9309")
    assert rt.check("/a$b", "x").line == 3
    assert rt.allowed("/a%24b", "x") and not rt.allowed("/a", "x")
