"""The lean path of ``GET /v1/check``: a cached check answered without the framework (issue #21).

The common request of a crawler fleet is one URL, a few agents, a robots.txt this process holds.
FastAPI and the edge cost far more than that check (the profile in ``docs/guides/service.md``:
a task group, a watcher task and a cancel scope per request in :class:`~robotrules.service._edge.Edge`,
then FastAPI's middleware, dependency solving and exit stacks), so :class:`Lean` answers it first,
on the event loop, in one synchronous step, and hands every other request to the app::

    GET /v1/check, no body ─> query read ─> URL screened, agents checked ─> robots.txt cached here?
         │                      │ anything odd            │ refused                 │ no
         │                      v                         v                         v
         └─ anything else ───> the app (edge, FastAPI, the same handler): it answers as it always did

Nothing is sent, counted or changed before the lean path knows it can answer, so a request it
hands over is answered by the app exactly as before: every error (400, 403, 422 with the same
code and message), every cache miss (fetched through the fetch gate), every request with a body
(the edge's body limit), every odd query (a repeated ``url`` or ``purpose``, an unknown
purpose: FastAPI's validation answer). The address policy is the client's
(:meth:`~robotrules.client.AsyncRobotsClient.screen`): an address literal it refuses is handed
over and refused there (403, counted). What the lean path answers, it answers as the handler
would: the same verdicts (:meth:`~robotrules.service._live.Live.cached_check`), the same JSON
bytes and headers (:class:`~robotrules.service._errors.JSON`), the same metrics (one request, its
latency, the cache hit, each verdict). It has no await before its answer, so it needs no
deadline and no watch on the client: there is nothing to cancel.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qsl

from robotrules.core.usage import CATEGORIES
from robotrules.service._live import Live

__all__ = ["PATH", "Lean"]

PATH = "/v1/check"

Scope = MutableMapping[str, Any]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]

_PURPOSES = frozenset(CATEGORIES)
"""The values of ``purpose``: the usage categories (:data:`robotrules.core.usage.CATEGORIES`)."""

_BODY_HEADERS = (b"content-length", b"transfer-encoding")

_ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode
"""The service's JSON (:class:`~robotrules.service._errors.JSON`), with one encoder made once
(``json.dumps`` with options makes one per call)."""


class Lean:
    """The lean path of ``GET /v1/check`` over one app's :class:`Live` (see the module)."""

    __slots__ = ("live",)

    def __init__(self, live: Live) -> None:
        self.live = live

    async def __call__(self, scope: Scope, send: Send) -> bool:
        """Answer ``scope`` (a GET of :data:`PATH`) when it is a cached check; False: not answered, nothing sent."""
        start = time.perf_counter()
        found = self.answer(scope)
        if found is None:
            return False
        body, verdicts = found
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(len(body)).encode("ascii")),
                                (b"content-type", b"application/json")]})
        self.live.metrics.check_answered(verdicts, time.perf_counter() - start)  # before the body goes:
        await send({"type": "http.response.body", "body": body})  # a client holding it finds it counted
        return True

    def answer(self, scope: Scope) -> tuple[bytes, list[bool]] | None:
        """The JSON body and the verdicts (allowed or not) of a cached check, or None to hand it to the app."""
        for name, value in scope["headers"]:
            if name in _BODY_HEADERS and (name != b"content-length" or value.strip() != b"0"):
                return None  # a body: the edge reads and bounds it
        url: str | None = None
        purpose: str | None = None
        agents: list[str] = []
        for key, value in parse_qsl(scope["query_string"].decode("latin-1"), keep_blank_values=True):
            if key == "agent":
                agents.append(value)
            elif key == "url":
                if url is not None:
                    return None
                url = value
            elif key == "purpose":
                if purpose is not None or value not in _PURPOSES:
                    return None
                purpose = value
        if url is None:
            return None
        try:
            results = self.live.cached_check(url, agents, purpose)
        except Exception:  # an error answer: the app gives it, counted, in its own words
            return None
        if results is None:
            return None
        body = _ENCODE({"results": results}).encode("ascii")
        return body, [result["allowed"] for result in results]
