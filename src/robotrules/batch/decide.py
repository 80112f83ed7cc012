"""The one decision of a batch row, shared by every engine (local processes and Spark).

A row is a URL and an agent; it is decided by the robots.txt that governs the URL, as the
policy says it stands (:class:`Governing`: its rules, or a full allow or disallow, and why).
Engines only group rows by robots.txt URL, build each :class:`Governing` once per group and call
:func:`decide_row` for each row, so every engine gives the same rows. The agent is matched on its
product token, as on every surface for people (a token, a versioned name or a whole header).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from robotrules.core.agents import user_agent_token
from robotrules.core.policy import Entry, Policy, standing
from robotrules.core.robotstxt import RobotsTxt, parse
from robotrules.hosts import robots_url

__all__ = ["COLUMNS", "Governing", "Row", "decide_row", "governing", "robots_url_of"]

COLUMNS = ("url", "agent", "allowed", "line", "rule", "robots_url", "robots_status", "reason")
"""The columns of every batch output, in order."""

Row = tuple[str, str, "bool | None", int, str, str, int, str]
"""One output row, in the order of :data:`COLUMNS`. ``allowed`` is None when nothing is known of
the site (no capture of its robots.txt) or the URL has no robots.txt (not http, https or ftp)."""

Kind = Literal["rules", "allow", "disallow", "unknown"]

_token = lru_cache(maxsize=4096)(user_agent_token)
"""The product token of an agent, memoised: a batch asks with a handful of agents millions of times."""


@dataclass(frozen=True, slots=True)
class Governing:
    """What decides the URLs of one robots.txt: ``robots`` (its rules) or a full allow or
    disallow (``kind``), with the HTTP ``status`` behind it and the ``reason``; "unknown" when
    nothing is known (the archive holds no capture of it)."""

    robots_url: str
    kind: Kind
    status: int
    reason: str
    robots: RobotsTxt | None = None
    texts: dict[int, str] = field(default_factory=dict, compare=False, repr=False)
    """Deciding lines as written, by number, read from the body once each (a site's rows share them)."""


def governing(robots_url: str, entry: Entry | None, policy: Policy, now: float, mode: str = "google") -> Governing:
    """What ``entry`` (from an archive or the cache) means at ``now`` (F2-F6, C2); None: unknown."""
    if entry is None:
        return Governing(robots_url, "unknown", 0, "no capture of this robots.txt")
    stand = standing(entry, now, policy)
    robots = parse(stand.body, mode=mode) if stand.kind == "rules" else None
    return Governing(robots_url, stand.kind, stand.status, stand.reason, robots)


def robots_url_of(url: str) -> str | None:
    """The robots.txt URL governing ``url`` (S1-S5), None when it has none (a bad URL, another scheme)."""
    try:
        found = robots_url(url)
    except ValueError:
        return None
    return found if found.startswith(("http:", "https:", "ftp:")) else None


def decide_row(url: str, agent: str, gov: Governing | None) -> Row:
    """The row for ``url`` and ``agent`` under ``gov`` (None: the URL has no robots.txt)."""
    if gov is None:
        return (url, agent, None, 0, "", "", 0, "no robots.txt for this URL (not an absolute http, https or ftp URL)")
    if gov.robots is not None:
        decision = gov.robots.check(url, _token(agent))
        text = ""
        if decision.line:
            text = gov.texts.get(decision.line, "")
            if not text:
                text = gov.texts[decision.line] = gov.robots.line_text(decision.line)
        return (url, agent, decision.allowed, decision.line, text, gov.robots_url, gov.status, gov.reason)
    allowed = None if gov.kind == "unknown" else gov.kind == "allow"
    return (url, agent, allowed, 0, "", gov.robots_url, gov.status, gov.reason)
