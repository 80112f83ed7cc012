"""Decide and audit robots.txt at scale: tables of URLs, crawl archives, live sites, Spark.

The contract every engine shares: :mod:`robotrules.batch.captures` (archived answers judged by
the fetch policy) and :mod:`robotrules.batch.decide` (the one decision of a row). Around it:
:mod:`~robotrules.batch.sources` (WARC files, tables of captures, live fetching),
:mod:`~robotrules.batch.ccindex` (Common Crawl's columnar index: :func:`captures_from_index`),
:mod:`~robotrules.batch.tables` (URL inputs, outputs) and :mod:`~robotrules.batch.local` (the
local engine). The library calls are :func:`decide` (a pandas DataFrame) and :func:`run` (a file
written, a :class:`Summary` returned)::

    import robotrules.batch as batch
    frame = batch.decide(["https://example.com/a"], agents=["Googlebot", "GPTBot"],
                         robots=["robots-captures.warc.gz"])
    summary = batch.run("urls.parquet", "verdicts.parquet", agents=["GPTBot"], robots="captures/")

With ``preferences=True`` each row also has the URL's AI-use preferences, one nullable boolean
column per usage category (:data:`PREFERENCE_COLUMNS`: ``train_ai``, ``search``, ``ai_input``,
as :meth:`RobotsTxt.usage <robotrules.RobotsTxt.usage>` gives them, A1-A7); without it the
rows have exactly :data:`COLUMNS`.

A damaged archive (a WARC file cut short, a corrupt gzip member) raises
:class:`DamagedArchive` naming the file and the byte where the damage starts; with
``skip_bad_records=True`` the damaged records are skipped, the rest is read, and they are
counted (:attr:`Summary.bad_records`, ``frame.attrs["bad_records"]``).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from robotrules.batch import engines
from robotrules.batch.archives import archive_of
from robotrules.batch.block import Block
from robotrules.batch.captures import Archive, Capture
from robotrules.batch.ccindex import COMMON_CRAWL, captures_from_index, read_index_captures, select_records
from robotrules.batch.decide import (
    COLUMNS,
    PREFERENCE_COLUMNS,
    PREFERENCE_FIELDS,
    Governing,
    Row,
    decide_row,
    governing,
    robots_url_of,
    row_columns,
)
from robotrules.batch.local import DEFAULT_CHUNK, Counts, decide_rows
from robotrules.batch.sources import (
    ArchiveSource,
    BadRecord,
    DamagedArchive,
    LiveSource,
    SourceError,
    capture_of_row,
    read_captures,
    with_skipped,
)
from robotrules.batch.tables import RowWriter, output_format, read_items, read_urls
from robotrules.core.policy import Policy
from robotrules.errors import require

if TYPE_CHECKING:
    from robotrules.cache import Store
    from robotrules.client import RobotsClient

__all__ = [
    "COLUMNS",
    "COMMON_CRAWL",
    "PREFERENCE_COLUMNS",
    "PREFERENCE_FIELDS",
    "Archive",
    "ArchiveSource",
    "BadRecord",
    "Block",
    "Capture",
    "DamagedArchive",
    "Governing",
    "LiveSource",
    "SourceError",
    "Summary",
    "archive_of",
    "captures_from_index",
    "decide",
    "decide_row",
    "governing",
    "read_captures",
    "read_index_captures",
    "robots_url_of",
    "rows",
    "run",
    "select_records",
    "skipped_note",
]

Robots = Any
"""A robots.txt source: None (live), a path or paths (WARC files, tables of captures, folders of
them), an :class:`Archive`, captures, or a pandas DataFrame of captures."""

URLs = Any
"""URLs to decide: a path (a table or a list), URLs, (url, agent) pairs, or a pandas DataFrame
with a ``url`` and optionally an ``agent`` column."""


@dataclass(frozen=True, slots=True)
class Summary:
    """What a run decided: row counts, the seconds it took, where the rows went, and the damaged
    records of the archives that were skipped (``skip_bad_records``)."""

    rows: int
    allowed: int
    disallowed: int
    unknown: int
    elapsed: float
    output: str = ""
    engine: str = "local"
    skipped: tuple[BadRecord, ...] = ()

    @property
    def rows_per_second(self) -> float:
        """Rows decided per second of the whole run (reading and writing included)."""
        return self.rows / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def bad_records(self) -> int:
        """How many damaged records of the archives were skipped."""
        return len(self.skipped)

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data."""
        return {"rows": self.rows, "allowed": self.allowed, "disallowed": self.disallowed,
                "unknown": self.unknown, "elapsed": round(self.elapsed, 3),
                "rows_per_second": round(self.rows_per_second, 1), "output": self.output, "engine": self.engine,
                "bad_records": self.bad_records,
                "skipped": [{"path": bad.path, "offset": bad.offset, "detail": bad.detail} for bad in self.skipped]}

    def __str__(self) -> str:
        return (f"{self.rows:,} rows: {self.allowed:,} allowed, {self.disallowed:,} disallowed, "
                f"{self.unknown:,} unknown in {self.elapsed:.2f}s ({self.rows_per_second:,.0f} rows/s)"
                + skipped_note(self.skipped))


def skipped_note(skipped: Sequence[BadRecord]) -> str:
    """"; N damaged records skipped (the first: FILE at byte N)" for a summary line ("" for none)."""
    if not skipped:
        return ""
    first = skipped[0]
    where = f"{first.path} at byte {first.offset}"
    count = len(skipped)
    return (f"; {count:,} damaged record{'s' if count != 1 else ''} of the archives skipped "
            f"({'the first: ' if count > 1 else ''}{where})")


def _is_path(value: object) -> bool:
    return isinstance(value, (str, os.PathLike))


def _captures_of(frame: Any) -> Iterator[Capture]:
    """The captures of a pandas DataFrame, read as a table file's rows are (:func:`capture_of_row`)."""
    for number, row in enumerate(frame.to_dict("records"), 1):
        yield capture_of_row(row, f"captures, row {number}")


def _archive(robots: Robots, skip_bad_records: bool = False) -> Archive:
    if isinstance(robots, Archive):
        return robots
    if _is_path(robots):
        return archive_of(os.fspath(robots), skip_bad_records=skip_bad_records)
    if hasattr(robots, "to_dict") and hasattr(robots, "columns"):  # a pandas DataFrame
        return Archive(_captures_of(robots))
    items = list(robots)
    if all(_is_path(item) for item in items):
        return archive_of([os.fspath(item) for item in items], skip_bad_records=skip_bad_records)
    if all(isinstance(item, Capture) for item in items):
        return Archive(items)
    raise TypeError("robots must be paths, an Archive, Captures or a DataFrame of captures")


def source_of(robots: Robots, *, policy: Policy | None = None, mode: str = "google", store: Store | None = None,
              client: RobotsClient | None = None, refresh: bool = False,
              skip_bad_records: bool = False) -> ArchiveSource | LiveSource:
    """The source the arguments name: live (``robots`` None; through ``client``, else a client on
    ``store``, else on the default SQLite cache; with ``refresh``, each robots.txt fetched again
    once, however fresh its cached copy) or an archive judged by ``policy`` (files read with
    ``skip_bad_records``: see :func:`~robotrules.batch.archives.archive_of`)."""
    if robots is not None:
        return ArchiveSource(_archive(robots, skip_bad_records), policy or Policy(), mode)
    if client is None:
        from robotrules.cache import SQLiteStore, default_path
        from robotrules.client import RobotsClient

        client = RobotsClient(store if store is not None else SQLiteStore(default_path()), policy=policy, mode=mode)
    return LiveSource(client, refresh=refresh)


def _items(urls: URLs) -> Iterator[str | tuple[str, str]]:
    """The URLs to decide for every agent, or (url, agent) pairs of rows with their own agent."""
    if _is_path(urls):
        return read_items(read_urls(os.fspath(urls)))
    if hasattr(urls, "columns") and hasattr(urls, "itertuples"):  # a pandas DataFrame
        if "url" not in urls.columns:
            raise SourceError(f"the URL table has no 'url' column (found: {', '.join(map(str, urls.columns))})")
        agent = urls["agent"] if "agent" in urls.columns else [None] * len(urls)
        return read_items(("" if _blank(u) else str(u), None if _blank(a) else str(a))
                          for u, a in zip(urls["url"], agent, strict=True))

    def items() -> Iterator[str | tuple[str, str]]:
        for item in urls:
            if isinstance(item, str):
                yield item
            else:
                url, agent = item
                yield (str(url), agent) if agent else str(url)

    return items()


def _blank(value: object) -> bool:
    """None, NaN (pandas' missing value) or empty."""
    return value is None or value == "" or (isinstance(value, float) and math.isnan(value))


def _agents(agents: Sequence[str] | str) -> tuple[str, ...]:
    given = (agents,) if isinstance(agents, str) else tuple(agents)
    if not given:
        raise ValueError("no agents to decide for")
    return given


def rows(urls: URLs, agents: Sequence[str] | str = ("*",), robots: Robots = None, *, processes: int | None = None,
         policy: Policy | None = None, mode: str = "google", store: Store | None = None,
         client: RobotsClient | None = None, chunk_size: int = DEFAULT_CHUNK,
         on_chunk: Callable[[Block], None] | None = None, refresh: bool = False,
         skip_bad_records: bool = False, preferences: bool = False) -> Iterator[Block]:
    """The local engine's chunks of rows, in input order, streamed: each a :class:`Block`, a
    sequence of row tuples in :data:`COLUMNS` order (``chunk_size`` URLs each), then, with
    ``preferences``, the columns of :data:`PREFERENCE_COLUMNS`."""
    source = source_of(robots, policy=policy, mode=mode, store=store, client=client, refresh=refresh,
                       skip_bad_records=skip_bad_records)
    return decide_rows(_items(urls), _agents(agents), source, processes=processes, chunk_size=chunk_size,
                       on_chunk=on_chunk, preferences=preferences)


def _skipped(source: ArchiveSource | LiveSource) -> tuple[BadRecord, ...]:
    return source.archive.bad_records if isinstance(source, ArchiveSource) else ()


def decide(urls: URLs, agents: Sequence[str] | str = ("*",), robots: Robots = None, *, engine: str = "local",
           processes: int | None = None, policy: Policy | None = None, mode: str = "google",
           store: Store | None = None, client: RobotsClient | None = None, refresh: bool = False,
           skip_bad_records: bool = False, preferences: bool = False) -> Any:
    """Decide ``urls`` for ``agents`` against ``robots`` and return a pandas DataFrame with the
    columns of :data:`COLUMNS`, in input order (each URL's agents in the order given); with
    ``preferences``, then the columns of :data:`PREFERENCE_COLUMNS` (nullable booleans: each
    URL's AI-use preference for the row's agent, as ``RobotsTxt.usage(url, agent)`` gives it,
    A1-A7; missing when unknown, when the URL may not be crawled (A3), or when no rules decide).

    A row's own agent (an ``agent`` column, or a (url, agent) pair) replaces ``agents`` for that
    row. ``allowed`` is a nullable boolean: missing when nothing is known of the site, and for a
    row without a URL (an empty or missing ``url`` cell: kept, so rows line up with the input).
    Without ``robots`` the files are fetched live through ``client`` (or a client on ``store``,
    by default the shared SQLite cache); ``refresh`` fetches each one again once, however fresh
    its cached copy. A damaged archive raises :class:`DamagedArchive`; with ``skip_bad_records``
    its damaged records are skipped and noted in ``frame.attrs["bad_records"]`` (as dicts with
    ``path``, ``offset`` and ``detail``; :func:`~robotrules.batch.sources.skipped_of` makes them
    :class:`BadRecord` objects again).
    """
    pandas: Any = require("pandas", "batch")
    if engine != engines.LOCAL:
        engines.check(engine)
        raise SourceError(f"decide() runs the local engine; for {engine!r} use that engine's own API "
                          f"(robotrules.spark.decide on Spark DataFrames), or run() with engine={engine!r}")
    source = source_of(robots, policy=policy, mode=mode, store=store, client=client, refresh=refresh,
                       skip_bad_records=skip_bad_records)
    found: list[Row] = []
    for chunk in decide_rows(_items(urls), _agents(agents), source, processes=processes, preferences=preferences):
        found.extend(chunk)
    frame = pandas.DataFrame.from_records(found, columns=list(row_columns(preferences)))
    for name in ("allowed", *(PREFERENCE_COLUMNS if preferences else ())):
        frame[name] = frame[name].astype("boolean")
    frame["line"] = frame["line"].astype("int64")
    frame["robots_status"] = frame["robots_status"].astype("int64")
    return with_skipped(frame, _skipped(source))


def run(urls_path: str | os.PathLike[str], output_path: str | os.PathLike[str], agents: Sequence[str] | str = ("*",),
        robots: Robots = None, *, engine: str = "local", processes: int | None = None, policy: Policy | None = None,
        mode: str = "google", store: Store | None = None, client: RobotsClient | None = None,
        chunk_size: int = DEFAULT_CHUNK, progress: Callable[[int], None] | None = None,
        refresh: bool = False, skip_bad_records: bool = False, preferences: bool = False) -> Summary:
    """Decide the URLs of ``urls_path`` and write the rows to ``output_path`` (the format from
    its suffix), streaming; ``progress`` is called with each chunk's row count. ``preferences``:
    the rows end with the preference columns (:data:`PREFERENCE_COLUMNS`, as :func:`decide`),
    on either engine.

    A damaged archive raises :class:`DamagedArchive` before any file is written; with
    ``skip_bad_records`` its damaged records are skipped and counted in the :class:`Summary`.
    """
    output = os.fspath(output_path)
    output_format(output)  # an unknown suffix fails before any work
    started = time.perf_counter()
    if engine != engines.LOCAL:
        job = engines.RunJob(os.fspath(urls_path), output, _agents(agents), robots, policy, mode, started, store,
                             client, refresh, skip_bad_records, preferences)
        summary: Summary = engines.get(engine).run(job)
        return summary
    counts_local = Counts()

    def seen(chunk: Block) -> None:
        counts_local.add(chunk)
        if progress is not None:
            progress(len(chunk))

    source = source_of(robots, policy=policy, mode=mode, store=store, client=client, refresh=refresh,
                       skip_bad_records=skip_bad_records)
    chunks = decide_rows(_items(os.fspath(urls_path)), _agents(agents), source, processes=processes,
                         chunk_size=chunk_size, on_chunk=seen, preferences=preferences)
    first = next(chunks, None)  # reading starts before the file is made: bad input leaves no file
    with RowWriter(output, preferences) as writer:
        if first is not None:
            writer.write(first)
            for chunk in chunks:
                writer.write(chunk)
    return Summary(counts_local.rows, counts_local.allowed, counts_local.disallowed, counts_local.unknown,
                   time.perf_counter() - started, output, "local", _skipped(source))
