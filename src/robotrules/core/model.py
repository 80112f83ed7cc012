"""The parsed content of a robots.txt: groups of rules, sitemaps and other lines (G1, G4, N1, N2).

Built from lexer events in one pass. A group is one or more ``user-agent`` lines and the
lines after them, up to the next ``user-agent`` line that follows a rule (G1); in
``legacy1994`` a blank line also ends it (L1). Rules before any ``user-agent`` belong to no
group and never apply. Other fields (``crawl-delay``, ``content-signal``, ...) are kept as
:class:`Extension` lines, in their group when they stand in one (N2).

Rule and Extension are NamedTuples, not dataclasses: a large file has tens of thousands of
them and a tuple is built several times faster, while being just as immutable.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from robotrules.core import lexer
from robotrules.core.agents import is_global_agent, product_token
from robotrules.core.modes import Mode
from robotrules.core.pattern import google_escape, rfc_normalise_pattern

__all__ = ["Rule", "Extension", "Group", "Model", "build_model", "text"]


class Rule(NamedTuple):
    """An allow or disallow line (R1). ``pattern`` is the normalised form that is matched;
    ``priority`` is its length in octets, the measure of specificity (R6)."""

    allow: bool
    pattern: str
    line: int
    value: str
    priority: int

    @property
    def kind(self) -> str:
        return "allow" if self.allow else "disallow"


class Extension(NamedTuple):
    """A line Google's rules ignore but callers may use (N2): field lower-cased, value as written."""

    field: str
    value: str
    line: int


@dataclass(frozen=True, slots=True)
class Group:
    """A group (G1): its user-agent values as written, the tokens they match, its rules and other lines."""

    line: int
    agents: tuple[str, ...]
    tokens: frozenset[str]
    is_global: bool
    rules: tuple[Rule, ...]
    extensions: tuple[Extension, ...]


class Model(NamedTuple):
    """Everything :func:`build_model` derives from the events, for the linter and the matcher."""

    groups: tuple[Group, ...]
    sitemaps: tuple[str, ...]
    extensions: tuple[Extension, ...]  # lines outside any group
    orphan_rules: tuple[int, ...]  # lines of rules before any user-agent (G1)


def text(value: bytes) -> str:
    """Decode a value for callers: UTF-8, invalid bytes replaced (P3: never raises)."""
    if value.isascii():
        return value.decode("ascii")
    return value.decode("utf-8", "replace")


class _Open:
    """A group under construction."""

    __slots__ = ("line", "agents", "rules", "extensions", "has_rule")

    def __init__(self, line: int) -> None:
        self.line = line
        self.agents: list[str] = []
        self.rules: list[Rule] = []
        self.extensions: list[Extension] = []
        self.has_rule = False


def _close(group: _Open, star_with_text: bool) -> Group:
    tokens = set()
    is_global = False
    for agent in group.agents:
        if is_global_agent(agent, star_with_text=star_with_text):
            is_global = True
        else:
            tokens.add(product_token(agent))
    return Group(
        group.line,
        tuple(group.agents),
        frozenset(tokens),
        is_global,
        tuple(group.rules),
        tuple(group.extensions),
    )


def build_model(events: list[tuple[int, int, bytes, bytes, int]], mode: Mode) -> Model:
    """Group the events (G1, G4 is left to the matcher, which merges groups per token)."""
    USER_AGENT, ALLOW, DISALLOW, SITEMAP, BLANK = (
        lexer.USER_AGENT,
        lexer.ALLOW,
        lexer.DISALLOW,
        lexer.SITEMAP,
        lexer.BLANK,
    )
    normalise = rfc_normalise_pattern if mode.normalise_percent_encoding else google_escape
    # With Google's escaping, ASCII without '%' is its own pattern: skip the call (hot path).
    plain_ascii_is_pattern = not mode.normalise_percent_encoding
    allow_rules = mode.allow_rules
    star_with_text = mode.star_with_text_is_global
    groups: list[Group] = []
    sitemaps: list[str] = []
    outside: list[Extension] = []
    orphans: list[int] = []
    current: _Open | None = None
    for line, kind, key, value, _flags in events:
        if kind == DISALLOW or (kind == ALLOW and allow_rules):
            if current is None:
                orphans.append(line)
                continue
            current.has_rule = True
            if plain_ascii_is_pattern and b"%" not in value and value.isascii():
                pattern = written = value.decode("ascii")
            else:
                pattern = normalise(value)
                written = text(value)
            current.rules.append(Rule(kind == ALLOW, pattern, line, written, len(pattern)))
        elif kind == USER_AGENT:
            if current is None or current.has_rule:
                if current is not None:
                    groups.append(_close(current, star_with_text))
                current = _Open(line)
            current.agents.append(text(value))
        elif kind == SITEMAP:
            sitemaps.append(text(value))
        elif kind == BLANK:
            if current is not None:
                groups.append(_close(current, star_with_text))
                current = None
        elif kind != lexer.INVALID:  # OTHER, or ALLOW in a mode without allow rules
            ext = Extension(text(key).lower(), text(value), line)
            (current.extensions if current is not None else outside).append(ext)
    if current is not None:
        groups.append(_close(current, star_with_text))
    return Model(tuple(groups), tuple(sitemaps), tuple(outside), tuple(orphans))
