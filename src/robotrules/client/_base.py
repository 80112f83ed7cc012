"""What both clients share: configuration, URL -> robots.txt URL, the parsed-file cache, answers.

:class:`ClientBase` is generic in the fetcher (blocking or async) and in the per-URL lock of
in-process single flight; :mod:`robotrules.client._sync` and :mod:`robotrules.client._async`
add the methods a caller uses and the drivers that carry out the refresh machine
(:class:`robotrules.core.refresh.Refresh`), with or without ``await``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Generic, NoReturn, TypeVar

from robotrules.answers import CacheState, CheckResult, RobotsState, StoreState, answer, token_of
from robotrules.cache.base import Store
from robotrules.cache.memory import MemoryStore
from robotrules.client._breaker import Breaker
from robotrules.client._cost import DEFAULT_CACHE_BYTES, parsed_cost, slot_cost
from robotrules.client._flights import KeyLocks
from robotrules.client._slots import Slot, Slots
from robotrules.core.agents import user_agent_token
from robotrules.core.policy import FETCHABLE_SCHEMES, Entry, Policy, age, standing
from robotrules.core.refresh import Refresh
from robotrules.core.robotstxt import RobotsTxt, parse
from robotrules.core.urls import Scope
from robotrules.errors import InvalidURL, UnsupportedScheme
from robotrules.fetch import DEFAULT_USER_AGENT, AddressPolicy
from robotrules.hosts import ORIGIN_MEMO_BYTES, OriginMemo, robots_scope

__all__ = ["GRANTED", "ORIGIN_MEMO_BYTES", "ClientBase", "UserAgents", "never"]

log = logging.getLogger("robotrules")

UserAgents = str | Sequence[str]

_F = TypeVar("_F")  # the fetcher: Fetcher or AsyncFetcher
_L = TypeVar("_L")  # the per-URL lock: threading.Lock or anyio.Lock


GRANTED: str | None = ""
"""What a failed or skipped acquire answers: go ahead, without the store's lock."""


def _age(entry: Entry, now: float) -> float:
    """The age a state reports: of the deciding good copy (:func:`~robotrules.core.policy.age`),
    else of the latest attempt: a failure answered from the cache 50 s later is 50 s old, not 0
    (the policy's age of a decision made without a copy is 0, and stays so for its callers)."""
    if entry.good_at is not None:
        return age(entry, now)
    return max(0.0, now - entry.fetched_at)


def never(op: NoReturn) -> NoReturn:
    """``typing.assert_never`` (Python 3.11+) for 3.10: mypy proves every operation handled."""
    raise AssertionError(f"unhandled refresh operation {op!r}")


class ClientBase(Generic[_F, _L]):
    """Configuration, URL -> robots.txt URL, the parsed-file LRU, the store breaker, answers.

    ``_F`` is the fetcher and ``_L`` the per-URL lock of the subclass (blocking or async).
    """

    def __init__(
        self,
        store: Store | None = None,
        *,
        clock: Callable[[], float] | None = None,
        http_client: Any = None,
        user_agent: str = DEFAULT_USER_AGENT,
        policy: Policy | None = None,
        mode: str = "google",
        cache_size: int = 10_000,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
        store_deadline: float = 1.0,
        store_failures: int = 3,
        store_cooldown: float = 30.0,
        addresses: AddressPolicy | None = None,
        fetcher: _F | None = None,
    ) -> None:
        self.clock: Callable[[], float] = clock or time.time
        self._breaker = Breaker(self.clock, store_deadline, store_failures, store_cooldown)
        self.store: Store = store if store is not None else MemoryStore()
        self._owns_store = store is None
        self.policy = policy or Policy()
        self.user_agent = user_agent
        self.agent = user_agent_token(user_agent)
        """The product token matched when a call names no agent: the token of ``user_agent``."""
        self.mode = mode
        self.store_deadline = store_deadline
        self.store_failures = store_failures
        self.store_cooldown = store_cooldown
        parse(b"", mode=mode)  # a bad mode fails here, not at the first check
        self._slots = Slots(cache_size, cache_bytes)
        self._table = self._slots.table  # the hot path reads it directly
        self._origins: OriginMemo[str] = OriginMemo(lambda url: url)  # filled by _key (the scope is wanted too)
        self._lock_wait = self.policy.fetch_timeout + 5.0
        if fetcher is not None and (http_client is not None or addresses is not None):
            raise ValueError("give either fetcher or http_client/addresses: a fetcher makes its own connections")
        self.addresses = addresses
        self.fetcher: _F = fetcher if fetcher is not None else self._make_fetcher(http_client)
        self._flights: KeyLocks[_L] = KeyLocks(self._lock_factory())

    def _make_fetcher(self, http_client: Any) -> _F:  # Any: httpx is an optional extra
        raise NotImplementedError

    def _lock_factory(self) -> Callable[[], _L]:
        raise NotImplementedError

    @property
    def cache_size(self) -> int:
        """The most robots.txt files the in-process LRU keeps."""
        return self._slots.size

    @property
    def cache_bytes(self) -> int:
        """The LRU's budget in estimated bytes."""
        return self._slots.budget

    @property
    def cached_bytes(self) -> int:
        """The estimated bytes the in-process LRU holds now (at most ``cache_bytes``)."""
        return self._slots.bytes

    @property
    def store_state(self) -> StoreState:
        """The store's circuit breaker: "ok", "down" (bypassed until the cool-down ends) or "probing"."""
        return self._breaker.state

    # -- URL to robots.txt URL --------------------------------------------------------------

    def robots_url(self, url: str) -> str:
        """S1-S5: the robots.txt URL governing ``url``; :class:`InvalidURL` or :class:`UnsupportedScheme`."""
        return self._key(url)[0]

    def _key(self, url: str) -> tuple[str, Scope | None]:
        """:meth:`robots_url`, with the origin when it was worked out now (None: from the memo)."""
        if not isinstance(url, str):
            raise TypeError(f"url must be str, not {type(url).__name__}")
        known = self._origins.known(url)
        if known is not None:
            return known, None
        try:
            scope = robots_scope(url)
        except ValueError as exc:
            raise InvalidURL(str(exc)) from None
        if scope.scheme not in FETCHABLE_SCHEMES:  # robots_scope() lower-cases the scheme
            raise UnsupportedScheme(f"cannot fetch a robots.txt for {url!r}: only http, https and ftp have one")
        found = scope.robots_url()
        self._origins.remember(url, found)
        return found, scope

    def screen(self, url: str) -> str:
        """:meth:`robots_url`, and :class:`~robotrules.errors.BlockedAddress` at once when its host is
        an address literal the address policy refuses (``http://10.0.0.1/``): no store access, no
        lookup, no fetch, nothing cached. A name passes (it is judged when it is resolved).

        Every load does this itself; a caller with many URLs (the service) screens them all
        before it starts any work.
        """
        key, scope = self._key(url)
        addresses: AddressPolicy | None = getattr(self.fetcher, "addresses", None)
        if addresses is not None:
            if scope is None:
                self._screen(key)
            else:
                addresses.screen(scope)
        return key

    def _screen(self, key: str) -> None:
        """Refuse ``key`` (a robots.txt URL) when its host is a refused address literal (see :meth:`screen`)."""
        addresses: AddressPolicy | None = getattr(self.fetcher, "addresses", None)
        if addresses is None:
            return
        start = key.find("://") + 3
        end = key.find("/", start)
        first = key[start:end if end >= 0 else len(key)].rpartition("@")[2][:1]
        if first == "[" or first.isdigit():  # a name starting with a letter is never a literal
            try:
                scope = robots_scope(key)
            except ValueError:
                return  # not a URL to fetch: the load reports that
            addresses.screen(scope)

    def _exact(self, robots_url: str) -> str:
        """``robots_url`` as a cache key: validated as :meth:`robots_url` validates, without its fragment."""
        self.robots_url(robots_url)  # absolute, with a host, a scheme that can be fetched
        return robots_url.partition("#")[0]

    # -- the in-process cache ---------------------------------------------------------------

    def _to_parse(self, entry: Entry) -> bytes | None:
        """The body :meth:`_install` will parse for ``entry`` now: None when its rules do not
        decide, or when the slot already holds that body parsed."""
        stand = standing(entry, self.clock(), self.policy)
        if stand.kind != "rules":
            return None
        old = self._table.get(entry.url)
        if old is not None and old.state.robots is not None and old.state.entry.body == stand.body:
            return None
        return stand.body

    def _install(self, entry: Entry, cache: CacheState, ready: tuple[bytes, RobotsTxt] | None = None) -> Slot:
        """Parse (or reuse the parsed copy of) ``entry`` and keep it while it holds; ``ready``: a
        body and its parsed file, parsed already (off the event loop, by the async client)."""
        now = self.clock()
        stand = standing(entry, now, self.policy)
        robots = None
        parsed = 0
        if stand.kind == "rules":
            old = self._table.get(entry.url)
            if old is not None and old.state.robots is not None and old.state.entry.body == stand.body:
                robots, parsed = old.state.robots, old.parsed  # unchanged body: keep the parsed copy
            else:
                robots = ready[1] if ready is not None and ready[0] == stand.body else parse(stand.body, mode=self.mode)
                parsed = parsed_cost(robots)
        state = RobotsState(entry.url, stand.kind, stand.status, stand.reason, robots, why=stand.why, age=_age(entry, now),
                            cache=cache, failures=entry.failures, entry=entry, store=self.store_state)
        # until: the expiry or the F6 flip, the policy's number
        slot = Slot(stand.until, state, self._slots.next_seq(), slot_cost(entry, robots, parsed), parsed)
        self._slots.keep(entry.url, slot)
        return slot

    def _shared(self, key: str, force: bool, seq: int) -> Slot | None:
        """A slot another caller loaded while this one waited for the key's lock, if any."""
        return self._slots.shared(key, self.clock(), force, seq, self.store_state)

    def _refresh(self, key: str, force: bool) -> Refresh:
        """The refresh machine of ``key``, starting from this process's copy (C2)."""
        return Refresh(key, self.policy, local=self._slots.local(key), force=force, lock_wait=self._lock_wait)

    @staticmethod
    def _gave_up(machine: Refresh) -> None:
        if machine.gave_up:
            log.warning("robotrules: gave up waiting for another fetch of %s", machine.key)

    # -- answers ------------------------------------------------------------------------------

    def _tokens_of(self, user_agent: UserAgents | None) -> str | tuple[str, ...]:
        """What the parsed file is asked with: the product token(s) of ``user_agent``, or of the
        client's own ``user_agent`` when None (surfaces for people match on the token; the core
        compares exactly what it is given, as the reference does)."""
        if user_agent is None:
            return self.agent
        if isinstance(user_agent, str):
            return token_of(user_agent)
        return tuple(token_of(a) for a in user_agent)

    def _allowed(self, state: RobotsState, url: str, user_agent: UserAgents | None) -> bool:
        if state.robots is not None:
            return state.robots.allowed(url, self._tokens_of(user_agent))
        return state.kind == "allow"

    def _state(self, slot: Slot, hit: bool) -> RobotsState:
        """The slot's state as of now: a hit reports its cache state, the copy's current age (the
        policy's) and the store breaker's state."""
        state = slot.state
        if not hit:
            return state
        return replace(state, cache="hit", age=_age(state.entry, self.clock()), store=self.store_state)

    def cached(self, url: str) -> RobotsState | None:
        """The state of the robots.txt governing ``url`` when this process holds a copy that still
        holds now (as :meth:`robots` would answer it, ``cache="hit"``), else None: no store
        access, no fetch, never a wait. For callers that answer what is cached at once and
        queue the rest (the service)."""
        slot = self._slots.hit(self.robots_url(url), self.clock())
        return None if slot is None else self._state(slot, hit=True)

    def decide(self, state: RobotsState, url: str, user_agent: UserAgents | None = None) -> CheckResult:
        """The answer for ``url`` and ``user_agent`` under ``state`` (from :meth:`robots`,
        :meth:`cached` or :meth:`refresh`), as :meth:`check` gives it, without looking anything up.
        ``url`` must be one ``state`` governs."""
        return answer(state, url, self._tokens_of(user_agent))

    def _check(self, slot: Slot, url: str, user_agent: UserAgents | None, hit: bool) -> CheckResult:
        return self.decide(self._state(slot, hit), url, user_agent)
