"""Live checks for the service: many URLs, many sites, answered from the cache first.

A request's URLs go through three steps (issue #16-H1)::

    screen  every URL, in order, before anything else: a bad URL is 400, a host the address
            policy refuses as an address literal is 403, more sites than max_hosts is 422
            (no store access, no lookup, no fetch for a refused request)
    states  each site's robots.txt: from this process's cache at once (no gate, no wait), else
            loaded through the process's fetch gate, fetches_per_request at a time; one load per
            site however many requests ask for it at the same moment (the others wait for it
            without holding a slot)
    answer  every URL for every agent, from those states

Screening and answering run in slices, with a checkpoint between slices, so the event loop
answers other requests meanwhile; a POST holds a slot of the work gate for them (taken by the
edge), and gives it back while it waits for fetches (see :mod:`robotrules.service._admission`).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import anyio
import anyio.lowlevel

from robotrules.answers import RobotsState, from_result, require_token, state_dict
from robotrules.client import AsyncRobotsClient
from robotrules.errors import BlockedAddress, InvalidURL, UnsupportedScheme
from robotrules.hosts import check_url
from robotrules.service._admission import Gates, Overloaded, released
from robotrules.service._errors import ApiError
from robotrules.service._metrics import Metrics
from robotrules.service._purpose import answer
from robotrules.service.settings import Settings

__all__ = ["FULL_DISALLOW", "LEAN_MOST", "PAUSE_AFTER", "SLICE", "Live", "agents_of", "cap", "drafts_urls", "limit"]

FULL_DISALLOW = b"User-agent: *\nDisallow: /\n"
"""What /v1/diff compares for a live robots.txt that means "everything disallowed" (unreachable, 5xx)."""

SLICE = 128
"""URLs screened between two checkpoints of a large list (a few milliseconds of work at most)."""

PAUSE_AFTER = 0.002
"""Seconds of verdicts computed on the event loop before it is let go (a checkpoint): what one
verdict costs depends on the file, so the slices of a verdict list are measured in time."""

LEAN_MOST = 0.010
"""Seconds of verdicts the lean path computes in one step before it hands the request to the app
(which answers in slices of :data:`PAUSE_AFTER`): 50 agents of a usual file take about 2 ms."""


def cap(text: str, most: int = 300) -> str:
    """``text`` as the start of a sentence, cut to ``most`` characters (a URL may be long)."""
    text = text if len(text) <= most else text[: most - 1] + "\u2026"
    return text[:1].upper() + text[1:]


def limit(count: int, most: int, what: str) -> None:
    """422 ``too_many_<what>`` when ``count`` is over ``most``."""
    if count > most:
        raise ApiError(422, f"too_many_{what}", f"Too many {what}: {count:,} given, at most {most:,} per request.")


def agents_of(agents: Sequence[str], settings: Settings) -> list[str]:
    """The agents to decide for ("*" when none), each with a product token (G3)."""
    chosen = list(agents) or ["*"]
    limit(len(chosen), settings.max_agents, "agents")
    for n, agent in enumerate(chosen):
        try:
            require_token(agent)  # the one agent check of every surface
        except ValueError as exc:
            where = f"agents[{n}]: " if len(chosen) > 1 else ""
            raise ApiError(422, "invalid_request", cap(f"{where}{exc}; no group can name it.")) from None
    return chosen


def _long(url: str, field_name: str, settings: Settings) -> None:
    if len(url) > settings.max_url_length:
        raise ApiError(422, "url_too_long", f"{field_name} is {len(url):,} characters long; this service takes URLs of "
                                            f"at most {settings.max_url_length:,}.")


def drafts_urls(urls: Sequence[str], agents: int, settings: Settings, field_name: str = "urls") -> None:
    """The URLs of a draft request: bounded (count, checks, length), each an absolute URL or a path starting with "/"."""
    limit(len(urls), settings.max_urls, "urls")
    limit(len(urls) * max(1, agents), settings.max_checks, "checks")
    for n, url in enumerate(urls):
        _long(url, f"{field_name}[{n}]", settings)
        try:
            check_url(url, paths=True)
        except InvalidURL as exc:
            raise ApiError(422, "invalid_path", f"{field_name}[{n}]: {cap(str(exc))}.") from None


@dataclass(eq=False)
class _Flight:
    """One load of a robots.txt under way in this process, awaited by the other requests that need it."""

    done: anyio.Event = field(default_factory=anyio.Event)
    state: RobotsState | None = None
    refused: BlockedAddress | None = None


@dataclass
class Live:
    """What the endpoints share: the settings, the metrics, the gates and (once started) the client."""

    settings: Settings
    metrics: Metrics
    gates: Gates
    client: AsyncRobotsClient | None = None
    _flights: dict[str, _Flight] = field(default_factory=dict)

    @property
    def live(self) -> AsyncRobotsClient:
        if self.client is None:
            raise RuntimeError("the service is not started (run it with uvicorn, or enter its lifespan)")
        return self.client

    def blocked(self, exc: BlockedAddress) -> ApiError:
        """403 for a robots.txt host the address policy refuses (counted)."""
        self.metrics.blocked.inc()
        where = exc.address if exc.host == exc.address else f"{exc.host} ({exc.address})"
        return ApiError(403, "blocked_address",
                        f"The robots.txt host {where} is not a public address ({exc.reason}); "
                        "this service does not fetch robots.txt files from non-public addresses.")

    def screen(self, url: str, where: str = "") -> str:
        """The robots.txt URL governing ``url``, screened (see the module): 400, 403 or 422 if not."""
        _long(url, where.rstrip(": ") or "The URL", self.settings)
        try:
            return self.live.screen(url)
        except UnsupportedScheme as exc:
            raise ApiError(400, "unsupported_scheme", f"{where}{cap(str(exc))}.") from None
        except (InvalidURL, TypeError) as exc:
            raise ApiError(400, "invalid_url", f"{where}{cap(str(exc))}.") from None
        except BlockedAddress as exc:
            raise self.blocked(exc) from None

    async def robots(self, url: str) -> RobotsState:
        """The state of the robots.txt governing ``url``: cached, or loaded through the fetch gate."""
        key = self.screen(url)
        state = self.live.cached(url)
        if state is None:
            async with released():
                state = await self._load(key, url)
        self.metrics.looked_up(state)
        return state

    async def check(self, urls: Sequence[str], agents: Sequence[str], purpose: str | None = None) -> list[dict[str, Any]]:
        """Verdicts of every URL for every agent, in order (see the module for the three steps),
        each with the answer to ``purpose`` when one is asked (:mod:`robotrules.service._purpose`)."""
        settings, client = self.settings, self.live
        limit(len(urls) * len(agents), settings.max_checks, "checks")
        many = len(urls) > 1
        keys: list[str] = []
        sites: dict[str, str] = {}  # robots.txt URL -> the first URL of that site
        for n, url in enumerate(urls):
            if n % SLICE == SLICE - 1:
                await anyio.lowlevel.checkpoint()
            key = self.screen(url, f"urls[{n}]: " if many else "")
            keys.append(key)
            if key not in sites:
                sites[key] = url
                limit(len(sites), settings.max_hosts, "hosts")
        states: dict[str, RobotsState] = {}
        missing: list[tuple[str, str]] = []
        for key, url in sites.items():
            state = client.cached(url)
            if state is None:
                missing.append((key, url))
            else:
                states[key] = state
        if missing:
            async with released():
                await self._load_all(missing, states)
        for state in states.values():
            self.metrics.looked_up(state)
        verdicts: list[dict[str, Any]] = []
        answered: set[str] = set()  # sites with a verdict given: the later ones read the same copy, as a hit
        pause_at = time.perf_counter() + PAUSE_AFTER
        for n, url in enumerate(urls):
            key = keys[n]
            for agent in agents:
                if time.perf_counter() >= pause_at:
                    await anyio.lowlevel.checkpoint()
                    pause_at = time.perf_counter() + PAUSE_AFTER
                state = states[key]
                if key not in answered:
                    answered.add(key)
                elif state.cache != "hit":
                    state = states[key] = replace(state, cache="hit")
                result = client.decide(state, url, agent)
                self.metrics.decided(result.allowed)
                verdicts.append(answer(from_result(result, url, agent), purpose))
        return verdicts

    def cached_check(self, url: str, agents: Sequence[str], purpose: str | None = None) -> list[dict[str, Any]] | None:
        """:meth:`check` of one URL when this process holds its robots.txt (every verdict a hit),
        else None; the same errors as :meth:`check` (ApiError, BlockedAddress, ...) but nothing
        counted: the caller (:mod:`robotrules.service._lean`) hands a refused request to the app,
        which counts and answers it. Synchronous: no wait, nothing to cancel; so when its verdicts
        take longer than :data:`LEAN_MOST` (a file whose verdicts are costly) it gives up and
        returns None too: the app answers in slices, letting the event loop go between them."""
        client = self.live
        chosen = agents_of(agents, self.settings)
        limit(len(chosen), self.settings.max_checks, "checks")
        _long(url, "The URL", self.settings)
        client.screen(url)
        state = client.cached(url)
        if state is None:
            return None
        give_up = time.perf_counter() + LEAN_MOST
        found = []
        for agent in chosen:
            if time.perf_counter() > give_up:
                return None
            found.append(answer(from_result(client.decide(state, url, agent), url, agent), purpose))
        return found

    async def fetched_body(self, url: str) -> tuple[bytes, dict[str, Any]]:
        """The body /v1/diff compares for a live robots.txt: its text, nothing (full allow) or
        :data:`FULL_DISALLOW`, with the state that says which."""
        state = await self.robots(url)
        body = state.robots.body if state.robots is not None else b"" if state.kind == "allow" else FULL_DISALLOW
        return body, state_dict(state)

    async def _load_all(self, missing: list[tuple[str, str]], states: dict[str, RobotsState]) -> None:
        """Load the ``missing`` sites' states into ``states``, ``fetches_per_request`` at a time;
        the first refusal (403, 503) ends the others and is raised."""
        queue = list(reversed(missing))
        failed: list[BaseException] = []
        if self.gates.fetches.full():  # refused now, before any task is made for it
            raise Overloaded(self.gates.fetches.what)

        async with anyio.create_task_group() as group:

            async def worker() -> None:
                while queue and not failed:
                    key, url = queue.pop()
                    try:
                        states[key] = await self._load(key, url)
                    except (ApiError, BlockedAddress, Overloaded) as exc:
                        failed.append(exc)
                        group.cancel_scope.cancel()

            for _ in range(min(self.settings.fetches_per_request, len(missing))):
                group.start_soon(worker)
        if failed:
            error = failed[0]
            raise self.blocked(error) if isinstance(error, BlockedAddress) else error

    async def _load(self, key: str, url: str) -> RobotsState:
        """Load one site's state through the fetch gate, once per site however many ask at once."""
        while True:
            flight = self._flights.get(key)
            if flight is None:
                break
            await flight.done.wait()  # another request is loading it: no slot held while waiting
            if flight.state is not None:
                return flight.state
            if flight.refused is not None:
                raise flight.refused
            # that load was cancelled (its request gave up): try again, maybe as the loader
        flight = self._flights[key] = _Flight()
        try:
            async with self.gates.fetches.slot():
                state = await self.live.robots(url)
            flight.state = state
            return state
        except BlockedAddress as exc:  # a name that resolved to a refused address
            flight.refused = exc
            raise
        finally:
            del self._flights[key]
            flight.done.set()
