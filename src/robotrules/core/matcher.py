"""Deciding a path against the rules of the applicable group(s) (R1, R4, R6).

A disallow decides "disallowed" only with a non-empty pattern: an empty ``disallow:`` matches
with priority 0, which never blocks (R1). Precedence is the integer rank of
:mod:`robotrules.core.rules`, so candidates compare as integers.

A :class:`RuleSet` keeps its rules, best first, in four kinds, each with a fast path:
catch-alls ("", "/", "*", "/*": they match every path, only the best counts), literal
prefixes (a test of the path's first two characters, then one ``str.startswith(tuple)``,
reject them all at C speed), exact paths ("/page$", one dict lookup) and wildcard patterns
(tried only while they could still outrank the best match so far, and only when the path
contains their longest literal segment; then matched in linear time by
:func:`~robotrules.core.pattern.segments_match`). Wildcard patterns are split once, when the file
is parsed (:func:`compile_wild`): a check compiles nothing. With :data:`MANY_WILD` wildcard rules or
more, a check first skips at C speed those needing an ASCII character the path lacks. The model builder sorts each rule into its kind
as it reads it (with :func:`classify`, or inline for a pattern without ``*`` and ``$``).
Immutable; safe to share between threads.
"""

from __future__ import annotations

import heapq
import struct
from array import array
from collections.abc import Iterable, Iterator, Mapping
from itertools import compress, repeat
from operator import itemgetter, not_
from types import MappingProxyType
from typing import NamedTuple

from robotrules.core.pattern import segments_match
from robotrules.core.rules import Ranked, Rule, disallows, make_rule

__all__ = ["EMPTY", "MANY_WILD", "Parts", "RuleSet", "Wild", "classify", "compile_wild", "wild_text"]


class Parts(NamedTuple):
    """Rules by kind, each list best first: floor (rank, pattern), literal (rank, prefix),
    exact (rank, path), wild (rank, pattern). A literal prefix is the pattern without its
    trailing ``*``s (:func:`~robotrules.core.rules.make_rule` puts them back from the rank);
    an exact path is the pattern without its final ``$``."""

    floor: list[Ranked]
    literal: list[Ranked]
    exact: list[Ranked]
    wild: list[Ranked]


def classify(parts: Parts, r: int, pattern: str, wildcards: bool) -> None:
    """Append one rule to the list of its kind (R4: a trailing ``*`` changes nothing).

    Without ``wildcards`` (``legacy1994``, L3) ``*`` and ``$`` are literal characters, so every
    pattern is a literal prefix or a catch-all: this is the one place that flag acts on matching.
    """
    key = pattern
    if wildcards:
        if "*" in pattern:
            key = pattern.rstrip("*")
            if "*" in key:
                parts.wild.append((r, pattern))
                return
        elif pattern.endswith("$"):  # a final "$" anchors; any other "$" is literal
            parts.exact.append((r, pattern[:-1]))
            return
    if key in ("", "/"):  # matches every path (paths start with "/")
        parts.floor.append((r, pattern))
    else:
        parts.literal.append((r, key))


Wild = tuple[int, "tuple[str, ...]", bool, str, int]
"""A wildcard rule compiled once, when its file is parsed: (rank, segments, anchored, probe, needs).
``segments`` are the literal runs between ``*`` and ``anchored`` a final ``$``, as
:func:`~robotrules.core.pattern.segments_match` takes them (the pattern is
:func:`wild_text` of them); ``probe`` is the longest segment, which every path the pattern matches
contains, as it contains every ASCII character whose bit is set in ``needs``. ``needs`` is kept
only in a set of :data:`MANY_WILD` wildcard rules or more (elsewhere it is 0: it skips nothing)."""

MANY_WILD = 256
"""From this many wildcard rules on, a check first skips, at C speed, the rules needing a
character the path lacks (their ``needs``, gathered in :attr:`RuleSet.needs`)."""

_BIT = {chr(i): 1 << i for i in range(128)}


def _mask(chars: Iterable[str]) -> int:
    """The bits of the ASCII characters among ``chars`` (others are left out: the mask only rejects)."""
    return sum(map(_BIT.get, set(chars), repeat(0)))


def compile_wild(r: int, pattern: str, shared: dict[int, int] | None = None) -> Wild:
    """Split a wildcard pattern (it holds a ``*``) once, at parse time, into what :meth:`RuleSet.best`
    matches with. With ``shared`` (a set of :data:`MANY_WILD` rules or more) its ``needs`` are
    computed, one copy of equal masks kept in ``shared``."""
    anchored = pattern[-1] == "$"
    segments = tuple((pattern[:-1] if anchored else pattern).split("*"))
    needs = 0
    if shared is not None:
        needs = _mask(pattern[:-1].replace("*", "") if anchored else pattern.replace("*", ""))
        needs = shared.setdefault(needs, needs)
    return (r, segments, anchored, max(segments, key=len), needs)


def wild_text(segments: tuple[str, ...], anchored: bool) -> str:
    """The pattern a compiled wildcard rule was split from."""
    return "*".join(segments) + "$" if anchored else "*".join(segments)


class RuleSet(NamedTuple):
    """The rules that apply to one agent, ready to match (G4, R1-R6). Build it with :meth:`build`.

    Compact: literal prefixes are one tuple of strings with their ranks in a parallel ``array``,
    so a rule costs its pattern string and two machine words; each wildcard rule keeps a probe,
    its longest literal segment, which any path it matches must contain, so ``probe in path``
    (C speed) skips most wildcard rules and only the others are matched. Wildcard rules are
    compiled here, once per parsed file (:data:`Wild`): a check splits no pattern.
    """

    written: Mapping[int, str] | None  # values as written where they differ from the pattern
    can_disallow: bool  # holds a disallow rule with a non-empty pattern (else every path is allowed)
    floor: tuple[Ranked, ...]
    floor_best: Ranked | None  # catch-alls: only the best one can decide
    prefixes: tuple[str, ...]
    heads: str  # the distinct first two characters of the prefixes, concatenated (a quick reject)
    ranks: bytes  # the literal prefixes' ranks, packed as native int64 (immutable, 8 bytes each)
    exact: tuple[Ranked, ...]
    exact_best: Mapping[str, int] | None  # read-only view
    wild: tuple[Wild, ...]
    needs: tuple[int, ...]  # with MANY_WILD wildcard rules or more, each one's needs (parallel to wild), else ()

    @classmethod
    def build(cls, parts: Parts, written: Mapping[int, str] | None, can_disallow: bool | None = None) -> RuleSet:
        """From ``parts`` with every list sorted best first (``can_disallow`` if the caller knows it)."""
        shared: dict[int, int] | None = {} if len(parts.wild) >= MANY_WILD else None
        wild = tuple([compile_wild(r, text, shared) for r, text in parts.wild])
        return cls._build(parts, wild, written, can_disallow)

    @classmethod
    def _build(
        cls, parts: Parts, wild: tuple[Wild, ...], written: Mapping[int, str] | None, can_disallow: bool | None
    ) -> RuleSet:
        """:meth:`build` with the wildcard rules already compiled (``parts.wild`` is not read)."""
        floor, literal, exact, _ = parts
        if can_disallow is None:
            can_disallow = any(disallows(r) for kind in (floor, literal, exact) for r, _ in kind) or any(
                disallows(w[0]) for w in wild
            )
        best: Mapping[str, int] | None = None
        if exact:
            table: dict[str, int] = {}
            for r, key in exact:
                table.setdefault(key, r)  # best first: the first one counts
            best = MappingProxyType(table)
        if written is not None and not isinstance(written, MappingProxyType):
            written = MappingProxyType(written)
        return _new_ruleset(
            cls,
            (
                written,
                can_disallow,
                tuple(floor),
                floor[0] if floor else None,
                tuple(map(itemgetter(1), literal)),
                "".join(dict.fromkeys([key[:2] for _, key in literal])),
                array("q", list(map(itemgetter(0), literal))).tobytes() if literal else b"",
                tuple(exact),
                best,
                wild,
                tuple(map(itemgetter(4), wild)) if len(wild) >= MANY_WILD else (),
            ),
        )

    @property
    def parts(self) -> Parts:
        """The rules by kind, best first (what :meth:`merge` and :meth:`ranked` read)."""
        return Parts(
            list(self.floor),
            list(zip((r for (r,) in _RANK.iter_unpack(self.ranks)), self.prefixes, strict=True)),
            list(self.exact),
            [(w[0], wild_text(w[1], w[2])) for w in self.wild],
        )

    @classmethod
    def merge(cls, rulesets: Iterable[RuleSet]) -> RuleSet:
        """G4: the union of several groups' rules, still best first."""
        rulesets = list(rulesets)
        if len(rulesets) == 1:
            return rulesets[0]
        written: dict[int, str] = {}
        for rs in rulesets:
            written.update(rs.written or {})
        literals = [list(zip((r for (r,) in _RANK.iter_unpack(rs.ranks)), rs.prefixes, strict=True)) for rs in rulesets]
        merged = Parts(
            list(heapq.merge(*(rs.floor for rs in rulesets), reverse=True)),
            list(heapq.merge(*literals, reverse=True)),
            list(heapq.merge(*(rs.exact for rs in rulesets), reverse=True)),
            [],
        )
        # Ranks are unique within a file (they hold the line): the compiled rules merge on rank alone.
        wild = tuple(heapq.merge(*(rs.wild for rs in rulesets), key=itemgetter(0), reverse=True))
        return cls._build(merged, wild, written or None, None)

    def best(self, path: str) -> Ranked | None:
        """The deciding (rank, pattern) for ``path``, or None when no rule matches (R6)."""
        found = self.floor_best
        prefixes = self.prefixes
        # A path starting with a prefix starts with the prefix's first two characters, its head.
        # Every path starts with "/", so a prefix that can match one has two characters or more
        # ("/" is a catch-all, and a one-character prefix such as "a" never matches): the path's
        # first two characters standing in the joined heads is a necessary condition (a chance
        # match across two heads only costs the full test).
        if prefixes and path[:2] in self.heads and path.startswith(prefixes):
            for key in prefixes:
                if path.startswith(key):
                    r = _RANK.unpack_from(self.ranks, 8 * prefixes.index(key))[0]  # first of equal keys: the best
                    if found is None or r > found[0]:
                        found = (r, key)  # without its trailing "*"s, if any (see Ranked)
                    break
        if self.exact_best:
            hit = self.exact_best.get(path)
            if hit is not None and (found is None or hit > found[0]):
                found = (hit, path + "$")
        wild = self.wild
        if wild and (found is None or wild[0][0] > found[0]):
            candidates: Iterable[Wild] = wild
            if self.needs:
                # Many wildcard rules: skip, at C speed, those needing a character the path lacks
                # (needs & ~have != 0).
                lacks = _ALL_ASCII ^ _mask(path)
                candidates = compress(wild, map(not_, map(lacks.__and__, self.needs)))
            for r, segments, anchored, probe, _ in candidates:
                if found is not None and r <= found[0]:
                    break
                if probe in path and segments_match(segments, anchored, path):
                    found = (r, wild_text(segments, anchored))
                    break
        return found

    def rule(self, found: Ranked) -> Rule:
        """The :class:`Rule` for a result of :meth:`best`."""
        return make_rule(found, self.written)

    def ranked(self) -> Iterator[Ranked]:
        """Every rule as (rank, pattern), best first (a literal prefix without its trailing ``*``s)."""
        floor, literal, exact, wild = self.parts
        return heapq.merge(floor, literal, ((r, key + "$") for r, key in exact), wild, reverse=True)


_RANK = struct.Struct("=q")
_ALL_ASCII = (1 << 128) - 1

_new_ruleset = tuple.__new__  # one allocation per group (RuleSet(...) would add a Python frame)
EMPTY: RuleSet = RuleSet.build(Parts([], [], [], []), None)  # the rules of no group: allows everything
