"""A "shadowed-rule" finding is only reported for a rule that never decides (R4, R6, G4, L2).

The linter's claim is checked against the matcher: for small random files (a few groups, agents
from a small pool, patterns over "ab/*$"), no line reported as shadowed is the deciding line of
any check, for any agent of the file or an unknown one, over generated paths.
"""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import robotrules
from tests.hypo import examples

AGENTS = ("*", "foo", "bar")
MODES = ("google", "rfc9309", "legacy1994")
# Every path of up to four characters after "/" over the pattern alphabet: small enough to try all.
PATHS = ["/" + "".join(chars) for n in range(5) for chars in itertools.product("ab$", repeat=n)]

patterns = st.builds(lambda body: "/" + body, st.text("ab*$", max_size=5))
rules = st.tuples(st.sampled_from(("allow", "disallow")), patterns)
groups = st.tuples(st.lists(st.sampled_from(AGENTS), min_size=1, max_size=2), st.lists(rules, min_size=1, max_size=4))


def _render(file_groups) -> bytes:
    lines = []
    for agents, group_rules in file_groups:
        lines += [f"user-agent: {agent}" for agent in agents]
        lines += [f"{kind}: {pattern}" for kind, pattern in group_rules]
    return ("\n".join(lines) + "\n").encode()


@settings(max_examples=examples(300), deadline=None)
@given(file_groups=st.lists(groups, min_size=1, max_size=3), mode=st.sampled_from(MODES))
def test_a_shadowed_rule_never_decides(file_groups, mode):
    """R6: every line reported "shadowed-rule" is never the deciding line of a check."""
    body = _render(file_groups)
    shadowed = {d.line for d in robotrules.lint(body, mode) if d.code == "shadowed-rule"}
    if not shadowed:
        return
    rt = robotrules.parse(body, mode=mode)
    for agent in ("foo", "bar", "other"):
        for path in PATHS:
            line = rt.check(path, agent).line
            assert line not in shadowed, (agent, path, line, body)
