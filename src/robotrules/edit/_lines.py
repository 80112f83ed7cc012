"""A robots.txt as the edit reads and writes it: its lines as the parser splits them (P1), its
groups from the lexer's events as the model builds them (G1), and a :class:`Plan` of line edits
rendered into the new body, every line not edited kept byte for byte."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from robotrules.core import lexer
from robotrules.core.agents import is_global_agent, product_token
from robotrules.core.modes import get_mode

__all__ = ["ALLOW", "DISALLOW", "Group", "Plan", "groups_of", "lines_of"]

ALLOW, DISALLOW, _UA = lexer.ALLOW, lexer.DISALLOW, lexer.USER_AGENT
_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)")


@dataclass
class Group:
    """One group as the lines hold it (G1): its user-agent lines, rule lines and other lines."""

    agents: list[tuple[int, str]] = field(default_factory=list)  # (line, value)
    rules: list[tuple[int, int, str]] = field(default_factory=list)  # (line, kind, value)
    others: list[tuple[int, str, str]] = field(default_factory=list)  # (line, lower-case key, value)
    _tokens: frozenset[str] | None = None
    _lines: dict[str, list[tuple[int, str]]] | None = None

    def tokens(self, star_with_text: bool) -> frozenset[str]:
        """G2, G3: the tokens the group names ("*" for the global group), read once."""
        if self._tokens is None:
            self._tokens = frozenset("*" if is_global_agent(v, star_with_text=star_with_text) else product_token(v)
                                     for _, v in self.agents)
        return self._tokens

    def lines_of(self, star_with_text: bool) -> dict[str, list[tuple[int, str]]]:
        """Each token the group names ("*" for the global group) -> its user-agent lines (line,
        value), in file order, read once."""
        if self._lines is None:
            self._lines = {}
            for n, value in self.agents:
                token = "*" if is_global_agent(value, star_with_text=star_with_text) else product_token(value)
                self._lines.setdefault(token, []).append((n, value))
        return self._lines


def lines_of(body: bytes) -> list[bytes]:
    """P1: the lines with their line breaks, as the parser numbers them (the last may have none)."""
    found = _LINE.findall(body)
    rest = body[sum(map(len, found)):]
    if rest:
        found.append(rest)
    return found


def groups_of(body: bytes, mode_name: str) -> list[Group]:
    """G1: the groups of ``body`` from the lexer's events, as the model builds them."""
    mode = get_mode(mode_name)
    groups: list[Group] = []
    current: Group | None = None
    for n, kind, key, value, _ in lexer.lex(body, mode).events:
        if kind <= ALLOW:
            if current is not None:
                current.rules.append((n, kind, value))
        elif kind == _UA:
            if current is None or current.rules:
                current = Group()
                groups.append(current)
            current.agents.append((n, value))
        elif kind == lexer.BLANK:
            current = None
        elif kind == lexer.OTHER and current is not None:
            current.others.append((n, key.lower(), value))
    return groups


class Plan:
    """Line edits: replacements (b"" deletes a line), lines inserted after a line, groups to add."""

    def __init__(self, lines: list[bytes], newline: bytes) -> None:
        self.lines = lines
        self.newline = newline
        self.replace: dict[int, bytes] = {}
        self.insert: dict[int, list[bytes]] = {}  # before line n (1-based); n = len + 1: at the end
        self.append: list[list[bytes]] = []  # new groups, each ending with a rule
        self.last: list[bytes] | None = None  # a new group without rules: it goes last

    def add_after(self, line: int, text: bytes) -> None:
        """Insert ``text`` as a line after line ``line``."""
        self.insert.setdefault(line + 1, []).append(text)

    def render(self, before: int | None) -> bytes:
        """The new body: ``append`` before line ``before`` (an open last group) or at the end."""
        nl = self.newline
        out: list[bytes] = []
        for n, line in enumerate(self.lines, 1):
            if n == before:
                for group in self.append:
                    out.extend(text + nl for text in group)
                    out.append(nl)
            out.extend(text + nl for text in self.insert.get(n, ()))
            out.append(self.replace.get(n, line))
        tail = self.insert.get(len(self.lines) + 1, [])
        at_end = ([] if before is not None else self.append) + ([self.last] if self.last is not None else [])
        if not tail and not at_end:
            return b"".join(out)
        last = next((n for n in range(len(out) - 1, -1, -1) if out[n]), None)
        if last is not None and not out[last].endswith((b"\n", b"\r")):
            out[last] += nl  # the file did not end with a line break: the new lines need one
        out.extend(text + nl for text in tail)
        for group in at_end:
            last = next((n for n in range(len(out) - 1, -1, -1) if out[n]), None)
            if last is not None and out[last].strip(b" \t\r\n"):
                # a blank line before a new group, for people (Google needs none); with the line break
                # of the line before it, so that a CR there and an LF here never read as one CR LF
                out.append(out[last][len(out[last].rstrip(b"\r\n")):])
            out.extend(text + nl for text in group)
        return b"".join(out)
