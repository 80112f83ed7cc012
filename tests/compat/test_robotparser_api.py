"""``robotrules.compat.RobotFileParser`` keeps the standard library's API and decides as Google does.

Offline: everything here goes through ``parse()``. What ``read()`` does is pinned against a real
server in test_robotparser_read.py; CPython's own tests run in test_robotparser_cpython.py.
"""

from __future__ import annotations

import urllib.robotparser
from typing import Any

import pytest

import robotrules
from robotrules import RobotsClient
from robotrules.compat import RequestRate, RobotFileParser

BODY = """\
# a comment
User-agent: *
Crawl-delay: 0.5
Request-rate: 1/10m
Disallow: /private
Allow: /private/open
Disallow: /*.pdf$

User-agent: FooBot
User-agent: BarBot/2.0
Disallow: /

Sitemap: https://example.com/sitemap.xml
"""


def parsed(body: str = BODY, **kwargs: object) -> RobotFileParser:
    rp = RobotFileParser(**kwargs)  # type: ignore[arg-type]
    rp.parse(body.splitlines())
    return rp


def test_the_import_is_the_one_line_change() -> None:
    """The class is importable from robotrules.compat, with the standard library's methods."""
    for name in ("set_url", "read", "parse", "can_fetch", "mtime", "modified", "crawl_delay", "request_rate",
                 "site_maps"):
        assert callable(getattr(RobotFileParser, name)), name
        assert hasattr(urllib.robotparser.RobotFileParser, name), name
    assert RequestRate is urllib.robotparser.RequestRate


def test_constructor_and_set_url_keep_url_host_and_path() -> None:
    """As the standard library: ``url``, ``host`` and ``path`` come from the URL given."""
    rp = RobotFileParser("https://Example.com:8443/robots.txt")
    assert (rp.url, rp.host, rp.path) == ("https://Example.com:8443/robots.txt", "Example.com:8443", "/robots.txt")
    rp.set_url("http://other.example/robots.txt")
    assert (rp.host, rp.path) == ("other.example", "/robots.txt")


def test_can_fetch_is_false_before_anything_was_read_or_parsed() -> None:
    """As the standard library: until read() or parse(), nothing is allowed (no false positives)."""
    rp = RobotFileParser("https://example.com/robots.txt")
    assert rp.can_fetch("*", "/") is False and rp.mtime() == 0
    assert rp.crawl_delay("*") is None and rp.request_rate("*") is None and rp.site_maps() is None
    assert "read or parsed yet" in rp.explain("*", "/")
    rp.modified()  # the standard library's way of saying "checked, nothing there"
    assert rp.can_fetch("*", "/") is True


def test_r6_the_most_specific_rule_wins_not_the_first() -> None:
    """R6: "Allow: /private/open" is longer than "Disallow: /private", whatever their order."""
    rp = parsed()
    assert rp.can_fetch("bot", "/private/x") is False
    assert rp.can_fetch("bot", "/private/open/x") is True


def test_r4_wildcards_are_wildcards() -> None:
    """R4: ``*`` matches any run of characters and ``$`` anchors the end."""
    rp = parsed()
    assert rp.can_fetch("bot", "/docs/a.pdf") is False
    assert rp.can_fetch("bot", "/docs/a.pdf?download=1") is True


@pytest.mark.parametrize("agent", ["FooBot", "foobot", "FooBot/1.2", "BarBot", "barbot/9",
                                   "Mozilla/5.0 (compatible; BarBot/2.1; +https://bar.example/bot)"])
def test_g3_agents_match_by_product_token_in_any_form(agent: str) -> None:
    """G3: a token, a versioned name or a whole User-Agent header selects by its product token
    (and a file's "BarBot/2.0" names the token BarBot)."""
    assert parsed().can_fetch(agent, "/public") is False


@pytest.mark.parametrize("agent", ["FooBotNews", "MyFooBot", "Foo", "*", ""])
def test_g2_other_tokens_fall_back_to_the_star_group(agent: str) -> None:
    """G2: a token named by no group obeys ``*``; no substring or prefix counts."""
    assert parsed().can_fetch(agent, "/public") is True
    assert parsed().can_fetch(agent, "/private") is False


def test_g4_groups_for_the_same_agent_are_merged() -> None:
    """G4: two groups for one agent both apply (the standard library obeys the first only)."""
    rp = parsed("User-agent: a\nDisallow: /fish\n\nUser-agent: a\nDisallow: /shrimp\n")
    assert rp.can_fetch("a", "/fish") is False and rp.can_fetch("a", "/shrimp") is False


@pytest.mark.parametrize(("url", "allowed"), [
    ("https://example.com/private/x", False),  # absolute: only the path counts
    ("https://elsewhere.example/private/x", False),  # as the standard library: the host is not checked
    ("/private#fragment", False),
    ("/public#/private", True),  # R3: the fragment is never matched
    ("https://example.com", True),  # no path: "/"
    ("", True),
])
def test_r3_urls_absolute_or_paths_fragment_ignored(url: str, allowed: bool) -> None:
    """R3: a rule sees the path, parameters and query of the URL, never its fragment."""
    assert parsed().can_fetch("bot", url) is allowed


def test_r3_non_ascii_urls_are_matched_as_they_go_on_the_wire() -> None:
    """R3: "/ä" and "/%C3%A4" are the same request; a rule written either way matches both."""
    for rule in ("/ä", "/%C3%A4"):
        rp = parsed(f"User-agent: *\nDisallow: {rule}\n")
        assert rp.can_fetch("bot", "/ä/x") is False
        assert rp.can_fetch("bot", "/%C3%A4/x") is False
        assert rp.can_fetch("bot", "https://example.com/ä?q=ü") is False


def test_r3_percent_escapes_in_the_url_are_compared_as_given() -> None:
    """R3 (google mode): "/~joe" does not match "Disallow: /%7ejoe" as Google's parser reads it;
    ``mode="rfc9309"`` normalises both sides and matches (the standard library's answer)."""
    body = "User-agent: *\nDisallow: /%7ejoe/\n"
    assert parsed(body).can_fetch("bot", "/~joe/x") is True
    assert parsed(body).can_fetch("bot", "/%7Ejoe/x") is False
    assert parsed(body, mode="rfc9309").can_fetch("bot", "/~joe/x") is False


def test_parse_takes_lines_with_or_without_breaks_or_a_whole_body() -> None:
    """Lines as readlines() or splitlines() give them (CR LF too), a whole str or bytes body alike."""
    forms: list[Any] = [BODY.splitlines(), BODY.splitlines(keepends=True), BODY.replace("\n", "\r\n").splitlines(keepends=True),
             BODY, BODY.encode(), [line.encode() for line in BODY.splitlines()]]
    for lines in forms:
        rp = RobotFileParser()
        rp.parse(lines)
        assert rp.can_fetch("bot", "/private") is False and rp.can_fetch("FooBot", "/") is False
        assert rp.site_maps() == ["https://example.com/sitemap.xml"]


def test_parse_sets_mtime_and_clears_a_full_allow_or_disallow() -> None:
    """parse() is a new file: mtime() is now (the clock's), and flags of an earlier answer go."""
    rp = RobotFileParser(clock=lambda: 1234.5)
    rp.disallow_all = True
    rp.parse(["User-agent: *", "Disallow: /x"])
    assert rp.mtime() == 1234.5 and not rp.disallow_all and rp.can_fetch("bot", "/y") is True


def test_flags_set_by_hand_decide_as_in_the_standard_library() -> None:
    """Code that sets ``disallow_all``/``allow_all`` itself gets what the standard library gives."""
    rp = parsed()
    rp.disallow_all = True
    assert rp.can_fetch("bot", "/public") is False
    rp.disallow_all, rp.allow_all = False, True
    assert rp.can_fetch("bot", "/private") is True


def test_n2_crawl_delay_and_request_rate_of_the_agents_group() -> None:
    """N2: the values of the group that applies; whole numbers as ints, RequestRate as the standard library's."""
    rp = parsed()
    assert rp.crawl_delay("bot") == 0.5
    rate = rp.request_rate("bot")
    assert isinstance(rate, urllib.robotparser.RequestRate) and rate == (1, 600) and type(rate.seconds) is int
    assert rp.crawl_delay("FooBot") is None and rp.request_rate("FooBot") is None
    whole = parsed("User-agent: *\nCrawl-delay: 3\nRequest-rate: 9/30\n")
    delay = whole.crawl_delay("x")
    assert delay == 3 and isinstance(delay, int)
    assert whole.request_rate("x") == urllib.robotparser.RequestRate(9, 30)


def test_n1_site_maps_is_none_when_there_are_none() -> None:
    """N1: site_maps() lists the sitemap lines, or None as the standard library; ``sitemaps`` is a list."""
    assert parsed().site_maps() == ["https://example.com/sitemap.xml"]
    empty = parsed("User-agent: *\nDisallow:\n")
    assert empty.site_maps() is None and empty.sitemaps == []


def test_str_renders_groups_as_the_standard_library() -> None:
    """str() lists named groups, then ``*``; agents, crawl-delay, request-rate, rules as written."""
    assert str(parsed()) == (
        "User-agent: FooBot\nUser-agent: BarBot/2.0\nDisallow: /\n\n"
        "User-agent: *\nCrawl-delay: 0.5\nRequest-rate: 1/600\n"
        "Disallow: /private\nAllow: /private/open\nDisallow: /*.pdf$"
    )
    assert str(RobotFileParser()) == ""


def test_explain_names_the_deciding_line_as_written() -> None:
    """DESIGN 5: the verdict with its line and group, for people."""
    rp = parsed()
    assert rp.explain("Mozilla/5.0 (compatible; FooBot/1.2)", "/x") == \
        "disallowed for FooBot by line 11: 'Disallow: /' (group for 'foobot')"
    assert rp.explain("bot", "/public") == "allowed for bot: no rule matches '/public' (group 'user-agent: *')"


def test_the_parsed_file_is_robotrules_own() -> None:
    """``robots`` is the RobotsTxt deciding, for everything robotrules answers (lint, lines, groups)."""
    rp = parsed()
    assert isinstance(rp.robots, robotrules.RobotsTxt)
    assert rp.robots.check("/private/x", "bot").line == 5


def test_f9_only_the_first_500_kib_count() -> None:
    """F9: as Google, rules past 512,000 bytes are ignored."""
    rp = parsed("User-agent: *\n" + "# padding\n" * 60_000 + "Disallow: /late\n")
    assert rp.can_fetch("bot", "/late") is True


@pytest.mark.parametrize(("call", "message"), [
    (lambda rp: rp.can_fetch(None, "/"), "useragent must be str"),
    (lambda rp: rp.can_fetch("bot", b"/"), "url must be str"),
    (lambda rp: rp.crawl_delay(3), "useragent must be str"),
    (lambda rp: rp.request_rate(None), "useragent must be str"),
    (lambda rp: rp.parse([1, 2]), "lines of str"),
    (lambda rp: rp.parse(None), "lines of a robots.txt"),
    (lambda rp: rp.set_url(None), "url must be str"),
])
def test_bad_arguments_are_clear_type_errors(call, message: str) -> None:  # type: ignore[no-untyped-def]
    """Wrong types get a TypeError naming the argument, never an AttributeError from deep inside."""
    with pytest.raises(TypeError, match=message):
        call(parsed())


def test_bad_configuration_is_a_clear_error() -> None:
    """Conflicting or unknown options fail at construction, saying what to do."""
    with pytest.raises(ValueError, match="unknown mode"):
        RobotFileParser(mode="bing")
    with RobotsClient() as client:
        with pytest.raises(ValueError, match="user_agent"):
            RobotFileParser(client=client, user_agent="FooBot")
        with pytest.raises(ValueError, match="mode"):
            RobotFileParser(client=client, mode="rfc9309")
        assert RobotFileParser(client=client).mode == client.mode
    with pytest.raises(TypeError, match="RobotsClient"):
        RobotFileParser(client="https://example.com")  # type: ignore[arg-type]


def test_repr_says_what_decides() -> None:
    assert repr(RobotFileParser("https://example.com/robots.txt")) == "<RobotFileParser 'https://example.com/robots.txt': not read>"
    assert repr(parsed()).endswith(": rules>")
