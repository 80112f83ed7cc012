"""``urllib.robotparser.RobotFileParser``'s API, answering as Google does (issue #10).

Replace ``from urllib.robotparser import RobotFileParser`` with
``from robotrules.compat import RobotFileParser`` and the same calls give robotrules' answers:

- ``parse(lines)`` reads the file as Google's parser does (P1-P7, G1-G5): the most specific rule
  wins (R6), ``*`` and ``$`` are wildcards (R4), groups naming one agent are merged (G4).
- ``can_fetch(useragent, url)`` takes a product token, a versioned name or a whole User-Agent
  header, and matches on its product token exactly (G3), never on a substring.
- ``read()`` fetches through a :class:`~robotrules.RobotsClient`, so the fetch and cache policy
  applies: 2xx rules (F2), redirects up to five hops (F3), every 4xx allows all, 401 and 403
  included (F4), 5xx and network failures disallow all without raising and are retried with
  a back-off (F5, F8), a good copy survives failed refreshes (C2), 30 days without a copy allow
  all (F6), copies are kept 24 hours (C1, C4) and may be shared through a store (C3).

Every difference from the standard library's answers is listed, with its reason, in
``docs/guides/robotparser.md``; ``tests/compat/test_robotparser_cpython.py`` runs CPython's own
``test_robotparser`` against this class and holds the same list.

What the standard library does that is kept: ``can_fetch`` answers False until ``read()`` or
``parse()`` has run; ``mtime()`` is 0 when the answer came from a status code rather than from a
file (a 404, a 503); ``site_maps()``, ``crawl_delay()`` and ``request_rate()`` answer None when
there is nothing to say; ``request_rate()`` returns :class:`urllib.robotparser.RequestRate`.

Not thread-safe while ``read()`` or ``parse()`` runs (like the standard library's); to share
fetched copies between threads, parsers or processes, pass one ``client`` or ``store``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import cast
from urllib.parse import urlparse, urlsplit
from urllib.robotparser import RequestRate

from robotrules.answers import RobotsState, sentence, token_of
from robotrules.cache.base import Store
from robotrules.cache.memory import MemoryStore
from robotrules.client import RobotsClient
from robotrules.compat._urls import wire_url
from robotrules.core.decision import verdict_word
from robotrules.core.extensions import parse_crawl_delay, parse_request_rate
from robotrules.core.lexer import to_bytes
from robotrules.core.policy import Policy
from robotrules.core.robotstxt import RobotsTxt, parse
from robotrules.errors import InvalidURL, UnsupportedScheme
from robotrules.fetch import DEFAULT_USER_AGENT

__all__ = ["RequestRate", "RobotFileParser"]


class RobotFileParser:
    """One robots.txt, read or parsed, answering ``can_fetch(useragent, url)`` as Google does.

    ``RobotFileParser(url="")`` as the standard library's; the keyword-only extras configure
    ``read()``:

    - ``client``: a :class:`~robotrules.RobotsClient` to fetch through and share (its store,
      its cache, its HTTP connections, its ``user_agent`` header, its mode). Not closed here.
    - Without one, each ``read()`` uses a short-lived client built from ``store`` (default: a
      :class:`~robotrules.MemoryStore` of this parser, so its copy, failure streak and back-off
      carry from one ``read()`` to the next), ``user_agent`` (the User-Agent header of the
      robots.txt request; default robotrules'), ``policy`` (a :class:`~robotrules.Policy`) and
      ``clock`` (seconds since the epoch; default ``time.time``). Passing any of these with
      ``client`` is a ``ValueError``.
    - ``mode``: how files are parsed ("google", "rfc9309", "legacy1994"); default "google", or
      the client's mode.

    ``user_agent`` only names the fetcher on the wire: ``can_fetch`` always matches the agent it
    is given. Attributes the standard library exposes are kept: ``url``, ``host``, ``path``,
    ``last_checked``, ``allow_all``, ``disallow_all`` (writable, as code sets them), and
    ``sitemaps``. Added: ``robots`` (the parsed :class:`~robotrules.RobotsTxt`, None when the
    answer came from a status code), ``state`` (the :class:`~robotrules.RobotsState` of the last
    ``read()``) and :meth:`explain`.
    """

    def __init__(
        self,
        url: str = "",
        *,
        client: RobotsClient | None = None,
        store: Store | None = None,
        user_agent: str | None = None,
        policy: Policy | None = None,
        clock: Callable[[], float] | None = None,
        mode: str | None = None,
    ) -> None:
        if client is not None:
            if not isinstance(client, RobotsClient):
                raise TypeError(f"client must be a robotrules.RobotsClient, not {type(client).__name__}")
            given = [name for name, value in (("store", store), ("user_agent", user_agent), ("policy", policy),
                                              ("clock", clock)) if value is not None]
            if given:
                raise ValueError(f"pass {' and '.join(given)} to the RobotsClient, not alongside client=")
            if mode is not None and mode != client.mode:
                raise ValueError(f"the client parses in mode {client.mode!r}: pass mode to the RobotsClient")
        if user_agent is not None and not isinstance(user_agent, str):
            raise TypeError(f"user_agent must be str, not {type(user_agent).__name__}")
        self.mode: str = mode if mode is not None else client.mode if client is not None else "google"
        parse(b"", mode=self.mode)  # an unknown mode fails here, naming the valid ones
        self._client = client
        self._store: Store = store if store is not None else MemoryStore()
        self._user_agent = user_agent if user_agent is not None else DEFAULT_USER_AGENT
        self._policy = policy
        self._clock: Callable[[], float] = client.clock if client is not None else clock or time.time
        self.robots: RobotsTxt | None = None
        """The parsed file that decides; None before ``parse()``/``read()`` or when a status decided."""
        self.state: RobotsState | None = None
        """What the last ``read()`` found: status, reason, cache state, age (None before any)."""
        self.disallow_all = False
        self.allow_all = False
        self.last_checked: float = 0
        self.url = ""
        self.host = ""
        self.path = ""
        self.set_url(url)

    def __repr__(self) -> str:
        if self.disallow_all or self.allow_all:
            what = "disallow all" if self.disallow_all else "allow all"
        else:
            what = "rules" if self.last_checked else "not read"
        return f"<RobotFileParser {self.url!r}: {what}>"

    # -- the standard library's API --------------------------------------------------------

    def mtime(self) -> float:
        """When the robots.txt in use was fetched (or parsed), in seconds since the epoch; 0 if none is."""
        return self.last_checked

    def modified(self) -> None:
        """Set the time the robots.txt was last fetched to now (the parser's clock)."""
        self.last_checked = self._clock()

    def set_url(self, url: str) -> None:
        """Set the URL of the robots.txt that :meth:`read` fetches (exactly this URL, as the standard library)."""
        if not isinstance(url, str):
            raise TypeError(f"url must be str, not {type(url).__name__}")
        self.url = url
        self.host, self.path = urlparse(url)[1:3]

    def read(self, *, force: bool = False) -> None:
        """Fetch the robots.txt at :attr:`url` through robotrules' policy, and use what it says.

        A fresh cached copy is used without a request (C1), and after a failure the next
        request waits for the back-off (F5); ``force=True`` fetches now whatever the cache
        holds (a good copy still survives a failed refresh, C2). Never raises for HTTP statuses
        or network failures (F8): they become ``allow_all`` or ``disallow_all``. Raises
        ``ValueError`` (:class:`~robotrules.InvalidURL`, :class:`~robotrules.UnsupportedScheme`,
        :class:`~robotrules.BlockedAddress`) for a URL it cannot fetch, and
        :class:`~robotrules.MissingExtra` without httpx.
        """
        url = self.url
        if not url:
            raise InvalidURL("no robots.txt URL to read: pass one to RobotFileParser(url) or set_url(url)")
        if urlsplit(url).scheme.lower() == "file":
            raise UnsupportedScheme(f"cannot fetch {url!r}: read the file yourself and pass its lines to parse()")
        client = self._client
        owned = client is None
        if client is None:
            client = RobotsClient(self._store, clock=self._clock, user_agent=self._user_agent, policy=self._policy,
                                  mode=self.mode)
        try:
            state = _load(client, url, force)
        finally:
            if owned:
                client.close()
        self._use(state)

    def parse(self, lines: Iterable[str | bytes] | str | bytes) -> None:
        """Parse the lines of a robots.txt (as the standard library: lines with or without their
        line breaks; ``bytes`` lines too); a whole body as one ``str`` or ``bytes`` is accepted as well."""
        if isinstance(lines, (str, bytes)):
            body = to_bytes(lines)
        elif not isinstance(lines, Iterable):
            raise TypeError(f"parse() takes the lines of a robots.txt, not {type(lines).__name__}")
        else:
            parts: list[bytes] = []
            for line in lines:
                if not isinstance(line, (str, bytes)):
                    raise TypeError(f"parse() takes lines of str, not {type(line).__name__}")
                data = to_bytes(line)
                parts.append(data[:-2] if data.endswith(b"\r\n") else data[:-1] if data.endswith((b"\n", b"\r")) else data)
            body = b"\n".join(parts)
        self.robots = parse(body, mode=self.mode)
        self.allow_all = self.disallow_all = False
        self.modified()

    def can_fetch(self, useragent: str, url: str) -> bool:
        """Whether ``useragent`` (a token, versioned name or whole User-Agent header) may fetch ``url``.

        ``url`` is absolute or a path; only its path, parameters and query count (R3), matched
        as they would go on the wire: non-ASCII characters are percent-encoded as UTF-8, other
        percent-escapes are compared as given. False until :meth:`read` or :meth:`parse` ran.
        """
        if not isinstance(useragent, str):
            raise TypeError(f"useragent must be str, not {type(useragent).__name__}")
        if not isinstance(url, str):
            raise TypeError(f"url must be str, not {type(url).__name__}")
        if self.disallow_all:
            return False
        if self.allow_all:
            return True
        if not self.last_checked:  # as the standard library: nothing read yet, nothing allowed
            return False
        robots = self.robots
        if robots is None:  # modified() without a file: nothing forbids
            return True
        return robots.allowed(wire_url(url), self._token(useragent))

    def crawl_delay(self, useragent: str) -> int | float | None:
        """N2: the ``crawl-delay`` of the group for ``useragent``, in seconds (an int when whole); None if none."""
        robots = self._rules_for(useragent)
        if robots is None:
            return None
        delay = robots.crawl_delay(self._token(useragent))
        return None if delay is None else _whole(delay)

    def request_rate(self, useragent: str) -> RequestRate | None:
        """N2: the ``request-rate`` of the group for ``useragent`` as :class:`urllib.robotparser.RequestRate`; None if none."""
        robots = self._rules_for(useragent)
        if robots is None:
            return None
        rate = robots.request_rate(self._token(useragent))
        if rate is None:
            return None
        # typeshed says seconds is an int: it is one unless the file gives a fraction ("1/0.5s")
        return RequestRate(rate.requests, cast(int, _whole(rate.seconds)))

    def site_maps(self) -> list[str] | None:
        """N1: the ``sitemap`` URLs in file order, or None when there are none (as the standard library)."""
        return self.sitemaps or None

    @property
    def sitemaps(self) -> list[str]:
        """N1: the ``sitemap`` URLs in file order (a new list; empty when there are none)."""
        return self.robots.sitemaps if self.robots is not None else []

    def __str__(self) -> str:
        """The groups as the standard library renders its entries: named agents first, ``*`` last;
        agents, ``Crawl-delay``, ``Request-rate``, then the rules as written, groups separated by a blank line."""
        robots = self.robots
        if robots is None:
            return ""
        groups = [g for g in robots.groups if not g.is_global] + [g for g in robots.groups if g.is_global]
        blocks = []
        for group in groups:
            lines = [f"User-agent: {agent}" for agent in group.agents]
            delays = [d for e in group.extensions if e.field == "crawl-delay" and (d := parse_crawl_delay(e.value)) is not None]
            if delays:
                lines.append(f"Crawl-delay: {_whole(delays[0])}")
            rates = [r for e in group.extensions if e.field == "request-rate" and (r := parse_request_rate(e.value))]
            if rates:
                lines.append(f"Request-rate: {rates[0].requests}/{_whole(rates[0].seconds)}")
            lines += [f"{rule.kind.capitalize()}: {rule.value}" for rule in group.rules]
            blocks.append("\n".join(lines))
        return "\n\n".join(blocks)

    # -- additions -----------------------------------------------------------------------------

    def explain(self, useragent: str, url: str) -> str:
        """:meth:`can_fetch` as a sentence: the verdict and the deciding line as written, or the
        status that decided (DESIGN 5)."""
        allowed = self.can_fetch(useragent, url)
        token = self._token(useragent)
        source = self.url or "the parsed robots.txt"
        state = self.state
        if self.disallow_all or self.allow_all:
            why = f" ({state.reason})" if state is not None and state.kind != "rules" else ""
            return sentence(allowed, token, 0, "", None, "", source, "disallow" if self.disallow_all else "allow") + why
        robots = self.robots
        verdict = verdict_word(allowed)
        if not self.last_checked:
            return f"{verdict}: no robots.txt has been read or parsed yet"
        if robots is None:
            return f"{verdict}: no robots.txt was parsed"
        decision = robots.check(wire_url(url), token)
        return sentence(decision.allowed, token, decision.line, robots.line_text(decision.line), decision.agent,
                        decision.path, source)

    # -- internals -----------------------------------------------------------------------------

    def _use(self, state: RobotsState) -> None:
        """Take what a ``read()`` found: the rules and when their copy was fetched, or a full allow or disallow."""
        self.state = state
        if state.kind == "rules":
            entry = state.entry
            self.robots = state.robots
            self.allow_all = self.disallow_all = False
            self.last_checked = entry.good_at if entry.good_at is not None else entry.fetched_at
        else:  # a status decided (F3-F6): no file, so no time of one (as the standard library after a 404)
            self.robots = None
            self.allow_all = state.kind == "allow"
            self.disallow_all = state.kind == "disallow"
            self.last_checked = 0

    def _rules_for(self, useragent: str) -> RobotsTxt | None:
        """The parsed file to read extension lines from (as the standard library: none before a file was read)."""
        if not isinstance(useragent, str):
            raise TypeError(f"useragent must be str, not {type(useragent).__name__}")
        return self.robots if self.last_checked else None

    def _token(self, useragent: str) -> str:
        """G3: the product token of ``useragent`` (memoised: crawlers ask with one agent many times)."""
        return token_of(useragent)


def _load(client: RobotsClient, url: str, force: bool) -> RobotsState:
    """The state of the robots.txt at exactly ``url`` (F1-F8, C1-C4): the client's public calls
    when ``url`` is the robots.txt of its origin, else that URL itself, as the standard library reads it."""
    try:
        key = client.robots_url(url)  # validates: absolute, with a host, a scheme that can be fetched
    except UnsupportedScheme as exc:
        raise UnsupportedScheme(f"{exc}; to use a local file, pass its lines to parse()") from None
    parts = urlsplit(url)
    if parts.path == "/robots.txt" and not parts.query:
        return client.refresh(key) if force else client.robots(key)
    return client.robots_at(url, force=force)  # elsewhere: the standard library reads any URL it is given


def _whole(number: float) -> int | float:
    """``number``, as an int when it is whole (the standard library's values are ints)."""
    return int(number) if number.is_integer() else number
