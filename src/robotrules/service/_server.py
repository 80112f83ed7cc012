"""How the service is served: uvicorn, with the connection limits a public service needs (issue #16-L1),
one write per response and a cheap access log (issue #35).

uvicorn closes a keep-alive connection that stays idle after a response (``keep_alive``
seconds), but not a connection that sends nothing at all, nor one that sends its request head a
byte at a time: both would hold a socket forever. :func:`guarded` adds a deadline per
connection, set when it opens and after each response, and met only by a complete request
head: a connection that has not sent one within ``head_timeout`` seconds is closed. The body is
then bounded by the request's deadline (:mod:`robotrules.service._edge`, 408). On top,
``max_connections`` bounds the open connections (uvicorn answers 503 past it), and the
listening backlog is uvicorn's (2048).

So idle or slow sockets cost a file descriptor each for at most ``head_timeout`` seconds, and
never a task, a thread or a slot of anyone else's.

What this costs a request, and why it is cheap (issue #35, ``bench/service_bench.py``):

* **The head deadline** is a time stored on the connection after each response; one timer per
  connection checks it when it falls due and, when the deadline has moved on meanwhile, is set
  again for the new one. A busy keep-alive connection therefore costs one clock read per response,
  not a timer cancelled and made again (about 5 µs on uvloop).
* **One write per response.** uvicorn writes the status line and headers, then the body, each
  with its own ``transport.write``: two system calls and two wake-ups of the client for one small
  answer. The guarded protocol hands uvicorn a transport (:class:`_Coalescing`) that gathers the
  writes and writes them as one when the response is complete, so a small answer is one ``send``,
  sent as soon as it is whole. What a response that streams writes goes out at the end of the
  event loop's step, at once from 64 KiB on, and before the connection is closed.
* **The access log** (:class:`AccessLog`, ``access_log=``): one line per request, formatted
  without :mod:`logging` (no record, no handler lock) and written in batches, at most
  :data:`ACCESS_FLUSH_SECONDS` after the request. uvicorn's own access log, through
  :mod:`logging` with a write and a flush per line, took about 30% of the time of a cached check.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Awaitable, Callable, MutableMapping
from json.encoder import encode_basestring_ascii
from typing import Any

import uvicorn

__all__ = ["ACCESS_FLUSH_SECONDS", "ACCESS_FORMATS", "HEAD_TIMEOUT", "KEEP_ALIVE", "MAX_CONNECTIONS", "AccessLog",
           "config", "guarded"]

HEAD_TIMEOUT = 10.0
"""Seconds a connection may take to send a complete request head (when it opens, and after each response)."""

KEEP_ALIVE = 5
"""Seconds an idle keep-alive connection is kept after a response (uvicorn's timeout)."""

MAX_CONNECTIONS = 1000
"""Open connections (and requests in progress) past which uvicorn answers 503."""

WRITE_AT_ONCE = 65_536
"""Bytes of gathered writes from which :class:`_Coalescing` writes at once (flow control then sees them)."""

ACCESS_FORMATS = ("text", "json")
"""The access log's formats (:class:`AccessLog`); ``"off"`` (or False, None) is none."""

ACCESS_FLUSH_SECONDS = 0.1
"""Seconds an access log line may wait before it is written (sooner once :data:`ACCESS_FLUSH_BYTES` wait)."""

ACCESS_FLUSH_BYTES = 32_768
"""Characters of waiting access log lines from which they are written at once."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class _Coalescing:
    """A transport that gathers writes and writes them as one (see the module): :meth:`flush` when
    the response is complete; else the first write waiting schedules it for the end of the event
    loop's step (``call_soon``); 64 KiB or more are written at once; ``close`` writes what waits
    first. Everything else is the real transport's."""

    __slots__ = ("_loop", "_pending", "_size", "transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self.transport = transport
        self._loop = loop
        self._pending: list[bytes] | None = None
        self._size = 0

    def write(self, data: bytes | bytearray | memoryview) -> None:
        pending = self._pending
        if pending is None:
            if len(data) >= WRITE_AT_ONCE:
                self.transport.write(data)
                return
            self._pending = [bytes(data)]
            self._size = len(data)
            self._loop.call_soon(self.flush)
            return
        pending.append(bytes(data))
        self._size += len(data)
        if self._size >= WRITE_AT_ONCE:
            self.flush()

    def flush(self) -> None:
        """Write what waits (nothing when the connection is closing: it has nobody to go to)."""
        pending = self._pending
        if pending is None:
            return
        self._pending = None
        if not self.transport.is_closing():
            self.transport.write(pending[0] if len(pending) == 1 else b"".join(pending))

    def writelines(self, data: Any) -> None:
        for chunk in data:
            self.write(chunk)

    def close(self) -> None:
        self.flush()
        self.transport.close()

    def write_eof(self) -> None:
        self.flush()
        self.transport.write_eof()

    def is_closing(self) -> bool:
        return self.transport.is_closing()

    def get_write_buffer_size(self) -> int:
        return self.transport.get_write_buffer_size() + (self._size if self._pending is not None else 0)

    def __getattr__(self, name: str) -> Any:  # pause_reading, get_extra_info, abort, set_protocol, ...
        return getattr(self.transport, name)


def guarded(base: type[asyncio.Protocol], head_timeout: float = HEAD_TIMEOUT) -> type[asyncio.Protocol]:
    """``base`` (one of uvicorn's HTTP protocol classes) with the request-head deadline and one write
    per response (see the module)."""

    class Guarded(base):  # type: ignore[valid-type,misc]
        _head_timer: asyncio.TimerHandle | None = None
        _head_by = 0.0

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(_Coalescing(transport, self.loop))  # type: ignore[arg-type]
            self._head_by = self.loop.time() + head_timeout
            self._head_timer = self.loop.call_at(self._head_by, self._head_due)

        def on_response_complete(self) -> None:
            self.transport.flush()  # the whole answer, head and body, in one write and without delay
            super().on_response_complete()
            self._head_by = self.loop.time() + head_timeout
            if self._head_timer is None:
                self._head_timer = self.loop.call_at(self._head_by, self._head_due)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None
            super().connection_lost(exc)

        def _head_due(self) -> None:
            self._head_timer = None
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                return  # a request is being answered: its deadline bounds it; its response sets a new one
            if self.loop.time() < self._head_by:  # a response since: its deadline
                self._head_timer = self.loop.call_at(self._head_by, self._head_due)
                return
            if not self.transport.is_closing():
                self.transport.close()

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded


def _printable(target: str) -> str:
    """``target`` as one field of a text log line: characters that are not printable, ``"`` and ``\\`` escaped."""
    if target.isprintable() and '"' not in target and "\\" not in target:
        return target
    return target.encode("unicode_escape").decode("ascii").replace('"', "\\x22")


class AccessLog:
    """ASGI middleware: one access log line per HTTP request, written to ``sys.stdout`` in batches.

    ``text``::

        2026-11-29T20:47:10Z 127.0.0.1:51234 "GET /v1/check?url=... HTTP/1.1" 200 944 0.41ms

    ``json`` (one object a line)::

        {"time":"2026-11-29T20:47:10Z","client":"127.0.0.1:51234","method":"GET","target":"/v1/check?url=...",
         "http":"1.1","status":200,"bytes":944,"ms":0.41}

    The time (UTC, to the second) is when the answer was sent; the target is the request's, as
    sent (still percent-encoded; in text, a character that is not printable, ``"`` and ``\\`` are
    escaped, so a line is one line); ``status`` is the status sent, ``-`` (``null``) when none was
    (the client left first), 500 when the app failed before answering; ``bytes`` the body's;
    ``ms`` the time from the request head to the end of the answer. Lines wait at most
    :data:`ACCESS_FLUSH_SECONDS` (or until :data:`ACCESS_FLUSH_BYTES` wait) and are all written when
    the app's lifespan ends and on :meth:`flush`. Runs on one event loop (not thread-safe).
    """

    def __init__(self, app: ASGIApp, form: str = "text") -> None:
        if form not in ACCESS_FORMATS:
            raise ValueError(f"the access log format is one of {', '.join(ACCESS_FORMATS)}: {form!r}")
        self.app = app
        self.form = form
        self._lines: list[str] = []
        self._size = 0
        self._timer: asyncio.TimerHandle | None = None
        self._second = -1
        self._stamp = ""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            try:
                await self.app(scope, receive, send)
            finally:
                if scope["type"] == "lifespan":
                    self.flush()
            return
        start = time.perf_counter()
        status = 0
        size = 0

        async def sending(message: Message) -> None:
            nonlocal status, size
            if message["type"] == "http.response.body":
                size += len(message.get("body", b""))
            elif message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except BaseException:
            if not status:
                status = 500  # the server answers it
            raise
        finally:
            self._line(scope, status, size, time.perf_counter() - start)

    def _line(self, scope: Scope, status: int, size: int, seconds: float) -> None:
        now = int(time.time())
        if now != self._second:
            self._second = now
            self._stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now))
        query = scope.get("query_string")
        raw = scope.get("raw_path") or scope["path"].encode("utf-8")
        target = (raw + b"?" + query if query else raw).decode("latin-1")
        client = scope.get("client")
        peer = f"{client[0]}:{client[1]}" if client else "-"
        # The method and the version are tokens (uvicorn's parsers accept nothing else); the target is the client's.
        if self.form == "json":
            line = (f'{{"time":"{self._stamp}","client":{encode_basestring_ascii(peer)},'
                    f'"method":{encode_basestring_ascii(scope["method"])},"target":{encode_basestring_ascii(target)},'
                    f'"http":"{scope["http_version"]}","status":{status or "null"},'
                    f'"bytes":{size},"ms":{seconds * 1000:.2f}}}\n')
        else:
            line = (f'{self._stamp} {peer} "{scope["method"]} {_printable(target)} HTTP/{scope["http_version"]}" '
                    f'{status or "-"} {size} {seconds * 1000:.2f}ms\n')
        self._lines.append(line)
        self._size += len(line)
        if self._size >= ACCESS_FLUSH_BYTES:
            self.flush()
        elif self._timer is None:
            try:
                self._timer = asyncio.get_running_loop().call_later(ACCESS_FLUSH_SECONDS, self.flush)
            except RuntimeError:  # no running loop (a direct call): at once
                self.flush()

    def flush(self) -> None:
        """Write every waiting line (a stream that fails loses them: the service goes on)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if not self._lines:
            return
        text = "".join(self._lines)
        self._lines = []
        self._size = 0
        stream = sys.stdout
        if stream is None:
            return
        try:
            stream.write(text)
            stream.flush()
        except (OSError, ValueError):  # closed or broken
            pass


def access_format(access_log: str | bool | None) -> str | None:
    """The access log's format for ``access_log``: ``"text"`` (True), ``"json"``, or None (off: False, None, ``"off"``)."""
    if access_log is True:
        return "text"
    if access_log in (False, None, "off"):
        return None
    if access_log in ACCESS_FORMATS:
        return str(access_log)
    raise ValueError(f"access_log is one of {', '.join((*ACCESS_FORMATS, 'off'))}: {access_log!r}")


def config(app: Any, host: str = "127.0.0.1", port: int = 8000, *, head_timeout: float = HEAD_TIMEOUT,
           keep_alive: int = KEEP_ALIVE, max_connections: int = MAX_CONNECTIONS, log_level: str = "info",
           protocol: type[asyncio.Protocol] | None = None, access_log: str | bool | None = "text",
           **options: Any) -> uvicorn.Config:
    """The uvicorn configuration the service runs with (also in the tests): the fastest HTTP
    protocol installed (httptools, else h11; or ``protocol``, one of uvicorn's) with the
    request-head deadline and one write per response, the event loop uvicorn picks (uvloop when
    installed), the keep-alive timeout, the connection limit, and the access log (``access_log``:
    ``"text"`` or True, ``"json"``, ``"off"`` or False: :class:`AccessLog`, in place of uvicorn's).
    ``options``: more ``uvicorn.Config`` arguments."""
    if protocol is None:
        from uvicorn.protocols.http.auto import AutoHTTPProtocol

        protocol = AutoHTTPProtocol
    form = access_format(access_log)
    served = AccessLog(app, form) if form is not None else app
    return uvicorn.Config(served, host=host, port=port, http=guarded(protocol, head_timeout),
                          timeout_keep_alive=keep_alive, limit_concurrency=max_connections,
                          log_level=log_level, access_log=False, **options)
