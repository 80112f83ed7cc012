"""One HTTP GET for the policy, over httpx, sync and async (F1, F8, F9).

Each ``send`` performs the request a :class:`~robotrules.core.policy.Fetch` asks for and returns
a :class:`~robotrules.core.policy.Response` or a :class:`~robotrules.core.policy.Failure`; it
never raises for network trouble and never follows redirects itself (the policy does, F3).
Only a 2xx body is read (F2; other statuses need none). It is read while streaming and reading
stops at the size limit (F9), compressed or not: gzip and deflate (zlib-wrapped or bare) are
decoded here with a bounded output, so a small compressed body cannot expand past the limit in
memory, and a compressed stream that ends early is incomplete data (F8). A deadline bounds the
whole attempt: the async transport cancels at it; the sync one waits for its worker thread only
until it, so a server trickling bytes cannot hold a caller past the deadline (the abandoned
worker stops at the next byte after the deadline, or at httpx's per-read timeout).

httpx resolves the ``Location`` of a redirect even when not following it, and raises when it
cannot; such a redirect is reported as ``Failure("redirect")``, which the policy treats like a
redirect without a usable ``Location`` (F3).

Only network and protocol trouble is an answer (F8): httpx's transport, decoding and URL errors,
``OSError`` (TLS and timeouts included) and a body that cannot be decoded. Any other exception
(a bug in a caller's transport or event hook, a misused client) propagates to the caller, so
that it is seen rather than cached as a site outage. A response whose body is already in memory
(``httpx.MockTransport`` or respx answering with ``content=``) is read from memory, still cut at
the limit.

With an :class:`~robotrules.fetch.addresses.AddressPolicy` the transport builds its own httpx
client whose connections are opened by :class:`_GuardedBackend` (sync) or
:class:`_AsyncGuardedBackend`: each resolves the host, lets the policy refuse it
(:class:`~robotrules.errors.BlockedAddress`, raised through httpx unchanged) and connects to
the addresses it checked, so the name is resolved once per connection and never again between
the check and the connect. The TLS server name stays the host name. The client has no proxy
(one would resolve names itself, out of the policy's reach), and a caller's client cannot be
combined with the policy (``ValueError``): its connections are out of reach too.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from concurrent.futures import Future
from typing import Any

from robotrules.core.policy import Failure, Fetch, Response
from robotrules.errors import require
from robotrules.fetch.addresses import AddressPolicy
from robotrules.fetch.body import BodyReader, InvalidBody

httpx: Any = require("httpx", "http")
httpcore: Any = require("httpcore", "http")  # installed with httpx

__all__ = ["AsyncHttpTransport", "HttpTransport"]

_ACCEPT = {"Accept": "text/plain, */*;q=0.5", "Accept-Encoding": "gzip, deflate"}
_KEPT_HEADERS = ("location", "cache-control", "retry-after", "content-type", "content-encoding")


class _BadName(Exception):
    """F8: a host name no resolver can look up (an empty or too long label): a DNS failure."""


_NETWORK_ERRORS: tuple[type[Exception], ...] = (httpx.RequestError, httpx.InvalidURL, InvalidBody, _BadName, OSError)
"""F8: what a failed fetch may raise: httpx's transport, protocol, timeout and decoding errors, a URL
httpx cannot request, a body that cannot be decoded, socket and TLS errors (``OSError``,
``TimeoutError`` included). Anything else is a bug or a refusal and propagates."""


def _headers(response: Any) -> dict[str, str]:
    return {name: response.headers[name] for name in _KEPT_HEADERS if name in response.headers}


def _failure(exc: BaseException) -> Failure:
    """F8: the kind of network failure behind an httpx exception."""
    detail = str(exc) or type(exc).__name__
    if isinstance(exc, _BadName):
        return Failure("dns", detail)
    if isinstance(exc, (httpx.InvalidURL, httpx.UnsupportedProtocol)) or (
        isinstance(exc, httpx.RemoteProtocolError) and "location header" in detail.lower()
    ):
        return Failure("redirect", detail)  # httpx could not resolve a redirect's Location (F3)
    if isinstance(exc, (InvalidBody, httpx.RemoteProtocolError, httpx.DecodingError)):
        return Failure("protocol", detail)
    if isinstance(exc, (httpx.TimeoutException, TimeoutError)):
        return Failure("timeout", detail)
    if isinstance(exc, httpx.ConnectError):
        low = detail.lower()
        if "name or service" in low or "getaddrinfo" in low or "nodename" in low or "name resolution" in low:
            return Failure("dns", detail)
        if "ssl" in low or "certificate" in low or "tls" in low:
            return Failure("tls", detail)
        return Failure("connect", detail)
    if isinstance(exc, (httpx.ReadError, httpx.WriteError, httpx.CloseError, ConnectionError)):
        return Failure("reset", detail)
    return Failure("other", detail)


def _request_args(fetch: Fetch, user_agent: str, remaining: float) -> dict[str, Any]:
    """The request for ``fetch``; a URL httpx or DNS cannot use raises here, as the network error it would become.

    httpx decodes the host (IDNA) while building the request, and the resolver encodes it
    again: either can fail with a bare ``UnicodeError`` (a label empty or over 63 characters),
    and a URL without a host makes some httpx code (cookies) fail with a bare ``ValueError``;
    those are properties of the URL, answered like httpx's own ``InvalidURL`` or a name that
    does not resolve, never raised as bugs.
    """
    try:
        url = httpx.URL(fetch.url)
        host = url.host
    except UnicodeError as exc:
        raise httpx.InvalidURL(f"invalid host in {fetch.url!r}: {exc}") from None
    if not host:
        raise httpx.InvalidURL(f"no host in {fetch.url!r}")
    try:
        url.raw_host.decode("ascii").encode("idna")  # what the resolver will do with it
    except UnicodeError as exc:
        raise _BadName(f"{url.raw_host.decode('ascii')!r} cannot be looked up: {exc}") from None
    return {
        "method": "GET",
        "url": fetch.url,
        "headers": {"User-Agent": user_agent, **_ACCEPT},
        "follow_redirects": False,
        "timeout": httpx.Timeout(max(remaining, 0.001)),
    }


def _in_memory(response: Any, limit: int) -> bytes | None:
    """The body of a response that is already read (a mock's ``content=``), cut at ``limit``; else None.

    httpx has decoded such a body already, so it is taken as it is (F9 still applies).
    """
    try:
        content = response.content
    except httpx.ResponseNotRead:
        return None
    return bytes(content[:limit])


def _client(client: Any, kind: str, addresses: AddressPolicy | None) -> Any:
    """The caller's ``client`` (None: none), checked to be an ``httpx.Client`` or ``httpx.AsyncClient`` (``kind``)."""
    if client is None:
        return None
    if not isinstance(client, getattr(httpx, kind)):
        name = f"{type(client).__module__}.{type(client).__qualname__}"
        if isinstance(client, (httpx.Client, httpx.AsyncClient)):
            owner = "RobotsClient and Fetcher" if kind == "AsyncClient" else "AsyncRobotsClient and AsyncFetcher"
            name = f"{name}, which is for {owner}"
        raise TypeError(f"http_client must be an httpx.{kind}, not {name}")
    if addresses is not None:
        raise ValueError(
            "an address policy (Policy(public_addresses_only=True)) needs the HTTP client robotrules creates: "
            "it checks addresses where connections are opened, which a caller's httpx client does not let it reach; "
            "do not pass http_client with it"
        )
    return client


def _install_pool(transport: Any, pool: Any) -> Any:
    """Give an httpx transport ``pool`` (an httpcore pool with our network backend) in place of its own.

    httpx (0.27, 0.28) has no public way to set the network backend; its transports keep the
    httpcore pool as ``_pool``. A version without it is refused loudly rather than left unguarded.
    """
    if not isinstance(getattr(transport, "_pool", None), (httpcore.ConnectionPool, httpcore.AsyncConnectionPool)):
        raise RuntimeError(f"httpx {httpx.__version__}: cannot install the address policy in its transport")
    transport._pool = pool  # the replaced pool has opened nothing yet: nothing to close
    return transport


def _pool_options() -> dict[str, Any]:
    """httpx's defaults for the pool of its transports."""
    return {"ssl_context": httpx.create_ssl_context(), "max_connections": 100, "max_keepalive_connections": 20,
            "keepalive_expiry": 5.0}


class _GuardedBackend:
    """An httpcore network backend that resolves, lets the address policy check, and connects to what it checked."""

    def __init__(self, addresses: AddressPolicy, inner: Any) -> None:
        self.addresses = addresses
        self.inner = inner

    def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                    socket_options: Iterable[Any] | None = None) -> Any:
        try:
            found = self.addresses.resolve(host, port)  # BlockedAddress passes through httpx unchanged
        except OSError as exc:  # socket.gaierror: the name does not resolve (F8: dns)
            raise httpcore.ConnectError(str(exc)) from exc
        last: Exception = httpcore.ConnectError(f"{host} resolves to no address")
        for address in found:
            try:
                return self.inner.connect_tcp(address, port, timeout=timeout, local_address=local_address,
                                              socket_options=socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last = exc
        raise last

    def connect_unix_socket(self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None) -> Any:
        raise httpcore.ConnectError("the address policy connects over TCP only")

    def sleep(self, seconds: float) -> None:
        self.inner.sleep(seconds)


class _AsyncGuardedBackend:
    """As :class:`_GuardedBackend`, on the event loop."""

    def __init__(self, addresses: AddressPolicy, inner: Any) -> None:
        self.addresses = addresses
        self.inner = inner

    async def connect_tcp(self, host: str, port: int, timeout: float | None = None, local_address: str | None = None,
                          socket_options: Iterable[Any] | None = None) -> Any:
        try:
            found = await self.addresses.aresolve(host, port)
        except OSError as exc:
            raise httpcore.ConnectError(str(exc)) from exc
        last: Exception = httpcore.ConnectError(f"{host} resolves to no address")
        for address in found:
            try:
                return await self.inner.connect_tcp(address, port, timeout=timeout, local_address=local_address,
                                                    socket_options=socket_options)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last = exc
        raise last

    async def connect_unix_socket(self, path: str, timeout: float | None = None,
                                  socket_options: Iterable[Any] | None = None) -> Any:
        raise httpcore.ConnectError("the address policy connects over TCP only")

    async def sleep(self, seconds: float) -> None:
        await self.inner.sleep(seconds)


class HttpTransport:
    """Blocking GETs through an ``httpx.Client`` (the caller's, or one this object owns).

    With ``addresses`` the owned client connects only where the address policy permits, on
    every connection; a caller's ``client`` cannot be combined with it (``ValueError``). A
    client of the wrong kind (``httpx.AsyncClient``) is a ``TypeError``.
    """

    def __init__(self, client: Any = None, *, user_agent: str, addresses: AddressPolicy | None = None) -> None:
        client = _client(client, "Client", addresses)
        self._owned = client is None
        if client is None and addresses is not None:
            backend = _GuardedBackend(addresses, httpcore.SyncBackend())
            transport = _install_pool(httpx.HTTPTransport(), httpcore.ConnectionPool(network_backend=backend, **_pool_options()))
            client = httpx.Client(transport=transport)
        self.client = httpx.Client() if client is None else client
        self.user_agent = user_agent

    def send(self, fetch: Fetch, deadline: float) -> Response | Failure:
        """GET ``fetch.url``, reading at most ``fetch.limit`` body bytes, before ``deadline`` (monotonic).

        Network trouble is a :class:`~robotrules.core.policy.Failure`; anything else raised on
        the way (a refused address, a bug) is raised here.
        """
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return Failure("timeout", "fetch deadline passed")
        done: Future[Response | Failure] = Future()
        worker = threading.Thread(target=self._exchange, args=(fetch, deadline, remaining, done), daemon=True,
                                  name="robotrules-fetch")
        worker.start()
        worker.join(remaining)
        if not done.done():
            return Failure("timeout", "no complete response before the deadline")
        return done.result()

    def _exchange(self, fetch: Fetch, deadline: float, remaining: float, done: Future[Response | Failure]) -> None:
        try:
            result: Response | Failure = self._get(fetch, deadline, remaining)
        except _NETWORK_ERRORS as exc:  # F8: an answer
            result = _failure(exc)
        except Exception as exc:  # not the site's failure: the caller's to see
            done.set_exception(exc)
            return
        done.set_result(result)

    def _get(self, fetch: Fetch, deadline: float, remaining: float) -> Response:
        with self.client.stream(**_request_args(fetch, self.user_agent, remaining)) as response:
            headers = _headers(response)
            body = b""
            if 200 <= response.status_code < 300:
                loaded = _in_memory(response, fetch.limit)
                if loaded is not None:
                    return Response(response.status_code, headers, loaded)
                reader = BodyReader(headers.get("content-encoding", ""), fetch.limit)
                if not reader.full():
                    for raw in response.iter_raw():
                        reader.feed(raw)
                        if reader.full() or time.monotonic() > deadline:
                            break
                if time.monotonic() > deadline:
                    raise TimeoutError("body not received before the deadline")
                body = reader.finish()
            return Response(response.status_code, headers, body)

    def close(self) -> None:
        if self._owned:
            self.client.close()


class AsyncHttpTransport:
    """GETs through an ``httpx.AsyncClient`` (the caller's, or one this object owns); as :class:`HttpTransport`."""

    def __init__(self, client: Any = None, *, user_agent: str, addresses: AddressPolicy | None = None) -> None:
        client = _client(client, "AsyncClient", addresses)
        self._owned = client is None
        if client is None and addresses is not None:
            backend = _AsyncGuardedBackend(addresses, httpcore.AnyIOBackend())
            pool = httpcore.AsyncConnectionPool(network_backend=backend, **_pool_options())
            client = httpx.AsyncClient(transport=_install_pool(httpx.AsyncHTTPTransport(), pool))
        self.client = httpx.AsyncClient() if client is None else client
        self.user_agent = user_agent

    async def send(self, fetch: Fetch, deadline: float) -> Response | Failure:
        """As :meth:`HttpTransport.send`; the deadline also cancels a hung read."""
        import anyio

        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return Failure("timeout", "fetch deadline passed")
        try:
            with anyio.fail_after(remaining):
                return await self._get(fetch, remaining)
        except _NETWORK_ERRORS as exc:  # F8: an answer (TimeoutError from fail_after included)
            return _failure(exc)

    async def _get(self, fetch: Fetch, remaining: float) -> Response:
        async with self.client.stream(**_request_args(fetch, self.user_agent, remaining)) as response:
            headers = _headers(response)
            body = b""
            if 200 <= response.status_code < 300:
                loaded = _in_memory(response, fetch.limit)
                if loaded is not None:
                    return Response(response.status_code, headers, loaded)
                reader = BodyReader(headers.get("content-encoding", ""), fetch.limit)
                if not reader.full():
                    async for raw in response.aiter_raw():
                        reader.feed(raw)
                        if reader.full():
                            break
                body = reader.finish()
            return Response(response.status_code, headers, body)

    async def aclose(self) -> None:
        if self._owned:
            await self.client.aclose()
