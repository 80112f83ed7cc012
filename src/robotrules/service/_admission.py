"""How much work one service process takes on at once, and what it refuses (issue #16-H1).

Two gates, each a number of slots and a bounded queue of waiters in front of them::

    request ──> needs a slot ──> free slot ────────────────> works, then gives it back
                     │
                     ├─ all taken, queue not full ──> waits (within the request's deadline)
                     └─ all taken, queue full ─────> Overloaded: 503 with Retry-After, at once

* ``fetches``: robots.txt loads (cache misses) in flight in this process. A cached check never
  takes one, so a flood of slow or unknown sites cannot delay answers from the cache.
* ``small``: one slot of its own for requests whose body is small (``small_body`` bytes, a few
  KB: a draft of a usual robots.txt, a handful of URLs), so that a person's draft is answered
  while strangers' large drafts hold every ``work`` slot; its work is small with its body.
* ``work``: the other requests with a body (every POST), for as long as they compute: reading their JSON,
  screening and answering their lists of URLs on the event loop (in slices, with a checkpoint
  between them), a draft's parse, lint, checks and diff in a worker thread. A request gives
  its slot back while it waits for robots.txt fetches (:func:`released`) and takes one again,
  past the queue, to answer. Few slots keep the event loop's ready queue short: ``/healthz``
  and ``GET`` checks, which take no slot, are answered between the slices of at most ``work``
  large requests, however many more are waiting.

Waiting takes no thread and no event-loop time (the waiters sleep on a semaphore, not in the
event loop's queue). The gates hold no I/O; the deadline that bounds a wait is the request's
own (:mod:`robotrules.service._edge`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass

import anyio

__all__ = ["Gate", "Gates", "Overloaded", "released"]

class _Hold:
    """A slot of ``gate`` held by one request (``held`` False while it is lent back, :func:`released`)."""

    __slots__ = ("gate", "held")

    def __init__(self, gate: Gate) -> None:
        self.gate = gate
        self.held = True


_HELD: ContextVar[_Hold | None] = ContextVar("robotrules_held_gate", default=None)
"""The slot the current request holds (set by :meth:`Gate.slot`), for :func:`released`."""


class Overloaded(Exception):
    """A gate's queue is full: the request is refused now (503, ``Retry-After``) rather than queued."""

    def __init__(self, what: str) -> None:
        super().__init__(f"This service is busy ({what}); try again in a moment.")
        self.what = what


class Gate:
    """``slots`` holders at once, at most ``queue`` more waiting; past that :class:`Overloaded`.

    Not thread-safe: use it from the event loop only.
    """

    def __init__(self, what: str, slots: int, queue: int) -> None:
        if slots < 1 or queue < 0:
            raise ValueError("a gate needs at least 1 slot and a queue of 0 or more")
        self.what = what
        self.slots = slots
        self.queue = queue
        self._semaphore: anyio.Semaphore | None = None
        self.waiting = 0
        self.busy = 0

    def full(self) -> bool:
        """Whether a request for a slot now would be refused (every slot taken, the queue full)."""
        return self.busy >= self.slots and self.waiting >= self.queue

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold a slot for the block; wait in the queue while all are taken; Overloaded when it is full."""
        semaphore = self._semaphore
        if semaphore is None:  # made on first use, inside the event loop
            semaphore = self._semaphore = anyio.Semaphore(self.slots)
        if self.full():
            raise Overloaded(self.what)
        await self._acquire(semaphore)
        hold = _Hold(self)
        token = _HELD.set(hold)
        try:
            yield
        finally:
            _HELD.reset(token)
            if hold.held:
                self.busy -= 1
                semaphore.release()

    async def _acquire(self, semaphore: anyio.Semaphore) -> None:
        self.waiting += 1
        try:
            await semaphore.acquire()
        finally:
            self.waiting -= 1
        self.busy += 1

    @asynccontextmanager
    async def _lent(self, hold: _Hold) -> AsyncIterator[None]:
        """Give the held slot back for the block, then take one again (waiting, never refused)."""
        semaphore = self._semaphore
        assert semaphore is not None and hold.held
        hold.held = False
        self.busy -= 1
        semaphore.release()
        try:
            yield
        finally:
            await self._acquire(semaphore)  # cancelled while waiting: not held, and slot() gives nothing back
            hold.held = True


@dataclass(frozen=True, slots=True)
class Gates:
    """The gates of one app (see the module docstring)."""

    fetches: Gate
    work: Gate
    small: Gate

    @classmethod
    def of(cls, fetches: int, work: int, queue: int) -> Gates:
        """``fetches`` robots.txt loads and ``work`` heavy phases at once, one small request, each
        with a queue of ``queue``."""
        return cls(Gate("too many robots.txt files being fetched", fetches, queue),
                   Gate("too many large requests at once", work, queue),
                   Gate("too many requests at once", 1, queue))

    def for_body(self, size: int, small: int) -> Gate:
        """The gate of a request whose body has ``size`` bytes: ``small`` or fewer, the small lane."""
        return self.small if size <= small else self.work


@asynccontextmanager
async def released() -> AsyncIterator[None]:
    """Give back the slot the current request holds (if any) while it waits for I/O, for the block."""
    hold = _HELD.get()
    if hold is None or not hold.held:
        yield
        return
    async with hold.gate._lent(hold):
        yield
