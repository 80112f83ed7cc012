"""Errors of the service, all in one JSON shape: ``{"error": {"code": "...", "message": "..."}}``.

Every 4xx and 5xx response has that body, including FastAPI's own validation errors (422),
unknown paths (404) and wrong methods (405). Codes are stable, for programs; messages are plain
sentences, for people::

    400 invalid_url, unsupported_scheme     a URL with no robots.txt to fetch
    400 invalid_json                        a body that is not JSON: malformed, not UTF-8, missing,
                                            or not sent as application/json
    400 bad_content_length                  a Content-Length that is not a number
    403 blocked_address                     the robots.txt host is not a public address
    404 not_found                           no such endpoint (or the web page is not installed)
    405 method_not_allowed
    408 request_timeout                     the body did not arrive before the deadline
    413 body_too_large                      more than max_body bytes, with or without Content-Length
    422 invalid_request                     JSON that is read, with a missing or mistyped field
                                            (or a missing or mistyped query parameter)
    422 too_many_urls, too_many_agents,     more than max_urls, max_agents, URLs x agents
        too_many_checks, too_many_hosts     (max_checks), distinct sites (max_hosts)
    422 url_too_long                        a URL longer than max_url_length
    422 invalid_path                        a draft URL that is neither absolute nor a path
    500 internal_error                      a bug: never expected (the schema fuzz test looks for it)
    503 overloaded, deadline_exceeded       too much work queued, or the request's deadline passed:
                                            both with Retry-After

One convention for bodies (issue #16-L3): 400 when the body cannot be read as JSON at all, 422
when it is JSON but not the request's shape.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from robotrules.service._admission import Overloaded

__all__ = ["JSON", "ApiError", "error_body", "error_response", "install", "validation_message"]

log = logging.getLogger("robotrules.service")


class JSON(JSONResponse):
    """JSON as ASCII (non-ASCII escaped): any string a request carried, even a lone surrogate, encodes."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode("ascii")


class ApiError(Exception):
    """An error answer: ``status``, a stable ``code`` and a plain ``message``."""

    def __init__(self, status: int, code: str, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = dict(headers) if headers else None


def error_body(code: str, message: str) -> dict[str, Any]:
    return {"error": {"code": code, "message": message}}


def error_response(status: int, code: str, message: str, headers: Mapping[str, str] | None = None) -> JSON:
    return JSON(error_body(code, message), status_code=status, headers=dict(headers) if headers else None)


def _where(loc: Sequence[Any]) -> str:
    """``("body", "urls", 0)`` -> ``field 'urls[0]'``; ``("query", "url")`` -> ``query parameter 'url'``."""
    if not loc:
        return "the request"
    head, rest = loc[0], list(loc[1:])
    name = ""
    for part in rest:
        name += f"[{part}]" if isinstance(part, int) else (f".{part}" if name else str(part))
    if head == "body":
        return f"field '{name}'" if name else "the request body"
    if head in ("query", "path", "header", "cookie"):
        return f"{head} parameter '{name}'"
    return f"'{name}'" if name else "the request"


def _sentence(error: Mapping[str, Any]) -> str:
    kind = error.get("type", "")
    loc = tuple(error.get("loc", ()))
    where = _where(loc)
    if kind == "json_invalid":
        detail = (error.get("ctx") or {}).get("error", "")
        return f"the request body is not valid JSON{': ' + str(detail) if detail else ''}"
    if kind == "missing":
        if loc and loc[0] == "body" and len(loc) == 1:
            return "the request needs a JSON body (Content-Type: application/json)"
        return f"{where} is required"
    if kind == "extra_forbidden":
        return f"{where} is not a field of this request"
    if loc == ("body",) and isinstance(error.get("input"), (bytes, str)):
        return "the request body must be a JSON object sent with Content-Type: application/json"
    message = str(error.get("msg", "is not valid"))
    return f"{where}: {message[0].lower() + message[1:] if message else message}"


def validation_message(errors: Sequence[Mapping[str, Any]]) -> str:
    """The first few validation errors as one plain sentence (pydantic's locations made readable)."""
    parts = [_sentence(error) for error in errors[:3]]
    more = len(errors) - len(parts)
    text = "; ".join(parts) if parts else "the request is not valid"
    if more > 0:
        text += f" (and {more} more problem{'s' if more > 1 else ''})"
    text = text if len(text) <= 500 else text[:499] + "\u2026"
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def _unreadable(error: Mapping[str, Any]) -> bool:
    """Whether a validation error means the body could not be read as JSON at all (400, not 422)."""
    kind = error.get("type", "")
    loc = tuple(error.get("loc", ()))
    if kind == "json_invalid":
        return True
    if loc == ("body",):
        return kind == "missing" or isinstance(error.get("input"), bytes)  # bytes: not sent as JSON
    return False


_HTTP_CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


def install(app: FastAPI, refused: Callable[[str], None] = lambda reason: None) -> None:
    """Answer every error raised in ``app`` with the one JSON shape; ``refused(reason)`` counts a
    request refused to protect the service (``"overloaded"``)."""

    async def api_error(request: Request, exc: Exception) -> JSON:
        assert isinstance(exc, ApiError)
        return error_response(exc.status, exc.code, exc.message, exc.headers)

    async def overloaded(request: Request, exc: Exception) -> JSON:
        assert isinstance(exc, Overloaded)
        refused("overloaded")
        return error_response(503, "overloaded", str(exc), {"retry-after": "1"})

    async def invalid(request: Request, exc: Exception) -> JSON:
        assert isinstance(exc, RequestValidationError)
        errors = list(exc.errors())
        if any(_unreadable(e) for e in errors):
            return error_response(400, "invalid_json", validation_message([e for e in errors if _unreadable(e)]))
        return error_response(422, "invalid_request", validation_message(errors))

    async def http_error(request: Request, exc: Exception) -> JSON:
        assert isinstance(exc, HTTPException)
        status = exc.status_code
        code = _HTTP_CODES.get(status, "error" if status >= 500 else "bad_request")
        if status == 404:
            message = f"There is no endpoint {request.url.path!r}; the API is described at /docs and /openapi.json."
        elif status == 405:
            allowed = next((v for k, v in (exc.headers or {}).items() if k.lower() == "allow"), "")
            message = f"{request.method} is not allowed on {request.url.path!r}" + (f"; use {allowed}" if allowed else "")
        elif status == 400 and exc.detail == "There was an error parsing the body":
            code = "invalid_json"
            message = "The request body could not be read as JSON (send UTF-8 encoded JSON)."
        else:
            message = str(exc.detail) if isinstance(exc.detail, str) and exc.detail else f"HTTP {status}"
        return error_response(status, code, message, exc.headers)

    async def crashed(request: Request, exc: Exception) -> JSON:
        log.error("unexpected error answering %s %s", request.method, request.url.path, exc_info=exc)
        return error_response(500, "internal_error", "The service failed to answer this request; the error is logged.")

    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(Overloaded, overloaded)
    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(HTTPException, http_error)
    app.add_exception_handler(Exception, crashed)
