"""The work a diff or an edit may do: counted steps, a checkpoint every so many, a refusal past a budget.

A step is one small piece of work whose cost does not depend on the files' size: a rule
compared, a rule a URL is matched against (a check counts every rule of the crawler's groups,
the most a match may look at), a crawler's groups chosen, a user-agent value read. Counting steps,
not seconds, makes the bound the same on every machine and in every test. Two things hang on
the count:

* every :data:`EVERY` steps the caller's ``checkpoint`` runs (the service passes
  ``anyio.from_thread.check_cancelled``, so work for a client that left, or past its deadline,
  stops within a few milliseconds, however the work is shaped);
* past ``budget`` steps :class:`~robotrules.errors.TooMuchWork` is raised, so a request's
  cost is bounded before it is done, not after.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from robotrules.errors import TooMuchWork

__all__ = ["EVERY", "Budget", "CheckCost"]

EVERY = 4096
"""Steps between two checkpoints: well under a millisecond of work each."""


def _carry_on() -> None:
    """The checkpoint of work nobody may stop."""


class Budget:
    """Counts steps (:meth:`spend`); calls ``checkpoint`` every :data:`EVERY` steps; raises
    :class:`~robotrules.errors.TooMuchWork` past ``limit`` steps (None: no limit).

    Not thread-safe: one budget per piece of work.
    """

    __slots__ = ("_checkpoint", "_next", "limit", "spent")

    def __init__(self, limit: int | None = None, checkpoint: Callable[[], None] | None = None) -> None:
        if limit is not None and limit < 1:
            raise ValueError("a budget is a whole number of steps >= 1, or None for no limit")
        self.limit = limit
        self.spent = 0
        self._checkpoint = checkpoint if checkpoint is not None else _carry_on
        self._next = EVERY

    def spend(self, steps: int, what: str) -> None:
        """Count ``steps`` of work on ``what`` (words for people: "comparing 10,000 crawlers")."""
        self.spent += steps
        if self.limit is not None and self.spent > self.limit:
            raise TooMuchWork(self.limit, what)
        if self.spent >= self._next:
            self._next = self.spent + EVERY
            self._checkpoint()

    def reserve(self, steps: int, what: str) -> None:
        """Refuse now (:class:`~robotrules.errors.TooMuchWork`) when ``steps`` more would go over the
        budget: work whose cost is known before it starts is refused before it is done."""
        if self.limit is not None and self.spent + steps > self.limit:
            raise TooMuchWork(self.limit, what)

    def check(self) -> None:
        """Run the checkpoint now (between phases)."""
        self._checkpoint()


class CheckCost:
    """The most a check against one set of patterns may look at, in steps, by URL.

    A check tries only the literal patterns that start with the path's first two characters
    (every path starts with "/", so that pair tells them apart) and every pattern with a
    wildcard; :meth:`of_url` counts those, an upper bound of the matcher's work that follows
    the URL instead of the whole file.
    """

    __slots__ = ("heads", "other")

    CHECK = 32
    """Steps of a check whatever the patterns: reading the URL, choosing the groups, the answer."""

    def __init__(self, heads: dict[str, int], other: int) -> None:
        self.heads = heads
        self.other = other

    @classmethod
    def of(cls, patterns: Iterable[str], wildcards: bool) -> CheckCost:
        heads: dict[str, int] = {}
        other = cls.CHECK
        for pattern in patterns:
            if wildcards and ("*" in pattern or pattern.endswith("$")):
                other += 1
            else:
                heads[pattern[:2]] = heads.get(pattern[:2], 0) + 1
        return cls(heads, other)

    def of_url(self, url: str) -> int:
        """Steps a check of ``url`` (a path, or an absolute URL) may take."""
        start = 0 if url.startswith("/") else url.find("/", url.find("//") + 2)
        head = url[start:start + 2] if start >= 0 else ""
        return self.other + self.heads.get(head, 0)

    def of_urls(self, urls: Iterable[str]) -> int:
        return sum(map(self.of_url, urls))
