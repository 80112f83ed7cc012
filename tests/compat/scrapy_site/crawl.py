"""Scrapy crawls in one process: :func:`main` runs a job, in a process that the tests fork from a
server that imported this module (``tests.compat.scrapy_site.run_crawls``), or by hand as
``python -m tests.compat.scrapy_site.crawl '<job json>'``.

The job lists crawls to run side by side, each with its start URL, its settings (on top of quick
defaults: no delay, no AutoThrottle, warnings only, an overall close timeout) and headers for
every request; settings for the whole process (``process_settings``: the reactor); and the
output file. The
spider follows every link on the site and records the URL of each page it receives and the
delay of the download slot at that moment; the crawl's stats are written when it closes.

With ``"robots_parsed": true`` in a crawl's spec, a sync and an async handler of Scrapy's
``robots_parsed`` signal record what they were sent (the async one only after a pause, so that
it is seen only if it was awaited), and the spider records, for each page, how many async
handler calls had finished when the page reached it.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Iterator
from typing import Any

import scrapy
from scrapy import signals
from scrapy.crawler import CrawlerProcess
from scrapy.exceptions import IgnoreRequest
from scrapy.http import Request, Response

DEFAULTS: dict[str, Any] = {
    "LOG_LEVEL": "WARNING",
    "DOWNLOAD_DELAY": 0,
    "AUTOTHROTTLE_ENABLED": False,
    "CONCURRENT_REQUESTS": 4,
    "CONCURRENT_REQUESTS_PER_DOMAIN": 4,
    "DOWNLOAD_TIMEOUT": 10,
    "CLOSESPIDER_TIMEOUT": 30,
    "TELNETCONSOLE_ENABLED": False,
    "ROBOTSTXT_OBEY": True,
    # The middleware runs on the asyncio reactor: Scrapy's default since 2.13, set here for the older ones
    "TWISTED_REACTOR": "twisted.internet.asyncioreactor.AsyncioSelectorReactor",
}


class DropRobotsTxt:
    """A downloader middleware of "the crawl" that drops every robots.txt request (as a user's URL
    filter might): enable it in DOWNLOADER_MIDDLEWARES as ``tests.compat.scrapy_site.crawl.DropRobotsTxt``."""

    def process_request(self, request: Request, spider: Any = None) -> None:  # spider: Scrapy < 2.14 passes it
        if request.url.endswith("/robots.txt"):
            raise IgnoreRequest("robots.txt is not on the list of URLs to fetch")


class ArrivalMarker:
    """A downloader middleware of "the crawl", placed before the robots.txt middleware (e.g. at 50):
    once ``ARRIVAL_COUNT`` requests for URLs starting with ``ARRIVAL_PREFIX`` (robots.txt not
    counted) have reached it, it creates the file ``ARRIVAL_FILE``. A test server holds that
    site's robots.txt until the file exists: every page request is then waiting on robots.txt."""

    def __init__(self, crawler: Any) -> None:
        settings = crawler.settings
        self.prefix: str = settings.get("ARRIVAL_PREFIX")
        self.count = settings.getint("ARRIVAL_COUNT")
        self.path: str = settings.get("ARRIVAL_FILE")
        self.arrived = 0

    @classmethod
    def from_crawler(cls, crawler: Any) -> ArrivalMarker:
        return cls(crawler)

    def process_request(self, request: Request, spider: Any = None) -> None:
        if request.url.startswith(self.prefix) and not request.url.endswith("/robots.txt"):
            self.arrived += 1
            if self.arrived == self.count:
                with open(self.path, "w", encoding="utf-8") as f:
                    f.write(request.url)


ASYNC_HANDLER_PAUSE = 0.3
"""Seconds the async ``robots_parsed`` handler sleeps before recording its call."""


def record_robots_parsed(crawler: Any, log: dict[str, list[Any]]) -> None:
    """Connect a sync and an async ``robots_parsed`` handler to ``crawler`` that record into ``log``:
    ``sync`` and ``async`` get ``[request URL, parser class name]`` per call (the async one after
    :data:`ASYNC_HANDLER_PAUSE`)."""

    def on_sync(robotparser: Any, request: Request) -> None:
        log["sync"].append([request.url, type(robotparser).__name__])

    async def on_async(robotparser: Any, request: Request) -> None:
        await asyncio.sleep(ASYNC_HANDLER_PAUSE)
        log["async"].append([request.url, type(robotparser).__name__])

    signal = getattr(signals, "robots_parsed", None)
    if signal is not None:  # Scrapy >= 2.18
        crawler.signals.connect(on_sync, signal=signal, weak=False)
        crawler.signals.connect(on_async, signal=signal, weak=False)


class SiteSpider(scrapy.Spider):
    """Follows every link from ``start``; ``fetched`` and ``slot_delays`` record what it saw;
    with a ``robots_log``, ``pages`` in it gets ``[URL, async robots_parsed calls finished]`` per page."""

    name = "site"

    def __init__(self, start: str, headers: dict[str, str], robots_log: dict[str, list[Any]] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_url = start
        self.request_headers = headers
        self.robots_log = robots_log
        self.fetched: list[str] = []
        self.slot_delays: dict[str, float] = {}

    async def start(self) -> AsyncIterator[scrapy.Request]:  # Scrapy >= 2.13
        yield scrapy.Request(self.start_url, headers=self.request_headers)

    def start_requests(self) -> Iterator[scrapy.Request]:  # Scrapy < 2.13
        yield scrapy.Request(self.start_url, headers=self.request_headers)

    def parse(self, response: Response) -> Iterator[scrapy.Request]:
        self.fetched.append(response.url)
        if self.robots_log is not None:
            self.robots_log["pages"].append([response.url, len(self.robots_log["async"])])
        downloader = self.crawler.engine.downloader if self.crawler.engine else None
        key = response.meta.get("download_slot")
        if downloader is not None and key in downloader.slots:
            self.slot_delays[key] = max(self.slot_delays.get(key, 0.0), downloader.slots[key].delay)
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, headers=self.request_headers)


def main(job: dict[str, Any]) -> None:
    """Run the job's crawls side by side in one process (one reactor); write their results in order."""
    process = CrawlerProcess({**DEFAULTS, **job.get("process_settings", {})})
    results: list[dict[str, Any]] = [{} for _ in job["crawls"]]
    for index, spec in enumerate(job["crawls"]):
        spider_class = type(f"SiteSpider{index}", (SiteSpider,), {"custom_settings": spec["settings"]})
        crawler = process.create_crawler(spider_class)
        robots_log: dict[str, list[Any]] | None = None
        if spec.get("robots_parsed"):
            robots_log = {"sync": [], "async": [], "pages": []}
            record_robots_parsed(crawler, robots_log)

        def closed(spider: SiteSpider, index: int = index, crawler: Any = crawler) -> None:
            stats = crawler.stats.get_stats() if crawler.stats else {}
            results[index] = {"fetched": spider.fetched, "slot_delays": spider.slot_delays, "stats": stats,
                              "robots_parsed": spider.robots_log or {}}

        crawler.signals.connect(closed, signal=signals.spider_closed, weak=False)
        process.crawl(crawler, start=spec["start"], headers=spec["headers"], robots_log=robots_log)
    process.start()
    with open(job["out"], "w", encoding="utf-8") as f:
        json.dump(results, f, default=str)


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
