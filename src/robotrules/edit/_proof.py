"""The proof of an edit: every blocked crawler disallowed and every allowed one allowed on ``/``
and on a path of every rule of either file, and every other crawler reading exactly what it read
before (rules and crawl delay), within the edit's budget; else :class:`EditRefused`."""

from __future__ import annotations

from collections.abc import Sequence

from robotrules._budget import Budget
from robotrules.core.modes import get_mode
from robotrules.core.robotstxt import RobotsTxt
from robotrules.crawlers import Crawler
from robotrules.diff import compare, representative_url
from robotrules.edit._asked import NAMES
from robotrules.edit._result import EditRefused

__all__ = ["already", "ignores_global_in", "paths_of", "prove"]


def paths_of(*files: RobotsTxt) -> list[str]:
    """``/`` and one path per rule pattern of the files: the diff's representative path of each
    (wildcards dropped: a path the rule matches, :func:`robotrules.diff.representative_url`)."""
    found: dict[str, None] = {"/": None}
    for robots in files:
        wildcards = get_mode(robots.mode).wildcards
        for group in robots.groups:
            for rule in group.rules:
                path = representative_url(rule.pattern, wildcards=wildcards)
                if path is not None:
                    found.setdefault(path)
    return list(found)


def ignores_global_in(token: str, registry: Sequence[Crawler]) -> bool:
    """A8: whether the crawler of ``token`` obeys only the groups naming it (Google's AdsBot)."""
    return any(c.ignores_global and c.token.lower() == token.lower() for c in registry)


def already(robots: RobotsTxt, token: str, block: bool, registry: Sequence[Crawler]) -> bool:
    """Whether ``token`` already follows rules that block (disallow ``/``, allow nothing) or allow everything."""
    selected = robots.check("/", token, global_group=not ignores_global_in(token, registry)).groups
    rules = [rule for group in selected for rule in group.rules if rule.pattern]
    if block:
        return any(not r.allow and r.pattern == "/" for r in rules) and not any(r.allow for r in rules)
    return not any(not r.allow for r in rules)


def prove(old: bytes, new: bytes, before: RobotsTxt, after: RobotsTxt, blocked: list[str], allowed: list[str],
           mode: str, registry: Sequence[Crawler], work: Budget) -> None:
    """Refuse an edit unless the blocked are disallowed and the allowed allowed on every path of
    either file, and every other crawler reads what it read before (rules and crawl delay).

    Crawlers that choose the same groups of the new file get the same verdicts: each such choice
    is proved once, so the cost follows the groups, not the number of names.
    """
    paths = [p for p in paths_of(before, after) if p != "/robots.txt"]
    proved: dict[tuple[tuple[int, ...], bool], str | None] = {}  # (groups, allowed?) -> a wrong path

    def wrong_path(token: str, want: bool, global_group: bool) -> str | None:
        groups = after.check("/", token, global_group=global_group).groups
        key = (tuple(g.line for g in groups), want)
        if key not in proved:
            cost = 1 + sum(len(g.rules) for g in groups)
            work.reserve(cost * len(paths), f"proving the edit on {len(paths):,} paths")
            found = None
            for path in paths:
                work.spend(cost, f"proving the edit on {len(paths):,} paths")
                if after.check(path, token, global_group=global_group).allowed != want:
                    found = path
                    break
            proved[key] = found
        return proved[key]

    for token in blocked:
        wrong = wrong_path(token, False, not ignores_global_in(token, registry))
        if wrong is not None:
            raise EditRefused(f"could not block {token} safely: it would still be allowed to fetch {wrong}")
    for token in allowed:
        wrong = wrong_path(token, True, True)
        if wrong is not None:
            raise EditRefused(f"could not allow {token} safely: it would still be disallowed from {wrong}")
    named = {t.lower() for t in (*blocked, *allowed)}
    others = {"*"}
    others.update(t for robots in (before, after) for g in robots.groups for t in g.tokens)
    others.update(c.token.lower() for c in registry)
    others -= named | {""}
    found = compare(old, new, work, agents=sorted(others), urls=paths, mode=mode, most=NAMES)
    delays = (*found.crawl_delays, *found.ignored_crawl_delays)  # what every crawler reads, Google's included
    if found.rules or found.verdicts or found.rules_omitted or found.verdicts_omitted or delays:
        who = sorted({*(c.agent for c in found.rules), *(v.agent for v in found.verdicts),
                      *(d.agent for d in delays)})
        more = " and others" if found.rules_omitted or found.verdicts_omitted else ""
        raise EditRefused(f"this edit would change what other crawlers read ({', '.join(who)}{more}); "
                          "nothing was changed: edit this file by hand")
