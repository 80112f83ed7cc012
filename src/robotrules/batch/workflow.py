"""A batch from its inputs to rows: the source the arguments name (:func:`source_of`), rows
streamed (:func:`rows`), a DataFrame (:func:`decide`) or a file and a :class:`Summary` (:func:`run`)."""


from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from robotrules.answers import Row
from robotrules.batch.captures.archive import Archive, Capture
from robotrules.batch.captures.keeping import archive_of
from robotrules.batch.engine import registry as engines
from robotrules.batch.engine.blocks import Block
from robotrules.batch.engine.local import DEFAULT_CHUNK, Counts, decide_rows
from robotrules.batch.engine.rows import (
    row_columns,
    row_fields,
)
from robotrules.batch.engine.sources import ArchiveSource, LiveSource
from robotrules.batch.frames import typed_frame
from robotrules.batch.inputs.files import with_skipped
from robotrules.batch.inputs.tables.captures import capture_of_row
from robotrules.batch.inputs.tables.urls import read_items, read_urls
from robotrules.batch.inputs.warc.reading import BadRecord
from robotrules.batch.summary import Summary
from robotrules.batch.writers import RowWriter, output_format
from robotrules.core.policy import Policy
from robotrules.errors import SourceError, require

if TYPE_CHECKING:
    from robotrules.cache import Store
    from robotrules.client import RobotsClient

__all__ = ["Robots", "URLs", "decide", "rows", "run", "source_of"]

Robots = Any
"""A robots.txt source: None (live), a path or paths (WARC files, tables of captures, folders of
them), an :class:`Archive`, captures, or a pandas DataFrame of captures."""

URLs = Any
"""URLs to decide: a path (a table or a list), URLs, (url, agent) pairs, or a pandas DataFrame
with a ``url`` and optionally an ``agent`` column."""



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
    ``skip_bad_records``: see :func:`~robotrules.batch.captures.keeping.archive_of`)."""
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
    ``path``, ``offset`` and ``detail``; :func:`~robotrules.batch.inputs.files.skipped_of` makes them
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
    frame = typed_frame(pandas.DataFrame.from_records(found, columns=list(row_columns(preferences))),
                        row_fields(preferences))
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
