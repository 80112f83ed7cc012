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
This package is not part of the compiled core (it may import anything of ``robotrules.core``).
Its parts, behind this face::

    _changes    the answer: RobotsDiff and its RuleChange, VerdictChange, CrawlDelayChange records
    _crawlers   which crawlers are compared, what each sees in each file, who reads crawl-delay
    _finding    the comparison: rule changes, the URLs that may flip, the bounded listing
"""

from __future__ import annotations

from robotrules.diff._changes import CrawlDelayChange, RobotsDiff, RuleChange, VerdictChange
from robotrules.diff._crawlers import reads_crawl_delay
from robotrules.diff._finding import compare, diff, representative_url

__all__ = ["CrawlDelayChange", "RobotsDiff", "RuleChange", "VerdictChange", "compare", "diff", "reads_crawl_delay",
           "representative_url"]
