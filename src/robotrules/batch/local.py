"""The local engine: decide (url, agent) rows on all cores of one machine, streaming.

Rows are read in chunks (``chunk_size`` rows); each chunk is decided by one worker process and
the chunks come back **in input order**, so the output has the input's order whatever the
number of processes. Memory is bounded: at most ``2 * processes`` chunks are in flight, and each
worker keeps a bounded cache (``cache_size`` entries, least recently used first out) of the
:class:`~robotrules.batch.decide.Governing` of the robots.txt files it has seen, so each
robots.txt is parsed about once per worker when the input is grouped by site, and a bounded
number of times when it is not.

Archive sources are judged inside the workers (each gets the archive once, at start); live
sources are fetched in the calling process, a chunk's distinct robots.txt files at a time, and
handed to the workers already judged. ``processes=1`` decides in the calling process (no pool),
with the same code. Every row is made by :func:`~robotrules.batch.decide.decide_row`.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import sys
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from robotrules.batch.decide import Governing, Row, decide_row, robots_url_of
from robotrules.batch.sources import ArchiveSource, LiveSource

__all__ = ["DEFAULT_CHUNK", "Counts", "Decider", "decide_rows"]

DEFAULT_CHUNK = 20_000
"""Rows per chunk: large enough to amortise the hand-over to a worker, small enough to stream."""

DEFAULT_CACHE = 2048
"""Judged robots.txt files each worker keeps (least recently used first out)."""

_ORIGINS_MAX = 65_536


@dataclass
class Counts:
    """How many rows were decided, and how: allowed, disallowed, unknown (nothing known)."""

    rows: int = 0
    allowed: int = 0
    disallowed: int = 0
    unknown: int = 0

    def add(self, rows: Iterable[Row]) -> None:
        """Count ``rows``."""
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
        self._origins: dict[str, str | None] = {}

    def robots_url(self, url: str) -> str | None:
        """:func:`robots_url_of` ``url``, memoised by its origin (scheme, host and port as written)."""
        start = url.find("://")
        if start <= 0:
            return robots_url_of(url)
        end = url.find("/", start + 3)
        origin = url if end < 0 else url[:end]
        if "?" in origin or "#" in origin or "\\" in origin:
            return robots_url_of(url)
        try:
            return self._origins[origin]
        except KeyError:
            pass
        found = robots_url_of(url)
        if len(self._origins) >= _ORIGINS_MAX:
            self._origins.clear()
        self._origins[origin] = found
        return found

    def _governing(self, robots_url: str, given: dict[str, Governing] | None) -> Governing:
        if given is not None and robots_url in given:
            return given[robots_url]
        cache = self._cache
        gov = cache.get(robots_url)
        if gov is not None:
            cache.move_to_end(robots_url)
            return gov
        if self.source is None:
            gov = Governing(robots_url, "unknown", 0, "no robots.txt source for this URL")
        else:
            gov = self.source.governing(robots_url)
        cache[robots_url] = gov
        if len(cache) > self.cache_size:
            cache.popitem(last=False)
        return gov

    def decide(self, pairs: Iterable[tuple[str, str]], given: dict[str, Governing] | None = None) -> list[Row]:
        """The rows of ``pairs``, in order."""
        rows: list[Row] = []
        last_url = ""
        last_gov: Governing | None = None
        for url, agent in pairs:
            if url != last_url:  # the agents of one URL follow each other: look it up once
                last_url = url
                robots = self.robots_url(url)
                last_gov = None if robots is None else self._governing(robots, given)
            rows.append(decide_row(url, agent, last_gov))
        return rows


_WORKER: dict[str, Decider] = {}
"""The worker process's own :class:`Decider` (under "decider"), made by :func:`_init_worker`."""


def _init_worker(source: ArchiveSource | None, cache_size: int) -> None:
    _WORKER["decider"] = Decider(source, cache_size)


def _decide_chunk(task: tuple[list[tuple[str, str]], dict[str, Governing] | None]) -> list[Row]:
    return _WORKER["decider"].decide(task[0], task[1])


def _chunks(pairs: Iterable[tuple[str, str]], size: int) -> Iterator[list[tuple[str, str]]]:
    iterator = iter(pairs)
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


def decide_rows(pairs: Iterable[tuple[str, str]], source: ArchiveSource | LiveSource, *,
                processes: int | None = None, chunk_size: int = DEFAULT_CHUNK, cache_size: int = DEFAULT_CACHE,
                on_chunk: Callable[[list[Row]], None] | None = None) -> Iterator[list[Row]]:
    """Decide ``pairs`` (url, agent) against ``source``: chunks of rows, in input order.

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
    chunks = _chunks(pairs, chunk_size)
    first = next(chunks, None)
    if first is None:
        return
    second = next(chunks, None) if wanted > 1 else None
    local = Decider(archive, cache_size)

    def given(chunk: list[tuple[str, str]]) -> dict[str, Governing] | None:
        if live is None:
            return None
        robots = (local.robots_url(url) for url, _agent in chunk)
        return live.fetch_all(url for url in robots if url is not None)

    if second is None:
        rest = chunks if wanted == 1 else iter(())
        for chunk in itertools.chain([first], rest):
            rows = local.decide(chunk, given(chunk))
            if on_chunk is not None:
                on_chunk(rows)
            yield rows
        return
    pool = _context().Pool(wanted, initializer=_init_worker, initargs=(archive, cache_size))
    done = False
    try:
        window: deque[Any] = deque()
        for chunk in itertools.chain([first, second], chunks):
            window.append(pool.apply_async(_decide_chunk, ((chunk, given(chunk)),)))
            while len(window) >= 2 * wanted:
                rows = window.popleft().get()
                if on_chunk is not None:
                    on_chunk(rows)
                yield rows
        while window:
            rows = window.popleft().get()
            if on_chunk is not None:
                on_chunk(rows)
            yield rows
        done = True
    finally:
        if done:
            pool.close()
        else:
            pool.terminate()
        pool.join()
