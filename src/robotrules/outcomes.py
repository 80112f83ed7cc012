"""What a robots.txt fetch got, in the classes Common Crawl uses for its robots.txt captures.

Beside the fetch policy's verdict (F1-F9), research over crawl archives counts sites by what the
crawler got: Common Crawl's own statistics class each robots.txt fetch as one of
:data:`OUTCOMES`. The classes differ from the policy's reading on purpose: a 403 is
``forbidden`` here while Google reads it as "no robots.txt", a full allow (F4), and an HTML
error page served with a 200 is ``not_robots_txt`` while the policy parses it like any body
(F2: its lines are no rules, so everything is allowed). :func:`outcome_of` reads the class off
the policy's :class:`~robotrules.core.policy.Entry` for the latest attempt, the one current at the
decision time (C1; a good copy kept from an earlier attempt, C2, does not change the class of
the attempt that failed).
"""

from __future__ import annotations

from robotrules.core.policy import Entry
from robotrules.core.robotstxt import RobotsTxt, parse

__all__ = ["NOT_ARCHIVED", "OUTCOMES", "not_robots_txt", "outcome_of"]

OUTCOMES: tuple[str, ...] = ("no_capture", "forbidden", "defer", "allow_all", "redirect_unresolved", "not_robots_txt",
                             "no_rules", "with_rules")
"""The classes: ``no_capture`` (nothing fetched or archived), ``forbidden`` (401, 403),
``defer`` (429, 5xx, no response at all, any other status: a crawler tries again later),
``allow_all`` (404, 410 and the other 4xx), ``redirect_unresolved`` (a redirect that led
nowhere: its target not archived, a loop, past the hop limit, no usable ``Location``),
``not_robots_txt`` (a 2xx body that is no robots.txt: markup such as an HTML page, or text in
which a robots.txt parser recognises no line), ``no_rules`` (a robots.txt without an allow or
disallow line) and ``with_rules``."""

NOT_ARCHIVED = "not in the archive"
"""The detail of the failure that stands for a request an archive holds no answer to: an
archive answers such a request with ``Failure("other", NOT_ARCHIVED)``, and :func:`outcome_of`
reads it back from the entry's reason as data (``why.detail``), never from its sentence."""

_MARKUP = (b"<!doctype", b"<html", b"<head", b"<body", b"<?xml", b"<!--", b"<script", b"<meta", b"<title", b"<div",
           b"<table", b"<p>", b"<br", b"<center", b"<h1")
"""How the markup served in robots.txt's place starts (lower case, after blanks and a BOM)."""


def not_robots_txt(body: bytes, robots: RobotsTxt | None = None) -> bool:
    """Whether a 2xx ``body`` is something else than a robots.txt: it starts as markup (an HTML
    page, XML), or it has lines but a robots.txt parser recognises none of them (no group, rule,
    sitemap or other directive). An empty or comment-only body is a robots.txt without rules.
    ``robots``: ``body`` parsed already (in Google's mode), so it is not parsed again."""
    start = body[:512].lstrip(b"\xef\xbb\xbf \t\r\n\f\v").lower()
    if start.startswith(_MARKUP):
        return True
    if not start:
        return False
    robots = robots if robots is not None else parse(body)
    if robots.groups or robots.sitemaps or robots.extensions:
        return False
    return any(line.strip() and not line.lstrip().startswith(b"#") for line in body[:65536].splitlines())


def outcome_of(entry: Entry | None, robots: RobotsTxt | None = None) -> str:
    """The :data:`OUTCOMES` class of the latest attempt ``entry`` records (None: ``no_capture``);
    ``robots``: the entry's body parsed already in Google's mode (read, not parsed again)."""
    if entry is None:
        return "no_capture"
    status = entry.status
    if entry.outcome == "rules":  # a 2xx: the body is the good copy this attempt brought
        same = robots is not None and robots.mode == "google" and robots.body == entry.body
        robots = robots if same and robots is not None else parse(entry.body)
        if not_robots_txt(entry.body, robots):
            return "not_robots_txt"
        return "with_rules" if any(group.rules for group in robots.groups) else "no_rules"
    if 300 <= status < 400 or (status == 0 and entry.outcome == "allow"):  # F3: not followed, or unusable
        return "redirect_unresolved"
    if status == 0 and entry.why.code == "network" and entry.why.detail == NOT_ARCHIVED:
        return "redirect_unresolved"  # a redirect hop the archive does not hold
    if status in (401, 403):
        return "forbidden"
    if 400 <= status < 500 and status != 429:
        return "allow_all"
    return "defer"
