"""``ROBOTSTXT_PARSER = "robotrules.compat.scrapy.RobotRulesParser"``: Scrapy's parser backend, deciding as Google does.

Scrapy's own ``RobotsTxtMiddleware`` downloads robots.txt and hands this backend the body of
whatever answer came (a 404 page, a 503 page: it has no status rules); the backend parses it
with :func:`robotrules.parse` and matches on the product token of the agent Scrapy passes
(``ROBOTSTXT_USER_AGENT``, else the request's User-Agent header, else ``USER_AGENT``: G3, RFC
9309 2.2.1). URLs are matched as they go on the wire, as by every compat surface
(:func:`robotrules.compat._urls.wire_url`, R3).

The middleware decides which requests the backend is asked about: Scrapy's (2.19) lets most
requests made while robots.txt downloads through without asking it. For those, and for the
status, redirect, outage and cache rules, use
:class:`~robotrules.compat.scrapy.RobotsPolicyMiddleware` instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from scrapy.robotstxt import RobotParser

from robotrules.answers import token_of
from robotrules.compat._urls import wire_url
from robotrules.core.modes import MODES
from robotrules.core.robotstxt import RobotsTxt, parse

if TYPE_CHECKING:
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Request
    from typing_extensions import Self

__all__ = ["RobotRulesParser", "robots_agent"]


def text(value: str | bytes) -> str:
    """A header value (an agent) Scrapy may pass as bytes, as text (headers are Latin-1 on the wire)."""
    return value.decode("latin-1") if isinstance(value, bytes) else value


def robots_agent(request: Request, robotstxt_user_agent: str | None, user_agent: str | None) -> str:
    """The agent Scrapy's ``RobotsTxtMiddleware`` asks its parser about, worked out the same way.

    ``ROBOTSTXT_USER_AGENT`` when set, else the request's own ``User-Agent`` header (one the
    spider put on the request: the middleware runs before ``UserAgentMiddleware``), else the
    ``USER_AGENT`` setting. The product token is taken from it later (G3).
    """
    if robotstxt_user_agent:
        return robotstxt_user_agent
    header = request.headers.get(b"User-Agent")
    if header:
        return text(header)
    return user_agent or ""


class RobotRulesParser(RobotParser):
    """A parsed robots.txt answering Scrapy's ``allowed(url, user_agent)`` as Google does.

    ``mode`` is the parsing mode (setting ``ROBOTRULES_MODE``, default "google"). The agent is
    matched on its product token, so "FooBot/1.2 (+https://foo.example)" selects the group
    ``User-agent: FooBot`` (G3). Immutable after construction apart from a small memo of
    agent -> token; safe to share across Scrapy's callbacks.
    """

    def __init__(self, robotstxt_body: bytes, spider: Spider | None = None, *, mode: str = "google") -> None:
        self.spider = spider
        self.robots: RobotsTxt = parse(robotstxt_body, mode=mode)

    @classmethod
    def from_robotstxt(cls, robots: RobotsTxt, spider: Spider | None = None) -> Self:
        """A parser around a file already parsed (the middleware sends one with ``robots_parsed``)."""
        parser = cls(b"", spider)
        parser.robots = robots
        return parser

    @classmethod
    def from_crawler(cls, crawler: Crawler, robotstxt_body: bytes) -> Self:
        """Scrapy's constructor hook: the mode comes from the ``ROBOTRULES_MODE`` setting."""
        if not crawler:
            return cls(robotstxt_body)
        mode: Any = crawler.settings.get("ROBOTRULES_MODE") or "google"
        if not isinstance(mode, str) or mode not in MODES:
            raise ValueError(f"ROBOTRULES_MODE must be one of {', '.join(MODES)}, not {mode!r}")
        return cls(robotstxt_body, crawler.spider, mode=mode)

    def token(self, user_agent: str | bytes) -> str:
        """The product token matched for ``user_agent`` (a token, versioned name or whole header)."""
        return token_of(text(user_agent))

    def allowed(self, url: str | bytes, user_agent: str | bytes) -> bool:
        """Whether ``user_agent`` may fetch ``url`` (absolute, as Scrapy passes ``request.url``).

        ``url`` is matched as it goes on the wire (R3), as by every compat surface: non-ASCII
        characters (or, in ``bytes``, non-ASCII bytes) are percent-encoded as UTF-8, other
        percent-escapes are compared as given. Scrapy's requests are already encoded so; a raw
        ``https://site.example/wiki/Käyttäjä:`` is decided as ``.../wiki/K%C3%A4ytt%C3%A4j%C3%A4:``.
        """
        return self.robots.allowed(wire_url(url), self.token(user_agent))

    def crawl_delay(self, user_agent: str | bytes) -> float | None:
        """N2: the ``Crawl-delay`` of the group for ``user_agent``, in seconds; None when not given."""
        return self.robots.crawl_delay(self.token(user_agent))
