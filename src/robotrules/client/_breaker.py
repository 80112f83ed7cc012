"""A sick store must not slow the crawl: a deadline per check, and a circuit breaker per client.

All store calls of one check, and its waits for another process's fetch, share one
:class:`Budget` of ``deadline`` seconds: once spent, the check's other store calls are skipped
and it goes on by itself. The :class:`Breaker` stops calling the store after ``failures``
consecutive failures (a call that alone takes the whole deadline counts as one: a store that
answers, but that slowly, is bypassed like one that fails), lets one probe call through every
``cooldown`` seconds, and closes when a probe succeeds::

    ok ──failures in a row──> down ──cool-down over──> probing ──probe succeeds──> ok
                               ^                           |
                               └──────probe fails──────────┘

Both read the client's clock. A failed call is logged and answered with its fallback (never
raised: a cache that is down never fails a check).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Literal, TypeVar

from robotrules.answers import StoreState
from robotrules.errors import StoreError

__all__ = ["Admit", "Breaker", "Budget"]

log = logging.getLogger("robotrules")

_T = TypeVar("_T")

Admit = Literal["call", "probe"]


class Budget:
    """The store time one check may still spend (seconds of the client's clock)."""

    __slots__ = ("left",)

    def __init__(self, left: float) -> None:
        self.left = left


class Breaker:
    """The store's circuit breaker (see the module); thread-safe."""

    def __init__(self, clock: Callable[[], float], deadline: float, failures: int, cooldown: float) -> None:
        if not deadline > 0:
            raise ValueError("store_deadline must be > 0 (seconds of store calls per check)")
        if failures < 1:
            raise ValueError("store_failures must be >= 1")
        if not cooldown >= 0:
            raise ValueError("store_cooldown must be >= 0")
        self.clock = clock
        self.deadline = deadline
        self.failures = failures
        self.cooldown = cooldown
        self._lock = threading.Lock()
        self._streak = 0  # consecutive failed store calls
        self._down_until: float | None = None  # None: the breaker is closed
        self._probing = False  # a probe call is under way

    @property
    def state(self) -> StoreState:
        """"ok", "down" (bypassed until the cool-down ends) or "probing"."""
        down_until = self._down_until
        if down_until is None:
            return "ok"
        return "probing" if self._probing or self.clock() >= down_until else "down"

    def budget(self) -> Budget:
        """A new check's store time: ``deadline`` seconds."""
        return Budget(self.deadline)

    def admit(self, budget: Budget) -> Admit | None:
        """Whether the next store call of a check goes to the store: "call", "probe" (the one call
        let through after the cool-down), or None: skipped (the check's deadline is spent, or the
        breaker is open)."""
        if budget.left <= 0:
            return None
        if self._down_until is None:  # the common case, without the lock
            return "call"
        return self._admit_down()

    def _admit_down(self) -> Admit | None:
        """:meth:`admit` while the breaker is (or was just) open: the probe, once the cool-down is over."""
        with self._lock:
            down_until = self._down_until
            if down_until is None:
                return "call"
            if self._probing or self.clock() < down_until:
                return None
            self._probing = True
            return "probe"

    def attempt(self, budget: Budget, name: str, call: Callable[[], _T], fallback: _T, admit: Admit) -> _T:
        """One admitted store call: its result, or ``fallback`` when it raises StoreError (logged).

        Its duration is taken from the check's budget, and its outcome counts for the breaker.
        """
        start = self.clock()
        failed = True
        try:
            result = call()
            failed = False
            return result
        except StoreError as exc:
            if self._down_until is None:
                log.warning("robotrules: store %s failed, going on without it: %s", name, exc)
            else:
                log.info("robotrules: store %s failed: %s", name, exc)
            return fallback
        finally:
            self._settle(budget, self.clock() - start, failed, admit == "probe")

    def _settle(self, budget: Budget, spent: float, failed: bool, probe: bool) -> None:
        """Charge ``spent`` seconds to the check; count the call for the breaker.

        Many quick calls that add up to the deadline (polling while another process fetches) end
        the check's store calls but are no failure.
        """
        spent = max(0.0, spent)  # a clock that went backwards charges nothing
        budget.left -= spent
        failed = failed or spent >= self.deadline
        with self._lock:
            if probe:
                self._probing = False
                if failed:
                    self._down_until = self.clock() + self.cooldown
                    log.info("robotrules: the store still fails; bypassed for another %gs", self.cooldown)
                else:
                    self._down_until = None
                    self._streak = 0
                    log.info("robotrules: the store answers again; using it")
            elif self._down_until is not None:
                pass  # a call admitted before the breaker opened: only the probe decides
            elif not failed:
                self._streak = 0
            else:
                self._streak += 1
                if self._streak >= self.failures:
                    self._down_until = self.clock() + self.cooldown
                    log.warning("robotrules: the store failed %d times in a row; bypassed for %gs, then probed",
                                self._streak, self.cooldown)
