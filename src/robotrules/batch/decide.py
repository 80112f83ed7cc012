"""The one decision of a batch row, shared by every engine (local processes and Spark).

A row is a URL and an agent; it is decided by the robots.txt that governs the URL, as the
policy says it stands (:class:`robotrules.answers.Governing`: its rules, or a full allow or
disallow, and why; the row's columns are :data:`robotrules.answers.COLUMNS`).
Engines only group rows by robots.txt URL, build each :class:`Governing` once per group and call
:func:`decide_url` for each URL and its agents (or :func:`decide_row` for one row), so every
engine gives the same rows. The agent is matched on its
product token, as on every surface for people (a token, a versioned name or a whole header).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from robotrules.answers import COLUMNS, Governing, LineTexts, Row, token_of
from robotrules.core.policy import Entry, Policy, standing
from robotrules.core.robotstxt import parse
from robotrules.hosts import robots_url

__all__ = ["COLUMNS", "NO_ROBOTS", "NO_URL", "NO_URL_GOVERNING", "Governing", "Item", "LineTexts", "Row", "decide_row",
           "decide_url", "governing", "no_url", "robots_url_of", "tokens_of", "verdict_of"]

Item: TypeAlias = "str | tuple[str, str]"
"""An input of the local engine: a URL, decided for every agent of the job, or a (url, agent)
pair, a row with its own agent."""


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


NO_ROBOTS = "no robots.txt for this URL (not an absolute http, https or ftp URL)"
"""The reason of the rows of a URL that has no robots.txt."""

NO_URL = "invalid URL: the url cell is empty"
"""The reason of a row without a URL (an empty, blank or missing ``url`` cell)."""


def no_url(url: str) -> bool:
    """Whether ``url`` is no URL at all: empty or blank (a missing cell is read as "")."""
    return not url or url.isspace()


NO_URL_GOVERNING = Governing("", "unknown", 0, NO_URL)
"""What "governs" a row without a URL: nothing, with the reason :data:`NO_URL` (engines that
group rows by their governor give these rows this one)."""


def verdict_of(gov: Governing) -> bool | None:
    """The verdict on every URL of a robots.txt that has no rules to match: a full allow or
    disallow (F2-F6), None when nothing is known (:attr:`Governing.verdict`)."""
    return gov.verdict


def decide_url(url: str, agents: Sequence[str], gov: Governing | None, tokens: Sequence[str] | None = None) -> list[Row]:
    """The rows for ``url`` and each of ``agents``, in order, under ``gov`` (None: the URL has no
    robots.txt). ``tokens``: the agents' product tokens, when the caller has them already.

    One path extraction per URL and one match per group, however many agents (RobotsTxt.verdicts).
    """
    if gov is None:
        reason = NO_URL if no_url(url) else NO_ROBOTS
        return [(url, agent, None, 0, "", "", 0, reason) for agent in agents]
    robots = gov.robots
    if robots is None:
        allowed = verdict_of(gov)
        return [(url, agent, allowed, 0, "", gov.robots_url, gov.status, gov.reason) for agent in agents]
    found = robots.verdicts(url, tokens if tokens is not None else [token_of(agent) for agent in agents])
    texts, where, status, reason = gov.texts, gov.robots_url, gov.status, gov.reason
    return [(url, agent, allowed, line, texts[line], where, status, reason)
            for agent, (allowed, line) in zip(agents, found, strict=True)]


def decide_row(url: str, agent: str, gov: Governing | None) -> Row:
    """The row for ``url`` and ``agent`` under ``gov`` (None: the URL has no robots.txt)."""
    return decide_url(url, (agent,), gov)[0]


def tokens_of(agents: Sequence[str]) -> tuple[str, ...]:
    """The product tokens of ``agents`` (memoised), for :func:`decide_url`."""
    return tuple(token_of(agent) for agent in agents)
