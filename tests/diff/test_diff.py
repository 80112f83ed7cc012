"""robotrules.diff: rule and verdict changes per crawler, as Google applies the two files (G2-G5, R1-R6, N1, N2)."""

from __future__ import annotations

import json
import warnings

import pytest

import robotrules
from robotrules import RobotsInputWarning
from robotrules.diff import CrawlDelayChange, RuleChange, VerdictChange, diff, reads_crawl_delay, representative_url

BASE = b"""\
user-agent: *
disallow: /private/
allow: /private/public

user-agent: googlebot
disallow: /nogoogle
"""


def _rules(result):
    return [(c.change, c.agent, c.kind, c.value, c.old_line, c.new_line) for c in result.rules]


def _verdicts(result):
    return [(v.url, v.agent, v.old_allowed, v.new_allowed) for v in result.verdicts]


# -- no change -----------------------------------------------------------------------------


def test_identical_files_have_no_change():
    result = diff(BASE, BASE)
    assert not result.changed
    assert (result.rules, result.verdicts, result.crawl_delays) == ([], [], [])
    assert (result.sitemaps_added, result.sitemaps_removed) == ([], [])
    assert result.agents == ["*", "googlebot"]
    assert diff(BASE, BASE.decode()).changed is False  # bytes and str bodies compare alike


def test_reordered_lines_and_groups_are_not_a_change():
    """G4/R6: the order of rules and of groups decides nothing; neither do case, blanks or comments."""
    new = b"""\
USER-AGENT: Googlebot   # the same group, first
Disallow:/nogoogle

User-agent: *
Allow: /private/public
Disallow: /private/    # reordered
"""
    assert not diff(BASE, new).changed


def test_rule_moved_between_two_groups_of_the_same_agent_is_not_a_change():
    """G4: the groups naming one agent are merged, so which of them holds a rule changes nothing."""
    old = b"user-agent: foo\ndisallow: /a\ndisallow: /b\nuser-agent: bar\ndisallow: /c\nuser-agent: foo\nallow: /d\n"
    new = b"user-agent: foo\ndisallow: /a\nuser-agent: bar\ndisallow: /c\nuser-agent: foo\nallow: /d\ndisallow: /b\n"
    assert not diff(old, new).changed


def test_group_naming_two_agents_split_in_two_is_not_a_change():
    """G1/G4: one group for "foo" and "bar" or one group each with the same rules: the same for both."""
    old = b"user-agent: foo\nuser-agent: bar\ndisallow: /x\n"
    new = b"user-agent: bar\ndisallow: /x\n\nuser-agent: foo\ndisallow: /x\n"
    assert not diff(old, new).changed


def test_duplicate_rules_and_equivalent_spellings_are_not_a_change():
    """R3/R6: a repeated rule counts once; "/café" and "/caf%C3%A9" are one pattern; a disallow
    next to an allow of the same pattern never decides."""
    old = "user-agent: *\ndisallow: /café\nallow: /a\n".encode()
    new = "user-agent: *\ndisallow: /caf%c3%a9\ndisallow: /café\nallow: /a\ndisallow: /a\n".encode()
    assert not diff(old, new).changed


def test_bom_crlf_and_comments_are_not_a_change():
    """P1/P3/P4: line ends, a byte order mark and comments change nothing a crawler reads."""
    old = b"user-agent: *\ndisallow: /a\n"
    new = b"\xef\xbb\xbf# new file\r\nuser-agent: *\r\ndisallow: /a # why\r\n"
    assert not diff(old, new).changed


# -- rule changes --------------------------------------------------------------------------


def test_added_disallow_is_reported_with_its_verdicts():
    new = BASE + b"disallow: /drafts/\n"
    result = diff(BASE, new)
    assert _rules(result) == [("added", "googlebot", "disallow", "/drafts/", 0, 7)]
    assert _verdicts(result) == [("/drafts/", "googlebot", True, False)]
    (verdict,) = result.verdicts
    assert (verdict.old_line, verdict.new_line, verdict.old_rule, verdict.new_rule) == (0, 7, "", "disallow: /drafts/")


def test_removed_disallow_is_reported_with_its_verdicts():
    new = BASE.replace(b"disallow: /private/\n", b"")
    result = diff(BASE, new)
    assert _rules(result) == [("removed", "*", "disallow", "/private/", 2, 0)]
    assert _verdicts(result) == [("/private/", "*", False, True)]


def test_allow_disallow_flip_is_a_changed_rule():
    """R1: the same path switching from disallow to allow for the same agent is "changed", with the new kind."""
    new = BASE.replace(b"disallow: /nogoogle", b"allow: /nogoogle")
    result = diff(BASE, new)
    assert _rules(result) == [("changed", "googlebot", "allow", "/nogoogle", 6, 6)]
    assert _verdicts(result) == [("/nogoogle", "googlebot", False, True)]


def test_rule_of_a_group_naming_several_agents_is_reported_per_agent():
    old = b"user-agent: foo\nuser-agent: bar\ndisallow: /x\n"
    new = b"user-agent: foo\nuser-agent: bar\ndisallow: /x\ndisallow: /y\n"
    result = diff(old, new)
    assert [(c.change, c.agent, c.value) for c in result.rules] == [("added", "bar", "/y"), ("added", "foo", "/y")]
    assert [(v.agent, v.url) for v in result.verdicts] == [("bar", "/y"), ("foo", "/y")]


def test_agent_no_longer_named_falls_back_to_the_star_group():
    """G2: when its group goes, a crawler obeys the ``*`` group: its rules change to those."""
    new = b"user-agent: *\ndisallow: /private/\nallow: /private/public\n"
    result = diff(BASE, new)
    assert result.agents == ["*", "googlebot"]
    assert sorted(_rules(result)) == [
        ("added", "googlebot", "allow", "/private/public", 0, 3),
        ("added", "googlebot", "disallow", "/private/", 0, 2),
        ("removed", "googlebot", "disallow", "/nogoogle", 6, 0),
    ]
    assert sorted(_verdicts(result)) == [
        ("/nogoogle", "googlebot", False, True),
        ("/private/", "googlebot", True, False),
    ]


def test_moving_a_rule_from_star_to_a_named_group_changes_both_crawlers():
    old = b"user-agent: *\ndisallow: /a\nuser-agent: foo\ndisallow: /b\n"
    new = b"user-agent: *\nuser-agent: foo\ndisallow: /b\ndisallow: /a\n"
    result = diff(old, new)
    assert sorted(_rules(result)) == [("added", "*", "disallow", "/b", 0, 3), ("added", "foo", "disallow", "/a", 0, 4)]


# -- verdicts for given URLs and agents --------------------------------------------------------


def test_verdict_changes_for_given_urls_and_agents():
    """The caller's URLs are checked for the caller's agents; an agent no group names gets the ``*`` group."""
    new = BASE.replace(b"allow: /private/public", b"allow: /private/public/")
    result = diff(BASE, new, agents=["Googlebot", "Bingbot"], urls=["/private/publication", "https://h/private/public/x"])
    assert result.agents == ["googlebot", "Bingbot"]  # as the file writes it, else as the caller does
    assert _verdicts(result) == [  # the caller's URLs first, then the representative URLs
        ("/private/publication", "Bingbot", True, False),
        ("/private/public", "Bingbot", True, False),
    ]
    verdict = result.verdicts[0]
    assert (verdict.old_line, verdict.new_line) == (3, 2)
    assert (verdict.old_rule, verdict.new_rule) == ("allow: /private/public", "disallow: /private/")
    assert _rules(result) == [
        ("removed", "Bingbot", "allow", "/private/public", 3, 0),
        ("added", "Bingbot", "allow", "/private/public/", 0, 3),
    ]


def test_given_star_agent_is_the_group_for_unnamed_crawlers():
    new = BASE.replace(b"disallow: /private/\n", b"disallow: /\n")
    result = diff(BASE, new, agents=["*"], urls=["/page"])
    assert result.agents == ["*"]
    assert ("/page", "*", True, False) in _verdicts(result)
    assert diff(BASE, new, agents=["googlebot"], urls=["/page"]).changed is False


def test_agents_are_compared_once_whatever_their_case():
    result = diff(BASE, BASE + b"disallow: /z\n", agents=["GoogleBot", "googlebot", "GOOGLEBOT"])
    assert result.agents == ["googlebot"]
    assert len(result.rules) == 1


def test_verdicts_are_only_reported_when_allowed_differs():
    """A URL whose deciding rule moves (another line, the same verdict) is not a verdict change."""
    old = b"user-agent: *\ndisallow: /a\n"
    new = b"user-agent: *\ndisallow: /a\ndisallow: /a/b\n"
    result = diff(old, new, urls=["/a/b/c"])
    assert _rules(result) == [("added", "*", "disallow", "/a/b", 0, 3)]
    assert result.verdicts == []


# -- other lines -------------------------------------------------------------------------------


def test_crawl_delay_and_sitemap_changes():
    """N1/N2: a crawl delay per crawler; sitemaps added and removed, in file order."""
    old = b"sitemap: https://h/a.xml\nuser-agent: *\ncrawl-delay: 5\nsitemap: https://h/b.xml\n"
    new = b"user-agent: *\ncrawl-delay: 10\nsitemap: https://h/b.xml\nsitemap: https://h/c.xml\n"
    result = diff(old, new)
    assert result.changed and result.rules == [] and result.verdicts == []
    assert result.crawl_delays == [CrawlDelayChange("*", 5.0, 10.0)]
    assert (result.sitemaps_added, result.sitemaps_removed) == (["https://h/c.xml"], ["https://h/a.xml"])


def test_to_dict_is_json_ready():
    new = BASE.replace(b"disallow: /nogoogle", b"allow: /nogoogle") + b"crawl-delay: 1\nsitemap: https://h/s.xml\n"
    data = json.loads(json.dumps(diff(BASE, new).to_dict()))
    assert data["changed"] is True
    assert data["agents"] == ["*", "googlebot"]
    assert data["rules"] == [{"change": "changed", "agent": "googlebot", "kind": "allow", "value": "/nogoogle",
                              "old_line": 6, "new_line": 6}]
    assert data["verdicts"][0] == {"url": "/nogoogle", "agent": "googlebot", "old_allowed": False,
                                   "new_allowed": True, "old_line": 6, "new_line": 6,
                                   "old_rule": "disallow: /nogoogle", "new_rule": "allow: /nogoogle"}
    assert data["crawl_delays"] == []  # Google's crawlers ignore crawl-delay
    assert data["ignored_crawl_delays"] == [{"agent": "googlebot", "old": None, "new": 1.0}]
    assert (data["sitemaps_added"], data["sitemaps_removed"]) == (["https://h/s.xml"], [])


def test_changes_are_immutable_values():
    change = RuleChange("added", "*", "disallow", "/x", 0, 2)
    with pytest.raises(AttributeError):
        change.value = "/y"  # type: ignore[misc]
    assert change == RuleChange("added", "*", "disallow", "/x", 0, 2)
    assert VerdictChange("/x", "*", True, False, 0, 2, "", "disallow: /x").to_dict()["new_line"] == 2


# -- representative URLs ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pattern", "url"),
    [
        ("/private/", "/private/"),
        ("/shop/*.pdf$", "/shop/.pdf"),
        ("/*?session=", "/?session="),
        ("*.gif", "/.gif"),
        ("/a$b", "/a$b"),  # a "$" before the end is literal
        ("*", "/"),
        ("fish", "/fish"),
        ("", None),
    ],
)
def test_representative_url_is_the_literal_part_of_the_pattern(pattern, url):
    """R4: dropping every "*" (it may match nothing) and a final "$" leaves a URL the pattern matches."""
    assert representative_url(pattern) == url
    if url is not None and pattern.startswith(("/", "*")):
        rt = robotrules.parse(f"user-agent: *\ndisallow: {pattern}\n")
        assert not rt.allowed(url, "foo")


def test_representative_url_keeps_operators_literal_without_wildcards():
    """L: the 1994 standard has no wildcards; "*" and "$" are characters of the path."""
    assert representative_url("/a*b$", wildcards=False) == "/a*b$"


def test_representative_url_is_on_the_origin_given():
    """S1: the file's own site, when the caller knows it; a final "/" of the origin is not doubled."""
    assert representative_url("/shop/*.pdf$", origin="https://shop.test") == "https://shop.test/shop/.pdf"
    assert representative_url("fish", origin="http://127.0.0.1:8080/") == "http://127.0.0.1:8080/fish"


# -- modes and robustness --------------------------------------------------------------------


def test_modes_apply_to_both_files():
    """P6: Google accepts "dissallow"; RFC 9309 ignores it, so nothing changed in that mode."""
    old = b"user-agent: *\ndisallow: /x\n"
    new = b"user-agent: *\ndissallow: /x\n"
    assert not diff(old, new).changed
    result = diff(old, new, mode="rfc9309")
    assert _rules(result) == [("removed", "*", "disallow", "/x", 2, 0)]
    legacy = diff(b"user-agent: *\ndisallow: /x\n", b"user-agent: *\ndisallow: /x*\n", mode="legacy1994")
    assert _verdicts(legacy) == [("/x", "*", False, True)]
    with pytest.raises(ValueError, match="mode"):
        diff(old, new, mode="bing")


def test_wrong_argument_types_are_type_errors():
    with pytest.raises(TypeError):
        diff(BASE, BASE + b"disallow: /x\n", agents=[b"googlebot"])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        diff(BASE, BASE, urls=[42])  # type: ignore[list-item]
    single = diff(BASE, BASE + b"disallow: /x\n", agents="googlebot", urls="/x")
    assert single.agents == ["googlebot"] and _verdicts(single)[0] == ("/x", "googlebot", True, False)


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"\xef\xbb\xbf",
        b"\xef\xbb",
        b"\r\n\r\r\n",
        b"\x00\xff\xfe garbage \x80\x81\n:::\n",
        b"<!DOCTYPE html><html><body>Not found</body></html>",
        b"user-agent: *\rdisallow: /\x00a\rallow: /\xc3\xa9*$\n",
        "user-agent: é\ndisallow: /ü\ud800\n",
        b"user-agent: *\ndisallow: /" + b"a" * 20_000 + b"\n",
    ],
)
def test_any_content_never_raises(body):
    """P1-P3, F9: any bytes or text on either side give an answer (an odd URL such as '?q' is
    decided as the reference decides it, with a warning)."""
    for old, new in ((body, BASE), (BASE, body), (body, body)):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RobotsInputWarning)
            result = diff(old, new, urls=["/", "//h", "?q", "", "https://h/\x00"])
        json.dumps(result.to_dict())
    assert not diff(body, body).changed


def test_a_500_kb_file_diffs():
    """F9: files at the size limit diff (a rule changed in a large group, agents sharing groups)."""
    lines = [f"user-agent: bot-{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(40)]
    lines += [f"disallow: /section-{i}/page-{i * 7}.html" for i in range(10_000)]
    lines += ["user-agent: *", *(f"allow: /public-{i}/*.css$" for i in range(4_000))]
    old = ("\n".join(lines) + "\n").encode()
    assert 450_000 < len(old) <= robotrules.core.policy.SIZE_LIMIT
    new = old.replace(b"disallow: /section-13/", b"allow: /section-13/").replace(b"allow: /public-7/", b"disallow: /public-7/")
    result = diff(old, new)
    assert len(result.agents) == 41
    flipped = {(c.agent, c.value) for c in result.rules if c.change == "changed"}
    assert ("*", "/public-7/*.css$") in flipped and ("bot-aa", "/section-13/page-91.html") in flipped
    assert ("/section-13/page-91.html", "bot-aa", False, True) in _verdicts(result)
    assert ("/public-7/.css", "*", True, False) in _verdicts(result)
    assert not diff(old, old).changed


# -- issue #19-10: the file's own host, crawl delays that matter, names as written ------------------


def test_representative_urls_are_paths_without_an_origin_and_on_the_origin_given():
    """S1: a robots.txt says nothing of its host: its rules are probed as paths, or on the site
    the caller names; never on a made-up host."""
    old, new = b"user-agent: *\n", b"user-agent: *\ndisallow: /drafts/\n"
    assert _verdicts(diff(old, new)) == [("/drafts/", "*", True, False)]
    on_site = diff(old, new, origin="https://shop.test", urls=["/given"])
    assert _verdicts(on_site) == [("https://shop.test/drafts/", "*", True, False)]


def test_agents_are_named_as_the_files_write_them():
    """G3: tokens compare case-insensitively, but each crawler is reported as written (the new
    file's spelling first, the token of a value with a version: "Bingbot/2.0" gives "Bingbot")."""
    old = b"User-agent: GoogleBot\nDisallow: /a\n\nUser-agent: Bingbot/2.0\nDisallow: /b\n"
    new = b"User-agent: Googlebot\nDisallow: /a\n\nUser-agent: Bingbot/2.0\nDisallow: /c\n\nUser-agent: GPTBot\nDisallow: /\n"
    result = diff(old, new)
    assert result.agents == ["*", "Bingbot", "Googlebot", "GPTBot"]  # in the order of their tokens
    assert {c.agent for c in result.rules} == {"Bingbot", "GPTBot"}
    assert diff(old, new, agents=["gptbot", "CCBot"]).agents == ["GPTBot", "CCBot"]


def test_crawl_delay_of_google_crawlers_is_listed_apart_and_is_no_change():
    """N2: Google's crawlers ignore crawl-delay; a change only they see is not a change."""
    old = b"User-agent: Googlebot\nUser-agent: AdsBot-Google\nDisallow: /a\nCrawl-delay: 5\n"
    new = b"User-agent: Googlebot\nUser-agent: AdsBot-Google\nDisallow: /a\nCrawl-delay: 10\n"
    result = diff(old, new)
    assert not result.changed and result.crawl_delays == []
    assert result.ignored_crawl_delays == [CrawlDelayChange("AdsBot-Google", 5.0, 10.0),
                                           CrawlDelayChange("Googlebot", 5.0, 10.0)]


def test_crawl_delay_of_other_crawlers_and_the_star_group_is_a_change():
    """N2: crawlers other than Google's may read crawl-delay, and so may the ``*`` group's."""
    old = b"User-agent: *\nDisallow: /y\nCrawl-delay: 1\n\nUser-agent: Bingbot\nUser-agent: Googlebot\nDisallow: /x\nCrawl-delay: 5\n"
    new = b"User-agent: *\nDisallow: /y\nCrawl-delay: 2\n\nUser-agent: Bingbot\nUser-agent: Googlebot\nDisallow: /x\nCrawl-delay: 9\n"
    result = diff(old, new)
    assert result.changed
    assert result.crawl_delays == [CrawlDelayChange("*", 1.0, 2.0), CrawlDelayChange("Bingbot", 5.0, 9.0)]
    assert result.ignored_crawl_delays == [CrawlDelayChange("Googlebot", 5.0, 9.0)]


@pytest.mark.parametrize(("agent", "reads"), [("*", True), ("Bingbot", True), ("GPTBot", True), ("SomeNewBot", True),
                                              ("Googlebot", False), ("googlebot-image", False),
                                              ("Storebot-Google", False), ("GoogleOther", False),
                                              ("Google-Extended", False), ("AdsBot-Google-Mobile", False)])
def test_which_crawlers_read_crawl_delay(agent, reads):
    """N2: Google's crawlers (the registry's operator Google, or a token starting with "google" or
    ending with "-google") ignore crawl-delay; every other crawler may read it."""
    assert reads_crawl_delay(agent) is reads
