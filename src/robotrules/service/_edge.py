"""The service's edge: what every HTTP request goes through before and after its endpoint.

:class:`Edge` is ASGI middleware around the whole app. For each request, in order::

    deadline starts ─┬─ read the body, counting bytes ── over max_body ───> 413, connection closed
                     │                                 ├─ bad length ───> 400
                     │                                 └─ too slow ─────> 408 (deadline passed)
                     ├─ the endpoint runs, while the client is watched ─ client gone ──> cancelled
                     └─ deadline passes before an answer ────────────────────────────> 503 + Retry-After
    metrics: one count and one latency per request, with labels from closed sets only

* **Deadline** (issue #16-H1): ``deadline`` seconds for the whole request; when it passes, its
  work is cancelled (fetches, gate waits, and draft work, which checks for cancellation as it
  goes) and it is answered ``503 deadline_exceeded`` with ``Retry-After``.
* **Client gone**: once the body is read, the client's connection is watched; when it closes
  before the answer, the work is cancelled: nothing runs on for nobody.
* **Work slots**: a request with a body (POST) computes only while it holds a slot of the work
  gate, or of the small lane when its body is small (:mod:`robotrules.service._admission`); the others wait for one, without any event-loop
  time, or are refused at once when the queue is full (503 ``overloaded``, ``Retry-After``).
* **Body limit**: the body is read here, counted as it arrives, and replayed to the endpoint, so
  a false or missing Content-Length changes nothing.
* **Metric labels** (#16-M1): the route's path template (``/v1/check``), ``/static`` for the
  page's files, ``unmatched`` for anything else; the method if it is one of HTTP's
  (:data:`METHODS`), else ``other``; the status code this service sent. A client can add no label value.
"""

from __future__ import annotations

import math
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import anyio

from robotrules.service._admission import Gates, Overloaded
from robotrules.service._errors import JSON, error_body
from robotrules.service._metrics import Metrics

__all__ = ["METHODS", "Edge", "endpoint_label", "method_label"]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

_WITH_BODY = frozenset({"POST", "PUT", "PATCH"})
"""Requests that carry work in their body: each holds a slot of the work gate while it computes."""

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT"})
"""The method label's values besides ``other``: HTTP's methods (RFC 9110 and PATCH)."""


def method_label(scope: Scope) -> str:
    """The metrics label of a request's method: one of :data:`METHODS`, else ``other``."""
    method = scope.get("method", "")
    return method if method in METHODS else "other"


def endpoint_label(scope: Scope, paths: frozenset[str] | set[str]) -> str:
    """The metrics label of a request: its route's path template, so label values stay few
    ("/static" for the page's files, "unmatched" for any other path)."""
    template = getattr(scope.get("route"), "path", None)
    if isinstance(template, str):
        return template
    path = str(scope.get("path", ""))
    if path in paths:  # answered before routing (a body over the limit, a deadline)
        return path
    return "/static" if path.startswith("/static/") else "unmatched"


def retry_after(seconds: float) -> dict[str, str]:
    """The ``Retry-After`` header of a refusal (whole seconds, at least 1)."""
    return {"retry-after": str(max(1, math.ceil(seconds)))}


class Edge:
    """ASGI middleware: deadline, cancellation when the client leaves, body limit, metrics (see the module).

    ``paths``: the app's route paths (the label of a request answered before routing), filled
    in by the factory once the routes exist.
    """

    def __init__(self, app: ASGIApp, metrics: Metrics, max_body: int, deadline: float, paths: set[str],
                 gates: Gates | None = None, small_body: int = 0) -> None:
        self.app = app
        self.metrics = metrics
        self.max_body = max_body
        self.deadline = deadline
        self.paths = paths
        self.gates = gates
        self.small_body = small_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 0  # 0: nothing sent
        started = done = counted = False

        def count() -> None:
            nonlocal counted
            if status and not counted:
                counted = True
                self.metrics.answered(endpoint_label(scope, self.paths), method_label(scope), status,
                                      time.perf_counter() - start)

        async def sending(message: Message) -> None:
            nonlocal status, started, done
            if message["type"] == "http.response.start":
                status = int(message["status"])
                started = True
            elif message["type"] == "http.response.body" and not message.get("more_body", False):
                done = True  # before the send: the server may report the response complete at once
                count()  # before the send too: a client holding the answer finds it in /metrics
            await send(message)

        phase = "reading"
        try:
            with anyio.move_on_after(self.deadline) as timer:
                body = await self._read(scope, receive, sending)
                if body is None:  # answered here, or the client left while sending
                    return
                phase = "working"
                if self.gates is not None and scope.get("method") in _WITH_BODY:
                    try:
                        async with self.gates.for_body(len(body), self.small_body).slot():
                            left = await self._serve(scope, receive, sending, body, lambda: done)
                    except Overloaded as exc:
                        self.metrics.refused("overloaded")
                        await _reject(sending, 503, "overloaded", str(exc), headers=retry_after(1))
                        return
                else:
                    left = await self._serve(scope, receive, sending, body, lambda: done)
                if left and not started:
                    phase = "gone"
            if timer.cancelled_caught and not started:
                if phase == "reading":
                    self.metrics.refused("body_timeout")
                    await _reject(sending, 408, "request_timeout",
                                  "The request body did not arrive in time; send it at once.", close=True)
                else:
                    self.metrics.refused("deadline")
                    await _reject(sending, 503, "deadline_exceeded",
                                  f"This request took longer than the {self.deadline:g} seconds this service "
                                  "allows; try again with fewer URLs or sites.", headers=retry_after(1))
            elif phase == "gone":
                self.metrics.refused("client_gone")
        except BaseException:
            if not started:
                status = 500  # answered by the server-error handler, outside this middleware
            raise
        finally:
            count()  # a response cut short, or answered by the server-error handler

    async def _serve(self, scope: Scope, receive: Receive, send: Send, body: bytes, answered: Callable[[], bool]) -> bool:
        """Run the app on ``body`` while watching the connection; True when the client left first
        (the app was cancelled then)."""
        gone = anyio.Event()
        left = False
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            await gone.wait()
            return {"type": "http.disconnect"}

        async with anyio.create_task_group() as group:

            async def watch() -> None:
                nonlocal left
                while True:  # the server answers http.disconnect when the client leaves or the response is complete
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        break
                gone.set()
                if not answered():
                    left = True
                    group.cancel_scope.cancel()

            group.start_soon(watch)
            await self.app(scope, replay, send)
            group.cancel_scope.cancel()  # the watcher, once answered
        return left

    async def _read(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None when it was answered here (too large, bad length) or the client left."""
        limit = self.max_body
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared < 0:
                    await _reject(send, 400, "bad_content_length", "The Content-Length header is not a number of bytes.",
                                  close=True)
                    return None
                if declared > limit:
                    self.metrics.refused("body_too_large")
                    await _reject(send, 413, "body_too_large", _too_large(limit), close=True)
                    return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # http.disconnect: nobody to answer
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                self.metrics.refused("body_too_large")
                await _reject(send, 413, "body_too_large", _too_large(limit), close=True)
                return None
            if chunk:
                chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def _too_large(limit: int) -> str:
    return f"The request body is larger than this service accepts ({limit:,} bytes)."


async def _reject(send: Send, status: int, code: str, message: str, *, close: bool = False,
                  headers: dict[str, str] | None = None) -> None:
    """Answer with the service's JSON error, from the edge (the endpoint never ran, or was cancelled)."""
    extra = dict(headers or {})
    if close:
        extra["connection"] = "close"
    response = JSON(error_body(code, message), status_code=status, headers=extra)
    with anyio.CancelScope(shield=True):
        await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
        await send({"type": "http.response.body", "body": response.body})
