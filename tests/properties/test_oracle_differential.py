"""Differential properties against Google's C++ reference parser (jwm.robotstxt).

Modes/google: byte-for-byte the decisions of the reference, and Decision.line equals the
reference's matching_line() (API contract). Covers P1-P7, G1-G5, R1-R6 on generated
files: valid, misspelled (P6), colon-less, commented, junk and non-UTF-8 lines.
Volume lives in the conformance suite; this keeps max_examples moderate.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import robotrules
from tests.hypo import examples

from ._strategies import LIMIT, wild_agents, wild_body, wild_urls

googlebot = pytest.importorskip("jwm.robotstxt.googlebot")

pytestmark = [pytest.mark.oracle, pytest.mark.google_only]


def oracle(body: bytes, agent, url: str) -> tuple[bool, int]:
    m = googlebot.RobotsMatcher()  # a new matcher per query
    if isinstance(agent, str):
        allowed = m.OneAgentAllowedByRobots(body[:LIMIT], agent, url)
    else:
        allowed = m.AllowedByRobots(body[:LIMIT], list(agent), url)
    return bool(allowed), m.matching_line()


def ours(body: bytes, agent, url: str) -> tuple[bool, int]:
    d = robotrules.parse(body).check(url, agent)
    return d.allowed, d.line


@settings(max_examples=examples(400), deadline=None)
@given(body=wild_body(), queries=st.lists(st.tuples(wild_urls, wild_agents), min_size=1, max_size=6))
@example(body=b"user-agent: *\nallow: /a\ndisallow: /a*\n", queries=[("/a", "foo")])  # trailing '*' lengthens (R4 vs R6)
@example(body=b"user-agent: *\ndisallow:\n", queries=[("/x", "foo")])  # empty rule still reported as line 2
@example(body=b"user-agent: *\ndisallow: /\nallow: /x/index.html\n", queries=[("/x/", "foo")])  # index.html -> '/x/$'
@example(body=b"user-agent: *\ndisallow: /%c3%a4\n", queries=[("/%C3%A4", "foo"), ("/\u00e4", "foo")])
@example(body=b"user-agent: *\ndisallow: /\n", queries=[("/x", []), ("/x", ["*"]), ("/x", "")])
@example(body=b"user-agent: foo\n# x\x0bdisallow: /\n", queries=[("/x", "foo")])  # only CR/LF break lines (P1)
@example(body=b"disallow /a\nuser-agent foo\ndisallow /b\n", queries=[("/b", "foo"), ("/a", "foo")])
def test_allowed_and_line_agree_with_the_reference(body, queries):
    """Modes/google, P1-P7, G1-G5, R1-R6: for generated files, urls and agents (one or a
    list), allowed and line equal the reference's OneAgentAllowedByRobots/AllowedByRobots
    and matching_line()."""
    for url, agent in queries:
        assert ours(body, agent, url) == oracle(body, agent, url), (url, agent)
