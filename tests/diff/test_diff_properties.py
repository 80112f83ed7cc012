"""robotrules.diff as properties: a file never differs from itself, and the verdict changes it
reports are exactly those that checking the URLs finds (G2-G4, R1-R6)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import robotrules
from robotrules.diff import diff
from tests.hypo import examples

MODES = ("google", "rfc9309", "legacy1994")
AGENTS = ("*", "foo", "bar", "Foo/1.0")
CHECKED_AGENTS = ("foo", "bar", "baz", "*")

_pattern = st.one_of(
    st.text("ab/*$", max_size=5).map(lambda p: "/" + p),
    st.sampled_from(["", "*", "/a/index.html", "/a/", "a", "/%61", "/é"]),
)
_rule = st.tuples(st.sampled_from(["allow", "disallow"]), _pattern)
_group = st.tuples(st.lists(st.sampled_from(AGENTS), min_size=1, max_size=2), st.lists(_rule, max_size=5))
_extra = st.sampled_from(["", "crawl-delay: 1", "crawl-delay: 2", "sitemap: https://h/a.xml", "# c", "junk line"])


@st.composite
def robots_files(draw: st.DrawFn) -> str:
    lines: list[str] = []
    for agents, rules in draw(st.lists(_group, max_size=4)):
        lines += [f"user-agent: {agent}" for agent in agents]
        lines += [f"{kind}: {pattern}" for kind, pattern in rules]
        lines.append(draw(_extra))
    return "\n".join(lines) + "\n"


_paths = st.lists(st.text("ab/$", max_size=5).map(lambda p: "/" + p), max_size=6)
_bodies = st.one_of(robots_files(), st.binary(max_size=200))


@settings(max_examples=examples(200), deadline=None, derandomize=True, database=None)
@given(body=_bodies, mode=st.sampled_from(MODES), paths=_paths)
def test_a_file_never_differs_from_itself(body, mode, paths):
    """diff(a, a) reports nothing, whatever the content, agents and URLs."""
    result = diff(body, body, mode=mode, urls=paths, agents=())
    assert not result.changed and result.to_dict()["changed"] is False
    assert not diff(body, body, mode=mode, urls=paths, agents=CHECKED_AGENTS).changed


@settings(max_examples=examples(300), deadline=None, derandomize=True, database=None)
@given(old=robots_files(), new=robots_files(), mode=st.sampled_from(MODES), paths=_paths)
def test_reported_verdicts_are_exactly_the_flips(old, new, mode, paths):
    """For the caller's URLs, the verdict changes reported are exactly the URLs whose verdict
    differs; every reported change is real; an agent whose rules did not change has no flip."""
    result = diff(old, new, mode=mode, urls=paths, agents=CHECKED_AGENTS)
    before, after = robotrules.parse(old, mode=mode), robotrules.parse(new, mode=mode)
    unnamed = "no-group-named-so"  # a product token no generated file names

    def token(agent: str) -> str:
        return unnamed if agent == "*" else agent

    flips = {
        (path, agent)
        for path in paths
        for agent in CHECKED_AGENTS
        if before.allowed(path, token(agent)) != after.allowed(path, token(agent))
    }
    # Agents are reported as the files write them ("Foo"); Google compares them case-insensitively.
    reported = {(v.url, v.agent.lower()) for v in result.verdicts}
    assert {item for item in reported if item[0] in paths} == flips
    for v in result.verdicts:
        assert before.allowed(v.url, token(v.agent)) == v.old_allowed
        assert after.allowed(v.url, token(v.agent)) == v.new_allowed != v.old_allowed
    changed_agents = {c.agent.lower() for c in result.rules}
    assert {agent for _, agent in flips} <= changed_agents
