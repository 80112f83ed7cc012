"""The indexed usage answer equals a straightforward one (issue #33 item 2, A1-A7).

The reference parses every Content-Usage and Content-Signal line of the selected groups on each
call and scans every rule (what ``RobotsTxt.usage`` did before its lines were indexed): on files
full of repeated, tying and overlapping paths, in every mode, the two answers are equal, field by
field, down to the order of the deciding rules and of what their statement lists.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotrules
from robotrules.core.usage import Signal, Usage, answer, parse_signal, usage_rule
from tests.hypo import examples
from tests.properties._strategies import wild_agents, wild_body, wild_urls

pytestmark = pytest.mark.filterwarnings("ignore::robotrules.RobotsInputWarning")  # wild URLs and agents, on purpose

PATHS = ("", "/", "*", "/*", "**", "/a", "/a*", "/*a", "/a$", "/*a$", "/ab", "/b", "/%61", "/a%2A", "/*b", "/b*",
         "/\u00e4", "/%C3%A4", "/a/", "/*/", "$", "/a*b", "/*a*b$", "/a b")
STATEMENTS = ("train-ai=n", "train-ai=y", "search=y, train-ai=n", 'train-ai="n"', "Train-ai=n", "train-ai=y;x=1",
              "bots=n, train-ai=n", "x", "", "train-ai=(y)", "search=n,", "ai=n, search=y", "search=n")
SIGNALS = ("ai-train=no", "search=yes, ai-train=no", "ai-input=no", "ai-train=maybe", "", "search=no, x=1")
AGENTS = ("*", "foo", "bar")
URLS = ("/", "/a", "/ab", "/ba", "/a/b", "/b", "/%61", "/%C3%A4", "/a%2A", "/aXb", "/a b", "https://e.com/ab?x#f",
        "https://e.com", "?q", "")

usage_line = st.builds(lambda path, statement: f"Content-Usage: {path} {statement}".replace(":  ", ": "),
                       st.sampled_from(PATHS), st.sampled_from(STATEMENTS))
signal_line = st.sampled_from(SIGNALS).map(lambda signal: f"Content-Signal: {signal}")
other_line = st.sampled_from(("Disallow: /b", "Allow: /", "Disallow: /a$", "Crawl-delay: 1", ""))


@st.composite
def tying_files(draw) -> bytes:
    """Groups of repeated, tying and overlapping preference lines (a small pool, drawn again and
    again), sometimes signals outside any group, sometimes wild lines among them."""
    pool = draw(st.lists(st.one_of(usage_line, usage_line, signal_line, other_line), min_size=1, max_size=6))
    lines = [draw(signal_line) for _ in range(draw(st.integers(0, 2)))]
    for _ in range(draw(st.integers(1, 4))):
        lines += [f"User-agent: {agent}" for agent in draw(st.lists(st.sampled_from(AGENTS), min_size=1, max_size=2))]
        lines += draw(st.lists(st.sampled_from(pool), max_size=12))
    lines += draw(wild_body(max_lines=3)).decode("utf-8", "replace").split("\n")
    return "\n".join(lines).encode()


def reference(robots: robotrules.RobotsTxt, url: str, agent: str | list[str], global_group: bool) -> Usage:
    """The answer as computed before the index: every line parsed, every rule scanned."""
    decision = robots.check(url, agent, global_group=global_group)
    rules: tuple = ()
    signals: tuple = ()
    if robots.mode != "legacy1994":
        normalise = robots.mode == "rfc9309"
        exts = [ext for group in decision.groups for ext in group.extensions]
        rules = tuple(usage_rule(e.value, e.line, normalise) for e in exts if e.field == "content-usage")
        signals = tuple(Signal(e.line, e.value, parse_signal(e.value), "group") for e in exts if e.field == "content-signal")
        if not signals:
            signals = tuple(Signal(e.line, e.value, parse_signal(e.value), "file")
                            for e in robots.extensions if e.field == "content-signal")
    return answer(decision.allowed, decision.explain(), decision.path, decision.agent, rules, signals)


def _same(got: Usage, expected: Usage) -> None:
    assert got == expected
    pairs = [(got.statement, expected.statement)]
    pairs += [(mine.statement, theirs.statement) for mine, theirs in zip(got.rules, expected.rules, strict=True)]
    for mine, theirs in pairs:
        assert (mine.describe(), mine.error, mine.ignored, mine.unread) == (
            theirs.describe(), theirs.error, theirs.ignored, theirs.unread)
    assert got.explain() == expected.explain()


@pytest.mark.parametrize("mode", ["google", "rfc9309", "legacy1994"])
@settings(max_examples=examples(300), deadline=None)
@given(body=tying_files(), queries=st.lists(
    st.tuples(st.one_of(st.sampled_from(URLS), wild_urls),
              st.one_of(st.sampled_from(("foo", "bar", "baz", "*")), st.lists(st.sampled_from(("foo", "bar", "baz")),
                                                                              min_size=1, max_size=3), wild_agents),
              st.booleans()), min_size=1, max_size=6))
def test_the_indexed_answer_equals_a_scan_of_every_line(mode: str, body: bytes, queries) -> None:
    """A1-A7, issue #33: usage() (indexed, memoised) equals the reference for every URL, agent and
    ``global_group``, asked in any order; usage_lines() gives the lines the reference reads."""
    robots = robotrules.parse(body, mode=mode)
    for url, agent, global_group in queries:
        expected = reference(robots, url, agent, global_group)
        _same(robots.usage(url, agent, global_group=global_group), expected)
        rules, signals = robots.usage_lines(agent, global_group=global_group)
        assert expected.stated == bool(rules or signals)
        if expected.crawlable and expected.path.startswith("/"):
            assert all(rule in rules for rule in expected.rules)
