"""A requests adapter that obeys robots.txt: a request its robots.txt disallows is never sent.

::

    session = robots_session("FooBot/1.0")         # a new session; robots.txt is fetched through it

    session = requests.Session()                   # or a session of your own, configured as you like
    adapter = RobotsAdapter(user_agent="FooBot/1.0", session=session)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    session.get("https://example.com/private/x")  # RobotsDisallowedError, nothing sent

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

Where robots.txt is fetched from (requests never tells an adapter which session it is on):

- ``session=`` given (:func:`robots_session` gives its own): through that session, as a page
  is: its proxies (the environment's too when ``trust_env``), ``verify``, ``cert``, ``auth``,
  headers, cookies, response hooks and the adapter it has mounted for the URL, with that
  adapter's ``max_retries``. Without following redirects (the policy follows up to 5 hops
  itself, F3; the session's ``auth`` is not sent past a hop to another host), at exactly the
  robots.txt URL (no session ``params``, S1), with the body cut at the size limit (F9), within
  ``policy.fetch_timeout`` (retries included), and never checked itself (S3). A network failure
  (dns, connect, timeout, reset, tls) is a server error: full disallow until a retry (F5, F8).
- no ``session=``: through this adapter (its pools and ``max_retries``) with the ``proxies``,
  ``verify`` and ``cert`` requests resolved for the request being checked; the session's
  ``auth``, headers, cookies and other adapters do not apply.
- ``client=`` given: by that client, as it is configured (by default robotrules' own httpx client).
- ``Policy(public_addresses_only=True)``: by robotrules' own httpx client, which checks every
  address it connects to. It cannot check the connections a session makes (a proxy resolves
  names itself; an adapter connects where it likes), so robots.txt does not go through the
  session then, and the pages are sent by the session as configured: the policy only refuses
  sites whose host resolves to a non-public address, before anything is sent.

The ``requests`` extra (``pip install 'robotrules[requests]'``) installs requests and httpx;
without them this module raises :class:`~robotrules.errors.MissingExtra`.
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

try:  # the rules shared with the httpx guards; robotrules' own client fetches with httpx
    from robotrules.compat.httpx import _checked_agent, _own_options, _question
except ImportError:  # pragma: no cover - MissingExtra from robotrules.compat.httpx, here naming this extra
    require("httpx", "requests")
    raise

from robotrules.compat._requests_fetch import SessionFetcher, fetching_robots, sending

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
    on its product token; None: each request's own User-Agent header. ``session``: the
    ``requests.Session`` robots.txt is fetched through, normally the one the adapter is mounted
    on (see the module docstring; None: through this adapter, with each checked request's
    ``proxies``, ``verify`` and ``cert``). ``client``: a :class:`~robotrules.RobotsClient` to ask
    (not closed by :meth:`close`), which fetches as it is configured; else one is made with
    ``store`` (default a new :class:`~robotrules.MemoryStore`; an :class:`~robotrules.SQLiteStore`
    or :class:`~robotrules.RedisStore` shares the cache between sessions and processes),
    ``policy``, and ``user_agent`` as the robots.txt requests' User-Agent header. ``client`` is
    given alone: with ``store``, ``policy`` or ``session`` it is a ``ValueError``.
    ``adapter_options`` go to ``HTTPAdapter`` (``pool_connections``, ``pool_maxsize``,
    ``max_retries``, ``pool_block``). Thread-safe as far as requests' adapters are; the
    robots.txt requests use the session from a worker thread, as a page request from another
    thread would.
    """

    def __init__(self, *, user_agent: str | None = None, client: RobotsClient | None = None,
                 store: Store | None = None, policy: Policy | None = None, session: requests.Session | None = None,
                 **adapter_options: Any) -> None:
        self.user_agent = _checked_agent(user_agent)
        options = _own_options(self.user_agent, client, store, policy)
        if session is not None and not isinstance(session, requests.Session):
            raise TypeError(f"session must be a requests.Session, not {type(session).__name__}")
        if session is not None and client is not None:
            raise ValueError("pass either client= (it fetches robots.txt as it is configured) or session=, not both")
        super().__init__(**adapter_options)
        self._session: requests.Session | None = None
        self._owns_robots = client is None
        if client is None:
            chosen = policy or Policy()
            fetcher = None
            if not chosen.public_addresses_only:  # else robotrules' own HTTP client: the one that checks addresses
                fetcher = SessionFetcher(self, session, user_agent=options["user_agent"], policy=chosen)
                self._session = session
            client = RobotsClient(**{**options, "policy": chosen}, fetcher=fetcher)
        self.robots: RobotsClient = client

    @property
    def session(self) -> requests.Session | None:
        """The session robots.txt is fetched through; None when it is not fetched through a session (no
        ``session=``: through this adapter; ``client=``: by that client; ``public_addresses_only``:
        by robotrules' own HTTP client)."""
        return self._session

    def send(self, request: requests.PreparedRequest, stream: bool = False, timeout: Any = None,
             verify: Any = True, cert: Any = None, proxies: Any = None) -> requests.Response:
        """Send ``request`` as ``HTTPAdapter.send`` does if robots.txt allows it; else :class:`RobotsDisallowedError`.

        A request the robots client makes itself (robots.txt, a redirect hop, an F7 probe)
        passes unchecked (S3).
        """
        if not fetching_robots():
            header = request.headers.get("User-Agent")
            if isinstance(header, bytes):
                header = header.decode("latin-1")
            asked = _question(request.url or "", header, self.user_agent)
            if asked is not None:
                url, agent = asked
                with sending(proxies, verify, cert):  # what an adapter without a session fetches robots.txt with
                    result = self.robots.check(url, agent)
                if not result.allowed:
                    raise RobotsDisallowedError.from_check(result, url,
                                                           agent if agent is not None else self.robots.user_agent,
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
    ``"https://"``, bound to this session (unless ``client`` is given): robots.txt is fetched
    through the session, so the proxies, ``verify``, ``cert``, ``auth`` and headers you set on
    it apply to robots.txt too. The session's ``User-Agent`` header is ``user_agent``, so the
    sites see the name that robots.txt is matched against. ``session.close()`` closes it.
    """
    session = requests.Session()
    try:
        adapter = RobotsAdapter(user_agent=user_agent, client=client, store=store, policy=policy,
                                session=session if client is None else None, **adapter_options)
    except BaseException:
        session.close()
        raise
    session.headers["User-Agent"] = user_agent
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session
