"""In-process single flight: one lock per robots.txt URL while anyone loads it or waits for it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["KeyLocks"]

_L = TypeVar("_L")  # threading.Lock or anyio.Lock


class KeyLocks(Generic[_L]):
    """One lock per key while anyone holds or waits for it; a key's lock is dropped when its last
    user leaves, so the table holds only keys being loaded (it is bounded by the loads under way)."""

    def __init__(self, factory: Callable[[], _L]) -> None:
        self._factory = factory
        self._locks: dict[str, _L] = {}
        self._users: dict[str, int] = {}  # key -> callers holding or waiting for its lock
        self._guard = threading.Lock()

    def __len__(self) -> int:
        """The number of keys with a lock now (loads under way or waited for)."""
        return len(self._locks)

    def enter(self, key: str) -> _L:
        """The lock of ``key``, counting the caller as one of its users (call :meth:`leave` after)."""
        with self._guard:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = self._factory()
            self._users[key] = self._users.get(key, 0) + 1
            return lock

    def leave(self, key: str) -> None:
        """The caller is done with the lock of ``key`` (dropped with its last user)."""
        with self._guard:
            users = self._users[key] - 1
            if users:
                self._users[key] = users
            else:
                del self._users[key], self._locks[key]
