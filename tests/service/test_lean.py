"""The lean path of GET /v1/check (issue #21): a cached check answered before the framework, the
same answer, the same metrics; everything else (errors, cache misses, bodies) answered by the app
as before. The address policy still refuses private addresses (issue #16-H2)."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator, MutableMapping
from contextlib import ExitStack
from typing import Any, get_args

import httpx
import pytest

from robotrules import MemoryStore
from robotrules.service import _app as service_app
from robotrules.service import _lean as lean
from robotrules.service import _models as models
from robotrules.service import create_app, server_config
from tests.servers.http import HTTPServer

from ._serve import serving
from .conftest import error_of
from .test_service import _moved, _samples


class _Counted(lean.Lean):
    """The lean path, counting what it answers itself."""

    __slots__ = ("answered",)

    def __init__(self, live: Any) -> None:
        super().__init__(live)
        self.answered = 0

    async def __call__(self, scope: MutableMapping[str, Any], send: Any) -> bool:
        done = await super().__call__(scope, send)
        self.answered += done
        return done


@pytest.fixture
def served() -> Iterator[Any]:
    """``served(**create_app_options)`` -> (client, counted lean path) of a new app."""
    with ExitStack() as stack:

        def served(**options: Any) -> tuple[httpx.Client, _Counted]:
            options.setdefault("store", MemoryStore())
            options.setdefault("allow_private", True)
            app = create_app(**options)
            counted = app.lean = _Counted(app.state.live)  # type: ignore[attr-defined]
            base = stack.enter_context(serving(app))
            return stack.enter_context(httpx.Client(base_url=base, timeout=10.0)), counted

        yield served


def _steady(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Verdicts without what moves with the clock (the copy's age, and the sentence that says it)."""
    return [{**r, "robots": {k: v for k, v in r["robots"].items() if k not in ("age", "summary")}} for r in results]


def test_a_cached_get_check_is_answered_by_the_lean_path_with_the_apps_answer(served: Any, site: HTTPServer) -> None:
    """C1-C3: the first check fetches (the app answers it), the next ones are cache hits answered by
    the lean path with the verdicts, JSON and headers the app gives (POST /v1/check goes through the app)."""
    api, counted = served()
    params = [("url", site.url("/private/page")), ("agent", "Googlebot"), ("agent", "OtherBot"), ("purpose", "train-ai")]
    first = api.get("/v1/check", params=params)
    assert first.status_code == 200 and counted.answered == 0
    assert first.json()["results"][0]["robots"]["cache"] == "miss"
    again = api.get("/v1/check", params=params)
    assert again.status_code == 200 and counted.answered == 1
    assert again.headers["content-type"] == "application/json"
    assert int(again.headers["content-length"]) == len(again.content)
    assert again.content.isascii()
    through_app = api.post("/v1/check", json={"urls": [site.url("/private/page")], "agents": ["Googlebot", "OtherBot"],
                                              "purpose": "train-ai"})
    assert counted.answered == 1
    assert _steady(again.json()["results"]) == _steady(through_app.json()["results"])
    assert [r["robots"]["cache"] for r in again.json()["results"]] == ["hit", "hit"]


def test_the_lean_path_counts_the_request_its_latency_the_hit_and_each_verdict(served: Any, site: HTTPServer) -> None:
    """The metrics move as they do for the app (#16-M1 labels): one request, one latency, one cache hit, each verdict."""
    api, counted = served()
    api.get("/v1/check", params={"url": site.url("/")})  # the miss, through the app
    before = _samples(api)
    for _ in range(3):
        api.get("/v1/check", params=[("url", site.url("/private/x")), ("agent", "a"), ("agent", "Googlebot")])
    after = _samples(api)
    assert counted.answered == 3
    assert _moved(before, after, 'robotrules_http_requests_total{endpoint="/v1/check",method="GET",status="200"}') == 3
    assert _moved(before, after, 'robotrules_http_request_duration_seconds_count{endpoint="/v1/check"}') == 3
    assert _moved(before, after, 'robotrules_cache_results_total{result="hit"}') == 3
    assert _moved(before, after, 'robotrules_decisions_total{verdict="disallowed"}') == 3
    assert _moved(before, after, 'robotrules_decisions_total{verdict="allowed"}') == 3


@pytest.mark.parametrize(("params", "status", "code"), [
    ({}, 422, "invalid_request"),  # no url
    ({"url": "{site}/", "purpose": "world-domination"}, 422, "invalid_request"),
    ({"url": "{site}/", "agent": "/1.0"}, 422, "invalid_request"),  # G3: no product token
    ({"url": "example.com/page"}, 400, "invalid_url"),  # S1: not absolute
    ({"url": "ws://example.com/chat"}, 400, "unsupported_scheme"),  # S5
    ({"url": "{site}/" + "x" * 20_000}, 422, "url_too_long"),
])
def test_checks_the_lean_path_cannot_answer_get_the_apps_error(served: Any, site: HTTPServer, params: dict[str, str],
                                                                status: int, code: str) -> None:
    """Every error answer of GET /v1/check is the app's, with its code and words, cached robots.txt or not."""
    api, counted = served()
    api.get("/v1/check", params={"url": site.url("/")})  # cached: only the request's own flaw stops the lean path
    query = {key: value.replace("{site}", site.url("").rstrip("/")) for key, value in params.items()}
    error_of(api.get("/v1/check", params=query), status, code)
    assert counted.answered == 0


def test_a_repeated_url_or_purpose_is_answered_by_the_app_as_before(served: Any, site: HTTPServer) -> None:
    """FastAPI reads one value of a repeated scalar parameter; the lean path does not guess which: it hands over."""
    api, counted = served()
    api.get("/v1/check", params={"url": site.url("/")})
    response = api.get("/v1/check", params=[("url", site.url("/a")), ("url", site.url("/private"))])
    assert response.status_code == 200 and counted.answered == 0
    response = api.get("/v1/check", params=[("url", site.url("/a")), ("purpose", "search"), ("purpose", "train-ai")])
    assert response.status_code == 200 and counted.answered == 0


def test_a_private_address_is_refused_whether_or_not_it_is_cached(served: Any, site: HTTPServer) -> None:
    """#16-H2: with the guard on (the default), an address literal it refuses is a 403, counted, even
    when its robots.txt is in the cache (put there by an instance that allows it)."""
    store = MemoryStore()
    open_api, _ = served(store=store, allow_private=True)
    assert open_api.get("/v1/check", params={"url": site.url("/")}).status_code == 200  # now in the shared store
    api, counted = served(store=store, allow_private=False)
    before = _samples(api)
    error_of(api.get("/v1/check", params={"url": site.url("/x")}), 403, "blocked_address")
    assert _moved(before, _samples(api), "robotrules_blocked_addresses_total") == 1
    assert counted.answered == 0


def test_a_get_check_with_a_body_is_read_and_bounded_by_the_edge(served: Any, site: HTTPServer) -> None:
    """The body limit holds for every request: a GET with a body over it is a 413, cached robots.txt or not."""
    api, counted = served(max_body=100)
    api.get("/v1/check", params={"url": site.url("/")})
    response = api.request("GET", "/v1/check", params={"url": site.url("/")}, content=b"x" * 500)
    error_of(response, 413, "body_too_large")
    small = api.request("GET", "/v1/check", params={"url": site.url("/")}, content=b"x" * 50)
    assert small.status_code == 200 and counted.answered == 0  # answered by the app, after the edge read it


def test_the_lean_paths_purposes_are_the_apis() -> None:
    """The lean path takes exactly the purposes the OpenAPI schema lists (anything else: the app's 422)."""
    assert frozenset(get_args(models.Purpose)) == lean._PURPOSES


def test_the_served_app_runs_on_uvloop_with_httptools() -> None:
    """The ``serve`` extra's uvloop and httptools are what ``robotrules serve`` runs on (server_config)."""
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

    seen: list[str] = []

    async def app(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        seen.append(type(asyncio.get_running_loop()).__module__)
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    assert issubclass(server_config(app).http, HttpToolsProtocol)  # type: ignore[arg-type]
    with serving(app) as base:
        assert httpx.get(base + "/", timeout=10).status_code == 204
    assert seen and seen[0].startswith("uvloop")


def test_a_process_serving_one_app_freezes_what_it_holds_for_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    """A full collection would walk every object of FastAPI, pydantic and the app (tens of ms, every
    request waiting: issue #21's p99); ``from_env`` and ``run`` freeze them once the app is made."""
    calls: list[str] = []

    def collect(*args: int) -> int:
        calls.append("collect")
        return 0

    monkeypatch.setattr(gc, "collect", collect)
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    app = create_app(store=MemoryStore())
    assert service_app._settled(app) is app
    assert calls == ["collect", "freeze"]
