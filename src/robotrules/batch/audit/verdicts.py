"""Audit sites' robots.txt for a set of crawlers: who is blocked, partly or not at all (issue #11).

For each site (a robots.txt URL) and each agent, :func:`classify_site` says what the policy
means for that agent, as one :data:`VERDICTS` value:

- ``blocked``: the agent may fetch nothing but the robots.txt file itself. Exactly: its group(s)
  hold a disallow rule that matches every path ("/", "*", "/*"), and every allow rule with a
  non-empty pattern is beaten by one disallow rule on every path it matches (a longer disallow
  whose plain prefix covers it, R6), or names only the robots.txt file ("/robots.txt",
  "/robots.txt$"). So ``Disallow: /`` + ``Allow: /$`` (the home page) is ``partly``, and
  ``Disallow: /*`` + ``Allow: /`` (the shorter allow never wins) is ``blocked``.
- ``partly``: not blocked, and at least one disallow rule with a non-empty pattern can decide
  (it is not beaten on every path by an allow rule of the same or a covering pattern: an allow
  wins ties, R6). ``Disallow: /`` + ``Allow: /`` is therefore ``allowed``.
- ``allowed``: no rule disallows anything for the agent: an empty file, an HTML page, a group
  with only ``Allow`` lines or an empty ``Disallow:``, or no group that applies.
- ``no-robots``: the site has no robots.txt by the fetch policy (a 4xx, a redirect leading
  nowhere): everything is allowed (F4).
- ``unreachable``: a 5xx or a network failure: everything is disallowed by the failure rules (F5).
- ``unknown``: nothing is known (no capture of the robots.txt, or it could not be fetched).

A crawler the registry says ignores the ``*`` group (Google's AdsBot, A8) is classified without
it: only groups that name it apply, and its row says so in ``reason``.

Each row also says whether the site opts the crawler's fetches out of AI training, by both
signals (A1-A8): ``train_ai`` is the crawler's ``train-ai`` preference for the site root "/"
(:meth:`RobotsTxt.usage <robotrules.core.robotstxt.RobotsTxt.usage>`: its group's Content-Usage
rules and the Content-Signal ``ai-train`` in scope, A2-A4, A7; null when unknown, and when "/" may
not be crawled, A3), and for an AI training crawler (kind ``ai-training``) ``training_opt_out``
is one of :data:`~robotrules.batch.audit.purposes.OPT_OUTS` (:func:`~robotrules.batch.audit.purposes.opt_out`): ``robots.txt`` (it is blocked entirely, or partly
by a group that names it: a ``*`` group closing a few folders to every crawler says nothing about
AI training), ``train-ai=n``, ``both``, ``neither``, or ``unknown`` (the file could not be read).
:func:`~robotrules.batch.audit.purposes.by_purpose` sums the rows per site and purpose (kind), and
:func:`~robotrules.batch.audit.purposes.opt_out_counts` counts the sites of each outcome.

Precedence is Google's (longest match, allow wins ties; also RFC 9309's). "Beaten on every path"
is decided exactly for rules with a plain prefix; a wildcard rule is only beaten when a plain
prefix rule covers it, so several wildcard disallows that together cover an allow still leave
the verdict ``partly`` (never a false ``blocked``). In ``legacy1994`` mode the same reading is
an approximation (that mode matches differently).

Pure where it decides (:func:`classify`, :func:`classify_site`); :func:`audit` resolves sources
(an :class:`~robotrules.batch.captures.archive.Archive`, a live :class:`~robotrules.client.RobotsClient`,
or site URLs fetched live) and returns a pandas DataFrame (``robotrules[batch]``), classified
here, in worker processes, or on Apache Spark (``engine="spark"``, :mod:`robotrules.spark`, whose
executors run :func:`classify_jobs` and :func:`live_rows`, the local engine's own code).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from robotrules.answers import Governing, token_of
from robotrules.batch.audit.columns import Row, Verdict
from robotrules.batch.audit.purposes import opt_out
from robotrules.core.agents import caller_key
from robotrules.core.extensions import parse_content_signal, parse_content_usage
from robotrules.core.modes import get_mode
from robotrules.core.robotstxt import Decision, RobotsTxt
from robotrules.core.rules import disallows, is_allow, line_of, priority_of
from robotrules.core.usage import Usage
from robotrules.crawlers import CRAWLERS, Crawler, by_token

if TYPE_CHECKING:

    pass

__all__ = ["AgentPolicy", "Who", "classify", "classify_site", "default_agents"]


_ROBOTS_ONLY = frozenset({"/robots.txt", "/robots.txt$"})


@dataclass(frozen=True, slots=True)
class AgentPolicy:
    """What one robots.txt says to one agent: the verdict and the facts behind it (``group_rules``:
    every rule line of its group(s), as written, in file order); ``train_ai``
    its ``train-ai`` preference for "/" (A2-A4, A7; None: unknown, or "/" may not be crawled,
    A3); ``ignored_global``: the agent ignores the ``*`` group, which would have applied (A8)."""

    verdict: Verdict
    explicit: bool
    crawl_delay: float | None
    content_signals: str
    disallow_rules: tuple[str, ...]
    train_ai: bool | None = None
    ignored_global: bool = False
    group_rules: tuple[str, ...] = ()
    rules_text: str = field(init=False, default="", compare=False, repr=False)
    group_text: str = field(init=False, default="", compare=False, repr=False)

    def __post_init__(self) -> None:
        # the rows' ``rules`` and ``group_rules`` cells, joined once: every agent that reads these
        # groups shares the two strings (a wide audit repeats them for hundreds of crawlers)
        object.__setattr__(self, "rules_text", "\n".join(self.disallow_rules))
        object.__setattr__(self, "group_text", "\n".join(self.group_rules))


def default_agents(registry: Sequence[Crawler] = CRAWLERS) -> tuple[str, ...]:
    """The agents audited by default: every crawler of ``registry`` by its name (each name once,
    compared case-insensitively), then ``*`` (every other crawler). Several names may share one
    product token ("AI2Bot" is read as "AI"): each is audited, as a group naming it is read."""
    names: dict[str, str] = {}
    for crawler in registry:
        names.setdefault(crawler.name.lower(), crawler.name)
    return (*(name for name in names.values() if name != "*"), "*")


def _prefix_of(pattern: str) -> str | None:
    """The plain prefix a pattern matches every path starting with, or None for a pattern with a
    wildcard inside or a final ``$``. ``/`` counts as the empty prefix (every path starts with it)."""
    stripped = pattern.rstrip("*")
    if "*" in stripped or stripped.endswith("$"):
        return None
    return "" if stripped == "/" else stripped


def _lead(pattern: str) -> str:
    """The literal text every path a pattern matches starts with (R4: up to its first ``*``)."""
    head = pattern.split("*", 1)[0]
    return head[:-1] if head == pattern and head.endswith("$") else head


def _signals(decision: Decision, usage: Usage) -> str:
    """The Content-Signal lines in scope and the group's Content-Usage rules, as core.usage reads
    them (A1, A5, A7): ``search=yes, ai-train=no; train-ai=n; /blog/ search=y``."""
    signals: dict[str, str] = {}
    for signal in usage.signals:
        signals.update(parse_content_signal(signal.value) or {})
    parts = [", ".join(f"{key}={value}" for key, value in signals.items())]
    for group in decision.groups:
        for ext in group.extensions:
            read = parse_content_usage(ext.value) if ext.field == "content-usage" else None
            if read is not None and read.preferences:
                prefs = ", ".join(f"{key}={value}" for key, value in read.preferences.items())
                parts.append(prefs if read.path == "/" else f"{read.path} {prefs}")
    return "; ".join(part for part in parts if part)


def classify(robots: RobotsTxt, agent: str, *, ignores_global: bool = False) -> AgentPolicy:
    """The verdict of ``robots`` for ``agent`` (matched on its product token), by the definitions
    in this module's docstring, with the crawl delay, content signals, ``train-ai`` preference for
    "/" and deciding disallows. ``ignores_global``: the agent obeys only groups that name it (A8)."""
    token = token_of(agent) or agent
    decision = robots.check("/", token)
    ignored = ignores_global and decision.agent == "*"
    if ignored:
        decision = robots.check("/", token, global_group=False)
    return _policy(robots, token, decision, ignored)


def _policy(robots: RobotsTxt, token: str, decision: Decision, ignored: bool) -> AgentPolicy:
    """:func:`classify` for the groups ``decision`` selected (every fact below depends on them alone)."""
    explicit = decision.agent not in (None, "*")
    rules = [make for group in decision.groups for make in group.ruleset.ranked()]
    allows = [rule for rule in rules if is_allow(rule[0]) and priority_of(rule[0]) > 0]
    allow_winners = _winners(allows)
    live_disallows = [rule for rule in rules if disallows(rule[0]) and not _beaten(rule, allow_winners)]
    texts = robots.line_texts() if rules else []  # the file split once, not once a rule
    written = {rule: _written(texts, rule) for rule in rules}  # each rule's line read once
    lines = tuple(dict.fromkeys(written[rule] for rule in sorted(live_disallows, key=_line)))
    group = tuple(dict.fromkeys(written[rule] for rule in sorted(rules, key=_line)))
    verdict: Verdict
    if not live_disallows:
        verdict = "allowed"
    else:
        catch_all = [rule for rule in live_disallows if _prefix_of(rule[1]) == ""]
        disallow_winners = _winners(live_disallows)
        opening = [a for a in allows if a[1] not in _ROBOTS_ONLY and not _beaten(a, disallow_winners)]
        verdict = "blocked" if catch_all and not opening else "partly"
    usage = robots.usage("/", token, global_group=not ignored)
    delay = None if ignored else robots.crawl_delay(token)
    return AgentPolicy(verdict, explicit, delay, _signals(decision, usage), lines, usage.preference("train-ai"), ignored,
                       group)


def _winners(rules: Sequence[tuple[int, str]]) -> list[tuple[str, int]]:
    """The rules that can beat another on every path it matches: those with a plain prefix, as
    (prefix, rank); worked out once per group, not once per pair of rules."""
    found = []
    for rank, pattern in rules:
        prefix = _prefix_of(pattern)
        if prefix is not None:
            found.append((prefix, rank))
    return found


def _beaten(loser: tuple[int, str], winners: Sequence[tuple[str, int]]) -> bool:
    """Whether one of ``winners`` (:func:`_winners`) decides over ``loser`` on every path ``loser``
    matches (R6): its plain prefix starts every such path (``loser``'s lead, R4) and its rank is
    higher (ranks order by length, then allow over disallow)."""
    lead, rank = _lead(loser[1]), loser[0]
    return any(rank < their_rank and lead.startswith(prefix) for prefix, their_rank in winners)


def _line(rule: tuple[int, str]) -> int:
    return line_of(rule[0])


def _written(texts: list[str], rule: tuple[int, str]) -> str:
    """A rule as its line is written in ``texts`` (:meth:`RobotsTxt.line_texts`; without a
    comment), or ``disallow: <pattern>`` (``allow:`` for an allow rule) when unknown."""
    line = _line(rule)
    text = texts[line - 1].split("#", 1)[0].strip() if 0 < line <= len(texts) else ""
    return text or f"{'allow' if is_allow(rule[0]) else 'disallow'}: {rule[1]}"


def _verdict_of(gov: Governing) -> Verdict:
    if gov.kind == "allow":
        return "no-robots"
    if gov.kind == "disallow":
        return "unreachable"
    return "unknown"


_Tail = tuple[int, str, bool, "float | None", int, str, "bool | None", str, int, str, str, str, str]
"""An audit row after its agent's own cells (site, agent, operator, purpose, kind)."""

_FALLBACK = "\x00fallback"
"""The selection key of every token no group of a file names (no product token has a NUL)."""


Who = tuple[str, str, "str | None", str, str, str, bool]
"""An agent as the rows name it: (agent, token, the token as groups are looked up by (None: no
group can name it), operator, purpose, kind, ignores the ``*`` group)."""


def _who(agents: Sequence[str], registry: Sequence[Crawler]) -> list[Who]:
    """Each agent with its crawler's facts, looked up once per job (by name, else by token)."""
    found: list[Who] = []
    for agent in agents:
        token = token_of(agent) or agent
        crawler = by_token(agent, registry) or by_token(token, registry)
        operator, purpose, kind = (crawler.operator, crawler.purpose, crawler.kind) if crawler else ("", "", "")
        if agent == "*":
            purpose = purpose or "Any crawler not named in the file"
        found.append((agent, token, caller_key(token), operator, purpose, kind,
                      bool(crawler is not None and crawler.ignores_global)))
    return found


def classify_site(gov: Governing, agents: Sequence[str], registry: Sequence[Crawler] = CRAWLERS, *,
                  who: Sequence[Who] | None = None) -> list[Row]:
    """One audit row (:data:`AUDIT_COLUMNS`) per agent for the site ``gov`` stands for
    (``who``: the agents' facts from :func:`_who`, when the caller has them already).

    Agents that select the same groups share one classification (every fact of a row depends
    on the groups alone), so a wide audit costs a group selection per agent and a classification
    per distinct group.
    """
    rows: list[Row] = []
    robots = gov.robots
    sitemaps = len(robots.sitemaps) if robots is not None else 0
    site, status, reason = gov.robots_url, gov.status, gov.reason
    # G2: in the modes that select groups by exact token, a token no group names gets the
    # fallback group(s), like every other such token: one selection serves them all.
    named = None if robots is None or get_mode(robots.mode).substring_agent_match else \
        frozenset(token for group in robots.groups for token in group.tokens)
    selected: dict[tuple[str | None, bool], AgentPolicy] = {}  # by (caller key, ignores "*")
    known: dict[tuple[object, ...], AgentPolicy] = {}  # by the groups selected
    tails: dict[tuple[int, str], _Tail] = {}  # by (policy, kind): the rest of a row, made once
    for agent, token, caller, operator, purpose, kind, ignores in who if who is not None else _who(agents, registry):
        if robots is None:
            verdict = _verdict_of(gov)
            rows.append((site, agent, operator, purpose, kind, status, verdict, False, None, 0, "", None,
                         opt_out(kind, verdict, False, None), 0, "", "", reason, gov.outcome))
            continue
        selection = _FALLBACK if named is not None and caller not in named else caller
        found = selected.get((selection, ignores)) if named is not None else None
        if found is None:
            decision = robots.check("/", token)
            ignored = ignores and decision.agent == "*"
            if ignored:
                decision = robots.check("/", token, global_group=False)
            key = (decision.agent not in (None, "*"), ignored, *(group.line for group in decision.groups))
            found = known.get(key)
            if found is None:
                found = known[key] = _policy(robots, token, decision, ignored)
            selected[selection, ignores] = found
        if found.ignored_global:  # the reason names the agent: a row of its own
            why = f"{reason}; {agent} ignores the group 'user-agent: *'"
            rows.append((site, agent, operator, purpose, kind, status, found.verdict, found.explicit,
                         found.crawl_delay, sitemaps, found.content_signals, found.train_ai,
                         opt_out(kind, found.verdict, found.explicit, found.train_ai), len(found.disallow_rules),
                         found.rules_text, found.group_text, why, gov.outcome))
            continue
        tail = tails.get((id(found), kind))  # what agents of one kind reading these groups share
        if tail is None:
            tail = tails[id(found), kind] = (
                status, found.verdict, found.explicit, found.crawl_delay, sitemaps, found.content_signals,
                found.train_ai, opt_out(kind, found.verdict, found.explicit, found.train_ai),
                len(found.disallow_rules), found.rules_text, found.group_text, reason, gov.outcome)
        rows.append((site, agent, operator, purpose, kind, *tail))
    return rows
