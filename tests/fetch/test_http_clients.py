"""Callers' httpx clients: bodies already in memory, clients of the wrong kind, bugs that are not outages (issue #8; F2, F8, F9).

Mock transports (``httpx.MockTransport``, respx) answer with the body already read; the fetcher
reads it from memory. Only network and protocol trouble is a site failure (F8): any other
exception raised while fetching (a bug in a transport or a hook) reaches the caller and is
never cached as an outage.
"""

from __future__ import annotations

from collections.abc import Callable

import anyio
import httpx
import pytest

from robotrules import MemoryStore, RobotsClient
from robotrules.core.policy import Entry, Policy, standing
from robotrules.fetch import AsyncFetcher, Fetcher
from tests.servers.http import gzip_bytes, pattern

from .conftest import NOW, TEST_POLICY, FakeClock

ROBOTS = b"User-agent: *\nDisallow: /private\n"
URL = "http://robots.example/robots.txt"  # never resolved: every request ends in the mock transport

Handler = Callable[[httpx.Request], httpx.Response]


def fetch_with(handler: Handler, mode: str, clock: FakeClock, policy: Policy = TEST_POLICY) -> Entry:
    """Fetch ``URL`` through an httpx client (sync or async) whose transport is ``handler``."""
    if mode == "sync":
        with httpx.Client(transport=httpx.MockTransport(handler)) as client:
            fetcher = Fetcher(client, policy=policy)
            return fetcher.fetch(URL, None, clock)

    async def go() -> Entry:
        async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
            fetcher = AsyncFetcher(client, policy=policy)
            return await fetcher.fetch(URL, None, clock)

    return anyio.run(go)


@pytest.fixture(params=["sync", "async"])
def mode(request: pytest.FixtureRequest) -> str:
    return str(request.param)


# -- bodies already in memory -----------------------------------------------------------------
def test_a_response_already_in_memory_is_read(mode: str, clock: FakeClock) -> None:
    """F2: a mock answering with content= (its body already read) gives the rules, not a failure."""
    entry = fetch_with(lambda request: httpx.Response(200, content=ROBOTS), mode, clock)
    assert (entry.outcome, entry.status, entry.body) == ("rules", 200, ROBOTS)
    assert standing(entry, NOW, TEST_POLICY).kind == "rules"


def test_a_response_in_memory_is_still_cut_at_the_size_limit(mode: str, clock: FakeClock) -> None:
    """F9: a body already in memory counts up to the limit like a streamed one."""
    entry = fetch_with(lambda request: httpx.Response(200, content=pattern(600_000)), mode, clock)
    assert entry.body == pattern(512_000)
    small = fetch_with(lambda request: httpx.Response(200, content=ROBOTS), mode, clock, Policy(fetch_timeout=5.0, size_limit=10))
    assert small.body == ROBOTS[:10]


def test_a_compressed_response_in_memory_is_decoded_once(mode: str, clock: FakeClock) -> None:
    """F2: httpx decodes a body it read itself; the fetcher takes it as it is, not decoding it twice."""
    answer = httpx.Response(200, content=gzip_bytes(ROBOTS), headers={"Content-Encoding": "gzip"})
    entry = fetch_with(lambda request: answer, mode, clock)
    assert (entry.outcome, entry.body) == ("rules", ROBOTS)


def test_redirects_and_statuses_from_a_mock_are_followed_by_the_policy(mode: str, clock: FakeClock) -> None:
    """F3, F4: a mock's redirect is followed by the policy, and its 404 is a full allow."""

    def handler(request: httpx.Request) -> httpx.Response:
        if request.url.path == "/robots.txt":
            return httpx.Response(301, headers={"Location": "/moved.txt"})
        return httpx.Response(404, content=b"not here")

    entry = fetch_with(handler, mode, clock)
    assert (entry.outcome, entry.status, entry.final_url) == ("allow", 404, "http://robots.example/moved.txt")


# -- clients of the wrong kind ------------------------------------------------------------------
def test_an_async_client_given_to_the_sync_fetcher_is_a_type_error() -> None:
    """F8 is for networks, not for misuse: an httpx.AsyncClient in the blocking fetcher fails at construction, clearly."""

    async def go() -> None:
        async with httpx.AsyncClient() as client:
            with pytest.raises(TypeError, match=r"httpx\.Client, not httpx\.AsyncClient"):
                Fetcher(client)
            with pytest.raises(TypeError, match=r"httpx\.Client, not httpx\.AsyncClient"):
                RobotsClient(http_client=client)

    anyio.run(go)


def test_a_sync_client_given_to_the_async_fetcher_is_a_type_error() -> None:
    """F8 is for networks, not for misuse: an httpx.Client in the async fetcher fails at construction."""
    with httpx.Client() as client:
        with pytest.raises(TypeError, match=r"httpx\.AsyncClient, not httpx\.Client"):
            AsyncFetcher(client)
        with pytest.raises(TypeError, match="must be an httpx"):
            Fetcher(object())


# -- programming errors are not outages -------------------------------------------------------
@pytest.mark.parametrize("error", [RuntimeError("bug in a transport"), AttributeError("'NoneType' object has no attribute 'x'")])
def test_a_programming_error_in_a_fetch_propagates(mode: str, clock: FakeClock, error: Exception) -> None:
    """F8: only network and protocol failures are answers; a bug raised by the transport reaches the caller, no entry made."""

    def handler(request: httpx.Request) -> httpx.Response:
        raise error

    with pytest.raises(type(error), match=str(error)[:10]):
        fetch_with(handler, mode, clock)


def test_a_programming_error_is_not_cached_as_an_outage(clock: FakeClock) -> None:
    """F8, C2: through the client, the bug is raised to the caller and nothing is written to the store."""

    def handler(request: httpx.Request) -> httpx.Response:
        raise RuntimeError("bug in a transport")

    store = MemoryStore()
    with httpx.Client(transport=httpx.MockTransport(handler)) as http, RobotsClient(store, http_client=http, clock=clock) as client:
        with pytest.raises(RuntimeError, match="bug in a transport"):
            client.allowed("http://robots.example/page", "bot")
        assert store.get(URL) is None


def test_network_errors_from_a_mock_transport_are_still_failures(mode: str, clock: FakeClock) -> None:
    """F8: httpx's own network errors (here a ConnectError raised by the mock) are failures: full disallow."""

    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("connection refused", request=request)

    entry = fetch_with(handler, mode, clock)
    assert (entry.outcome, entry.status) == ("error", 0)
    assert entry.reason.startswith("connect error"), entry.reason


def test_a_body_that_cannot_be_decoded_is_a_protocol_failure(mode: str, clock: FakeClock) -> None:
    """F8: a streamed body that is not the gzip it claims to be is an invalid response, a failure, not a raised error."""

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"Content-Encoding": "gzip"}, stream=httpx.ByteStream(b"not gzip at all"))

    entry = fetch_with(handler, mode, clock)
    assert (entry.outcome, entry.status) == ("error", 0)
    assert entry.reason.startswith("protocol error"), entry.reason
