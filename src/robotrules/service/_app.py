"""The service as an app: :func:`create_app` puts the parts together; :func:`run` serves it.

"May this agent fetch this URL?" over HTTP, and the web tester's API. The parts::

    lean        GET /v1/check answered from the cache before the framework           (_lean)
    edge        deadline, cancellation when the client leaves, body limit, metrics   (_edge)
    routes      one module-level handler per endpoint                                 (_routes)
    live        live checks: screen, cached first, loads through the fetch gate       (_live)
    drafts      texts a request carries: verdicts, lint, diff, cancellable            (_drafts)
    purpose     the answer to "may it be used for X?" beside a verdict               (_purpose)
    admission   the fetch and work gates, with bounded queues                        (_admission)
    settings    every option and limit                                                (settings)
    server      uvicorn: request-head deadline, connection limit, access log          (_server)

Endpoints::

    GET  /v1/check?url=U&agent=A...   live verdicts (the robots.txt fetched and cached as Google does);
                                      &purpose=train-ai|search|ai-input: and may the content be used for it
    POST /v1/check                    {"urls": [...], "agents": [...], "purpose": ...}: every URL for every agent
    GET  /v1/robots?url=U             the cached robots.txt governing U: state, body, sitemaps
    POST /v1/test                     verdicts against a draft robots.txt (purpose: as for /v1/check), and its lint findings
    POST /v1/lint                     lint findings of a robots.txt text
    POST /v1/diff                     what changes between two versions (texts or live URLs)
    GET  /v1/agents                   the crawler registry (robotrules.crawlers)
    GET  /v1/vocabulary               the words of verdicts, preferences, uses and crawler kinds
    GET  /healthz, /metrics           liveness with the store's state; Prometheus metrics
    GET  /openapi.json                the API's description (/docs and /redoc only with docs=True)
    GET  /, /static/*                 the web page, when its files are installed

Every error is ``{"error": {"code", "message"}}`` (:mod:`robotrules.service._errors`). The
private-address guard (``allow_private=False``, the default) makes the client refuse robots.txt
hosts that resolve to loopback, private, link-local or metadata addresses (403; an address
literal before any lookup) and redirect hops to them (answered as a redirect leading nowhere:
full allow, F3).
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import asdict, replace
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles

from robotrules._version import __version__
from robotrules.cache import SQLiteStore, Store, default_path
from robotrules.client import AsyncRobotsClient
from robotrules.core.policy import Policy
from robotrules.fetch import DEFAULT_USER_AGENT, AddressPolicy
from robotrules.service._admission import Gates
from robotrules.service._browsers import host_allowed, loopback_hosts
from robotrules.service._edge import Edge
from robotrules.service._errors import JSON, error_response, install
from robotrules.service._lean import PATH as LEAN_PATH
from robotrules.service._lean import Lean
from robotrules.service._live import Live
from robotrules.service._metrics import Metrics
from robotrules.service._routes import STATIC_DIR, router
from robotrules.service.settings import Settings

__all__ = ["STATIC_DIR", "SWITCH_INTERVAL", "Settings", "create_app", "from_env", "run"]

SWITCH_INTERVAL = 0.001
"""Seconds a thread runs before the interpreter hands the GIL to another that waits (the process's)."""


_KNOWN_HOSTS = 64
"""``Host`` values a service limited to some names remembers as allowed (:meth:`_Service._host_allowed`)."""


class _Service(FastAPI):
    """The app: FastAPI, with :class:`~robotrules.service._lean.Lean` in front of it for ``GET /v1/check``,
    and in front of both the ``Host`` check (:mod:`robotrules.service._browsers`)."""

    lean: Lean | None = None
    hosts: frozenset[str] = frozenset()
    _host_values: set[bytes] | None = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and self.hosts and not self._host_allowed(scope):
            self.state.live.metrics.refused("wrong_host")
            await error_response(421, "wrong_host", "This service answers only requests sent to "
                                 f"{', '.join(sorted(self.hosts))}.", headers={"connection": "close"})(
                scope, receive, send)
            return
        lean = self.lean
        if (lean is not None and scope["type"] == "http" and scope["path"] == LEAN_PATH and scope["method"] == "GET"
                and await lean(scope, send)):
            return
        await super().__call__(scope, receive, send)

    def _host_allowed(self, scope: Any) -> bool:
        """:func:`~robotrules.service._browsers.host_allowed`, remembered for the first few ``Host``
        values it allowed (a client sends the same one each time; reading it costs more than the
        lean path's check of the URL). A value it refused is read again each time."""
        known = self._host_values
        if known is None:
            known = self._host_values = set()
        for name, value in scope["headers"]:
            if name == b"host":
                if value in known:
                    return True
                allowed = host_allowed(scope, self.hosts)
                if allowed and len(known) < _KNOWN_HOSTS:
                    known.add(value)
                return allowed
        return host_allowed(scope, self.hosts)


def create_app(
    *,
    store: Store | None = None,
    client: AsyncRobotsClient | None = None,
    addresses: AddressPolicy | None = None,
    settings: Settings | None = None,
    **options: Any,
) -> FastAPI:
    """The service as an ASGI app (FastAPI); run it with uvicorn (or :func:`run`).

    ``settings``: a :class:`Settings`; ``options``: any of its fields, over it (``allow_private``,
    ``user_agent``, ``fetch_timeout``, ``deadline``, ``max_urls``, ``max_agents``,
    ``max_checks``, ``max_hosts``, ``max_body``, ``max_url_length``, ``fetches``,
    ``fetches_per_request``, ``work``, ``queue``, ``docs``; see :mod:`robotrules.service.settings`
    for what each bounds). One :class:`~robotrules.AsyncRobotsClient` serves every request:
    ``client`` if given (not closed at shutdown), else one made at startup and closed at
    shutdown, with ``store`` (default: a :class:`~robotrules.SQLiteStore` at
    :func:`robotrules.cache.default_path`, made and closed here), ``user_agent`` for its
    robots.txt requests, and ``Policy(public_addresses_only=not allow_private,
    fetch_timeout=fetch_timeout)``. ``addresses``: an :class:`~robotrules.fetch.AddressPolicy`
    for that client (to permit an internal network, or for tests).
    """
    settings = replace(settings or Settings(), **options)
    service = Live(settings, Metrics(), Gates.of(settings.fetches, settings.work, settings.queue))
    service.metrics.watch(service.gates)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if client is not None:
            service.client = client
            yield
            return
        own_store = store if store is not None else SQLiteStore(default_path())
        policy = Policy(public_addresses_only=not settings.allow_private, fetch_timeout=settings.fetch_timeout)
        made = AsyncRobotsClient(own_store, user_agent=settings.user_agent or DEFAULT_USER_AGENT, policy=policy,
                                 addresses=addresses)
        service.client = made
        try:
            yield
        finally:
            service.client = None
            await made.aclose()
            if store is None:
                own_store.close()

    app = _Service(
        title="robotrules",
        version=__version__,
        summary="robots.txt exactly as Google applies it: live verdicts, drafts, lint and diffs.",
        description=_description(settings),
        lifespan=lifespan,
        default_response_class=JSON,
        docs_url="/docs" if settings.docs else None,
        redoc_url="/redoc" if settings.docs else None,
    )
    app.state.live = service
    app.lean = Lean(service)
    app.hosts = frozenset(settings.hosts)
    install(app, service.metrics.refused)
    paths: set[str] = set()
    app.add_middleware(Edge, metrics=service.metrics, max_body=settings.max_body, deadline=settings.deadline,
                       paths=paths, gates=service.gates, small_body=settings.small_body)
    app.include_router(router)
    if os.path.isdir(STATIC_DIR):
        app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    paths.update(route.path for route in (*app.routes, *router.routes) if isinstance(route, APIRoute))
    return app


def _description(settings: Settings) -> str:
    return (
        "Every verdict names the deciding line of the robots.txt. Live checks fetch and cache each site's "
        "robots.txt with Google's status and caching rules. Errors are "
        '`{"error": {"code": "...", "message": "..."}}`: 400 for a body that cannot be read as JSON, 422 for JSON '
        "of the wrong shape.\n\n"
        f"**Limits.** Each request has a deadline of {settings.deadline:g} seconds: past it, its work is cancelled "
        "and it is answered 503 `deadline_exceeded` with `Retry-After`, as is a request that finds too much work "
        f"queued (503 `overloaded`). One request takes at most {settings.max_urls:,} URLs, {settings.max_agents:,} "
        f"agents, {settings.max_checks:,} URL x agent checks, {settings.max_hosts:,} distinct sites (live checks) "
        f"and URLs of {settings.max_url_length:,} characters, in a body of at most {settings.max_body:,} bytes; "
        f"each robots.txt fetch takes at most {settings.fetch_timeout:g} seconds. Work is cancelled when the "
        "client disconnects."
    )


def from_env() -> FastAPI:
    """:func:`create_app` configured from the environment, for ``uvicorn --factory`` (several workers).

    ``ROBOTRULES_REDIS`` (a Redis URL: the shared cache; ``ROBOTRULES_REDIS_PREFIX`` its key
    prefix), else ``ROBOTRULES_CACHE`` (SQLite file; default :func:`robotrules.cache.default_path`);
    ``ROBOTRULES_ALLOW_PRIVATE=1``, ``ROBOTRULES_USER_AGENT``, ``ROBOTRULES_FETCH_TIMEOUT`` and
    ``ROBOTRULES_DEADLINE`` (seconds), ``ROBOTRULES_DOCS=1``, ``ROBOTRULES_HOSTS`` (the ``Host``
    names answered, comma-separated; default any: uvicorn, not the app, knows the address it listens on).
    """
    env = os.environ
    defaults = Settings()
    return _settled(create_app(
        store=_store(env.get("ROBOTRULES_CACHE"), env.get("ROBOTRULES_REDIS"), env.get("ROBOTRULES_REDIS_PREFIX")),
        allow_private=_flag(env.get("ROBOTRULES_ALLOW_PRIVATE")),
        user_agent=env.get("ROBOTRULES_USER_AGENT") or None,
        fetch_timeout=float(env.get("ROBOTRULES_FETCH_TIMEOUT") or defaults.fetch_timeout),
        deadline=float(env.get("ROBOTRULES_DEADLINE") or defaults.deadline),
        docs=_flag(env.get("ROBOTRULES_DOCS")),
        hosts=tuple(name.strip() for name in (env.get("ROBOTRULES_HOSTS") or "").split(",") if name.strip()),
    ))


def _settled(app: FastAPI) -> FastAPI:
    """``app``, with what the process holds so far (modules, the app) moved out of the garbage
    collector's reach (:func:`gc.freeze`): for a process that serves one app (:func:`from_env`,
    :func:`run`). Without it, each full collection walks the tens of thousands of objects of
    FastAPI, pydantic and the app: tens of milliseconds with every request waiting (the p99
    of issue #21). Cycles made later are collected as before.

    And the interpreter's thread switch interval is 1 ms (:func:`sys.setswitchinterval`, 5 ms by
    default): a draft's worker thread, computing, then holds the GIL for at most 1 ms before the
    event loop gets it back, so /healthz and cached checks wait less behind drafts (issue #33)."""
    gc.collect()
    gc.freeze()
    sys.setswitchinterval(SWITCH_INTERVAL)
    return app


def _flag(value: str | None) -> bool:
    return (value or "").lower() in ("1", "true", "yes", "on")


def _store(cache: str | None, redis: str | None, prefix: str | None = None) -> Store:
    if redis:
        from robotrules.cache import RedisStore

        return RedisStore(redis, prefix=prefix) if prefix else RedisStore(redis)
    return SQLiteStore(cache or default_path())


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    cache: str | None = None,
    redis: str | None = None,
    log_level: str = "info",
    access_log: str | bool | None = "text",
    **options: Any,
) -> None:
    """Serve until interrupted (blocking; Ctrl-C is a normal end), with :func:`robotrules.service.server_config`.

    ``redis``: a Redis URL (``redis://host:6379/0``): the cache is shared by every instance given
    the same one; else the SQLite file ``cache`` (default :func:`robotrules.cache.default_path`),
    shared by the processes of this machine. ``access_log``: one line per request on standard
    output, ``"text"`` (default) or ``"json"``, or ``"off"``
    (:class:`robotrules.service._server.AccessLog`). ``options``: :class:`Settings` fields
    (``allow_private`` turns the private-address guard off; ``deadline``, ``docs``, ...). On a
    loopback ``host`` the service answers only requests sent to a loopback name (``hosts``, unless
    given: :func:`robotrules.service._browsers.loopback_hosts`), so that no web page can reach it
    by DNS rebinding.
    """
    import uvicorn

    from robotrules.service._server import AccessLog, access_format, config

    unknown = set(options) - set(asdict(Settings()))
    if unknown:
        raise TypeError(f"unknown options: {', '.join(sorted(unknown))}")
    access_format(access_log)  # a bad value: ValueError before anything starts
    options.setdefault("hosts", tuple(loopback_hosts(host)))
    store = _store(cache, redis)
    served = None
    try:
        app = _settled(create_app(store=store, **options))
        served = config(app, host, port, log_level=log_level, access_log=access_log)
        uvicorn.Server(served).run()
    except KeyboardInterrupt:  # uvicorn stops gracefully on Ctrl-C, then raises it again: a normal end here
        pass
    finally:
        if served is not None and isinstance(served.app, AccessLog):
            served.app.flush()  # the access log's last lines (the lifespan's end wrote them, unless it failed)
        store.close()
