"""Drivers of :mod:`robotrules.core.policy` over the network: the only code that does fetch I/O.

A driver asks the policy what to request, sends it through the transport for the URL's scheme
(httpx for http and https, ftplib for ftp, S5), hands back what happened with the time, and
repeats until the policy returns an :class:`~robotrules.core.policy.Entry`. The loop is the
same for both drivers; only the ``await`` differs. ``policy.fetch_timeout`` bounds the whole
attempt, redirects and probes included.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from robotrules.core.policy import Entry, Failure, Fetch, Policy, Response, begin

__all__ = ["DEFAULT_USER_AGENT", "AsyncFetcher", "Fetcher"]

DEFAULT_USER_AGENT = "robotrules/0.1 (robots.txt fetcher; +https://pypi.org/project/robotrules/)"
"""What robots.txt requests say they are, unless the client is given another ``user_agent``."""

Clock = Callable[[], float]


class Fetcher:
    """Fetches robots.txt files synchronously (a ``httpx.Client`` may be passed in and is not closed)."""

    def __init__(self, http_client: Any = None, *, user_agent: str = DEFAULT_USER_AGENT, policy: Policy | None = None) -> None:
        from robotrules.fetch.ftp import FtpTransport
        from robotrules.fetch.http import HttpTransport

        self.policy = policy or Policy()
        self.http = HttpTransport(http_client, user_agent=user_agent)
        self.ftp = FtpTransport(user_agent=user_agent)

    def send(self, fetch: Fetch, deadline: float) -> Response | Failure:
        """One request, by the transport for its scheme."""
        transport = self.ftp if fetch.url[:4].lower() == "ftp:" else self.http
        return transport.send(fetch, deadline)

    def fetch(self, robots_url: str, cached: Entry | None, clock: Clock, *, force: bool = False) -> Entry:
        """The entry for ``robots_url``: ``cached`` while fresh (unless ``force``), else fetched (F1-F8)."""
        step = begin(robots_url, cached, clock(), self.policy, force=force)
        deadline = time.monotonic() + self.policy.fetch_timeout
        while isinstance(step, Fetch):
            step = step.apply(self.send(step, deadline), clock())
        return step

    def close(self) -> None:
        self.http.close()


class AsyncFetcher:
    """Fetches robots.txt files on an event loop (a ``httpx.AsyncClient`` may be passed in)."""

    def __init__(self, http_client: Any = None, *, user_agent: str = DEFAULT_USER_AGENT, policy: Policy | None = None) -> None:
        from robotrules.fetch.ftp import FtpTransport
        from robotrules.fetch.http import AsyncHttpTransport

        self.policy = policy or Policy()
        self.http = AsyncHttpTransport(http_client, user_agent=user_agent)
        self.ftp = FtpTransport(user_agent=user_agent)

    async def send(self, fetch: Fetch, deadline: float) -> Response | Failure:
        """One request; FTP runs in a worker thread."""
        if fetch.url[:4].lower() == "ftp:":
            import anyio.to_thread

            return await anyio.to_thread.run_sync(self.ftp.send, fetch, deadline)
        return await self.http.send(fetch, deadline)

    async def fetch(self, robots_url: str, cached: Entry | None, clock: Clock, *, force: bool = False) -> Entry:
        """As :meth:`Fetcher.fetch`."""
        step = begin(robots_url, cached, clock(), self.policy, force=force)
        deadline = time.monotonic() + self.policy.fetch_timeout
        while isinstance(step, Fetch):
            step = step.apply(await self.send(step, deadline), clock())
        return step

    async def aclose(self) -> None:
        await self.http.aclose()
