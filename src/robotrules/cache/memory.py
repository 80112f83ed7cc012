"""An in-process LRU store: the cache of one process, with no I/O (C1-C3).

Why: the simplest store, for a single crawler process, for tests, and as a hot layer in front of
a shared store. It keeps :class:`~robotrules.core.policy.Entry` objects as they are (they are
immutable, so handing the same object to several threads is safe) in an ordered dict used as an
LRU, bounded both by the number of entries and by an estimate of the bytes they hold.

Size of an entry: ``len(body) + len(url) + len(reason) + len(why.detail) + len(final_url) + ENTRY_OVERHEAD``,
where :data:`ENTRY_OVERHEAD` is a fixed estimate of the Python objects around them. The estimate
is deliberately simple: it bounds memory to within a small constant factor, not exactly.

Locks (single flight within the process) are tokens from :func:`secrets.token_hex` with an
expiry on :func:`time.monotonic` (the store's own clock, never the client's injected one).

Writes merge: ``put`` applies :func:`~robotrules.core.policy.merge` to the held entry and the
new one under the lock, so racing threads never lose a good copy (C2). Reads are checked:
``get`` hands out only entries that pass :func:`~robotrules.cache.base.validate_entry` (an
entry put in behind the store's back is logged and treated as missing).

Thread safety: every method takes one :class:`threading.Lock`; no method does I/O or calls back
into user code while holding it, so ``blocking`` is False and the async client calls it inline.
There is no per-call ``timeout``: nothing here can stall.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict

from robotrules.cache.base import checked_entry, validate_entry
from robotrules.core.policy import Entry, merge

__all__ = ["ENTRY_OVERHEAD", "MemoryStore"]

ENTRY_OVERHEAD = 512
"""Bytes charged per entry on top of its strings and body: the Entry object and its Reason, their
floats and ints, the dict slot and the LRU links (an estimate, measured roughly on CPython 3.11)."""

_SWEEP_MIN = 1024  # expired locks are swept once this many are held, then at double the count


def entry_size(entry: Entry) -> int:
    """The bytes an entry is charged for (see the module docstring)."""
    strings = len(entry.url) + len(entry.reason) + len(entry.why.detail) + len(entry.final_url)
    return len(entry.body) + strings + ENTRY_OVERHEAD


class MemoryStore:
    """An LRU of entries keyed by robots.txt URL (C3), bounded by count and by bytes.

    ``max_entries`` (>= 1) and ``max_bytes`` (>= 0) bound the cache; when a ``put`` goes past
    either bound, the least recently used entries are evicted until both hold again. ``get``
    and ``put`` mark an entry as recently used.

    An entry whose own size (after the merge) is above ``max_bytes`` is not kept: ``put`` drops
    it, and also forgets what was stored under that key before (keeping the older entry would
    serve a copy the caller has already superseded). Such an entry cannot occur with the
    default bound and the 500 KiB body limit (F9); it only matters for very small ``max_bytes``.
    """

    blocking = False

    def __init__(self, max_entries: int = 100_000, max_bytes: int = 256 * 2**20) -> None:
        if max_entries < 1:
            raise ValueError("max_entries must be >= 1")
        if max_bytes < 0:
            raise ValueError("max_bytes must be >= 0")
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, tuple[Entry, int]] = OrderedDict()
        self._bytes = 0
        self._locks: dict[str, tuple[str, float]] = {}
        self._sweep_at = _SWEEP_MIN

    @property
    def total_bytes(self) -> int:
        """The estimated bytes held now (see :func:`entry_size`)."""
        return self._bytes

    def __len__(self) -> int:
        """The number of entries held."""
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        """Whether ``key`` is held (does not mark it as used)."""
        return key in self._entries

    def get(self, key: str) -> Entry | None:
        """The entry stored for ``key`` (marking it most recently used), or None (also for an
        invalid one, logged: see :meth:`robotrules.cache.base.Store.get`)."""
        with self._lock:
            item = self._entries.get(key)
            if item is None:
                return None
            self._entries.move_to_end(key)
            entry = item[0]
        return checked_entry(key, entry, "the memory store")

    def put(self, entry: Entry) -> None:
        """Store :func:`~robotrules.core.policy.merge` of the held entry and ``entry`` under
        ``entry.url`` (atomically, under the lock: a good copy is never lost), as the most
        recently used, then evict to the bounds. ``InvalidEntry`` for an invalid ``entry``."""
        validate_entry(entry)
        with self._lock:
            old = self._entries.pop(entry.url, None)
            stored: Entry | None = None
            if old is not None:
                self._bytes -= old[1]
                stored = checked_entry(entry.url, old[0], "the memory store")
            kept = merge(stored, entry)
            size = entry_size(kept)
            if size > self.max_bytes:
                return  # too big to keep at all (see the class docstring)
            self._entries[entry.url] = (kept, size)
            self._bytes += size
            while len(self._entries) > self.max_entries or self._bytes > self.max_bytes:
                _, (_, evicted) = self._entries.popitem(last=False)
                self._bytes -= evicted

    def delete(self, key: str) -> None:
        """Forget ``key`` (no error when absent)."""
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._bytes -= old[1]

    def clear(self) -> None:
        """Forget every entry (locks are kept)."""
        with self._lock:
            self._entries.clear()
            self._bytes = 0

    def acquire(self, key: str, ttl: float) -> str | None:
        """Take the fetch lock of ``key`` for ``ttl`` seconds (> 0): a token, or None when held."""
        if not ttl > 0:
            raise ValueError("ttl must be > 0")
        now = time.monotonic()
        with self._lock:
            held = self._locks.get(key)
            if held is not None and held[1] > now:
                return None
            if len(self._locks) >= self._sweep_at:
                self._locks = {k: v for k, v in self._locks.items() if v[1] > now}
                self._sweep_at = max(_SWEEP_MIN, 2 * len(self._locks))
            token = secrets.token_hex(16)
            self._locks[key] = (token, now + ttl)
            return token

    def release(self, key: str, token: str) -> None:
        """Give the lock of ``key`` back, only if ``token`` still holds it."""
        with self._lock:
            held = self._locks.get(key)
            if held is not None and held[0] == token:
                del self._locks[key]

    def close(self) -> None:
        """Nothing to release; the entries stay usable (closing a memory store is a no-op)."""
