"""A requests adapter that obeys robots.txt: a request its robots.txt disallows is never sent.

::

    session = requests.Session()
    adapter = RobotsAdapter(user_agent="FooBot/1.0")
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    session.get("https://example.com/private/x")  # RobotsDisallowedError, nothing sent

    session = robots_session("FooBot/1.0")        # the same, and the session's User-Agent set

:class:`RobotsAdapter` is requests' ``HTTPAdapter`` with one step before ``send``: it asks a
:class:`~robotrules.RobotsClient` whether the agent may fetch the URL, with all of robotrules'
fetch and cache rules (status codes, redirects, outages, a shared store: F1-F8, C1-C4). An
allowed request is sent by ``HTTPAdapter.send`` as it is; a refused one raises
:class:`RobotsDisallowedError` (a :class:`~robotrules.errors.RobotsDisallowed` and a
``requests.RequestException``) naming the robots.txt URL and the deciding line. requests sends
every redirect hop through the adapter, so each hop is checked too.

As for the httpx transports (:mod:`robotrules.compat.httpx`, whose rules this module shares):
requests for a robots.txt itself (S3) and schemes other than http and https pass unchecked; the
agent matched is the product token (RFC 9309 2.2.1) of ``user_agent`` when given, else of the
request's ``User-Agent`` header (requests always sends one), else of the robots client's own.

The robots.txt files are fetched by the robots client over httpx, not through the session: the
session's proxies and TLS settings do not apply to them (httpx reads the same ``HTTPS_PROXY``,
``SSL_CERT_FILE`` environment variables as requests; for anything else pass a
``RobotsClient(http_client=httpx.Client(...))`` as ``client``). The ``requests`` extra
(``pip install 'robotrules[requests]'``) installs requests and httpx; without them this module
raises :class:`~robotrules.errors.MissingExtra`.
"""

from __future__ import annotations

from typing import Any

from robotrules.cache.base import Store
from robotrules.client import RobotsClient
from robotrules.core.policy import Policy
from robotrules.errors import RobotsDisallowed, require

try:
    import requests
    from requests.adapters import HTTPAdapter
except ImportError:  # pragma: no cover - the test environment has requests
    require("requests", "requests")  # raises MissingExtra, naming the extra
    raise

try:  # the robots client fetches with httpx
    from robotrules.compat.httpx import _checked_agent, _own_options, _question
except ImportError:  # pragma: no cover - MissingExtra from robotrules.compat.httpx, here naming this extra
    require("httpx", "requests")
    raise

__all__ = ["RobotsAdapter", "RobotsDisallowedError", "robots_session"]


class RobotsDisallowedError(RobotsDisallowed, requests.RequestException):
    """A request refused by :class:`RobotsAdapter`.

    Both a :class:`~robotrules.errors.RobotsDisallowed` (``url``, ``agent``, ``token``,
    ``robots_url``, ``line``, ``text``, ``reason``) and a ``requests.RequestException``
    (``request``; ``response`` is None: nothing was sent), so code that handles
    ``requests.RequestException`` handles it too. Not a ``requests.ConnectionError``: nothing
    went wrong on the network, and retrying would not help.
    """

    def __init__(self, url: str, robots_url: str, agent: str, token: str, line: int = 0, text: str = "",
                 reason: str = "", *, request: requests.PreparedRequest | None = None) -> None:
        super().__init__(url, robots_url, agent, token, line, text, reason)
        self.request = request


class RobotsAdapter(HTTPAdapter):
    """``requests.adapters.HTTPAdapter`` that refuses requests the governing robots.txt disallows.

    Mount it for ``"http://"`` and ``"https://"`` (or use :func:`robots_session`).
    ``user_agent``: the agent to check, a product token or a whole User-Agent header, matched
    on its product token; None: each request's own User-Agent header. ``client``: a
    :class:`~robotrules.RobotsClient` to ask (not closed by :meth:`close`); else one is made with
    ``store`` (default a new :class:`~robotrules.MemoryStore`; an :class:`~robotrules.SQLiteStore`
    or :class:`~robotrules.RedisStore` shares the cache between sessions and processes),
    ``policy``, and ``user_agent`` as the robots.txt requests' User-Agent header.
    ``adapter_options`` go to ``HTTPAdapter`` (``pool_connections``, ``pool_maxsize``,
    ``max_retries``, ``pool_block``). Thread-safe as far as requests' adapters are.
    """

    def __init__(self, *, user_agent: str | None = None, client: RobotsClient | None = None,
                 store: Store | None = None, policy: Policy | None = None, **adapter_options: Any) -> None:
        self.user_agent = _checked_agent(user_agent)
        options = _own_options(self.user_agent, client, store, policy)
        super().__init__(**adapter_options)
        self._owns_robots = client is None
        self.robots: RobotsClient = client if client is not None else RobotsClient(**options)

    def send(self, request: requests.PreparedRequest, stream: bool = False, timeout: Any = None,
             verify: Any = True, cert: Any = None, proxies: Any = None) -> requests.Response:
        """Send ``request`` as ``HTTPAdapter.send`` does if robots.txt allows it; else :class:`RobotsDisallowedError`."""
        header = request.headers.get("User-Agent")
        if isinstance(header, bytes):
            header = header.decode("latin-1")
        asked = _question(request.url or "", header, self.user_agent)
        if asked is not None:
            url, agent = asked
            result = self.robots.check(url, agent)
            if not result.allowed:
                raise RobotsDisallowedError.from_check(result, url, agent if agent is not None else self.robots.user_agent,
                                                       request=request)
        return super().send(request, stream=stream, timeout=timeout, verify=verify, cert=cert, proxies=proxies)

    def __getstate__(self) -> dict[str, Any]:
        """Refused: the robots client (its connections, locks and cache) does not travel to another process."""
        raise TypeError("a RobotsAdapter cannot be pickled: make one in each process (share a SQLiteStore or "
                        "RedisStore to share the cache)")

    def close(self) -> None:
        """Close the connection pools, and the robots client if this adapter made it (requests'
        ``Session.close()`` calls this once per mount; a second call does nothing more)."""
        try:
            if self._owns_robots:
                self.robots.close()
        finally:
            super().close()


def robots_session(user_agent: str, *, client: RobotsClient | None = None, store: Store | None = None,
                   policy: Policy | None = None, **adapter_options: Any) -> requests.Session:
    """A ``requests.Session`` that obeys robots.txt for ``user_agent`` and says it is ``user_agent``.

    One :class:`RobotsAdapter` (arguments as its own) is mounted for ``"http://"`` and
    ``"https://"``, and the session's ``User-Agent`` header is ``user_agent``, so the sites see
    the name that robots.txt is matched against. ``session.close()`` closes it.
    """
    adapter = RobotsAdapter(user_agent=user_agent, client=client, store=store, policy=policy, **adapter_options)
    session = requests.Session()
    session.headers["User-Agent"] = user_agent
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session
