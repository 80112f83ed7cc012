"""Live robots.txt on Spark: the executors fetch, through one cache they all share.

Without captures, a job's distinct robots.txt URLs are spread over tasks; each task makes one
:class:`~robotrules.RobotsClient` (:class:`LiveFetch` says how: store, policy, mode, User-Agent)
and fetches its URLs, 16 at a time, with the local engine's own code
(:meth:`robotrules.batch.engine.sources.LiveSource.fetch_all`). So each robots.txt URL is fetched once
per job, not once per URL row, and a copy another task, job or machine already put in the shared
store is used, not fetched again (C3). What each robots.txt means, as the client judged it, then
crosses the shuffle as a small row (:data:`GOVERNING_FIELDS`) and is parsed once per partition
where its URL rows are decided.

The store is named, not passed: executors are other processes (other machines on a cluster), so
they open it themselves. A SQLite file is shared by the executors of one machine (local mode, or
a file system every node sees); Redis by a whole cluster; a memory store is each task's own (every
robots.txt is still fetched once per job, but nothing is kept for the next one).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from robotrules.answers import Governing
from robotrules.batch.kit import LiveSource
from robotrules.cache import MemoryStore, RedisStore, SQLiteStore, Store, default_path
from robotrules.core.policy import Policy
from robotrules.core.reasons import from_fields
from robotrules.core.robotstxt import parse
from robotrules.errors import require
from robotrules.fetch import DEFAULT_USER_AGENT

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

    from robotrules.client import RobotsClient

__all__ = ["GOVERNING_FIELDS", "LiveFetch", "governing_frame", "governing_of", "live_fetch"]

GOVERNING_FIELDS = "robots_url string, kind string, status int, reason string, body binary, outcome string, why string"
"""What decides one robots.txt's URLs, as a row: the :class:`~robotrules.answers.Governing`
fields, with the body of the rules (empty unless ``kind`` is "rules")."""

_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")


@dataclass(frozen=True, slots=True)
class LiveFetch:
    """How each task makes its client: the store to open (``kind`` "memory", "sqlite" with the
    file in ``location``, or "redis" with the URL in ``location`` and the key ``prefix``), the
    fetch ``policy``, the parsing ``mode``, the ``user_agent`` header, and ``threads`` fetching
    at once per task; with ``refresh``, each robots.txt is fetched again however fresh the cached
    copy. Picklable: it travels to the executors with the job."""

    kind: Literal["memory", "sqlite", "redis"]
    location: str = ""
    prefix: str = ""
    policy: Policy = field(default_factory=Policy)
    mode: str = "google"
    user_agent: str = DEFAULT_USER_AGENT
    threads: int = 16
    refresh: bool = False

    def open(self) -> tuple[RobotsClient, Store]:
        """A new client on a newly opened store (the caller closes both)."""
        from robotrules.client import RobotsClient

        store: Store
        if self.kind == "sqlite":
            store = SQLiteStore(self.location)
        elif self.kind == "redis":
            store = RedisStore(self.location, prefix=self.prefix) if self.prefix else RedisStore(self.location)
        else:
            store = MemoryStore()
        return RobotsClient(store, policy=self.policy, mode=self.mode, user_agent=self.user_agent), store


def live_fetch(store: Store | str | os.PathLike[str] | None = None, *, policy: Policy | None = None,
               mode: str = "google", user_agent: str = DEFAULT_USER_AGENT, refresh: bool = False) -> LiveFetch:
    """The :class:`LiveFetch` for ``store``: a Redis URL (``redis://``, ``rediss://``,
    ``unix://``), a SQLite file path, a store object to reopen in the executors (a
    :class:`~robotrules.SQLiteStore` or a :class:`~robotrules.RedisStore` made from a URL; a
    :class:`~robotrules.MemoryStore` means a memory store per task), or None: the default SQLite
    cache file (:func:`~robotrules.cache.default_path`, as ``robotrules batch`` uses).
    ``ValueError`` for a store the executors cannot open."""
    parse(b"", mode=mode)  # an unknown mode fails here, on the driver
    policy = policy or Policy()
    common: dict[str, Any] = {"policy": policy, "mode": mode, "user_agent": user_agent, "refresh": refresh}
    if store is None:
        return LiveFetch("sqlite", os.path.abspath(default_path()), **common)
    if isinstance(store, MemoryStore):
        return LiveFetch("memory", **common)
    if isinstance(store, SQLiteStore):
        if store.path in ("", ":memory:"):
            raise ValueError("an in-memory SQLite store cannot be shared with Spark's executors: give a file path")
        return LiveFetch("sqlite", os.path.abspath(store.path), **common)
    if isinstance(store, RedisStore):
        if not store.url:
            raise ValueError("a RedisStore made from a client object cannot be reopened in Spark's executors: "
                             "give its URL (redis://host:6379/0)")
        return LiveFetch("redis", store.url, store.prefix, **common)
    if isinstance(store, (str, os.PathLike)):
        text = os.fspath(store)
        if text.startswith(_REDIS_SCHEMES):
            return LiveFetch("redis", text, **common)
        if not text or "://" in text:
            raise ValueError(f"the cache for Spark's executors must be a SQLite file path or a Redis URL, not {text!r}")
        return LiveFetch("sqlite", os.path.abspath(text), **common)
    raise TypeError(f"store must be a path, a Redis URL or a SQLiteStore, RedisStore or MemoryStore, "
                    f"not {type(store).__name__}")


def governing_frame(rows: DataFrame, live: LiveFetch) -> DataFrame:
    """The distinct robots URLs of ``rows`` (a ``robots_url`` column; "" skipped), each fetched
    once through ``live``, as :data:`GOVERNING_FIELDS` rows. Computed when called (a local
    checkpoint), so using the result twice never fetches twice."""
    F: Any = require("pyspark.sql.functions", "spark")
    targets = rows.select("robots_url").where(F.col("robots_url") != "").distinct()
    return targets.mapInArrow(_fetcher(live), GOVERNING_FIELDS).localCheckpoint()


def clients(live: LiveFetch, batches: Iterator[Any]) -> Iterator[tuple[RobotsClient, Any]]:
    """``batches`` paired with one client for the whole task, opened at the first batch (an empty
    partition opens no store) and closed, with its store, when the task ends."""
    opened: tuple[RobotsClient, Store] | None = None
    try:
        for batch in batches:
            if opened is None:
                opened = live.open()
            yield opened[0], batch
    finally:
        if opened is not None:
            opened[0].close()
            opened[1].close()


def _fetcher(live: LiveFetch) -> Any:
    """The mapInArrow function of the fetch stage: robots URLs in, :data:`GOVERNING_FIELDS` out."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        pa: Any = require("pyarrow", "spark")

        schema = pa.schema([("robots_url", pa.string()), ("kind", pa.string()), ("status", pa.int32()),
                            ("reason", pa.string()), ("body", pa.binary()), ("outcome", pa.string()),
                            ("why", pa.string())])
        for client, batch in clients(live, batches):
            urls = batch.column("robots_url").to_pylist()
            found = LiveSource(client, live.threads, refresh=live.refresh).fetch_all(urls)
            govs = [found[url] for url in urls]
            yield pa.RecordBatch.from_arrays([
                pa.array(urls, pa.string()),
                pa.array([g.kind for g in govs], pa.string()),
                pa.array([g.status for g in govs], pa.int32()),
                pa.array([g.reason for g in govs], pa.string()),
                pa.array([g.robots.body if g.robots is not None else b"" for g in govs], pa.binary()),
                pa.array([g.outcome for g in govs], pa.string()),
                pa.array([json.dumps(g.why.to_fields()) for g in govs], pa.string()),
            ], schema=schema)

    return run


def governing_of(robots_url: str, values: Mapping[str, Any], mode: str) -> Governing:
    """The :class:`~robotrules.answers.Governing` of one :data:`GOVERNING_FIELDS` row: the
    rules parsed again from the body (the bytes that count, so the same file), or a full allow,
    full disallow or unknown as the client judged it."""
    kind = values["kind"]
    robots = parse(bytes(values["body"] or b""), mode=mode) if kind == "rules" else None
    return Governing(robots_url, kind, int(values["status"] or 0), str(values["reason"] or ""), robots,
                     str(values.get("outcome") or ""), why=from_fields(json.loads(values["why"])))
