"""An audit from its sources to a table (:func:`table`), or to files and a summary (:func:`run`).

:func:`run` is the whole of ``robotrules audit`` as one call: it checks the sources and the
paths, classifies every site for every agent on the chosen engine (one audit, or one per crawl
combined into trends and changes), writes the table, the tables beside it and the report, and
returns what it did as an :class:`AuditSummary` or :class:`OverTimeSummary`, whose ``to_dict``
and ``str`` are what the command prints.
"""

from __future__ import annotations

import itertools
import os
import warnings
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from robotrules.batch.audit.columns import AUDIT_COLUMNS, AUDIT_FIELDS, Row, typed
from robotrules.batch.audit.over_time import OverTime, changes, crawls_of, labelled, trends
from robotrules.batch.audit.purposes import opt_out_counts
from robotrules.batch.audit.sites import audit_rows, capture_paths
from robotrules.batch.audit.tally import Tally
from robotrules.batch.audit.verdicts import default_agents
from robotrules.batch.captures.archive import Archive
from robotrules.batch.captures.keeping import archive_of
from robotrules.batch.engine import registry as engines
from robotrules.batch.inputs.files import skipped_of, source_kind, with_skipped
from robotrules.batch.inputs.warc.reading import BadRecord
from robotrules.batch.summary import skipped_note
from robotrules.batch.writers import OUTPUT_SUFFIXES, RowWriter, output_format, write_frame
from robotrules.core.policy import Policy
from robotrules.crawlers import CRAWLERS, Crawler
from robotrules.errors import SourceError, require

if TYPE_CHECKING:
    import pandas  # type: ignore[import-untyped]

    from robotrules.client import RobotsClient

__all__ = ["AuditSummary", "OverTimeSummary", "audit", "audit_over_time", "beside", "run", "table"]

_R = TypeVar("_R")

Progress = Callable[[int, int], None]
"""Told of the work as it goes: (rows just classified, rows expected in all); first with 0."""

Sources = Archive | Sequence[str | os.PathLike[str]] | str | os.PathLike[str]
"""Captures to audit: an :class:`Archive`, or paths of WARC files, tables of captures or folders."""


@dataclass(frozen=True, slots=True)
class AuditSummary:
    """What one audit found and where it went: counts by verdict and by AI training opt-out
    (sites), and the damaged records of the archives that were skipped."""

    sites: int
    agents: int
    rows: int
    verdicts: dict[str, int]
    training_opt_out: dict[str, int]
    output: str
    report: str | None = None
    skipped: tuple[BadRecord, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data (``robotrules audit --json``)."""
        return {"sites": self.sites, "agents": self.agents, "rows": self.rows, "verdicts": dict(self.verdicts),
                "training_opt_out": dict(self.training_opt_out), "output": self.output, "report": self.report,
                "bad_records": len(self.skipped), "skipped": [bad.to_dict() for bad in self.skipped]}

    def __str__(self) -> str:
        parts = ", ".join(f"{count} {name}" for name, count in Counter(self.verdicts).most_common())
        training = ", ".join(f"{count} {name}" for name, count in self.training_opt_out.items() if count)
        return (f"audited {self.sites} site{'s' if self.sites != 1 else ''} for {self.agents} "
                f"crawler{'s' if self.agents != 1 else ''}: {parts or 'nothing'}{skipped_note(self.skipped)}"
                + (f"; AI training opt-out by site: {training}" if training else "")
                + f" -> {self.output}" + (f" and {self.report}" if self.report else ""))


@dataclass(frozen=True, slots=True)
class OverTimeSummary:
    """What an audit of several crawls found: per crawl its sites, rows, verdicts and opt-outs,
    the changes between consecutive crawls by kind, and the three tables written."""

    crawls: list[dict[str, Any]]
    agents: int
    rows: int
    changes: int
    changed: dict[str, int]
    output: str
    trends: str
    changes_output: str
    report: str | None = None
    skipped: tuple[BadRecord, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data (``robotrules audit --crawl ... --json``)."""
        return {"crawls": self.crawls, "agents": self.agents, "rows": self.rows, "changes": self.changes,
                "changed": dict(self.changed), "output": self.output, "trends": self.trends,
                "changes_output": self.changes_output, "report": self.report, "bad_records": len(self.skipped),
                "skipped": [record.to_dict() for record in self.skipped]}

    def __str__(self) -> str:
        crawled = ", ".join(f"{entry['crawl']} {entry['sites']} site{'s' if entry['sites'] != 1 else ''}"
                            for entry in self.crawls)
        what = ", ".join(f"{count} {name}" for name, count in Counter(self.changed).most_common())
        paths = (self.output, self.trends, self.changes_output)
        return (f"audited {len(self.crawls)} crawl{'s' if len(self.crawls) != 1 else ''} ({crawled}) for "
                f"{self.agents} crawler{'s' if self.agents != 1 else ''}: {self.changes} change"
                f"{'s' if self.changes != 1 else ''} between crawls" + (f" ({what})" if what else "")
                + skipped_note(self.skipped) + f" -> {', '.join(paths)}"
                + (f" and {self.report}" if self.report else ""))


def beside(path: str, name: str) -> str:
    """The path of a table written beside ``path``: ``audit.csv.gz`` -> ``audit.<name>.csv.gz``."""
    lower = path.lower()
    for suffix in sorted(OUTPUT_SUFFIXES, key=len, reverse=True):
        if lower.endswith(suffix):
            return f"{path[:len(path) - len(suffix)]}.{name}{path[len(path) - len(suffix):]}"
    return f"{path}.{name}"


def _check_paths(output_path: str, report_path: str | None, sources: Iterable[object]) -> None:
    """Every path checked before any work: the output's format, the report's suffix, the folders
    written to, and the kind of each capture file (a folder's files are checked when read)."""
    output_format(output_path)
    for given in sources:
        if isinstance(given, (str, os.PathLike)) and not os.path.isdir(given):
            source_kind(os.fspath(given))
    if report_path is not None and not report_path.lower().endswith((".html", ".htm")):
        raise SourceError(f"the report is an HTML file: its name must end in .html, not {report_path!r}")
    for path in (output_path, report_path):
        if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            raise SourceError(f"cannot write {path}: the folder {os.path.dirname(os.path.abspath(path))} "
                              "does not exist")


def _site_count(archive: Archive, sites: Sequence[str] | None) -> int:
    return len(sites) if sites is not None else sum(1 for _ in archive.robots_urls())


_CHUNK = 8192
"""Rows written (and counted) at a time when an audit streams to its output."""


def _told(rows: Iterator[Row], total: int, progress: Progress | None) -> Iterator[Row]:
    """``rows``, ``progress`` told of each as it passes (first with 0: the rows expected)."""
    if progress is None:
        return rows

    def told() -> Iterator[Row]:
        progress(0, total)
        for row in rows:
            yield row
            progress(1, total)

    return told()


def _frame(rows: Iterator[Row]) -> Any:
    """The audit table of ``rows``, whole (for :func:`table`, the report, several crawls)."""
    pandas: Any = require("pandas", "batch")
    return typed(pandas.DataFrame.from_records(list(rows), columns=list(AUDIT_COLUMNS)))


def _streamer(output: str, kept: list[Row] | None = None) -> Callable[[Iterator[Row]], Tally]:
    """A consumer that writes rows to ``output`` a chunk at a time, counting them as they go:
    memory holds one chunk, whatever the size of the audit (unless ``kept``, a list the rows are
    also added to: for the report). The first chunk is made before the file is, so a source
    that fails at once leaves no file."""

    def stream(rows: Iterator[Row]) -> Tally:
        tally = Tally()
        chunk = list(itertools.islice(rows, _CHUNK))
        with RowWriter(output, fields=AUDIT_FIELDS, repeated_text=True) as writer:
            while chunk:
                writer.write(chunk)
                tally.add(chunk)
                if kept is not None:
                    kept.extend(chunk)
                chunk = list(itertools.islice(rows, _CHUNK))
        return tally

    return stream


def _local(robots: Sources | None, consume: Callable[[Iterator[Row]], _R], *, what: str, agents: tuple[str, ...],
           sites: Sequence[str] | None, registry: Sequence[Crawler], processes: int | None, index: str | None,
           client: RobotsClient | None, mode: str, refresh: bool, skip_bad_records: bool,
           progress: Progress | None) -> tuple[_R, tuple[BadRecord, ...]]:
    """One audit on the local engine, its rows handed to ``consume``: of ``robots`` (captures),
    else of ``sites`` fetched through ``client``; with the damaged records skipped."""
    if robots is None:
        if client is None:
            raise ValueError("give the robots.txt captures or the sites to fetch live")
        rows = audit_rows(client, agents, sites=sites, registry=registry, mode=mode, processes=processes,
                          refresh=refresh)
        return consume(_told(rows, len(sites or ()) * len(agents), progress)), ()
    if isinstance(robots, Archive):
        archive, owned = robots, False
    else:
        paths = [robots] if isinstance(robots, (str, os.PathLike)) else list(robots)
        archive, owned = archive_of([os.fspath(path) for path in paths], index=index,
                                    skip_bad_records=skip_bad_records), True
    try:
        count = _site_count(archive, sites)
        if count == 0:
            raise SourceError(f"no robots.txt captures to audit in {what}")
        rows = audit_rows(archive, agents, sites=sites, registry=registry, mode=mode, processes=processes)
        return consume(_told(rows, count * len(agents), progress)), tuple(archive.bad_records)
    finally:
        if owned:
            archive.close()  # a temporary index on disk goes with it


def _one_crawl(robots: Sources | None, *, what: str, agents: tuple[str, ...], sites: Sequence[str] | None,
               registry: Sequence[Crawler], engine: str, processes: int | None, index: str | None,
               client: RobotsClient | None, mode: str, refresh: bool, skip_bad_records: bool,
               progress: Progress | None) -> Any:
    """The table of one audit, whole: of ``robots`` (captures), else of ``sites`` fetched through ``client``."""
    if engine == engines.LOCAL:
        frame, bad = _local(robots, _frame, what=what, agents=agents, sites=sites, registry=registry,
                            processes=processes, index=index, client=client, mode=mode, refresh=refresh,
                            skip_bad_records=skip_bad_records, progress=progress)
        return with_skipped(frame, bad)
    from pathlib import Path

    source: Any = client
    if robots is not None:
        paths = [robots] if isinstance(robots, (str, os.PathLike)) else robots
        if isinstance(paths, Archive):
            raise ValueError(f"the {engine!r} engine reads capture files itself: give their paths, not an Archive")
        source = [Path(path) for path in paths]
    frame = table(source, agents, sites=sites, registry=registry, mode=mode, engine=engine, refresh=refresh,
                  skip_bad_records=skip_bad_records)
    if frame.empty and sites is None:
        raise SourceError(f"no robots.txt captures to audit in {what}")
    return frame


def _what(robots: Sources | None) -> str:
    if robots is None or isinstance(robots, Archive):
        return "the index" if isinstance(robots, Archive) else "the sites"
    paths = [robots] if isinstance(robots, (str, os.PathLike)) else robots
    return ", ".join(os.fspath(path) for path in paths)


def run(output_path: str | os.PathLike[str], robots: Sources | None = None, *, sites: Sequence[str] | None = None,
        crawls: Mapping[str, Sequence[str | os.PathLike[str]]] | None = None, agents: Sequence[str] | None = None,
        registry: Sequence[Crawler] | None = None, report_path: str | os.PathLike[str] | None = None,
        engine: str = "local", processes: int | None = None, index: str | os.PathLike[str] | None = None,
        client: RobotsClient | None = None, mode: str = "google", refresh: bool = False,
        skip_bad_records: bool = False, progress: Progress | None = None) -> AuditSummary | OverTimeSummary:
    """Audit and write: the table to ``output_path`` (its format from its suffix), with
    ``report_path`` an HTML report, and return the summary; :func:`table` gives the table alone.

    The captures are ``robots`` (paths of WARC files, tables of captures or folders; or an
    :class:`Archive`), every robots.txt they hold or those of ``sites``; without them, the
    ``sites`` are fetched live through ``client``. ``crawls`` (label -> paths) audits each crawl
    as ``robots`` would, every capture judged as of its own time, and writes the table with a
    ``crawl`` column plus its trends and changes beside it (:func:`beside`), returning an
    :class:`OverTimeSummary`. ``progress`` (local engine): see :data:`Progress`.

    :class:`~robotrules.errors.SourceError` for a source or path that cannot be used (before any
    file is written), :class:`~robotrules.errors.DamagedArchive` for a damaged archive (unless
    ``skip_bad_records``), OSError when a file cannot be written.
    """
    output = os.fspath(output_path)
    report = os.fspath(report_path) if report_path is not None else None
    given = [robots] if isinstance(robots, (str, os.PathLike)) else [] if robots is None or isinstance(robots, Archive) \
        else list(robots)
    _check_paths(output, report, [*given, *(path for paths in (crawls or {}).values() for path in paths)])
    if crawls and robots is not None:
        raise ValueError("give the captures either as robots (one audit) or as crawls (one per crawl), not both")
    registry = tuple(registry) if registry is not None else CRAWLERS
    names = tuple(agents) if agents else default_agents(registry)
    wanted = list(sites) if sites is not None else None
    settings: dict[str, Any] = {"agents": names, "sites": wanted, "registry": registry, "engine": engine,
                                "processes": processes, "client": client, "mode": mode,
                                "skip_bad_records": skip_bad_records, "progress": progress}
    if crawls:
        return _over_time(output, report, crawls, settings)
    what, folder = _what(robots), os.fspath(index) if index is not None else None
    if engine == engines.LOCAL:  # the table streams to the file; the report alone keeps its rows
        del settings["engine"]
        kept: list[Row] | None = [] if report is not None else None
        tally, bad = _local(robots, _streamer(output, kept), what=what, index=folder, refresh=refresh, **settings)
        if report is not None and kept is not None:
            from robotrules.batch.audit.report.page import write_report

            write_report(with_skipped(_frame(iter(kept)), bad), report)
        return AuditSummary(tally.sites, tally.agents, tally.rows, dict(tally.verdicts.most_common()),
                            tally.opt_outs(), output, report, bad)
    frame = _one_crawl(robots, what=what, index=folder, refresh=refresh, **settings)
    write_frame(frame, output)
    if report is not None:
        from robotrules.batch.audit.report.page import write_report

        write_report(frame, report)
    verdicts = Counter(str(v) for v in frame["verdict"])
    return AuditSummary(int(frame["site"].nunique()), int(frame["agent"].nunique()), len(frame),
                        dict(verdicts.most_common()), opt_out_counts(frame), output, report, tuple(skipped_of(frame)))


def _over_time(output: str, report: str | None, crawls: Mapping[str, Sequence[str | os.PathLike[str]]],
               settings: dict[str, Any]) -> OverTimeSummary:
    """:func:`run` of several crawls: one audit each, combined, written as three tables."""
    tables: list[tuple[str, Any]] = []
    bad: list[BadRecord] = []
    for label, paths in crawls.items():
        frame = _one_crawl(list(paths), what=f"crawl {label}: " + ", ".join(os.fspath(path) for path in paths), index=None,
                           refresh=False, **settings)
        bad.extend(skipped_of(frame))
        tables.append((label, frame))
    combined = labelled(tables)
    found, moved = trends(combined), changes(combined)
    paths = (output, beside(output, "trends"), beside(output, "changes"))
    for frame, path in zip((combined, found, moved), paths, strict=True):
        write_frame(frame, path)
    if report is not None:
        from robotrules.batch.audit.report.page import write_report

        write_report(combined, report, bad_records=bad)
    per_crawl = []
    for label in crawls_of(combined):
        mine = combined[combined["crawl"] == label]
        per_crawl.append({"crawl": label, "sites": int(mine["site"].nunique()), "rows": len(mine),
                          "verdicts": dict(Counter(str(v) for v in mine["verdict"])),
                          "training_opt_out": opt_out_counts(mine)})
    kinds = Counter(str(change) for change in moved["change"] if change)
    kinds.update(str(change) for change in moved["train_ai_change"] if change)
    return OverTimeSummary(per_crawl, int(combined["agent"].nunique()), len(combined), len(moved),
                           dict(kinds.most_common()), *paths, report, tuple(bad))


def table(
    source: Archive | RobotsClient | Iterable[str] | str | os.PathLike[str] | Sequence[os.PathLike[str]],
    agents: Sequence[str] | None = None,
    *,
    sites: Iterable[str] | None = None,
    registry: Sequence[Crawler] | None = None,
    policy: Policy | None = None,
    mode: str = "google",
    now: float | None = None,
    processes: int | None = None,
    index: str | os.PathLike[str] | None = None,
    engine: str = "local",
    refresh: bool = False,
    skip_bad_records: bool = False,
) -> pandas.DataFrame:
    """Audit robots.txt policies: one row per site and agent, with the columns :data:`AUDIT_COLUMNS`.

    ``source``: a path (a WARC file, a table of captures or a folder of them; several as a list
    of ``pathlib.Path``), an
    :class:`~robotrules.batch.captures.archive.Archive` (every robots.txt it captured, or
    those of ``sites``; replayed by the fetch policy as of each capture's time, or ``now``), a
    :class:`~robotrules.client.RobotsClient` (the robots.txt of ``sites``, fetched live through
    its cache), or an iterable of site URLs (fetched live by a new client; ``policy`` applies).
    A site is any URL of it, or a bare host name (then https). ``agents``: tokens or User-Agent
    strings (default: the registry's crawlers by name, and ``*``). ``registry``: crawlers that name the
    operator and purpose of an agent (default: the built-in one). ``refresh``: live robots.txt
    files are fetched again, however fresh their cached copies. ``index``: for a path, where to
    keep (and reuse) the index of its captures on disk (see
    :func:`~robotrules.batch.captures.keeping.archive_of`). Needs ``robotrules[batch]``.

    A damaged capture file (cut short, a corrupt gzip member) raises
    :class:`~robotrules.errors.DamagedArchive`, naming the file and the byte where the
    damage starts, rather than leaving its sites out; with ``skip_bad_records`` its damaged
    records are skipped and noted in ``frame.attrs["bad_records"]`` (see
    :func:`~robotrules.batch.inputs.files.with_skipped`; :func:`robotrules.batch.audit.report.page.write_report`
    shows them), for either engine.

    ``engine="spark"`` classifies the sites on Apache Spark (:func:`robotrules.spark.audit`, in a
    local session unless one is running) with the same code and gives the same rows, sorted by
    site (in the order of ``sites`` when given) and agent. It reads capture files in the
    executors (an :class:`~robotrules.batch.captures.archive.Archive` object cannot be used) and fetches
    live sites there, through a client like ``source``'s on the same store (a SQLite file, Redis,
    or memory: see :func:`robotrules.spark.audit`); ``processes`` and ``index`` are the local
    engine's. Needs ``robotrules[spark]``.
    """
    pd: Any = require("pandas", "batch")
    if engine != engines.LOCAL:
        if index is not None:
            raise ValueError(f"index is for the local engine: the {engine!r} engine reads the captures itself")
        job = engines.AuditJob(source, agents, sites, registry, policy, mode, now, refresh, skip_bad_records)
        return typed(engines.get(engine).audit(job))
    paths = capture_paths(source)
    if paths is not None:
        from robotrules.batch.captures.keeping import archive_of

        source = archive_of(paths, index=index, skip_bad_records=skip_bad_records)
    rows = list(audit_rows(source, agents, sites=sites, registry=registry, policy=policy, mode=mode, now=now,
                           processes=processes, refresh=refresh))
    from robotrules.batch.inputs.files import with_skipped

    frame = typed(pd.DataFrame.from_records(rows, columns=list(AUDIT_COLUMNS)))
    return with_skipped(frame, source.bad_records if isinstance(source, Archive) else ())



def audit_over_time(
    crawls: Mapping[str, str | os.PathLike[str] | Sequence[os.PathLike[str]] | Archive] | Iterable[tuple[str, Any]],
    agents: Sequence[str] | None = None,
    *,
    sites: Iterable[str] | None = None,
    registry: Sequence[Crawler] | None = None,
    mode: str = "google",
    engine: str = "local",
    processes: int | None = None,
    skip_bad_records: bool = False,
) -> OverTime:
    """Audit each crawl (label -> its captures: a path, a list of ``pathlib.Path``, or an
    :class:`~robotrules.batch.captures.archive.Archive` for the local engine) with
    :func:`robotrules.batch.audit.workflow.audit` on ``engine``, every capture judged as of its own time,
    then combine: :class:`OverTime` (the labelled rows, :func:`trends`, :func:`changes`).
    ``sites``: only these sites, in every crawl (a site never captured in a crawl is ``unknown``
    there, as :func:`~robotrules.batch.audit.workflow.audit` says). Needs ``robotrules[batch]``."""
    pairs = list(crawls.items()) if isinstance(crawls, Mapping) else list(crawls)
    wanted = list(sites) if sites is not None else None
    tables = [(label, table(source, agents, sites=wanted, registry=registry, mode=mode, engine=engine,
                            processes=processes, skip_bad_records=skip_bad_records)) for label, source in pairs]
    combined = labelled(tables)
    return OverTime(combined, trends(combined), changes(combined))


def audit(*args: Any, **kwargs: Any) -> pandas.DataFrame:
    """Deprecated alias of :func:`table` (removed in 0.4.0)."""
    warnings.warn("robotrules.batch.audit.audit() is deprecated and will be removed in 0.4.0: "
                  "use robotrules.batch.audit.table()", DeprecationWarning, stacklevel=2)
    return table(*args, **kwargs)
