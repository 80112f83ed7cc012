"""The client for asyncio and trio (through anyio): :class:`AsyncRobotsClient`."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from robotrules.answers import CheckResult, RobotsState
from robotrules.client._base import GRANTED, ClientBase, UserAgents, never
from robotrules.client._breaker import Budget
from robotrules.client._slots import Slot
from robotrules.core.refresh import Acquire, Done, FetchNow, Get, Put, Refresh, Reply, Sleep
from robotrules.core.robotstxt import parse
from robotrules.fetch import AsyncFetcher

if TYPE_CHECKING:
    import anyio

__all__ = ["AsyncRobotsClient"]

_T = TypeVar("_T")

_PARSE_ON_LOOP = 64 * 1024  # bytes: larger bodies are parsed in a worker thread, off the event loop
_WORKER_THREADS = 8  # the client's threads for store calls and large parses


class AsyncRobotsClient(ClientBase[AsyncFetcher, "anyio.Lock"]):
    """The client for asyncio and trio (via anyio); same arguments as :class:`RobotsClient`.

    ``http_client`` is an ``httpx.AsyncClient``. Calls of a blocking store (SQLite, Redis) run
    in worker threads; they happen only when the in-process cache has no fresh copy. So does
    parsing a fetched body over 64 KiB, so that one large file never stalls the event loop.
    Those threads are the client's own (at most 8), apart from the ones anyio lends everyone.
    """

    _limiter: anyio.CapacityLimiter | None = None

    def _make_fetcher(self, http_client: Any) -> AsyncFetcher:
        return AsyncFetcher(http_client, user_agent=self.user_agent, policy=self.policy, addresses=self.addresses)

    def _lock_factory(self) -> Callable[[], anyio.Lock]:
        import anyio

        return anyio.Lock

    async def allowed(self, url: str, user_agent: UserAgents | None = None) -> bool:
        """Whether ``user_agent`` may fetch ``url`` (absolute, percent-encoded as on the wire)."""
        key = self.robots_url(url)
        slot = self._slots.hit(key, self.clock()) or await self._load(key, False)
        return self._allowed(slot.state, url, user_agent)

    async def check(self, url: str, user_agent: UserAgents | None = None) -> CheckResult:
        """:meth:`allowed` with why: deciding line, status, cache state and age."""
        key = self.robots_url(url)
        slot = self._slots.hit(key, self.clock())
        return self._check(slot or await self._load(key, False), url, user_agent, hit=slot is not None)

    async def robots(self, url: str) -> RobotsState:
        """The state of the robots.txt governing ``url`` (fetched if needed)."""
        key = self.robots_url(url)
        slot = self._slots.hit(key, self.clock())
        return self._state(slot or await self._load(key, False), hit=slot is not None)

    async def crawl_delay(self, url: str, user_agent: UserAgents | None = None) -> float | None:
        """N2: the crawl-delay for ``user_agent`` (as :meth:`allowed` takes it) on ``url``'s site; None when not given."""
        robots = (await self.robots(url)).robots
        return robots.crawl_delay(self._tokens_of(user_agent)) if robots is not None else None

    async def sitemaps(self, url: str) -> list[str]:
        """N1: the sitemap URLs listed in the robots.txt governing ``url``."""
        robots = (await self.robots(url)).robots
        return robots.sitemaps if robots is not None else []

    async def refresh(self, url: str) -> RobotsState:
        """Fetch the robots.txt governing ``url`` now, whatever the cache holds (C2 still applies)."""
        return (await self._load(self.robots_url(url), True)).state

    async def robots_at(self, robots_url: str, *, force: bool = False) -> RobotsState:
        """As :meth:`RobotsClient.robots_at`."""
        key = self._exact(robots_url)
        slot = None if force else self._slots.hit(key, self.clock())
        return self._state(slot or await self._load(key, force), hit=slot is not None)

    async def invalidate(self, url: str) -> None:
        """Forget the cached robots.txt governing ``url``, here and in the store."""
        key = self.robots_url(url)
        self._slots.forget(key)
        await self._call(self._breaker.budget(), "delete", partial(self.store.delete, key), None)

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

    async def _load(self, key: str, force: bool) -> Slot:
        self._screen(key)
        seq = self._slots.seq
        lock = self._flights.enter(key)
        try:
            async with lock:
                slot = self._shared(key, force, seq)
                if slot is not None:
                    return slot
                done = await self._run(self._refresh(key, force))
                entry, cache = done.entry, done.cache
                body = self._to_parse(entry)
                if body is None or len(body) < _PARSE_ON_LOOP:
                    return self._install(entry, cache)
                import anyio.to_thread

                robots = await anyio.to_thread.run_sync(partial(parse, body, mode=self.mode), limiter=self._workers())
                return self._install(entry, cache, (body, robots))
        finally:
            self._flights.leave(key)

    def _workers(self) -> anyio.CapacityLimiter:
        """The worker threads of this client's blocking work (store calls, large parses), made on first use:
        a limiter of its own, so a slow store never holds up the threads others need (name lookups)."""
        limiter = self._limiter
        if limiter is None:
            import anyio

            limiter = self._limiter = anyio.CapacityLimiter(_WORKER_THREADS)
        return limiter

    async def _call(self, budget: Budget, name: str, call: Callable[[], _T], fallback: _T) -> _T:
        """As :meth:`RobotsClient._call`; the call runs in a worker thread when the store blocks."""
        admit = self._breaker.admit(budget)
        if admit is None:
            return fallback
        attempt = partial(self._breaker.attempt, budget, name, call, fallback, admit)
        if not getattr(self.store, "blocking", True):
            return attempt()
        import anyio.to_thread

        return await anyio.to_thread.run_sync(attempt, limiter=self._workers())

    async def _run(self, machine: Refresh) -> Done:
        """As :meth:`RobotsClient._run`, awaiting; the lock release is shielded from cancellation."""
        import anyio

        budget = self._breaker.budget()
        store = self.store
        held: tuple[str, str] | None = None
        try:
            op = machine.start(self.clock())
            while not isinstance(op, Done):
                reply: Reply = None
                match op:
                    case Get(key):
                        reply = await self._call(budget, "get", partial(store.get, key), None)
                    case Acquire(key):
                        reply = await self._call(budget, "acquire", partial(store.acquire, key, self._lock_wait),
                                                 GRANTED)
                        if reply:
                            held = (key, reply)
                    case Sleep(seconds):  # waiting for another process's fetch is store time too
                        await anyio.sleep(seconds)
                        budget.left -= seconds
                    case FetchNow(step):
                        reply = await self.fetcher.run(step, self.clock)
                    case Put(entry):
                        await self._call(budget, "put", partial(store.put, entry), None)
                    case _:
                        never(op)
                op = machine.send(reply, self.clock())
            self._gave_up(machine)
            return op
        finally:
            if held is not None:
                with anyio.CancelScope(shield=True):
                    await self._call(budget, "release", partial(store.release, *held), None)
