"""The one decision of a batch row, shared by every engine (local processes and Spark).

A row is a URL and an agent; it is decided by the robots.txt that governs the URL, as the
policy says it stands (:class:`robotrules.answers.Governing`: its rules, or a full allow or
disallow, and why; the row's columns are :data:`robotrules.answers.COLUMNS`).
Engines only group rows by robots.txt URL, build each :class:`Governing` once per group and call
:func:`decide_url` for each URL and its agents (or :func:`decide_row` for one row), so every
engine gives the same rows. The agent is matched on its
product token, as on every surface for people (a token, a versioned name or a whole header).

A row may also carry the URL's AI-use preferences (:data:`PREFERENCE_FIELDS`, one nullable
boolean per category of :data:`robotrules.core.usage.CATEGORIES`: ``train_ai``, ``search``,
``ai_input``), as :meth:`RobotsTxt.usage <robotrules.core.robotstxt.RobotsTxt.usage>` gives them
for the URL and the agent's token (A1-A7; null when unknown, when the URL may not be crawled
(A3), or when no rules decide). Engines ask for them with a :class:`PreferenceReader`; rows
without them keep the columns of :data:`COLUMNS` exactly. The columns and their types are
declared here once (:func:`row_fields`), and both engines' schemas are made from them
(:func:`robotrules.answers.arrow_schema`, :func:`robotrules.answers.spark_schema`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any, NamedTuple, TypeAlias

from robotrules.answers import COLUMNS, FIELDS, FieldType, Governing, LineTexts, Row, ignores_global, token_of
from robotrules.core.policy import Entry, Policy, standing
from robotrules.core.reasons import Reason
from robotrules.core.robotstxt import RobotsTxt, parse
from robotrules.core.usage import CATEGORIES, combine
from robotrules.hosts import robots_url
from robotrules.outcomes import outcome_of

__all__ = ["COLUMNS", "NO_PREFERENCES", "NO_ROBOTS", "NO_URL", "NO_URL_GOVERNING", "PREFERENCE_COLUMNS",
           "PREFERENCE_FIELDS", "FieldType", "Governing", "Item", "LineTexts", "PreferenceReader", "Row",
           "decide_row", "decide_url", "governing", "ignoring_at", "no_url", "robots_url_of", "row_columns",
           "row_fields", "tokens_of", "verdict_of"]


PREFERENCE_FIELDS: tuple[tuple[str, FieldType], ...] = tuple(
    (category.replace("-", "_"), "bool") for category in CATEGORIES)
"""The optional preference columns of a batch row, after :data:`COLUMNS`: one per usage category
(A5, A7), the label with ``_`` for ``-`` (``train_ai``, ``search``, ``ai_input``), each True
(allowed), False (disallowed) or null (unknown, or not applicable: the URL may not be crawled,
A3, or no rules decide it)."""

PREFERENCE_COLUMNS: tuple[str, ...] = tuple(name for name, _ in PREFERENCE_FIELDS)
"""The names of :data:`PREFERENCE_FIELDS`, in order."""

NO_PREFERENCES: tuple[None, ...] = (None,) * len(PREFERENCE_FIELDS)
"""The preference columns of a row nothing states a preference for."""

def row_fields(preferences: bool = False) -> tuple[tuple[str, FieldType], ...]:
    """The columns of a batch row and their types: :data:`robotrules.answers.FIELDS`, then with
    ``preferences`` :data:`PREFERENCE_FIELDS`."""
    return (*FIELDS, *PREFERENCE_FIELDS) if preferences else FIELDS


def row_columns(preferences: bool = False) -> tuple[str, ...]:
    """The names of :func:`row_fields`, in order."""
    return tuple(name for name, _ in row_fields(preferences))


Item: TypeAlias = "str | tuple[str, str]"
"""An input of the local engine: a URL, decided for every agent of the job, or a (url, agent)
pair, a row with its own agent."""


NO_CAPTURE = Reason("no-capture")
"""Why nothing is known of a robots.txt no source captured."""


def governing(robots_url: str, entry: Entry | None, policy: Policy, now: float, mode: str = "google") -> Governing:
    """What ``entry`` (from an archive or the cache) means at ``now`` (F2-F6, C2), with the class
    of its latest attempt (:func:`robotrules.outcomes.outcome_of`); None: unknown."""
    if entry is None:
        return Governing(robots_url, "unknown", 0, NO_CAPTURE.sentence(), outcome="no_capture", why=NO_CAPTURE)
    stand = standing(entry, now, policy)
    robots = parse(stand.body, mode=mode) if stand.kind == "rules" else None
    return Governing(robots_url, stand.kind, stand.status, stand.reason, robots, outcome_of(entry, robots),
                     why=stand.why)


def robots_url_of(url: str) -> str | None:
    """The robots.txt URL governing ``url`` (S1-S5), None when it has none (a bad URL, another scheme)."""
    try:
        found = robots_url(url)
    except ValueError:
        return None
    return found if found.startswith(("http:", "https:", "ftp:")) else None


NO_ROBOTS = Reason("no-robots-url").sentence()
"""The reason of the rows of a URL that has no robots.txt (its words rendered from the code)."""

NO_URL = Reason("no-url").sentence()
"""The reason of a row without a URL (an empty, blank or missing ``url`` cell), rendered from the code."""


def no_url(url: str) -> bool:
    """Whether ``url`` is no URL at all: empty or blank (a missing cell is read as "")."""
    return not url or url.isspace()


NO_URL_GOVERNING = Governing("", "unknown", 0, NO_URL, why=Reason("no-url"))
"""What "governs" a row without a URL: nothing, with the reason :data:`NO_URL` and no outcome
class ("": no robots.txt was fetched; engines that group rows by their governor give these rows
this one)."""


def verdict_of(gov: Governing) -> bool | None:
    """The verdict on every URL of a robots.txt that has no rules to match: a full allow or
    disallow (F2-F6), None when nothing is known (:attr:`Governing.verdict`)."""
    return gov.verdict


class PreferenceReader:
    """The AI-use preferences of URLs under one robots.txt (A1-A7), for the preference columns.

    :meth:`preferences` is ``RobotsTxt.usage(url, token).preference(category)`` for each category
    of :data:`PREFERENCE_FIELDS`, with what does not depend on the URL worked out once per token:
    whether anything is stated at all (else every category is unknown, whatever the URL), read
    once by :meth:`RobotsTxt.usage_lines`. When no Content-Usage rule applies, every crawlable URL
    has what the Content-Signal lines say (A7) and the others none (A3); else each URL is
    answered by :meth:`RobotsTxt.usage` itself, whose rules are indexed once per parsed file
    (A2-A4). Made for one :class:`Governing` (None: no robots.txt, so no preferences); not shared
    between threads.
    """

    __slots__ = ("_plans", "robots")

    def __init__(self, gov: Governing | None) -> None:
        self.robots: RobotsTxt | None = gov.robots if gov is not None else None
        self._plans: dict[str, _Plan] = {}

    def _plan(self, token: str) -> _Plan:
        plan = self._plans.get(token)
        if plan is None:
            plan = self._plans[token] = self._make_plan(token)
        return plan

    def _make_plan(self, token: str) -> _Plan:
        robots = self.robots
        if robots is None:
            return _NOTHING
        whole = not ignores_global(token)  # A8: a crawler that ignores the "*" group reads none of it
        rules, signals = robots.usage_lines(token, global_group=whole)  # what usage() reads, for any URL
        if not rules and not signals:  # no line in scope (and none at all in legacy1994)
            return _NOTHING
        fixed = None
        if not rules:  # nothing to match: every crawlable URL has what the signals say (A4, A7)
            statement = combine(*(signal.statement for signal in signals))
            fixed = tuple(statement.preference(category) for category in CATEGORIES)
        return _Plan(True, fixed, whole)

    def stated(self, token: str) -> bool:
        """Whether any Content-Usage rule or Content-Signal line is in scope for ``token``."""
        return self._plan(token).stated

    def preferences(self, url: str, token: str, allowed: bool | None = None) -> tuple[bool | None, ...]:
        """Each category's preference for ``url`` and ``token``: True, False or None (unknown or
        not applicable: the URL may not be crawled, A3). ``allowed``: the crawl verdict of ``url``
        for ``token``, when the caller has it already."""
        robots = self.robots
        if robots is None:
            return NO_PREFERENCES
        plan = self._plan(token)
        if not plan.stated:
            return NO_PREFERENCES
        if plan.fixed is not None:
            if allowed is None:
                allowed = robots.check(url, token, global_group=plan.global_group).allowed
            crawlable = allowed
            return plan.fixed if crawlable else NO_PREFERENCES
        usage = robots.usage(url, token, global_group=plan.global_group)
        if not usage.crawlable:
            return NO_PREFERENCES  # A3
        return tuple(usage.preference(category) for category in CATEGORIES)


class _Plan(NamedTuple):
    """What a token's groups state, worked out once (see :class:`PreferenceReader`)."""

    stated: bool
    fixed: tuple[bool | None, ...] | None = None
    global_group: bool = True


_NOTHING = _Plan(False)


def decide_url(url: str, agents: Sequence[str], gov: Governing | None, tokens: Sequence[str] | None = None, *,
               reader: PreferenceReader | None = None) -> list[Row]:
    """The rows for ``url`` and each of ``agents``, in order, under ``gov`` (None: the URL has no
    robots.txt, so its rows' ``robots_outcome`` is ""; else it is ``gov.outcome``). ``tokens``:
    the agents' product tokens, when the caller has them already. ``reader`` (one made for
    ``gov``): the rows end with the preference columns (:data:`PREFERENCE_FIELDS`).

    One path extraction per URL and one match per group, however many agents (RobotsTxt.verdicts).
    """
    rows: list[Any]
    robots = gov.robots if gov is not None else None
    if gov is None:
        reason = NO_URL if no_url(url) else NO_ROBOTS
        rows = [(url, agent, None, 0, "", "", 0, reason, "") for agent in agents]
    elif robots is None:
        allowed = verdict_of(gov)
        rows = [(url, agent, allowed, 0, "", gov.robots_url, gov.status, gov.reason, gov.outcome) for agent in agents]
    else:
        tokens = tokens if tokens is not None else [token_of(agent) for agent in agents]
        found = robots.verdicts(url, tokens)
        texts, where, status, reason, outcome = gov.texts, gov.robots_url, gov.status, gov.reason, gov.outcome
        rows = [(url, agent, allowed, line, texts[line], where, status, reason, outcome)
                for agent, (allowed, line) in zip(agents, found, strict=True)]
        for at in ignoring_at(tokens if isinstance(tokens, tuple) else tuple(tokens)):
            decision = robots.check(url, tokens[at])  # A8: decided without the "*" group, and the row says so
            if decision.agent == "*":
                decision = robots.check(url, tokens[at], global_group=False)
                rows[at] = (url, agents[at], decision.allowed, decision.line, texts[decision.line], where,
                            status, f"{reason}; {agents[at]} ignores the group 'user-agent: *'", outcome)
    if reader is None:
        return rows
    if robots is None:
        return [(*row, *NO_PREFERENCES) for row in rows]
    assert tokens is not None
    return [(*row, *reader.preferences(url, token, row[2])) for row, token in zip(rows, tokens, strict=True)]


@lru_cache(maxsize=1024)
def ignoring_at(tokens: tuple[str, ...]) -> tuple[int, ...]:
    """The positions of the tokens whose crawlers ignore the ``*`` group (A8), once per agent list."""
    return tuple(at for at, token in enumerate(tokens) if ignores_global(token))


def decide_row(url: str, agent: str, gov: Governing | None, *, reader: PreferenceReader | None = None) -> Row:
    """The row for ``url`` and ``agent`` under ``gov`` (None: the URL has no robots.txt), with the
    preference columns when a ``reader`` (made for ``gov``) is given."""
    return decide_url(url, (agent,), gov, reader=reader)[0]


def tokens_of(agents: Sequence[str]) -> tuple[str, ...]:
    """The product tokens of ``agents`` (memoised), for :func:`decide_url`."""
    return tuple(token_of(agent) for agent in agents)
