"""AI-use preferences: statements, Content-Usage rules, Content-Signal lines and their answer (A1-A8).

Two signals say how crawled content may be used. The IETF aipref ``Content-Usage`` rule
(draft-ietf-aipref-attach-05 with the vocabulary draft-ietf-aipref-vocab-08) stands in a group
like allow/disallow: ``Content-Usage: [path] statement`` (A1), the group chosen as for
allow/disallow and the longest matching path deciding (A2), for crawlable URLs only (A3).
Cloudflare's ``Content-Signal: search=yes, ai-train=no`` (A7) has no path. A statement is an
RFC 9651 Dictionary (A5, :mod:`robotrules.core.fields`); statements from several sources, or
rules of equal length, combine category by category: any "no" wins, then any "yes", else
unknown (A4, A6). The category labels are data (:data:`CATEGORIES`): the drafts will change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import chain, compress, islice
from operator import attrgetter
from typing import Literal, NamedTuple

from robotrules.core.decision import verdict_word
from robotrules.core.fields import FieldError, Token, parse_dictionary
from robotrules.core.matcher import Draft, RuleSet, classify
from robotrules.core.pattern import Pattern, compile_pattern, google_escape, rfc_normalise_pattern
from robotrules.core.rules import line_of, rank

__all__ = [
    "CATEGORIES",
    "LEGACY_LABELS",
    "SIGNAL_KEYS",
    "Category",
    "Signal",
    "Statement",
    "Usage",
    "UsageIndex",
    "UsageRule",
    "answer",
    "combine",
    "index_usage",
    "indexed_answer",
    "parse_signal",
    "parse_statement",
    "preference_word",
    "usage_rule",
]

Category = Literal["train-ai", "search", "ai-input"]
"""A usage category, as a type (a request's ``purpose``, the ``--purpose`` option): the names of
:data:`CATEGORIES`, in its order (tests/standards/test_one_home.py pins them equal)."""

CATEGORIES: Mapping[Category, str] = {
    "train-ai": "AI model training (aipref vocabulary; Content-Signal ai-train)",
    "search": "search: finding pages and linking to them (aipref vocabulary; Content-Signal search)",
    "ai-input": "input to AI answers, e.g. retrieval for generated answers (Content-Signal only)",
}
"""The usage categories answered, with what each covers (A5, A7). ``train-ai`` and ``search`` are
the aipref vocabulary's labels (draft -08); ``ai-input`` exists only in Content Signals. The one
home of the categories: every surface takes them from here (``tuple(CATEGORIES)``, :data:`Category`)."""

VOCABULARY = ("train-ai", "search")
"""The labels a Content-Usage statement interprets (A5); other keys are ignored."""

LEGACY_LABELS = ("bots", "train-genai", "ai-output", "ai")
"""Labels of earlier drafts still seen in real files: reported, never interpreted (A5)."""

SIGNAL_KEYS: Mapping[str, str] = {"ai-train": "train-ai", "search": "search", "ai-input": "ai-input"}
"""Content-Signal keys and the category each stands for (A7)."""

_SIGNAL_VALUES = {"yes": True, "no": False}

NAMED_LINES = 5
"""Lines a sentence names at most: a file may tie thousands of Content-Usage lines (A4)."""


class Statement(NamedTuple):
    """A statement of preference: per category True (allowed) or False (disallowed); a category
    it does not hold is unknown (A5). ``parsed`` is False when the text failed to parse (then
    everything is unknown) and ``error`` says why; ``ignored`` lists the keys it did not interpret;
    ``unread`` the known categories it names with a value that states nothing ("key=value" as
    written), for the linter."""

    preferences: Mapping[str, bool]
    parsed: bool = True
    error: str = ""
    ignored: tuple[str, ...] = ()
    unread: tuple[str, ...] = ()

    def preference(self, category: str) -> bool | None:
        """True (allowed), False (disallowed) or None (unknown) for ``category``."""
        return self.preferences.get(category)

    def describe(self) -> str:
        """``train-ai=n, search=y`` for the categories it holds, "" when none."""
        return ", ".join(f"{key}={'y' if value else 'n'}" for key, value in self.preferences.items())


UNKNOWN = Statement({})
"""The statement that holds nothing: every category unknown."""


def parse_statement(value: str | bytes) -> Statement:
    """A5: an aipref statement ("train-ai=n, search=y"), processed as bytes and case-sensitive.

    Only the Token ``y`` allows and ``n`` disallows; any other value (a string, a boolean,
    another token) leaves its category unknown; parameters and unknown keys are ignored; a
    repeated key keeps its last value; a statement that is not an RFC 9651 Dictionary (an
    upper-case key, for one) leaves every category unknown. ``str`` is encoded as UTF-8.
    """
    data = value.encode("utf-8", "surrogateescape") if isinstance(value, str) else value
    try:
        members = parse_dictionary(data)
    except FieldError as error:
        return Statement({}, parsed=False, error=str(error))
    preferences: dict[str, bool] = {}
    unread: list[str] = []
    for label in VOCABULARY:
        member = members.get(label)
        if member is None:
            continue
        if isinstance(member[0], Token) and member[0] in ("y", "n"):
            preferences[label] = member[0] == "y"
        else:
            unread.append(f"{label}={_shown(member[0])}")
    ignored = tuple(key for key in members if key not in VOCABULARY)
    return Statement(preferences, ignored=ignored, unread=tuple(unread))


def _shown(value: object) -> str:
    """A Dictionary value as a person would write it: ``?1``, ``"n"``, a token or a number."""
    if isinstance(value, bool):
        return "?1" if value else "?0"
    if isinstance(value, str) and not isinstance(value, Token):
        return f'"{value}"'
    return str(value)[:40]


def parse_signal(value: str) -> Statement:
    """A7: a Content-Signal value ("search=yes, ai-train=no"), keys mapped to categories.

    Comma-separated ``key=value`` items; ``yes`` allows and ``no`` disallows (ASCII case
    ignored, as deployed); a missing key, another value or an item without ``=`` says nothing
    for its category; unknown keys are listed in ``ignored``. Never fails as a whole.
    """
    preferences: dict[str, bool] = {}
    ignored: list[str] = []
    unread: list[str] = []
    for item in value.split(","):
        key, _, raw = item.partition("=")
        key = key.strip(" \t").lower()
        if not key:
            continue
        category = SIGNAL_KEYS.get(key)
        if category is None:
            ignored.append(key)
            continue
        written = raw.strip(" \t")
        allowed = _SIGNAL_VALUES.get(written.lower())
        if allowed is not None:
            preferences[category] = allowed
        else:
            preferences.pop(category, None)  # the last item for a key counts, as in a Dictionary
            unread.append(f"{key}={written[:40]}")
    return Statement(preferences, ignored=tuple(ignored), unread=tuple(unread))


def combine(*statements: Statement | str | bytes) -> Statement:
    """A4, A6: statements from several sources, category by category: any "no" wins, then any
    "yes", else unknown. A ``str`` or ``bytes`` is read as a Content-Usage statement (the HTTP
    ``Content-Usage`` header of a response, for one)."""
    read = [parse_statement(s) if isinstance(s, (str, bytes)) else s for s in statements]
    # A statement repeated (rules sharing one parsed statement) adds nothing to the preferences or
    # the ignored keys: each distinct one is read once, in order of first appearance.
    distinct = list({id(statement): statement for statement in read}.values()) if len(read) > 2 else read
    preferences: dict[str, bool] = {}
    for statement in distinct:
        for category, allowed in statement.preferences.items():
            preferences[category] = preferences.get(category, True) and allowed
    ignored = tuple(dict.fromkeys(key for statement in distinct for key in statement.ignored))
    errors = [s.error for s in read if not s.parsed]
    return Statement(preferences, parsed=not errors, error="; ".join(errors), ignored=ignored)


class UsageRule(NamedTuple):
    """A Content-Usage rule of a group (A1): its line, the value as written, the path ("" when
    absent: every path), the statement, and how it matches (``priority``: the encoded path's
    length in bytes, A2)."""

    line: int
    value: str
    path: str
    statement: Statement
    pattern: Pattern
    priority: int

    def matches(self, path: str) -> bool:
        """Whether the rule's path matches ``path`` (already normalised as the mode does)."""
        return self.pattern.matches(path)


def usage_rule(value: str, line: int, normalise: bool) -> UsageRule:
    """A1: split a Content-Usage value (text as the model keeps it) into its path and statement
    and compile the path as an allow/disallow pattern (R3-R5); ``normalise`` is RFC 9309
    percent-encoding, else Google's. Bytes that were not UTF-8 reach here as U+FFFD (the model's
    text): in a statement they fail it as any non-ASCII byte does; in a path they are encoded
    as that character."""
    path, statement = split_value(value)
    pattern = compile_path(path, normalise)
    return UsageRule(line, value, path, parse_statement(statement), pattern, len(pattern.text))


def split_value(value: str) -> tuple[str, str]:
    """A1: a Content-Usage value as its path ("" when it does not start with "/") and its statement."""
    if not value.startswith("/"):
        return "", value
    cut, tab = value.find(" "), value.find("\t")
    if tab >= 0 and (cut < 0 or tab < cut):
        cut = tab
    if cut < 0:
        return value, ""
    return value[:cut], value[cut:].lstrip(" \t")


def compile_path(path: str, normalise: bool) -> Pattern:
    """R3-R5 for a Content-Usage path: encoded as allow/disallow patterns are, then compiled."""
    octets = path.encode("utf-8").decode("latin-1")  # the path's bytes, one character each, as patterns take them
    return compile_pattern(rfc_normalise_pattern(octets) if normalise else google_escape(octets))


def deciding(rules: Iterable[UsageRule], path: str) -> tuple[UsageRule, ...]:
    """A2, A4: the rules that decide ``path`` (normalised as the mode matches it): those matching
    with the longest encoded path (several only when they tie); none when no rule matches."""
    best: list[UsageRule] = []
    for rule in rules:
        if not rule.matches(path):
            continue
        if not best or rule.priority > best[0].priority:
            best = [rule]
        elif rule.priority == best[0].priority:
            best.append(rule)
    return tuple(best)


class Signal(NamedTuple):
    """A Content-Signal line (A7): its line, the value as written, what it says, and where it
    stands: "group" (in a group that applies) or "file" (outside any group: for every crawler)."""

    line: int
    value: str
    statement: Statement
    scope: str


class Usage(NamedTuple):
    """May this URL be crawled, and how may its content be used (A3, A8)?

    ``crawlable`` is exactly what ``allowed`` says; ``crawl`` explains it. ``rules`` are the
    deciding Content-Usage rules (several when they tie), ``signals`` the Content-Signal lines
    that apply, ``statement`` what they say together (empty when the URL may not be crawled);
    ``stated`` whether the crawler's group (or the file, for Content-Signal) has any such line.
    """

    crawlable: bool
    crawl: str
    path: str
    agent: str | None
    rules: tuple[UsageRule, ...]
    signals: tuple[Signal, ...]
    statement: Statement
    stated: bool = False

    def preference(self, category: str) -> bool | None:
        """True (allowed), False (disallowed) or None: unknown, or not applicable because the
        URL may not be crawled (A3)."""
        return self.statement.preference(category) if self.crawlable else None

    def preferences(self) -> dict[str, bool | None]:
        """Every category of :data:`CATEGORIES` with its :meth:`preference`."""
        return {category: self.preference(category) for category in CATEGORIES}

    def explain(self) -> str:
        """One sentence for people: the crawl verdict, then each category and the line that says it."""
        if not self.crawlable:
            return f"not crawlable ({self.crawl}), so no usage preference applies"
        return f"crawlable ({self.crawl}); " + "; ".join(self.says(category) for category in CATEGORIES)

    def says(self, category: str) -> str:
        """One category's preference in words, with the lines that state it: "train-ai disallowed
        by line 4 'content-usage: train-ai=n'", "search unknown" (the one wording of a preference)."""
        return f"{category} {preference_word(self.preference(category))}{self.source(category)}"

    def source(self, category: str) -> str:
        """" by line N ..." naming the lines that give ``category`` its value (the first
        :data:`NAMED_LINES`, then how many more), "" when none does."""
        lines = [f"line {r.line} 'content-usage: {r.value}'" for r in self.rules
                 if r.statement.preference(category) is not None]
        lines += [f"line {s.line} 'content-signal: {s.value}'" for s in self.signals
                  if s.statement.preference(category) is not None]
        if len(lines) > NAMED_LINES:
            lines[NAMED_LINES:] = [f"{len(lines) - NAMED_LINES:,} more lines"]
        return f" by {' and '.join(lines)}" if lines else ""


def preference_word(preference: bool | None) -> str:
    """A preference in one word: "allowed", "disallowed" or "unknown" (None)."""
    return "unknown" if preference is None else verdict_word(preference)


def answer(crawlable: bool, crawl: str, path: str, agent: str | None, rules: Iterable[UsageRule],
           signals: tuple[Signal, ...]) -> Usage:
    """A2-A4, A6: the usage answer from a crawl verdict, a group's rules and the signals in scope;
    ``path`` is normalised as the mode matches it."""
    rules = tuple(rules)
    found = deciding(rules, path) if crawlable else ()
    statement = combine(*(r.statement for r in found), *(s.statement for s in signals)) if crawlable else UNKNOWN
    return Usage(crawlable, crawl, path, agent, found, signals, statement, stated=bool(rules or signals))


_new = tuple.__new__  # a NamedTuple without its Python-level __new__ frame (one per line read)


class _Entry(NamedTuple):
    """The Content-Usage rules of one group that share a path pattern: they match the same paths
    with the same length, so they always decide together (A2, A4)."""

    pattern: Pattern
    priority: int
    rules: tuple[UsageRule, ...]  # file order
    statement: Statement  # what they say together (combine of theirs, A4)
    probe: str  # its longest literal run: every path it matches contains it
    tie: int  # its place among the entries of its priority (in file order)


class UsageIndex(NamedTuple):
    """The AI-use lines of one group (or those outside any group), parsed and compiled once per
    parsed file and indexed as allow/disallow rules are (A1, A2, A7): each distinct statement is
    parsed and each distinct path compiled once; rules sharing a pattern are one entry, and a
    :class:`~robotrules.core.matcher.RuleSet` of the entries finds the longest match, so a path
    costs about what a crawl check costs whatever the number of lines. Immutable; the rule set
    builds its own index on first use, safely between threads."""

    rules: tuple[UsageRule, ...]
    signals: tuple[Signal, ...]
    signal_statement: Statement  # what the signals say together (A4, A7)
    matcher: RuleSet  # one rule per entry, ranked by the path's length and the entry's first line
    entries: Mapping[int, _Entry]  # by first line (what the matcher's rank holds)
    levels: Mapping[int, tuple[tuple[_Entry, ...], tuple[str, ...]]]  # priority -> its entries and
    # their probes, in file order, for the priorities held by several entries (then they may tie)

    def __repr__(self) -> str:
        """Short: a parsed file's repr shows its memo, and a group may hold thousands of lines."""
        return f"UsageIndex({len(self.rules)} rules, {len(self.signals)} signals)"

    def deciding(self, path: str) -> tuple[int, tuple[_Entry, ...]]:
        """A2, A4: the longest length of a matching path, with the entries matching with it (file
        order); ``(-1, ())`` when none matches. ``path`` starts with "/" (as the mode matches it)."""
        found = self.matcher.best(path)
        if found is None:
            return -1, ()
        entry = self.entries[line_of(found[0])]
        level = self.levels.get(entry.priority)
        if level is None:
            return entry.priority, (entry,)
        # The matcher gave the earliest matching entry of the longest length (the best rank): the
        # ties are later ones, tried only where their probe is in the path (a C-speed filter).
        entries, probes = level
        later = compress(islice(entries, entry.tie + 1, None), map(path.__contains__, islice(probes, entry.tie + 1, None)))
        return entry.priority, (entry, *(other for other in later if other.pattern.matches(path)))


def index_usage(usage_lines: Iterable[tuple[str, int]], signal_lines: Iterable[tuple[str, int]], normalise: bool,
                scope: str) -> UsageIndex:
    """A1, A7: the index of a group's Content-Usage values and Content-Signal values (each with its
    line, in file order), ``normalise`` as :func:`usage_rule` takes it, signals of ``scope``
    ("group" or "file"). Each distinct statement is parsed once and each distinct path compiled
    once; the rules are those :func:`usage_rule` gives, equal statements one object."""
    statements: dict[str, Statement] = {}
    paths: dict[str, tuple[str, Pattern]] = {}
    rules: list[UsageRule] = []
    for value, line in usage_lines:
        path, text = split_value(value)
        statement = statements.get(text)
        if statement is None:
            statement = statements[text] = parse_statement(text)
        compiled = paths.get(path)
        if compiled is None:
            compiled = paths[path] = (path, compile_path(path, normalise))
        rules.append(_new(UsageRule, (line, value, compiled[0], statement, compiled[1], len(compiled[1].text))))
    read: dict[str, Statement] = {}
    signals: list[Signal] = []
    for value, line in signal_lines:
        said = read.get(value)
        if said is None:
            said = read[value] = parse_signal(value)
        signals.append(Signal(line, value, said, scope))
    return _indexed(tuple(rules), tuple(signals))


def _indexed(rules: tuple[UsageRule, ...], signals: tuple[Signal, ...]) -> UsageIndex:
    """The index of parsed rules and signals: rules grouped by pattern into entries, a rule set of
    the entries, and the entries of each length held by several (A2, A4)."""
    by_pattern: dict[str, list[UsageRule]] = {}
    for rule in rules:
        by_pattern.setdefault(rule.pattern.text, []).append(rule)
    draft = Draft()
    entries: dict[int, _Entry] = {}
    levels: dict[int, list[_Entry]] = {}
    alone: dict[int, Statement] = {}  # combine() of each statement standing alone, by its id: made once
    for shared in by_pattern.values():
        first = shared[0]
        level = levels.setdefault(first.priority, [])
        if len(shared) == 1:
            said = alone.get(id(first.statement))
            if said is None:
                said = alone[id(first.statement)] = combine(first.statement)
        else:
            said = combine(*(r.statement for r in shared))
        entry = _new(_Entry, (first.pattern, first.priority, tuple(shared), said, max(first.pattern.segments, key=len),
                              len(level)))
        level.append(entry)
        entries[first.line] = entry
        classify(draft, rank(False, first.priority, first.line), first.pattern.text, True)
    draft.pack()
    ties = {priority: (tuple(level), tuple(e.probe for e in level)) for priority, level in levels.items()
            if len(level) > 1}
    statement = combine(*(s.statement for s in signals))
    return UsageIndex(rules, signals, statement, RuleSet(draft, None, True), entries, ties)


NO_LINES = _indexed((), ())
"""The index of no line: nothing stated."""


def indexed_answer(crawlable: bool, crawl: str, path: str, agent: str | None, groups: Sequence[UsageIndex],
                   outside: UsageIndex) -> Usage:
    """A2-A4, A6, A7: :func:`answer` from indexes: the selected groups' (in order) and that of the
    lines outside any group (whose signals apply when no group has any). Equal to :func:`answer` of
    the same rules and signals, at the cost of a longest match instead of a scan of every rule."""
    scoped = _signal_scope(groups, outside)
    signals = scoped[0].signals if len(scoped) == 1 else tuple(chain.from_iterable(ix.signals for ix in scoped))
    stated = bool(signals)
    for ix in groups:
        stated = stated or bool(ix.rules)
    if not crawlable:
        return Usage(crawlable, crawl, path, agent, (), signals, UNKNOWN, stated)
    if path[:1] != "/":  # no path the reference extracts; matched rule by rule (the index assumes a "/")
        rules = tuple(chain.from_iterable(ix.rules for ix in groups))
        return answer(crawlable, crawl, path, agent, rules, signals)
    found, said = _found(groups, path)
    if scoped:  # combine(*rules, *signals) == combine(combine(*rules), combine(*signals)): A4 is per category
        said = combine(said, *(ix.signal_statement for ix in scoped))
    return Usage(crawlable, crawl, path, agent, found, signals, said, stated)


def _signal_scope(groups: Sequence[UsageIndex], outside: UsageIndex) -> list[UsageIndex]:
    """A7: the indexes whose Content-Signal lines apply: the groups' that have any, else the file's."""
    scoped = [ix for ix in groups if ix.signals]
    return scoped if scoped or not outside.signals else [outside]


def _found(groups: Sequence[UsageIndex], path: str) -> tuple[tuple[UsageRule, ...], Statement]:
    """A2, A4: the deciding rules of ``groups`` for ``path`` (group order, then file order) and what
    they say together (a :func:`combine` result, so combining it alone changes nothing)."""
    best = -1
    chosen: list[tuple[_Entry, ...]] = []
    for ix in groups:
        if not ix.rules:
            continue
        priority, entries = ix.deciding(path)
        if priority > best:
            best, chosen = priority, [entries]
        elif priority == best and priority >= 0:
            chosen.append(entries)
    if not chosen:
        return (), NOTHING_SAID
    if len(chosen) == 1 and len(chosen[0]) == 1:  # the usual case: one pattern decides, said once for all
        entry = chosen[0][0]
        return entry.rules, entry.statement
    found = tuple(chain.from_iterable(
        entries[0].rules if len(entries) == 1 else sorted(chain.from_iterable(e.rules for e in entries), key=_LINE)
        for entries in chosen))
    return found, combine(*(r.statement for r in found))


NOTHING_SAID = combine()
"""What no statement says: :func:`combine` of none."""
_LINE = attrgetter("line")
