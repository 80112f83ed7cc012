"""robots.txt requests sent through a ``requests.Session`` (or a ``RobotsAdapter``), for robotrules' fetch policy (F1-F9).

:class:`SessionFetcher` is a :class:`~robotrules.fetch.Fetcher` whose one request per step
(``send``) is made by requests, as :mod:`robotrules.compat.scrapy.fetcher` makes it through
Scrapy's downloader. The robots client keeps everything else: the policy (redirects, status
codes, outages: F1-F8), the store, single flight, the parsed-file cache.

With a session, each request is prepared and sent as ``Session.send`` would: the session's
headers, cookies, ``auth`` and response hooks, its ``proxies``, ``verify`` and ``cert`` merged
with the environment's (``HTTPS_PROXY``, ``NO_PROXY``, ``REQUESTS_CA_BUNDLE``) when
``trust_env``, and the adapter the session has mounted for the URL, with its ``max_retries``.
What differs from a page request, and why:

- No redirect is followed, and a redirect's body is never read (``Session.send`` reads it
  whole even with ``allow_redirects=False``, so the adapter is called directly): the policy
  follows up to 5 hops itself (F3). As requests does on a redirect, the session's ``auth`` is
  not sent once a hop has left the host it was given for. A hop to a scheme the session has no
  adapter for (``ftp://``, unless one is mounted) is a redirect that cannot be followed (F3),
  never a connection made around the session.
- The URL is exactly the robots.txt URL (S1): the session's ``params`` are not added.
- ``User-Agent`` is the robots client's; ``Accept-Encoding`` is ``gzip, deflate``, the
  encodings decoded here with a bounded output.
- The body is streamed and reading stops at the size limit (F9); only a 2xx body is read.
- Every request made while one is sent (the robots.txt request itself, an auth hook's retry)
  passes a :class:`~robotrules.compat.requests.RobotsAdapter` unchecked: a robots.txt request
  is never checked (S3), and checking a redirect hop would ask for the robots.txt being
  fetched.

Without a session (a ``RobotsAdapter`` mounted without ``session=``), each request is sent by the
adapter itself with the ``proxies``, ``verify`` and ``cert`` requests resolved for the request
being checked (:func:`sending`), or requests' defaults and the environment's when the robots
client is asked directly; no session's headers, cookies or auth apply then.

Network trouble is an answer (F8): requests', urllib3's and http.client's errors and ``OSError``
become a :class:`~robotrules.core.policy.Failure` of kind dns, connect, timeout, reset, tls,
protocol or other (``redirect`` for a redirect's ``Location`` requests cannot send: a redirect
that cannot be followed, F3). Anything else raised by a caller's adapter or hook propagates. A deadline bounds
the whole attempt, retries included: the request runs in a worker thread that the caller waits
for only until the deadline (the abandoned worker ends at requests' own timeout, which is what
was left of the deadline).
"""

from __future__ import annotations

import http.client
import socket
import ssl
import threading
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import Future
from contextlib import contextmanager
from contextvars import ContextVar
from itertools import pairwise
from typing import Any, NamedTuple

import requests
import urllib3.exceptions
from requests.adapters import BaseAdapter, HTTPAdapter
from requests.cookies import extract_cookies_to_jar
from requests.hooks import dispatch_hook

from robotrules.core.policy import Failure, Fetch, Policy, Response
from robotrules.fetch import Fetcher
from robotrules.fetch.body import BodyReader, InvalidBody

__all__ = ["SessionFetcher", "Settings", "failure", "fetching_robots", "sending"]

_ACCEPT = {"Accept": "text/plain, */*;q=0.5", "Accept-Encoding": "gzip, deflate"}  # as robotrules.fetch.http
_CHUNK = 65536

_FETCHING: ContextVar[bool] = ContextVar("robotrules_requests_fetching", default=False)
_SENDING: ContextVar[Settings | None] = ContextVar("robotrules_requests_sending", default=None)


def fetching_robots() -> bool:
    """Whether this thread is sending a robots client's request (then a ``RobotsAdapter`` passes it unchecked)."""
    return _FETCHING.get()


class Settings(NamedTuple):
    """What requests resolved for a request an adapter was asked to send: its transport settings."""

    proxies: Mapping[str, str]
    verify: Any
    cert: Any


@contextmanager
def sending(proxies: Mapping[str, str] | None, verify: Any, cert: Any) -> Iterator[None]:
    """While checking a request, remember the ``proxies``, ``verify`` and ``cert`` it is sent with.

    A :class:`SessionFetcher` without a session sends robots.txt with them (the adapter's only
    view of the session's configuration).
    """
    token = _SENDING.set(Settings(dict(proxies or {}), verify, cert))
    try:
        yield
    finally:
        _SENDING.reset(token)


def _defaults(url: str) -> Settings:
    """requests' defaults for ``url``: the environment's proxies and CA bundle, as a new session has them."""
    with requests.Session() as fresh:
        merged = fresh.merge_environment_settings(url, {}, True, None, None)
    return Settings(merged["proxies"], merged["verify"], merged["cert"])


# -- F8: what kind of failure -------------------------------------------------------------------

_DNS = (socket.gaierror,)  # urllib3 raises NameResolutionError (2.x) or NewConnectionError (1.26) from it
_TLS = (requests.exceptions.SSLError, urllib3.exceptions.SSLError, ssl.SSLError, ssl.CertificateError)
_TIMEOUT = (requests.exceptions.Timeout, urllib3.exceptions.ReadTimeoutError, TimeoutError)
_REFUSED = (ConnectionRefusedError, urllib3.exceptions.NewConnectionError)
_RESET = (ConnectionResetError, ConnectionAbortedError, BrokenPipeError)
_PROTOCOL = (requests.exceptions.ChunkedEncodingError, requests.exceptions.ContentDecodingError,
             urllib3.exceptions.ProtocolError, urllib3.exceptions.DecodeError, http.client.HTTPException, InvalidBody)
_UNSENDABLE = (requests.exceptions.InvalidURL, requests.exceptions.InvalidSchema, requests.exceptions.MissingSchema,
               urllib3.exceptions.LocationValueError)
"""A URL requests cannot send: for a redirect hop, a redirect leading nowhere (F3); a bad proxy URL is not one."""

NETWORK_ERRORS: tuple[type[Exception], ...] = (
    requests.RequestException, urllib3.exceptions.HTTPError, http.client.HTTPException, InvalidBody, OSError,
)
"""F8: what a failed robots.txt request may raise (requests', urllib3's and http.client's errors,
socket and TLS errors, a body that cannot be decoded). Anything else propagates."""


def _causes(exc: BaseException) -> list[BaseException]:
    """``exc`` and what it wraps: ``__cause__``, ``__context__``, urllib3's ``reason`` and exceptions in ``args``."""
    seen: list[BaseException] = []
    todo = [exc]
    while todo and len(seen) < 32:
        current = todo.pop(0)
        if any(current is known for known in seen):
            continue
        seen.append(current)
        inner = [current.__cause__, current.__context__, getattr(current, "reason", None), *current.args]
        todo.extend(e for e in inner if isinstance(e, BaseException))
    return seen


def failure(exc: BaseException, *, hop: bool = False) -> Failure:
    """F8: the kind of network failure behind an exception requests or urllib3 raised (see the module docstring).

    ``hop``: the request was for a redirect's ``Location``; a URL requests cannot send is then
    ``Failure("redirect")``, a redirect that cannot be followed (F3). For the robots.txt URL
    itself (whose form the client has checked) it is a failure like any other: a setting of the
    session (a proxy URL, a scheme without an adapter) must not read as a missing robots.txt.
    """
    chain = _causes(exc)

    def found(kinds: tuple[type[BaseException], ...]) -> BaseException | None:
        return next((e for e in chain if isinstance(e, kinds)), None)

    def said(cause: BaseException) -> str:
        return str(cause) or type(cause).__name__

    if hop and isinstance(exc, _UNSENDABLE) and not isinstance(exc, requests.exceptions.InvalidProxyURL):
        return Failure("redirect", said(exc))
    through = "proxy: " if isinstance(exc, requests.exceptions.ProxyError) else ""
    for kind, kinds in (("dns", _DNS), ("tls", _TLS), ("timeout", _TIMEOUT), ("connect", _REFUSED),
                        ("reset", _RESET), ("protocol", _PROTOCOL)):
        cause = found(kinds)
        if cause is not None:
            return Failure(kind, through + said(cause))
    if isinstance(exc, requests.exceptions.ConnectionError):  # a proxy refusing the tunnel, a closed pool
        return Failure("connect", through + said(exc))
    return Failure("other", said(exc))


# -- the fetcher ---------------------------------------------------------------------------------

class SessionFetcher(Fetcher):
    """Sends the policy's requests through ``session``, or through ``adapter`` without one (see the module docstring).

    ``adapter``: the ``HTTPAdapter`` that sends when there is no session (a ``RobotsAdapter``);
    ``session``: the ``requests.Session`` to send through, or None; ``user_agent`` the
    User-Agent of the requests; ``policy`` the robots client's. No address policy applies: the
    connections are requests' (``addresses`` is None). :meth:`close` closes nothing (the session
    and its adapters are the caller's), but a closed fetcher fetches no more (``RuntimeError``).
    """

    def __init__(self, adapter: HTTPAdapter, session: requests.Session | None, *, user_agent: str,
                 policy: Policy) -> None:
        # Not Fetcher.__init__: it builds the httpx and ftplib transports this fetcher replaces.
        self.adapter = adapter
        self.session = session
        self.user_agent = user_agent
        self.policy = policy
        self.addresses = None
        self.closed = False

    def send(self, fetch: Fetch, deadline: float) -> Response | Failure:
        """One request, by requests, before ``deadline`` (monotonic): the answer, or the failure (F8)."""
        if self.closed:
            raise RuntimeError("the robots client of this RobotsAdapter is closed: robots.txt is not fetched")
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return Failure("timeout", "fetch deadline passed")
        done: Future[Response | Failure] = Future()
        worker = threading.Thread(target=self._exchange, args=(fetch, deadline, remaining, _SENDING.get(), done),
                                  daemon=True, name="robotrules-requests-fetch")
        worker.start()
        worker.join(remaining)
        if not done.done():
            return Failure("timeout", "no complete response before the deadline")
        return done.result()

    def close(self) -> None:
        self.closed = True

    def _exchange(self, fetch: Fetch, deadline: float, remaining: float, settings: Settings | None,
                  done: Future[Response | Failure]) -> None:
        _FETCHING.set(True)  # this worker's own context: every request it makes passes RobotsAdapter unchecked
        try:
            result: Response | Failure = self._get(fetch, deadline, remaining, settings)
        except NETWORK_ERRORS as exc:  # F8: an answer
            result = failure(exc, hop=fetch.purpose == "robots" and len(fetch.chain) > 1)
        except Exception as exc:  # not the site's failure: the caller's to see
            done.set_exception(exc)
            return
        done.set_result(result)

    def _prepare(self, fetch: Fetch, settings: Settings | None) -> tuple[BaseAdapter, requests.PreparedRequest, Settings]:
        """The adapter to send with, the request, and its transport settings."""
        session = self.session
        if session is None:
            scheme = fetch.url.partition(":")[0].lower()
            if scheme not in ("http", "https"):
                raise requests.exceptions.InvalidSchema(f"a RobotsAdapter without a session cannot request {fetch.url}")
            prepared = requests.Request("GET", fetch.url, headers={"User-Agent": self.user_agent, **_ACCEPT}).prepare()
            return self.adapter, prepared, settings if settings is not None else _defaults(fetch.url)
        request = requests.Request(
            "GET", fetch.url, headers={"User-Agent": self.user_agent, **_ACCEPT},
            params=dict.fromkeys(session.params or {}),  # None removes each of the session's params: S1
            auth=_no_auth if _left_host(session, fetch) else None,
        )
        prepared = session.prepare_request(request)
        merged = session.merge_environment_settings(prepared.url or fetch.url, {}, True, None, None)
        return session.get_adapter(prepared.url or fetch.url), prepared, Settings(merged["proxies"], merged["verify"],
                                                                                 merged["cert"])

    def _get(self, fetch: Fetch, deadline: float, remaining: float, settings: Settings | None) -> Response:
        adapter, prepared, chosen = self._prepare(fetch, settings)
        options: dict[str, Any] = {"stream": True, "timeout": (remaining, remaining), "verify": chosen.verify,
                                   "cert": chosen.cert, "proxies": dict(chosen.proxies)}
        response = adapter.send(prepared, **options)
        try:
            try:
                response = dispatch_hook("response", prepared.hooks, response, **options)
            except requests.HTTPError as exc:  # a hook's raise_for_status(): the status is the answer (F4, F5)
                if exc.response is None:
                    raise
                response = exc.response
            if self.session is not None:
                extract_cookies_to_jar(self.session.cookies, prepared, response.raw)
            headers = {str(name).lower(): str(value) for name, value in response.headers.items()}
            body = b""
            if 200 <= response.status_code < 300 and fetch.limit > 0:
                body = _body(response, headers.get("content-encoding", ""), fetch.limit, deadline)
            return Response(response.status_code, headers, body)
        finally:
            response.close()


def _no_auth(request: requests.PreparedRequest) -> requests.PreparedRequest:
    """An ``auth`` that adds nothing: in place of the session's once a redirect has left its host."""
    return request


def _left_host(session: requests.Session, fetch: Fetch) -> bool:
    """Whether a redirect on the way to ``fetch.url`` left the host, as requests decides it (``should_strip_auth``)."""
    path = list(fetch.chain) or [fetch.url]
    if path[-1] != fetch.url:  # an F7 probe: the site of the last hop
        path.append(fetch.url)
    return any(session.should_strip_auth(old, new) for old, new in pairwise(path))


def _body(response: requests.Response, encoding: str, limit: int, deadline: float) -> bytes:
    """A 2xx body, decoded and cut at ``limit`` (F9), read as it arrives; ``TimeoutError`` past ``deadline``."""
    if response._content_consumed and isinstance(response._content, bytes):  # a hook read it (decoded)
        return response._content[:limit]
    raw = response.raw
    if hasattr(raw, "stream"):  # urllib3: the bytes as sent, decoded here with a bounded output
        reader = BodyReader(encoding, limit)
        pieces: Iterator[bytes] = raw.stream(_CHUNK, decode_content=False)
    else:  # another adapter's response: requests decodes it
        reader = BodyReader("", limit)
        pieces = response.iter_content(_CHUNK)
    for piece in pieces:
        reader.feed(piece)
        if reader.full() or time.monotonic() > deadline:
            break
    if time.monotonic() > deadline:
        raise TimeoutError("body not received before the deadline")
    return reader.finish()
