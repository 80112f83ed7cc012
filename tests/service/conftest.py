"""Fixtures of the service tests: a robots.txt site and the service, both real HTTP on 127.0.0.1.

``site`` is a scriptable :class:`~tests.servers.http.HTTPServer` serving :data:`ROBOTS`;
``start(**options)`` serves :func:`robotrules.service.create_app` with uvicorn in a thread (a
fresh MemoryStore, ``allow_private=True`` unless the test says otherwise) and returns an httpx
client on it; ``api`` is one such client with the defaults. Everything stops when the test ends.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from typing import Any

import httpx
import pytest

from robotrules import MemoryStore
from robotrules.service import create_app
from tests.servers.http import HTTPServer, respond

from ._serve import serving

ROBOTS = b"""\
User-agent: *
Disallow: /private
Allow: /private/open

User-agent: Googlebot
Disallow: /nogoogle
Crawl-delay: 2

Sitemap: https://example.com/sitemap.xml
"""

REQUIREMENT_ID = re.compile(r"\b[SFCPGRNAL]\d{1,2}\b")
"""Requirement ids (F5, G3, ...): never in what users read."""

Start = Callable[..., httpx.Client]


@pytest.fixture(autouse=True)
def no_gc_freeze(monkeypatch: pytest.MonkeyPatch) -> None:
    """The process entry points (``from_env``, ``run``) freeze the garbage collector's view of the
    process (:func:`gc.freeze`) and shorten its thread switch interval; in the test process that
    would outlive the test: no-ops here."""
    import gc
    import sys

    monkeypatch.setattr(gc, "freeze", lambda: None)
    monkeypatch.setattr(sys, "setswitchinterval", lambda interval: None)


@pytest.fixture
def site() -> Iterator[HTTPServer]:
    """A site on loopback whose /robots.txt is :data:`ROBOTS`."""
    with HTTPServer() as server:
        server.route("/robots.txt", respond(200, ROBOTS))
        yield server


@pytest.fixture
def start() -> Iterator[Start]:
    """``start(**create_app_options)``: serve a new app, return an httpx client on it (10 s timeouts);
    ``server={...}``: options of the server's configuration (``head_timeout``, ``protocol``, ...)."""
    with ExitStack() as stack:

        def start(*, server: dict[str, Any] | None = None, **options: Any) -> httpx.Client:
            options.setdefault("store", MemoryStore())
            options.setdefault("allow_private", True)
            options.setdefault("fetch_timeout", 5.0)
            base = stack.enter_context(serving(create_app(**options), **(server or {})))
            return stack.enter_context(httpx.Client(base_url=base, timeout=10.0))

        yield start


@pytest.fixture
def api(start: Start) -> httpx.Client:
    """A client of a service with the defaults (private addresses allowed: the sites are on loopback)."""
    return start()


def error_of(response: httpx.Response, status: int, code: str) -> str:
    """Assert ``response`` is the JSON error ``status``/``code`` in plain words; return its message."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["code"] == code, body
    message: str = body["error"]["message"]
    assert message and not REQUIREMENT_ID.search(message), message
    assert "Traceback" not in message
    return message
