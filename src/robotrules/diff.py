"""Compare two versions of a robots.txt: which rules changed for which crawler, and which URLs
change verdict (G2-G5, R1-R6, N1, N2).

A site owner about to publish a new robots.txt wants to know what it changes *as Google applies
it*, not which lines of text differ: moving a rule into another group for the same crawler,
reordering lines, changing their case or spacing, or repeating a rule changes nothing a crawler
does, and :func:`diff` reports none of it. What it reports, per crawler (product token):

- **rule changes** (:class:`RuleChange`): the rules the crawler sees are those of the groups
  that name its token, merged (G4), or of the ``*`` groups when none does (G2). A rule is
  identified by its pattern (the normalised form that is matched, R3), so ``/café`` and
  ``/caf%C3%A9`` are one rule. Within what one crawler sees, a pattern's *kind* is ``allow`` when
  any of its rules is an allow (on equal patterns allow wins, R6), else ``disallow``; duplicates
  count once. A pattern the crawler sees only in the new file is ``added``, only in the old one
  ``removed``, in both with another kind ``changed``. A group naming several crawlers is
  reported once per crawler: what each crawler sees may differ (one of them may also be named by
  another group), and a per-crawler list is what a caller filters on.
- **verdict changes** (:class:`VerdictChange`): URLs that one file allows and the other
  disallows for a crawler, each with the deciding line and rule on both sides, found with
  :meth:`RobotsTxt.check <robotrules.core.robotstxt.RobotsTxt.check>` (R1-R6).
- **crawl-delay changes** (:class:`CrawlDelayChange`, N2) and **sitemaps** added or removed (N1).
  Google's crawlers ignore ``crawl-delay``, so a change of what one of them reads is listed
  apart (:attr:`RobotsDiff.ignored_crawl_delays`) and is not a change (:func:`reads_crawl_delay`
  says which crawlers may read it).

Which crawlers: by default every product token that a ``user-agent`` line of either file names,
and ``*``, the group for crawlers no group names (checked with a token that no group names,
reported as ``"*"``); or the tokens the caller passes (``"*"`` among them is that same group).
A crawler is reported by its token as the files write it ("Googlebot", not "googlebot"; the new
file's spelling first), or as the caller wrote it when no file names it.

Which URLs: for each crawler, one representative path per rule it sees in either file, built
from the pattern's literal part (the ``*`` wildcards dropped, a final ``$`` dropped, a ``/`` put
first when missing: ``/shop/*.pdf$`` gives ``/shop/.pdf``, a path the rule matches), on the
caller's ``origin`` when one is given (the site the file is for: ``https://shop.example`` gives
``https://shop.example/shop/.pdf``) and as a bare path otherwise, plus the URLs the caller
passes. A crawler whose rules are the same in both files (the same patterns with the same kinds)
gets the same verdict for every URL, so its URLs are not checked at all: the cost follows the
size of the change, not of the files.

Never raises for any content: both bodies are parsed as :func:`robotrules.parse` parses them.
This module is not part of the compiled core (it may import anything of ``robotrules.core``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from robotrules._budget import Budget, CheckCost
from robotrules.core.agents import product_token
from robotrules.core.model import Group
from robotrules.core.modes import get_mode
from robotrules.core.robotstxt import Decision, RobotsTxt, parse
from robotrules.core.rules import Rule
from robotrules.crawlers import by_token

__all__ = ["CrawlDelayChange", "RobotsDiff", "RuleChange", "VerdictChange", "compare", "diff", "reads_crawl_delay",
           "representative_url"]

_GLOBAL = "*"


@dataclass(frozen=True, slots=True)
class RuleChange:
    """A rule one crawler sees in one file and not, or not with the same kind, in the other.

    ``change``: ``"added"`` (only in the new file), ``"removed"`` (only in the old one) or
    ``"changed"`` (the same pattern switched between allow and disallow; ``kind`` is then the new
    kind, the old one being the other). ``agent``: the product token as the files write it
    (compared case-insensitively, G3), or ``"*"`` for crawlers no group names. ``kind``: ``"allow"`` or ``"disallow"``.
    ``value``: the path as written (in the new file, except for a removal). ``old_line`` and
    ``new_line``: the 1-based line of the rule in each file (the first line when it is repeated),
    0 on the side where it is absent.
    """

    change: str
    agent: str
    kind: str
    value: str
    old_line: int
    new_line: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "change": self.change,
            "agent": self.agent,
            "kind": self.kind,
            "value": self.value,
            "old_line": self.old_line,
            "new_line": self.new_line,
        }


@dataclass(frozen=True, slots=True)
class VerdictChange:
    """A URL that one file allows and the other disallows for a crawler (R1-R6).

    ``old_line``/``new_line``: the deciding line in each file (0 when no rule matched: allowed);
    ``old_rule``/``new_rule``: that rule as ``"disallow: /path"`` ("" when no rule matched).
    """

    url: str
    agent: str
    old_allowed: bool
    new_allowed: bool
    old_line: int
    new_line: int
    old_rule: str
    new_rule: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {
            "url": self.url,
            "agent": self.agent,
            "old_allowed": self.old_allowed,
            "new_allowed": self.new_allowed,
            "old_line": self.old_line,
            "new_line": self.new_line,
            "old_rule": self.old_rule,
            "new_rule": self.new_rule,
        }


@dataclass(frozen=True, slots=True)
class CrawlDelayChange:
    """N2: the crawl delay (seconds; None for none) of a crawler's groups in each file, when they differ."""

    agent: str
    old: float | None
    new: float | None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        return {"agent": self.agent, "old": self.old, "new": self.new}


@dataclass(frozen=True, slots=True)
class RobotsDiff:
    """What changes from one robots.txt to another, as Google applies them (see the module).

    ``agents``: the crawlers compared (``"*"`` first when compared); ``rules`` and ``verdicts``
    grouped by crawler in that order (rules sorted by pattern, verdicts in URL order: the
    caller's URLs first, then the representative ones); ``crawl_delays``: the crawl-delay
    changes of crawlers that may read it (:func:`reads_crawl_delay`), ``ignored_crawl_delays``
    those of Google's crawlers, which ignore it (not a change); ``sitemaps_added``/
    ``sitemaps_removed`` in file order; ``rules_omitted``/``verdicts_omitted``: the changes found
    but not listed, past the caller's ``most`` (0 when everything is listed).
    """

    agents: list[str]
    rules: list[RuleChange]
    verdicts: list[VerdictChange]
    crawl_delays: list[CrawlDelayChange]
    sitemaps_added: list[str]
    sitemaps_removed: list[str]
    ignored_crawl_delays: list[CrawlDelayChange] = field(default_factory=list)
    rules_omitted: int = 0
    verdicts_omitted: int = 0

    @property
    def changed(self) -> bool:
        """Whether anything a crawler reads differs: a rule, a verdict, a crawl delay a crawler
        may read, or a sitemap (a crawl delay only Google's crawlers see is no change)."""
        return bool(self.rules or self.verdicts or self.rules_omitted or self.verdicts_omitted or self.crawl_delays
                    or self.sitemaps_added or self.sitemaps_removed)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data (for the command line's ``--json`` and the HTTP service)."""
        return {
            "changed": self.changed,
            "agents": list(self.agents),
            "rules": [change.to_dict() for change in self.rules],
            "verdicts": [change.to_dict() for change in self.verdicts],
            "crawl_delays": [change.to_dict() for change in self.crawl_delays],
            "ignored_crawl_delays": [change.to_dict() for change in self.ignored_crawl_delays],
            "sitemaps_added": list(self.sitemaps_added),
            "sitemaps_removed": list(self.sitemaps_removed),
            "rules_omitted": self.rules_omitted,
            "verdicts_omitted": self.verdicts_omitted,
        }


def reads_crawl_delay(agent: str) -> bool:
    """Whether the crawler ``agent`` (a product token, or ``"*"``) may read ``crawl-delay`` (N2).

    Google's crawlers ignore it (Google's documentation of robots.txt): the crawlers the registry
    (:mod:`robotrules.crawlers`) lists with the operator Google, and any token that starts with
    "google" or ends with "-google" ("Googlebot-Image", "AdsBot-Google"). The registry does not
    record which other operators honour it, so every other crawler may read it, and so may the
    crawlers of the ``*`` group.
    """
    if agent == _GLOBAL:
        return True
    lowered = agent.lower()
    if lowered.startswith("google") or lowered.endswith("-google"):
        return False
    known = by_token(agent)
    return known is None or known.operator != "Google"


def representative_url(pattern: str, *, wildcards: bool = True, origin: str = "") -> str | None:
    """A URL that ``pattern`` matches, from its literal part: a path, or on ``origin``; None for "".

    With ``wildcards`` (R4: ``*`` and a final ``$`` are operators) every ``*`` is dropped (it may
    match nothing) and a final ``$`` too; a ``/`` is put first when the pattern lacks it (such a
    pattern never matches, R2, but its URL still shows what it was meant for). ``origin``
    (``"https://shop.example"``, a final ``/`` ignored) is put before the path; without one the
    result is the path (a robots.txt says nothing of its host).
    """
    path = pattern
    if wildcards:
        path = path.replace("*", "")
        if path.endswith("$"):
            path = path[:-1]
    if not path and not pattern:
        return None
    if not path.startswith("/"):
        path = "/" + path
    return origin.rstrip("/") + path


# What one crawler sees in one file: pattern -> (allow, first line of that kind, value as written).
_View = dict[str, tuple[bool, int, str]]


class _Side:
    """One parsed file and what each selection of groups sees, computed once."""

    __slots__ = ("_costs", "_rules", "_views", "robots", "selection_cost")

    def __init__(self, robots: RobotsTxt) -> None:
        self.robots = robots
        self._rules: dict[int, tuple[Rule, ...]] = {}  # group line -> its rules
        self._views: dict[tuple[int, ...], _View] = {}
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

    def view(self, groups: tuple[Group, ...], work: Budget) -> _View:
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


def _kind(allow: bool) -> str:
    return "allow" if allow else "disallow"


def _written(work: Budget, *sides: _Side) -> dict[str, str]:
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


def _rule_text(decision: Decision) -> str:
    rule = decision.rule
    return "" if rule is None else f"{rule.kind}: {rule.value}"


def _unnamed_token(work: Budget, *sides: _Side) -> str:
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
                side.robots.check("/", candidate).agent in (_GLOBAL, None) for side in sides):
            break
        candidate += "-x"
    return candidate


def _agents(agents: Sequence[str], before: _Side, after: _Side, work: Budget) -> list[tuple[str, str]]:
    """The crawlers to compare, each as (token to check, name to report): the caller's tokens
    (deduplicated), or ``*`` and every token named; named as the files write them."""
    written = _written(work, after, before)
    if isinstance(agents, str):
        agents = (agents,)
    if not agents:
        named = {token for side in (before, after) for group in side.robots.groups for token in group.tokens}
        return [(_GLOBAL, _GLOBAL), *((token, written.get(token, token)) for token in sorted(named - {_GLOBAL, ""}))]
    chosen: dict[str, tuple[str, str]] = {}
    work.spend(len(agents), "reading the crawlers asked for")
    for agent in agents:
        if not isinstance(agent, str):
            raise TypeError(f"agents must be str, not {type(agent).__name__}")
        if agent:
            key = agent.lower() if agent.isascii() else agent
            chosen.setdefault(key, (agent, written.get(key, agent)))
    return list(chosen.values())


def _rule_changes(agent: str, old: _View, new: _View, room: int, work: Budget) -> tuple[list[RuleChange], int]:
    """The rule changes from ``old`` to ``new`` in pattern order: the first ``room`` listed, all counted."""
    work.spend(len(old) + len(new), "comparing the rules")
    found: list[RuleChange] = []
    count = 0
    for pattern in sorted(old.keys() | new.keys()):
        before, after = old.get(pattern), new.get(pattern)
        if before is None:
            if after is None:
                continue
            change = ("added", _kind(after[0]), after[2], 0, after[1])
        elif after is None:
            change = ("removed", _kind(before[0]), before[2], before[1], 0)
        elif before[0] != after[0]:
            change = ("changed", _kind(after[0]), after[2], before[1], after[1])
        else:
            continue
        count += 1
        if len(found) < room:
            found.append(RuleChange(change[0], agent, change[1], change[2], change[3], change[4]))
    return found, count


def _matched_by_changes(urls: list[str], old: _View, new: _View, mode: str, work: Budget) -> list[str]:
    """The URLs that a pattern differing between the two views matches (the others cannot flip).

    R6: a URL's verdict is the kind of the best of the patterns matching it; when the patterns
    that match it, and their kinds, are the same in both views, so is its verdict. The changed
    patterns are matched by parsing them as one small group (allow where either side allows, so
    that Google's implied "/dir/$" of an "index.html" allow is there too); if that group does not
    read back exactly those patterns (a line cut, a limit), every URL is kept.
    """
    changed: dict[str, bool] = {}
    for pattern in old.keys() | new.keys():
        before, after = old.get(pattern), new.get(pattern)
        if pattern and (before is None or after is None or before[0] != after[0]):
            changed[pattern] = bool(before and before[0]) or bool(after and after[0])
    if not changed:
        return []  # only empty patterns changed: they match nothing that decides (R1)
    cost = CheckCost.of(changed, get_mode(mode).wildcards)
    work.reserve(cost.of_urls(urls), "checking every rule's URL against the changed rules")
    work.spend(len(changed), "matching the changed rules")
    body = "user-agent: *\n" + "".join(f"{_kind(allow)}: {pattern}\n" for pattern, allow in changed.items())
    probe = parse(body, mode=mode)
    if {rule.pattern for group in probe.groups for rule in group.rules} != changed.keys():
        return urls
    matched = []
    for url in urls:
        work.spend(cost.of_url(url), "checking every rule's URL against the changed rules")
        if probe.check(url, "*").rule is not None:
            matched.append(url)
    return matched


class _Found(NamedTuple):
    """What one choice of groups changes: the changes listed (the first ones, as many as there
    was room for when it was compared) and how many there are."""

    rules: list[RuleChange]
    rule_count: int
    verdicts: list[VerdictChange]
    verdict_count: int


class _Listing:
    """The rule and verdict changes of a diff, at most ``most`` of each listed (None: all); the
    rest only counted, so that a hostile pair of files cannot make an answer of gigabytes."""

    __slots__ = ("most", "rules", "rules_omitted", "verdicts", "verdicts_omitted")

    def __init__(self, most: int | None) -> None:
        if most is not None and most < 1:
            raise ValueError("most is a whole number >= 1, or None to list everything")
        self.most = most
        self.rules: list[RuleChange] = []
        self.verdicts: list[VerdictChange] = []
        self.rules_omitted = 0
        self.verdicts_omitted = 0

    def room(self, listed: list[Any], found: int | None) -> int:
        """How many of ``found`` more changes (None: any number) ``listed`` may hold; it only shrinks."""
        if self.most is None:
            return sys.maxsize if found is None else found
        left = max(0, self.most - len(listed))
        return left if found is None else min(found, left)

    def add(self, label: str, found: _Found, work: Budget) -> None:
        """List the changes one crawler sees (found for another crawler: relabelled), as room
        allows; count the rest. ``found`` lists at least as many as there is room for now."""
        rules_room = self.room(self.rules, len(found.rules))
        verdicts_room = self.room(self.verdicts, len(found.verdicts))
        work.spend(1 + rules_room + verdicts_room, "listing the changes")
        self.rules.extend(
            c if c.agent == label else RuleChange(c.change, label, c.kind, c.value, c.old_line, c.new_line)
            for c in found.rules[:rules_room])
        self.rules_omitted += found.rule_count - rules_room
        self.verdicts.extend(
            v if v.agent == label else
            VerdictChange(v.url, label, v.old_allowed, v.new_allowed, v.old_line, v.new_line, v.old_rule, v.new_rule)
            for v in found.verdicts[:verdicts_room])
        self.verdicts_omitted += found.verdict_count - verdicts_room


def diff(
    old: bytes | str,
    new: bytes | str,
    *,
    agents: Sequence[str] = (),
    urls: Sequence[str] = (),
    mode: str = "google",
    origin: str = "",
    checkpoint: Callable[[], None] | None = None,
    budget: int | None = None,
    most: int | None = None,
) -> RobotsDiff:
    """What changes from robots.txt ``old`` to ``new`` for each crawler (see the module for the definitions).

    ``agents``: product tokens to compare ("Googlebot", "*"; a caller with a full User-Agent
    header extracts the token first, ``robotrules.user_agent_token``); by default ``*`` and every
    token either file names. ``urls``: absolute URLs or paths starting with "/" to check besides
    the representative URL of each rule. ``mode``: as for :func:`robotrules.parse`. ``origin``:
    the site the files are for (``"https://shop.example"``), on which the representative URLs
    are built; without it they are paths. Never raises
    for any content; ``ValueError`` for an unknown mode, ``TypeError`` for an agent or URL that
    is not a ``str``. ``checkpoint``: called every few thousand steps of work (a service passes
    ``anyio.from_thread.check_cancelled``, so that a diff whose request was given up stops);
    whatever it raises ends the diff. ``budget``: at most this many steps of work
    (:mod:`robotrules._budget`), else :class:`~robotrules.errors.TooMuchWork`; None: no limit.
    ``most``: at most this many rule changes and this many verdict changes listed, the rest
    counted (:attr:`RobotsDiff.rules_omitted`, :attr:`RobotsDiff.verdicts_omitted`); None: all.
    """
    return compare(old, new, Budget(budget, checkpoint), agents=agents, urls=urls, mode=mode, origin=origin,
                   most=most)


def compare(old: bytes | str, new: bytes | str, work: Budget, *, agents: Sequence[str] = (),
            urls: Sequence[str] = (), mode: str = "google", origin: str = "", most: int | None = None) -> RobotsDiff:
    """:func:`diff` counting its work in ``work``: an edit proves and diffs within one budget."""
    wildcards = get_mode(mode).wildcards
    given = list(dict.fromkeys([urls] if isinstance(urls, str) else urls))
    for url in given:
        if not isinstance(url, str):
            raise TypeError(f"urls must be str, not {type(url).__name__}")
    work.spend(len(given), "reading the URLs asked for")
    before, after = _Side(parse(old, mode=mode)), _Side(parse(new, mode=mode))
    unnamed = _unnamed_token(work, before, after)
    compared = _agents(agents, before, after, work)

    # Each crawler's groups in both files, first; crawlers that choose the same groups see the
    # same rules and are compared once. The rules of every distinct choice are counted before any
    # is compared, so that many crawlers times many rules is refused before the work, not after.
    choose, chosen = before.selection_cost + after.selection_cost, []
    choices: dict[_Key, tuple[tuple[Group, ...], tuple[Group, ...]]] = {}
    for agent, label in compared:
        work.spend(choose, f"choosing the groups of {len(compared):,} crawlers")
        token = unnamed if agent == _GLOBAL else agent
        old_groups, new_groups = before.groups(token), after.groups(token)
        key = (tuple(g.line for g in old_groups), tuple(g.line for g in new_groups))
        choices.setdefault(key, (old_groups, new_groups))
        chosen.append((label, token, key))
    work.reserve(sum(2 * (before.rule_count(old_groups) + after.rule_count(new_groups)) for old_groups, new_groups
                     in choices.values()), f"comparing the rules of {len(compared):,} crawlers")

    listing = _Listing(most)
    delays: list[CrawlDelayChange] = []
    ignored: list[CrawlDelayChange] = []
    done: dict[_Key, _Found] = {}
    for label, token, key in chosen:
        found = done.get(key)
        if found is None:
            found = done[key] = _changes(label, token, before, after, *choices[key], given, wildcards, origin, mode,
                                         listing, work)
        listing.add(label, found, work)
        old_delay, new_delay = before.robots.crawl_delay(token), after.robots.crawl_delay(token)
        if old_delay != new_delay:
            (delays if reads_crawl_delay(label) else ignored).append(CrawlDelayChange(label, old_delay, new_delay))

    old_maps, new_maps = dict.fromkeys(before.robots.sitemaps), dict.fromkeys(after.robots.sitemaps)
    return RobotsDiff(
        agents=[label for _, label in compared],
        rules=listing.rules,
        verdicts=listing.verdicts,
        crawl_delays=delays,
        sitemaps_added=[url for url in new_maps if url not in old_maps],
        sitemaps_removed=[url for url in old_maps if url not in new_maps],
        ignored_crawl_delays=ignored,
        rules_omitted=listing.rules_omitted,
        verdicts_omitted=listing.verdicts_omitted,
    )


_Key = tuple[tuple[int, ...], tuple[int, ...]]
"""A crawler's choice of groups: their first lines in the old file and in the new one."""


def _changes(label: str, token: str, before: _Side, after: _Side, old_groups: tuple[Group, ...],
             new_groups: tuple[Group, ...], given: list[str], wildcards: bool, origin: str, mode: str,
             listing: _Listing, work: Budget) -> _Found:
    """The rule and verdict changes of one choice of groups in each file, for ``token``: all
    counted, as many listed as ``listing`` still has room for."""
    old_view, new_view = before.view(old_groups, work), after.view(new_groups, work)
    work.spend(len(old_view), "comparing the rules")
    if old_view.keys() == new_view.keys() and all(old_view[p][0] == new_view[p][0] for p in old_view):
        return _Found([], 0, [], 0)
    found_rules, rule_count = _rule_changes(label, old_view, new_view, listing.room(listing.rules, None), work)
    checked = dict.fromkeys(given)
    for pattern in sorted(old_view.keys() | new_view.keys()):
        example = representative_url(pattern, wildcards=wildcards, origin=origin)
        if example is not None:
            checked.setdefault(example)
    found_verdicts: list[VerdictChange] = []
    verdict_count, room = 0, listing.room(listing.verdicts, None)
    matched = _matched_by_changes(list(checked), old_view, new_view, mode, work)
    was_cost, now_cost = before.cost(old_groups, work), after.cost(new_groups, work)
    what = f"checking {len(matched):,} URLs in both files"
    work.reserve(was_cost.of_urls(matched) + now_cost.of_urls(matched), what)
    for url in matched:
        work.spend(was_cost.of_url(url) + now_cost.of_url(url), what)
        was, now = before.robots.check(url, token), after.robots.check(url, token)
        if was.allowed != now.allowed:
            verdict_count += 1
            if len(found_verdicts) < room:
                found_verdicts.append(VerdictChange(url, label, was.allowed, now.allowed, was.line, now.line,
                                                    _rule_text(was), _rule_text(now)))
    return _Found(found_rules, rule_count, found_verdicts, verdict_count)
