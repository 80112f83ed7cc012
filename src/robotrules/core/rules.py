"""Rules and their rank: the one integer that orders them by precedence (R1, R6).

The rule that decides is the matching rule with the longest pattern; on equal length allow
wins; among equal rules of one kind the earliest line is the one reported (the reference
keeps the first). :func:`rank` packs exactly that order into an integer, so the matcher
compares integers and keeps rules as compact ``(rank, pattern)`` pairs.
"""

from __future__ import annotations

from typing import Final, Mapping, NamedTuple

__all__ = ["ALLOW_BIT", "LINE_MASK", "PRIORITY_SHIFT", "Ranked", "Rule", "make_rule", "rank"]

LINE_BITS: Final = 20  # F9 bounds a file to 512,000 bytes, so line numbers < 2**20
LINE_MASK: Final = (1 << 20) - 1
ALLOW_BIT: Final = 1 << 20
PRIORITY_SHIFT: Final = 21

Ranked = tuple[int, str]
"""A rule as the matcher keeps it: (rank, normalised pattern)."""


def rank(allow: bool, priority: int, line: int) -> int:
    """R6 as one integer: longer pattern first, then allow over disallow, then the earlier line."""
    return (priority << PRIORITY_SHIFT) | (allow << LINE_BITS) | (LINE_MASK - line)


class Rule(NamedTuple):
    """An allow or disallow line (R1). ``pattern`` is the normalised form that is matched;
    ``priority`` is its length in octets, the measure of specificity (R6); ``value`` is the
    path as written."""

    allow: bool
    pattern: str
    line: int
    value: str
    priority: int

    @property
    def kind(self) -> str:
        return "allow" if self.allow else "disallow"


def make_rule(ranked: Ranked, written: Mapping[int, str] | None) -> Rule:
    """Expand a ``(rank, pattern)`` pair into a :class:`Rule` (its written value from ``written``)."""
    r, pattern = ranked
    line = LINE_MASK - (r & LINE_MASK)
    value = written.get(line, pattern) if written else pattern
    return Rule(bool(r & ALLOW_BIT), pattern, line, value, r >> PRIORITY_SHIFT)
