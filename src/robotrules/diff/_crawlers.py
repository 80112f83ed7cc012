"""Which crawlers a diff compares and what each sees in each file (G2-G4, N2): the crawlers named
as the files write them, a token for the ``*`` group, one parsed file's views of its rules per
choice of groups (computed once), and who may read ``crawl-delay``."""

from __future__ import annotations

from collections.abc import Sequence

from robotrules._budget import Budget, CheckCost
from robotrules.core.agents import product_token
from robotrules.core.decision import rule_text
from robotrules.core.model import Group
from robotrules.core.modes import get_mode
from robotrules.core.robotstxt import Decision, RobotsTxt
from robotrules.core.rules import Rule
from robotrules.crawlers import by_token

__all__ = ["GLOBAL", "Side", "View", "agents_compared", "kind_of", "reads_crawl_delay", "rule_of", "unnamed_token"]

GLOBAL = "*"
"""How the ``*`` group (crawlers no group names) is reported."""


def reads_crawl_delay(agent: str) -> bool:
    """Whether the crawler ``agent`` (a product token, or ``"*"``) may read ``crawl-delay`` (N2).

    Google's crawlers ignore it (Google's documentation of robots.txt): the crawlers the registry
    (:mod:`robotrules.crawlers`) lists with the operator Google, and any token that starts with
    "google" or ends with "-google" ("Googlebot-Image", "AdsBot-Google"). The registry does not
    record which other operators honour it, so every other crawler may read it, and so may the
    crawlers of the ``*`` group.
    """
    if agent == GLOBAL:
        return True
    lowered = agent.lower()
    if lowered.startswith("google") or lowered.endswith("-google"):
        return False
    known = by_token(agent)
    return known is None or known.operator != "Google"


# What one crawler sees in one file: pattern -> (allow, first line of that kind, value as written).
View = dict[str, tuple[bool, int, str]]


class Side:
    """One parsed file and what each selection of groups sees, computed once."""

    __slots__ = ("_costs", "_rules", "_views", "robots", "selection_cost")

    def __init__(self, robots: RobotsTxt) -> None:
        self.robots = robots
        self._rules: dict[int, tuple[Rule, ...]] = {}  # group line -> its rules
        self._views: dict[tuple[int, ...], View] = {}
        self._costs: dict[tuple[int, ...], CheckCost] = {}
        # Steps to choose one crawler's groups: a lookup by token (G3), or, where names match as
        # substrings (L2), a look at every value of every group.
        self.selection_cost = CheckCost.CHECK + (sum(len(group.agents) for group in robots.groups)
                                             if get_mode(robots.mode).substring_agent_match else 0)

    def groups(self, token: str) -> tuple[Group, ...]:
        """G2-G4: the groups whose rules apply to ``token`` (the ``*`` groups when none names it)."""
        return self.robots.check("/", token).groups

    def rules(self, group: Group) -> tuple[Rule, ...]:
        """The rules of ``group`` (the model makes them anew at each read), made once."""
        found = self._rules.get(group.line)
        if found is None:
            found = self._rules[group.line] = group.rules
        return found

    def rule_count(self, groups: tuple[Group, ...]) -> int:
        """How many rules ``groups`` hold."""
        return sum(len(self.rules(group)) for group in groups)

    def view(self, groups: tuple[Group, ...], work: Budget) -> View:
        """The rules ``groups`` give one crawler, by pattern (G4: merged; R6: allow wins a tie)."""
        key = tuple(group.line for group in groups)
        view = self._views.get(key)
        if view is None:
            work.spend(1 + self.rule_count(groups), "reading the rules")
            rules: list[Rule] = []
            for group in groups:
                rules.extend(self.rules(group))
            rules.sort(key=lambda rule: rule.line)
            view = {}
            for rule in rules:
                kept = view.get(rule.pattern)
                if kept is None or (rule.allow and not kept[0]):
                    view[rule.pattern] = (rule.allow, rule.line, rule.value)
            self._views[key] = view
        return view

    def cost(self, groups: tuple[Group, ...], work: Budget) -> CheckCost:
        """What a check against ``groups`` may look at (:class:`CheckCost`), computed once per choice of groups."""
        key = tuple(group.line for group in groups)
        cost = self._costs.get(key)
        if cost is None:
            cost = self._costs[key] = CheckCost.of(self.view(groups, work).keys(), get_mode(self.robots.mode).wildcards)
        return cost


def kind_of(allow: bool) -> str:
    return "allow" if allow else "disallow"


def _written(work: Budget, *sides: Side) -> dict[str, str]:
    """Each token the files name (lower-case, G3) -> its spelling in the files, the new file's first.

    A token is the start of the user-agent value it comes from ("Bingbot/2.0" gives "Bingbot"),
    so the value's first characters are the token as written. One step per value: linear in the
    files, however many values one group holds.
    """
    found: dict[str, str] = {}
    for side in sides:
        for group in side.robots.groups:
            work.spend(len(group.agents) + 1, "reading the user-agent lines")
            for value in group.agents:
                token = product_token(value)
                if token and token not in found:  # the tokens of a group are its values' (G3)
                    found[token] = value[:len(token)]
    return found


def rule_of(decision: Decision) -> str:
    """The deciding rule as it is read ("disallow: /x"), "" when no rule matched."""
    rule = decision.rule
    return "" if rule is None else rule_text(rule.kind, rule.value)


def unnamed_token(work: Budget, *sides: Side) -> str:
    """A caller token that no group of either file names, to ask for the ``*`` group (G2).

    A valid product token (letters and ``-``, G3: so that the core reads it as given, without a
    warning) that no group names: ``-x`` is added while one does; in ``legacy1994`` (L2:
    substring matching) each candidate is checked, a few times at most.
    """
    named = {token for side in sides for group in side.robots.groups for token in group.tokens}
    candidate = "robotrules-unnamed-crawler"
    for _ in range(8):
        work.spend(sum(side.selection_cost for side in sides), "choosing the groups of crawlers no group names")
        if candidate not in named and all(
                side.robots.check("/", candidate).agent in (GLOBAL, None) for side in sides):
            break
        candidate += "-x"
    return candidate


def agents_compared(agents: Sequence[str], before: Side, after: Side, work: Budget) -> list[tuple[str, str]]:
    """The crawlers to compare, each as (token to check, name to report): the caller's tokens
    (deduplicated), or ``*`` and every token named; named as the files write them."""
    written = _written(work, after, before)
    if isinstance(agents, str):
        agents = (agents,)
    if not agents:
        named = {token for side in (before, after) for group in side.robots.groups for token in group.tokens}
        return [(GLOBAL, GLOBAL), *((token, written.get(token, token)) for token in sorted(named - {GLOBAL, ""}))]
    chosen: dict[str, tuple[str, str]] = {}
    work.spend(len(agents), "reading the crawlers asked for")
    for agent in agents:
        if not isinstance(agent, str):
            raise TypeError(f"agents must be str, not {type(agent).__name__}")
        if agent:
            key = agent.lower() if agent.isascii() else agent
            chosen.setdefault(key, (agent, written.get(key, agent)))
    return list(chosen.values())
