"""A clock moved by hand, for tests of lifetimes and outages (DESIGN 3: the clock is passed in)."""

from __future__ import annotations


class FakeClock:
    """Seconds since the epoch, starting at ``now``; ``advance`` moves it."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
