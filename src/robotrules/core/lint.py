"""Diagnostics: what a site owner should know about their robots.txt (P2, P3, P6, G1, G4, N2, R1-R6, F9).

The linter reads the body once, with the parser's own code (DESIGN 4): one decode
(:func:`~robotrules.core.lexer.decode`), one split into lines
(:func:`~robotrules.core.lexer.uncut_lines`, then :func:`~robotrules.core.lexer.cut_lines` as the
mode cuts them), and one tokenisation, the model builder's
(:func:`~robotrules.core.model.build_model_from_lines`), which hands over each line's event as it
builds the model. Those events feed the line findings, the model the group findings (rules
outside groups, merged groups, shadowed rules), the cut lines the columns, and the uncut lines
the lines a mode that cuts lines (``c_string_lines``) cuts. Besides that pass, two checks look
at the raw bytes: whether they are valid UTF-8 and whether the file starts like an HTML page.
Parsing for crawling never pays for any of this: :func:`~robotrules.core.robotstxt.parse` does
not lint, and the builder only tests per line whether it was asked for the events.

Each finding has a stable ``code`` (listed in :data:`CODES` and in the documentation, guides/lint.md), a severity
("error": a line or intent is lost; "warning": accepted, but not by every crawler or not as
probably meant; "info": worth knowing), the 1-based line it concerns (0 for the whole file) and
the 1-based column it points at (0 for the whole line). Messages are written for site owners and
cite no requirement ids; the comments on :data:`CODES` name the requirement behind each code.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import NamedTuple

from robotrules.core import lexer
from robotrules.core.agents import is_global_agent, product_token, user_agent_token
from robotrules.core.extensions import (
    KNOWN_FIELDS,
    parse_crawl_delay,
    parse_request_rate,
)
from robotrules.core.lint_usage import CODES as USAGE_CODES
from robotrules.core.lint_usage import fixed_signal, fixed_usage, usage_findings
from robotrules.core.model import Group, Model, build_model_from_lines, text
from robotrules.core.modes import Mode, get_mode
from robotrules.core.rules import Rule, rank

__all__ = ["CODES", "Diagnostic", "lint"]

# The messages are for site owners: plain words, no requirement ids. The ids are in the comments
# (docs/requirements.md defines them) and in docs/guides/lint.md.
CODES: dict[str, tuple[str, str]] = {
    # P2
    "html-content": ("error", "the file looks like an HTML page, not a robots.txt; only its lines that happen to be valid count"),
    # F9
    "size-limit": ("error", "the file is over 512,000 bytes; Google ignores everything after that"),
    # P2
    "invalid-line": ("error", "not a 'field: value' line; ignored"),
    # P6 (the three field findings)
    "missing-colon": ("warning", "no colon after the field name; Google accepts the line, parsers that follow RFC 9309 ignore it"),
    "field-typo": ("warning", "misspelt field name; Google accepts it, parsers that follow RFC 9309 ignore the line"),
    "field-prefix": ("warning", "the field name only starts with a known name; Google accepts it, other parsers ignore the line"),
    # Google-specific: the reference's 16,663-byte line buffer, read as a C string
    "line-too-long": ("warning", "Google reads only the first 16,663 bytes of a line; the rest of the line is ignored"),
    "nul-byte": ("warning", "a NUL byte ends the line for Google; the rest of the line is ignored"),
    # P3
    "invalid-utf8": ("warning", "the file is not valid UTF-8; crawlers may read these bytes differently"),
    "bom": ("info", "the file starts with a UTF-8 byte order mark; it is ignored"),
    "partial-bom": ("warning", "the file starts with part of a UTF-8 byte order mark; Google skips it, other parsers may misread the first line"),
    # G1
    "rule-outside-group": ("error", "a rule before any user-agent line applies to no crawler"),
    # R2
    "path-without-slash": ("warning", "the path does not start with '/' or '*', so it can never match"),
    # R1
    "empty-rule": ("info", "a rule without a path is ignored (an empty 'disallow:' allows everything)"),
    # R6
    "shadowed-rule": ("warning", "another rule matches exactly the same URLs and always takes precedence; this one never decides"),
    # G4
    "merged-groups": ("info", "several groups name the same crawler; their rules are merged into one group"),
    # G3 (the three user-agent findings)
    "user-agent-without-token": ("warning", "the user-agent value does not start with a crawler name (letters, '-' or '_'); no crawler matches it"),
    "user-agent-extra": ("info", "only the crawler name at the start of the user-agent value counts (letters, '-' and '_'); the rest is ignored"),
    "user-agent-header": ("warning", "the user-agent value is a whole User-Agent header; only the name it starts with counts, so the group misses the crawler meant"),
    # N1
    "sitemap-not-absolute": ("warning", "a sitemap must be a full URL, such as https://example.com/sitemap.xml"),
    # N2 (the three field-value findings)
    "ignored-field": ("info", "Google ignores this field; other crawlers may read it"),
    "unknown-field": ("warning", "unknown field; ignored"),
    "invalid-value": ("warning", "the value of this field cannot be read"),
    # modes (guides/modes.md)
    "not-in-mode": ("warning", "this field is not part of the selected mode and is ignored"),
    # A1-A7: the AI-use lines (core/lint_usage.py)
    **USAGE_CODES,
}
"""Every diagnostic code with its severity and meaning. Codes are stable; new ones may be added."""


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One finding: ``line`` (1-based, 0 for the file), ``severity``, stable ``code``, ``message``.

    ``column`` is the 1-based character column the finding points at (the start of the value
    for a bad path, user-agent, sitemap or field value; the field name for a misspelt, unknown
    or ignored field; the first byte cut or the bad byte for the line-level findings), or 0
    when it concerns the whole line or file. Characters are counted in the line as decoded
    from UTF-8 (each invalid byte sequence counts as one), without the byte order mark.

    ``fix`` is the line as it should be written when the fix is obvious ("Disallow: admin/" ->
    "Disallow: /admin/", a misspelt field name -> the right one, "Content-Signals" ->
    "Content-Signal", "Train-AI=n" -> "train-ai=n"), else None. It fixes this finding only,
    keeps the line's comment, and drops its indentation.
    """

    line: int
    severity: str
    code: str
    message: str
    column: int = 0
    fix: str | None = None

    def __reduce__(self) -> tuple[type[Diagnostic], tuple[int, str, str, str, int, str | None]]:
        """Pickled as its fields, rebuilt by the constructor (the compiled core's frozen classes
        accept no attribute writes, not even from pickle)."""
        return (Diagnostic, (self.line, self.severity, self.code, self.message, self.column, self.fix))

    def __str__(self) -> str:
        where = f"line {self.line}" if self.line else "file"
        if self.line and self.column:
            where += f", column {self.column}"
        return f"{where}: {self.severity}: {self.message} [{self.code}]"


def _diag(line: int, code: str, detail: str = "", column: int = 0) -> Diagnostic:
    severity, summary = CODES[code]
    return Diagnostic(line, severity, code, f"{summary}{': ' + detail if detail else ''}", column)


_HTML_RE = re.compile(rb"<\s*(?:!doctype\s+html|html|head|body|title|meta|script|div|p)\b", re.IGNORECASE)
_VALUE_PARSERS = {
    "crawl-delay": parse_crawl_delay,
    "request-rate": parse_request_rate,
}
# "Name/version" items of a User-Agent header (RFC 9110 10.1.5), such as "Chrome/120.0" or "FooBot/2.1".
_PRODUCT_VERSION_RE = re.compile(r"(?:^|[\s;(])[A-Za-z][A-Za-z0-9_.!+-]*/[A-Za-z0-9]")


def _column(line: str, offset: int) -> int:
    """The 1-based character column of ``offset`` in a lexer ``line`` (Latin-1, one character a byte)."""
    if offset <= 0:
        return 1
    prefix = line[:offset]
    return (len(prefix) if prefix.isascii() else len(text(prefix))) + 1


class _Lines:
    """The lines of the body as the parser read them (cut as the mode cuts them), for columns."""

    __slots__ = ("_lines",)

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines

    def get(self, number: int) -> str:
        """Line ``number`` (1-based) as the lexer saw it; "" when there is none."""
        lines = self._lines
        return lines[number - 1] if 0 < number <= len(lines) else ""

    def key_column(self, number: int) -> int:
        """Where the field name starts: the first character that is not a blank (P4)."""
        line = self.get(number)
        return len(line) - len(line.lstrip(lexer.WS)) + 1 if line.strip(lexer.WS) else 0

    def value_column(self, number: int, key: str) -> int:
        """Where the value starts: after the colon (or, P6, the blanks standing for it) and blanks."""
        line = self.get(number)
        start = len(line) - len(line.lstrip(lexer.WS))
        hash_at = line.find("#")
        end = len(line) if hash_at < 0 else hash_at
        colon = line.find(":", start, end)
        at = colon + 1 if colon >= 0 else start + len(key)
        while at < end and line[at] in lexer.WS:
            at += 1
        return _column(line, at) if at < end else 0


def _looks_like_header(value: str) -> bool:
    """Whether a user-agent value is a whole User-Agent header rather than a crawler's name.

    A comment in parentheses ("FooBot (+http://foo.example)"), a value starting "Mozilla/", or
    two "name/version" items ("Foo/1.0 Bar/2.0") say so; a single "FooBot/1.2" does not.
    """
    if "(" in value or value[:8].lower() == "mozilla/":
        return True
    found = _PRODUCT_VERSION_RE.findall(value)
    return len(found) >= 2


def _file_findings(data: bytes, lexed: lexer.Lexed, raw: list[str], mode: Mode, size: int) -> list[Diagnostic]:
    """Findings about the whole file, its bytes, and the lines a mode cuts (``raw``: the uncut lines)."""
    found = []
    if size > lexer.SIZE_LIMIT:
        found.append(_diag(0, "size-limit", f"{size - lexer.SIZE_LIMIT:,} bytes ignored"))
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
                where, column = _line_and_column(head, lexed.bom_bytes, exc.start)
                found.append(_diag(where, "invalid-utf8", f"byte offset {exc.start}", column))
    if _HTML_RE.search(head, 0, 4096):
        found.append(_diag(0, "html-content"))
    if mode.c_string_lines and (b"\0" in head or len(head) > lexer.MAX_LINE_BYTES):
        for number, line in enumerate(raw, 1):
            if len(line) > lexer.MAX_LINE_BYTES:
                found.append(_diag(number, "line-too-long", f"{len(line):,} bytes", _column(line, lexer.MAX_LINE_BYTES)))
            nul = line.find("\0", 0, lexer.MAX_LINE_BYTES)
            if nul >= 0:
                found.append(_diag(number, "nul-byte", "", _column(line, nul)))
    return found


def _line_and_column(head: bytes, bom: int, offset: int) -> tuple[int, int]:
    """P1: the 1-based line and character column of byte ``offset`` (CR LF, CR and LF end lines)."""
    before = head[min(bom, offset) : offset]
    if b"\r" in before:
        before = before.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    last = before.rfind(b"\n")
    return before.count(b"\n") + 1, len(before[last + 1 :].decode("utf-8", "replace")) + 1


def _user_agent_finding(line: int, agent: str, token: str, column: int) -> Diagnostic:
    """G3: what a user-agent value with more than a product token counts as, and what was meant."""
    shown = agent[:80]
    if _looks_like_header(agent):
        meant = user_agent_token(agent)
        if meant and meant != "*" and meant.lower() != token:
            detail = f"{shown!r} counts as {token!r}, not {meant!r}: write 'User-agent: {meant}'"
            return _diag(line, "user-agent-header", detail, column)
        if token == "mozilla":  # the header of a browser: no crawler's name in it
            detail = f"{shown!r} counts as {token!r}, a browser's name: write the crawler's name instead"
            return _diag(line, "user-agent-header", detail, column)
    return _diag(line, "user-agent-extra", f"{shown!r} counts as {token!r}", column)


def _event_findings(lexed: lexer.Lexed, lines: _Lines, mode: Mode) -> list[Diagnostic]:
    found = []
    for line, kind, key, value, flags in lexed.events:
        if flags:
            if flags & lexer.F_MISSING_COLON:
                found.append(_diag(line, "missing-colon", f"'{text(key)} {text(value)}'", lines.key_column(line)))
            if flags & lexer.F_TYPO:
                found.append(_diag(line, "field-typo", f"'{text(key)}'", lines.key_column(line)))
            elif flags & lexer.F_PREFIX:
                found.append(_diag(line, "field-prefix", f"'{text(key)}'", lines.key_column(line)))
        if kind == lexer.INVALID:
            found.append(_diag(line, "invalid-line", repr(text(key)[:80]), lines.key_column(line)))
        elif kind == lexer.DISALLOW or (kind == lexer.ALLOW and mode.allow_rules):
            if not value:
                found.append(_diag(line, "empty-rule"))
            elif value[:1] not in ("/", "*"):
                found.append(_diag(line, "path-without-slash", repr(text(value)[:80]), lines.value_column(line, key)))
        elif kind == lexer.USER_AGENT:
            agent = text(value)
            if not is_global_agent(agent, star_with_text=mode.star_with_text_is_global):
                token = product_token(agent)
                if not token:
                    found.append(
                        _diag(line, "user-agent-without-token", repr(agent[:80]), lines.value_column(line, key))
                    )
                elif len(token) != len(agent):
                    found.append(_user_agent_finding(line, agent, token, lines.value_column(line, key)))
        elif kind == lexer.SITEMAP:
            url = text(value)
            if "://" not in url:
                found.append(_diag(line, "sitemap-not-absolute", repr(url[:80]), lines.value_column(line, key)))
        elif kind == lexer.OTHER:
            field = text(key).lower()
            if field == "allow" and not mode.allow_rules:
                found.append(_diag(line, "not-in-mode", f"'{text(key)}' in {mode.name}", lines.key_column(line)))
            elif field in KNOWN_FIELDS:
                found.append(_diag(line, "ignored-field", f"{field}: {KNOWN_FIELDS[field]}", lines.key_column(line)))
                parser = _VALUE_PARSERS.get(field)
                if parser is not None and parser(text(value)) is None:
                    detail = f"{field}: {text(value)[:80]!r}"
                    found.append(_diag(line, "invalid-value", detail, lines.value_column(line, key)))
            elif field != "content-signals":  # a misspelling the AI-use findings name (signal-misspelt)
                found.append(_diag(line, "unknown-field", f"'{text(key)[:80]}'", lines.key_column(line)))
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


def _usage_findings(model: Model, lines: _Lines, mode: Mode) -> list[Diagnostic]:
    """A1-A7: the AI-use lines judged by effect (:mod:`robotrules.core.lint_usage`); none in
    ``legacy1994``, which knows neither line."""
    if mode.substring_agent_match:
        return []
    normalise = mode.normalise_percent_encoding
    return [_diag(line, code, detail, lines.key_column(line)) for line, code, detail in usage_findings(model, normalise)]


class _Pass(NamedTuple):
    """What the linter's one reading of a body gives (DESIGN 4): each handler reads from it."""

    lexed: lexer.Lexed  # the events of every line, from the tokenisation that built ``model``
    model: Model  # for the group findings
    lines: list[str]  # the lines as the mode reads them (cut): for columns
    raw: list[str]  # the same lines uncut: for the lines a mode cuts


def _read(data: bytes, mode: Mode) -> _Pass:
    """Decode, split and tokenise ``data`` once; the model is built from the same events."""
    source, bom = lexer.decode(data, mode)
    raw = lexer.uncut_lines(source)
    lines = lexer.cut_lines(raw, source, mode)
    events: list[tuple[int, int, str, str, int]] = []
    model = build_model_from_lines(lines, source.isascii(), bom, mode, events)
    lexed = lexer.Lexed(events, bom, len(data), len(data) > lexer.SIZE_LIMIT, len(lines))
    return _Pass(lexed, model, lines, raw)


def lint(body: bytes | str, mode: str | Mode = "google", *, size: int | None = None) -> list[Diagnostic]:
    """All diagnostics for a robots.txt body, sorted by line then code. Pure; never raises for any content.

    ``size`` is the original size when ``body`` was already cut to the 512,000-byte limit.
    """
    mode_rules = get_mode(mode)
    data = lexer.to_bytes(body)
    read = _read(data, mode_rules)
    found = (
        _file_findings(data, read.lexed, read.raw, mode_rules, len(data) if size is None else size)
        + _event_findings(read.lexed, _Lines(read.lines), mode_rules)
        + _group_findings(read.model, mode_rules)
        + _usage_findings(read.model, _Lines(read.lines), mode_rules)
    )
    found.sort(key=lambda d: (d.line, d.code))
    return _with_fixes(found, read)


# -- fixes: the line as it should be written, for the findings whose fix is obvious -------------

_NAMES = {lexer.DISALLOW: "Disallow", lexer.ALLOW: "Allow", lexer.USER_AGENT: "User-agent", lexer.SITEMAP: "Sitemap"}
_SPELLED = {
    "user-agent": "User-agent", "allow": "Allow", "disallow": "Disallow", "sitemap": "Sitemap",
    "crawl-delay": "Crawl-delay", "request-rate": "Request-rate", "visit-time": "Visit-time", "host": "Host",
    "clean-param": "Clean-param", "content-signal": "Content-Signal", "content-usage": "Content-Usage",
}
"""Field names as they are usually written: what a misspelt unknown field is compared with."""
_FIXABLE = frozenset({
    "path-without-slash", "field-typo", "field-prefix", "missing-colon", "unknown-field", "signal-misspelt",
    "user-agent-header", "user-agent-extra", "usage-unreadable", "usage-unknown-value", "signal-value",
})


def _with_fixes(found: list[Diagnostic], read: _Pass) -> list[Diagnostic]:
    """``found``, each finding with an obvious fix carrying it (:attr:`Diagnostic.fix`)."""
    if not any(d.code in _FIXABLE for d in found):
        return found
    events = {event[0]: event for event in read.lexed.events}
    fixed = []
    close: dict[str, str | None] = {}  # unknown field name -> the known one it misspells, for this file
    for d in found:
        event = events.get(d.line) if d.code in _FIXABLE else None
        fix = _fix(d.code, event, read.lines[d.line - 1], close) if event is not None else None
        fixed.append(d if fix is None else Diagnostic(d.line, d.severity, d.code, d.message, d.column, fix))
    return fixed


def _fix(code: str, event: tuple[int, int, str, str, int], raw: str, close: dict[str, str | None]) -> str | None:
    """The fix of finding ``code`` on a line with this lexer ``event``; ``raw`` the line as read;
    ``close``: the misspellings already looked up in this file (see :func:`_misspelt`)."""
    _, kind, key_raw, value_raw, _ = event
    key, value = text(key_raw), text(value_raw)
    hash_at = raw.find("#")
    comment = "" if hash_at < 0 else "  " + text(raw[hash_at:])
    if code in ("field-typo", "field-prefix", "missing-colon"):
        return f"{_NAMES.get(kind, key)}: {value}{comment}"
    if code == "path-without-slash":
        scheme, sep, rest = value.partition("://")
        path = "/" + rest.partition("/")[2] if sep and scheme.isalpha() else "/" + value
        return f"{key}: {path}{comment}"
    if code == "unknown-field":
        meant = _misspelt(key.lower(), close)
        return f"{meant}: {value}{comment}" if meant is not None else None
    if code == "signal-misspelt":
        return f"Content-Signal: {value}{comment}"
    if code in ("user-agent-header", "user-agent-extra"):
        return _agent_fix(key, value, comment)
    if code in ("usage-unreadable", "usage-unknown-value") and key.lower() == "content-usage":
        statement = fixed_usage(value)
        return f"{key}: {statement}{comment}" if statement is not None else None
    if code == "signal-value":
        statement = fixed_signal(value)
        return f"{key}: {statement}{comment}" if statement is not None else None
    return None


_MISSPELT_MOST = 1000
"""Distinct unknown field names one file's lint compares with the known ones: past it, no
suggestion (a hostile file of 36,000 distinct names cost seconds of string comparisons)."""


def _misspelt(key: str, close: dict[str, str | None]) -> str | None:
    """The known field name ``key`` (lower case) misspells, as usually written, or None; each name
    looked up once per file (``close``), at most :data:`_MISSPELT_MOST` names."""
    if key in close:
        return close[key]
    if len(close) >= _MISSPELT_MOST:
        return None
    found = difflib.get_close_matches(key, list(_SPELLED), n=1, cutoff=0.8)
    meant = close[key] = _SPELLED[found[0]] if found else None
    return meant


def _agent_fix(key: str, agent: str, comment: str) -> str | None:
    """G3: a whole User-Agent header -> the crawler's name in it; "Googlebot/2.1" or "Googlebot*"
    -> "Googlebot" (a name followed by something else, as "MJ12bot", has no obvious fix)."""
    if _looks_like_header(agent):
        meant = user_agent_token(agent)
        return f"{key}: {meant}{comment}" if meant and meant != "*" and meant.lower() != "mozilla" else None
    name = _TOKEN_PREFIX_RE.match(agent)
    rest = agent[name.end():] if name is not None else ""
    if name is None or not rest or rest[0] not in "/*" + lexer.WS:
        return None
    return f"{key}: {name.group()}{comment}"


_TOKEN_PREFIX_RE = re.compile(r"[A-Za-z_-]+")
