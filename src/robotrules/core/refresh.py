"""The refresh of one robots.txt URL across processes: store read, lock, re-read, share (C1-C3).

Pure: no store, no network, no clock. A client's driver carries out each operation the machine
asks for and sends back what happened with the current time ``now`` (seconds since the epoch);
the machine decides, with :func:`~robotrules.core.policy.begin` and
:func:`~robotrules.core.policy.merge`, whether a copy will do or a fetch is needed, and makes
sure a robots.txt is fetched once however many processes sharing a store want it at once::

    READ ──get(stored)──> known := merge(local, stored)
      |-- begin(known, now) is an Entry (fresh, not forced) ---------------------------> DONE hit
      v
    LOCK ──acquire(token)──┬─ token: the lock is ours ────────────────────────────────> REREAD
      ^                    ├─ "": the store failed or was skipped (go on without it) ─> FETCH
      |                    ├─ None, waited < lock_wait ─> WAIT
      |                    └─ None, waited >= lock_wait (its holder died or hangs) ──> REREAD
    WAIT ──slept──> RECHECK ──get(latest)──┬─ another attempt than known, fresh now ──> DONE shared
      |                                    └─ else (known := merge(known, latest)) ───> LOCK
    REREAD ──get(latest)──┬─ another attempt than known, fresh now ───────────────────> DONE shared
                          └─ else ─────────────────────────────────────────────────────> FETCH
    FETCH ──fetched(entry)──> PUT ──put──> DONE miss

Waits double from 20 ms to 250 ms. The attempt begun in FETCH carries what is known, so a failed
fetch keeps the good copy (C2). The driver releases a lock the machine took when it is done,
however it ends. Each operation is a value (:class:`Get`, :class:`Acquire`, :class:`Sleep`,
:class:`FetchNow`, :class:`Put`; :class:`Done` ends it), so the machine is tested as tables of
(reply, now) -> next operation, as the fetch policy is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from robotrules.core.policy import Entry, Fetch, Policy, begin, merge

__all__ = ["Acquire", "Done", "FetchNow", "Get", "Had", "Op", "Put", "Refresh", "Reply", "Sleep", "State"]

State = Literal["READ", "LOCK", "WAIT", "RECHECK", "REREAD", "FETCH", "PUT", "DONE"]

Had = Literal["hit", "miss", "shared"]
"""How the governing entry was had: the store's fresh copy, a fetch made here, or a fetch
another caller or process made meanwhile (the one declaration: ``answers.CacheState`` is it)."""

FIRST_PAUSE = 0.02
LAST_PAUSE = 0.25


@dataclass(frozen=True, slots=True)
class Get:
    """Read the store's entry for ``key``. Reply: the :class:`Entry`, or None (none, or the store failed or was skipped)."""

    key: str


@dataclass(frozen=True, slots=True)
class Acquire:
    """Take the store's fetch lock of ``key``. Reply: the token; ``""`` when the store failed or was
    skipped (go on without the lock); None while another holds it."""

    key: str


@dataclass(frozen=True, slots=True)
class Sleep:
    """Wait ``seconds`` (for another process's fetch). Reply: None."""

    seconds: float


@dataclass(frozen=True, slots=True)
class FetchNow:
    """Carry out the attempt ``step`` (F1-F8). Reply: the :class:`Entry` it ends with."""

    step: Fetch


@dataclass(frozen=True, slots=True)
class Put:
    """Write ``entry`` to the store (which merges it with what it holds, C2). Reply: None."""

    entry: Entry


@dataclass(frozen=True, slots=True)
class Done:
    """The end: the ``entry`` that governs, and how it was had (``cache``)."""

    entry: Entry
    cache: Had


Op = Get | Acquire | Sleep | FetchNow | Put | Done
Reply = Entry | str | None


class Refresh:
    """One refresh of ``key`` (see the module): ``start(now)``, then ``send(reply, now)`` for each
    operation until :class:`Done`.

    ``local`` is the copy this process holds (a good copy it holds counts, whatever the store
    says, C2); ``force`` fetches even when a copy is fresh (an explicit refresh); ``lock_wait``
    bounds the wait for another process's fetch (seconds). :attr:`state` is where it stands;
    :attr:`gave_up` says a wait for another process's fetch ran out (the driver may log it).
    """

    def __init__(self, key: str, policy: Policy, *, local: Entry | None = None, force: bool = False,
                 lock_wait: float = 35.0) -> None:
        self.key = key
        self.policy = policy
        self.local = local
        self.force = force
        self.lock_wait = lock_wait
        self.state: State = "READ"
        self.gave_up = False
        self.waited = 0.0
        self._pause = FIRST_PAUSE
        self._known: Entry | None = local
        self._step: Fetch | None = None

    def start(self, now: float) -> Op:
        """The first operation: read the store."""
        del now  # the first decision needs the store's answer
        return Get(self.key)

    def send(self, reply: Reply, now: float) -> Op:
        """The next operation, given the ``reply`` to the last one and the time ``now``."""
        state = self.state
        if state == "READ":
            stored = _entry(reply)
            self._known = self.local if stored is None else merge(self.local, stored)
            found = begin(self.key, self._known, now, self.policy, force=self.force)
            if isinstance(found, Entry):
                return self._done(found, "hit")
            self._step = found
            return self._lock()
        if state == "LOCK":
            if reply == "":
                return self._fetch(now, reread=False)
            if isinstance(reply, str):
                self.state = "REREAD"
                return Get(self.key)
            if reply is not None:
                raise TypeError(f"the driver answered Acquire with {reply!r}")
            if self.waited >= self.lock_wait:
                self.gave_up = True
                self.state = "REREAD"
                return Get(self.key)
            self.state = "WAIT"
            pause = self._pause
            self.waited += pause
            self._pause = min(pause * 2, LAST_PAUSE)
            return Sleep(pause)
        if state == "WAIT":
            if reply is not None:
                raise TypeError(f"the driver answered Sleep with {reply!r}")
            self.state = "RECHECK"
            return Get(self.key)
        if state == "RECHECK":
            shared = self._newer(_entry(reply), now)
            if shared is not None:
                return self._done(shared, "shared")
            return self._lock()
        if state == "REREAD":
            shared = self._newer(_entry(reply), now)
            if shared is not None:
                return self._done(shared, "shared")
            return self._fetch(now, reread=True)
        if state == "FETCH":
            entry = _entry(reply)
            if entry is None:
                raise TypeError(f"the driver answered FetchNow with {reply!r}")
            self._known = entry
            self.state = "PUT"
            return Put(entry)
        if state == "PUT":
            assert self._known is not None
            return self._done(self._known, "miss")
        raise RuntimeError(f"the refresh of {self.key} is over (state {state})")

    def _lock(self) -> Acquire:
        self.state = "LOCK"
        return Acquire(self.key)

    def _fetch(self, now: float, *, reread: bool) -> FetchNow:
        """Fetch; after a re-read under the lock, with what the store holds now (C2)."""
        if reread:
            found = begin(self.key, self._known, now, self.policy, force=True)
            assert isinstance(found, Fetch)  # forced: never a copy
            self._step = found
        assert self._step is not None
        self.state = "FETCH"
        return FetchNow(self._step)

    def _newer(self, latest: Entry | None, now: float) -> Entry | None:
        """Merge ``latest`` (the store read again) into what is known; it if it is another attempt
        than the one known and fresh now (another process's fetch: share it), else None."""
        if latest is None:
            return None
        known = self._known
        merged = merge(known, latest)
        self._known = merged
        if known is not None and merged.fetched_at == known.fetched_at:  # the same attempt, not an ordering
            return None
        return merged if isinstance(begin(self.key, merged, now, self.policy), Entry) else None

    def _done(self, entry: Entry, cache: Had) -> Done:
        self.state = "DONE"
        return Done(entry, cache)


def _entry(reply: Reply) -> Entry | None:
    if reply is None or isinstance(reply, Entry):
        return reply
    raise TypeError(f"the driver answered with {reply!r} where an entry (or None) was due")
