"""The high-level clients: "may this agent fetch this URL?", fetching and caching as Google does.

:class:`RobotsClient` (threads) and :class:`AsyncRobotsClient` (asyncio or trio, through anyio)
find the robots.txt that governs a URL (S1-S5), take it from the cache or fetch it
(:mod:`robotrules.fetch`, driving :mod:`robotrules.core.policy`), and answer from what it says
or, when it could not be read, from Google's status rules (F2-F8, C1-C4).

Two cache levels: parsed files live in a bounded in-process LRU (``cache_size`` robots.txt
URLs and ``cache_bytes`` estimated bytes, whichever is reached first); raw bodies and their
metadata live in the store (``MemoryStore`` by default, or ``SQLiteStore`` / ``RedisStore``
shared between processes, C3). A robots.txt is fetched once however many callers ask at the
same moment: callers in one process wait on a per-URL lock, and processes sharing a store wait
on the store's lock and read the entry the holder writes; the holder reads the store once more
after taking the lock, so a copy another process finished meanwhile is used, not fetched again.

Memory: every in-process structure is bounded in bytes. The LRU charges each parsed file an
estimate of what it retains (:func:`_slot_cost`, calibrated with ``tracemalloc``) and evicts
least recently used files past ``cache_bytes``; the per-URL locks exist only while someone holds
or waits for them; the memo of origin -> robots.txt URL is cleared past
:data:`ORIGIN_MEMO_BYTES`.

Time is the policy's (:mod:`robotrules.core.policy`): whether a stored entry is fresh
(:func:`~robotrules.core.policy.begin`), what it means now and until when that holds,
including the F6 flip (:func:`~robotrules.core.policy.standing`), the age of the copy
(:func:`~robotrules.core.policy.age`), and which of two entries holds the newer attempt and the
newer good copy (:func:`~robotrules.core.policy.merge`). The client reads its clock, hands the
time to the policy, and keeps the ``until`` it is given; it never compares an entry's times itself.

The refresh logic is written once, as a generator of typed store and fetch operations
(:meth:`_Client._refresh`: ``Generator[_Op, _Reply, result]``); each client only carries them
out (``_run``, a ``match`` ending in :func:`_never`), with or without ``await``. It starts from
the newer of the store's entry and the in-process one (C2: a good copy held in memory is a good
copy, whatever the store says or fails to say).

A failing store is logged and bypassed: the client goes on with its in-process copies and direct
fetches (never failing a crawl because a cache is down). Two bounds keep a sick store from
slowing the crawl: all store calls of one check, and its waits for another process's fetch,
share ``store_deadline`` seconds (once spent, the check's remaining store calls are skipped and it
fetches by itself), and a circuit breaker stops calling the store
after ``store_failures`` consecutive failures, lets one probe call through every
``store_cooldown`` seconds, and closes when a probe succeeds (``store_state``: "ok", "down",
"probing"). Both read the client's clock.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any, Generic, Literal, NoReturn, TypeVar

from robotrules.cache.base import Store
from robotrules.cache.memory import MemoryStore
from robotrules.core.agents import user_agent_token
from robotrules.core.policy import FETCHABLE_SCHEMES, Entry, Fetch, Policy, age, begin, merge, standing
from robotrules.core.robotstxt import Decision, RobotsTxt, parse
from robotrules.core.urls import Scope
from robotrules.errors import InvalidURL, StoreError, UnsupportedScheme
from robotrules.fetch import DEFAULT_USER_AGENT, AddressPolicy, AsyncFetcher, Fetcher
from robotrules.hosts import robots_scope as _robots_scope
from robotrules.verdicts import sentence

if TYPE_CHECKING:
    import anyio

__all__ = ["AsyncRobotsClient", "CheckResult", "RobotsClient", "RobotsState"]

log = logging.getLogger("robotrules")

UserAgents = str | Sequence[str]
CacheState = Literal["hit", "miss", "shared"]
StoreState = Literal["ok", "down", "probing"]
"""The store's circuit breaker: "ok" (calls go through), "down" (bypassed after repeated
failures, until the cool-down ends), "probing" (the cool-down is over: the next store call is
a probe, and its success brings the store back)."""

_T = TypeVar("_T")
_F = TypeVar("_F")  # the fetcher: Fetcher or AsyncFetcher
_L = TypeVar("_L")  # the per-URL lock: threading.Lock or anyio.Lock

MiB = 2**20

DEFAULT_CACHE_BYTES = 256 * MiB
"""The default budget of the in-process LRU of parsed files, in estimated bytes (``cache_bytes``):
14 maximum-size (512,000-byte) files of the costliest shape (charged 18 MiB each), 30-80 of
rule-heavy ones, about 13,000 typical ones (19 KiB): then ``cache_size`` (10,000) binds first."""

ORIGIN_MEMO_BYTES = 8 * MiB
"""Budget of the memo origin -> robots.txt URL (estimated bytes); past it the memo starts over.
About 40,000 typical origins; an origin longer than :data:`_ORIGIN_MEMO_MAX` is never kept."""

_PARSE_ON_LOOP = 64 * 1024  # bytes: the async client parses larger bodies in a worker thread, off the event loop
_WORKER_THREADS = 8  # the async client's threads for store calls and large parses
_TOKEN_MEMO = 4096  # agents remembered with their product token; past it the memo starts over
_ORIGIN_MEMO_MAX = 1024  # characters: a real origin (253-byte host, port, user info) is shorter
_ORIGIN_MEMO_ENTRY = 160  # bytes per memo entry on top of its two strings: str headers, dict slot

# What a parsed file retains, estimated from its shape without walking every object: see
# _parsed_cost. Calibration (bench/limits_bench.py calibrate, CPython 3.11, pure-Python core):
# tracemalloc's retained bytes of one installed slot (the entry decoded from the store, so its
# body is the slot's own; the parsed file; the state; the LRU link) against the charge, over the
# 1,613 corpus files and 20 maximum-size (512,000-byte) synthetic shapes: one group of 27,000-
# 40,000 literal, wildcard, "$", index.html, non-ASCII, percent-encoded or CR-separated rules;
# 11,000-17,000 groups (distinct agents, one agent merged, "*" merged, both); 19,000-73,000
# user-agent, crawl-delay, sitemap or other lines; blank lines, garbage, one 512,000-byte rule.
# Retained / charged: at most 0.90 on the synthetic shapes (wildcard rules, many groups; median
# 0.77), so the budget bounds the worst files; on the corpus median 0.74, p90 0.82, all files
# together 0.77, at most 1.29 for a few small files whose fixed costs are underestimated. A
# maximum-size file is charged 1-18 MiB; a typical corpus file about 19 KiB (table: bench/README.md).
# The weights are per item of each kind, fitted to those measurements.
_COST_PER_BYTE = 2  # the body (the entry's copy, shared with RobotsTxt.body) and the text of its lines
_COST_PER_LITERAL = 80  # a literal-prefix rule: its string and a packed rank
_COST_PER_RULE = 220  # a catch-all, "$" or wildcard rule: a (rank, pattern[, probe]) tuple
_COST_PER_WRITTEN = 180  # a rule whose value as written differs from its pattern (kept for explanations)
_COST_PER_LINE = 240  # another line (N2) in a group or outside: an Extension tuple and its strings
_COST_PER_NAME = 80  # a user-agent value or a sitemap URL
_COST_PER_GROUP = 450  # a group: its tuple, its ruleset, its entries in the per-token index
_COST_PER_MERGED = 120  # a rule repeated in the merged ruleset of an agent named by several groups (G4)
_COST_PER_SLOT = 2048  # the slot, its RobotsState and Entry, their strings, the LRU link and key


def _parsed_cost(robots: RobotsTxt) -> int:
    """The bytes a parsed file is charged on top of its body (see the calibration above)."""
    literal = rules = written = merged = 0
    lines = len(robots.extensions)
    names = len(robots.sitemaps)
    named: dict[str, list[int]] = {}  # token ("*" for the global groups) -> [groups naming it, their rules]
    for group in robots.groups:
        ruleset = group.ruleset
        own = len(ruleset.floor) + len(ruleset.exact) + len(ruleset.wild)
        literal += len(ruleset.prefixes)
        rules += own
        written += len(ruleset.written) if ruleset.written is not None else 0
        lines += len(group.extensions)
        names += len(group.agents)
        own += len(ruleset.prefixes)
        for token in (*group.tokens, "*") if group.is_global else group.tokens:
            seen = named.get(token)
            if seen is None:
                named[token] = [1, own]
            else:
                seen[0] += 1
                seen[1] += own
    for groups, total in named.values():
        if groups > 1:
            merged += total
    return (_COST_PER_LITERAL * literal + _COST_PER_RULE * rules + _COST_PER_WRITTEN * written
            + _COST_PER_LINE * lines + _COST_PER_NAME * names + _COST_PER_GROUP * len(robots.groups)
            + _COST_PER_MERGED * merged)


def _slot_cost(entry: Entry, robots: RobotsTxt | None, parsed: int) -> int:
    """The bytes an in-process slot is charged: its entry, and ``parsed`` (:func:`_parsed_cost`) with ``robots``."""
    cost = _COST_PER_SLOT + 2 * len(entry.url) + 2 * len(entry.reason) + len(entry.final_url)
    cost += len(entry.body) if robots is None else _COST_PER_BYTE * max(len(entry.body), len(robots.body)) + parsed
    return cost


# -- the refresh protocol: what the refresh generator yields, and what each is answered ---------

@dataclass(frozen=True, slots=True)
class _Get:
    """Read the store's entry for ``key``. Reply: the :class:`Entry`, or None (none, or the store failed or was skipped)."""

    key: str


@dataclass(frozen=True, slots=True)
class _Acquire:
    """Take the store's fetch lock of ``key``. Reply: the token (``""`` when the store failed or
    was skipped: granted), or None while another holds it. The driver releases it when the flow ends."""

    key: str


@dataclass(frozen=True, slots=True)
class _Sleep:
    """Wait ``seconds`` (for another process's fetch). Reply: None."""

    seconds: float


@dataclass(frozen=True, slots=True)
class _Fetch:
    """Carry out the attempt the policy began (F1-F8). Reply: the :class:`Entry` it ends with."""

    step: Fetch


@dataclass(frozen=True, slots=True)
class _Put:
    """Write ``entry`` to the store (which merges it with what it holds, C2). Reply: None."""

    entry: Entry


_Op = _Get | _Acquire | _Sleep | _Fetch | _Put
_Reply = Entry | str | None
_Flow = Generator[_Op, _Reply, _T]
_Refreshed = tuple[Entry, CacheState]


def _never(op: NoReturn) -> NoReturn:
    """``typing.assert_never`` (Python 3.11+) for 3.10: mypy proves every operation handled."""
    raise AssertionError(f"unhandled refresh operation {op!r}")


def _bad_reply(op: _Op, reply: _Reply) -> TypeError:
    return TypeError(f"driver answered {op!r} with {reply!r}")


# One helper per operation with a reply: yield it and narrow the reply to its type (a driver
# that answers with the wrong type fails here, loudly). Used as ``x = yield from _get(key)``.

def _get(key: str) -> _Flow[Entry | None]:
    op = _Get(key)
    reply = yield op
    if reply is None or isinstance(reply, Entry):
        return reply
    raise _bad_reply(op, reply)


def _acquire(key: str) -> _Flow[str | None]:
    op = _Acquire(key)
    reply = yield op
    if reply is None or isinstance(reply, str):
        return reply
    raise _bad_reply(op, reply)


def _fetch(step: Fetch) -> _Flow[Entry]:
    op = _Fetch(step)
    reply = yield op
    if isinstance(reply, Entry):
        return reply
    raise _bad_reply(op, reply)


@dataclass(frozen=True, slots=True)
class RobotsState:
    """What governs a robots.txt URL now, and why (DESIGN 5).

    ``kind``: "rules" (``robots`` decides), "allow" or "disallow" (everything, F4-F6).
    ``status`` is the HTTP status behind it (0: network failure); ``age`` the seconds since the
    deciding copy was fetched; ``cache`` "hit" (from cache), "miss" (fetched for this call) or
    "shared" (fetched meanwhile by another caller or process); ``failures`` the current
    streak of failed refreshes (C2). ``entry`` is the stored record. ``store`` is the client's
    store breaker when the answer was given (:data:`StoreState`: "ok", "down", "probing").
    """

    robots_url: str
    kind: Literal["rules", "allow", "disallow"]
    status: int
    reason: str
    age: float
    cache: CacheState
    failures: int
    robots: RobotsTxt | None = field(repr=False)
    entry: Entry = field(repr=False)
    store: StoreState = "ok"

    def __str__(self) -> str:
        """One line for people: the robots.txt URL, what it means, why, and the cache state."""
        return f"{self.robots_url}: {self.describe()}"

    def describe(self) -> str:
        """What governs, why, where the redirects ended, and the copy's cache state and age."""
        what = {"rules": "its rules decide", "allow": "everything allowed", "disallow": "everything disallowed"}
        parts = [f"{what[self.kind]} ({self.reason})"]
        final = self.entry.final_url
        if self.entry.redirects and final and final != self.robots_url:
            hops = self.entry.redirects
            parts.append(f"after {hops} redirect{'s' if hops != 1 else ''} to {final}")
        parts.append(f"cache {self.cache}, age {_age(self.age)}")
        if self.failures:
            parts.append(f"{self.failures} failed refresh{'es' if self.failures != 1 else ''} in a row")
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The answer for one URL and agent: ``allowed``, the deciding ``line`` (0: none) and why.

    ``decision`` is the matcher's :class:`~robotrules.core.robotstxt.Decision` when rules decided,
    None for a full allow or disallow; ``state`` says which robots.txt, fetched when, and how.
    """

    allowed: bool
    line: int
    decision: Decision | None
    state: RobotsState
    agent: str = ""
    """The product token the answer was matched on (RFC 9309 2.2.1), taken from what the caller
    passed: a token, a versioned name or a whole User-Agent header (several joined by ", ")."""

    @property
    def text(self) -> str:
        """The deciding line as written in the file ("" when no rule decided)."""
        robots = self.state.robots
        return robots.line_text(self.line) if robots is not None and self.line else ""

    def explain(self) -> str:
        """One line for people: verdict, deciding line as written, and the robots.txt's state."""
        d, s = self.decision, self.state
        if d is None:
            head = sentence(self.allowed, self.agent, 0, "", None, "", s.robots_url, s.kind)
        else:
            head = sentence(self.allowed, self.agent, self.line, self.text, d.agent, d.path, s.robots_url)
        return f"{head} [{s}]"


def _age(seconds: float) -> str:
    """An age for people: 42s, 5m, 3h, 2d."""
    if seconds < 120:
        return f"{seconds:.0f}s"
    if seconds < 7200:
        return f"{seconds / 60:.0f}m"
    if seconds < 172800:
        return f"{seconds / 3600:.0f}h"
    return f"{seconds / 86400:.0f}d"


class _Slot:
    """An in-process cache line: the state, and ``until``: it holds while ``now < until``.

    ``until`` is the policy's :attr:`~robotrules.core.policy.Standing.until` (the entry's expiry
    or the F6 flip), kept as given: the client compares the clock with it and nothing else.
    ``cost`` is what the slot is charged in the LRU (:func:`_slot_cost`), ``parsed`` the share
    of it for the parsed file (kept, so that an unchanged body reuses both).
    """

    __slots__ = ("cost", "parsed", "seq", "state", "until")

    def __init__(self, until: float, state: RobotsState, seq: int, cost: int = 0, parsed: int = 0) -> None:
        self.until = until
        self.state = state
        self.seq = seq  # install order: a forced refresh shares only a load newer than its request
        self.cost = cost
        self.parsed = parsed


class _Budget:
    """The store time one check may still spend (seconds of the client's clock)."""

    __slots__ = ("left",)

    def __init__(self, left: float) -> None:
        self.left = left


_Admit = Literal["call", "probe"]
_GRANTED: str | None = ""  # what a failed or skipped acquire answers: go ahead, without the store's lock


class _Client(Generic[_F, _L]):
    """What both clients share: configuration, URL -> robots.txt URL, the parsed-file LRU, the
    store breaker, the refresh logic.

    ``_F`` is the fetcher and ``_L`` the per-URL lock of the subclass (blocking or async).
    """

    def __init__(
        self,
        store: Store | None = None,
        *,
        clock: Callable[[], float] | None = None,
        http_client: Any = None,
        user_agent: str = DEFAULT_USER_AGENT,
        policy: Policy | None = None,
        mode: str = "google",
        cache_size: int = 10_000,
        cache_bytes: int = DEFAULT_CACHE_BYTES,
        store_deadline: float = 1.0,
        store_failures: int = 3,
        store_cooldown: float = 30.0,
        addresses: AddressPolicy | None = None,
        fetcher: _F | None = None,
    ) -> None:
        if not store_deadline > 0:
            raise ValueError("store_deadline must be > 0 (seconds of store calls per check)")
        if store_failures < 1:
            raise ValueError("store_failures must be >= 1")
        if not store_cooldown >= 0:
            raise ValueError("store_cooldown must be >= 0")
        self.store: Store = store if store is not None else MemoryStore()
        self._owns_store = store is None
        self.clock: Callable[[], float] = clock or time.time
        self.policy = policy or Policy()
        self.user_agent = user_agent
        self.agent = user_agent_token(user_agent)
        """The product token matched when a call names no agent: the token of ``user_agent``."""
        self._tokens: dict[str, str] = {}
        self.mode = mode
        self.cache_size = max(0, cache_size)
        self.cache_bytes = max(0, cache_bytes)
        self.store_deadline = store_deadline
        self.store_failures = store_failures
        self.store_cooldown = store_cooldown
        parse(b"", mode=mode)  # a bad mode fails here, not at the first check
        self._slots: OrderedDict[str, _Slot] = OrderedDict()
        self._bytes = 0  # the cost of the slots in _slots
        self._lru = threading.Lock()  # installs and evictions (lookups go without it)
        self._origins: dict[str, str] = {}
        self._origins_bytes = 0
        self._lock_wait = self.policy.fetch_timeout + 5.0
        self._seq = 0
        self._breaker = threading.Lock()
        self._streak = 0  # consecutive failed store calls
        self._down_until: float | None = None  # None: the breaker is closed
        self._probing = False  # a probe call is under way
        if fetcher is not None and (http_client is not None or addresses is not None):
            raise ValueError("give either fetcher or http_client/addresses: a fetcher makes its own connections")
        self.addresses = addresses
        self.fetcher: _F = fetcher if fetcher is not None else self._make_fetcher(http_client)
        self._flights: _KeyLocks[_L] = _KeyLocks(self._lock_factory())

    def _make_fetcher(self, http_client: Any) -> _F:  # Any: httpx is an optional extra
        raise NotImplementedError

    def _lock_factory(self) -> Callable[[], _L]:
        raise NotImplementedError

    # -- URL to robots.txt URL --------------------------------------------------------------

    def robots_url(self, url: str) -> str:
        """S1-S5: the robots.txt URL governing ``url``; :class:`InvalidURL` or :class:`UnsupportedScheme`."""
        return self._key(url)[0]

    def _key(self, url: str) -> tuple[str, Scope | None]:
        """:meth:`robots_url`, with the origin when it was worked out now (None: from the memo)."""
        if not isinstance(url, str):
            raise TypeError(f"url must be str, not {type(url).__name__}")
        start = url.find("://")
        end = url.find("/", start + 3) if start > 0 else -1
        origin = url if end < 0 else url[:end]
        known = self._origins.get(origin)
        if known is not None:
            return known, None
        try:
            scope = _robots_scope(url)
        except ValueError as exc:
            raise InvalidURL(str(exc)) from None
        if scope.scheme not in FETCHABLE_SCHEMES:  # robots_scope() lower-cases the scheme
            raise UnsupportedScheme(f"cannot fetch a robots.txt for {url!r}: only http, https and ftp have one")
        found = scope.robots_url()
        if (start > 0 and len(origin) <= _ORIGIN_MEMO_MAX
                and "?" not in origin and "#" not in origin and "\\" not in origin):
            cost = len(origin) + len(found) + _ORIGIN_MEMO_ENTRY
            if self._origins_bytes + cost > ORIGIN_MEMO_BYTES:
                self._origins.clear()
                self._origins_bytes = 0
            self._origins[origin] = found
            self._origins_bytes += cost
        return found, scope

    def screen(self, url: str) -> str:
        """:meth:`robots_url`, and :class:`~robotrules.errors.BlockedAddress` at once when its host is
        an address literal the address policy refuses (``http://10.0.0.1/``): no store access, no
        lookup, no fetch, nothing cached. A name passes (it is judged when it is resolved).

        Every load does this itself; a caller with many URLs (the service) screens them all
        before it starts any work.
        """
        key, scope = self._key(url)
        addresses: AddressPolicy | None = getattr(self.fetcher, "addresses", None)
        if addresses is not None:
            if scope is None:
                self._screen(key)
            else:
                addresses.screen(scope)
        return key

    def _screen(self, key: str) -> None:
        """Refuse ``key`` (a robots.txt URL) when its host is a refused address literal (see :meth:`screen`)."""
        addresses: AddressPolicy | None = getattr(self.fetcher, "addresses", None)
        if addresses is None:
            return
        start = key.find("://") + 3
        end = key.find("/", start)
        first = key[start:end if end >= 0 else len(key)].rpartition("@")[2][:1]
        if first == "[" or first.isdigit():  # a name starting with a letter is never a literal
            try:
                scope = _robots_scope(key)
            except ValueError:
                return  # not a URL to fetch: the load reports that
            addresses.screen(scope)

    def _exact(self, robots_url: str) -> str:
        """``robots_url`` as a cache key: validated as :meth:`robots_url` validates, without its fragment."""
        self.robots_url(robots_url)  # absolute, with a host, a scheme that can be fetched
        return robots_url.partition("#")[0]

    # -- the in-process cache ---------------------------------------------------------------

    @property
    def cached_bytes(self) -> int:
        """The estimated bytes the in-process LRU holds now (at most ``cache_bytes``)."""
        return self._bytes

    def _hit(self, key: str, now: float) -> _Slot | None:
        """The slot of ``key`` while its standing holds at ``now`` (the policy's ``until``), marked as used."""
        slot = self._slots.get(key)
        if slot is None or now >= slot.until:
            return None
        try:  # noqa: SIM105 - on every cached check: contextlib.suppress would cost a context manager each time
            self._slots.move_to_end(key)
        except KeyError:  # evicted by another thread meanwhile
            pass
        return slot

    def _local(self, key: str) -> Entry | None:
        """The in-process entry of ``key``, fresh or not: a good copy it holds counts (C2)."""
        slot = self._slots.get(key)
        return slot.state.entry if slot is not None else None

    def _to_parse(self, entry: Entry) -> bytes | None:
        """The body :meth:`_install` will parse for ``entry`` now: None when its rules do not
        decide, or when the slot already holds that body parsed."""
        stand = standing(entry, self.clock(), self.policy)
        if stand.kind != "rules":
            return None
        old = self._slots.get(entry.url)
        if old is not None and old.state.robots is not None and old.state.entry.body == stand.body:
            return None
        return stand.body

    def _install(self, entry: Entry, cache: CacheState, ready: tuple[bytes, RobotsTxt] | None = None) -> _Slot:
        """Parse (or reuse the parsed copy of) ``entry`` and keep it while it holds; ``ready``: a
        body and its parsed file, parsed already (off the event loop, by the async client)."""
        now = self.clock()
        stand = standing(entry, now, self.policy)
        robots = None
        parsed = 0
        if stand.kind == "rules":
            old = self._slots.get(entry.url)
            if old is not None and old.state.robots is not None and old.state.entry.body == stand.body:
                robots, parsed = old.state.robots, old.parsed  # unchanged body: keep the parsed copy
            else:
                robots = ready[1] if ready is not None and ready[0] == stand.body else parse(stand.body, mode=self.mode)
                parsed = _parsed_cost(robots)
        state = RobotsState(entry.url, stand.kind, stand.status, stand.reason, stand.age, cache, entry.failures,
                            robots, entry, self.store_state)
        self._seq += 1
        # until: the expiry or the F6 flip, the policy's number
        slot = _Slot(stand.until, state, self._seq, _slot_cost(entry, robots, parsed), parsed)
        self._keep(entry.url, slot)
        return slot

    def _keep(self, key: str, slot: _Slot) -> None:
        """Put ``slot`` in the LRU, then evict least recently used slots to ``cache_size`` and ``cache_bytes``.

        A slot charged more than ``cache_bytes`` on its own is not kept (it answers this call only).
        """
        with self._lru:
            old = self._slots.pop(key, None)
            if old is not None:
                self._bytes -= old.cost
            if not self.cache_size or slot.cost > self.cache_bytes:
                return
            self._slots[key] = slot
            self._bytes += slot.cost
            while len(self._slots) > self.cache_size or self._bytes > self.cache_bytes:
                _, gone = self._slots.popitem(last=False)
                self._bytes -= gone.cost

    def _forget(self, key: str) -> None:
        with self._lru:
            old = self._slots.pop(key, None)
            if old is not None:
                self._bytes -= old.cost

    def _shared(self, key: str, force: bool, seq: int) -> _Slot | None:
        """A slot another caller loaded while this one waited for the key's lock, if any."""
        slot = self._slots.get(key)
        if slot is None or self.clock() >= slot.until or (force and slot.seq <= seq):
            return None
        return _Slot(slot.until, replace(slot.state, cache="shared", store=self.store_state), slot.seq)

    # -- the store: a deadline per check, a circuit breaker per client ------------------------

    @property
    def store_state(self) -> StoreState:
        """The store's circuit breaker: "ok", "down" (bypassed until the cool-down ends) or "probing"."""
        down_until = self._down_until
        if down_until is None:
            return "ok"
        return "probing" if self._probing or self.clock() >= down_until else "down"

    def _admit(self, budget: _Budget) -> _Admit | None:
        """Whether the next store call of a check goes to the store: "call", "probe" (the one call
        let through after the cool-down), or None: skipped (the check's deadline is spent, or the
        breaker is open)."""
        if budget.left <= 0:
            return None
        if self._down_until is None:  # the common case, without the lock
            return "call"
        return self._admit_down()

    def _admit_down(self) -> _Admit | None:
        """:meth:`_admit` while the breaker is (or was just) open: the probe, once the cool-down is over."""
        with self._breaker:
            down_until = self._down_until
            if down_until is None:
                return "call"
            if self._probing or self.clock() < down_until:
                return None
            self._probing = True
            return "probe"

    def _attempt(self, budget: _Budget, name: str, call: Callable[[], _T], fallback: _T, admit: _Admit) -> _T:
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

    def _settle(self, budget: _Budget, spent: float, failed: bool, probe: bool) -> None:
        """Charge ``spent`` seconds to the check; count the call for the breaker.

        A call that alone takes the whole ``store_deadline`` or longer counts as a failure (a
        stall): a store that answers, but that slowly, is bypassed like one that fails. Many
        quick calls that add up to the deadline (polling while another process fetches) end
        the check's store calls but are no failure.
        """
        spent = max(0.0, spent)  # a clock that went backwards charges nothing
        budget.left -= spent
        failed = failed or spent >= self.store_deadline
        with self._breaker:
            if probe:
                self._probing = False
                if failed:
                    self._down_until = self.clock() + self.store_cooldown
                    log.info("robotrules: the store still fails; bypassed for another %gs", self.store_cooldown)
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
                if self._streak >= self.store_failures:
                    self._down_until = self.clock() + self.store_cooldown
                    log.warning("robotrules: the store failed %d times in a row; bypassed for %gs, then probed",
                                self._streak, self.store_cooldown)

    # -- answers ------------------------------------------------------------------------------

    def _token(self, agent: str) -> str:
        """The product token matched for ``agent`` (a token, versioned name or header), memoised."""
        token = self._tokens.get(agent)
        if token is None:
            if not isinstance(agent, str):
                raise TypeError(f"user_agent must be str or a sequence of str, not {type(agent).__name__}")
            token = user_agent_token(agent)
            if len(self._tokens) >= _TOKEN_MEMO or len(agent) > _ORIGIN_MEMO_MAX:
                self._tokens.clear()
            self._tokens[agent] = token
        return token

    def _tokens_of(self, user_agent: UserAgents | None) -> str | tuple[str, ...]:
        """What the parsed file is asked with: the product token(s) of ``user_agent``, or of the
        client's own ``user_agent`` when None (surfaces for people match on the token; the core
        compares exactly what it is given, as the reference does)."""
        if user_agent is None:
            return self.agent
        if isinstance(user_agent, str):
            return self._token(user_agent)
        return tuple(self._token(a) for a in user_agent)

    def _allowed(self, state: RobotsState, url: str, user_agent: UserAgents | None) -> bool:
        if state.robots is not None:
            return state.robots.allowed(url, self._tokens_of(user_agent))
        return state.kind == "allow"

    def _state(self, slot: _Slot, hit: bool) -> RobotsState:
        """The slot's state as of now: a hit reports its cache state, the copy's current age (the
        policy's) and the store breaker's state."""
        state = slot.state
        if not hit:
            return state
        return replace(state, cache="hit", age=age(state.entry, self.clock()), store=self.store_state)

    def cached(self, url: str) -> RobotsState | None:
        """The state of the robots.txt governing ``url`` when this process holds a copy that still
        holds now (as :meth:`robots` would answer it, ``cache="hit"``), else None: no store
        access, no fetch, never a wait. For callers that answer what is cached at once and
        queue the rest (the service)."""
        slot = self._hit(self.robots_url(url), self.clock())
        return None if slot is None else self._state(slot, hit=True)

    def decide(self, state: RobotsState, url: str, user_agent: UserAgents | None = None) -> CheckResult:
        """The answer for ``url`` and ``user_agent`` under ``state`` (from :meth:`robots`,
        :meth:`cached` or :meth:`refresh`), as :meth:`check` gives it, without looking anything up.
        ``url`` must be one ``state`` governs."""
        tokens = self._tokens_of(user_agent)
        shown = tokens if isinstance(tokens, str) else ", ".join(tokens)
        if state.robots is not None:
            decision = state.robots.check(url, tokens)
            return CheckResult(decision.allowed, decision.line, decision, state, shown)
        return CheckResult(state.kind == "allow", 0, None, state, shown)

    def _check(self, slot: _Slot, url: str, user_agent: UserAgents | None, hit: bool) -> CheckResult:
        return self.decide(self._state(slot, hit), url, user_agent)

    # -- the refresh, written once ------------------------------------------------------------

    def _refresh(self, key: str, force: bool, local: Entry | None) -> _Flow[_Refreshed]:
        """Store hit, or wait for another process's fetch, or fetch under the store lock (C1-C3).

        It starts from what is known: the store's entry merged with ``local``, the in-process
        one (:func:`merge`: the newer attempt, the newer good copy), so a good copy held here
        survives a store that fails or has lost the key (C2). Whether that will do is the
        policy's call (:func:`begin`: fresh, unless ``force``); else it takes the store lock and
        reads the store once more: an entry another process wrote meanwhile (between the first
        read and the lock) is used if fresh, not fetched again (single flight across processes).
        Yields the operations above (:class:`_Get`, :class:`_Acquire`, :class:`_Sleep`,
        :class:`_Fetch`, :class:`_Put`); the driver releases a lock it acquired when the flow
        ends, however it ends.
        """
        stored = yield from _get(key)
        seen = local if stored is None else merge(local, stored)
        step = begin(key, seen, self.clock(), self.policy, force=force)
        if isinstance(step, Entry):
            return step, "hit"
        waited, pause = 0.0, 0.02
        while True:
            token = yield from _acquire(key)
            if token is not None:
                break
            if waited >= self._lock_wait:  # the holder died or hangs; its lock will expire
                log.warning("robotrules: gave up waiting for another fetch of %s", key)
                break
            yield _Sleep(pause)
            waited += pause
            pause = min(pause * 2, 0.25)
            seen, share = self._newer(key, seen, (yield from _get(key)))
            if share is not None:
                return share, "shared"
        if token != "":  # the lock is ours, or its holder is gone: another process may have just written
            seen, share = self._newer(key, seen, (yield from _get(key)))
            if share is not None:
                return share, "shared"
            step = begin(key, seen, self.clock(), self.policy, force=True)  # what the store holds now goes along (C2)
            if isinstance(step, Entry):  # not when forced; keeps the type checker exhaustive
                return step, "hit"
        entry = yield from _fetch(step)
        yield _Put(entry)
        return entry, "miss"

    def _newer(self, key: str, seen: Entry | None, latest: Entry | None) -> tuple[Entry | None, Entry | None]:
        """``seen`` merged with ``latest`` (the store read again); and that again if it is another
        attempt than ``seen`` which the policy finds fresh now (another process's fetch: share
        it), else None."""
        if latest is None:
            return seen, None
        merged = merge(seen, latest)
        if seen is not None and merged.fetched_at == seen.fetched_at:  # the same attempt (not an ordering)
            return merged, None
        return merged, merged if isinstance(begin(key, merged, self.clock(), self.policy), Entry) else None


class _KeyLocks(Generic[_L]):
    """One lock per key while anyone holds or waits for it (in-process single flight); a key's
    lock is dropped when its last user leaves, so the table holds only keys being loaded."""

    def __init__(self, factory: Callable[[], _L]) -> None:
        self._factory = factory
        self._locks: dict[str, _L] = {}
        self._users: dict[str, int] = {}  # key -> callers holding or waiting for its lock
        self._guard = threading.Lock()

    def __len__(self) -> int:
        """The number of keys with a lock now (loads under way or waited for)."""
        return len(self._locks)

    def enter(self, key: str) -> _L:
        with self._guard:
            lock = self._locks.get(key)
            if lock is None:
                lock = self._locks[key] = self._factory()
            self._users[key] = self._users.get(key, 0) + 1
            return lock

    def leave(self, key: str) -> None:
        with self._guard:
            users = self._users[key] - 1
            if users:
                self._users[key] = users
            else:
                del self._users[key], self._locks[key]


class RobotsClient(_Client[Fetcher, threading.Lock]):
    """Thread-safe, blocking client. ``RobotsClient(store=None, *, clock=None, http_client=None, user_agent=..., policy=None)``.

    ``store`` keeps raw entries (default: a new :class:`~robotrules.MemoryStore`); ``clock``
    returns seconds since the epoch (default ``time.time``); ``http_client`` an
    ``httpx.Client`` to fetch with (not closed by :meth:`close`); ``user_agent`` the
    User-Agent of robots.txt requests; ``policy`` the :class:`~robotrules.core.policy.Policy`.
    Also: ``mode`` for parsing ("google"); ``cache_size`` (10,000 files) and ``cache_bytes``
    (256 MiB, estimated) bound the in-process LRU of parsed files (:attr:`cached_bytes` is
    what it holds); ``store_deadline`` (1.0 s) is the store time one check may spend, summed
    over its store calls (once spent, its other store calls are skipped; a call under way ends
    by the store's own timeout); after ``store_failures`` (3) consecutive failed store calls
    the store is bypassed for ``store_cooldown`` seconds (30, by ``clock``), then one probe
    call decides whether it is back (:attr:`store_state`). ``addresses``: an
    :class:`~robotrules.fetch.AddressPolicy` for the fetcher (default: the one
    ``Policy(public_addresses_only=True)`` asks for; subclass it to permit an internal network).
    ``user_agent`` is also the agent matched when a call names none (its product token, :attr:`agent`).
    ``fetcher``: a :class:`~robotrules.fetch.Fetcher` (an ``AsyncFetcher`` for the async client)
    whose ``send`` makes the requests another way (a crawling framework's own downloader); the
    policy, the cache and single flight stay the client's.
    """

    def _make_fetcher(self, http_client: Any) -> Fetcher:
        return Fetcher(http_client, user_agent=self.user_agent, policy=self.policy, addresses=self.addresses)

    def _lock_factory(self) -> Callable[[], threading.Lock]:
        return threading.Lock

    def allowed(self, url: str, user_agent: UserAgents | None = None) -> bool:
        """Whether ``user_agent`` may fetch ``url`` (absolute, percent-encoded as on the wire).

        ``user_agent``: a product token, a versioned name or a whole User-Agent header, matched
        on its product token; several for G5; None: the client's own ``user_agent``.
        """
        key = self.robots_url(url)
        slot = self._slots.get(key)  # the hot path: _hit() inlined
        if slot is None or self.clock() >= slot.until:
            slot = self._load(key, False)
        else:
            try:  # noqa: SIM105 - the hot path: contextlib.suppress would cost a context manager per decision
                self._slots.move_to_end(key)  # LRU
            except KeyError:  # evicted by another thread meanwhile
                pass
        robots = slot.state.robots
        if robots is not None:
            if user_agent is None:
                return robots.allowed(url, self.agent)
            if type(user_agent) is str:
                token = self._tokens.get(user_agent)  # the hot path: _token() inlined
                return robots.allowed(url, token if token is not None else self._token(user_agent))
            return robots.allowed(url, self._tokens_of(user_agent))
        return slot.state.kind == "allow"

    def check(self, url: str, user_agent: UserAgents | None = None) -> CheckResult:
        """:meth:`allowed` with why: deciding line, status, cache state and age."""
        key = self.robots_url(url)
        slot = self._hit(key, self.clock())
        return self._check(slot or self._load(key, False), url, user_agent, hit=slot is not None)

    def robots(self, url: str) -> RobotsState:
        """The state of the robots.txt governing ``url`` (fetched if needed)."""
        key = self.robots_url(url)
        slot = self._hit(key, self.clock())
        return self._state(slot or self._load(key, False), hit=slot is not None)

    def crawl_delay(self, url: str, user_agent: UserAgents | None = None) -> float | None:
        """N2: the crawl-delay for ``user_agent`` (as :meth:`allowed` takes it) on ``url``'s site; None when not given."""
        robots = self.robots(url).robots
        return robots.crawl_delay(self._tokens_of(user_agent)) if robots is not None else None

    def sitemaps(self, url: str) -> list[str]:
        """N1: the sitemap URLs listed in the robots.txt governing ``url``."""
        robots = self.robots(url).robots
        return robots.sitemaps if robots is not None else []

    def refresh(self, url: str) -> RobotsState:
        """Fetch the robots.txt governing ``url`` now, whatever the cache holds (C2 still applies)."""
        return self._load(self.robots_url(url), True).state

    def robots_at(self, robots_url: str, *, force: bool = False) -> RobotsState:
        """The state of a robots.txt at exactly ``robots_url``, which need not be ``/robots.txt``
        (``urllib.robotparser`` reads any URL it is given): fetched and cached as any other."""
        key = self._exact(robots_url)
        slot = None if force else self._hit(key, self.clock())
        return self._state(slot or self._load(key, force), hit=slot is not None)

    def invalidate(self, url: str) -> None:
        """Forget the cached robots.txt governing ``url``, here and in the store."""
        key = self.robots_url(url)
        self._forget(key)
        self._call(_Budget(self.store_deadline), "delete", partial(self.store.delete, key), None)

    def close(self) -> None:
        """Close what this client created: its HTTP client and store, not ones passed in."""
        self.fetcher.close()
        if self._owns_store:
            self.store.close()

    def __enter__(self) -> RobotsClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- driver ----------------------------------------------------------------------------------

    def _load(self, key: str, force: bool) -> _Slot:
        self._screen(key)
        seq = self._seq
        lock = self._flights.enter(key)
        try:
            with lock:
                slot = self._shared(key, force, seq)
                if slot is not None:
                    return slot
                entry, cache = self._run(self._refresh(key, force, self._local(key)))
                return self._install(entry, cache)
        finally:
            self._flights.leave(key)

    def _call(self, budget: _Budget, name: str, call: Callable[[], _T], fallback: _T) -> _T:
        """One store call within the check's ``budget`` and the breaker, or ``fallback`` (skipped or failed)."""
        admit = self._admit(budget)
        if admit is None:
            return fallback
        return self._attempt(budget, name, call, fallback, admit)

    def _run(self, flow: _Flow[_Refreshed]) -> _Refreshed:
        """Carry out the flow's operations, answering each; release the store lock it took, however it ends.

        The store calls of one flow (one check) share one :class:`_Budget` of ``store_deadline`` seconds.
        """
        budget = _Budget(self.store_deadline)
        store = self.store
        held: tuple[str, str] | None = None
        reply: _Reply = None
        try:
            while True:
                try:
                    op = flow.send(reply)
                except StopIteration as done:
                    refreshed: _Refreshed = done.value
                    return refreshed
                match op:
                    case _Get(key):
                        reply = self._call(budget, "get", partial(store.get, key), None)
                    case _Acquire(key):
                        token = self._call(budget, "acquire", partial(store.acquire, key, self._lock_wait), _GRANTED)
                        if token:
                            held = (key, token)
                        reply = token
                    case _Sleep(seconds):  # waiting for another process's fetch is store time too
                        time.sleep(seconds)
                        budget.left -= seconds
                        reply = None
                    case _Fetch(step):
                        reply = self.fetcher.run(step, self.clock)
                    case _Put(entry):
                        self._call(budget, "put", partial(store.put, entry), None)
                        reply = None
                    case _:
                        _never(op)
        finally:
            if held is not None:  # skipped when the deadline is spent: the lock then expires on its own
                self._call(budget, "release", partial(store.release, *held), None)


class AsyncRobotsClient(_Client[AsyncFetcher, "anyio.Lock"]):
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
        slot = self._hit(key, self.clock()) or await self._load(key, False)
        return self._allowed(slot.state, url, user_agent)

    async def check(self, url: str, user_agent: UserAgents | None = None) -> CheckResult:
        """:meth:`allowed` with why: deciding line, status, cache state and age."""
        key = self.robots_url(url)
        slot = self._hit(key, self.clock())
        return self._check(slot or await self._load(key, False), url, user_agent, hit=slot is not None)

    async def robots(self, url: str) -> RobotsState:
        """The state of the robots.txt governing ``url`` (fetched if needed)."""
        key = self.robots_url(url)
        slot = self._hit(key, self.clock())
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
        slot = None if force else self._hit(key, self.clock())
        return self._state(slot or await self._load(key, force), hit=slot is not None)

    async def invalidate(self, url: str) -> None:
        """Forget the cached robots.txt governing ``url``, here and in the store."""
        key = self.robots_url(url)
        self._forget(key)
        await self._call(_Budget(self.store_deadline), "delete", partial(self.store.delete, key), None)

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

    async def _load(self, key: str, force: bool) -> _Slot:
        self._screen(key)
        seq = self._seq
        lock = self._flights.enter(key)
        try:
            async with lock:
                slot = self._shared(key, force, seq)
                if slot is not None:
                    return slot
                entry, cache = await self._run(self._refresh(key, force, self._local(key)))
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

    async def _call(self, budget: _Budget, name: str, call: Callable[[], _T], fallback: _T) -> _T:
        """As :meth:`RobotsClient._call`; the call runs in a worker thread when the store blocks."""
        admit = self._admit(budget)
        if admit is None:
            return fallback
        attempt = partial(self._attempt, budget, name, call, fallback, admit)
        if not getattr(self.store, "blocking", True):
            return attempt()
        import anyio.to_thread

        return await anyio.to_thread.run_sync(attempt, limiter=self._workers())

    async def _run(self, flow: _Flow[_Refreshed]) -> _Refreshed:
        """As :meth:`RobotsClient._run`, awaiting; the lock release is shielded from cancellation."""
        import anyio

        budget = _Budget(self.store_deadline)
        store = self.store
        held: tuple[str, str] | None = None
        reply: _Reply = None
        try:
            while True:
                try:
                    op = flow.send(reply)
                except StopIteration as done:
                    refreshed: _Refreshed = done.value
                    return refreshed
                match op:
                    case _Get(key):
                        reply = await self._call(budget, "get", partial(store.get, key), None)
                    case _Acquire(key):
                        token = await self._call(budget, "acquire", partial(store.acquire, key, self._lock_wait), _GRANTED)
                        if token:
                            held = (key, token)
                        reply = token
                    case _Sleep(seconds):  # waiting for another process's fetch is store time too
                        await anyio.sleep(seconds)
                        budget.left -= seconds
                        reply = None
                    case _Fetch(step):
                        reply = await self.fetcher.run(step, self.clock)
                    case _Put(entry):
                        await self._call(budget, "put", partial(store.put, entry), None)
                        reply = None
                    case _:
                        _never(op)
        finally:
            if held is not None:
                with anyio.CancelScope(shield=True):
                    await self._call(budget, "release", partial(store.release, *held), None)
