"""The service's endpoints, as module-level handlers on one router (each importable and testable alone).

Each handler validates its input, asks :class:`~robotrules.service._live.Live` (live robots.txt
files) or :mod:`robotrules.service._drafts` (texts the request carries), and sends the shared
JSON forms (:mod:`robotrules.answers`, :mod:`robotrules.diff`), in the one convention (lines and
columns 1-based, "no line" null: :func:`robotrules.answers.json_ready`). The app's
:class:`~robotrules.service._live.Live` reaches them as a dependency (:func:`live`), set by
:func:`robotrules.service.create_app`.
"""

from __future__ import annotations

import os
from typing import Annotated, Any

import anyio
import anyio.from_thread
import anyio.to_thread
from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import FileResponse, PlainTextResponse, Response

from robotrules import crawlers
from robotrules._version import __version__
from robotrules.answers import json_ready, state_dict, token_of
from robotrules.edit import EditRefused
from robotrules.errors import TooMuchWork
from robotrules.hosts import robots_url
from robotrules.service import _drafts as drafts
from robotrules.service import _models as models
from robotrules.service import _vocabulary as vocabulary
from robotrules.service._browsers import PAGE_HEADERS
from robotrules.service._errors import JSON, ApiError
from robotrules.service._live import Live, agents_of, drafts_urls, limit
from robotrules.service._metrics import CONTENT_TYPE

__all__ = ["ERRORS", "LIVE_ERRORS", "STATIC_DIR", "router"]

STATIC_DIR = os.path.join(os.path.dirname(__file__), "static")
"""The web page's files: ``index.html`` is served at ``/``, the rest under ``/static/``."""


def _error(description: str) -> dict[str, Any]:
    return {"model": models.ErrorBody, "description": description}


ERRORS: dict[int | str, dict[str, Any]] = {
    400: _error("A URL without a robots.txt to fetch, or a body that cannot be read as JSON"),
    408: _error("The request body did not arrive before the deadline"),
    413: _error("The request body is over the size limit"),
    422: _error("JSON of the wrong shape: a missing or mistyped field, too many URLs, agents, checks or sites, "
                "a URL too long; a diff or edit that would take more work than allowed (too_much_work)"),
    503: _error("Too much work queued (overloaded), or the request's deadline passed (deadline_exceeded); "
                "the Retry-After header says when to try again"),
}
LIVE_ERRORS: dict[int | str, dict[str, Any]] = {
    **ERRORS, 403: _error("The robots.txt host is not a public address"),
}
TEXT: dict[int | str, dict[str, Any]] = {200: {"content": {"text/plain": {"schema": {"type": "string"}}},
                                               "description": "Prometheus text format"}}

router = APIRouter()


async def live(request: Request) -> Live:
    """The app's :class:`Live` (a dependency of every handler). ``async``: FastAPI runs a plain
    ``def`` dependency in a worker thread, a thread hop per request for one attribute read."""
    found: Live = request.app.state.live
    return found


Service = Annotated[Live, Depends(live)]


async def _work(function: Any, *args: Any) -> Any:
    """``function(*args, checkpoint)`` in a worker thread (the request holds a work slot: the edge took
    it for its body); it stops at its next checkpoint when the request is cancelled."""
    return await anyio.to_thread.run_sync(function, *args, anyio.from_thread.check_cancelled)


# -- live -----------------------------------------------------------------------------------------

@router.get("/v1/check", response_model=models.CheckResponse, responses=LIVE_ERRORS, tags=["live"],
            summary="Decide a URL for agents (live robots.txt)")
async def check_one(
    service: Service,
    url: Annotated[str, Query(description="an absolute URL, percent-encoded as on the wire",
                              examples=["https://example.com/private/page"])],
    agent: Annotated[list[str] | None, Query(description="token, versioned name or whole User-Agent header; "
                                                         "repeatable; default '*'", examples=["Googlebot"])] = None,
    purpose: Annotated[models.Purpose | None, Query(description="ask whether the content may be used for this "
                                                                "purpose: each result then says so in 'use'",
                                                    examples=["train-ai"])] = None,
) -> Response:
    agents = agents_of(agent or [], service.settings)
    return JSON({"results": await service.check([url], agents, purpose)})


@router.post("/v1/check", response_model=models.CheckResponse, responses=LIVE_ERRORS, tags=["live"],
             summary="Decide many URLs for many agents (live robots.txt)")
async def check_many(service: Service, request: models.CheckRequest) -> Response:
    limit(len(request.urls), service.settings.max_urls, "urls")
    agents = agents_of(request.agents, service.settings)
    return JSON({"results": await service.check(request.urls, agents, request.purpose)})


@router.get("/v1/robots", response_model=models.RobotsResponse, responses=LIVE_ERRORS, tags=["live"],
            summary="The cached robots.txt governing a URL")
async def robots(
    service: Service,
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


# -- drafts ---------------------------------------------------------------------------------------

@router.post("/v1/test", response_model=models.TestResponse, responses=ERRORS, tags=["drafts"],
             summary="Decide URLs against a draft robots.txt")
async def test(service: Service, request: models.TestRequest) -> Response:
    agents = agents_of(request.agents, service.settings)
    drafts_urls(request.urls, len(agents), service.settings)
    body = drafts.text(request.robots)
    found = await _work(drafts.verdicts, body, request.urls, agents, request.mode, request.purpose,
                        service.settings.max_listed)
    return JSON(json_ready(found))


@router.post("/v1/lint", response_model=models.LintResponse, responses=ERRORS, tags=["drafts"],
             summary="What Google ignores or misreads in a robots.txt")
async def lint_text(service: Service, request: models.LintRequest) -> Response:
    return JSON(await _work(drafts.findings, drafts.text(request.robots), request.mode, service.settings.max_listed))


@router.post("/v1/diff", response_model=models.DiffResponse, responses=LIVE_ERRORS, tags=["drafts"],
             summary="What changes between two versions of a robots.txt")
async def compare(service: Service, request: models.DiffRequest) -> Response:
    tokens = [token_of(agent) for agent in agents_of(request.agents, service.settings)] if request.agents else []
    drafts_urls(request.urls, max(1, len(tokens)), service.settings)
    sides: dict[str, tuple[bytes, dict[str, Any] | None]] = {}
    for side, text, url in (("old", request.old, request.old_url), ("new", request.new, request.new_url)):
        if (text is None) == (url is None):
            raise ApiError(422, "invalid_request",
                           f"Give the {side} version either as text ('{side}') or as a URL ('{side}_url'), not "
                           f"{'both' if text is not None else 'neither'}.")
        sides[side] = (drafts.text(text), None) if text is not None else await service.fetched_body(str(url))
    (old, old_state), (new, new_state) = sides["old"], sides["new"]
    live = next((str(url) for url in (request.old_url, request.new_url) if url is not None), None)
    origin = robots_url(live).removesuffix("/robots.txt") if live is not None else ""
    try:
        found = await _work(drafts.compare, old, new, tokens, request.urls, request.mode, origin,
                            service.settings.draft_work, service.settings.max_listed)
    except TooMuchWork as refused:
        raise ApiError(422, "too_much_work", str(refused)) from None
    return JSON(json_ready({**found, "old_robots": old_state, "new_robots": new_state}))


@router.post("/v1/edit", response_model=models.EditResponse, responses=ERRORS, tags=["drafts"],
             summary="Block or allow crawlers in a robots.txt, changing nothing else")
async def edit_text(service: Service, request: models.EditRequest) -> Response:
    """422 ``edit_refused`` when the edit cannot be made safely (the message says why), 422
    ``too_much_work`` when proving it would take more work than the service allows."""
    try:
        found = await _work(drafts.edited, drafts.text(request.robots), request.block, request.block_purpose,
                            request.allow, request.usage, request.mode, service.settings.draft_work,
                            service.settings.max_listed)
    except EditRefused as refused:
        raise ApiError(422, "edit_refused", str(refused)) from None
    except TooMuchWork as refused:
        raise ApiError(422, "too_much_work", str(refused)) from None
    return JSON(json_ready(found))


# -- the registry, health, metrics, the page --------------------------------------------------------

_REGISTRY = [crawler.to_dict() for crawler in crawlers.CRAWLERS]


@router.get("/v1/agents", response_model=models.AgentsResponse, tags=["registry"],
            summary="Well-known crawlers, with their operators' documentation")
async def agents() -> Response:
    return JSON({"agents": _REGISTRY})


router.include_router(vocabulary.router)  # GET /v1/vocabulary: the words of the answers' codes, for the page


@router.get("/healthz", response_model=models.HealthResponse, tags=["service"], summary="Liveness")
async def healthz(service: Service) -> Response:
    """Answered on the event loop from memory: no store call, no gate, no thread."""
    return JSON({"status": "ok", "version": __version__, "store": service.live.store_state})


@router.get("/metrics", response_class=PlainTextResponse, responses=TEXT, tags=["service"],
            summary="Prometheus metrics")
async def metrics(service: Service) -> Response:
    return Response(service.metrics.render(), media_type=CONTENT_TYPE)


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)  # HEAD: uptime probes
async def page() -> Response:
    index = os.path.join(STATIC_DIR, "index.html")
    if not os.path.isfile(index):
        raise ApiError(404, "not_found", "The web page is not installed here; the API is described at /openapi.json.")
    return FileResponse(index, media_type="text/html", headers=PAGE_HEADERS)
