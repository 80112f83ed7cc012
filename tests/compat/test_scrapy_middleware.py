"""RobotsPolicyMiddleware in real Scrapy crawls of a site on 127.0.0.1 (issue #10, part 2).

Each crawl runs in its own process (``tests/compat/scrapy_site``) against ``HTTPServer``; what
may be fetched is computed with ``robotrules.parse`` on the same robots.txt body. The
middleware fetches robots.txt through Scrapy's downloader and applies robotrules' fetch policy:
status codes (F2, F4, F5), redirects (F3), outages with and without a good copy (C2, F5, F8),
a cache shared by spiders and processes (C1, C3), crawl-delay (N2) and Scrapy's agent
fallbacks (G3).
"""

from __future__ import annotations

import socket
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from robotrules import SQLiteStore
from tests.compat.scrapy_site import (
    MIDDLEWARES,
    OTHER_ROBOTS,
    PAGES,
    ROBOTS,
    allowed_paths,
    crawl,
    crawl_together,
    run_crawls,
    serve_site,
)
from tests.needs import unavailable
from tests.servers.http import HTTPServer, delayed, reset, respond

scrapy = pytest.importorskip("scrapy", reason="the Scrapy integration needs scrapy (the scrapy extra)")

from scrapy import signals  # noqa: E402

SCRAPY_AGENT = f"Scrapy/{scrapy.__version__} (+https://scrapy.org)"  # Scrapy's default USER_AGENT
SETTINGS = {"DOWNLOADER_MIDDLEWARES": MIDDLEWARES}
TEXT = {"Content-Type": "text/plain"}


@pytest.fixture
def site() -> Iterator[HTTPServer]:
    with HTTPServer() as server:
        serve_site(server)
        yield server


def requested_pages(server: HTTPServer) -> set[str]:
    """The site's pages the server was asked for (robots.txt and redirect hops left out)."""
    return {path for path in server.paths() if path in PAGES}


def test_crawl_fetches_exactly_the_pages_robots_txt_allows(site: HTTPServer):
    """F2, R1-R5: a 200 robots.txt with allows, disallows and wildcards decides each page; the
    disallowed pages are never requested; robots.txt is fetched once; Scrapy's robotstxt/* stats
    are kept, with robotrules' cache and standing stats; crawl-delay is off by default."""
    site.route("/robots.txt", respond(200, ROBOTS, TEXT))
    result = crawl(site.url("/"), SETTINGS)
    expected = allowed_paths(ROBOTS, SCRAPY_AGENT)
    assert expected and expected != set(PAGES)
    assert result.fetched == expected
    assert requested_pages(site) == expected
    assert site.hits("/robots.txt") == 1
    assert result.robots_stats() == {
        "robotstxt/request_count": 1,
        "robotstxt/response_count": 1,
        "robotstxt/response_status_count/200": 1,
        "robotstxt/cache/miss": 1,
        "robotstxt/standing/rules": 1,
        "robotstxt/forbidden": len(PAGES) - len(expected),
    }
    assert result.slot_delays == {"127.0.0.1": 0.0}  # Crawl-delay: 0.05 is in the file, but not applied
    assert "[robotrules" not in result.log  # no warning of robotrules' (Scrapy's middleware is disabled)


def test_robots_txt_404_lets_every_page_be_fetched(site: HTTPServer):
    """F4: a 404 means there is no robots.txt: everything is allowed (whatever the error page says)."""
    site.route("/robots.txt", respond(404, b"User-agent: *\nDisallow: /\n", TEXT))
    result = crawl(site.url("/"), SETTINGS)
    assert result.fetched == set(PAGES)
    assert result.stat("robotstxt/standing/allow") == 1
    assert result.stat("robotstxt/response_status_count/404") == 1
    assert result.stat("robotstxt/forbidden") == 0


@pytest.mark.parametrize(
    ("answer", "stat"),
    [
        pytest.param(respond(503, b"<h1>Service Unavailable</h1>"), "robotstxt/response_status_count/503", id="503"),
        pytest.param(respond(500, b"<h1>oops</h1>"), "robotstxt/response_status_count/500", id="500"),
        pytest.param(respond(429, b"slow down"), "robotstxt/response_status_count/429", id="429"),
        pytest.param(reset(), "robotstxt/exception_count/", id="connection-reset"),
    ],
)
def test_robots_txt_outage_without_a_cached_copy_stops_the_crawl(site: HTTPServer, answer, stat: str):
    """F5, F8: a 5xx, a 429 or a network failure with nothing cached means full disallow: no page
    is requested, robots.txt is asked once (no retry storm: the policy backs off)."""
    site.route("/robots.txt", answer)
    result = crawl(site.url("/"), SETTINGS)
    assert result.fetched == set()
    assert site.paths() == ["/robots.txt"]
    assert result.stat("robotstxt/standing/disallow") == 1
    assert result.stat("robotstxt/forbidden") == 1  # the start page; nothing else was ever linked
    assert any(key.startswith(stat) for key in result.stats), result.robots_stats()


def test_redirect_chain_is_followed_to_the_final_robots_txt(site: HTTPServer):
    """F3: redirects (301, 302, 307) are followed by the policy, hop by hop through Scrapy's
    downloader, and the final body decides."""
    site.chain([301, 302, 307], 3, respond(200, OTHER_ROBOTS, TEXT))
    result = crawl(site.url("/"), SETTINGS)
    expected = allowed_paths(OTHER_ROBOTS, SCRAPY_AGENT)
    assert expected != allowed_paths(ROBOTS, SCRAPY_AGENT)
    assert result.fetched == expected
    assert site.paths()[:4] == ["/robots.txt", "/hop/2", "/hop/1", "/hop/0"]
    assert result.stat("robotstxt/redirected") == 1
    assert result.stat("robotstxt/request_count") == 4  # each hop is a request
    assert result.stat("robotstxt/response_status_count/200") == 1


def test_more_than_five_redirects_mean_no_robots_txt(site: HTTPServer):
    """F3: past 5 hops the chain is treated as a 404 (full allow); Scrapy alone would follow 20."""
    site.chain(301, 6, respond(200, b"User-agent: *\nDisallow: /\n", TEXT))
    result = crawl(site.url("/"), SETTINGS)
    assert result.fetched == set(PAGES)
    assert "/hop/0" not in site.paths()
    assert result.stat("robotstxt/standing/allow") == 1


def _wait_until_stale(store_path: Path, robots_url: str) -> None:
    """Wait (at most a few seconds) until the stored copy of ``robots_url`` is due for a refetch."""
    store = SQLiteStore(store_path)
    try:
        entry = store.get(robots_url)
        assert entry is not None, "the first crawl stored nothing"
        deadline = time.monotonic() + 5
        while time.time() <= entry.expires_at and time.monotonic() < deadline:
            time.sleep(0.05)
        assert time.time() > entry.expires_at
    finally:
        store.close()


def test_good_cached_copy_decides_while_robots_txt_answers_503(site: HTTPServer, tmp_path: Path):
    """C2: the second crawl finds the stored copy stale, refetches, gets a 503 and goes on with
    the last good copy: the same pages as with the 200 (not a full disallow)."""
    store = tmp_path / "robots.sqlite3"
    settings = {**SETTINGS, "ROBOTRULES_STORE": str(store), "ROBOTRULES_POLICY": {"min_ttl": 0.0}}
    site.route("/robots.txt", respond(200, ROBOTS, {**TEXT, "Cache-Control": "max-age=1"}))  # C4
    first = crawl(site.url("/"), settings)
    expected = allowed_paths(ROBOTS, SCRAPY_AGENT)
    assert first.fetched == expected
    _wait_until_stale(store, site.url("/robots.txt"))
    site.route("/robots.txt", respond(503, b"<h1>down for maintenance</h1>"))
    second = crawl(site.url("/"), settings)
    assert second.fetched == expected
    assert second.stat("robotstxt/response_status_count/503") == 1
    assert second.stat("robotstxt/good_copy_kept") == 1
    assert second.stat("robotstxt/standing/rules") == 1


def test_crawls_sharing_a_sqlite_store_fetch_robots_txt_once(site: HTTPServer, tmp_path: Path):
    """C1, C3: a second crawl (another process) with the same SQLite file uses the stored copy."""
    settings = {**SETTINGS, "ROBOTRULES_STORE": f"sqlite://{tmp_path / 'shared.sqlite3'}"}
    site.route("/robots.txt", respond(200, ROBOTS, TEXT))
    first = crawl(site.url("/"), settings)
    second = crawl(site.url("/"), settings)
    expected = allowed_paths(ROBOTS, SCRAPY_AGENT)
    assert first.fetched == second.fetched == expected
    assert site.hits("/robots.txt") == 1
    assert first.stat("robotstxt/cache/miss") == 1
    assert second.stat("robotstxt/cache/hit") == 1
    assert second.stat("robotstxt/request_count") == 0


def test_spiders_crawling_at_once_share_one_robots_txt_fetch(site: HTTPServer, tmp_path: Path):
    """C3: two spiders of one process, each with its own middleware, sharing a SQLite store,
    ask for robots.txt at the same moment: one fetches it, the other waits and shares the copy."""
    settings = {**SETTINGS, "ROBOTRULES_STORE": str(tmp_path / "shared.sqlite3")}
    site.route("/robots.txt", delayed(0.3, respond(200, ROBOTS, TEXT)))
    first, second = crawl_together([(site.url("/"), settings, None), (site.url("/"), settings, None)])
    expected = allowed_paths(ROBOTS, SCRAPY_AGENT)
    assert first.fetched == second.fetched == expected
    assert site.hits("/robots.txt") == 1
    caches = {key for result in (first, second) for key in result.stats if key.startswith("robotstxt/cache/")}
    assert caches == {"robotstxt/cache/miss", "robotstxt/cache/shared"}


def _redis_url() -> str:
    url = "redis://127.0.0.1:6379/0"
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=0.5).close()
    except OSError:
        unavailable("no Redis server on 127.0.0.1:6379 to share the cache through")
    pytest.importorskip("redis", reason="RedisStore needs redis-py (the redis extra)")
    return url


def test_crawls_sharing_a_redis_store_fetch_robots_txt_once(site: HTTPServer):
    """C3: two crawls (processes) with one Redis store: robots.txt is fetched once for both."""
    import redis

    url = _redis_url()
    prefix = f"robotrules-test-{uuid.uuid4().hex}:"
    settings = {**SETTINGS, "ROBOTRULES_STORE": url, "ROBOTRULES_REDIS_PREFIX": prefix}
    site.route("/robots.txt", respond(200, ROBOTS, TEXT))
    client = redis.Redis.from_url(url, socket_timeout=2)
    try:
        first = crawl(site.url("/"), settings)
        second = crawl(site.url("/"), settings)
        assert client.exists(f"{prefix}entry:{site.url('/robots.txt')}")
    finally:
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)
        client.close()
    expected = allowed_paths(ROBOTS, SCRAPY_AGENT)
    assert first.fetched == second.fetched == expected
    assert site.hits("/robots.txt") == 1
    assert second.stat("robotstxt/cache/hit") == 1


@pytest.mark.parametrize(("cap", "delay"), [(None, 0.05), (0.02, 0.02)], ids=["from-robots-txt", "capped"])
def test_crawl_delay_sets_the_download_slot_delay_when_enabled(site: HTTPServer, cap: float | None, delay: float):
    """N2: with ROBOTRULES_CRAWL_DELAY the slot of the site waits the agent's crawl-delay
    (``Crawl-delay: 0.05`` for ``*``), at most ROBOTRULES_CRAWL_DELAY_MAX; the pages are the same."""
    site.route("/robots.txt", respond(200, ROBOTS, TEXT))
    settings = {**SETTINGS, "ROBOTRULES_CRAWL_DELAY": True}
    if cap is not None:
        settings["ROBOTRULES_CRAWL_DELAY_MAX"] = cap
    result = crawl(site.url("/"), settings)
    assert result.fetched == allowed_paths(ROBOTS, SCRAPY_AGENT)
    assert result.slot_delays == {"127.0.0.1": delay}


BARBOT = "Mozilla/5.0 (compatible; BarBot/2.1; +http://bar.example/bot)"


@pytest.mark.parametrize(
    ("settings", "headers", "agent"),
    [
        pytest.param({"ROBOTSTXT_USER_AGENT": "FooBot/1.0"}, None, "FooBot", id="ROBOTSTXT_USER_AGENT"),
        pytest.param({}, {"User-Agent": BARBOT}, "BarBot", id="request-header"),
        pytest.param({"USER_AGENT": "BazBot/3.0 (+http://baz.example)"}, None, "BazBot", id="USER_AGENT"),
        pytest.param({"ROBOTSTXT_USER_AGENT": "FooBot"}, {"User-Agent": BARBOT}, "FooBot",
                     id="ROBOTSTXT_USER_AGENT-over-header"),
    ],
)
def test_agent_follows_scrapys_fallbacks_and_matches_on_the_product_token(site: HTTPServer, settings, headers, agent):
    """G3: the agent is ROBOTSTXT_USER_AGENT, else the request's User-Agent header, else
    USER_AGENT (as Scrapy's middleware); its product token selects the group."""
    site.route("/robots.txt", respond(200, ROBOTS, TEXT))
    result = crawl(site.url("/"), {**SETTINGS, **settings}, headers=headers)
    expected = allowed_paths(ROBOTS, agent)
    assert expected != allowed_paths(ROBOTS, SCRAPY_AGENT)
    assert result.fetched == expected


def test_robots_txt_request_dropped_by_the_crawl_lets_pages_through_as_scrapy_does(site: HTTPServer):
    """When one of the crawl's own middlewares drops the robots.txt request (IgnoreRequest), nothing
    is learnt about the site: its pages go ahead unchecked, with a warning, as with Scrapy's
    middleware; nothing is cached and robots.txt is not asked again for each page."""
    site.route("/robots.txt", respond(200, b"User-agent: *\nDisallow: /\n", TEXT))
    middlewares = {**MIDDLEWARES, "tests.compat.scrapy_site.crawl.DropRobotsTxt": 200}
    result = crawl(site.url("/"), {"DOWNLOADER_MIDDLEWARES": middlewares})
    assert result.fetched == set(PAGES)
    assert site.hits("/robots.txt") == 0
    assert "the robots.txt request was dropped by the crawl" in result.log
    assert result.stat("robotstxt/request_count") == 1  # asked once, dropped before the network


def test_bad_store_setting_stops_the_crawl_with_a_clear_message(site: HTTPServer):
    """A store setting that names no store fails the crawl at start, saying what is accepted;
    no page is fetched with a cache or policy other than the one asked for."""
    site.route("/robots.txt", respond(200, ROBOTS, TEXT))
    done, results = run_crawls([(site.url("/"), {**SETTINGS, "ROBOTRULES_STORE": "mysql://db/robots"}, None)])
    assert "ROBOTRULES_STORE: unknown kind of store 'mysql://db/robots'" in done.stderr
    assert requested_pages(site) == set()
    assert not results or not results[0].get("fetched")


def test_a_reactor_without_asyncio_is_refused_with_a_clear_message(site: HTTPServer):
    """The middleware awaits the client on Scrapy's asyncio loop: with another reactor it says so
    at start instead of letting requests through unchecked."""
    site.route("/robots.txt", respond(200, ROBOTS, TEXT))
    done, results = run_crawls([(site.url("/"), SETTINGS, None)],
                               process_settings={"TWISTED_REACTOR": "twisted.internet.selectreactor.SelectReactor"})
    assert "RobotsPolicyMiddleware needs Scrapy's asyncio reactor" in done.stderr
    assert requested_pages(site) == set()
    assert not results or not results[0].get("fetched")


@pytest.mark.parametrize(
    "settings",
    [pytest.param({"ROBOTSTXT_PARSER": "robotrules.compat.scrapy.RobotRulesParser"}, id="scrapys-middleware"),
     pytest.param(SETTINGS, id="robotrules-middleware")],
)
def test_robots_parsed_handlers_sync_and_async_run_before_the_page_is_fetched(site: HTTPServer, settings):
    """Scrapy's ``robots_parsed`` signal is sent as Scrapy's own middleware sends it (issue #22): once
    per robots.txt, with a RobotRulesParser and the request that found it, to sync handlers and to
    async ones, which are awaited: the start page reaches the spider only after the async handler
    (which sleeps first) has finished. Scrapy's middleware with the backend is the control."""
    if not hasattr(signals, "robots_parsed"):
        pytest.skip("Scrapy < 2.18 has no robots_parsed signal")
    site.route("/robots.txt", respond(200, ROBOTS, TEXT))
    result = crawl(site.url("/"), settings, record_robots_parsed=True)
    assert result.fetched == allowed_paths(ROBOTS, SCRAPY_AGENT)
    log = result.robots_parsed
    assert log["sync"] == [[site.url("/"), "RobotRulesParser"]]
    assert log["async"] == [[site.url("/"), "RobotRulesParser"]]
    assert log["pages"][0] == [site.url("/"), 1], log["pages"][:3]
    assert all(done == 1 for _, done in log["pages"])


def test_without_robotstxt_obey_the_middleware_stays_out_of_the_way(site: HTTPServer):
    """Like Scrapy's: ROBOTSTXT_OBEY = False disables it; robots.txt is not even requested."""
    site.route("/robots.txt", respond(200, b"User-agent: *\nDisallow: /\n", TEXT))
    result = crawl(site.url("/"), {**SETTINGS, "ROBOTSTXT_OBEY": False})
    assert result.fetched == set(PAGES)
    assert site.hits("/robots.txt") == 0
