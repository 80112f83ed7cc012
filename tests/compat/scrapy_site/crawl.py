"""Scrapy crawls in one process, run as ``python -m tests.compat.scrapy_site.crawl '<job json>'`` (see ``crawl()``).

The job lists crawls to run side by side, each with its start URL, its settings (on top of quick
defaults: no delay, no AutoThrottle, warnings only, an overall close timeout) and headers for
every request; settings for the whole process (``process_settings``: the reactor); and the
output file. The
spider follows every link on the site and records the URL of each page it receives and the
delay of the download slot at that moment; the crawl's stats are written when it closes.
"""

from __future__ import annotations

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
}


class DropRobotsTxt:
    """A downloader middleware of "the crawl" that drops every robots.txt request (as a user's URL
    filter might): enable it in DOWNLOADER_MIDDLEWARES as ``tests.compat.scrapy_site.crawl.DropRobotsTxt``."""

    def process_request(self, request: Request) -> None:
        if request.url.endswith("/robots.txt"):
            raise IgnoreRequest("robots.txt is not on the list of URLs to fetch")


class SiteSpider(scrapy.Spider):
    """Follows every link from ``start``; ``fetched`` and ``slot_delays`` record what it saw."""

    name = "site"

    def __init__(self, start: str, headers: dict[str, str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.start_url = start
        self.request_headers = headers
        self.fetched: list[str] = []
        self.slot_delays: dict[str, float] = {}

    async def start(self) -> AsyncIterator[scrapy.Request]:  # Scrapy >= 2.13
        yield scrapy.Request(self.start_url, headers=self.request_headers)

    def start_requests(self) -> Iterator[scrapy.Request]:  # Scrapy < 2.13
        yield scrapy.Request(self.start_url, headers=self.request_headers)

    def parse(self, response: Response) -> Iterator[scrapy.Request]:
        self.fetched.append(response.url)
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

        def closed(spider: SiteSpider, index: int = index, crawler: Any = crawler) -> None:
            stats = crawler.stats.get_stats() if crawler.stats else {}
            results[index] = {"fetched": spider.fetched, "slot_delays": spider.slot_delays, "stats": stats}

        crawler.signals.connect(closed, signal=signals.spider_closed, weak=False)
        process.crawl(crawler, start=spec["start"], headers=spec["headers"])
    process.start()
    with open(job["out"], "w", encoding="utf-8") as f:
        json.dump(results, f, default=str)


if __name__ == "__main__":
    main(json.loads(sys.argv[1]))
