"""Deciding a path against the rules of the applicable group(s) (R1, R4, R6).

The rule that decides is the matching rule with the longest pattern; on equal length allow
wins; among equal rules of one kind the earliest line is the one reported (the reference
keeps the first). A disallow decides "disallowed" only with a non-empty pattern: an empty
``disallow:`` matches with priority 0, which never blocks (R1). This is encoded in one integer
*rank* per rule so that comparing two candidates is one integer comparison.

A :class:`RuleSet` sorts its rules into three kinds, each with a fast path:
literal prefixes (one ``str.startswith(tuple)`` rejects them all at C speed), exact paths
(``/page$``, one dict lookup) and wildcard patterns (linear-time :class:`Pattern`, tried only
while they could still outrank the best match so far). Catch-all rules ("", "/", "*", "/*")
are folded into a floor. Immutable after construction; safe to share between threads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from robotrules.core.model import Group, Rule
from robotrules.core.pattern import Pattern, compile_pattern

__all__ = ["Decision", "RuleSet", "rank", "index_html_rules"]

_LINE_BITS = 20  # F9 bounds a file to 512,000 bytes, so lines < 2**20
_LINE_MASK = (1 << _LINE_BITS) - 1
_ALLOW_BIT = 1 << _LINE_BITS
_PRIORITY_SHIFT = _LINE_BITS + 1


def rank(rule: Rule) -> int:
    """R6: (priority, allow over disallow, earlier line) as one comparable integer."""
    return (rule.priority << _PRIORITY_SHIFT) | (rule.allow << _LINE_BITS) | (_LINE_MASK - min(rule.line, _LINE_MASK))


def index_html_rules(rules: Iterable[Rule]) -> list[Rule]:
    """Google-specific: "allow: /dir/index.htm[l]" also allows "/dir/" (as the pattern "/dir/$").

    The reference tries the directory form only when the written pattern does not match; the
    written pattern is always longer, so adding the directory form as its own rule decides the same.
    """
    derived = []
    for rule in rules:
        if not rule.allow:
            continue
        slash = rule.pattern.rfind("/")
        if slash >= 0 and rule.pattern.startswith("/index.htm", slash):
            pattern = rule.pattern[: slash + 1] + "$"
            derived.append(Rule(True, pattern, rule.line, rule.value, len(pattern)))
    return derived


class RuleSet:
    """The merged rules of the groups that apply to one agent, ready to match (G4, R1-R6)."""

    __slots__ = ("groups", "_floor", "_prefixes", "_literal", "_exact", "_wild")

    def __init__(self, groups: tuple[Group, ...], rules: Iterable[Rule], *, wildcards: bool) -> None:
        self.groups = groups
        floor: tuple[int, Rule] | None = None
        literal: list[tuple[int, str, Rule]] = []
        exact: dict[str, tuple[int, Rule]] = {}
        wild: list[tuple[int, Pattern, Rule]] = []
        for rule in rules:
            r = rank(rule)
            pattern = rule.pattern
            if wildcards:
                stripped = pattern.rstrip("*")  # R4: a trailing "*" changes nothing
                if "*" in stripped:
                    wild.append((r, compile_pattern(pattern), rule))
                    continue
                if stripped == pattern and pattern.endswith("$"):  # a final "$" anchors
                    key = pattern[:-1]
                    if key not in exact or exact[key][0] < r:
                        exact[key] = (r, rule)
                    continue
                pattern = stripped  # any "$" left is literal
            if pattern in ("", "/"):  # matches every path (paths start with "/")
                if floor is None or floor[0] < r:
                    floor = (r, rule)
            else:
                literal.append((r, pattern, rule))
        literal.sort(key=lambda item: item[0], reverse=True)
        wild.sort(key=lambda item: item[0], reverse=True)
        self._floor = floor
        self._literal = tuple(literal)
        self._prefixes = tuple(item[1] for item in literal)
        self._exact = exact
        self._wild = tuple(wild)

    def best(self, path: str) -> tuple[int, Rule] | None:
        """The deciding (rank, rule) for ``path``, or None when no rule matches (R6)."""
        found = self._floor
        if self._prefixes and path.startswith(self._prefixes):
            for r, pattern, rule in self._literal:
                if path.startswith(pattern):
                    if found is None or r > found[0]:
                        found = (r, rule)
                    break
        if self._exact:
            hit = self._exact.get(path)
            if hit is not None and (found is None or hit[0] > found[0]):
                found = hit
        for r, compiled, rule in self._wild:
            if found is not None and r <= found[0]:
                break
            if compiled.matches(path):
                found = (r, rule)
                break
        return found

    def allowed(self, path: str) -> bool:
        """R1/R6: disallowed only when the deciding rule is a disallow with a non-empty pattern."""
        found = self.best(path)
        return found is None or found[0] & _ALLOW_BIT != 0 or found[0] >> _PRIORITY_SHIFT == 0

    @property
    def rules(self) -> tuple[Rule, ...]:
        """All rules in rank order (for explanation and linting)."""
        items = [(r, rule) for r, _, rule in self._literal] + [(r, rule) for r, _, rule in self._wild]
        items += list(self._exact.values())
        if self._floor is not None:
            items.append(self._floor)
        return tuple(rule for _, rule in sorted(items, key=lambda item: item[0], reverse=True))


EMPTY = RuleSet((), (), wildcards=True)


@dataclass(frozen=True, slots=True)
class Decision:
    """The answer for one URL and agent, with why (DESIGN: every verdict is explainable).

    ``line`` is the 1-based line of the deciding rule, 0 when no rule matched; ``rule`` that
    rule; ``groups`` the groups whose rules applied; ``agent`` the token that selected them
    ("*" for the fallback group, None when no group applied); ``path`` what was matched.
    """

    allowed: bool
    line: int
    rule: Rule | None
    groups: tuple[Group, ...]
    agent: str | None
    path: str

    def explain(self) -> str:
        """One line for people: the verdict, the deciding line and the group."""
        verdict = "allowed" if self.allowed else "disallowed"
        if self.agent is None:
            who = "no group applies"
        elif self.agent == "*":
            who = "group 'user-agent: *'"
        else:
            who = f"group for {self.agent!r}"
        if self.rule is None:
            return f"{verdict}: no rule matches {self.path!r} ({who})"
        return f"{verdict} by line {self.line} '{self.rule.kind}: {self.rule.value}' ({who})"
