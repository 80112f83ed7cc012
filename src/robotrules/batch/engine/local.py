"""The local engine: decide (url, agent) rows on all cores of one machine, streaming.

Input items (a URL, decided for each agent of the job, or a (url, agent) pair) are read in
chunks (``chunk_size`` items); each chunk is decided by one worker process and
the chunks come back **in input order**, so the output has the input's order whatever the
number of processes. Memory is bounded: at most ``2 * processes`` chunks are in flight, and each
worker keeps a bounded cache (``cache_size`` entries, least recently used first out) of the
:class:`~robotrules.answers.Governing` of the robots.txt files it has seen, so each
robots.txt is parsed about once per worker when the input is grouped by site, and a bounded
number of times when it is not.

Archive sources are judged inside the workers (each gets the archive once, at start); live
sources are fetched in the calling process, a chunk's distinct robots.txt files at a time, and
handed to the workers already judged. ``processes=1`` decides in the calling process (no pool),
with the same code. Every row is made as :func:`~robotrules.batch.engine.rows.decide_row` makes it
(with ``preferences``, its preference columns as a
:class:`~robotrules.batch.engine.rows.PreferenceReader` reads them).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import sys
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from robotrules.answers import Governing, Row
from robotrules.batch.engine.blocks import Block, BlockBuilder
from robotrules.batch.engine.rows import NO_URL_GOVERNING, Item, no_url, robots_url_of, tokens_of
from robotrules.batch.engine.sources import ArchiveSource, LiveSource
from robotrules.core.reasons import Reason
from robotrules.hosts import OriginMemo

__all__ = ["DEFAULT_CHUNK", "Counts", "Decider", "decide_rows"]

DEFAULT_CHUNK = 10_000
"""Items (URLs) per chunk: large enough to amortise the hand-over to a worker, small enough to stream."""

NO_SOURCE = Reason("no-source")
"""Why nothing is known of a robots.txt the job gave no source for."""

DEFAULT_CACHE = 2048
"""Judged robots.txt files each worker keeps (least recently used first out)."""

@dataclass
class Counts:
    """How many rows were decided, and how: allowed, disallowed, unknown (nothing known)."""

    rows: int = 0
    allowed: int = 0
    disallowed: int = 0
    unknown: int = 0

    def add(self, rows: Iterable[Row]) -> None:
        """Count ``rows`` (a :class:`Block` is counted without making its rows)."""
        if isinstance(rows, Block):
            allowed, disallowed, unknown = rows.counts()
            self.rows += len(rows)
            self.allowed += allowed
            self.disallowed += disallowed
            self.unknown += unknown
            return
        for row in rows:
            self.rows += 1
            verdict = row[2]
            if verdict is None:
                self.unknown += 1
            elif verdict:
                self.allowed += 1
            else:
                self.disallowed += 1


class Decider:
    """Decides chunks of rows in one process: the robots.txt URL of each URL (memoised by
    origin), its :class:`Governing` (from ``given``, else from the archive ``source``, kept in a
    bounded LRU cache), then :func:`decide_row`."""

    def __init__(self, source: ArchiveSource | None, cache_size: int = DEFAULT_CACHE) -> None:
        self.source = source
        self.cache_size = max(1, cache_size)
        self._cache: OrderedDict[str, Governing] = OrderedDict()
        self._robots_urls: OriginMemo[str | None] = OriginMemo(robots_url_of)

    def robots_url(self, url: str) -> str | None:
        """:func:`robots_url_of` ``url``, memoised by its origin (scheme, host and port as written)."""
        return self._robots_urls(url)

    def _governing(self, robots_url: str, given: dict[str, Governing] | None) -> Governing:
        if given is not None and robots_url in given:
            return given[robots_url]
        cache = self._cache
        gov = cache.get(robots_url)
        if gov is not None:
            cache.move_to_end(robots_url)
            return gov
        if self.source is None:
            gov = Governing(robots_url, "unknown", 0, NO_SOURCE.sentence(), outcome="no_capture", why=NO_SOURCE)
        else:
            gov = self.source.governing(robots_url)
        cache[robots_url] = gov
        if len(cache) > self.cache_size:
            cache.popitem(last=False)
        return gov

    def decide(self, items: list[Item], agents: Sequence[str], given: dict[str, Governing] | None = None,
               preferences: bool = False) -> Block:
        """The rows of ``items``, in order: a URL is decided for each of ``agents``, a (url, agent)
        pair for its own agent; with ``preferences``, each row's preference columns too."""
        agents = tuple(agents)
        tokens = tokens_of(agents)
        own: dict[str, tuple[str, ...]] = {}  # the token of each row's own agent, as one tuple
        out = BlockBuilder(agents, preferences)
        add = out.add
        origin = ""  # "scheme://host" of the last URL looked up, when its robots URL is memoised by it
        cut = 0
        gov: Governing | None = None
        for item in items:
            if isinstance(item, str):
                url, known, names = item, tokens, agents
            else:
                url, agent = item
                mine = own.get(agent)
                if mine is None:
                    mine = own[agent] = tokens_of((agent,))
                known, names = mine, (agent,)
            # Rows of one site usually follow each other: a URL under the same origin has its governor.
            if not (cut and url.startswith(origin) and url[cut:cut + 1] == "/"):
                if no_url(url):  # an empty cell: the row stays, with its reason
                    add(url, known, NO_URL_GOVERNING, names)
                    cut = 0
                    continue
                robots, origin = self._robots_urls.with_origin(url)
                gov = None if robots is None else self._governing(robots, given)
                cut = len(origin)
            add(url, known, gov, names)
        return out.block(items)


_WORKER: dict[str, Decider] = {}
"""The worker process's own :class:`Decider` (under "decider"), made by :func:`_init_worker`."""


def _init_worker(source: ArchiveSource | None, cache_size: int) -> None:
    _WORKER["decider"] = Decider(source, cache_size)


def _decide_chunk(task: tuple[list[Item], tuple[str, ...], dict[str, Governing] | None, bool]) -> Block:
    return _WORKER["decider"].decide(*task)


def _chunks(items: Iterable[Item], size: int) -> Iterator[list[Item]]:
    iterator = iter(items)
    while True:
        chunk = list(itertools.islice(iterator, size))
        if not chunk:
            return
        yield chunk


def _context() -> Any:
    """fork where it is safe (Linux, no other thread yet: the archive is shared, not copied),
    else spawn."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def decide_rows(items: Iterable[Item], agents: Sequence[str], source: ArchiveSource | LiveSource, *,
                processes: int | None = None, chunk_size: int = DEFAULT_CHUNK, cache_size: int = DEFAULT_CACHE,
                on_chunk: Callable[[Block], None] | None = None, preferences: bool = False) -> Iterator[Block]:
    """Decide ``items`` (URLs, each for every one of ``agents``, or (url, agent) pairs) against
    ``source``: chunks of rows (``chunk_size`` items each), in input order; with
    ``preferences``, the rows have the preference columns
    (:data:`~robotrules.batch.engine.rows.PREFERENCE_FIELDS`).

    ``processes`` None uses every core; 1 decides in this process. A job of one chunk is always
    decided in this process (a pool would only add its start-up). ``on_chunk`` sees each chunk
    as it is yielded (a progress bar).
    """
    if chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    wanted = processes if processes is not None else (os.cpu_count() or 1)
    if wanted < 1:
        raise ValueError(f"processes must be at least 1, not {wanted}")
    archive = source if isinstance(source, ArchiveSource) else None
    live = source if isinstance(source, LiveSource) else None
    agents = tuple(agents)
    chunks = _chunks(items, chunk_size)
    first = next(chunks, None)
    if first is None:
        return
    second = next(chunks, None) if wanted > 1 else None
    local = Decider(archive, cache_size)

    def given(chunk: list[Item]) -> dict[str, Governing] | None:
        if live is None:
            return None
        robots = (local.robots_url(item if type(item) is str else item[0]) for item in chunk)
        return live.fetch_all(url for url in robots if url is not None)

    if second is None:
        rest = chunks if wanted == 1 else iter(())
        for chunk in itertools.chain([first], rest):
            block = local.decide(chunk, agents, given(chunk), preferences)
            if on_chunk is not None:
                on_chunk(block)
            yield block
        return
    pool = _context().Pool(wanted, initializer=_init_worker, initargs=(archive, cache_size))
    done = False
    try:
        window: deque[tuple[list[Item], Any]] = deque()

        def received() -> Block:
            chunk, pending = window.popleft()
            block: Block = pending.get()
            block.items = chunk  # the URLs stayed here: only the verdicts came back
            if on_chunk is not None:
                on_chunk(block)
            return block

        for chunk in itertools.chain([first, second], chunks):
            window.append((chunk, pool.apply_async(_decide_chunk, ((chunk, agents, given(chunk), preferences),))))
            while len(window) >= 2 * wanted:
                yield received()
        while window:
            yield received()
        done = True
    finally:
        if done:
            pool.close()
        else:
            pool.terminate()
        pool.join()
