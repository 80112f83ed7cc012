"""Rules and their rank: the one integer that orders them by precedence (R1, R6).

The rule that decides is the matching rule with the longest pattern; on equal length allow
wins; among equal rules of one kind the earliest line is the one reported (the reference
keeps the first). :func:`rank` packs exactly that order into an integer, so the matcher
compares integers and keeps rules as compact ``(rank, pattern)`` pairs.

This module is the one place that packs and unpacks a rank: :func:`rank` packs it;
:func:`make_rule`, :func:`disallows`, :func:`is_allow`, :func:`priority_of`, :func:`line_of` and
:func:`verdict` read it. Two hot paths repeat an
expression of these constants inline, because a call there costs in pure Python (under
mypyc it would not): the model builder packs each rule line as :func:`rank` does, and
``RobotsTxt.allowed`` reads the verdict as :func:`verdict` does. Both say so where they do it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, NamedTuple

__all__ = [
    "ALLOW_BIT",
    "LINE_MASK",
    "PRIORITY_ONE",
    "PRIORITY_SHIFT",
    "Ranked",
    "Rule",
    "disallows",
    "is_allow",
    "line_of",
    "make_rule",
    "priority_of",
    "rank",
    "verdict",
]

# The layout, high bits to low: priority (the pattern's length) | allow | LINE_MASK - line.
LINE_BITS: Final = 20  # F9 bounds a file to 512,000 bytes, so line numbers < 2**20
LINE_MASK: Final = (1 << LINE_BITS) - 1
ALLOW_BIT: Final = 1 << LINE_BITS
PRIORITY_SHIFT: Final = LINE_BITS + 1
PRIORITY_ONE: Final = 1 << PRIORITY_SHIFT
"""The lowest rank of a rule with a non-empty pattern: a rank below it is an empty pattern (R1)."""

Ranked = tuple[int, str]
"""A rule as the matcher keeps it: (rank, normalised pattern).

The pattern may lack its trailing ``*``s (R4: they change nothing), as the matcher keeps
literal prefixes; the rank's priority is the whole pattern's length, so :func:`make_rule`
puts them back.
"""


def rank(allow: bool, priority: int, line: int) -> int:
    """R6 as one integer: longer pattern first, then allow over disallow, then the earlier line."""
    return (priority << PRIORITY_SHIFT) | (ALLOW_BIT if allow else 0) | (LINE_MASK - line)


def disallows(r: int) -> bool:
    """R1: whether the rule of rank ``r``, when it decides, disallows: a disallow with a non-empty pattern."""
    return not r & ALLOW_BIT and r >= PRIORITY_ONE


def is_allow(r: int) -> bool:
    """Whether the rule of rank ``r`` is an allow line, whatever its pattern (R1)."""
    return bool(r & ALLOW_BIT)


def priority_of(r: int) -> int:
    """The priority of the rule of rank ``r``: its pattern's length in octets (R6; 0 for an empty pattern)."""
    return r >> PRIORITY_SHIFT


def line_of(r: int) -> int:
    """The 1-based line of the rule of rank ``r`` (R6 reports the earliest of equal rules)."""
    return LINE_MASK - (r & LINE_MASK)


def verdict(found: Ranked | None) -> bool:
    """R1/R6: allowed unless the deciding rule (None: no rule matched) is a disallow with a non-empty pattern."""
    return found is None or not disallows(found[0])


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
        """``"allow"`` or ``"disallow"``, as the field is named."""
        return "allow" if self.allow else "disallow"


def make_rule(ranked: Ranked, written: Mapping[int, str] | None) -> Rule:
    """Expand a ``(rank, pattern)`` pair into a :class:`Rule` (its written value from ``written``).

    Trailing ``*``s the pair's pattern lacks are put back (see :data:`Ranked`).
    """
    r, pattern = ranked
    priority = r >> PRIORITY_SHIFT
    if len(pattern) < priority:
        pattern += "*" * (priority - len(pattern))
    line = line_of(r)
    value = written.get(line, pattern) if written else pattern
    return Rule(bool(r & ALLOW_BIT), pattern, line, value, priority)
