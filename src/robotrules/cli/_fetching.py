"""Live robots.txt files for the ``robotrules`` command: the client, its cache, and verdicts.

Every command that reads a live robots.txt goes through one :class:`~robotrules.RobotsClient`
made here, lazily (a command working on local files never opens the cache), on the shared
SQLite cache (``--cache PATH``, default :func:`robotrules.cache.default_path`), a Redis cache
(``--redis URL``) or memory only (``--no-cache``). An unusable cache is an input error before
anything is fetched: a directory as the cache path, a file SQLite cannot open, an unreachable
Redis (the library would go on without the cache, quietly; a person asked for that cache).

``--refresh`` fetches each robots.txt once, at its first use in the run, and that verdict shows
the state the fetch returned ("fetched just now"), not a re-read of the copy just stored.

Who reads the cache: ``check`` and ``fetch`` (the crawler's view) answer from it while its copy
is fresh, and every answer says how old the copy is and how to fetch now ("cached 5 min ago;
--refresh fetches now"). ``test``, ``lint`` and ``diff`` given a URL fetch the live file every
run (a site owner who just edited robots.txt must never see the old copy); their ``--cached``
reads the cache instead, and says so the same way (:meth:`Fetching.state_line`).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from robotrules.answers import RobotsState, Verdict, answer, from_result, token_of
from robotrules.cache import MemoryStore, RedisStore, SQLiteStore, Store, default_path
from robotrules.cli._errors import InputError
from robotrules.client import JobRobots, RobotsClient
from robotrules.core.policy import Policy
from robotrules.errors import StoreError
from robotrules.fetch import DEFAULT_USER_AGENT

__all__ = ["Fetching", "decide"]

_PROBE = "https://robotrules.invalid/robots.txt"  # a key no robots.txt has: reading it tests the store


@contextmanager
def _quiet(logger: str) -> Iterator[list[logging.LogRecord]]:
    """Hold back ``logger``'s records while a store opens; the caller decides whether they matter."""

    held: list[logging.LogRecord] = []

    class _Hold(logging.Filter):
        def filter(self, record: logging.LogRecord) -> bool:
            held.append(record)
            return False

    hold = _Hold()
    target = logging.getLogger(logger)
    target.addFilter(hold)
    try:
        yield held
    finally:
        target.removeFilter(hold)


@dataclass
class Fetching:
    """The fetch options of one command, and the client they make (on first use).

    ``cache``: the SQLite file (None: the default path); ``no_cache``: memory only; ``redis``: a
    Redis URL; ``refresh``: fetch each robots.txt again at its first use; ``timeout``: seconds
    per robots.txt fetch; ``user_agent``: the User-Agent header of the requests (None: the
    library's); ``mode``: the parsing mode.
    """

    cache: str | None = None
    no_cache: bool = False
    redis: str | None = None
    refresh: bool = False
    timeout: float = 30.0
    user_agent: str | None = None
    mode: str = "google"
    cached_flag: bool = False
    """Whether the command's option to read the cache is ``--cached`` (test, lint, diff), not the
    default with ``--refresh`` to fetch (check, fetch): it decides the hint of :meth:`state_line`."""
    _client: RobotsClient | None = field(default=None, init=False, repr=False)
    _store: Store | None = field(default=None, init=False, repr=False)
    _job: JobRobots | None = field(default=None, init=False, repr=False)

    def open_store(self) -> Store:
        """The store the options name, checked to be usable (else an input error)."""
        if self.no_cache:
            return MemoryStore()
        if self.redis is not None:
            try:
                store: Store = RedisStore(self.redis)
            except ValueError as exc:  # redis-py's words for a malformed URL
                raise InputError(f"cannot use the Redis cache {self.redis!r}: {exc}") from None
            self._probe(store, f"cannot use the Redis cache {self.redis!r}")
            return store
        path = self.cache or default_path()
        if os.path.isdir(path):
            raise InputError(f"the cache path is a directory: {path!r} (give a file path, or --no-cache)")
        with _quiet("robotrules.cache") as held:
            store = SQLiteStore(path)
        self._probe(store, f"cannot use the cache file {path!r}")
        for record in held:  # e.g. a damaged file moved aside, or read-only use: worth a warning
            logging.getLogger(record.name).handle(record)
        return store

    @staticmethod
    def _probe(store: Store, what: str) -> None:
        try:
            store.get(_PROBE)
        except StoreError as exc:
            store.close()
            raise InputError(f"{what}: {exc} (or use --no-cache)") from None

    @property
    def client(self) -> RobotsClient:
        """The client, made on first use with the store, timeout, User-Agent and mode."""
        if self._client is None:
            store = self.open_store()
            self._store = store
            self._client = RobotsClient(store, policy=Policy(fetch_timeout=self.timeout), mode=self.mode,
                                        user_agent=self.user_agent or DEFAULT_USER_AGENT)
        return self._client

    def state(self, url: str) -> RobotsState:
        """The state of the robots.txt governing ``url``: fetched now under ``refresh`` (once per
        robots.txt in a run), else from the cache or fetched when it has no fresh copy."""
        if self._job is None:
            self._job = JobRobots(self.client, refresh=self.refresh)
        return self._job.robots(url)

    def state_line(self, state: RobotsState) -> str:
        """The state of a live robots.txt for people (``str(state)``), and for a copy read from the
        cache how to fetch it now instead: "...; cached 5 min ago; --refresh fetches now"."""
        if state.cache != "hit":
            return str(state)
        how = "without --cached it is fetched now" if self.cached_flag else "--refresh fetches now"
        return f"{state}; {how}"

    def close(self) -> None:
        """Close the client and the store (nothing when none was made)."""
        if self._client is not None:
            self._client.close()
        if self._store is not None:
            self._store.close()


def decide(state: RobotsState, url: str, agent: str) -> Verdict:
    """The verdict for ``url`` and ``agent`` (matched on its product token) under ``state``, as
    :meth:`RobotsClient.check` would give it; ``url`` may also be a path starting with "/"."""
    return from_result(answer(state, url, token_of(agent)), url, agent)
