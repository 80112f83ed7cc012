"""Verdicts for people: one answer, the same in the CLI, the service and the web page.

A :class:`Verdict` is what a person asked (a URL and the agent as they typed it: a product token,
a versioned name or a whole User-Agent header), the product token it was matched on (RFC 9309
2.2.1, G3), the answer, the deciding line as written in the file, and where the file came from:
the live robots.txt (its cache state, status, redirects and age) or a local draft. It has one
sentence form (:meth:`Verdict.explain`) and one JSON form (:meth:`Verdict.to_dict`), so every
surface shows the same thing. The core keeps comparing agents exactly as the reference does;
only these surfaces extract the product token.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from robotrules.core.agents import user_agent_token

if TYPE_CHECKING:  # the client imports sentence() from here
    from robotrules.client import CheckResult, RobotsState
    from robotrules.core.robotstxt import RobotsTxt

__all__ = ["Verdict", "check_offline", "from_result", "sentence", "state_dict"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """One URL decided for one agent, with why (DESIGN: every verdict is explainable).

    ``agent`` as given, ``token`` the product token matched on; ``line`` the deciding line's
    number (0: none), ``text`` that line as written, ``kind`` "allow"/"disallow" (None: no rule);
    ``group`` the group that applied ("*", a token, None: none); ``path`` what was matched;
    ``source`` the robots.txt URL or the draft's name; ``state`` the live file's state (None for
    a draft); ``full`` "allow"/"disallow" when the whole site is decided without rules (F3-F6).
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

    def explain(self) -> str:
        """One line for people: verdict, token, deciding line as written, and the file's state."""
        head = sentence(self.allowed, self.token, self.line, self.text, self.group, self.path, self.source, self.full)
        return f"{head} [{self.state}]" if self.state is not None else head

    def to_dict(self) -> dict[str, Any]:
        """The JSON form shared by ``--json`` output and the service."""
        return {
            "url": self.url,
            "agent": self.agent,
            "token": self.token,
            "allowed": self.allowed,
            "line": self.line,
            "text": self.text or None,
            "kind": self.kind,
            "group": self.group,
            "path": self.path,
            "source": self.source,
            "full": self.full,
            "robots": state_dict(self.state) if self.state is not None else None,
            "explanation": self.explain(),
        }


_GROUPS: dict[str | None, str] = {None: "no group applies", "*": "group 'user-agent: *'"}


def sentence(allowed: bool, token: str, line: int, text: str, group: str | None, path: str, source: str,
             full: str | None = None) -> str:
    """The verdict as a sentence: who, which line as written (or why no line), which group."""
    verdict = "allowed" if allowed else "disallowed"
    who = f" for {token}" if token else ""
    if full is not None:
        return f"{verdict}{who}: {source} says {full} everything"
    where = _GROUPS.get(group, f"group for {group!r}")
    if not line:
        return f"{verdict}{who}: no rule matches {path!r} ({where})"
    return f"{verdict}{who} by line {line}: {text!r} ({where})"


def state_dict(state: RobotsState) -> dict[str, Any]:
    """The JSON form of a live robots.txt's state: URL, redirects, status, why, cache and age."""
    entry = state.entry
    return {
        "robots_url": state.robots_url,
        "final_url": entry.final_url or None,
        "redirects": entry.redirects,
        "kind": state.kind,
        "status": state.status,
        "reason": state.reason,
        "cache": state.cache,
        "age": round(state.age, 3),
        "failures": state.failures,
        "fetched_at": entry.fetched_at,
        "expires_at": entry.expires_at,
        "store": state.store,
        "summary": state.describe(),
    }


def from_result(result: CheckResult, url: str, agent: str) -> Verdict:
    """The verdict of a live check (:meth:`RobotsClient.check`) of ``url`` for ``agent``."""
    state = result.state
    decision = result.decision
    if decision is None:
        return Verdict(url, agent, result.agent, result.allowed, 0, "", None, None, "", state.robots_url, state,
                       full="allow" if result.allowed else "disallow")
    rule = decision.rule
    return Verdict(url, agent, result.agent, result.allowed, result.line, result.text,
                   rule.kind if rule is not None else None, decision.agent, decision.path, state.robots_url, state)


def check_offline(robots: RobotsTxt, url: str, agent: str, source: str) -> Verdict:
    """Decide ``url`` for ``agent`` against a draft or a file read from disk (no status rules apply)."""
    token = user_agent_token(agent)
    decision = robots.check(url, token)
    rule = decision.rule
    return Verdict(url, agent, token, decision.allowed, decision.line, robots.line_text(decision.line),
                   rule.kind if rule is not None else None, decision.agent, decision.path, source)
