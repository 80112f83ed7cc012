"""Properties of the usage answer (A1-A8) on generated files, URLs and agents.

The crawl verdict inside a usage answer is exactly allowed(); the preference lines change no
group and no crawl verdict; no preference is given for a URL that may not be crawled (A3); and the answer
never raises, whatever the file holds.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotrules
from tests.hypo import examples

from ._strategies import wild_agents, wild_body, wild_paths, wild_urls

STATEMENTS = ("train-ai=n", "train-ai=y", "search=y, train-ai=n", 'train-ai="n"', "Train-ai=n", "train-ai=y;x=1",
              "train-ai=n, train-ai=y", "bots=n", "", "train-ai=(y)", "search=n,")
SIGNALS = ("ai-train=no", "search=yes, ai-train=no", "ai-input=no", "ai-train=maybe", "")

preference_lines = st.one_of(
    st.builds(lambda path, statement, gap: f"Content-Usage: {path}{gap}{statement}",
              st.one_of(st.just(""), wild_paths.map(lambda p: "/" + p)), st.sampled_from(STATEMENTS),
              st.sampled_from((" ", "\t", "  "))),
    st.builds(lambda signal: f"Content-Signal: {signal}", st.sampled_from(SIGNALS)),
)


@st.composite
def files_with_preferences(draw) -> bytes:
    """A wild robots.txt with Content-Usage and Content-Signal lines put in anywhere."""
    lines = draw(wild_body()).split(b"\n")
    for line in draw(st.lists(preference_lines, max_size=6)):
        lines.insert(draw(st.integers(0, len(lines))), line.encode())
    return b"\n".join(lines)


@pytest.mark.parametrize("mode", ["google", "rfc9309", "legacy1994"])
@settings(max_examples=examples(300), deadline=None)
@given(body=files_with_preferences(), queries=st.lists(st.tuples(wild_urls, wild_agents), min_size=1, max_size=4))
def test_usage_crawlable_is_exactly_allowed(mode: str, body: bytes, queries) -> None:
    """A3, A8: usage(u, a).crawlable == allowed(u, a); no preference where it is False."""
    robots = robotrules.parse(body, mode=mode)
    for url, agent in queries:
        usage = robots.usage(url, agent)
        assert usage.crawlable == robots.allowed(url, agent)
        if not usage.crawlable:
            assert all(value is None for value in usage.preferences().values())
        assert usage.explain()


@settings(max_examples=examples(300), deadline=None)
@given(body=files_with_preferences(), queries=st.lists(st.tuples(wild_urls, wild_agents), min_size=1, max_size=4))
def test_preference_lines_replaced_by_comments_change_no_crawl_verdict(body: bytes, queries) -> None:
    """A1: each Content-Usage or Content-Signal line replaced by a comment (same line numbers):
    the same groups, verdicts and deciding lines (to Google's reference neither line is a rule,
    so neither ends a run of user-agent lines)."""
    lines = body.split(b"\n")
    blanked = [b"# was a preference" if line.lstrip().lower().startswith((b"content-usage", b"content-signal"))
               else line for line in lines]
    with_lines, without = robotrules.parse(body), robotrules.parse(b"\n".join(blanked))
    assert [(g.line, g.agents) for g in with_lines.groups] == [(g.line, g.agents) for g in without.groups]
    for url, agent in queries:
        assert with_lines.check(url, agent)[:2] == without.check(url, agent)[:2]
