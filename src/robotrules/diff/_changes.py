"""What a diff answers: :class:`RobotsDiff` and its records, each with its JSON form (and, for a
verdict change, its words: :meth:`VerdictChange.why`, the one wording of the command line's diff
and edit). See :mod:`robotrules.diff` for what each change means."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from robotrules.core.decision import rule_words

__all__ = ["CrawlDelayChange", "RobotsDiff", "RuleChange", "VerdictChange"]


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

    def why(self) -> str:
        """What decides in the new file, in the words of every verdict: "by line 3 of the new
        file: 'disallow: /x'", or "no rule matches in the new file"."""
        return rule_words(self.new_line, self.new_rule, file="the new file")

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
