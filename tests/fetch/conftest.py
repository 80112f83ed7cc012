"""Fixtures for the fetch adapter tests: real servers on 127.0.0.1, a fake clock, and ``fetch``.

``fetch`` is parametrized over the sync :class:`~robotrules.fetch.Fetcher` and the async
:class:`~robotrules.fetch.AsyncFetcher` (run on a fresh asyncio loop), so every behaviour is
pinned for both drivers. Its default policy bounds every attempt at 5 s, so that no test can
hang even if a driver misbehaves; tests of slow servers pass a policy with a 1 s deadline.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import anyio
import pytest

from robotrules.core.policy import Entry, Policy
from robotrules.fetch import AsyncFetcher, Fetcher
from tests.servers.clock import FakeClock
from tests.servers.ftp import FTPServer
from tests.servers.http import HTTPServer

NOW = 1_000_000_000.0
DAY = 86_400.0
TEST_POLICY = Policy(fetch_timeout=5.0)
"""Google's defaults, except a 5 s bound on every attempt (no test may hang)."""




class Run:
    """One fetch per call with a fresh fetcher of the given ``mode`` ("sync" or "async")."""

    def __init__(self, mode: str, clock: FakeClock) -> None:
        self.mode = mode
        self.clock = clock

    def __call__(
        self,
        url: str,
        cached: Entry | None = None,
        *,
        force: bool = False,
        policy: Policy | None = None,
        user_agent: str | None = None,
        addresses: Any = None,
    ) -> Entry:
        kwargs: dict[str, Any] = {"policy": policy or TEST_POLICY}
        if user_agent is not None:
            kwargs["user_agent"] = user_agent
        if addresses is not None:  # an AddressPolicy (robotrules.fetch.addresses)
            kwargs["addresses"] = addresses
        if self.mode == "sync":
            fetcher = Fetcher(**kwargs)
            try:
                return fetcher.fetch(url, cached, self.clock, force=force)
            finally:
                fetcher.close()

        async def go() -> Entry:
            afetcher = AsyncFetcher(**kwargs)
            try:
                return await afetcher.fetch(url, cached, self.clock, force=force)
            finally:
                await afetcher.aclose()

        return anyio.run(go, backend="asyncio")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(NOW)


@pytest.fixture(params=["sync", "async"])
def fetch(request: pytest.FixtureRequest, clock: FakeClock) -> Run:
    return Run(request.param, clock)


@pytest.fixture
def server() -> Iterator[HTTPServer]:
    with HTTPServer() as srv:
        yield srv


@pytest.fixture
def other_server() -> Iterator[HTTPServer]:
    """A second origin (another port), for cross-host redirects."""
    with HTTPServer() as srv:
        yield srv


@pytest.fixture
def ftp_server(tmp_path: Any) -> Iterator[FTPServer]:
    with FTPServer(tmp_path / "ftp-root") as srv:
        yield srv
