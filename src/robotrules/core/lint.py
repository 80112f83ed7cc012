"""Diagnostics: what a site owner should know about their robots.txt (P2, P3, P6, G1, G4, N2, R1-R6, F9).

The linter runs the parser's own code, so it reads each line as the parser does, but it reads
the body more than once. :func:`~robotrules.core.lexer.lex` tokenises every line
(:func:`~robotrules.core.lexer.tokenize_line`) for the line findings, and
:func:`~robotrules.core.model.build_model` reads the body again for the group findings (rules
outside groups, merged groups, shadowed rules). In a mode that cuts lines (``c_string_lines``),
a body with a NUL byte or over 16,663 bytes is split once more, uncut, to find the lines that
get cut. Parsing for crawling never pays for any of this: :func:`~robotrules.core.robotstxt.parse`
does not lint.

Each finding has a stable ``code`` (listed in :data:`CODES` and in the documentation, guides/lint.md), a severity
("error": a line or intent is lost; "warning": accepted, but not by every crawler or not as
probably meant; "info": worth knowing) and the 1-based line it concerns (0 for the whole file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from robotrules.core import lexer
from robotrules.core.agents import is_global_agent, product_token
from robotrules.core.extensions import (
    KNOWN_FIELDS,
    parse_content_signal,
    parse_content_usage,
    parse_crawl_delay,
    parse_request_rate,
)
from robotrules.core.model import Group, Model, build_model, text
from robotrules.core.modes import Mode, get_mode
from robotrules.core.rules import Rule, rank

__all__ = ["CODES", "Diagnostic", "lint"]

CODES: dict[str, tuple[str, str]] = {
    "html-content": ("error", "P2: the file looks like an HTML page; only its valid lines count"),
    "size-limit": ("error", "F9: content after the first 512,000 bytes is ignored"),
    "invalid-line": ("error", "P2: not a 'field: value' line; ignored"),
    "missing-colon": ("warning", "P6: no colon after the field; Google accepts it, RFC 9309 parsers ignore the line"),
    "field-typo": ("warning", "P6: misspelt field; Google accepts it, RFC 9309 parsers ignore the line"),
    "field-prefix": ("warning", "P6: field only starts with a known name; Google accepts it, others ignore it"),
    "line-too-long": ("warning", "Google keeps only the first 16,663 bytes of a line"),
    "nul-byte": ("warning", "a NUL byte ends the line for Google's parser"),
    "invalid-utf8": ("warning", "P3: the file is not valid UTF-8; such bytes may be misread"),
    "bom": ("info", "P3: a UTF-8 byte order mark starts the file; it is ignored"),
    "partial-bom": ("warning", "P3: the file starts with part of a byte order mark"),
    "rule-outside-group": ("error", "G1: a rule before any user-agent line applies to no one"),
    "path-without-slash": ("warning", "R2: the path does not start with '/' or '*'; it can never match"),
    "empty-rule": ("info", "R1: a rule without a path is ignored"),
    "shadowed-rule": ("warning", "R6: another rule matches the same URLs and always wins; this one never decides"),
    "merged-groups": ("info", "G4: several groups name this agent; their rules are merged"),
    "user-agent-without-token": ("warning", "G3: the user-agent value has no product token; no crawler matches it"),
    "user-agent-extra": ("info", "G3: only the product token of the user-agent value counts"),
    "sitemap-not-absolute": ("warning", "N1: a sitemap must be an absolute URL"),
    "ignored-field": ("info", "N2: Google ignores this field; other crawlers may read it"),
    "unknown-field": ("warning", "N2: unknown field; ignored"),
    "invalid-value": ("warning", "N2: the value of this field cannot be read"),
    "not-in-mode": ("warning", "this field is not part of the selected mode and is ignored"),
}
"""Every diagnostic code with its severity and meaning. Codes are stable; new ones may be added."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: ``line`` (1-based, 0 for the file), ``severity``, stable ``code``, ``message``."""

    line: int
    severity: str
    code: str
    message: str

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "file"
        return f"{where}: {self.severity}: {self.message} [{self.code}]"


def _diag(line: int, code: str, detail: str = "") -> Diagnostic:
    severity, summary = CODES[code]
    return Diagnostic(line, severity, code, f"{summary}{': ' + detail if detail else ''}")


_HTML_RE = re.compile(rb"<\s*(?:!doctype\s+html|html|head|body|title|meta|script|div|p)\b", re.IGNORECASE)
_VALUE_PARSERS = {
    "crawl-delay": parse_crawl_delay,
    "request-rate": parse_request_rate,
    "content-signal": parse_content_signal,
    "content-usage": parse_content_usage,
}


def _file_findings(data: bytes, lexed: lexer.Lexed, mode: Mode, size: int) -> list[Diagnostic]:
    found = []
    if size > lexer.SIZE_LIMIT:
        found.append(_diag(0, "size-limit", f"{size - lexer.SIZE_LIMIT} bytes ignored"))
    if lexed.bom_bytes == 3:
        found.append(_diag(1, "bom"))
    elif lexed.bom_bytes:
        found.append(_diag(1, "partial-bom"))
    head = data[: lexer.SIZE_LIMIT]
    if not head.isascii():
        try:
            head.decode("utf-8")
        except UnicodeDecodeError as exc:
            cut_by_limit = size > lexer.SIZE_LIMIT and exc.end == len(head) and exc.reason == "unexpected end of data"
            if not cut_by_limit:
                found.append(_diag(head.count(b"\n", 0, exc.start) + 1, "invalid-utf8", f"byte offset {exc.start}"))
    if _HTML_RE.search(head, 0, 4096):
        found.append(_diag(0, "html-content"))
    if mode.c_string_lines and (b"\0" in head or len(head) > lexer.MAX_LINE_BYTES):
        raw = lexer.split_lines(head[lexed.bom_bytes :].decode("latin-1"), get_mode("rfc9309"))  # uncut lines
        for number, line in enumerate(raw, 1):
            if len(line) > lexer.MAX_LINE_BYTES:
                found.append(_diag(number, "line-too-long", f"{len(line)} bytes"))
            if "\0" in line[: lexer.MAX_LINE_BYTES]:
                found.append(_diag(number, "nul-byte"))
    return found


def _event_findings(lexed: lexer.Lexed, mode: Mode) -> list[Diagnostic]:
    found = []
    for line, kind, key, value, flags in lexed.events:
        if flags:
            if flags & lexer.F_MISSING_COLON:
                found.append(_diag(line, "missing-colon", f"'{text(key)} {text(value)}'"))
            if flags & lexer.F_TYPO:
                found.append(_diag(line, "field-typo", f"'{text(key)}'"))
            elif flags & lexer.F_PREFIX:
                found.append(_diag(line, "field-prefix", f"'{text(key)}'"))
        if kind == lexer.INVALID:
            found.append(_diag(line, "invalid-line", repr(text(key)[:80])))
        elif kind == lexer.DISALLOW or (kind == lexer.ALLOW and mode.allow_rules):
            if not value:
                found.append(_diag(line, "empty-rule"))
            elif value[:1] not in ("/", "*"):
                found.append(_diag(line, "path-without-slash", repr(text(value)[:80])))
        elif kind == lexer.USER_AGENT:
            agent = text(value)
            if not is_global_agent(agent, star_with_text=mode.star_with_text_is_global):
                token = product_token(agent)
                if not token:
                    found.append(_diag(line, "user-agent-without-token", repr(agent[:80])))
                elif len(token) != len(agent):
                    found.append(_diag(line, "user-agent-extra", f"{agent[:80]!r} counts as {token!r}"))
        elif kind == lexer.SITEMAP:
            url = text(value)
            if "://" not in url:
                found.append(_diag(line, "sitemap-not-absolute", repr(url[:80])))
        elif kind == lexer.OTHER:
            field = text(key).lower()
            if field == "allow" and not mode.allow_rules:
                found.append(_diag(line, "not-in-mode", f"'{text(key)}' in {mode.name}"))
            elif field in KNOWN_FIELDS:
                found.append(_diag(line, "ignored-field", f"{field}: {KNOWN_FIELDS[field]}"))
                parser = _VALUE_PARSERS.get(field)
                if parser is not None and parser(text(value)) is None:
                    found.append(_diag(line, "invalid-value", f"{field}: {text(value)[:80]!r}"))
            else:
                found.append(_diag(line, "unknown-field", f"'{text(key)[:80]}'"))
    return found


def _shadow_key(pattern: str, wildcards: bool) -> tuple[str, str]:
    """A key equal only for patterns that match exactly the same paths (R4).

    It folds what R4 makes meaningless (trailing ``*``s, doubled ``*``); patterns that match the
    same paths in other ways get different keys (a finding missed, never a false one). A ``$``
    followed by ``*``s is literal: "/a*b$*" (a literal "$", then anything) keeps a trailing ``*``
    in its key, so it never shares one with "/a*b$" (anchored).
    """
    if not wildcards:
        return ("literal", pattern)
    if "*" in pattern:
        stripped = pattern.rstrip("*")
        if "*" in stripped:
            while "**" in stripped:
                stripped = stripped.replace("**", "*")
            literal_dollar = stripped.endswith("$") and pattern.endswith("*")
            return ("wild", stripped + "*" if literal_dollar else stripped)
        pattern = stripped
    elif pattern.endswith("$"):
        return ("exact", pattern[:-1])
    return ("literal", "" if pattern == "/" else pattern)


def _group_findings(model: Model, mode: Mode) -> list[Diagnostic]:
    found = [_diag(line, "rule-outside-group") for line in model.orphan_rules]
    merged: dict[str, list[Group]] = {}
    for group in model.groups:
        keys = list(group.tokens) + (["*"] if group.is_global and not mode.substring_agent_match else [])
        for key in keys:
            if key in merged:
                where = merged[key][-1].line
                found.append(_diag(group.line, "merged-groups", f"{key!r} also named on line {where}"))
            merged.setdefault(key, []).append(group)
    # R6: of rules that match exactly the same paths, within what one agent sees, only the best
    # ranked can decide; the others are shadowed. An agent sees the merged groups of its key (G4),
    # or a union of such views (G5, which only adds rules); in legacy1994 one record alone (L2).
    # A rule is reported only when it is shadowed in every view that holds it: a rule of a group
    # naming two agents may be shadowed for one and decide for the other.
    views = [[group] for group in model.groups] if mode.substring_agent_match else list(merged.values())
    seen_in: dict[int, int] = {}  # rule line -> views holding it
    shadowed: dict[int, list[Rule]] = {}  # rule line -> its winner in each view where it is shadowed
    for groups in views:
        winners: dict[tuple[str, str], Rule] = {}
        rules = sorted((rule for group in groups for rule in group.rules), key=_rank_of, reverse=True)
        for rule in rules:
            seen_in[rule.line] = seen_in.get(rule.line, 0) + 1
            winner = winners.setdefault(_shadow_key(rule.pattern, mode.wildcards), rule)
            if winner is not rule and rule.priority:
                shadowed.setdefault(rule.line, []).append(winner)
    for line, winners_of in shadowed.items():
        if len(winners_of) == seen_in[line]:
            winner = winners_of[0]
            found.append(_diag(line, "shadowed-rule", f"line {winner.line} '{winner.kind}: {winner.value[:80]}' wins"))
    return found


def _rank_of(rule: Rule) -> int:
    """The rule's rank (R6), for sorting rules best first."""
    return rank(rule.allow, rule.priority, rule.line)


def lint(body: bytes | str, mode: str | Mode = "google", *, size: int | None = None) -> list[Diagnostic]:
    """All diagnostics for a robots.txt body, sorted by line then code. Pure; never raises for any content.

    ``size`` is the original size when ``body`` was already cut to the 512,000-byte limit.
    """
    mode_rules = get_mode(mode)
    data = lexer.to_bytes(body)
    lexed = lexer.lex(data, mode_rules)
    model = build_model(data, mode_rules)
    found = (
        _file_findings(data, lexed, mode_rules, len(data) if size is None else size)
        + _event_findings(lexed, mode_rules)
        + _group_findings(model, mode_rules)
    )
    found.sort(key=lambda d: (d.line, d.code))
    return found
