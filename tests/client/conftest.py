"""Fixtures for the client tests: a real HTTP server on 127.0.0.1, a hand-moved clock, clients.

``make_client`` builds a :class:`~robotrules.RobotsClient` or :class:`~robotrules.AsyncRobotsClient`
(parametrized) behind one blocking facade, so each behaviour is pinned for both; the async one
runs every call on its own event loop thread through an anyio blocking portal.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest
from anyio.from_thread import start_blocking_portal

from robotrules import AsyncRobotsClient, Policy, RobotsClient
from tests.cache.conftest import redis_url  # noqa: F401  (the fixture, shared)
from tests.client._stores import loopback_http
from tests.servers.clock import FakeClock
from tests.servers.http import HTTPServer

T0 = 1_700_000_000.0
DAY = 86_400.0
POLICY = Policy(fetch_timeout=5.0)  # Google's rules; a bound so no test can hang




class AsyncFacade:
    """The async client's methods, called from test code as if they were blocking."""

    def __init__(self, client: AsyncRobotsClient, portal: Any) -> None:
        self.client = client
        self.portal = portal

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.client, name)
        if not callable(attr) or name in ("robots_url",):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            return self.portal.call(functools.partial(attr, *args, **kwargs))

        return call

    def close(self) -> None:
        self.portal.call(self.client.aclose)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


@pytest.fixture
def server() -> Iterator[HTTPServer]:
    with HTTPServer() as srv:
        yield srv


@pytest.fixture(params=["sync", "async"])
def make_client(request: pytest.FixtureRequest, clock: FakeClock) -> Iterator[Any]:
    """``make_client(store=None, **kwargs)``: a client of the parametrized kind, closed afterwards.

    ``make_client.loopback(port)``: an httpx client of the same kind sending every host name to
    127.0.0.1:port (for ``http_client=``; closed afterwards).
    """
    made: list[Any] = []
    https: list[Any] = []
    with start_blocking_portal("asyncio") as portal:

        def loopback(port: int) -> Any:
            http = loopback_http(port, request.param)
            https.append(http)
            return http

        def make(store: Any = None, **kwargs: Any) -> Any:
            kwargs.setdefault("clock", clock)
            kwargs.setdefault("policy", POLICY)
            if request.param == "sync":
                client: Any = RobotsClient(store, **kwargs)
            else:
                client = AsyncFacade(portal.call(_make_async, store, kwargs), portal)
            made.append(client)
            return client

        make.kind = request.param  # type: ignore[attr-defined]
        make.loopback = loopback  # type: ignore[attr-defined]
        yield make
        for client in made:
            client.close()
        for http in https:
            if request.param == "sync":
                http.close()
            else:
                portal.call(http.aclose)


async def _make_async(store: Any, kwargs: dict[str, Any]) -> AsyncRobotsClient:
    return AsyncRobotsClient(store, **kwargs)
