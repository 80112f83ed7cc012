"""How the service is served: uvicorn, with the connection limits a public service needs (issue #16-L1).

uvicorn closes a keep-alive connection that stays idle after a response (``keep_alive``
seconds), but not a connection that sends nothing at all, nor one that sends its request head a
byte at a time: both would hold a socket forever. :func:`guarded` adds one timer per
connection, armed when it opens and after each response, and cleared only by a complete request
head: a connection that has not sent one within ``head_timeout`` seconds is closed. The body is
then bounded by the request's deadline (:mod:`robotrules.service._edge`, 408). On top,
``max_connections`` bounds the open connections (uvicorn answers 503 past it), and the
listening backlog is uvicorn's (2048).

So idle or slow sockets cost a file descriptor each for at most ``head_timeout`` seconds, and
never a task, a thread or a slot of anyone else's.
"""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn

__all__ = ["HEAD_TIMEOUT", "KEEP_ALIVE", "MAX_CONNECTIONS", "config", "guarded"]

HEAD_TIMEOUT = 10.0
"""Seconds a connection may take to send a complete request head (when it opens, and after each response)."""

KEEP_ALIVE = 5
"""Seconds an idle keep-alive connection is kept after a response (uvicorn's timeout)."""

MAX_CONNECTIONS = 1000
"""Open connections (and requests in progress) past which uvicorn answers 503."""


def guarded(base: type[asyncio.Protocol], head_timeout: float = HEAD_TIMEOUT) -> type[asyncio.Protocol]:
    """``base`` (one of uvicorn's HTTP protocol classes) with the request-head timer (see the module)."""

    class Guarded(base):  # type: ignore[valid-type,misc]
        _head_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            self._head_timer = self.loop.call_later(head_timeout, self._head_expired)

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_expired(self) -> None:
            self._head_timer = None
            cycle = self.cycle
            if cycle is not None and not cycle.response_complete:
                return  # a request is being answered: its deadline bounds it, and a new timer follows it
            if not self.transport.is_closing():
                self.transport.close()

    Guarded.__name__ = Guarded.__qualname__ = f"Guarded{base.__name__}"
    return Guarded


def config(app: Any, host: str = "127.0.0.1", port: int = 8000, *, head_timeout: float = HEAD_TIMEOUT,
           keep_alive: int = KEEP_ALIVE, max_connections: int = MAX_CONNECTIONS, log_level: str = "info",
           protocol: type[asyncio.Protocol] | None = None, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration the service runs with (also in the tests): the fastest HTTP
    protocol installed (httptools, else h11; or ``protocol``, one of uvicorn's) with the
    request-head timer, the event loop uvicorn picks (uvloop when installed), the keep-alive
    timeout and the connection limit. ``options``: more ``uvicorn.Config`` arguments."""
    if protocol is None:
        from uvicorn.protocols.http.auto import AutoHTTPProtocol

        protocol = AutoHTTPProtocol
    return uvicorn.Config(app, host=host, port=port, http=guarded(protocol, head_timeout),
                          timeout_keep_alive=keep_alive, limit_concurrency=max_connections,
                          log_level=log_level, **options)
