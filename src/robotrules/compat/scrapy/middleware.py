"""``RobotsPolicyMiddleware``: Scrapy's ``RobotsTxtMiddleware`` with Google's fetch and cache rules.

Scrapy's middleware parses whatever body the robots.txt request returns: a 404 page, a 503
page, an error page after redirects. This one hands the status, headers and body to robotrules'
fetch policy (F1-F9, C1-C4) through an :class:`~robotrules.AsyncRobotsClient` fetching with Scrapy (:class:`~robotrules.compat.scrapy.fetcher.ScrapyFetcher`):
a 4xx means full allow, a 5xx, 429 or network failure full disallow (retried with back-off),
redirects are followed up to 5 hops, a good copy keeps deciding through an outage (C2), and the
entries live in a robotrules store that several spiders and processes can share (C3).

Scrapy's asyncio reactor is required (``TWISTED_REACTOR =
"twisted.internet.asyncioreactor.AsyncioSelectorReactor"``, the default since Scrapy 2.13):
``process_request`` is a coroutine that awaits the client on Scrapy's asyncio event loop.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from scrapy import signals
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.utils.defer import maybe_deferred_to_future

from robotrules.client import AsyncRobotsClient
from robotrules.compat._urls import wire_url
from robotrules.compat.scrapy.config import SCRAPY_MIDDLEWARE, Config, open_store, scrapy_middleware_enabled
from robotrules.compat.scrapy.fetcher import RobotsRequestIgnored, ScrapyFetcher
from robotrules.compat.scrapy.parser import RobotRulesParser, robots_agent
from robotrules.errors import InvalidURL, require

if TYPE_CHECKING:
    import anyio
    from scrapy import Spider
    from scrapy.crawler import Crawler
    from scrapy.http import Request
    from typing_extensions import Self

    from robotrules.answers import CheckResult

__all__ = ["RobotsPolicyMiddleware"]

log = logging.getLogger("robotrules.compat.scrapy")

_SEEN_MAX = 100_000  # robots.txt URLs remembered for the per-copy stats; past it the memory starts over


def _asyncio_loop_available() -> bool:
    """Whether Scrapy runs on an asyncio event loop (the asyncio reactor, or no reactor in Scrapy >= 2.14)."""
    try:
        from scrapy.utils.asyncio import is_asyncio_available

        return is_asyncio_available()
    except ImportError:  # Scrapy < 2.14
        from scrapy.utils.reactor import is_asyncio_reactor_installed

        return is_asyncio_reactor_installed()


class RobotsPolicyMiddleware:
    """A downloader middleware that drops the requests robots.txt disallows, fetching robots.txt
    as Google does (see the module docstring and ``docs/guides/scrapy.md``).

    Enable it in place of Scrapy's, with ``ROBOTSTXT_OBEY = True``::

        DOWNLOADER_MIDDLEWARES = {
            "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
            "robotrules.compat.scrapy.RobotsPolicyMiddleware": 100,
        }

    Every request waits for its site's robots.txt and is decided by it, those made while it
    downloads included (Scrapy's own middleware lets most of those through unchecked, whatever
    its parser backend: ``tests/compat/test_scrapy_race.py``).

    Settings: ``ROBOTSTXT_USER_AGENT`` (else the request's User-Agent header, else
    ``USER_AGENT``, as Scrapy's), ``ROBOTRULES_STORE`` ("memory", "sqlite", a file path,
    "redis://..."), ``ROBOTRULES_REDIS_PREFIX``, ``ROBOTRULES_MODE``, ``ROBOTRULES_POLICY``,
    ``ROBOTRULES_CRAWL_DELAY`` and ``ROBOTRULES_CRAWL_DELAY_MAX``. A disallowed request raises
    ``IgnoreRequest`` (stat ``robotstxt/forbidden``) whose message is the explained verdict.
    """

    def __init__(self, crawler: Crawler) -> None:
        settings = crawler.settings
        if not settings.getbool("ROBOTSTXT_OBEY"):
            raise NotConfigured
        require("anyio", "scrapy")
        try:
            ready = _asyncio_loop_available()
        except RuntimeError:  # no reactor installed yet: Scrapy installs the one its settings name
            ready = True
        if not ready:
            raise RuntimeError(
                "RobotsPolicyMiddleware needs Scrapy's asyncio reactor: set TWISTED_REACTOR = "
                "'twisted.internet.asyncioreactor.AsyncioSelectorReactor' (the default since Scrapy 2.13)")
        self.crawler = crawler
        self.config = Config.from_settings(settings)
        if scrapy_middleware_enabled(settings):
            log.warning("robotrules: Scrapy's own robots.txt middleware is enabled too, so every request is checked "
                        "twice; disable it: DOWNLOADER_MIDDLEWARES = {%r: None, ...}", SCRAPY_MIDDLEWARE)
        prefix: Any = settings.get("ROBOTRULES_REDIS_PREFIX")
        self.store, self._owns_store = open_store(settings.get("ROBOTRULES_STORE"), prefix or None)
        # user_agent: only the agent matched when a call names none (Scrapy sets the requests' header)
        self.client = AsyncRobotsClient(
            self.store, policy=self.config.policy, mode=self.config.mode, fetcher=ScrapyFetcher(crawler, self.config.policy),
            user_agent=self.config.robotstxt_user_agent or self.config.user_agent or "*",
        )
        # robots.txt URL -> ((fetched_at, good_at) of the copy last counted, set once its robots_parsed was sent)
        self._seen: dict[str, tuple[tuple[float, float | None], anyio.Event | None]] = {}
        self._ignored: set[str] = set()  # robots.txt URLs whose request a middleware of the crawl dropped
        crawler.signals.connect(self._spider_closed, signal=signals.spider_closed)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> Self:
        return cls(crawler)

    async def process_request(self, request: Request, spider: Spider | None = None) -> None:
        """Let ``request`` through, or raise ``IgnoreRequest`` when robots.txt disallows it.

        Skipped, as by Scrapy's middleware: requests with ``meta["dont_obey_robotstxt"]``,
        ``data:`` and ``file:`` URLs; also URLs of schemes without a fetchable robots.txt (S5).
        """
        if request.meta.get("dont_obey_robotstxt") or request.url.startswith(("data:", "file:")):
            return
        url = wire_url(request.url)  # R3: as every compat surface matches (Scrapy's URLs are encoded already)
        try:
            key = self.client.robots_url(url)
        except InvalidURL:  # another scheme (s3:, ...) or no host: no robots.txt governs it
            return
        if key in self._ignored:
            return
        agent = robots_agent(request, self.config.robotstxt_user_agent, self.config.user_agent)
        try:
            result = await self.client.check(url, agent)
        except RobotsRequestIgnored as exc:
            log.warning("robotrules: the robots.txt request was dropped by the crawl (%s); "
                        "requests to %s go ahead unchecked, as with Scrapy's own middleware", exc, key)
            self._ignored.add(key)
            return
        await self._note(key, result, request)
        if not result.allowed:
            log.debug("Forbidden by robots.txt: %(request)s: %(why)s", {"request": request, "why": result.explain()},
                      extra={"spider": self.crawler.spider})
            self._inc("robotstxt/forbidden")
            raise IgnoreRequest(f"Forbidden by robots.txt: {result.explain()}")
        if self.config.crawl_delay:
            self._apply_crawl_delay(request, result)

    def _inc(self, key: str) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(key)

    async def _note(self, key: str, result: CheckResult, request: Request) -> None:
        """Once per copy of a robots.txt (not per request): the cache and standing stats, and
        Scrapy's ``robots_parsed`` signal when rules were parsed.

        The signal's handlers, async ones included, are awaited before the request goes on, as
        by Scrapy's middleware; requests decided by the same copy meanwhile wait for them too.
        """
        state = result.state
        mark = (state.entry.fetched_at, state.entry.good_at)
        seen = self._seen.get(key)
        if seen is not None and seen[0] == mark:
            if seen[1] is not None:  # the signal for this copy is being sent: its handlers run first
                await seen[1].wait()
            return
        if len(self._seen) >= _SEEN_MAX:
            self._seen.clear()
        from anyio import Event  # here: without anyio, __init__ raises MissingExtra naming the extra

        sent = Event() if state.robots is not None else None
        self._seen[key] = (mark, sent)
        self._inc(f"robotstxt/cache/{state.cache}")
        self._inc(f"robotstxt/standing/{state.kind}")
        if state.failures and state.entry.good_at is not None:  # C2: refreshes fail, the last good copy decides
            self._inc("robotstxt/good_copy_kept")
        if state.entry.redirects:
            self._inc("robotstxt/redirected")
        if state.robots is not None and sent is not None:
            try:
                await self._send_robots_parsed(RobotRulesParser.from_robotstxt(state.robots, self.crawler.spider),
                                               request)
            finally:
                sent.set()
                if self._seen.get(key) == (mark, sent):
                    self._seen[key] = (mark, None)

    async def _send_robots_parsed(self, parser: RobotRulesParser, request: Request) -> None:
        """Send Scrapy's ``robots_parsed`` signal as Scrapy's own middleware does for the installed
        version: ``send_catch_log_async`` (Scrapy >= 2.14), else ``send_catch_log_deferred``, so
        that handlers returning a coroutine or a Deferred are awaited; errors are logged by Scrapy.
        Scrapy without the signal (before 2.18) sends nothing."""
        signal = getattr(signals, "robots_parsed", None)
        if signal is None:
            return
        manager: Any = self.crawler.signals
        send_async = getattr(manager, "send_catch_log_async", None)
        if send_async is not None:
            await send_async(signal=signal, robotparser=parser, request=request)
        else:
            await maybe_deferred_to_future(manager.send_catch_log_deferred(signal=signal, robotparser=parser,
                                                                           request=request))

    def _apply_crawl_delay(self, request: Request, result: CheckResult) -> None:
        """N2: the download slot of ``request`` waits at least the crawl-delay for the agent
        (capped at ``ROBOTRULES_CRAWL_DELAY_MAX``) between requests.

        Raises the delay of the slot if it exists (AutoThrottle may have lowered it since) and
        of the per-slot settings new slots are made from; never lowers a longer delay.
        """
        robots = result.state.robots
        delay = robots.crawl_delay(result.agent) if robots is not None else None
        if not delay:
            return
        delay = min(delay, self.config.max_crawl_delay)
        engine: Any = self.crawler.engine
        downloader = engine.downloader if engine is not None else None
        if downloader is None:
            return
        get_key = getattr(downloader, "get_slot_key", None)  # Scrapy >= 2.12; before, _get_slot_key(request, spider)
        key = get_key(request) if get_key is not None else downloader._get_slot_key(request, self.crawler.spider)
        per_slot: dict[str, Any] = downloader.per_slot_settings.setdefault(key, {})
        if float(per_slot.get("delay", self.config.download_delay)) < delay:
            per_slot["delay"] = delay
        slot = downloader.slots.get(key)
        if slot is not None and slot.delay < delay:
            slot.delay = delay

    def _spider_closed(self, spider: Spider | None = None) -> None:
        """Close the store this middleware opened (the client's fetcher holds nothing to close)."""
        if self._owns_store:
            self.store.close()
