"""RobotsClient and AsyncRobotsClient against a real server on 127.0.0.1 (S1-S5, F2-F6, C1-C4).

Every test runs for both clients (the ``make_client`` fixture); time moves only when a test
moves the clock, so lifetimes of days are checked in milliseconds.
"""

from __future__ import annotations

import logging

import httpx
import pytest

from robotrules import InvalidURL, MemoryStore, Policy, RobotsClient, UnsupportedScheme
from tests.client.conftest import DAY
from tests.servers.http import delayed, respond

RULES = b"user-agent: *\ndisallow: /private\ncrawl-delay: 2.5\n\nuser-agent: slowbot\ndisallow: /\n\nsitemap: https://example.com/sitemap.xml\n"


def serve(server, body=RULES, status=200, headers=None):
    return server.route("/robots.txt", respond(status, body, headers))


# -- S: which robots.txt ---------------------------------------------------------------------------------

def test_urls_of_one_origin_share_one_fetch_whatever_their_spelling(server, make_client):
    """S1, S2, S4: same scheme, host (any case) and port share one robots.txt; it is fetched once."""
    serve(server)
    client = make_client()
    base = f"http://127.0.0.1:{server.port}"
    assert client.allowed(base + "/public", "bot")
    assert not client.allowed(base + "/private/x?y=1", "bot")
    assert client.allowed(f"HTTP://127.0.0.1:{server.port}/a#frag", "bot")
    assert server.hits("/robots.txt") == 1


def test_another_host_name_for_the_same_server_is_another_robots_txt(server, make_client):
    """S4: robots.txt applies per host name: "localhost" is not "127.0.0.1", even on one server."""
    serve(server)
    client = make_client()
    client.allowed(f"http://127.0.0.1:{server.port}/", "bot")
    client.allowed(f"http://localhost:{server.port}/", "bot")
    assert server.hits("/robots.txt") == 2
    assert {r.headers["host"] for r in server.requests} == {f"127.0.0.1:{server.port}", f"localhost:{server.port}"}


def test_deep_urls_use_the_top_level_robots_txt_only(server, make_client):
    """S3: crawlers never look for robots.txt in subfolders."""
    serve(server)
    server.route("/folder/robots.txt", respond(200, b"user-agent: *\ndisallow: /\n"))
    client = make_client()
    assert client.allowed(f"http://127.0.0.1:{server.port}/folder/page", "bot")
    assert server.paths() == ["/robots.txt"]


@pytest.mark.parametrize("url", ["/relative/path", "no scheme at all", "http://", "http:///path", ""])
def test_a_url_without_a_host_is_an_invalid_url_error(make_client, url):
    """S1: no host, no robots.txt: a clear InvalidURL (a ValueError), never a fetch."""
    with pytest.raises(InvalidURL):
        make_client().allowed(url, "bot")


@pytest.mark.parametrize("url", ["mailto:someone@example.com", "gopher://127.0.0.1/x", "data://127.0.0.1/x"])
def test_schemes_that_cannot_be_fetched_are_refused_clearly(make_client, url):
    """S5: any scheme may have a robots.txt, but the client fetches http, https and ftp only."""
    with pytest.raises(InvalidURL):
        make_client().allowed(url, "bot")


def test_unsupported_scheme_is_its_own_error_class(make_client):
    """S5: the error says why (not just "invalid")."""
    with pytest.raises(UnsupportedScheme, match="http, https and ftp"):
        make_client().check("gopher://127.0.0.1/x", "bot")


def test_ftp_robots_txt_is_fetched_anonymously_and_decides(make_client, tmp_path):
    """S5: Google-specific: ftp:// robots.txt over anonymous FTP governs that FTP origin."""
    from tests.servers.ftp import FTPServer

    with FTPServer(tmp_path / "ftp") as ftp:
        ftp.put("robots.txt", b"user-agent: *\ndisallow: /pub/secret\n")
        client = make_client()
        base = f"ftp://127.0.0.1:{ftp.port}"
        assert client.allowed(base + "/pub/file", "bot")
        result = client.check(base + "/pub/secret/x", "bot")
        assert not result.allowed and result.line == 2 and result.state.status == 200


# -- F2-F5 through the client --------------------------------------------------------------------------------------

def test_check_says_why_with_line_status_cache_state_and_age(server, make_client, clock):
    """F2, C1, DESIGN 5: the decision plus where it came from and how old the copy is."""
    serve(server)
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/private/x"
    first = client.check(url, "bot")
    assert (first.allowed, first.line, first.state.status, first.state.kind, first.state.cache) == (False, 2, 200, "rules", "miss")
    assert first.decision is not None and first.decision.rule.value == "/private"
    clock.advance(3600)
    again = client.check(url, "bot")
    assert (again.state.cache, again.state.age) == ("hit", 3600)
    assert "line 2" in again.explain() and "cached 60 min ago" in again.explain()


@pytest.mark.parametrize("status", [401, 403, 404, 410])
def test_4xx_allows_everything_and_is_cached(server, make_client, status):
    """F4: no valid robots.txt, full allow; cached like a good answer (C1)."""
    serve(server, b"user-agent: *\ndisallow: /\n", status=status)
    client = make_client()
    result = client.check(f"http://127.0.0.1:{server.port}/anything", "bot")
    assert (result.allowed, result.line, result.decision, result.state.kind) == (True, 0, None, "allow")
    client.allowed(f"http://127.0.0.1:{server.port}/other", "bot")
    assert server.hits("/robots.txt") == 1


@pytest.mark.parametrize("status", [500, 503, 429])
def test_server_errors_disallow_everything_and_are_retried_after_the_backoff(server, make_client, clock, status):
    """F5: full disallow; retried after the back-off (sooner for 503), not on every check."""
    serve(server, b"", status=status)
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/page"
    result = client.check(url, "bot")
    assert (result.allowed, result.state.kind, result.state.status, result.state.failures) == (False, "disallow", status, 1)
    client.allowed(url, "bot")
    assert server.hits("/robots.txt") == 1
    clock.advance(Policy().retry_after_error if status == 500 else Policy().retry_after_503)
    assert not client.allowed(url, "bot")
    assert server.hits("/robots.txt") == 2


def test_a_dead_server_is_full_disallow(make_client):
    """F8: connection refused is a server error."""
    from tests.servers.http import free_port

    result = make_client().check(f"http://127.0.0.1:{free_port()}/x", "bot")
    assert (result.allowed, result.state.status, result.state.kind) == (False, 0, "disallow")
    assert (result.state.why.code, result.state.why.failure, result.state.why.decides) == ("network", "connect",
                                                                                          "disallow")


# -- C1-C4 -----------------------------------------------------------------------------------------------------

def test_the_copy_is_refetched_after_24_hours(server, make_client, clock):
    """C1: cached for up to 24 hours, then fetched again."""
    serve(server)
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/x"
    client.allowed(url, "bot")
    clock.advance(DAY - 1)
    client.allowed(url, "bot")
    assert server.hits("/robots.txt") == 1
    clock.advance(1)
    client.allowed(url, "bot")
    assert server.hits("/robots.txt") == 2


def test_cache_control_max_age_shortens_the_lifetime(server, make_client, clock):
    """C4: max-age=600 means a refetch after ten minutes."""
    serve(server, headers={"Cache-Control": "max-age=600"})
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/x"
    client.allowed(url, "bot")
    clock.advance(599)
    client.allowed(url, "bot")
    assert server.hits("/robots.txt") == 1
    clock.advance(1)
    client.allowed(url, "bot")
    assert server.hits("/robots.txt") == 2


def test_a_failed_refresh_keeps_the_good_copy(server, make_client, clock):
    """C2: after 24 h the refresh gets a 503: the cached rules still decide."""
    serve(server)
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/private/x"
    assert not client.allowed(url, "bot")
    serve(server, b"", status=503)
    clock.advance(DAY)
    result = client.check(url, "bot")
    assert server.hits("/robots.txt") == 2
    assert (result.allowed, result.line, result.state.kind, result.state.status) == (False, 2, "rules", 200)
    assert result.state.failures == 1 and result.state.why.decides == "good-copy"
    assert client.allowed(f"http://127.0.0.1:{server.port}/public", "bot")


def test_agents_share_one_cached_copy_and_clients_share_one_store(server, make_client):
    """C3: the cache is keyed by robots.txt URL, shared by every user agent and every client on the store."""
    serve(server)
    store = MemoryStore()
    one, two = make_client(store), make_client(store)
    url = f"http://127.0.0.1:{server.port}/x"
    assert one.allowed(url, "bot") and not one.allowed(url, "slowbot")
    assert two.allowed(url, "otherbot") and not two.allowed(url, ["googlebot", "slowbot"])
    assert server.hits("/robots.txt") == 1


# -- refresh, invalidate, extensions ---------------------------------------------------------------------------

def test_refresh_fetches_now_and_invalidate_forgets(server, make_client):
    """C1: refresh() ignores a fresh copy; invalidate() drops it here and in the store."""
    serve(server)
    store = MemoryStore()
    client = make_client(store)
    url = f"http://127.0.0.1:{server.port}/x"
    client.allowed(url, "bot")
    state = client.refresh(url)
    assert (state.cache, server.hits("/robots.txt")) == ("miss", 2)
    client.invalidate(url)
    assert store.get(client.robots_url(url)) is None
    client.allowed(url, "bot")
    assert server.hits("/robots.txt") == 3


def test_crawl_delay_and_sitemaps_come_from_the_governing_file(server, make_client):
    """N1, N2 through the client: per agent crawl-delay, file-wide sitemaps."""
    serve(server)
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/x"
    assert client.crawl_delay(url, "bot") == 2.5
    assert client.crawl_delay(url, "slowbot") is None
    assert client.sitemaps(url) == ["https://example.com/sitemap.xml"]
    assert server.hits("/robots.txt") == 1


def test_full_allow_or_disallow_has_no_sitemaps_or_crawl_delay(server, make_client):
    """F4: with no robots.txt there is nothing to read."""
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/x"  # default route: 404
    assert client.sitemaps(url) == [] and client.crawl_delay(url, "bot") is None


def test_the_fetch_user_agent_is_configurable(server, make_client):
    """F1: robots.txt requests say who fetches them."""
    serve(server)
    make_client(user_agent="ExampleCrawler/2.0 (+https://crawler.example)").allowed(f"http://127.0.0.1:{server.port}/", "bot")
    assert server.requests[0].headers["user-agent"] == "ExampleCrawler/2.0 (+https://crawler.example)"


def test_the_parse_mode_is_a_client_setting(server, make_client):
    """Modes: an RFC 9309 client normalises percent-encoding before matching (R3), Google's does not."""
    serve(server, b"user-agent: *\ndisallow: /caf%C3%A9\n")
    url = f"http://127.0.0.1:{server.port}/caf%c3%a9"
    assert make_client(mode="google").allowed(url, "bot")
    assert not make_client(mode="rfc9309").allowed(url, "bot")


def test_the_in_process_cache_is_bounded_and_the_store_refills_it(server, make_client):
    """C1: parsed files beyond cache_size are dropped from memory; the store still has them."""
    serve(server)
    client = make_client(cache_size=1)
    client.allowed(f"http://127.0.0.1:{server.port}/", "bot")
    client.allowed(f"http://localhost:{server.port}/", "bot")
    state = client.robots(f"http://127.0.0.1:{server.port}/")
    assert state.cache == "hit" and server.hits("/robots.txt") == 2


def test_a_callers_httpx_client_is_used_and_left_open(server):
    """The caller may pass its own httpx client; the robotrules client does not close it."""
    serve(server)
    seen = []
    with httpx.Client(event_hooks={"request": [seen.append]}) as http:
        with RobotsClient(http_client=http) as client:
            assert client.allowed(f"http://127.0.0.1:{server.port}/", "bot")
        assert len(seen) == 1 and not http.is_closed


def test_a_failing_store_is_bypassed_with_a_warning(server, caplog):
    """C2 spirit: a cache outage never fails the crawl; the client fetches and logs."""
    from robotrules import RedisStore
    from tests.servers.http import free_port

    serve(server)
    store = RedisStore(f"redis://127.0.0.1:{free_port()}/0")
    with caplog.at_level(logging.WARNING, logger="robotrules"), RobotsClient(store) as client:
        assert not client.allowed(f"http://127.0.0.1:{server.port}/private", "bot")
        assert client.allowed(f"http://127.0.0.1:{server.port}/public", "bot")
    assert server.hits("/robots.txt") == 1
    assert any("store" in r.message for r in caplog.records)
    store.close()


def test_slow_robots_txt_is_fetched_once_for_concurrent_callers_in_a_process(server):
    """C1 single flight: 100 threads asking about one uncached host cause one fetch."""
    from concurrent.futures import ThreadPoolExecutor

    server.route("/robots.txt", delayed(0.3, respond(200, RULES)))
    client = RobotsClient(policy=Policy(fetch_timeout=5.0))
    url = f"http://127.0.0.1:{server.port}/private"
    with ThreadPoolExecutor(100) as pool:
        answers = list(pool.map(lambda _: client.allowed(url, "bot"), range(100)))
    assert answers == [False] * 100 and server.hits("/robots.txt") == 1
    client.close()
