"""The blocking client: :class:`RobotsClient`, safe to share between threads."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from robotrules.answers import TOKENS, CheckResult, RobotsState, token_of
from robotrules.client._base import GRANTED, ClientBase, UserAgents, never
from robotrules.client._breaker import Budget
from robotrules.client._slots import Slot
from robotrules.core.refresh import Acquire, Done, FetchNow, Get, Put, Refresh, Reply, Sleep
from robotrules.fetch import Fetcher

__all__ = ["RobotsClient"]

_T = TypeVar("_T")


class RobotsClient(ClientBase[Fetcher, threading.Lock]):
    """Thread-safe, blocking client. ``RobotsClient(store=None, *, clock=None, http_client=None, user_agent=..., policy=None)``.

    ``store`` keeps raw entries (default: a new :class:`~robotrules.MemoryStore`); ``clock``
    returns seconds since the epoch (default ``time.time``); ``http_client`` an
    ``httpx.Client`` to fetch with (not closed by :meth:`close`); ``user_agent`` the
    User-Agent of robots.txt requests; ``policy`` the :class:`~robotrules.core.policy.Policy`.
    Also: ``mode`` for parsing ("google"); ``cache_size`` (10,000 files) and ``cache_bytes``
    (256 MiB, estimated) bound the in-process LRU of parsed files (:attr:`cached_bytes` is
    what it holds); ``store_deadline`` (1.0 s) is the store time one check may spend, summed
    over its store calls (once spent, its other store calls are skipped; a call under way ends
    by the store's own timeout); after ``store_failures`` (3) consecutive failed store calls
    the store is bypassed for ``store_cooldown`` seconds (30, by ``clock``), then one probe
    call decides whether it is back (:attr:`store_state`). ``addresses``: an
    :class:`~robotrules.fetch.AddressPolicy` for the fetcher (default: the one
    ``Policy(public_addresses_only=True)`` asks for; subclass it to permit an internal network).
    ``user_agent`` is also the agent matched when a call names none (its product token, :attr:`agent`).
    ``fetcher``: a :class:`~robotrules.fetch.Fetcher` (an ``AsyncFetcher`` for the async client)
    whose ``send`` makes the requests another way (a crawling framework's own downloader); the
    policy, the cache and single flight stay the client's.
    """

    def _make_fetcher(self, http_client: Any) -> Fetcher:
        return Fetcher(http_client, user_agent=self.user_agent, policy=self.policy, addresses=self.addresses)

    def _lock_factory(self) -> Callable[[], threading.Lock]:
        return threading.Lock

    def allowed(self, url: str, user_agent: UserAgents | None = None) -> bool:
        """Whether ``user_agent`` may fetch ``url`` (absolute, percent-encoded as on the wire).

        ``user_agent``: a product token, a versioned name or a whole User-Agent header, matched
        on its product token; several for G5; None: the client's own ``user_agent``.
        """
        key = self.robots_url(url)
        slot = self._table.get(key)  # the hot path: Slots.hit() inlined
        if slot is None or self.clock() >= slot.until:
            slot = self._load(key, False)
        else:
            try:  # noqa: SIM105 - the hot path: contextlib.suppress would cost a context manager per decision
                self._table.move_to_end(key)  # LRU
            except KeyError:  # evicted by another thread meanwhile
                pass
        robots = slot.state.robots
        if robots is not None:
            if user_agent is None:
                return robots.allowed(url, self.agent)
            if type(user_agent) is str:
                token = TOKENS.get(user_agent)  # the hot path: token_of() inlined
                return robots.allowed(url, token if token is not None else token_of(user_agent))
            return robots.allowed(url, self._tokens_of(user_agent))
        return slot.state.kind == "allow"

    def check(self, url: str, user_agent: UserAgents | None = None) -> CheckResult:
        """:meth:`allowed` with why: deciding line, status, cache state and age."""
        key = self.robots_url(url)
        slot = self._slots.hit(key, self.clock())
        return self._check(slot or self._load(key, False), url, user_agent, hit=slot is not None)

    def robots(self, url: str) -> RobotsState:
        """The state of the robots.txt governing ``url`` (fetched if needed)."""
        key = self.robots_url(url)
        slot = self._slots.hit(key, self.clock())
        return self._state(slot or self._load(key, False), hit=slot is not None)

    def crawl_delay(self, url: str, user_agent: UserAgents | None = None) -> float | None:
        """N2: the crawl-delay for ``user_agent`` (as :meth:`allowed` takes it) on ``url``'s site; None when not given."""
        robots = self.robots(url).robots
        return robots.crawl_delay(self._tokens_of(user_agent)) if robots is not None else None

    def sitemaps(self, url: str) -> list[str]:
        """N1: the sitemap URLs listed in the robots.txt governing ``url``."""
        robots = self.robots(url).robots
        return robots.sitemaps if robots is not None else []

    def refresh(self, url: str) -> RobotsState:
        """Fetch the robots.txt governing ``url`` now, whatever the cache holds (C2 still applies)."""
        return self._load(self.robots_url(url), True).state

    def robots_at(self, robots_url: str, *, force: bool = False) -> RobotsState:
        """The state of a robots.txt at exactly ``robots_url``, which need not be ``/robots.txt``
        (``urllib.robotparser`` reads any URL it is given): fetched and cached as any other."""
        key = self._exact(robots_url)
        slot = None if force else self._slots.hit(key, self.clock())
        return self._state(slot or self._load(key, force), hit=slot is not None)

    def invalidate(self, url: str) -> None:
        """Forget the cached robots.txt governing ``url``, here and in the store."""
        key = self.robots_url(url)
        self._slots.forget(key)
        self._call(self._breaker.budget(), "delete", partial(self.store.delete, key), None)

    def close(self) -> None:
        """Close what this client created: its HTTP client and store, not ones passed in."""
        self.fetcher.close()
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> RobotsClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- driver ----------------------------------------------------------------------------------

    def _load(self, key: str, force: bool) -> Slot:
        self._screen(key)
        seq = self._slots.seq
        lock = self._flights.enter(key)
        try:
            with lock:
                slot = self._shared(key, force, seq)
                if slot is not None:
                    return slot
                done = self._run(self._refresh(key, force))
                return self._install(done.entry, done.cache)
        finally:
            self._flights.leave(key)

    def _call(self, budget: Budget, name: str, call: Callable[[], _T], fallback: _T) -> _T:
        """One store call within the check's ``budget`` and the breaker, or ``fallback`` (skipped or failed)."""
        admit = self._breaker.admit(budget)
        if admit is None:
            return fallback
        return self._breaker.attempt(budget, name, call, fallback, admit)

    def _run(self, machine: Refresh) -> Done:
        """Carry out the machine's operations, answering each with what happened and the time;
        release the store lock it took, however it ends.

        The store calls of one refresh (one check) share one budget of ``store_deadline`` seconds.
        """
        budget = self._breaker.budget()
        store = self.store
        held: tuple[str, str] | None = None
        try:
            op = machine.start(self.clock())
            while not isinstance(op, Done):
                reply: Reply = None
                match op:
                    case Get(key):
                        reply = self._call(budget, "get", partial(store.get, key), None)
                    case Acquire(key):
                        reply = self._call(budget, "acquire", partial(store.acquire, key, self._lock_wait), GRANTED)
                        if reply:
                            held = (key, reply)
                    case Sleep(seconds):  # waiting for another process's fetch is store time too
                        time.sleep(seconds)
                        budget.left -= seconds
                    case FetchNow(step):
                        reply = self.fetcher.run(step, self.clock)
                    case Put(entry):
                        self._call(budget, "put", partial(store.put, entry), None)
                    case _:
                        never(op)
                op = machine.send(reply, self.clock())
            self._gave_up(machine)
            return op
        finally:
            if held is not None:  # skipped when the deadline is spent: the lock then expires on its own
                self._call(budget, "release", partial(store.release, *held), None)
