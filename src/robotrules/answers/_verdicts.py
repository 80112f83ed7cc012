"""One URL decided for one agent: the answer a client gives, the verdict for people, its one
sentence and its one JSON form."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from robotrules.answers._crawlers import ignores_global
from robotrules.answers._governing import RobotsState, state_dict
from robotrules.answers._tokens import token_of
from robotrules.core.decision import sentence as decision_sentence
from robotrules.core.decision import verdict_word
from robotrules.core.robotstxt import Decision, RobotsTxt
from robotrules.core.usage import CATEGORIES, Usage, preference_word

__all__ = ["LISTED_LINES", "CheckResult", "Verdict", "answer", "check_offline", "from_result", "json_ready",
           "sentence"]

LISTED_LINES = 100
"""Preference lines one verdict's JSON lists at most (``preference_lines``; the rest counted in
``preference_lines_omitted``): a hostile file may tie thousands of Content-Usage lines."""

def sentence(allowed: bool, token: str, line: int, text: str, group: str | None, path: str, source: str,
             full: str | None = None, ignored_global: bool = False, why: str = "") -> str:
    """The verdict as a sentence: who, which line as written (or why no line), which group;
    ``ignored_global``: the crawler ignored the file's ``*`` group (A8). For a ``full`` allow or
    disallow (no rules decide, F4-F6), ``why`` says what happened (:meth:`RobotsState.cause`):
    never as if the site had said so when it could not be fetched."""
    if full is not None:
        verdict, who = verdict_word(allowed), f" for {token}" if token else ""
        return f"{verdict}{who}: {why}" if why else f"{verdict}{who}: no rules apply, everything {verdict} at {source}"
    where = f"no group names {token or 'it'}, and it ignores the group 'user-agent: *'" if ignored_global else None
    return decision_sentence(allowed, line, text, group, path, token, where)


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The answer for one URL and agent: ``allowed``, the deciding ``line`` (0: none) and why.

    ``decision`` is the matcher's :class:`~robotrules.core.robotstxt.Decision` when rules decided,
    None for a full allow or disallow; ``state`` says which robots.txt, fetched when, and how.
    """

    allowed: bool
    line: int
    decision: Decision | None
    state: RobotsState
    agent: str = ""
    """The product token the answer was matched on (RFC 9309 2.2.1), taken from what the caller
    passed: a token, a versioned name or a whole User-Agent header (several joined by ", ")."""

    @property
    def text(self) -> str:
        """The deciding line as written in the file ("" when no rule decided)."""
        return self.state.texts[self.line] if self.state.robots is not None and self.line else ""

    def explain(self) -> str:
        """One line for people: verdict, deciding line as written, and the robots.txt's state."""
        d, s = self.decision, self.state
        if d is None:
            head = sentence(self.allowed, self.agent, 0, "", None, "", s.robots_url, s.kind, why=s.cause())
        else:
            head = sentence(self.allowed, self.agent, self.line, self.text, d.agent, d.path, s.robots_url)
        return f"{head} [{s}]"


@dataclass(frozen=True, slots=True)
class Verdict:
    """One URL decided for one agent, with why, for people (DESIGN 5).

    ``agent`` as given, ``token`` the product token matched on; ``line`` the deciding line's
    number (0: none), ``text`` that line as written, ``kind`` "allow"/"disallow" (None: no rule);
    ``group`` the group that applied ("*", a token, None: none); ``path`` what was matched;
    ``source`` the robots.txt URL or the draft's name; ``state`` the live file's state (None for
    a draft); ``full`` "allow"/"disallow" when the whole site is decided without rules (F3-F6);
    ``usage`` the AI-use preferences for the URL (A1-A8; None when no rules decide);
    ``ignored_global`` True when the crawler ignores the ``*`` group (A8: Google's AdsBot) and
    that group would otherwise have applied.
    """

    url: str
    agent: str
    token: str
    allowed: bool
    line: int
    text: str
    kind: str | None
    group: str | None
    path: str
    source: str
    state: RobotsState | None = None
    full: str | None = None
    usage: Usage | None = None
    ignored_global: bool = False

    def preference(self, category: str) -> bool | None:
        """A3, A5: True (allowed), False (disallowed) or None (unknown, or the URL may not be crawled)."""
        return self.usage.preference(category) if self.usage is not None else None

    def preferences(self) -> dict[str, bool | None]:
        """Every usage category with its :meth:`preference` (all None when no rules decide)."""
        return {category: self.preference(category) for category in CATEGORIES}

    def preference_lines(self) -> list[int]:
        """The Content-Usage and Content-Signal lines that decide the preferences, in line order."""
        if self.usage is None or not self.allowed:
            return []
        return sorted({r.line for r in self.usage.rules} | {s.line for s in self.usage.signals})

    def use_lines(self, category: str) -> list[int]:
        """The Content-Usage and Content-Signal lines that give ``category`` its value (none when
        the URL may not be crawled, A3)."""
        usage = self.usage
        if usage is None or not self.allowed:
            return []
        found = {r.line for r in usage.rules if r.statement.preference(category) is not None}
        found |= {s.line for s in usage.signals if s.statement.preference(category) is not None}
        return sorted(found)

    def use_sentence(self, categories: Sequence[str] | None = None) -> str:
        """The AI-use preferences in words, each with the line that states it: "train-ai
        disallowed by line 4 'content-usage: train-ai=n'; search unknown" for ``categories``
        (default: all), or "not applicable: the URL may not be crawled" (A3). The one wording of
        the CLI and the service."""
        if not self.allowed:
            return "not applicable: the URL may not be crawled"
        parts = []
        for category in categories if categories is not None else list(CATEGORIES):
            value = self.preference(category)
            parts.append(f"{category} {preference_word(value)}"
                         f"{self.usage.source(category) if self.usage is not None else ''}")
        return "; ".join(parts)

    def sentence(self) -> str:
        """The verdict in one sentence: verdict, token, deciding line as written, group."""
        return sentence(self.allowed, self.token, self.line, self.text, self.group, self.path, self.source, self.full,
                        self.ignored_global, self.state.cause() if self.state is not None else "")

    def explain(self) -> str:
        """One line for people: :meth:`sentence`, and the live file's state."""
        head = self.sentence()
        return f"{head} [{self.state}]" if self.state is not None else head

    def to_dict(self) -> dict[str, Any]:
        """The JSON form shared by ``--json`` output and the service: ``line`` is null when no
        rule decides (the Python API's 0), as in every JSON the project writes; at most
        :data:`LISTED_LINES` preference lines, the rest counted (a file may tie thousands)."""
        lines = self.preference_lines()
        return {
            "url": self.url,
            "agent": self.agent,
            "token": self.token,
            "allowed": self.allowed,
            "line": self.line or None,
            "text": self.text or None,
            "kind": self.kind,
            "group": self.group,
            "path": self.path,
            "source": self.source,
            "full": self.full,
            "ignored_global": self.ignored_global,
            "robots": state_dict(self.state) if self.state is not None else None,
            "explanation": self.explain(),
            "preferences": self.preferences(),
            "preference_lines": lines[:LISTED_LINES],
            "preference_lines_omitted": max(0, len(lines) - LISTED_LINES),
        }


def json_ready(data: Any) -> Any:
    """``data`` in the project's one JSON convention: a line number (a ``line`` or ``..._line``
    key) of 0, the Python API's "no line", is ``null``. For JSON forms built elsewhere (the
    diff's, the CLI's documents) before they are written."""
    if isinstance(data, dict):
        return {key: None if _no_line(key, value) else json_ready(value) for key, value in data.items()}
    if isinstance(data, list):
        return [json_ready(item) for item in data]
    return data


def _no_line(key: Any, value: Any) -> bool:
    return type(value) is int and value == 0 and isinstance(key, str) and (key == "line" or key.endswith("_line"))


def answer(state: RobotsState, url: str, tokens: str | tuple[str, ...]) -> CheckResult:
    """The answer for ``url`` under ``state`` for ``tokens`` (product tokens already: one, or several
    for G5), as a client's ``check`` gives it: the rules decide, else the state's full allow or disallow."""
    shown = tokens if isinstance(tokens, str) else ", ".join(tokens)
    if state.robots is not None:
        decision = state.robots.check(url, tokens)
        return CheckResult(decision.allowed, decision.line, decision, state, shown)
    return CheckResult(state.kind == "allow", 0, None, state, shown)


def from_result(result: CheckResult, url: str, agent: str) -> Verdict:
    """The verdict of a live check (:meth:`RobotsClient.check`) of ``url`` for ``agent``."""
    state = result.state
    decision = result.decision
    if decision is None or state.robots is None:
        return Verdict(url, agent, result.agent, result.allowed, 0, "", None, None, "", state.robots_url, state,
                       full="allow" if result.allowed else "disallow")
    if decision.agent == "*" and ignores_global(result.agent):
        return _decide(state.robots, url, agent, result.agent, state.robots_url, state)
    rule = decision.rule
    return Verdict(url, agent, result.agent, result.allowed, result.line, result.text,
                   rule.kind if rule is not None else None, decision.agent, decision.path, state.robots_url, state,
                   usage=state.robots.usage(url, token_of(agent)))


def check_offline(robots: RobotsTxt, url: str, agent: str, source: str) -> Verdict:
    """Decide ``url`` for ``agent`` against a draft or a file read from disk (no status rules apply)."""
    return _decide(robots, url, agent, token_of(agent), source, None)


def _decide(robots: RobotsTxt, url: str, agent: str, token: str, source: str, state: RobotsState | None) -> Verdict:
    """The verdict of ``robots`` for ``token``; a crawler that ignores the ``*`` group (A8) is
    decided without it, and the verdict says so."""
    decision = robots.check(url, token)
    ignored = decision.agent == "*" and ignores_global(token)
    if ignored:
        decision = robots.check(url, token, global_group=False)
    rule = decision.rule
    usage = robots.usage(url, token, global_group=not ignored)
    return Verdict(url, agent, token, decision.allowed, decision.line, robots.line_text(decision.line),
                   rule.kind if rule is not None else None, decision.agent, decision.path, source, state,
                   usage=usage, ignored_global=ignored)
