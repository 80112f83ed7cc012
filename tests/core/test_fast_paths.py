"""The hot paths give exactly what the general code gives (P1-P7, R3).

The model builder reads usual lines ("Disallow: /x") without calling the general tokenizer, and
``path_params_query`` takes "scheme://host/path" URLs without the general extractor. These
properties pin both shortcuts to the general code they stand in for.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotrules.core import lexer, urls
from robotrules.core.model import build_model
from robotrules.core.modes import MODES
from robotrules.core.pattern import google_escape, rfc_normalise_pattern
from robotrules.core.rules import ALLOW_BIT, rank
from tests.hypo import examples

# These tests pass odd agents and URLs on purpose (issue #19: they warn, tests/core/test_input_warnings.py).
pytestmark = pytest.mark.filterwarnings("ignore::robotrules.RobotsInputWarning")

KEYS = ["user-agent", "User-agent", "USER-AGENT", "Disallow", "disallow", "Allow", "ALLOW", "Sitemap",
        "useragent", "dissallow", "crawl-delay", "Disallow ", " Allow", "foo", ""]
VALUES = ["/", "", "/a", "/a*b", "/a$", "*", "/%7e", "/\u00e9", "googlebot", "* x", "/a#c", " /b ", "\t/c\x0b"]
SEPARATORS = [":", " : ", "\t", " ", ":#", ""]


@st.composite
def lines(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(KEYS)) + draw(st.sampled_from(SEPARATORS)) + draw(st.sampled_from(VALUES)) + draw(
        st.sampled_from(["", " # c", "#", "\x00x", " "])
    )


def _model_without_fast_path(body: bytes, mode_name: str, monkeypatch: pytest.MonkeyPatch):
    with monkeypatch.context() as m:
        m.setattr(lexer, "fast_keys", lambda mode: {})
        return build_model(body, MODES[mode_name])


def _shape(model):
    return [(g.line, g.agents, g.tokens, g.is_global, g.rules, g.extensions) for g in model.groups], model[1:]


@pytest.mark.parametrize("mode_name", sorted(MODES))
@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body_lines=st.lists(lines(), max_size=12), newline=st.sampled_from(["\n", "\r\n", "\r"]))
def test_fast_line_path_builds_the_same_model_as_the_tokenizer(mode_name, body_lines, newline, monkeypatch):
    """P1-P7: the builder's fast path for usual spellings equals lexer.tokenize_line on every line."""
    body = newline.join(body_lines).encode("utf-8")
    fast = build_model(body, MODES[mode_name])
    general = _model_without_fast_path(body, mode_name, monkeypatch)
    assert _shape(fast) == _shape(general)


@pytest.mark.parametrize("mode_name", sorted(MODES))
@settings(max_examples=examples(300), deadline=None)
@given(body_lines=st.lists(lines(), max_size=12))
def test_builder_packs_each_rule_rank_as_rules_rank_does(mode_name, body_lines):
    """R6: the builder packs a rule's rank inline (the hot path of parse); every rule line gets
    exactly rules.rank(allow, len(pattern), line). Google's implied "/dir/$" rules (allow, same
    line, shorter) are the only other ranks."""
    mode = MODES[mode_name]
    body = "\n".join(body_lines).encode("utf-8")
    model = build_model(body, mode)
    normalise = rfc_normalise_pattern if mode.normalise_percent_encoding else google_escape
    orphans = set(model.orphan_rules)
    expected = {
        rank(kind == lexer.ALLOW, len(normalise(value)), line)
        for line, kind, _, value, _ in lexer.lex(body, mode).events
        if kind in (lexer.ALLOW, lexer.DISALLOW) and line not in orphans
    }
    packed = {r for group in model.groups for r, _ in group.ruleset.ranked()}
    assert expected <= packed
    assert all(r & ALLOW_BIT for r in packed - expected)


URL_PARTS = st.sampled_from(["http", "https", "ftp", "h2", "", "//", "a/b", "x?y", "s;t"])
HOSTS = st.sampled_from(["example.com", "ex.com:8080", "u:p@h", "h?q", "h;p", "h#f", "", "[::1]", "\u00fc.de"])
PATHS = st.sampled_from(["/", "/a/b", "/a?q=1", "/a;p", "/a#f", "/a\x00b", "", "?q", ";p", "#f", "/a://b", "/%7E"])


@settings(max_examples=examples(2000), deadline=None)
@given(scheme=URL_PARTS, sep=st.sampled_from(["://", ":/", ":", ""]), host=HOSTS, path=PATHS)
def test_url_fast_path_equals_general_extraction(scheme, sep, host, path):
    """R3: path_params_query's shortcut for "scheme://host/path" agrees with the general rules."""
    url = scheme + sep + host + path
    assert urls.path_params_query(url) == urls._general_path(url)


@settings(max_examples=examples(500), deadline=None)
@given(url=st.text(alphabet="ab/:?;#@\x00%\u00e9", max_size=20))
def test_url_fast_path_equals_general_extraction_on_any_text(url):
    """R3: the same, on arbitrary strings made of the characters that matter."""
    assert urls.path_params_query(url) == urls._general_path(url)


RULE_PATHS = st.sampled_from(["/", "/a", "/a/b", "/a?q", "/a;p", "/%7E", "/a*", "/a$", "*b", ""])


@settings(max_examples=examples(1000), deadline=None)
@given(rules=st.lists(st.tuples(st.sampled_from(["allow", "disallow"]), RULE_PATHS), max_size=6),
       scheme=URL_PARTS, sep=st.sampled_from(["://", ":/", ""]), host=HOSTS, path=PATHS)
def test_allowed_reads_the_path_of_a_url_as_path_params_query_does(rules, scheme, sep, host, path):
    """R3: RobotsTxt.allowed's inlined shortcut for "https://host/path" takes the path that
    path_params_query gives (check reads it that way), for any host and path around it."""
    from robotrules import parse

    robots = parse("user-agent: *\n" + "".join(f"{kind}: {value}\n" for kind, value in rules))
    url = scheme + sep + host + path
    assert robots.allowed(url, "FooBot") == robots.check(url, "FooBot").allowed, url


ORIGINS = st.sampled_from(["https://example.com", "https://www.example.com", "http://example.com", "https://h?q",
                           "https://h;p", "https://h#f", "https://", "http://", "ftp://example.com", "//example.com", ""])


@settings(max_examples=examples(1000), deadline=None)
@given(rules=st.lists(st.tuples(st.sampled_from(["allow", "disallow"]), RULE_PATHS), max_size=6),
       urls=st.lists(st.tuples(ORIGINS, PATHS), min_size=2, max_size=8))
def test_allowed_decides_each_of_many_urls_as_check_does(rules, urls):
    """R3, S1: RobotsTxt.allowed remembers the origin of a URL it read fast and finds the path of
    the next URLs on that origin at the same place: a sequence of URLs on one origin, several, or
    of odd forms is decided URL by URL as check decides it."""
    from robotrules import parse

    robots = parse("user-agent: *\n" + "".join(f"{kind}: {value}\n" for kind, value in rules))
    for origin, path in urls:
        url = origin + path
        assert robots.allowed(url, "FooBot") == robots.check(url, "FooBot").allowed, url


AGENT_NAMES = st.sampled_from(["googlebot", "Googlebot", "GPTBot", "*", "foo", "FooBot", "", "googlebot-news",
                               "b\u00fcbot", "x y"])
CHECK_URLS = st.sampled_from(["/", "/a", "/a*b", "/a$", "/%7e", "/%7E", "/\u00e9", "/b", "/c/d?x=1", "/a#c",
                              "https://example.com/a/b", "http://h/%C3%A9", "/robots.txt", "", "?q"])


@pytest.mark.parametrize("mode_name", sorted(MODES))
@settings(max_examples=examples(400), deadline=None)
@given(body_lines=st.lists(lines(), max_size=12), url=CHECK_URLS, agents=st.lists(AGENT_NAMES, max_size=6))
def test_verdicts_for_many_agents_equal_check_for_each_agent(mode_name, body_lines, url, agents):
    """G2, G4, R1, R6: RobotsTxt.verdicts (one path, agents sharing a group share a match) gives,
    for each agent, the allowed and line that check(url, agent) gives."""
    from robotrules import parse

    robots = parse("\n".join(body_lines), mode=mode_name)
    expected = [(d.allowed, d.line) for d in (robots.check(url, agent) for agent in agents)]
    assert robots.verdicts(url, agents) == expected


@pytest.mark.parametrize("mode_name", sorted(MODES))
@settings(max_examples=examples(200), deadline=None)
@given(body_lines=st.lists(lines(), max_size=12), urls=st.lists(CHECK_URLS, max_size=5),
       agents=st.lists(AGENT_NAMES, max_size=6))
def test_rules_selected_once_for_agents_decide_every_url_as_check_does(mode_name, body_lines, urls, agents):
    """G2, G4: AgentRules (the agents' groups selected once) answers each of many URLs as check does."""
    from robotrules import parse

    robots = parse("\n".join(body_lines), mode=mode_name)
    rules = robots.for_agents(agents)
    assert rules.agents == tuple(agents)
    for url in urls:
        assert rules.verdicts(url) == [(d.allowed, d.line) for d in (robots.check(url, agent) for agent in agents)]


def test_verdicts_refuses_what_check_refuses():
    """A URL or agent that is not a string is a TypeError, as for check."""
    from robotrules import parse

    robots = parse("User-agent: *\nDisallow: /a\n")
    with pytest.raises(TypeError):
        robots.verdicts(b"/a", ["x"])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        robots.verdicts("/a", [None])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        robots.for_agents(["x"]).verdicts(None)  # type: ignore[arg-type]
