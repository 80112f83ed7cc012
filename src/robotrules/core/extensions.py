"""Values of the lines Google's matching ignores but crawlers and tools use (N2).

``crawl-delay`` and ``request-rate`` (Yandex, Bing and others), ``host`` (Yandex), and the
AI-use preference lines: ``Content-Signal`` as deployed by Cloudflare
("search=yes, ai-train=no") and ``Content-Usage`` from the IETF aipref drafts
("[/path] train-ai=n"). Parsers return None (never raise) for values they cannot read; the
linter reports those. The two AI-use lines are read by :mod:`robotrules.core.usage` (A1-A7);
:func:`parse_content_signal` and :func:`parse_content_usage` are kept here, for compatibility,
as thin wrappers on it.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

from robotrules.core.usage import SIGNAL_KEYS, parse_signal, usage_rule

__all__ = [
    "KNOWN_FIELDS",
    "ContentUsage",
    "RequestRate",
    "parse_content_signal",
    "parse_content_usage",
    "parse_crawl_delay",
    "parse_request_rate",
]

KNOWN_FIELDS: dict[str, str] = {
    "crawl-delay": "seconds between requests (Bing, Yandex, ...; Google ignores it)",
    "request-rate": "requests per period (some crawlers; Google ignores it)",
    "visit-time": "hours in which to crawl (some crawlers; Google ignores it)",
    "host": "preferred host name (Yandex; Google ignores it)",
    "clean-param": "query parameters to ignore (Yandex; Google ignores it)",
    "noindex": "no longer supported by Google since 2019",
    "nofollow": "not a robots.txt rule for Google",
    "noarchive": "not a robots.txt rule for Google",
    "content-signal": "AI-use preferences (Cloudflare Content Signals)",
    "content-usage": "AI-use preferences (IETF aipref)",
}
"""N2: fields Google ignores but that other crawlers or tools read, with what they mean."""


def parse_crawl_delay(value: str) -> float | None:
    """Seconds from a ``crawl-delay`` value ("10", "0.5"); None unless a finite number >= 0."""
    try:
        delay = float(value.strip())
    except ValueError:
        return None
    return delay if math.isfinite(delay) and delay >= 0 else None


class RequestRate(NamedTuple):
    """``request-rate: requests/period``: at most ``requests`` every ``seconds``."""

    requests: int
    seconds: float


_RATE_RE = re.compile(r"\s*(\d+)\s*/\s*(\d+(?:\.\d+)?)\s*([smhd]?)\b", re.IGNORECASE)
_UNIT = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


def parse_request_rate(value: str) -> RequestRate | None:
    """``"1/10s"`` -> RequestRate(1, 10.0); units s, m, h, d (seconds by default). None if unreadable or zero."""
    m = _RATE_RE.match(value)
    if m is None:
        return None
    requests, period = int(m.group(1)), float(m.group(2)) * _UNIT[m.group(3).lower()]
    if requests <= 0 or period <= 0:
        return None
    return RequestRate(requests, period)


_SIGNAL_KEY_OF = {category: key for key, category in SIGNAL_KEYS.items()}
"""Each category and the Content-Signal key that stands for it (A7)."""


class ContentUsage(NamedTuple):
    """An aipref ``Content-Usage`` rule as :meth:`RobotsTxt.content_usage` gives it: its path
    ("/" when the rule has none: every path) and the categories it states, ``"y"`` or ``"n"``.

    Kept for compatibility: :class:`robotrules.core.usage.UsageRule` is the rule itself (its
    line, compiled path and :class:`~robotrules.core.usage.Statement`)."""

    path: str
    preferences: dict[str, str]


def parse_content_signal(value: str) -> dict[str, str] | None:
    """A7: a Cloudflare Content-Signal value ("search=yes, ai-train=no") as
    ``{"search": "yes", "ai-train": "no"}``: each known key read as ``yes`` or ``no``, the last
    one for a key counting; None when it states no preference.

    Kept for compatibility: a thin wrapper on :func:`robotrules.core.usage.parse_signal`, whose
    :class:`~robotrules.core.usage.Statement` names the categories (``train-ai`` for ``ai-train``).
    """
    statement = parse_signal(value)
    found = {_SIGNAL_KEY_OF[category]: "yes" if allowed else "no" for category, allowed in statement.preferences.items()}
    return found or None


def parse_content_usage(value: str) -> ContentUsage | None:
    """A1, A5: a Content-Usage value ("train-ai=n" or "/path/ train-ai=y, search=y") as its path
    ("/" when it has none) and the categories its statement states (``"y"``/``"n"``), read
    exactly as :func:`robotrules.core.usage.parse_statement` reads them (a quoted value or
    another token states nothing); None when the statement is not an RFC 9651 Dictionary (an
    upper-case key, for one).

    Kept for compatibility: :func:`robotrules.core.usage.usage_rule` is the rule itself.
    """
    rule = usage_rule(value.strip(" \t"), 0, normalise=False)
    if not rule.statement.parsed:
        return None
    return ContentUsage(rule.path or "/", {category: "y" if allowed else "n"
                                           for category, allowed in rule.statement.preferences.items()})
