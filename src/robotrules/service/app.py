"""The HTTP decision service: "may this agent fetch this URL?" over HTTP, and the web tester's API.

A thin adapter (DESIGN: sans-I/O core, thin adapters): each endpoint validates its input, asks
the core or the one :class:`~robotrules.AsyncRobotsClient` of the app, and sends the shared JSON
forms (:mod:`robotrules.verdicts`, :mod:`robotrules.diff`). Endpoints::

    GET  /v1/check?url=U&agent=A...   live verdicts (the robots.txt fetched and cached as Google does)
    POST /v1/check                    {"urls": [...], "agents": [...]}: every URL for every agent
    GET  /v1/robots?url=U             the cached robots.txt governing U: state, body, sitemaps
    POST /v1/test                     verdicts against a draft robots.txt, and its lint findings
    POST /v1/lint                     lint findings of a robots.txt text
    POST /v1/diff                     what changes between two versions (texts or live URLs)
    GET  /v1/agents                   the crawler registry (robotrules.crawlers)
    GET  /healthz, /metrics           liveness with the store's state; Prometheus metrics
    GET  /, /static/*                 the web page, when its files are installed

Every error is ``{"error": {"code", "message"}}`` (:mod:`robotrules.service.errors`). The
private-address guard (``allow_private=False``, the default) makes the client refuse robots.txt
hosts that resolve to loopback, private, link-local or metadata addresses (403) and redirect hops
to them (answered as a redirect leading nowhere: full allow, F3). Request bodies are limited to
``max_body`` bytes, counted as they arrive (a missing or false Content-Length changes nothing).
"""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any

import anyio
import anyio.to_thread
from fastapi import FastAPI, Query
from fastapi.responses import FileResponse, PlainTextResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles

from robotrules import crawlers
from robotrules._version import __version__
from robotrules.cache import SQLiteStore, Store, default_path
from robotrules.client import AsyncRobotsClient, CheckResult, RobotsState
from robotrules.core.agents import user_agent_token
from robotrules.core.lint import lint
from robotrules.core.policy import Policy
from robotrules.core.robotstxt import parse
from robotrules.diff import diff
from robotrules.errors import BlockedAddress, InvalidURL, UnsupportedScheme
from robotrules.fetch import DEFAULT_USER_AGENT, AddressPolicy
from robotrules.service import models
from robotrules.service.errors import JSON, ApiError, error_body, install
from robotrules.service.metrics import CONTENT_TYPE, Metrics
from robotrules.verdicts import check_offline, from_result, state_dict

__all__ = ["STATIC_DIR", "Settings", "create_app", "from_env", "run"]

STATIC_DIR = os.path.join(os.path.dirname(__file__), "static")
"""The web page's files: ``index.html`` is served at ``/``, the rest under ``/static/``."""

FULL_DISALLOW = b"User-agent: *\nDisallow: /\n"
"""What /v1/diff compares for a live robots.txt that means "everything disallowed" (unreachable, 5xx)."""

_PARALLEL_FETCHES = 16  # robots.txt files fetched at once for one batch request

ASGIApp = Callable[[MutableMapping[str, Any], Callable[[], Awaitable[MutableMapping[str, Any]]],
                    Callable[[MutableMapping[str, Any]], Awaitable[None]]], Awaitable[None]]
Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Settings:
    """The limits and options of one app (see :func:`create_app`)."""

    allow_private: bool = False
    user_agent: str | None = None
    fetch_timeout: float = 10.0
    max_urls: int = 1000
    max_agents: int = 50
    max_body: int = 1_000_000

    def __post_init__(self) -> None:
        if not self.fetch_timeout > 0:
            raise ValueError("fetch_timeout must be > 0 seconds")
        if min(self.max_urls, self.max_agents, self.max_body) < 1:
            raise ValueError("max_urls, max_agents and max_body must be >= 1")


# -- the edge: body limit and metrics, around everything ------------------------------------

class _Edge:
    """ASGI middleware: counts and times every request (:class:`Metrics`) and enforces ``max_body``.

    The body is read here, counting bytes as they arrive, and replayed to the app: a body over
    the limit is answered 413 without reading the rest, whether or not Content-Length announced it.
    """

    def __init__(self, app: ASGIApp, metrics: Metrics, max_body: int, paths: set[str]) -> None:
        self.app = app
        self.metrics = metrics
        self.max_body = max_body
        self.paths = paths  # the routes' paths: the label of a request answered before routing

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 0  # 0: nothing sent (the client left while sending its body)
        started = False

        async def sending(message: Message) -> None:
            nonlocal status, started
            if message["type"] == "http.response.start":
                status = int(message["status"])
                started = True
            await send(message)

        try:
            body = await self._read(scope, receive, sending)
            if body is not None:
                replayed = False

                async def replay() -> Message:
                    nonlocal replayed
                    if replayed:
                        return await receive()
                    replayed = True
                    return {"type": "http.request", "body": body, "more_body": False}

                await self.app(scope, replay, sending)
        except BaseException:
            if not started:
                status = 500  # answered by the server-error handler, outside this middleware
            raise
        finally:
            if status:
                self.metrics.answered(_endpoint(scope, self.paths), scope.get("method", ""), status,
                                      time.perf_counter() - start)

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
                    await _reject(send, 400, "bad_content_length", "The Content-Length header is not a number of bytes.")
                    return None
                if declared > limit:
                    await _reject(send, 413, "body_too_large", _too_large(limit))
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
                await _reject(send, 413, "body_too_large", _too_large(limit))
                return None
            if chunk:
                chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


def _too_large(limit: int) -> str:
    return f"The request body is larger than this service accepts ({limit:,} bytes)."


async def _reject(send: Send, status: int, code: str, message: str) -> None:
    response = JSON(error_body(code, message), status_code=status, headers={"connection": "close"})
    body = response.body
    await send({"type": "http.response.start", "status": status, "headers": response.raw_headers})
    await send({"type": "http.response.body", "body": body})


def _endpoint(scope: Scope, paths: set[str]) -> str:
    """The metrics label of a request: its route's path template, so label values stay few
    ("/static" for the page's files, "unmatched" for any other path)."""
    route = scope.get("route")
    template = getattr(route, "path", None)
    if isinstance(template, str):
        return template
    path = str(scope.get("path", ""))
    if path in paths:  # answered before routing (a body over the limit)
        return path
    return "/static" if path.startswith("/static/") else "unmatched"


# -- helpers of the endpoints -----------------------------------------------------------------

def _robots_key(client: AsyncRobotsClient, url: str, where: str) -> str:
    """The robots.txt URL governing ``url``, or a 400 naming what is wrong with it."""
    try:
        return client.robots_url(url)
    except UnsupportedScheme as exc:
        raise ApiError(400, "unsupported_scheme", f"{where}{_cap(str(exc))}.") from None
    except (InvalidURL, TypeError) as exc:
        raise ApiError(400, "invalid_url", f"{where}{_cap(str(exc))}.") from None


def _cap(text: str, most: int = 300) -> str:
    """``text`` as the start of a sentence, cut to ``most`` characters (a URL may be long)."""
    text = text if len(text) <= most else text[: most - 1] + "\u2026"
    return text[:1].upper() + text[1:]


def _blocked(exc: BlockedAddress, metrics: Metrics) -> ApiError:
    metrics.blocked.inc()
    where = exc.address if exc.host == exc.address else f"{exc.host} ({exc.address})"
    return ApiError(403, "blocked_address",
                    f"The robots.txt host {where} is not a public address ({exc.reason}); "
                    "this service does not fetch robots.txt files from non-public addresses.")


def _limit(items: Sequence[str], most: int, what: str) -> None:
    if len(items) > most:
        raise ApiError(422, f"too_many_{what}", f"Too many {what}: {len(items):,} given, at most {most:,} per request.")


def _agents(agents: Sequence[str], most: int) -> list[str]:
    """The agents to decide for ("*" when none), each with a product token (G3)."""
    chosen = list(agents) or ["*"]
    _limit(chosen, most, "agents")
    for n, agent in enumerate(chosen):
        if not user_agent_token(agent):
            where = f"agents[{n}] " if len(chosen) > 1 else ""
            raise ApiError(422, "invalid_request",
                           f"The agent {where}{agent[:80]!r} has no product token (letters, '-' or '_'), so no group can name it.")
    return chosen


def _paths(urls: Sequence[str], field: str) -> None:
    """Draft URLs must be absolute URLs or paths starting with "/" (what RobotsTxt.check reads as meant)."""
    for n, url in enumerate(urls):
        head = url.split("://", 1)[0] if "://" in url else ""
        if url.startswith("/") or (head and head[0].isalpha() and all(c.isalnum() or c in "+-." for c in head)):
            continue
        raise ApiError(422, "invalid_path",
                       f"{field}[{n}] {url[:200]!r} is neither an absolute URL (https://example.com/page) "
                       "nor a path starting with '/'.")


def _text(raw: str) -> bytes:
    """A robots.txt given as JSON text, as the bytes a server would send (UTF-8; a lone surrogate replaced)."""
    return raw.encode("utf-8", "replace")


def _diagnostics(body: bytes, mode: str) -> list[dict[str, Any]]:
    return [{"line": d.line, "column": getattr(d, "column", 0), "severity": d.severity, "code": d.code,
             "message": d.message} for d in lint(body, mode)]


@dataclass
class _Service:
    """What the endpoints share: the settings, the metrics and (once started) the client."""

    settings: Settings
    metrics: Metrics
    client: AsyncRobotsClient | None = None

    @property
    def live(self) -> AsyncRobotsClient:
        if self.client is None:
            raise RuntimeError("the service is not started (run it with uvicorn, or enter its lifespan)")
        return self.client

    async def robots(self, url: str) -> RobotsState:
        client = self.live
        _robots_key(client, url, "")
        try:
            state = await client.robots(url)
        except BlockedAddress as exc:
            raise _blocked(exc, self.metrics) from None
        self.metrics.looked_up(state)
        return state

    async def check(self, urls: Sequence[str], agents: Sequence[str]) -> list[dict[str, Any]]:
        """Verdicts of every URL for every agent, in order; each site's robots.txt fetched once,
        up to :data:`_PARALLEL_FETCHES` sites at a time."""
        client, metrics = self.live, self.metrics
        keys = [_robots_key(client, url, f"urls[{n}]: " if len(urls) > 1 else "") for n, url in enumerate(urls)]
        pairs = [(url, agent) for url in urls for agent in agents]
        results: list[CheckResult | None] = [None] * len(pairs)
        first: dict[str, int] = {}
        for n, key in enumerate(keys):
            first.setdefault(key, n * len(agents))
        blocked: list[BlockedAddress] = []
        limiter = anyio.CapacityLimiter(_PARALLEL_FETCHES)

        async def one(index: int) -> None:
            async with limiter:
                try:
                    results[index] = await client.check(*pairs[index])
                except BlockedAddress as exc:
                    blocked.append(exc)

        if len(first) > 1:
            async with anyio.create_task_group() as group:
                for index in first.values():
                    group.start_soon(one, index)
        for index in range(len(pairs)):
            if blocked:
                break
            if results[index] is None:
                await one(index)
        if blocked:
            raise _blocked(blocked[0], metrics)
        verdicts = []
        for (url, agent), result in zip(pairs, results, strict=True):
            assert result is not None
            metrics.looked_up(result.state)
            metrics.decided(result.allowed)
            verdicts.append(from_result(result, url, agent).to_dict())
        return verdicts

    async def fetched_body(self, url: str) -> tuple[bytes, dict[str, Any]]:
        """The body /v1/diff compares for a live robots.txt: its text, nothing (full allow) or
        :data:`FULL_DISALLOW`, with the state that says which."""
        state = await self.robots(url)
        body = state.robots.body if state.robots is not None else b"" if state.kind == "allow" else FULL_DISALLOW
        return body, state_dict(state)


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": models.ErrorBody, "description": description}
    for status, description in {
        400: "A URL without a robots.txt to fetch, or a body that is not JSON",
        413: "The request body is over the size limit",
        422: "A missing or mistyped parameter or field, or too many URLs or agents",
    }.items()
}
LIVE_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS, 403: {"model": models.ErrorBody, "description": "The robots.txt host is not a public address"},
}
TEXT: dict[int | str, dict[str, Any]] = {200: {"content": {"text/plain": {"schema": {"type": "string"}}}, "description": "Prometheus text format"}}


def create_app(
    *,
    store: Store | None = None,
    allow_private: bool = False,
    user_agent: str | None = None,
    fetch_timeout: float = 10.0,
    client: AsyncRobotsClient | None = None,
    max_urls: int = 1000,
    max_agents: int = 50,
    max_body: int = 1_000_000,
    addresses: AddressPolicy | None = None,
) -> FastAPI:
    """The service as an ASGI app (FastAPI); run it with uvicorn (or :func:`run`).

    One :class:`~robotrules.AsyncRobotsClient` serves every request: ``client`` if given (not
    closed at shutdown), else one made at startup and closed at shutdown, with ``store`` (default:
    a :class:`~robotrules.SQLiteStore` at :func:`robotrules.cache.default_path`, made and closed
    here), ``user_agent`` for its robots.txt requests, and
    ``Policy(public_addresses_only=not allow_private, fetch_timeout=fetch_timeout)``.
    ``addresses``: an :class:`~robotrules.fetch.AddressPolicy` for that client (to permit an
    internal network, or for tests). ``max_urls`` and ``max_agents`` bound a request's lists
    (422 past them), ``max_body`` its body in bytes (413).
    """
    settings = Settings(allow_private, user_agent, fetch_timeout, max_urls, max_agents, max_body)
    service = _Service(settings, Metrics())
    registry = [crawler.to_dict() for crawler in crawlers.CRAWLERS]

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if client is not None:
            service.client = client
            yield
            return
        own_store = store if store is not None else SQLiteStore(default_path())
        policy = Policy(public_addresses_only=not allow_private, fetch_timeout=fetch_timeout)
        made = AsyncRobotsClient(own_store, user_agent=user_agent or DEFAULT_USER_AGENT, policy=policy,
                                 addresses=addresses)
        service.client = made
        try:
            yield
        finally:
            service.client = None
            await made.aclose()
            if store is None:
                own_store.close()

    app = FastAPI(
        title="robotrules",
        version=__version__,
        summary="robots.txt exactly as Google applies it: live verdicts, drafts, lint and diffs.",
        description=("Every verdict names the deciding line of the robots.txt. Live checks fetch and cache "
                     "each site's robots.txt with Google's status and caching rules. Errors are "
                     '`{"error": {"code": "...", "message": "..."}}`.'),
        lifespan=lifespan,
        default_response_class=JSON,
    )
    app.state.service = service
    install(app)
    paths: set[str] = set()
    app.add_middleware(_Edge, metrics=service.metrics, max_body=max_body, paths=paths)

    # -- live -------------------------------------------------------------------------------

    @app.get("/v1/check", response_model=models.CheckResponse, responses=LIVE_ERRORS, tags=["live"],
             summary="Decide a URL for agents (live robots.txt)")
    async def check_one(
        url: Annotated[str, Query(description="an absolute URL, percent-encoded as on the wire",
                                  examples=["https://example.com/private/page"])],
        agent: Annotated[list[str] | None, Query(description="token, versioned name or whole User-Agent header; repeatable; default '*'",
                                                 examples=["Googlebot"])] = None,
    ) -> Response:
        agents = _agents(agent or [], max_agents)
        return JSON({"results": await service.check([url], agents)})

    @app.post("/v1/check", response_model=models.CheckResponse, responses=LIVE_ERRORS, tags=["live"],
              summary="Decide many URLs for many agents (live robots.txt)")
    async def check_many(request: models.CheckRequest) -> Response:
        _limit(request.urls, max_urls, "urls")
        agents = _agents(request.agents, max_agents)
        return JSON({"results": await service.check(request.urls, agents)})

    @app.get("/v1/robots", response_model=models.RobotsResponse, responses=LIVE_ERRORS, tags=["live"],
             summary="The cached robots.txt governing a URL")
    async def robots(
        url: Annotated[str, Query(description="any URL of the site (or the robots.txt URL itself)",
                                  examples=["https://example.com/"])],
    ) -> Response:
        state = await service.robots(url)
        raw = state.entry.body
        has_body = state.robots is not None or bool(raw)
        return JSON({
            **state_dict(state),
            "body": raw.decode("utf-8", "replace") if has_body else None,
            "size": len(raw) if has_body else None,
            "sitemaps": list(state.robots.sitemaps) if state.robots is not None else [],
        })

    # -- drafts -----------------------------------------------------------------------------

    @app.post("/v1/test", response_model=models.TestResponse, responses=ERRORS, tags=["drafts"],
              summary="Decide URLs against a draft robots.txt")
    async def test(request: models.TestRequest) -> Response:
        _limit(request.urls, max_urls, "urls")
        agents = _agents(request.agents, max_agents)
        _paths(request.urls, "urls")
        body, urls, mode = _text(request.robots), request.urls, request.mode

        def work() -> dict[str, Any]:
            draft = parse(body, mode=mode)
            return {"results": [check_offline(draft, url, agent, "draft").to_dict() for url in urls for agent in agents],
                    "diagnostics": _diagnostics(body, mode)}

        return JSON(await anyio.to_thread.run_sync(work))

    @app.post("/v1/lint", response_model=models.LintResponse, responses=ERRORS, tags=["drafts"],
              summary="What Google ignores or misreads in a robots.txt")
    async def lint_text(request: models.LintRequest) -> Response:
        body, mode = _text(request.robots), request.mode
        found = await anyio.to_thread.run_sync(lambda: _diagnostics(body, mode))
        return JSON({"diagnostics": found,
                     "errors": sum(1 for d in found if d["severity"] == "error"),
                     "warnings": sum(1 for d in found if d["severity"] == "warning")})

    @app.post("/v1/diff", response_model=models.DiffResponse, responses=LIVE_ERRORS, tags=["drafts"],
              summary="What changes between two versions of a robots.txt")
    async def compare(request: models.DiffRequest) -> Response:
        _limit(request.urls, max_urls, "urls")
        _paths(request.urls, "urls")
        sides: dict[str, tuple[bytes, dict[str, Any] | None]] = {}
        for side, text, url in (("old", request.old, request.old_url), ("new", request.new, request.new_url)):
            if (text is None) == (url is None):
                raise ApiError(422, "invalid_request",
                               f"Give the {side} version either as text ('{side}') or as a URL ('{side}_url'), not "
                               f"{'both' if text is not None else 'neither'}.")
            sides[side] = (_text(text), None) if text is not None else await service.fetched_body(str(url))
        tokens = [user_agent_token(agent) for agent in _agents(request.agents, max_agents)] if request.agents else []
        (old, old_state), (new, new_state) = sides["old"], sides["new"]
        found = await anyio.to_thread.run_sync(
            lambda: diff(old, new, agents=tokens, urls=request.urls, mode=request.mode).to_dict())
        return JSON({**found, "old_robots": old_state, "new_robots": new_state})

    # -- the registry, health, metrics, the page --------------------------------------------

    @app.get("/v1/agents", response_model=models.AgentsResponse, tags=["registry"],
             summary="Well-known crawlers, with their operators' documentation")
    async def agents() -> Response:
        return JSON({"agents": registry})

    @app.get("/healthz", response_model=models.HealthResponse, tags=["service"], summary="Liveness")
    async def healthz() -> Response:
        return JSON({"status": "ok", "version": __version__, "store": service.live.store_state})

    @app.get("/metrics", response_class=PlainTextResponse, responses=TEXT, tags=["service"],
             summary="Prometheus metrics")
    async def metrics() -> Response:
        return Response(service.metrics.render(), media_type=CONTENT_TYPE)

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)  # HEAD: uptime probes
    async def page() -> Response:
        index = os.path.join(STATIC_DIR, "index.html")
        if not os.path.isfile(index):
            raise ApiError(404, "not_found", "The web page is not installed here; the API is described at /docs.")
        return FileResponse(index, media_type="text/html")

    if os.path.isdir(STATIC_DIR):
        app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    paths.update(route.path for route in app.routes if isinstance(route, APIRoute))
    return app


def from_env() -> FastAPI:
    """:func:`create_app` configured from the environment, for ``uvicorn --factory`` (several workers).

    ``ROBOTRULES_REDIS`` (a Redis URL: the shared cache; ``ROBOTRULES_REDIS_PREFIX`` its key
    prefix), else ``ROBOTRULES_CACHE`` (SQLite file; default :func:`robotrules.cache.default_path`);
    ``ROBOTRULES_ALLOW_PRIVATE=1``, ``ROBOTRULES_USER_AGENT``, ``ROBOTRULES_FETCH_TIMEOUT`` (seconds).
    """
    env = os.environ
    return create_app(
        store=_store(env.get("ROBOTRULES_CACHE"), env.get("ROBOTRULES_REDIS"), env.get("ROBOTRULES_REDIS_PREFIX")),
        allow_private=env.get("ROBOTRULES_ALLOW_PRIVATE", "").lower() in ("1", "true", "yes", "on"),
        user_agent=env.get("ROBOTRULES_USER_AGENT") or None,
        fetch_timeout=float(env.get("ROBOTRULES_FETCH_TIMEOUT") or 10.0),
    )


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
    allow_private: bool = False,
    user_agent: str | None = None,
    log_level: str = "info",
) -> None:
    """Serve until interrupted (blocking; ``uvicorn.run``).

    ``redis``: a Redis URL (``redis://host:6379/0``): the cache is shared by every instance given
    the same one; else the SQLite file ``cache`` (default :func:`robotrules.cache.default_path`),
    shared by the processes of this machine. ``allow_private`` turns the private-address guard off.
    """
    import uvicorn

    store = _store(cache, redis)
    try:
        app = create_app(store=store, allow_private=allow_private, user_agent=user_agent)
        uvicorn.run(app, host=host, port=port, log_level=log_level)
    finally:
        store.close()
