"""Values of the lines Google's matching ignores but crawlers and tools use (N2).

``crawl-delay`` and ``request-rate`` (Yandex, Bing and others), ``host`` (Yandex), and the
AI-use preference lines: ``Content-Signal`` as deployed by Cloudflare
("search=yes, ai-train=no") and ``Content-Usage`` from the IETF aipref drafts
("[/path] train-ai=n"). Parsers return None (never raise) for values they cannot read; the
linter reports those.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

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


def _pairs(text: str) -> dict[str, str] | None:
    """Comma-separated ``key=value`` items, lower-cased, quotes around a value dropped; None
    when an item is not ``key=value`` or there is none."""
    out: dict[str, str] = {}
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            continue
        key, sep, val = item.partition("=")
        key, val = key.strip().lower(), val.strip().strip('"').lower()
        if not sep or not key or not val:
            return None
        out[key] = val
    return out or None


def parse_content_signal(value: str) -> dict[str, str] | None:
    """Cloudflare Content Signals: "search=yes, ai-train=no" -> {"search": "yes", "ai-train": "no"}."""
    return _pairs(value)


class ContentUsage(NamedTuple):
    """An aipref ``Content-Usage`` line: preferences for paths starting with ``path`` ("/" = all)."""

    path: str
    preferences: dict[str, str]


def parse_content_usage(value: str) -> ContentUsage | None:
    """IETF aipref: "train-ai=n" or "/path/ train-ai=y, search=y"; None if unreadable."""
    value = value.strip()
    path = "/"
    if value.startswith("/"):
        path, _, value = value.partition(" ")
        value = value.strip()
    prefs = _pairs(value)
    return None if prefs is None else ContentUsage(path, prefs)
