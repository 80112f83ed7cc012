"""The comparison of a diff: for each choice of groups, the rule changes, the URLs whose verdict
may flip (only those a changed rule matches are checked) and their verdicts in both files, with
every step counted against one budget and a bounded listing (see :mod:`robotrules.diff`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from robotrules._budget import Budget, CheckCost
from robotrules.core.model import Group
from robotrules.core.modes import get_mode
from robotrules.core.robotstxt import parse
from robotrules.diff._changes import CrawlDelayChange, RobotsDiff, RuleChange, VerdictChange
from robotrules.diff._crawlers import (
    GLOBAL,
    Side,
    View,
    agents_compared,
    kind_of,
    reads_crawl_delay,
    rule_of,
    unnamed_token,
)

__all__ = ["compare", "diff", "representative_url"]


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


def _rule_changes(agent: str, old: View, new: View, room: int, work: Budget) -> tuple[list[RuleChange], int]:
    """The rule changes from ``old`` to ``new`` in pattern order: the first ``room`` listed, all counted."""
    work.spend(len(old) + len(new), "comparing the rules")
    found: list[RuleChange] = []
    count = 0
    for pattern in sorted(old.keys() | new.keys()):
        before, after = old.get(pattern), new.get(pattern)
        if before is None:
            if after is None:
                continue
            change = ("added", kind_of(after[0]), after[2], 0, after[1])
        elif after is None:
            change = ("removed", kind_of(before[0]), before[2], before[1], 0)
        elif before[0] != after[0]:
            change = ("changed", kind_of(after[0]), after[2], before[1], after[1])
        else:
            continue
        count += 1
        if len(found) < room:
            found.append(RuleChange(change[0], agent, change[1], change[2], change[3], change[4]))
    return found, count


def _matched_by_changes(urls: list[str], old: View, new: View, mode: str, work: Budget) -> list[str]:
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
    body = "user-agent: *\n" + "".join(f"{kind_of(allow)}: {pattern}\n" for pattern, allow in changed.items())
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
    before, after = Side(parse(old, mode=mode)), Side(parse(new, mode=mode))
    unnamed = unnamed_token(work, before, after)
    compared = agents_compared(agents, before, after, work)

    # Each crawler's groups in both files, first; crawlers that choose the same groups see the
    # same rules and are compared once. The rules of every distinct choice are counted before any
    # is compared, so that many crawlers times many rules is refused before the work, not after.
    choose, chosen = before.selection_cost + after.selection_cost, []
    choices: dict[_Key, tuple[tuple[Group, ...], tuple[Group, ...]]] = {}
    for agent, label in compared:
        work.spend(choose, f"choosing the groups of {len(compared):,} crawlers")
        token = unnamed if agent == GLOBAL else agent
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


def _changes(label: str, token: str, before: Side, after: Side, old_groups: tuple[Group, ...],
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
                                                    rule_of(was), rule_of(now)))
    return _Found(found_rules, rule_count, found_verdicts, verdict_count)
