"""The fast path of archive jobs: the captures shipped to every task, URL rows decided where they are.

When the captures of a job are small (at most ``broadcast_limit`` bytes of URLs, headers and
bodies; :data:`DEFAULT_BROADCAST_BYTES`, the local engine's limit for keeping an archive in
memory), they are read once in the executors, collected and sent to every task as one Spark
broadcast (:func:`ship`): an :class:`~robotrules.batch.engine.sources.ArchiveSource`, the archive with
the policy, the mode and ``now``, exactly as each worker process of the local engine gets it.
The URL table then needs one pass and no shuffle: each task reads its rows where they are
(:func:`url_decider`, a ``mapInArrow`` function), finds each URL's robots.txt URL (memoised by
origin), judges that robots.txt by the fetch policy the first time the worker process meets it
(F1-F9, redirect chains across hosts included: the whole archive is there), keeps the result in
a bounded cache that outlives the task (Python workers are reused), and decides the rows a URL at
a time with :class:`~robotrules.spark._columns.Columns`. A giant site never lands on one task:
its rows stay spread over the partitions they were read in.

Larger capture sets take the shuffle path of :mod:`._rows` (entries replayed in Spark, URL rows
moved to their robots.txt, salt buckets for giant sites).
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from robotrules.answers import Governing, arrow_schema
from robotrules.batch.kit import DEFAULT_CACHE, Archive, ArchiveSource, robots_url_of, row_fields
from robotrules.core.policy import Policy
from robotrules.errors import require
from robotrules.hosts import OriginMemo
from robotrules.spark._columns import Columns, tokens_for
from robotrules.spark._frames import capture_of, damage_of

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

__all__ = ["DEFAULT_BROADCAST_BYTES", "Shipment", "Shipped", "Worker", "captured", "decide_batch", "ship",
           "url_decider", "worker_of"]

DEFAULT_BROADCAST_BYTES = 128 * 2**20
"""Captures up to this many bytes (URLs, headers and bodies) are sent to every task (the local
engine keeps an archive of up to 128 MiB of files in each worker's memory, too)."""



@dataclass(frozen=True, slots=True)
class Shipped:
    """What every task gets: the archive judged by a policy (``source``), under a ``key`` that
    names this shipment in the worker processes' caches."""

    key: str
    source: ArchiveSource


def captured(captures: DataFrame) -> DataFrame:
    """``captures`` read now, once (a local checkpoint): every capture file is read by the time
    this returns, so its damaged records are known (raised as
    :class:`~robotrules.errors.DamagedArchive`, or in the accumulator of skipped records),
    and no later stage reads the files again."""
    try:
        return captures.localCheckpoint()
    except Exception as exc:
        damage = damage_of(exc)
        if damage is not None:
            raise damage from None
        raise


@dataclass(frozen=True, slots=True)
class Shipment:
    """A :func:`ship` made: the Spark ``broadcast`` of a :class:`Shipped` (what tasks are given:
    only this, never the archive itself, travels with a task) and, on the driver, its ``source``."""

    broadcast: Any
    source: ArchiveSource


def ship(spark: SparkSession, captures: DataFrame, *, policy: Policy, mode: str, now: float | None,
         limit: int) -> Shipment | None:
    """The captures ``captures`` (a :func:`captured` frame) as an archive sent to every task, or
    None when they hold more than ``limit`` bytes. The captures keep the order they were read
    in (file by file), so that of two captures of a URL made at the same time the one read later
    wins, as in the local engine (:func:`~robotrules.batch.captures.archive.replaces`)."""
    F: Any = require("pyspark.sql.functions", "spark")
    if limit <= 0:
        return None
    size = F.coalesce(F.length("url"), F.lit(0)) + F.coalesce(F.length("headers"), F.lit(0)) + \
        F.coalesce(F.length("body"), F.lit(0))
    total = captures.select(F.sum(size).alias("bytes")).first()
    if total is not None and (total["bytes"] or 0) > limit:
        return None
    source = ArchiveSource(Archive(capture_of(*values) for values in _rows_of(captures)), policy, mode, now)
    return Shipment(spark.sparkContext.broadcast(Shipped(uuid.uuid4().hex, source)), source)


def _rows_of(captures: DataFrame) -> Iterator[tuple[Any, ...]]:
    """The capture rows (url, status, headers, body, fetched_at, error), in order, through Arrow."""
    names = ("url", "status", "headers", "body", "fetched_at", "error")
    frame = captures.select(*names)
    to_arrow = getattr(frame, "toArrow", None)  # pyspark 4
    if to_arrow is not None:
        table = to_arrow()
        yield from zip(*(table.column(name).to_pylist() for name in names), strict=True)
        return
    pandas_frame: Any = frame.toPandas()
    yield from zip(*(pandas_frame[name].tolist() for name in names), strict=True)


class Worker:
    """A worker process's view of one shipment: each URL's robots.txt URL (memoised by origin,
    as the local engine's :class:`~robotrules.batch.engine.local.Decider` does) and each robots.txt's
    :class:`Governing`, judged once and kept in a bounded cache (least recently used out)."""

    __slots__ = ("_cache", "_robots_urls", "cache_size", "source")

    def __init__(self, source: ArchiveSource, cache_size: int = DEFAULT_CACHE) -> None:
        self.source = source
        self.cache_size = max(1, cache_size)
        self._cache: OrderedDict[str, Governing] = OrderedDict()
        self._robots_urls: OriginMemo[str | None] = OriginMemo(robots_url_of)

    def governing(self, robots_url: str) -> Governing:
        """What decides the URLs of ``robots_url`` (kind "unknown" when never captured)."""
        cache = self._cache
        gov = cache.get(robots_url)
        if gov is not None:
            cache.move_to_end(robots_url)
            return gov
        gov = cache[robots_url] = self.source.governing(robots_url)
        if len(cache) > self.cache_size:
            cache.popitem(last=False)
        return gov

    def locate(self, url: str) -> tuple[Governing | None, str]:
        """The Governing of a (non-empty) URL's robots.txt (None: it has none) and its origin
        ("scheme://host[:port]" as written; "" when the next URL may not reuse the answer)."""
        robots, origin = self._robots_urls.with_origin(url)
        return (None if robots is None else self.governing(robots)), origin


_WORKERS: OrderedDict[str, Worker] = OrderedDict()
"""This worker process's :class:`Worker` of the last shipments, by key."""


def worker_of(broadcast: Any) -> Worker:
    """The :class:`Worker` of a :func:`ship` broadcast in this process (made at its first task;
    the Python workers of a Spark executor are reused, so later tasks find its cache warm)."""
    shipped: Shipped = broadcast.value
    worker = _WORKERS.get(shipped.key)
    if worker is None:
        worker = _WORKERS[shipped.key] = Worker(shipped.source)
        while len(_WORKERS) > 2:
            _WORKERS.popitem(last=False)
    return worker


def decide_batch(batch: Any, worker: Worker, agents: tuple[str, ...], preferences: bool, schema: Any) -> Any:
    """The output rows of one Arrow batch of URL rows (``url``, then optionally ``agent``), in order.

    A row without a URL (null, empty or blank) is kept, with ``url`` "" (decided as no URL); a
    row without an agent (null or blank) gives a row for each of ``agents``, a row with one keeps
    it. The rows of one URL that follow each other are decided together (one path extraction,
    one match per group of rules).
    """
    pa: Any = require("pyarrow", "spark")
    np: Any = require("numpy", "spark")

    url_column = batch.column(0)
    urls: list[Any] = url_column.to_pylist()
    n = len(urls)
    agent_column = batch.column(1) if batch.num_columns > 1 else None
    own: list[Any] | None = agent_column.to_pylist() if agent_column is not None else None
    default_tokens = tokens_for(agents)
    out = Columns(preferences)
    add = out.add
    locate = worker.locate
    defaults_at: list[int] = []  # the rows that take every agent of the job
    fixed = False  # whether a blank URL was replaced by ""
    origin, cut, gov = "", 0, None
    i = 0
    while i < n:
        url = urls[i]
        # Rows of one site usually follow each other: a URL under the same origin has its governor.
        if not (cut and url is not None and url.startswith(origin) and url[cut:cut + 1] == "/"):
            if url is None or not url.strip():  # no URL: kept, decided as an invalid URL
                if url != "":
                    urls[i] = url = ""
                    fixed = True
                gov, cut = None, 0
            else:
                gov, origin = locate(url)
                cut = len(origin)
        agent = own[i] if own is not None else None
        if agent is None or not agent.strip(" "):  # Spark's trim: spaces only
            defaults_at.append(i)
            add(url, agents, default_tokens, gov)
            i += 1
            continue
        j = i + 1
        while j < n and urls[j] == url:
            other = own[j]  # type: ignore[index]  # own is set: this row has its own agent
            if other is None or not other.strip(" "):
                break
            j += 1
        names = (agent,) if j == i + 1 else tuple(own[i:j])  # type: ignore[index]
        add(url, names, tokens_for(names), gov)
        i = j
    url_values = pa.array(urls, pa.string()) if fixed else url_column
    if not defaults_at:
        return out.batch(pa, require("pyarrow.compute", "spark"), schema, url_values, agent_column)
    width = len(agents)
    counts = np.ones(n, dtype=np.int64)
    counts[defaults_at] = width
    rows_of = np.repeat(np.arange(n, dtype=np.int64), counts)
    default_row = np.zeros(n, dtype=bool)
    default_row[defaults_at] = True
    starts = np.cumsum(counts) - counts
    position = np.arange(len(rows_of), dtype=np.int64) - np.repeat(starts, counts)
    pick = np.where(np.repeat(default_row, counts), position, rows_of + width)
    names_array = pa.array(agents, pa.string())
    if agent_column is not None:
        names_array = pa.concat_arrays([names_array, agent_column.cast(pa.string())])
    return out.batch(pa, require("pyarrow.compute", "spark"), schema, url_values.take(pa.array(rows_of)),
                     names_array.take(pa.array(pick)))


def url_decider(broadcast: Any, agents: tuple[str, ...], preferences: bool) -> Any:
    """The ``mapInArrow`` function of the fast path: URL rows (``url``, optionally ``agent``) in,
    output rows (:func:`~robotrules.batch.engine.rows.row_fields`) out, judged by the shipment."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        pa: Any = require("pyarrow", "spark")

        worker = worker_of(broadcast)
        schema = arrow_schema(pa, row_fields(preferences))
        for batch in batches:
            if batch.num_rows:
                yield decide_batch(batch, worker, agents, preferences, schema)

    return run

