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

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from robotrules.core.fields import FieldError, Token, parse_dictionary
from robotrules.core.pattern import Pattern, compile_pattern, google_escape, rfc_normalise_pattern

__all__ = [
    "CATEGORIES",
    "LEGACY_LABELS",
    "SIGNAL_KEYS",
    "Signal",
    "Statement",
    "Usage",
    "UsageRule",
    "answer",
    "combine",
    "parse_signal",
    "parse_statement",
    "usage_rule",
]

CATEGORIES: Mapping[str, str] = {
    "train-ai": "AI model training (aipref vocabulary; Content-Signal ai-train)",
    "search": "search: finding pages and linking to them (aipref vocabulary; Content-Signal search)",
    "ai-input": "input to AI answers, e.g. retrieval for generated answers (Content-Signal only)",
}
"""The usage categories answered, with what each covers (A5, A7). ``train-ai`` and ``search`` are
the aipref vocabulary's labels (draft -08); ``ai-input`` exists only in Content Signals."""

VOCABULARY = ("train-ai", "search")
"""The labels a Content-Usage statement interprets (A5); other keys are ignored."""

LEGACY_LABELS = ("bots", "train-genai", "ai-output", "ai")
"""Labels of earlier drafts still seen in real files: reported, never interpreted (A5)."""

SIGNAL_KEYS: Mapping[str, str] = {"ai-train": "train-ai", "search": "search", "ai-input": "ai-input"}
"""Content-Signal keys and the category each stands for (A7)."""

_SIGNAL_VALUES = {"yes": True, "no": False}


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
    preferences: dict[str, bool] = {}
    for statement in read:
        for category, allowed in statement.preferences.items():
            preferences[category] = preferences.get(category, True) and allowed
    ignored = tuple(dict.fromkeys(key for statement in read for key in statement.ignored))
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
    path, statement = "", value
    if value.startswith("/"):
        cut = min((i for i in (value.find(" "), value.find("\t")) if i >= 0), default=len(value))
        path, statement = value[:cut], value[cut:].lstrip(" \t")
    octets = path.encode("utf-8").decode("latin-1")  # the path's bytes, one character each, as patterns take them
    pattern = rfc_normalise_pattern(octets) if normalise else google_escape(octets)
    return UsageRule(line, value, path, parse_statement(statement), compile_pattern(pattern), len(pattern))


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
        parts = [f"{category} {_word(self.preference(category))}{self.source(category)}" for category in CATEGORIES]
        return f"crawlable ({self.crawl}); " + "; ".join(parts)

    def source(self, category: str) -> str:
        """" by line N ..." naming the lines that give ``category`` its value, "" when none does."""
        lines = [f"line {r.line} 'content-usage: {r.value}'" for r in self.rules
                 if r.statement.preference(category) is not None]
        lines += [f"line {s.line} 'content-signal: {s.value}'" for s in self.signals
                  if s.statement.preference(category) is not None]
        return f" by {' and '.join(lines)}" if lines else ""


def _word(preference: bool | None) -> str:
    return "unknown" if preference is None else "allowed" if preference else "disallowed"


def answer(crawlable: bool, crawl: str, path: str, agent: str | None, rules: Iterable[UsageRule],
           signals: tuple[Signal, ...]) -> Usage:
    """A2-A4, A6: the usage answer from a crawl verdict, a group's rules and the signals in scope;
    ``path`` is normalised as the mode matches it."""
    rules = tuple(rules)
    found = deciding(rules, path) if crawlable else ()
    statement = combine(*(r.statement for r in found), *(s.statement for s in signals)) if crawlable else UNKNOWN
    return Usage(crawlable, crawl, path, agent, found, signals, statement, stated=bool(rules or signals))
