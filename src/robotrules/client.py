"""The high-level clients: "may this agent fetch this URL?", fetching and caching as Google does.

:class:`RobotsClient` (threads) and :class:`AsyncRobotsClient` (asyncio or trio, through anyio)
find the robots.txt that governs a URL (S1-S5), take it from the cache or fetch it
(:mod:`robotrules.fetch`, driving :mod:`robotrules.core.policy`), and answer from what it says
or, when it could not be read, from Google's status rules (F2-F8, C1-C4).

Two cache levels: parsed files live in a bounded in-process LRU (``cache_size`` robots.txt
URLs); raw bodies and their metadata live in the store (``MemoryStore`` by default, or
``SQLiteStore`` / ``RedisStore`` shared between processes, C3). A robots.txt is fetched once
however many callers ask at the same moment: callers in one process wait on a per-URL lock,
and processes sharing a store wait on the store's lock and read the entry the holder writes.

The refresh logic is written once, as a generator of store and fetch operations
(:meth:`_Client._refresh`); each client only runs those operations, with or without ``await``.
A failing store is logged and bypassed: the client goes on with its in-process copies and
direct fetches (never failing a crawl because a cache is down).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, Union

from robotrules.cache.base import Store
from robotrules.cache.memory import MemoryStore
from robotrules.core.matcher import Decision
from robotrules.core.policy import Entry, Policy, standing
from robotrules.core.robotstxt import RobotsTxt, parse
from robotrules.core.urls import robots_url as _robots_url
from robotrules.errors import InvalidURL, StoreError, UnsupportedScheme
from robotrules.fetch import DEFAULT_USER_AGENT, AsyncFetcher, Fetcher

__all__ = ["AsyncRobotsClient", "CheckResult", "RobotsClient", "RobotsState"]

log = logging.getLogger("robotrules")

UserAgents = Union[str, Sequence[str]]
CacheState = Literal["hit", "miss", "shared"]
FETCHED_SCHEMES = ("http", "https", "ftp")

# Operations the refresh generator yields; the drivers carry them out.
_Op = tuple[Any, ...]
_Flow = Generator[_Op, Any, "tuple[Entry, CacheState]"]


@dataclass(frozen=True, slots=True)
class RobotsState:
    """What governs a robots.txt URL now, and why (DESIGN 5).

    ``kind``: "rules" (``robots`` decides), "allow" or "disallow" (everything, F4-F6).
    ``status`` is the HTTP status behind it (0: network failure); ``age`` the seconds since the
    deciding copy was fetched; ``cache`` "hit" (from cache), "miss" (fetched for this call) or
    "shared" (fetched meanwhile by another caller or process); ``failures`` the current
    streak of failed refreshes (C2). ``entry`` is the stored record.
    """

    robots_url: str
    kind: Literal["rules", "allow", "disallow"]
    status: int
    reason: str
    age: float
    cache: CacheState
    failures: int
    robots: RobotsTxt | None
    entry: Entry


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The answer for one URL and agent: ``allowed``, the deciding ``line`` (0: none) and why.

    ``decision`` is the matcher's :class:`~robotrules.core.matcher.Decision` when rules decided,
    None for a full allow or disallow; ``state`` says which robots.txt, fetched when, and how.
    """

    allowed: bool
    line: int
    decision: Decision | None
    state: RobotsState

    def explain(self) -> str:
        """One line for people: verdict, deciding line, status and cache state."""
        s = self.state
        head = self.decision.explain() if self.decision is not None else (
            f"{'allowed' if self.allowed else 'disallowed'}: full {s.kind} for the whole site")
        return f"{head} [{s.robots_url}: {s.reason}; cache {s.cache}, age {s.age:.0f}s]"


class _Slot:
    """An in-process cache line: the state and until when it holds (monotone in ``now``)."""

    __slots__ = ("seq", "state", "until")

    def __init__(self, until: float, state: RobotsState, seq: int) -> None:
        self.until = until
        self.state = state
        self.seq = seq  # install order: a forced refresh shares only a load newer than its request


class _Client:
    """What both clients share: configuration, URL -> robots.txt URL, the parsed-file LRU, the refresh logic."""

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
    ) -> None:
        self.store: Store = store if store is not None else MemoryStore()
        self._owns_store = store is None
        self.clock: Callable[[], float] = clock or time.time
        self.policy = policy or Policy()
        self.user_agent = user_agent
        self.mode = mode
        self.cache_size = max(0, cache_size)
        parse(b"", mode=mode)  # a bad mode fails here, not at the first check
        self._slots: OrderedDict[str, _Slot] = OrderedDict()
        self._origins: dict[str, str] = {}
        self._lock_wait = self.policy.fetch_timeout + 5.0
        self._seq = 0
        self.fetcher = self._make_fetcher(http_client)
        self._flights = _KeyLocks(self._lock_factory())

    def _make_fetcher(self, http_client: Any) -> Any:
        raise NotImplementedError

    def _lock_factory(self) -> Callable[[], Any]:
        raise NotImplementedError

    # -- URL to robots.txt URL --------------------------------------------------------------

    def robots_url(self, url: str) -> str:
        """S1-S5: the robots.txt URL governing ``url``; :class:`InvalidURL` or :class:`UnsupportedScheme`."""
        if not isinstance(url, str):
            raise TypeError(f"url must be str, not {type(url).__name__}")
        start = url.find("://")
        end = url.find("/", start + 3) if start > 0 else -1
        origin = url if end < 0 else url[:end]
        known = self._origins.get(origin)
        if known is not None:
            return known
        try:
            found = _robots_url(url)
        except ValueError as exc:
            raise InvalidURL(str(exc)) from None
        if not found.startswith(FETCHED_SCHEMES):
            raise UnsupportedScheme(f"cannot fetch a robots.txt for {url!r}: only http, https and ftp (S5)")
        if start > 0 and "?" not in origin and "#" not in origin and "\\" not in origin:
            if len(self._origins) >= 100_000:
                self._origins.clear()
            self._origins[origin] = found
        return found

    # -- the in-process cache ---------------------------------------------------------------

    def _fresh(self, key: str, now: float) -> _Slot | None:
        slot = self._slots.get(key)
        if slot is None or now >= slot.until:
            return None
        try:
            self._slots.move_to_end(key)
        except KeyError:  # evicted by another thread meanwhile
            pass
        return slot

    def _install(self, entry: Entry, cache: CacheState) -> _Slot:
        """Parse (or reuse the parsed copy of) ``entry`` and keep it while it holds."""
        now = self.clock()
        stand = standing(entry, now, self.policy)
        robots = None
        if stand.kind == "rules":
            old = self._slots.get(entry.url)
            if old is not None and old.state.robots is not None and old.state.entry.body == stand.body:
                robots = old.state.robots  # unchanged body: keep the parsed copy
            else:
                robots = parse(stand.body, mode=self.mode)
        until = entry.expires_at
        if stand.kind == "disallow" and entry.failing_since is not None:  # F6 flips to allow then
            until = min(until, entry.failing_since + self.policy.unreachable_after + 1e-6)
        state = RobotsState(entry.url, stand.kind, stand.status, stand.reason, stand.age, cache, entry.failures, robots, entry)
        self._seq += 1
        slot = _Slot(until, state, self._seq)
        if self.cache_size:
            self._slots[entry.url] = slot
            while len(self._slots) > self.cache_size:
                try:
                    self._slots.popitem(last=False)
                except KeyError:
                    break
        return slot

    def _forget(self, key: str) -> None:
        self._slots.pop(key, None)

    def _shared(self, key: str, force: bool, seq: int) -> _Slot | None:
        """A slot another caller loaded while this one waited for the key's lock, if any."""
        slot = self._slots.get(key)
        if slot is None or self.clock() >= slot.until or (force and slot.seq <= seq):
            return None
        return _Slot(slot.until, replace(slot.state, cache="shared"), slot.seq)

    def _call_store(self, name: str, *args: Any) -> Any:
        """One store call; a failing store is logged and bypassed (a miss, or the lock granted)."""
        try:
            if name == "get":
                return self.store.get(args[0])
            if name == "put":
                return self.store.put(args[0])
            if name == "acquire":
                return self.store.acquire(args[0], self._lock_wait)
            if name == "release":
                return self.store.release(args[0], args[1])
            return self.store.delete(args[0])
        except StoreError as exc:
            log.warning("robotrules: store %s failed, going on without it: %s", name, exc)
            return "" if name == "acquire" else None

    # -- answers ------------------------------------------------------------------------------

    @staticmethod
    def _allowed(state: RobotsState, url: str, user_agent: UserAgents) -> bool:
        if state.robots is not None:
            return state.robots.allowed(url, user_agent)
        return state.kind == "allow"

    def _state(self, slot: _Slot, hit: bool) -> RobotsState:
        """The slot's state as of now: a hit reports its cache state and the copy's current age."""
        state = slot.state
        if not hit:
            return state
        good_at = state.entry.good_at
        age = max(0.0, self.clock() - good_at) if good_at is not None and state.kind != "disallow" else 0.0
        return replace(state, cache="hit", age=age)

    def _check(self, slot: _Slot, url: str, user_agent: UserAgents, hit: bool) -> CheckResult:
        state = self._state(slot, hit)
        if state.robots is not None:
            decision = state.robots.check(url, user_agent)
            return CheckResult(decision.allowed, decision.line, decision, state)
        return CheckResult(state.kind == "allow", 0, None, state)

    # -- the refresh, written once ------------------------------------------------------------

    def _refresh(self, key: str, force: bool) -> _Flow:
        """Store hit, or wait for another process's fetch, or fetch under the store lock (C1-C3).

        Yields ("get", key) -> Entry | None, ("acquire", key) -> token | None,
        ("sleep", seconds), ("fetch", key, cached) -> Entry, ("put", entry); the driver
        releases a lock it acquired when the flow ends, however it ends.
        """
        cached: Entry | None = yield ("get", key)
        if not force and cached is not None and self.clock() < cached.expires_at:
            return cached, "hit"
        waited, pause = 0.0, 0.02
        while True:
            token = yield ("acquire", key)
            if token is not None:
                break
            if waited >= self._lock_wait:  # the holder died or hangs; its lock will expire
                log.warning("robotrules: gave up waiting for another fetch of %s", key)
                break
            yield ("sleep", pause)
            waited += pause
            pause = min(pause * 2, 0.25)
            latest = yield ("get", key)
            if latest is not None and (cached is None or latest.fetched_at != cached.fetched_at):
                return latest, "shared"
        if waited:  # someone else held the lock: they may have just written the entry
            latest = yield ("get", key)
            if latest is not None and (cached is None or latest.fetched_at != cached.fetched_at):
                return latest, "shared"
        entry = yield ("fetch", key, cached)
        yield ("put", entry)
        return entry, "miss"


class _KeyLocks:
    """One lock per key while anyone holds or waits for it (in-process single flight)."""

    def __init__(self, factory: Callable[[], Any]) -> None:
        self._factory = factory
        self._locks: dict[str, list[Any]] = {}  # key -> [lock, users]
        self._guard = threading.Lock()

    def enter(self, key: str) -> Any:
        with self._guard:
            pair = self._locks.get(key)
            if pair is None:
                pair = self._locks[key] = [self._factory(), 0]
            pair[1] += 1
            return pair[0]

    def leave(self, key: str) -> None:
        with self._guard:
            pair = self._locks[key]
            pair[1] -= 1
            if pair[1] == 0:
                del self._locks[key]


class RobotsClient(_Client):
    """Thread-safe, blocking client. ``RobotsClient(store=None, *, clock=None, http_client=None, user_agent=..., policy=None)``.

    ``store`` keeps raw entries (default: a new :class:`~robotrules.MemoryStore`); ``clock``
    returns seconds since the epoch (default ``time.time``); ``http_client`` an
    ``httpx.Client`` to fetch with (not closed by :meth:`close`); ``user_agent`` the
    User-Agent of robots.txt requests; ``policy`` the :class:`~robotrules.core.policy.Policy`.
    Also: ``mode`` for parsing ("google") and ``cache_size``, parsed files kept in memory.
    """

    def _make_fetcher(self, http_client: Any) -> Fetcher:
        return Fetcher(http_client, user_agent=self.user_agent, policy=self.policy)

    def _lock_factory(self) -> Callable[[], Any]:
        return threading.Lock

    def allowed(self, url: str, user_agent: UserAgents) -> bool:
        """Whether ``user_agent`` may fetch ``url`` (absolute, percent-encoded as on the wire)."""
        key = self.robots_url(url)
        slot = self._slots.get(key)  # the hot path: _fresh() inlined
        if slot is None or self.clock() >= slot.until:
            slot = self._load(key, False)
        else:
            try:
                self._slots.move_to_end(key)  # LRU
            except KeyError:  # evicted by another thread meanwhile
                pass
        robots = slot.state.robots
        if robots is not None:
            return robots.allowed(url, user_agent)
        return slot.state.kind == "allow"

    def check(self, url: str, user_agent: UserAgents) -> CheckResult:
        """:meth:`allowed` with why: deciding line, status, cache state and age."""
        key = self.robots_url(url)
        slot = self._fresh(key, self.clock())
        return self._check(slot or self._load(key, False), url, user_agent, hit=slot is not None)

    def robots(self, url: str) -> RobotsState:
        """The state of the robots.txt governing ``url`` (fetched if needed)."""
        key = self.robots_url(url)
        slot = self._fresh(key, self.clock())
        return self._state(slot or self._load(key, False), hit=slot is not None)

    def crawl_delay(self, url: str, user_agent: UserAgents) -> float | None:
        """N2: the crawl-delay for ``user_agent`` on ``url``'s site; None when not given."""
        robots = self.robots(url).robots
        return robots.crawl_delay(user_agent) if robots is not None else None

    def sitemaps(self, url: str) -> list[str]:
        """N1: the sitemap URLs listed in the robots.txt governing ``url``."""
        robots = self.robots(url).robots
        return robots.sitemaps if robots is not None else []

    def refresh(self, url: str) -> RobotsState:
        """Fetch the robots.txt governing ``url`` now, whatever the cache holds (C2 still applies)."""
        return self._load(self.robots_url(url), True).state

    def invalidate(self, url: str) -> None:
        """Forget the cached robots.txt governing ``url``, here and in the store."""
        key = self.robots_url(url)
        self._forget(key)
        self._call_store("delete", key)

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

    def _load(self, key: str, force: bool) -> _Slot:
        seq = self._seq
        lock = self._flights.enter(key)
        try:
            with lock:
                slot = self._shared(key, force, seq)
                if slot is not None:
                    return slot
                entry, cache = self._run(self._refresh(key, force))
                return self._install(entry, cache)
        finally:
            self._flights.leave(key)

    def _run(self, flow: _Flow) -> tuple[Entry, CacheState]:
        held: tuple[str, str] | None = None
        try:
            op = next(flow)
            while True:
                name = op[0]
                if name == "fetch":
                    result: Any = self.fetcher.fetch(op[1], op[2], self.clock, force=True)
                elif name == "sleep":
                    time.sleep(op[1])
                    result = None
                else:
                    result = self._call_store(name, op[1])
                    if name == "acquire" and result is not None:
                        held = (op[1], result)
                op = flow.send(result)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        finally:
            if held is not None:
                self._call_store("release", *held)

class AsyncRobotsClient(_Client):
    """The client for asyncio and trio (via anyio); same arguments as :class:`RobotsClient`.

    ``http_client`` is an ``httpx.AsyncClient``. Calls of a blocking store (SQLite, Redis) run
    in worker threads; they happen only when the in-process cache has no fresh copy.
    """

    def _make_fetcher(self, http_client: Any) -> AsyncFetcher:
        return AsyncFetcher(http_client, user_agent=self.user_agent, policy=self.policy)

    def _lock_factory(self) -> Callable[[], Any]:
        import anyio

        return anyio.Lock

    async def allowed(self, url: str, user_agent: UserAgents) -> bool:
        """Whether ``user_agent`` may fetch ``url`` (absolute, percent-encoded as on the wire)."""
        key = self.robots_url(url)
        slot = self._fresh(key, self.clock()) or await self._load(key, False)
        return self._allowed(slot.state, url, user_agent)

    async def check(self, url: str, user_agent: UserAgents) -> CheckResult:
        """:meth:`allowed` with why: deciding line, status, cache state and age."""
        key = self.robots_url(url)
        slot = self._fresh(key, self.clock())
        return self._check(slot or await self._load(key, False), url, user_agent, hit=slot is not None)

    async def robots(self, url: str) -> RobotsState:
        """The state of the robots.txt governing ``url`` (fetched if needed)."""
        key = self.robots_url(url)
        slot = self._fresh(key, self.clock())
        return self._state(slot or await self._load(key, False), hit=slot is not None)

    async def crawl_delay(self, url: str, user_agent: UserAgents) -> float | None:
        """N2: the crawl-delay for ``user_agent`` on ``url``'s site; None when not given."""
        robots = (await self.robots(url)).robots
        return robots.crawl_delay(user_agent) if robots is not None else None

    async def sitemaps(self, url: str) -> list[str]:
        """N1: the sitemap URLs listed in the robots.txt governing ``url``."""
        robots = (await self.robots(url)).robots
        return robots.sitemaps if robots is not None else []

    async def refresh(self, url: str) -> RobotsState:
        """Fetch the robots.txt governing ``url`` now, whatever the cache holds (C2 still applies)."""
        return (await self._load(self.robots_url(url), True)).state

    async def invalidate(self, url: str) -> None:
        """Forget the cached robots.txt governing ``url``, here and in the store."""
        key = self.robots_url(url)
        self._forget(key)
        await self._store("delete", key)

    async def aclose(self) -> None:
        """Close what this client created: its HTTP client and store, not ones passed in."""
        await self.fetcher.aclose()
        if self._owns_store:
            self.store.close()

    async def __aenter__(self) -> AsyncRobotsClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # -- driver ----------------------------------------------------------------------------------

    async def _load(self, key: str, force: bool) -> _Slot:
        seq = self._seq
        lock = self._flights.enter(key)
        try:
            async with lock:
                slot = self._shared(key, force, seq)
                if slot is not None:
                    return slot
                entry, cache = await self._run(self._refresh(key, force))
                return self._install(entry, cache)
        finally:
            self._flights.leave(key)

    async def _run(self, flow: _Flow) -> tuple[Entry, CacheState]:
        import anyio

        held: tuple[str, str] | None = None
        try:
            op = next(flow)
            while True:
                name = op[0]
                if name == "fetch":
                    result: Any = await self.fetcher.fetch(op[1], op[2], self.clock, force=True)
                elif name == "sleep":
                    await anyio.sleep(op[1])
                    result = None
                else:
                    result = await self._store(name, op[1])
                    if name == "acquire" and result is not None:
                        held = (op[1], result)
                op = flow.send(result)
        except StopIteration as done:
            return done.value  # type: ignore[no-any-return]
        finally:
            if held is not None:
                with anyio.CancelScope(shield=True):
                    await self._store("release", *held)

    async def _store(self, name: str, *args: Any) -> Any:
        """:meth:`_Client._call_store`, in a worker thread when the store blocks."""
        if not getattr(self.store, "blocking", True):
            return self._call_store(name, *args)
        import anyio.to_thread

        return await anyio.to_thread.run_sync(self._call_store, name, *args)
