"""Drivers of :mod:`robotrules.core.policy` over the network: the only code that does fetch I/O.

A driver asks the policy what to request, sends it through the transport for the URL's scheme
(httpx for http and https, ftplib for ftp, S5), hands back what happened with the time, and
repeats until the policy returns an :class:`~robotrules.core.policy.Entry`. The loop is the
same for both drivers; only the ``await`` differs. ``policy.fetch_timeout`` bounds the whole
attempt, redirects and probes included.

``run(step, clock)`` carries out an attempt the policy has begun (the client asks
:func:`~robotrules.core.policy.begin` itself, so that freshness is decided once);
``fetch(robots_url, cached, clock, force=...)`` is ``begin`` and ``run`` together. Neither
decides freshness: :func:`~robotrules.core.policy.begin` does.

Redirects the drivers do not follow, whatever the policy says (issue #8): a ``Location`` with
userinfo (``http://user:pass@host/``) is never requested, with or without an address policy;
with one (``Policy(public_addresses_only=True)`` or an explicit ``addresses``, see
:mod:`robotrules.fetch.addresses`) neither is a hop to a refused address, over HTTP(S) or FTP.
Both are handed to the policy as ``Failure("redirect", why)``: a redirect that cannot be
followed, a 404 (F3), whose reason says why. The robots.txt URL itself resolving to a refused
address raises :class:`~robotrules.errors.BlockedAddress` before any request: nothing is
fetched, nothing is cached.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from robotrules._version import __version__
from robotrules.core.policy import Entry, Failure, Fetch, Policy, Response, begin
from robotrules.errors import BlockedAddress, InvalidURL
from robotrules.fetch.addresses import AddressPolicy

__all__ = ["DEFAULT_USER_AGENT", "AddressPolicy", "AsyncFetcher", "Fetcher"]

DEFAULT_USER_AGENT = f"robotrules/{__version__} (robots.txt fetcher; +https://pypi.org/project/robotrules/)"
"""What robots.txt requests say they are, unless the client is given another ``user_agent``."""

Clock = Callable[[], float]


def _first(fetch: Fetch) -> bool:
    """Whether ``fetch`` requests the robots.txt URL itself (no redirect followed yet, not an F7 probe)."""
    return fetch.purpose == "robots" and len(fetch.chain) <= 1


def _unfollowable(fetch: Fetch) -> tuple[Fetch, Failure | None]:
    """A redirect to a URL with userinfo is never requested: the hop (credentials removed) and why; else ``fetch`` and None.

    The credentials are dropped from the URL the entry records (``final_url``), so they are
    not written to a shared store.
    """
    try:
        parts = urlsplit(fetch.url)
    except ValueError:
        return fetch, None  # the transport reports what it cannot parse
    if "@" not in parts.netloc:
        return fetch, None
    bare = parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()
    if _first(fetch):
        raise InvalidURL(f"a robots.txt URL with userinfo is not fetched: {bare}")
    return replace(fetch, url=bare), Failure("redirect", f"a Location with userinfo is never followed: {bare}")


def _refused(fetch: Fetch, exc: BlockedAddress) -> Failure:
    """A hop the address policy refused: a redirect that cannot be followed (F3); a refused probe failed (F7)."""
    return Failure("redirect" if fetch.purpose == "robots" else "other", str(exc))


def _addresses(policy: Policy, addresses: AddressPolicy | None) -> AddressPolicy | None:
    return addresses if addresses is not None else AddressPolicy() if policy.public_addresses_only else None


class Fetcher:
    """Fetches robots.txt files synchronously (a ``httpx.Client`` may be passed in and is not closed).

    ``addresses``: the :class:`~robotrules.fetch.addresses.AddressPolicy` that checks every
    connection; by default one refusing non-public addresses when
    ``policy.public_addresses_only``, else none. It cannot be combined with ``http_client``
    (``ValueError``); an ``httpx.AsyncClient`` as ``http_client`` is a ``TypeError``.
    """

    def __init__(self, http_client: Any = None, *, user_agent: str = DEFAULT_USER_AGENT, policy: Policy | None = None,
                 addresses: AddressPolicy | None = None) -> None:
        from robotrules.fetch.ftp import FtpTransport
        from robotrules.fetch.http import HttpTransport

        self.policy = policy or Policy()
        self.addresses = _addresses(self.policy, addresses)
        self.http = HttpTransport(http_client, user_agent=user_agent, addresses=self.addresses)
        self.ftp = FtpTransport(user_agent=user_agent, addresses=self.addresses)

    def send(self, fetch: Fetch, deadline: float) -> Response | Failure:
        """One request, by the transport for its scheme; ``BlockedAddress`` for a refused robots.txt URL."""
        transport = self.ftp if fetch.url[:4].lower() == "ftp:" else self.http
        try:
            return transport.send(fetch, deadline)
        except BlockedAddress as exc:
            if _first(fetch):
                raise
            return _refused(fetch, exc)

    def fetch(self, robots_url: str, cached: Entry | None, clock: Clock, *, force: bool = False) -> Entry:
        """The entry for ``robots_url``: ``cached`` while the policy finds it fresh (unless ``force``), else fetched (F1-F8)."""
        step = begin(robots_url, cached, clock(), self.policy, force=force)
        return self.run(step, clock) if isinstance(step, Fetch) else step

    def run(self, step: Fetch, clock: Clock) -> Entry:
        """Carry out the attempt ``step`` begins, within ``policy.fetch_timeout``: the entry it ends with."""
        deadline = time.monotonic() + self.policy.fetch_timeout
        result: Fetch | Entry = step
        while isinstance(result, Fetch):
            hop, refused = _unfollowable(result)
            result = hop.apply(refused if refused is not None else self.send(hop, deadline), clock())
        return result

    def close(self) -> None:
        self.http.close()


class AsyncFetcher:
    """Fetches robots.txt files on an event loop (a ``httpx.AsyncClient`` may be passed in); as :class:`Fetcher`."""

    def __init__(self, http_client: Any = None, *, user_agent: str = DEFAULT_USER_AGENT, policy: Policy | None = None,
                 addresses: AddressPolicy | None = None) -> None:
        from robotrules.fetch.ftp import FtpTransport
        from robotrules.fetch.http import AsyncHttpTransport

        self.policy = policy or Policy()
        self.addresses = _addresses(self.policy, addresses)
        self.http = AsyncHttpTransport(http_client, user_agent=user_agent, addresses=self.addresses)
        self.ftp = FtpTransport(user_agent=user_agent, addresses=self.addresses)

    async def send(self, fetch: Fetch, deadline: float) -> Response | Failure:
        """One request; FTP runs in a worker thread. As :meth:`Fetcher.send`."""
        try:
            if fetch.url[:4].lower() == "ftp:":
                import anyio.to_thread

                return await anyio.to_thread.run_sync(self.ftp.send, fetch, deadline)
            return await self.http.send(fetch, deadline)
        except BlockedAddress as exc:
            if _first(fetch):
                raise
            return _refused(fetch, exc)

    async def fetch(self, robots_url: str, cached: Entry | None, clock: Clock, *, force: bool = False) -> Entry:
        """As :meth:`Fetcher.fetch`."""
        step = begin(robots_url, cached, clock(), self.policy, force=force)
        return await self.run(step, clock) if isinstance(step, Fetch) else step

    async def run(self, step: Fetch, clock: Clock) -> Entry:
        """As :meth:`Fetcher.run`."""
        deadline = time.monotonic() + self.policy.fetch_timeout
        result: Fetch | Entry = step
        while isinstance(result, Fetch):
            hop, refused = _unfollowable(result)
            result = hop.apply(refused if refused is not None else await self.send(hop, deadline), clock())
        return result

    async def aclose(self) -> None:
        await self.http.aclose()
