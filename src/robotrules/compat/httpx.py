"""httpx transports that obey robots.txt: a request its robots.txt disallows is never sent.

::

    client = httpx.Client(transport=RobotsTransport(user_agent="FooBot/1.0"))
    client.get("https://example.com/private/x")  # RobotsDisallowedError, nothing sent
    client.get("https://example.com/")            # sent as it is, answered as it is

:class:`RobotsTransport` (for ``httpx.Client``) and :class:`AsyncRobotsTransport` (for
``httpx.AsyncClient``) wrap an inner transport (httpx's own by default). Before each request they
ask a :class:`~robotrules.RobotsClient` (or :class:`~robotrules.AsyncRobotsClient`) whether the
agent may fetch the URL, with all of robotrules' fetch and cache rules (status codes, redirects,
outages, a shared store: F1-F8, C1-C4); an allowed request goes to the inner transport as the
very same object, and its response comes back untouched. A refused one raises
:class:`RobotsDisallowedError` (a :class:`~robotrules.errors.RobotsDisallowed` and an
``httpx.RequestError``) naming the robots.txt URL and the deciding line. Each redirect hop the
client follows is a request of its own, so it is checked too.

Unchecked: requests for a robots.txt itself (S3), and schemes other than http and https (no
robots.txt governs them here). The agent matched is the product token (RFC 9309 2.2.1) of
``user_agent`` when given, else of the request's ``User-Agent`` header, else of the robots
client's own ``user_agent``.

The robots.txt files are fetched through the inner transport (so its proxy, TLS and retry
settings apply to them as well), by a client of their own, never through the guard itself; with
``Policy(public_addresses_only=True)`` they are fetched by robotrules' own HTTP client instead,
which is the one that can check addresses. ``close()`` / ``aclose()`` close the inner
transport and the robots client the transport made, not one passed in.

httpx is the ``http`` extra; without it this module raises :class:`~robotrules.errors.MissingExtra`.
"""

from __future__ import annotations

from typing import Any

from robotrules.answers import CheckResult
from robotrules.cache.base import Store
from robotrules.client import AsyncRobotsClient, RobotsClient
from robotrules.core.policy import Policy
from robotrules.core.urls import is_robots_url
from robotrules.errors import RobotsDisallowed, require
from robotrules.fetch import DEFAULT_USER_AGENT

try:
    import httpx
except ImportError:  # pragma: no cover - the test environment has httpx
    require("httpx", "http")  # raises MissingExtra, naming the extra
    raise

__all__ = ["AsyncRobotsTransport", "RobotsDisallowedError", "RobotsTransport"]

_GUARDED_SCHEMES = ("http", "https")
"""The schemes whose requests are checked; any other passes to the inner transport unchecked."""


class RobotsDisallowedError(RobotsDisallowed, httpx.RequestError):
    """A request refused by :class:`RobotsTransport` or :class:`AsyncRobotsTransport`.

    Both a :class:`~robotrules.errors.RobotsDisallowed` (``url``, ``agent``, ``token``,
    ``robots_url``, ``line``, ``text``, ``reason``) and an ``httpx.RequestError`` (``request``),
    so code that handles ``httpx.HTTPError`` handles it too. Not an ``httpx.TransportError``:
    nothing went wrong on the network, and retrying would not help.
    """

    def __init__(self, url: str, robots_url: str, agent: str, token: str, line: int = 0, text: str = "",
                 reason: str = "", *, request: httpx.Request | None = None) -> None:
        super().__init__(url, robots_url, agent, token, line, text, reason)
        if request is not None:
            self.request = request


def _question(url: str, header: str | None, user_agent: str | None) -> tuple[str, str | None] | None:
    """The URL and agent a guard asks about for a request, or None: the request passes unchecked.

    ``url`` is the request's URL as sent (absolute, percent-encoded); ``header`` its User-Agent
    header (None: none); ``user_agent`` the guard's configured agent. Unchecked: schemes other
    than http and https, and a robots.txt URL itself (S3). The agent is ``user_agent`` when
    configured, else a non-blank ``header``, else None (the robots client's own ``user_agent``).
    Shared by the httpx transports and the requests adapter.
    """
    scheme = url[: url.find(":")].lower() if ":" in url else ""
    if scheme not in _GUARDED_SCHEMES or is_robots_url(url):
        return None
    if user_agent is not None:
        return url, user_agent
    return url, header if header and header.strip() else None


def _checked_agent(user_agent: object) -> str | None:
    """``user_agent`` as a guard takes it: None, or a non-blank ``str`` (else a clear error)."""
    if user_agent is None:
        return None
    if not isinstance(user_agent, str):
        raise TypeError(f"user_agent must be a str (a product token or a User-Agent header), not {type(user_agent).__name__}")
    if not user_agent.strip():
        raise ValueError("user_agent is blank: give the crawler's name, e.g. 'FooBot/1.0', or None to use each "
                         "request's User-Agent header")
    return user_agent


def _own_options(user_agent: str | None, client: object, store: Store | None, policy: Policy | None) -> dict[str, Any]:
    """The arguments of the robots client a guard makes for itself (``client`` None), checked.

    A guard given its own ``client`` takes no ``store`` or ``policy`` (they are the client's):
    passing both is a ``ValueError`` rather than a setting silently ignored.
    """
    if client is not None:
        if store is not None or policy is not None:
            raise ValueError("pass either client= or store=/policy= (they configure the client you pass), not both")
        return {}
    return {"store": store, "user_agent": user_agent or DEFAULT_USER_AGENT, "policy": policy}


def _refusal(result: CheckResult, url: str, agent: str | None, default: str, **extra: Any) -> RobotsDisallowedError:
    """The error for a check that disallowed ``url``; ``agent`` None means the robots client's own (``default``)."""
    return RobotsDisallowedError.from_check(result, url, agent if agent is not None else default, **extra)


class _Lent(httpx.BaseTransport):
    """The inner transport as the robots client sees it: requests go through; closing is the guard's."""

    def __init__(self, inner: httpx.BaseTransport) -> None:
        self.inner = inner

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        return self.inner.handle_request(request)

    def close(self) -> None:
        """Nothing: the guard closes the inner transport."""


class _AsyncLent(httpx.AsyncBaseTransport):
    """As :class:`_Lent`, for the async transport."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        """Nothing: the guard closes the inner transport."""


class RobotsTransport(httpx.BaseTransport):
    """An httpx transport that refuses requests the governing robots.txt disallows (see the module).

    ``transport``: the inner transport that sends allowed requests and the robots.txt fetches
    (default ``httpx.HTTPTransport()``; give one of your own for proxies, TLS or retries).
    ``user_agent``: the agent to check, a product token or a whole User-Agent header, matched
    on its product token; None: each request's own User-Agent header. ``client``: a
    :class:`~robotrules.RobotsClient` to ask (not closed by :meth:`close`); else one is made
    with ``store`` (default a new :class:`~robotrules.MemoryStore`; pass an
    :class:`~robotrules.SQLiteStore` or :class:`~robotrules.RedisStore` to share the cache
    between clients and processes), ``policy`` and ``user_agent`` as the robots.txt requests'
    User-Agent header. Thread-safe, as ``httpx.Client`` is.
    """

    def __init__(self, transport: httpx.BaseTransport | None = None, *, user_agent: str | None = None,
                 client: RobotsClient | None = None, store: Store | None = None, policy: Policy | None = None) -> None:
        self.user_agent = _checked_agent(user_agent)
        options = _own_options(self.user_agent, client, store, policy)
        self.transport: httpx.BaseTransport = transport if transport is not None else httpx.HTTPTransport()
        self._http: httpx.Client | None = None
        self._owns_robots = client is None
        if client is None:
            if policy is None or not policy.public_addresses_only:
                self._http = httpx.Client(transport=_Lent(self.transport), trust_env=False)
            client = RobotsClient(http_client=self._http, **options)
        self.robots: RobotsClient = client

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        """Send ``request`` through the inner transport if robots.txt allows it; else :class:`RobotsDisallowedError`."""
        asked = _question(str(request.url), request.headers.get("user-agent"), self.user_agent)
        if asked is not None:
            url, agent = asked
            result = self.robots.check(url, agent)
            if not result.allowed:
                raise _refusal(result, url, agent, self.robots.user_agent, request=request)
        return self.transport.handle_request(request)

    def close(self) -> None:
        """Close the inner transport, and the robots client if this transport made it."""
        try:
            if self._owns_robots:
                self.robots.close()
            if self._http is not None:
                self._http.close()
        finally:
            self.transport.close()


class AsyncRobotsTransport(httpx.AsyncBaseTransport):
    """:class:`RobotsTransport` for ``httpx.AsyncClient`` (asyncio or trio), with an
    :class:`~robotrules.AsyncRobotsClient`; default inner transport ``httpx.AsyncHTTPTransport()``."""

    def __init__(self, transport: httpx.AsyncBaseTransport | None = None, *, user_agent: str | None = None,
                 client: AsyncRobotsClient | None = None, store: Store | None = None,
                 policy: Policy | None = None) -> None:
        self.user_agent = _checked_agent(user_agent)
        options = _own_options(self.user_agent, client, store, policy)
        self.transport: httpx.AsyncBaseTransport = transport if transport is not None else httpx.AsyncHTTPTransport()
        self._http: httpx.AsyncClient | None = None
        self._owns_robots = client is None
        if client is None:
            if policy is None or not policy.public_addresses_only:
                self._http = httpx.AsyncClient(transport=_AsyncLent(self.transport), trust_env=False)
            client = AsyncRobotsClient(http_client=self._http, **options)
        self.robots: AsyncRobotsClient = client

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        """As :meth:`RobotsTransport.handle_request`, awaiting."""
        asked = _question(str(request.url), request.headers.get("user-agent"), self.user_agent)
        if asked is not None:
            url, agent = asked
            result = await self.robots.check(url, agent)
            if not result.allowed:
                raise _refusal(result, url, agent, self.robots.user_agent, request=request)
        return await self.transport.handle_async_request(request)

    async def aclose(self) -> None:
        """Close the inner transport, and the robots client if this transport made it."""
        try:
            if self._owns_robots:
                await self.robots.aclose()
            if self._http is not None:
                await self._http.aclose()
        finally:
            await self.transport.aclose()
