"""The client's in-process cache of parsed robots.txt files: an LRU bounded in count and in bytes.

Each slot holds what governs one robots.txt URL (a :class:`~robotrules.answers.RobotsState`,
with its parsed file) and ``until``, the moment it stops holding (the policy's number, kept as
given). Lookups go without a lock (a dict read); installs and evictions take one. Each slot is
charged an estimate of what it keeps (:mod:`robotrules.client._cost`); past ``budget`` bytes or
``size`` slots the least recently used go.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import replace

from robotrules.answers import RobotsState, StoreState
from robotrules.core.policy import Entry

__all__ = ["Slot", "Slots"]


class Slot:
    """An in-process cache line: the state, and ``until``: it holds while ``now < until``.

    ``until`` is the policy's :attr:`~robotrules.core.policy.Standing.until` (the entry's expiry
    or the F6 flip), kept as given: the client compares the clock with it and nothing else.
    ``cost`` is what the slot is charged in the LRU, ``parsed`` the share of it for the parsed
    file (kept, so that an unchanged body reuses both); ``seq`` its install order (a forced
    refresh shares only a load newer than its request).
    """

    __slots__ = ("cost", "parsed", "seq", "state", "until")

    def __init__(self, until: float, state: RobotsState, seq: int, cost: int = 0, parsed: int = 0) -> None:
        self.until = until
        self.state = state
        self.seq = seq
        self.cost = cost
        self.parsed = parsed


class Slots:
    """The LRU: at most ``size`` slots and ``budget`` charged bytes (see the module)."""

    def __init__(self, size: int, budget: int) -> None:
        self.size = max(0, size)
        self.budget = max(0, budget)
        self.table: OrderedDict[str, Slot] = OrderedDict()
        """The slots by robots.txt URL, least recently used first (read it without the lock)."""
        self.bytes = 0
        """What the slots are charged together (at most ``budget``)."""
        self.seq = 0
        self._lock = threading.Lock()  # installs and evictions (lookups go without it)

    def __len__(self) -> int:
        return len(self.table)

    def hit(self, key: str, now: float) -> Slot | None:
        """The slot of ``key`` while it holds at ``now`` (the policy's ``until``), marked as used."""
        slot = self.table.get(key)
        if slot is None or now >= slot.until:
            return None
        try:  # noqa: SIM105 - on every cached check: contextlib.suppress would cost a context manager each time
            self.table.move_to_end(key)
        except KeyError:  # evicted by another thread meanwhile
            pass
        return slot

    def local(self, key: str) -> Entry | None:
        """The in-process entry of ``key``, fresh or not: a good copy it holds counts (C2)."""
        slot = self.table.get(key)
        return slot.state.entry if slot is not None else None

    def next_seq(self) -> int:
        """The install order of the next slot."""
        self.seq += 1
        return self.seq

    def keep(self, key: str, slot: Slot) -> None:
        """Put ``slot`` in the LRU, then evict least recently used slots to ``size`` and ``budget``.

        A slot charged more than ``budget`` on its own is not kept (it answers this call only).
        """
        with self._lock:
            old = self.table.pop(key, None)
            if old is not None:
                self.bytes -= old.cost
            if not self.size or slot.cost > self.budget:
                return
            self.table[key] = slot
            self.bytes += slot.cost
            while len(self.table) > self.size or self.bytes > self.budget:
                _, gone = self.table.popitem(last=False)
                self.bytes -= gone.cost

    def forget(self, key: str) -> None:
        """Drop the slot of ``key`` (nothing when there is none)."""
        with self._lock:
            old = self.table.pop(key, None)
            if old is not None:
                self.bytes -= old.cost

    def shared(self, key: str, now: float, force: bool, seq: int, store: StoreState) -> Slot | None:
        """A slot another caller loaded while this one waited for the key's lock, if any (newer than
        ``seq`` when ``force``), as a "shared" answer."""
        slot = self.table.get(key)
        if slot is None or now >= slot.until or (force and slot.seq <= seq):
            return None
        return Slot(slot.until, replace(slot.state, cache="shared", store=store), slot.seq)
