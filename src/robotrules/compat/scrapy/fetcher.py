"""robots.txt requests sent through Scrapy's own downloader, for robotrules' fetch policy (F1-F9).

:class:`ScrapyFetcher` is an :class:`~robotrules.fetch.AsyncFetcher` whose one request per step
(``send``) goes through ``crawler.engine``: every downloader middleware, download handler,
proxy, header, TLS setting and download stat of the crawl applies to robots.txt too. Each
request is marked so that Scrapy leaves the answer alone: no robots.txt check of its own
(``dont_obey_robotstxt``), no redirect following (``dont_redirect``: the policy follows up to 5
hops itself, F3), no retry (``dont_retry``: the policy backs off, F5), every status passed on
(``handle_httpstatus_all``), no offsite or duplicate filtering (``dont_filter``). The policy
(:mod:`robotrules.core.policy`) gets the status, the headers and, for a 2xx, the body.

The middleware gives it to an :class:`~robotrules.AsyncRobotsClient` (``fetcher=``): its
store, single flight (per URL in the process, and across processes through the store's lock),
good-copy (C2) and parsed-file cache are the client's, unchanged. It runs on the asyncio event
loop Scrapy drives (Twisted's asyncio reactor).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from scrapy import Request
from scrapy.exceptions import IgnoreRequest
from scrapy.http.request import NO_CALLBACK
from scrapy.utils.defer import maybe_deferred_to_future

from robotrules.core.policy import Failure, Fetch, Policy, Response
from robotrules.fetch import AsyncFetcher

if TYPE_CHECKING:
    from scrapy.crawler import Crawler
    from scrapy.http import Response as ScrapyResponse


__all__ = ["DOWNLOAD_PRIORITY", "RobotsRequestIgnored", "ScrapyFetcher", "failure_kind"]

log = logging.getLogger("robotrules.compat.scrapy")

DOWNLOAD_PRIORITY = 1000
"""The priority of robots.txt requests in Scrapy's queues: Scrapy's own middleware uses 1000 too."""

# Failure kinds (F8) by exception class name, anywhere in the class's MRO: Twisted's errors and
# the names Scrapy >= 2.14 wraps them in. Names rather than classes: they move between versions.
_KINDS = {
    "DNSLookupError": "dns",
    "CannotResolveHostError": "dns",
    "ConnectionRefusedError": "connect",
    "DownloadConnectionRefusedError": "connect",
    "ConnectError": "connect",
    "NoRouteError": "connect",
    "TimeoutError": "timeout",
    "TCPTimedOutError": "timeout",
    "DownloadTimeoutError": "timeout",
    "ConnectionLost": "reset",
    "ConnectionDone": "reset",
    "ResponseFailed": "reset",
    "ResponseNeverReceived": "reset",
    "DownloadFailedError": "reset",
    "ResponseDataLossError": "reset",
    "_DataLoss": "reset",
    "SSLError": "tls",
    "CertificateError": "tls",
    "VerificationError": "tls",
}


def failure_kind(exc: BaseException) -> str:
    """F8: what kind of network failure ``exc`` is (dns, connect, timeout, reset, tls or other)."""
    for cls in type(exc).__mro__:
        kind = _KINDS.get(cls.__name__)
        if kind is not None:
            return kind
        if cls.__module__.startswith("OpenSSL"):
            return "tls"
    return "other"


class RobotsRequestIgnored(Exception):
    """A downloader middleware of the crawl dropped the robots.txt request itself (IgnoreRequest).

    Nothing is learnt about the site, so nothing is cached; the middleware then lets the
    requests to that site through, as Scrapy's own middleware does when robots.txt cannot be
    downloaded.
    """


class ScrapyFetcher(AsyncFetcher):
    """Sends the policy's requests through ``crawler.engine`` (see the module docstring).

    Counts, for robots.txt requests (not F7 probes), the stats Scrapy's middleware keeps:
    ``robotstxt/request_count``, ``robotstxt/response_count``,
    ``robotstxt/response_status_count/<status>`` and ``robotstxt/exception_count/<type>``;
    each redirect hop is a request of its own. ``policy.fetch_timeout`` bounds the attempt
    (each request's ``download_timeout`` is what is left of it, at most ``DOWNLOAD_TIMEOUT``).
    """

    def __init__(self, crawler: Crawler, policy: Policy) -> None:
        # Not AsyncFetcher.__init__: it builds the httpx and ftplib transports this fetcher replaces.
        self.crawler = crawler
        self.policy = policy
        self.addresses = None  # connections are Scrapy's: no address policy can be applied here
        self.download_timeout = crawler.settings.getfloat("DOWNLOAD_TIMEOUT") or policy.fetch_timeout

    def _inc(self, key: str) -> None:
        if self.crawler.stats is not None:
            self.crawler.stats.inc_value(key)

    async def send(self, fetch: Fetch, deadline: float) -> Response | Failure:
        """One request through Scrapy: the answer as the policy takes it, or the failure (F8)."""
        left = deadline - time.monotonic()
        if left <= 0:
            return Failure("timeout", f"no answer within {self.policy.fetch_timeout:g} s")
        counted = fetch.purpose == "robots"
        request = Request(
            fetch.url, priority=DOWNLOAD_PRIORITY, dont_filter=True, callback=NO_CALLBACK,
            meta={
                "dont_obey_robotstxt": True, "dont_redirect": True, "dont_retry": True,
                "handle_httpstatus_all": True, "allow_offsite": True,
                "download_timeout": min(left, self.download_timeout),
            },
        )
        if counted:
            self._inc("robotstxt/request_count")
        try:
            response = await self._download(request)
        except IgnoreRequest as exc:
            if counted and len(fetch.chain) <= 1:
                raise RobotsRequestIgnored(f"{fetch.url}: {exc}") from exc
            return Failure("redirect", f"the crawl dropped the request for {fetch.url}: {exc}")
        except Exception as exc:  # Scrapy reports every download failure as an exception: all are F8 answers
            if counted:
                self._inc(f"robotstxt/exception_count/{type(exc)}")  # the key Scrapy's middleware uses
            kind = failure_kind(exc)
            if kind == "other":
                log.warning("robotrules: downloading %s failed: %r", fetch.url, exc)
            return Failure(kind, f"{type(exc).__name__}: {exc}")
        if counted:
            self._inc("robotstxt/response_count")
            self._inc(f"robotstxt/response_status_count/{response.status}")
        headers = {str(name).lower(): str(value) for name, value in response.headers.to_unicode_dict().items()}
        body = response.body if 200 <= response.status < 300 else b""
        return Response(response.status, headers, body)

    async def _download(self, request: Request) -> ScrapyResponse:
        engine: Any = self.crawler.engine
        if engine is None:
            raise RuntimeError("the crawl is not running: no engine to download robots.txt with")
        if hasattr(engine, "download_async"):  # Scrapy >= 2.14
            response: ScrapyResponse = await engine.download_async(request)
        else:
            response = await maybe_deferred_to_future(engine.download(request))
        return response

    async def aclose(self) -> None:
        """Nothing to close: the connections are Scrapy's."""
