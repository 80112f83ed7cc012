"""The high-level clients: "may this agent fetch this URL?", fetching and caching as Google does.

:class:`RobotsClient` (threads) and :class:`AsyncRobotsClient` (asyncio or trio, through anyio)
find the robots.txt that governs a URL (S1-S5), take it from the cache or fetch it
(:mod:`robotrules.fetch`, driving :mod:`robotrules.core.policy`), and answer from what it says
or, when it could not be read, from Google's status rules (F2-F8, C1-C4). Their answers are
:class:`~robotrules.answers.RobotsState` and :class:`~robotrules.answers.CheckResult`.

Two cache levels: parsed files live in a bounded in-process LRU (``cache_size`` robots.txt
URLs and ``cache_bytes`` estimated bytes, whichever is reached first); raw bodies and their
metadata live in the store (``MemoryStore`` by default, or ``SQLiteStore`` / ``RedisStore``
shared between processes, C3). A robots.txt is fetched once however many callers ask at the
same moment: callers in one process wait on a per-URL lock, and processes sharing a store wait
on the store's lock and read the entry the holder writes; the holder reads the store once more
after taking the lock, so a copy another process finished meanwhile is used, not fetched again.
That refresh is a pure machine in the core (:class:`robotrules.core.refresh.Refresh`, its
states drawn in its docstring); each client only carries out its operations, with or without
``await``. It starts from the newer of the store's entry and the in-process one (C2: a good
copy held in memory is a good copy, whatever the store says or fails to say).

Memory: every in-process structure is bounded in bytes. The LRU charges each parsed file an
estimate of what it retains (:mod:`._cost`, calibrated with ``tracemalloc``) and evicts least
recently used files past ``cache_bytes``; the per-URL locks exist only while someone holds or
waits for them; the memo of origin -> robots.txt URL is cleared past :data:`ORIGIN_MEMO_BYTES`.

Time is the policy's (:mod:`robotrules.core.policy`): whether a stored entry is fresh, what it
means now and until when that holds, including the F6 flip, the age of the copy, and which of
two entries holds the newer attempt and the newer good copy. The client reads its clock, hands
the time to the policy and to the refresh machine, and keeps the ``until`` it is given; it
never compares an entry's times itself.

A failing store is logged and bypassed: the client goes on with its in-process copies and direct
fetches (never failing a crawl because a cache is down). A deadline per check and a circuit
breaker per client keep a sick store from slowing the crawl (:mod:`._breaker`).

The parts (private modules): ``_base`` (configuration, URLs, the cache, answers), ``_slots``
(the LRU), ``_cost`` (its charges), ``_breaker`` (the store deadline and breaker),
``_flights`` (in-process single flight), ``_sync`` and ``_async`` (the two clients and their
drivers), ``_jobs`` (:class:`JobRobots`: a job's robots.txt files, refreshed once per job).
"""

from __future__ import annotations

from robotrules.answers import CheckResult, RobotsState
from robotrules.client._async import AsyncRobotsClient
from robotrules.client._base import ORIGIN_MEMO_BYTES
from robotrules.client._cost import DEFAULT_CACHE_BYTES
from robotrules.client._jobs import JobRobots
from robotrules.client._sync import RobotsClient

__all__ = ["DEFAULT_CACHE_BYTES", "ORIGIN_MEMO_BYTES", "AsyncRobotsClient", "CheckResult", "JobRobots", "RobotsClient",
           "RobotsState"]
