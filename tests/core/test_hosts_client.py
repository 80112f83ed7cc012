"""S4 (issue #8): a URL no robots.txt can be fetched for is an InvalidURL from the clients,
before any request and with nothing cached.

Before, ``RobotsClient().check("http://a.test\\x7f/private", "bot")`` answered "allowed",
cached for 24 hours, with no request sent (httpx could not build the robots.txt URL, and that
counted as a 404), and host names over 64 KiB did the same. Here every host name goes to one
loopback server (the ``Host`` header kept), so a request that should not be made would be seen.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from robotrules import AsyncRobotsClient, InvalidURL, MemoryStore, Policy, RobotsClient
from tests.client._stores import Scripted, loopback_http
from tests.servers.http import HTTPServer, respond

POLICY = Policy(fetch_timeout=5.0)

INVALID = [
    pytest.param("http://a.test\x7f/private", id="del"),
    pytest.param(f"http://{'a' * 65537}.test/private", id="host-over-64KiB"),
    pytest.param(f"http://{'a' * 64}.test/private", id="label-64"),
    pytest.param(f"http://{'.'.join(['a' * 63] * 4)}/private", id="name-255"),
    pytest.param("http://a b.test/private", id="space"),
    pytest.param("http://a<b.test/private", id="less-than"),
    pytest.param("http://a..test/private", id="empty-label"),
    pytest.param("http://a%00b.test/private", id="escaped-nul"),
    pytest.param("http://a\u200cb.test/private", id="idna-zwnj"),
    pytest.param("http://a.test:65536/private", id="port-65536"),
    pytest.param("http://a.test:8o/private", id="port-letters"),
    pytest.param("http://[::1/private", id="ipv6-unclosed"),
    pytest.param("http://[fe80::1%25eth0]/private", id="ipv6-zone"),
    pytest.param("http://256.0.0.1/private", id="ipv4-256"),
    pytest.param("http://a.test\\@b.test/private", id="backslash"),
]


@pytest.fixture
def server() -> Iterator[HTTPServer]:
    with HTTPServer() as srv:
        srv.route("/robots.txt", respond(200, b"user-agent: *\ndisallow: /private\n"))
        yield srv


def _calls(client: Any, url: str) -> list[Any]:
    return [
        lambda: client.check(url, "bot"),
        lambda: client.allowed(url, "bot"),
        lambda: client.robots(url),
        lambda: client.crawl_delay(url, "bot"),
        lambda: client.sitemaps(url),
        lambda: client.refresh(url),
    ]


@pytest.mark.parametrize("url", INVALID)
def test_an_unfetchable_robots_txt_url_is_an_invalid_url_with_no_request_and_nothing_cached(server, url):
    """S4, issue #8 (items 1 and 8): RobotsClient raises InvalidURL before any fetch: no request
    reaches the server, the store is never written, and nothing is remembered for the URL."""
    store = Scripted(MemoryStore())
    with loopback_http(server.port) as http, RobotsClient(store, http_client=http, policy=POLICY) as client:
        for call in _calls(client, url):
            with pytest.raises(InvalidURL):
                call()
        assert client.allowed("http://ok.test/private", "bot") is False  # the harness sees requests
    assert server.hits("/robots.txt") == 1
    assert {r.headers["host"] for r in server.requests} == {"ok.test"}
    assert store.calls["put"] == 1  # the one for ok.test


@pytest.mark.parametrize("url", INVALID)
def test_the_async_client_refuses_the_same_urls_before_any_request(server, url):
    """S4, issue #8: AsyncRobotsClient raises the same InvalidURL, with no request and no write."""
    store = Scripted(MemoryStore())

    async def main() -> None:
        async with loopback_http(server.port, "async") as http, AsyncRobotsClient(
            store, http_client=http, policy=POLICY
        ) as client:
            for call in _calls(client, url):
                with pytest.raises(InvalidURL):
                    await call()

    anyio.run(main)
    assert server.hits() == 0
    assert store.calls["put"] == 0
