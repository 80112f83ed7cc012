"""Test doubles around a real store, and an HTTP client that reaches many host names on loopback.

:class:`Scripted` wraps a :class:`~robotrules.MemoryStore` (or any store), counts every call by
method, and can be told to fail, to stall (moving the injected clock, so no test sleeps), to
forget a key when it is read, or to run a hook before a call (another process acting between
two calls of the client). :func:`loopback_http` sends every request to one server on 127.0.0.1
whatever the host name, keeping the ``Host`` header, so a test can use many distinct hosts
(``h1.test``, ``h2.test``, ...) and count requests per host.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import httpx

from robotrules import MemoryStore, StoreError
from robotrules.core.policy import Entry, Policy, Response, begin

STORE_METHODS = ("get", "put", "delete", "acquire", "release")


class Scripted:
    """A store that counts its calls and misbehaves on demand (see the module docstring).

    ``fail``: the methods that raise :class:`StoreError`; ``stall``: seconds each call moves
    ``clock`` forward (a slow store, by the clock the client reads); ``forget``: ``get``
    deletes the key first (an eviction, or another process's ``invalidate``) and misses;
    ``before[method]``: a function of the call's arguments run before it, once.
    """

    def __init__(self, inner: Any = None, *, clock: Any = None) -> None:
        self.inner = inner if inner is not None else MemoryStore()
        self.blocking = getattr(self.inner, "blocking", False)
        self.clock = clock
        self.calls: Counter[str] = Counter()
        self.fail: set[str] = set()
        self.stall = 0.0
        self.forget = False
        self.before: dict[str, Callable[..., None]] = {}

    @property
    def total(self) -> int:
        """Calls of the Store methods so far (``close`` not counted)."""
        return sum(self.calls[m] for m in STORE_METHODS)

    def _enter(self, method: str, *args: Any) -> None:
        self.calls[method] += 1
        hook = self.before.pop(method, None)
        if hook is not None:
            hook(*args)
        if self.stall:
            self.clock.advance(self.stall)
        if method in self.fail:
            raise StoreError(f"test: {method} fails")

    def get(self, key: str) -> Entry | None:
        self._enter("get", key)
        if self.forget:
            self.inner.delete(key)
            return None
        return self.inner.get(key)  # type: ignore[no-any-return]

    def put(self, entry: Entry) -> None:
        self._enter("put", entry)
        self.inner.put(entry)

    def delete(self, key: str) -> None:
        self._enter("delete", key)
        self.inner.delete(key)

    def acquire(self, key: str, ttl: float) -> str | None:
        self._enter("acquire", key, ttl)
        return self.inner.acquire(key, ttl)  # type: ignore[no-any-return]

    def release(self, key: str, token: str) -> None:
        self._enter("release", key, token)
        self.inner.release(key, token)

    def close(self) -> None:
        self.inner.close()


def fetched_entry(robots_url: str, body: bytes, now: float, policy: Policy | None = None) -> Entry:
    """The entry a fetch answered 200 with ``body`` at ``now`` ends with (what another process writes)."""
    step = begin(robots_url, None, now, policy or Policy())
    assert not isinstance(step, Entry)
    entry = step.apply(Response(200, {}, body), now)
    assert isinstance(entry, Entry)
    return entry


class _Loopback(httpx.HTTPTransport):
    def __init__(self, port: int) -> None:
        super().__init__()
        self.port = port

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.url = request.url.copy_with(scheme="http", host="127.0.0.1", port=self.port)
        return super().handle_request(request)


class _AsyncLoopback(httpx.AsyncHTTPTransport):
    def __init__(self, port: int) -> None:
        super().__init__()
        self.port = port

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request.url = request.url.copy_with(scheme="http", host="127.0.0.1", port=self.port)
        return await super().handle_async_request(request)


def loopback_http(port: int, kind: str = "sync") -> Any:
    """An httpx client ("sync" or "async") whose every request goes to 127.0.0.1:port, Host kept."""
    if kind == "sync":
        return httpx.Client(transport=_Loopback(port))
    return httpx.AsyncClient(transport=_AsyncLoopback(port))


def hosts_served(server: Any) -> Counter[str]:
    """Requests for /robots.txt per Host header (the name without the port)."""
    return Counter(r.headers["host"].split(":")[0] for r in server.requests if r.path == "/robots.txt")
