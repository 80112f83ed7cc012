"""Requests that arrive while robots.txt is still downloading (issue #22, item 4): real Scrapy crawls
on 127.0.0.1 with Scrapy's default middleware (Protego, or robotrules' ``ROBOTSTXT_PARSER``
backend) and with ``RobotsPolicyMiddleware``.

The start page (one server) links to many pages of another site (a second server on 127.0.0.1,
so another robots.txt) with ``Disallow: /private``, including ``/private/x``. Scrapy requests
them all at once; the second site's robots.txt is held by the server until every one of those
requests has reached the downloader middlewares (``ArrivalMarker`` in front of the robots.txt
middleware counts them), so each crawl runs the same interleaving: one request starts the
robots.txt download, every other one waits for it.

What the waiters get is the robots.txt middleware's business. Scrapy's ``RobotsTxtMiddleware``
(since it awaits the shared Deferred with ``maybe_deferred_to_future``) hands the parser to the
first waiter only: ``Deferred.asFuture`` consumes the result, so every later waiter gets None,
which Scrapy reads as "no robots.txt" and lets through. At most two requests are checked (the
one that started the download and the first waiter); the others are fetched unchecked, whatever
the parser backend. ``RobotsPolicyMiddleware`` checks every one.
"""

from __future__ import annotations

import inspect
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.compat.scrapy_site import MIDDLEWARES, Crawl, crawl
from tests.servers.http import Exchange, Handler, HTTPServer, respond

scrapy = pytest.importorskip("scrapy", reason="the Scrapy integration needs scrapy (the scrapy extra)")

from scrapy import signals  # noqa: E402
from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware  # noqa: E402

ROBOTS = b"User-agent: *\nDisallow: /private\n"
PUBLIC = tuple(f"/page/{n}" for n in range(6))
PRIVATE = ("/private/x", *(f"/private/{n}" for n in range(5)))
"""The linked pages: ``Disallow: /private`` allows the first six and disallows the other six."""
HTML = {"Content-Type": "text/html; charset=utf-8"}
TEXT = {"Content-Type": "text/plain"}
MARKER = "tests.compat.scrapy_site.crawl.ArrivalMarker"
HOLD_AT_MOST = 8.0  # seconds the server holds robots.txt waiting for the page requests (normally well under 1)


def held_until(marker: Path, handler: Handler, held: list[bool]) -> Handler:
    """``handler``, once ``marker`` exists (at most :data:`HOLD_AT_MOST` s); appends to ``held``
    whether it did exist when the answer went out."""

    def wrapper(exchange: Exchange) -> None:
        end = time.monotonic() + HOLD_AT_MOST
        while not marker.exists() and time.monotonic() < end:
            if not exchange.wait(0.02):
                return
        held.append(marker.exists())
        handler(exchange)

    return wrapper


def scrapy_waiters_lose_the_parser() -> bool:
    """Whether the installed Scrapy's RobotsTxtMiddleware awaits the shared robots.txt Deferred with
    ``maybe_deferred_to_future`` (Scrapy's async refactor of the middleware; before it, each waiter
    got the parser through a callback of its own)."""
    return "maybe_deferred_to_future(parser)" in inspect.getsource(RobotsTxtMiddleware)


def page(path: str) -> bytes:
    return f"<!doctype html><title>{path}</title><p>{path}</p>\n".encode()


@pytest.fixture
def sites(tmp_path: Path) -> Iterator[tuple[HTTPServer, HTTPServer, Path, list[bool]]]:
    """The start page's server (no robots.txt: 404), the linked site (robots.txt held until the
    marker exists), the marker's path, and the hold record."""
    marker = tmp_path / "every-page-request-arrived"
    held: list[bool] = []
    with HTTPServer() as hub, HTTPServer() as site:
        links = "".join(f'<li><a href="{site.url(path)}">{path}</a></li>' for path in PUBLIC + PRIVATE)
        hub.route("/", respond(200, f"<!doctype html><title>hub</title><ul>{links}</ul>\n".encode(), HTML))
        for path in PUBLIC + PRIVATE:
            site.route(path, respond(200, page(path), HTML))
        site.route("/robots.txt", held_until(marker, respond(200, ROBOTS, TEXT), held))
        yield hub, site, marker, held


def run(sites: tuple[HTTPServer, HTTPServer, Path, list[bool]], settings: dict[str, object],
        robots_middleware: dict[str, object], *, record_robots_parsed: bool = False) -> tuple[Crawl, set[str], set[str]]:
    """Crawl from the start page: the crawl, the site's pages fetched, the site's pages requested;
    after checking that every page request was waiting while robots.txt was held."""
    hub, site, marker, held = sites
    crawl_settings = {
        **settings,
        "DOWNLOADER_MIDDLEWARES": {**robots_middleware, MARKER: 50},
        "CONCURRENT_REQUESTS": 32,
        "CONCURRENT_REQUESTS_PER_DOMAIN": 32,
        "ARRIVAL_PREFIX": site.url("/"),
        "ARRIVAL_COUNT": len(PUBLIC + PRIVATE),
        "ARRIVAL_FILE": str(marker),
    }
    result = crawl(hub.url("/"), crawl_settings, record_robots_parsed=record_robots_parsed)
    assert held == [True], "robots.txt was answered before every page request had arrived"
    assert site.hits("/robots.txt") == 1
    asked = {path for path in site.paths() if path != "/robots.txt"}
    return result, result.fetched - {"/"}, asked


SCRAPY_SETUPS: dict[str, dict[str, object]] = {
    "scrapy-middleware-protego": {},  # Scrapy's defaults
    "scrapy-middleware-robotrules-parser": {"ROBOTSTXT_PARSER": "robotrules.compat.scrapy.RobotRulesParser"},
}
"""Scrapy's own RobotsTxtMiddleware, with the settings of each setup."""


def test_robotrules_middleware_never_fetches_a_disallowed_page_requested_while_robots_txt_downloads(sites):
    """F2, R1-R3: with RobotsPolicyMiddleware every request waiting on the robots.txt download is
    decided by it: the six pages under /private (``/private/x`` among them) are never requested,
    the six others are; robots.txt is fetched once. The waiting requests also wait for the async
    ``robots_parsed`` handler, as Scrapy's middleware makes them: no page of the site reaches the
    spider before it has finished."""
    result, fetched, asked = run(sites, {}, MIDDLEWARES, record_robots_parsed=True)
    assert fetched == set(PUBLIC)
    assert asked == set(PUBLIC)
    assert "/private/x" not in asked
    assert result.stat("robotstxt/forbidden") == len(PRIVATE)
    if hasattr(signals, "robots_parsed"):  # Scrapy >= 2.18
        site = sites[1]
        assert [call[1] for call in result.robots_parsed["async"]] == ["RobotRulesParser"]
        finished = [done for url, done in result.robots_parsed["pages"] if url.startswith(site.url("/"))]
        assert len(finished) == len(PUBLIC) and all(finished), result.robots_parsed


@pytest.mark.parametrize("setup", list(SCRAPY_SETUPS))
def test_scrapys_middleware_lets_requests_waiting_on_robots_txt_through_unchecked(sites, setup: str):
    """Scrapy's RobotsTxtMiddleware, with its default backend (Protego) or with robotrules'
    ``ROBOTSTXT_PARSER`` backend alike (the backend is never asked): of the twelve requests that
    arrive while robots.txt downloads, at most two are checked, so at least four of the six
    disallowed pages are fetched. The allowed pages are fetched in every case. With a Scrapy whose
    middleware gives each waiter the parser, nothing disallowed is fetched."""
    result, fetched, asked = run(sites, SCRAPY_SETUPS[setup], {})
    assert set(PUBLIC) <= fetched
    leaked = fetched & set(PRIVATE)
    assert leaked == asked & set(PRIVATE)
    checked_and_refused = result.stat("robotstxt/forbidden")
    assert checked_and_refused == len(PRIVATE) - len(leaked)
    if scrapy_waiters_lose_the_parser():
        assert len(leaked) >= len(PRIVATE) - 2, leaked
        assert checked_and_refused <= 2
    else:
        assert leaked == set()
