"""Deciding a path against the rules of the applicable group(s) (R1, R4, R6).

A disallow decides "disallowed" only with a non-empty pattern: an empty ``disallow:`` matches
with priority 0, which never blocks (R1). Precedence is the integer rank of
:mod:`robotrules.core.rules`, so candidates compare as integers.

A :class:`RuleSet` keeps its rules, best first, in four kinds, each with a fast path:
catch-alls ("", "/", "*", "/*": they match every path, only the best counts), literal
prefixes (one dict lookup of the path's first two characters gives the few that can match),
exact paths ("/page$", one dict lookup) and wildcard patterns (tried only while they could
still outrank the best match so far, and only when the path contains their longest literal
segment; then matched in linear time by :func:`~robotrules.core.pattern.segments_match`).
The model builder
puts each rule in the list of its kind as it reads it (a :class:`Draft`, with :func:`classify`
or inline for a pattern without ``*`` and ``$``); a rule set sorts and indexes them when a check
first needs it, splitting each wildcard pattern once (:func:`compile_wild`), so parsing pays
nothing for the groups no crawler asks about and later checks compile nothing. With
:data:`MANY_WILD` wildcard rules or more, a check first skips at C speed those needing an ASCII
character the path lacks. Immutable as far as callers can tell; safe to share between threads.
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Iterable, Iterator, Mapping
from itertools import compress, repeat
from operator import itemgetter, not_
from types import MappingProxyType
from typing import NamedTuple

from robotrules.core.pattern import segments_match
from robotrules.core.rules import Ranked, Rule, disallows, make_rule

__all__ = ["EMPTY", "MANY_WILD", "Draft", "Parts", "RuleSet", "Wild", "classify", "compile_wild", "share_paths",
           "wild_text"]


class Parts(NamedTuple):
    """Rules by kind, each list best first: floor (rank, pattern), literal (rank, prefix),
    exact (rank, path), wild (rank, pattern). A literal prefix is the pattern without its
    trailing ``*``s (:func:`~robotrules.core.rules.make_rule` puts them back from the rank);
    an exact path is the pattern without its final ``$``."""

    floor: list[Ranked]
    literal: list[Ranked]
    exact: list[Ranked]
    wild: list[Ranked]


def classify(draft: Draft, r: int, pattern: str, wildcards: bool) -> None:
    """Add one rule to the list of its kind (R4: a trailing ``*`` changes nothing).

    Without ``wildcards`` (``legacy1994``, L3) ``*`` and ``$`` are literal characters, so every
    pattern is a literal prefix or a catch-all: this is the one place that flag acts on matching.
    """
    key = pattern
    if wildcards:
        if "*" in pattern:
            key = pattern.rstrip("*")
            if "*" in key:
                draft.wild.append((r, pattern))
                return
        elif pattern.endswith("$"):  # a final "$" anchors; any other "$" is literal
            draft.exact.append((r, pattern[:-1]))
            return
    if key in ("", "/"):  # matches every path (paths start with "/")
        draft.floor.append((r, pattern))
    else:
        draft.ranks.append(r)
        draft.keys.append(key)


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


class Draft:
    """A group's rules as the parser reads them (file order), each in the list of its kind: the
    raw material of a :class:`RuleSet`, sorted and indexed only when a check first needs it.

    Literal prefixes, most of a file's rules, are kept compact (a packed rank and a shared
    string each, as a built :class:`RuleSet` keeps them), so a group nobody asks about costs no
    more than a built one. Written by one parser, then only read.
    """

    __slots__ = ("exact", "floor", "keys", "packed", "ranks", "wild")

    def __init__(self) -> None:
        self.floor: list[Ranked] = []
        self.ranks: list[int] = []  # the literal prefixes' ranks while the group is read, parallel to keys
        self.packed = _NO_RANKS  # the same, packed (8 bytes each) once it is read (:meth:`pack`)
        self.keys: list[str] = []
        self.exact: list[Ranked] = []
        self.wild: list[Ranked] = []

    def pack(self) -> None:
        """The group is read: keep its literal ranks packed (a list of ints costs five times as much)
        and let its empty lists go (one shared empty list stands for them: nothing writes a packed draft)."""
        if self.ranks:
            self.packed = array("q", self.ranks)
        self.ranks = _NO_LIST
        if not self.floor:
            self.floor = _NO_RULES
        if not self.exact:
            self.exact = _NO_RULES
        if not self.wild:
            self.wild = _NO_RULES

    def has_rules(self) -> bool:
        """Whether any allow or disallow line was read (G1: a user-agent line after one starts a group)."""
        return bool(self.keys or self.floor or self.exact or self.wild)

    def parts(self) -> Parts:
        """The rules by kind, best first (sorted copies: the draft is left as it is)."""
        return Parts(sorted(self.floor, reverse=True),
                     sorted(zip(self.packed if self.packed else self.ranks, self.keys, strict=True), reverse=True),
                     sorted(self.exact, reverse=True), sorted(self.wild, reverse=True))


class _Matcher(NamedTuple):
    """A :class:`RuleSet` ready to match, built on first use (fields in the order :meth:`RuleSet.best`
    unpacks them)."""

    floor_best: Ranked | None  # catch-alls: only the best one can decide
    by_head: dict[str, tuple[tuple[str, ...], tuple[Ranked, ...]]]  # first two characters -> the literal
    # prefixes starting with them, best first: their texts (one C-speed test of them all) and (rank, prefix)
    exact_best: dict[str, int] | None  # exact paths (never handed out: a plain dict, the fastest to read)
    wild: tuple[Wild, ...]
    needs: tuple[int, ...]  # with MANY_WILD wildcard rules or more, each one's needs (parallel to wild), else ()
    floor: tuple[Ranked, ...]
    exact: tuple[Ranked, ...]
    literal: int  # how many literal prefixes


class RuleSet:
    """The rules that apply to one agent, ready to match (G4, R1-R6).

    Made by the parser from a group's :class:`Draft`, by :meth:`build` from :class:`Parts`, or by
    :meth:`merge`. The index a check reads is built when a check first needs it: a crawler asks
    for one or two of a file's groups, and parsing does not pay for the others. Built, literal
    prefixes are grouped by their first two characters, so a check tries only the few that
    share the path's; each wildcard rule keeps a probe, its longest literal segment, which any
    path it matches must contain, so a search for it (C speed) skips most wildcard rules;
    wildcard rules are split once (:data:`Wild`): a check splits no pattern.

    Immutable as far as anyone can tell, and safe to share between threads: the first checks to
    find no index build one each from the draft (pure, so the builds are equal), each stores it
    in one assignment, and the draft is let go only after an index is stored.
    """

    __slots__ = ("_can_disallow", "_draft", "_index", "_sources", "_written")

    def __init__(self, draft: Draft | None = None, written: Mapping[int, str] | None = None, can_disallow: bool = False,
                 sources: tuple[RuleSet, ...] = ()) -> None:  # defaults: unpickling a compiled one calls RuleSet()
        self._draft = draft
        self._sources = sources  # a merge: the rule sets whose union this is
        self._index: _Matcher | None = None
        self._written = written
        self._can_disallow = can_disallow  # read directly by RobotsTxt.allowed, the hot path

    @property
    def written(self) -> Mapping[int, str] | None:
        """The values as written of the rules where they differ from the pattern, by line."""
        return self._written

    @property
    def can_disallow(self) -> bool:
        """Whether a disallow rule with a non-empty pattern is among the rules (else every path is allowed, R1)."""
        return self._can_disallow

    def __eq__(self, other: object) -> bool:
        """Equal rules (the same rules, lines and values as written), built or not, however made."""
        if not isinstance(other, RuleSet):
            return NotImplemented
        return other is self or (self._can_disallow == other._can_disallow and self._written == other._written
                                 and self.parts() == other.parts())

    def __hash__(self) -> int:
        return hash((self.sizes(), self._can_disallow))

    def __repr__(self) -> str:
        literal, other = self.sizes()
        return f"RuleSet({literal} literal prefixes, {other} other rules)"

    @classmethod
    def build(cls, parts: Parts, written: Mapping[int, str] | None, can_disallow: bool | None = None) -> RuleSet:
        """From ``parts`` (each list in any order; ``can_disallow`` if the caller knows it)."""
        draft = Draft()
        draft.floor.extend(parts.floor)
        draft.ranks.extend(r for r, _ in parts.literal)
        draft.keys.extend(key for _, key in parts.literal)
        draft.exact.extend(parts.exact)
        draft.wild.extend(parts.wild)
        draft.pack()
        if can_disallow is None:
            can_disallow = any(disallows(r) for kind in parts for r, _ in kind)
        return cls(draft, _frozen(written), can_disallow)

    @classmethod
    def merge(cls, rulesets: Iterable[RuleSet]) -> RuleSet:
        """G4: the union of several groups' rules (built when first matched)."""
        sources = tuple(rulesets)
        if len(sources) == 1:
            return sources[0]
        written: dict[int, str] = {}
        for rs in sources:
            written.update(rs.written or {})
        return cls(None, _frozen(written or None), any(rs.can_disallow for rs in sources), sources)

    @property
    def built(self) -> bool:
        """Whether the index a check reads has been built (for tests and the memory model)."""
        return self._index is not None

    def parts(self) -> Parts:
        """The rules by kind, best first (what :meth:`ranked` reads), as new lists."""
        index = self._index
        if index is None:
            draft = self._draft
            if draft is not None:
                return draft.parts()
            index = self._build()  # a merge, or built meanwhile by another thread
        return Parts(
            list(index.floor),
            _literal(index),
            list(index.exact),
            [(w[0], wild_text(w[1], w[2])) for w in index.wild],
        )

    def sizes(self) -> tuple[int, int]:
        """``(literal prefixes, other rules)``: what the rules cost, built or not (the client's
        memory model reads it)."""
        index = self._index
        if index is not None:
            return index.literal, len(index.floor) + len(index.exact) + len(index.wild)
        draft = self._draft
        if draft is not None:
            return len(draft.keys), len(draft.floor) + len(draft.exact) + len(draft.wild)
        if self._sources:
            counts = [rs.sizes() for rs in self._sources]
            return sum(c[0] for c in counts), sum(c[1] for c in counts)
        return self.sizes()  # built meanwhile by another thread

    def _build(self) -> _Matcher:
        """Build, store and return the index (see the class: safe when threads race here)."""
        index = self._index
        if index is not None:
            return index
        draft = self._draft
        if draft is not None:
            index = _index(draft.parts())
        elif self._sources:
            index = _merged_index(self._sources)
        else:  # another thread stored an index, then let the draft go
            index = self._index
            assert index is not None
            return index
        self._index = index
        self._draft = None
        return index

    def best(self, path: str, start: int = 0) -> Ranked | None:
        """The deciding (rank, pattern) for ``path[start:]``, or None when no rule matches (R6).
        ``start`` lets :meth:`RobotsTxt.allowed` match the path inside its URL, uncopied."""
        index = self._index
        if index is None:
            index = self._build()
        found, by_head, exact_best, wild, needs, _, _, _ = index
        # Every path starts with "/", so a literal prefix that can match one has two characters or
        # more ("/" is a catch-all; a one-character prefix such as "a" never matches): only the
        # prefixes with the path's first two characters can match, tried best first.
        if by_head:
            heads = by_head.get(path[start:start + 2])
            if heads is not None and path.startswith(heads[0], start):
                for item in heads[1]:
                    if path.startswith(item[1], start):
                        if found is None or item[0] > found[0]:
                            found = item  # without its trailing "*"s, if any (see Ranked)
                        break
        if exact_best:
            hit = exact_best.get(path[start:])  # path[0:] is path itself, no copy
            if hit is not None and (found is None or hit > found[0]):
                found = (hit, path[start:] + "$")
        if wild and (found is None or wild[0][0] > found[0]):
            candidates: Iterable[Wild] = wild
            if needs:
                # Many wildcard rules: skip, at C speed, those needing a character the path lacks
                # (needs & ~have != 0).
                lacks = _ALL_ASCII ^ _mask(path[start:])
                candidates = compress(wild, map(not_, map(lacks.__and__, needs)))
            for r, segments, anchored, probe, _ in candidates:
                if found is not None and r <= found[0]:
                    break
                # The probe may also be found before ``start`` (in a URL's host): only a filter.
                if probe in path and segments_match(segments, anchored, path, start):
                    found = (r, wild_text(segments, anchored))
                    break
        return found

    def rule(self, found: Ranked) -> Rule:
        """The :class:`Rule` for a result of :meth:`best`."""
        return make_rule(found, self._written)

    def ranked(self) -> Iterator[Ranked]:
        """Every rule as (rank, pattern), best first (a literal prefix without its trailing ``*``s)."""
        floor, literal, exact, wild = self.parts()
        return heapq.merge(floor, literal, ((r, key + "$") for r, key in exact), wild, reverse=True)


def share_paths(rulesets: Iterable[RuleSet]) -> None:
    """Make equal literal paths of ``rulesets`` (a file's groups, before anyone matches) one string:
    files often repeat one rule list for several agents. At C speed, once per file with groups to share."""
    seen: dict[str, str] = {}
    for ruleset in rulesets:
        draft = ruleset._draft
        if draft is not None and draft.keys:
            draft.keys[:] = map(seen.setdefault, draft.keys, draft.keys)


def _frozen(written: Mapping[int, str] | None) -> Mapping[int, str] | None:
    """``written`` as a read-only view (None stays None)."""
    if written is not None and not isinstance(written, MappingProxyType):
        return MappingProxyType(written)
    return written


def _merged_index(sources: tuple[RuleSet, ...]) -> _Matcher:
    """G4: the index of the union of ``sources``, from theirs (built first if need be): the lists
    merge best first on rank alone (ranks are unique within a file: they hold the line), and the
    wildcard rules, split once, are reused."""
    each = [rs._index or rs._build() for rs in sources]
    parts = Parts(
        list(heapq.merge(*(ix.floor for ix in each), reverse=True)),
        list(heapq.merge(*map(_literal, each), reverse=True)),
        list(heapq.merge(*(ix.exact for ix in each), reverse=True)),
        [],
    )
    return _index(parts, tuple(heapq.merge(*(ix.wild for ix in each), key=itemgetter(0), reverse=True)))


def _index(parts: Parts, wild: tuple[Wild, ...] | None = None) -> _Matcher:
    """The index :meth:`RuleSet.best` reads, from ``parts`` with every list sorted best first
    (``wild``: the wildcard rules already split, then ``parts.wild`` is not read)."""
    floor, literal, exact, wild_rules = parts
    if wild is None:
        shared: dict[int, int] | None = {} if len(wild_rules) >= MANY_WILD else None
        wild = tuple([compile_wild(r, text, shared) for r, text in wild_rules])
    best: dict[str, int] | None = None
    if exact:
        best = {}
        for r, key in exact:
            best.setdefault(key, r)  # best first: the first one counts
    heads: dict[str, list[Ranked]] = {}
    for item in literal:  # best first, so each list is too
        heads.setdefault(item[1][:2], []).append(item)
    return _Matcher(
        floor[0] if floor else None,
        {head: (tuple([key for _, key in items]), tuple(items)) for head, items in heads.items()},
        best,
        wild,
        tuple(map(itemgetter(4), wild)) if len(wild) >= MANY_WILD else (),
        tuple(floor),
        tuple(exact),
        len(literal),
    )


def _literal(index: _Matcher) -> list[Ranked]:
    """The literal prefixes of ``index``, best first."""
    return sorted([item for _, items in index.by_head.values() for item in items], reverse=True)


_ALL_ASCII = (1 << 128) - 1

_NO_RANKS = array("q")  # shared by every draft with no literal prefix: never written
_NO_LIST: list[int] = []  # shared by every packed draft: never written
_NO_RULES: list[Ranked] = []  # likewise, for a kind of rule a packed draft has none of
EMPTY: RuleSet = RuleSet.build(Parts([], [], [], []), None, False)  # the rules of no group: allows everything
