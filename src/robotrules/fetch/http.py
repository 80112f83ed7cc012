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
"""

from __future__ import annotations

import threading
import time
import zlib
from concurrent.futures import Future
from typing import Any

from robotrules.core.policy import Failure, Fetch, Response
from robotrules.errors import require

httpx: Any = require("httpx", "http")

__all__ = ["AsyncHttpTransport", "HttpTransport"]

_ACCEPT = {"Accept": "text/plain, */*;q=0.5", "Accept-Encoding": "gzip, deflate"}
_KEPT_HEADERS = ("location", "cache-control", "retry-after", "content-type", "content-encoding")


class _Body:
    """Collects decoded body bytes up to ``limit``; ``full`` once no more are wanted (F9)."""

    def __init__(self, encoding: str, limit: int) -> None:
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0
        self._deflate = False
        self._decoder: Any = None
        encoding = encoding.strip().lower()
        if encoding in ("gzip", "x-gzip"):
            self._decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            self._deflate = True  # zlib-wrapped or bare: decided by the first two bytes
        elif encoding not in ("", "identity"):
            raise _Invalid(f"unsupported Content-Encoding {encoding!r}")

    @property
    def full(self) -> bool:
        return self.size >= self.limit

    def feed(self, raw: bytes) -> None:
        if self._deflate and self._decoder is None and raw:
            wrapped = len(raw) >= 2 and raw[0] & 0x0F == 8 and (raw[0] << 8 | raw[1]) % 31 == 0
            self._decoder = zlib.decompressobj(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
        if self._decoder is not None:
            try:
                raw = self._decoder.decompress(raw, self.limit - self.size)  # bounded output
            except zlib.error as exc:
                raise _Invalid(f"bad compressed body: {exc}") from None
        self.parts.append(raw[: self.limit - self.size])
        self.size += len(self.parts[-1])

    def finish(self) -> bytes:
        """The body; ``_Invalid`` if a compressed stream read to its end was cut short (F8)."""
        if self._decoder is not None and not self.full and not self._decoder.eof:
            raise _Invalid("compressed body ends before its end of stream")
        return b"".join(self.parts)


class _Invalid(Exception):
    """The response cannot be used (F8: invalid response)."""


def _headers(response: Any) -> dict[str, str]:
    return {name: response.headers[name] for name in _KEPT_HEADERS if name in response.headers}


def _failure(exc: BaseException) -> Failure:
    """F8: the kind of network failure behind an httpx exception."""
    detail = str(exc) or type(exc).__name__
    if isinstance(exc, (httpx.InvalidURL, httpx.UnsupportedProtocol)) or (
        isinstance(exc, httpx.RemoteProtocolError) and "location header" in detail.lower()
    ):
        return Failure("redirect", detail)  # httpx could not resolve a redirect's Location (F3)
    if isinstance(exc, (_Invalid, httpx.RemoteProtocolError, httpx.DecodingError)):
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
    return {
        "method": "GET",
        "url": fetch.url,
        "headers": {"User-Agent": user_agent, **_ACCEPT},
        "follow_redirects": False,
        "timeout": httpx.Timeout(max(remaining, 0.001)),
    }


class HttpTransport:
    """Blocking GETs through an ``httpx.Client`` (the caller's, or one this object owns)."""

    def __init__(self, client: Any = None, *, user_agent: str) -> None:
        self._owned = client is None
        self.client = httpx.Client() if client is None else client
        self.user_agent = user_agent

    def send(self, fetch: Fetch, deadline: float) -> Response | Failure:
        """GET ``fetch.url``, reading at most ``fetch.limit`` body bytes, before ``deadline`` (monotonic)."""
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
            with self.client.stream(**_request_args(fetch, self.user_agent, remaining)) as response:
                headers = _headers(response)
                body = b""
                if 200 <= response.status_code < 300:
                    reader = _Body(headers.get("content-encoding", ""), fetch.limit)
                    if not reader.full:
                        for raw in response.iter_raw():
                            reader.feed(raw)
                            if reader.full or time.monotonic() > deadline:
                                break
                    if time.monotonic() > deadline:
                        raise TimeoutError("body not received before the deadline")
                    body = reader.finish()
                done.set_result(Response(response.status_code, headers, body))
        except Exception as exc:  # noqa: BLE001 - every failure is an answer (F8)
            done.set_result(_failure(exc))

    def close(self) -> None:
        if self._owned:
            self.client.close()


class AsyncHttpTransport:
    """GETs through an ``httpx.AsyncClient`` (the caller's, or one this object owns)."""

    def __init__(self, client: Any = None, *, user_agent: str) -> None:
        self._owned = client is None
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
                async with self.client.stream(**_request_args(fetch, self.user_agent, remaining)) as response:
                    headers = _headers(response)
                    body = b""
                    if 200 <= response.status_code < 300:
                        reader = _Body(headers.get("content-encoding", ""), fetch.limit)
                        if not reader.full:
                            async for raw in response.aiter_raw():
                                reader.feed(raw)
                                if reader.full:
                                    break
                        body = reader.finish()
                    return Response(response.status_code, headers, body)
        except Exception as exc:  # noqa: BLE001 - every failure is an answer (F8)
            return _failure(exc)

    async def aclose(self) -> None:
        if self._owned:
            await self.client.aclose()

