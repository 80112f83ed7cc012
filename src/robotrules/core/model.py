"""The parsed content of a robots.txt: groups of rules, sitemaps and other lines (G1, G4, N1, N2).

A group is one or more ``user-agent`` lines and the lines after them, up to the next
``user-agent`` line that follows a rule (G1); in ``legacy1994`` a blank line also ends it
(L1). Rules before any ``user-agent`` belong to no group and never apply. Other fields
(``crawl-delay``, ``content-signal``, ...) are kept as :class:`Extension` lines, in their
group when they stand in one (N2).

:func:`build_model` reads the lines once. Lines spelt the usual way ("Disallow: /x") take a
fast path; every other line goes through :func:`robotrules.core.lexer.tokenize_line`, and
the fast path gives the same result for the lines it takes (a property test pins that). Each
rule is ranked and put in the list of its match kind as it is read (a
:class:`~robotrules.core.matcher.Draft`); a group's :class:`~robotrules.core.matcher.RuleSet` sorts
and indexes them when a check first asks for that group. The linter builds its
model with :func:`build_model_from_lines` and keeps the events of that same pass.
"""

from __future__ import annotations

from typing import NamedTuple

from robotrules.core import lexer
from robotrules.core.agents import is_global_agent, product_token
from robotrules.core.lexer import ALLOW, BLANK, DISALLOW, INVALID, SITEMAP, USER_AGENT, WS
from robotrules.core.matcher import Draft, RuleSet, classify, share_paths
from robotrules.core.modes import Mode
from robotrules.core.pattern import google_escape, rfc_normalise_pattern
from robotrules.core.rules import ALLOW_BIT, LINE_MASK, PRIORITY_SHIFT, Rule, make_rule, rank

__all__ = ["Extension", "Group", "Merged", "Model", "build_model", "build_model_from_lines", "text"]


class Extension(NamedTuple):
    """A line Google's rules ignore but callers may use (N2): field lower-cased, value as written."""

    field: str
    value: str
    line: int


class Group(NamedTuple):
    """A group (G1): first line, user-agent values as written, the tokens they match, whether it
    is the ``*`` group, its rules ready to match, and its other lines."""

    line: int
    agents: tuple[str, ...]
    tokens: tuple[str, ...]
    is_global: bool
    ruleset: RuleSet
    extensions: tuple[Extension, ...]

    @property
    def groups(self) -> tuple[Group, ...]:
        """A group is its own selection (see :class:`Merged`): the groups whose rules apply."""
        return (self,)

    @property
    def rules(self) -> tuple[Rule, ...]:
        """The group's allow/disallow rules in file order (without Google's implied index.html rules)."""
        by_line: dict[int, Rule] = {}
        for item in self.ruleset.ranked():
            rule = make_rule(item, self.ruleset.written)
            kept = by_line.get(rule.line)
            # An implied "/dir/$" shares its line with "allow: /dir/index.html" and is shorter.
            if kept is None or kept.priority < rule.priority:
                by_line[rule.line] = rule
        return tuple(by_line[line] for line in sorted(by_line))


class Merged(NamedTuple):
    """G4: the rules of several groups naming one agent, merged; selected like a single :class:`Group`."""

    ruleset: RuleSet
    groups: tuple[Group, ...]


class Model(NamedTuple):
    """What :func:`build_model` reads from a body, for the matcher, the linter and tools."""

    groups: tuple[Group, ...]
    sitemaps: tuple[str, ...]
    extensions: tuple[Extension, ...]  # lines outside any group
    orphan_rules: tuple[int, ...]  # lines of rules before any user-agent (G1)
    bom_bytes: int
    lines: int


def text(value: str) -> str:
    """A lexer value (Latin-1, one character per byte) as the text it says: UTF-8, invalid bytes
    replaced (P3: never raises)."""
    if value.isascii():
        return value
    return value.encode("latin-1").decode("utf-8", "replace")


class _Open:
    """The group under construction, its rules already sorted into their kinds."""

    __slots__ = ("agents", "can_disallow", "draft", "extensions", "line", "written")

    def __init__(self, line: int) -> None:
        self.line = line
        self.agents: list[str] = []
        self.draft = Draft()
        self.written: dict[int, str] | None = None
        self.extensions: list[Extension] = []
        self.can_disallow = False  # a disallow rule with a non-empty pattern was read

    def close(self, mode: Mode) -> Group:
        """The group as read (G1-G3): its agents' product tokens, whether it is the ``*`` group, and
        its rules, indexed when a check first asks for them."""
        star_with_text = mode.star_with_text_is_global
        agents = self.agents
        tokens: tuple[str, ...] = ()
        is_global = False
        if len(agents) == 1:  # the usual group: one user-agent line, no set to build
            if is_global_agent(agents[0], star_with_text):
                is_global = True
            else:
                tokens = (product_token(agents[0]),)
        else:
            named = set()
            for agent in agents:
                if is_global_agent(agent, star_with_text):
                    is_global = True
                else:
                    named.add(product_token(agent))
            tokens = tuple(sorted(named))
        self.draft.pack()
        ruleset = RuleSet(self.draft, self.written, self.can_disallow)
        return _new_tuple(Group, (self.line, tuple(agents), tokens, is_global, ruleset, tuple(self.extensions)))


_new_tuple = tuple.__new__  # Group(...), Model(...) without their Python-level __new__ frame


def _index_html(pattern: str, line: int) -> tuple[int, str] | None:
    """Google-specific: an allow whose last segment starts with "index.htm" ("allow: /dir/index.html")
    also allows "/dir/" (as the pattern "/dir/$"); None for other patterns.

    The reference tries the directory form only when the written pattern does not match; the
    written pattern is always longer, so keeping the directory form as its own rule decides the same.
    """
    slash = pattern.rfind("/")
    if slash < 0 or not pattern.startswith("/index.htm", slash):
        return None
    directory = pattern[: slash + 1] + "$"
    return rank(True, len(directory), line), directory


def build_model(body: bytes, mode: Mode) -> Model:
    """Read ``body`` (P1-P7, F9) into groups (G1, L1), sitemaps (N1) and other lines (N2). Never raises."""
    source, bom = lexer.decode(body, mode)
    return build_model_from_lines(lexer.split_lines(source, mode), source.isascii(), bom, mode)


def build_model_from_lines(
    lines: list[str],
    ascii_only: bool,
    bom: int,
    mode: Mode,
    events: list[tuple[int, int, str, str, int]] | None = None,
) -> Model:
    """The model of a body already decoded and split: :func:`~robotrules.core.lexer.split_lines` of
    :func:`~robotrules.core.lexer.decode`'s text, whether that text ``isascii()``, and its BOM's size.

    When ``events`` is given, each line's event is appended to it as the line is tokenised, so
    it ends as :func:`~robotrules.core.lexer.lex` would give them: the linter's one pass (DESIGN 4)
    takes its line findings from the same tokenisation that built the model. Parsing passes
    None and pays one test per line.
    """
    fast = lexer.fast_keys(mode)
    # The kind tests below rely on DISALLOW and ALLOW being the two lowest event kinds (lexer).
    blank_ends = mode.blank_line_ends_record
    plain_is_pattern = not mode.normalise_percent_encoding
    plain_ascii = plain_is_pattern and ascii_only  # then a value without '%' is its own pattern
    wildcards = mode.wildcards
    index_html = mode.index_html_allows_directory

    groups: list[Group] = []
    sitemaps: list[str] = []
    outside: list[Extension] = []
    orphans: list[int] = []
    current: _Open | None = None
    draft = Draft()
    floor, ranks, keys = draft.floor, draft.ranks, draft.keys
    n = 0
    for line in lines:
        n += 1
        key, colon, value = line.partition(":")
        # Most fast lines are "Disallow:": one string comparison, no hashing of the key.
        kind = (DISALLOW if key == "Disallow" else fast.get(key)) if colon else None
        if kind is not None:
            if "#" in value:
                value = value[: value.index("#")]
            value = value.strip(WS)
            if events is not None:
                events.append((n, kind, key, value, 0))  # what tokenize_line gives (fast_keys)
        elif not colon and (not line or line[0] == "#"):  # empty or comment-only line
            if not line and blank_ends:
                if events is not None:
                    events.append((n, BLANK, "", "", 0))
                if current is not None:
                    groups.append(current.close(mode))
                    current = None
            continue
        else:
            event = lexer.tokenize_line(n, line, mode)
            if event is None:
                continue
            if events is not None:
                events.append(event)
            kind, key, value = event[1], event[2], event[3]

        if kind <= ALLOW:  # DISALLOW or ALLOW
            if current is None:
                orphans.append(n)
                continue
            if "%" not in value and (plain_ascii or (plain_is_pattern and value.isascii())):
                pattern = value
            else:
                pattern = rfc_normalise_pattern(value) if not plain_is_pattern else google_escape(value)
                written = text(value)
                if written != pattern:
                    if current.written is None:
                        current.written = {}
                    current.written[n] = written
            size = len(pattern)
            # rank(kind == ALLOW, size, n), inlined with its constants: a call per rule line costs
            # about 2% of a pure-Python parse (test_fast_paths pins that the two agree).
            r = (size << PRIORITY_SHIFT) | (LINE_MASK - n)
            if kind == ALLOW:
                r |= ALLOW_BIT
                if index_html and "index.htm" in value:
                    implied = _index_html(pattern, n)
                    if implied is not None:
                        classify(draft, implied[0], implied[1], wildcards)
                        if current.written is None:
                            current.written = {}
                        current.written[n] = text(value)  # both rules of the line show it as written
            elif size:
                current.can_disallow = True
            if "*" in pattern or "$" in pattern:
                classify(draft, r, pattern, wildcards)
            # What classify() does with a pattern without "*" and "$", inlined:
            elif size > 1:
                ranks.append(r)
                keys.append(pattern)
            elif pattern == "/" or not pattern:  # matches every path
                floor.append((r, pattern))
            else:
                ranks.append(r)
                keys.append(pattern)
        elif kind == USER_AGENT:
            if current is None or draft.has_rules():
                if current is not None:
                    groups.append(current.close(mode))
                current = _Open(n)
                draft = current.draft
                floor, ranks, keys = draft.floor, draft.ranks, draft.keys
            current.agents.append(text(value))
        elif kind == SITEMAP:
            sitemaps.append(text(value))
        elif kind == BLANK:
            if current is not None:
                groups.append(current.close(mode))
                current = None
        elif kind != INVALID:
            ext = _new_tuple(Extension, (text(key).lower(), text(value), n))
            (current.extensions if current is not None else outside).append(ext)
    if current is not None:
        groups.append(current.close(mode))
    if len(groups) > 1:
        share_paths([group.ruleset for group in groups])
    return _new_tuple(Model, (tuple(groups), tuple(sitemaps), tuple(outside), tuple(orphans), bom, n))
