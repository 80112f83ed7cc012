"""``robotrules audit``: which crawlers each site blocks, entirely or partly, as a table and a report.

Reads robots.txt captures (``--robots``: WARC files, tables of captures, folders of them) or, without
them, the live robots.txt files of ``--sites`` through the shared cache; classifies each site for
each agent (:mod:`robotrules.batch.audit`), writes the table to ``--output`` and, with ``--report``,
a self-contained HTML report (:mod:`robotrules.batch.report`). ``--engine spark`` classifies on
Apache Spark (:func:`robotrules.batch.audit.audit` with ``engine="spark"``); the table is collected
and written, and the report made, here, as for the local engine. ``--crawl LABEL=SOURCE`` audits several
crawls, each as ``--robots`` would, then combines them (:mod:`robotrules.batch.trends`): the
table with a ``crawl`` column, the trends and changes tables beside it, and the report's trends.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import click

from robotrules.cli import _options as options
from robotrules.cli._errors import EXIT_OK, InputError, engine_error
from robotrules.cli._sources import damaged_archive

__all__ = ["audit"]

HELP = """Audit which crawlers sites block, entirely or partly, and write a table and a report.

For each site and each crawler the verdict is one of: blocked (the crawler may fetch nothing
but robots.txt), partly (some pages are closed to it), allowed (nothing is closed to it),
no-robots (robots.txt answered 4xx: everything allowed), unreachable (5xx or no answer:
everything blocked) or unknown (robots.txt not captured or not fetched). Each row also gives the
crawl delay, sitemaps, content signals and whether the file names the crawler.

AI training: each row gives the crawler's train-ai preference for the site's home page (from
Content-Usage and Content-Signal ai-train; empty when unknown or the page may not be crawled),
and, for AI training crawlers, how the site opts them out: robots.txt (blocked entirely, or
partly by a group that names the crawler), train-ai=n, both, neither, or unknown (robots.txt
could not be read). The summary counts the sites in each way; the report has a view per purpose.

robots.txt files come from --robots (repeatable): WARC files of robots.txt captures (.warc,
.warc.gz), tables of captures (.parquet, .csv, .jsonl) or folders of them; every robots.txt they
hold is audited, or only those of --sites. Without --robots, the sites of --sites (a list of URLs
or host names, or a table with a 'url' column) are fetched live through the shared cache.
A damaged archive (a file cut short, a corrupt gzip member) is an error naming the file and the
byte; --skip-bad-records goes on without the damaged records and counts them in the summary and
the report.

Crawlers: --agent (repeatable), else every crawler of the built-in registry (by name) and '*'
(any other crawler). --registry FILE adds crawlers (a known name is replaced) from a JSON or
CSV file with the fields name or token, operator, purpose, kind, source (the form `robotrules
crawlers --format json` writes), or ai.robots.txt's robots.json.

The table goes to --output (.parquet, .csv, .jsonl, or .csv.gz, .jsonl.gz); --report writes one
HTML page with plots and tables that opens offline.

Opt-outs over time: --crawl LABEL=SOURCE (repeatable; the same LABEL again adds more files to
that crawl) audits each crawl's captures as --robots does, every capture judged as of its own
time, and writes the table with a 'crawl' column first, plus two tables beside it, named after
--output: NAME.trends.EXT (per crawl, each crawler's and each purpose's sites blocking entirely
and partly, their shares, and the AI training opt-outs by robots.txt, train-ai=n, both) and
NAME.changes.EXT (the sites that started or stopped blocking a crawler, or started or stopped
saying train-ai=n, between consecutive crawls, with the rule lines that changed; a site missing
from a crawl is 'not captured' there, not 'stopped blocking'). The report draws the trends and
lists the changed sites, then shows the latest crawl.

--engine spark makes the same table on Apache Spark in local mode (robotrules[spark] and Java):
its executors read the captures, or fetch the sites through the same cache.

Exit code: 0 done, 2 a usage or input error, or a failed engine (a Spark task that raised:
one line; --debug shows the full error).

\b
Examples:
  robotrules audit --robots robots.warc.gz --output audit.parquet --report audit.html
  robotrules audit --sites sites.txt -a GPTBot -a CCBot --output audit.csv
  robotrules audit --robots captures/ --registry my-crawlers.csv --output audit.jsonl
  robotrules audit --crawl CC-MAIN-2024-10=2024-10/ --crawl CC-MAIN-2024-22=a.warc.gz \\
      --crawl CC-MAIN-2024-22=b.warc.gz --output audit.parquet --report audit.html
"""


@click.command("audit", help=HELP, short_help="Audit which crawlers sites block, as a table and an HTML report.")
@click.option("--robots", "robots", metavar="SOURCE", multiple=True,
              help="robots.txt captures: a WARC file, a table of captures or a folder (repeatable). "
                   "Default: fetch the sites of --sites live through the cache.")
@click.option("--crawl", "crawls", metavar="LABEL=SOURCE", multiple=True,
              help="One crawl's robots.txt captures, labelled (a crawl id such as CC-MAIN-2024-10, or a date): "
                   "LABEL=a WARC file, a table of captures or a folder (repeatable; the same LABEL again adds "
                   "files to that crawl). Audits every crawl and writes trends and changes between them "
                   "beside --output.")
@options.index_option
@options.cc_index_options
@options.skip_bad_records_option
@click.option("--sites", "sites_file", metavar="FILE", default=None,
              help="The sites: one URL or host name a line, or a .parquet, .csv or .jsonl table with a 'url' column.")
@click.option("--agent", "-a", "agent", multiple=True, metavar="AGENT",
              help="A crawler to audit (repeatable): a product token or a User-Agent string. "
                   "Default: every crawler of the registry, and '*'.")
@options.registry_option
@click.option("--output", "-o", "output_path", metavar="FILE", required=True,
              help="Where the table goes: .parquet, .csv, .jsonl (or .csv.gz, .jsonl.gz).")
@click.option("--report", "report_path", metavar="FILE", default=None, help="Also write an HTML report to FILE.")
@options.engine_options("one per core for large audits")
@options.fetch_options
@options.mode_option
@click.option("--json", "as_json", is_flag=True, help="The summary as one JSON object.")
@options.progress_option
def audit(robots: tuple[str, ...], crawls: tuple[str, ...], sites_file: str | None, agent: tuple[str, ...],
          registry_file: str | None, output_path: str, report_path: str | None, engine: str, processes: int | None,
          **params: Any) -> int:
    """Exit code 0 when the table (and report) were written."""
    from robotrules.batch.archives import archive_of
    from robotrules.batch.sources import DamagedArchive, SourceError, source_kind, with_skipped
    from robotrules.batch.tables import output_format

    out = options.output(params)
    labelled = _crawls(crawls)
    if labelled and robots:
        raise click.UsageError("give the captures either by --robots (one audit) or by --crawl (one per crawl), "
                               "not both")
    if labelled and params.get("index") is not None:
        raise click.UsageError("--index keeps the index of one set of --robots captures: it cannot be used "
                               "with --crawl")
    if labelled:
        robots = tuple(path for paths in labelled.values() for path in paths)
    try:
        output_format(output_path)
        for given in robots:
            if not os.path.isdir(given):
                source_kind(given)
    except SourceError as exc:
        raise InputError(str(exc)) from None
    if report_path is not None and not report_path.lower().endswith((".html", ".htm")):
        raise click.BadParameter(f"the report is an HTML file: its name must end in .html, not {report_path!r}",
                                 param_hint="'--report'")
    for path in (output_path, report_path):
        if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            raise InputError(f"cannot write {path}: the folder {os.path.dirname(os.path.abspath(path))} does not exist")
    archived = bool(robots or params["cc_index"])
    if archived and (params["refresh"] or params["no_cache"] or params["cache"] or params["redis"]):
        raise click.UsageError("--cache, --redis, --no-cache and --refresh are for live fetching: "
                               f"they cannot be used with {'--robots' if robots else '--cc-index'}")
    if not archived and sites_file is None:
        raise click.UsageError("give the robots.txt captures (--robots) or the sites to fetch live (--sites)")
    if params["cc_index"] and engine != "local":
        raise click.UsageError("--cc-index is for the local engine: give Spark the WARC files with --robots")
    if labelled and params["cc_index"]:
        raise click.UsageError("--crawl takes whole archives: give each crawl's files as LABEL=SOURCE, not --cc-index")
    skip_bad_records = bool(params["skip_bad_records"])
    if skip_bad_records and not archived:
        raise click.UsageError("--skip-bad-records is for the archives of --robots: give --robots too")
    index = options.index_path(params, robots, engine)
    agents = _agents(agent)
    registry = options.registry(registry_file)
    sites = _sites(sites_file) if sites_file is not None else None
    if sites is not None and not sites:
        raise InputError(f"no sites to audit: {sites_file} is empty")
    if labelled:
        return _over_time(out, labelled, agents, sites, registry, output_path, report_path, engine, processes,
                          params.get("mode", "google"), skip_bad_records)
    fetching = None
    archive = None
    source: Any
    try:
        if engine == "spark":
            fetching = None if robots else options.fetching(params)
            frame = _spark(robots, fetching, agents, sites, registry, params.get("mode", "google"), skip_bad_records)
            if frame.empty and sites is None:
                raise InputError("no robots.txt captures to audit in " + ", ".join(robots))
        else:
            picked = options.cc_archive(params, robots, engine, lambda: _site_urls(sites), skip_bad_records)
            if picked is not None:
                source = archive = picked
                count = len(sites) if sites is not None else sum(1 for _ in source.robots_urls())
                if count == 0:
                    raise InputError("no robots.txt captures of those sites in the index: "
                                     + ", ".join(params["cc_index"]))
            elif robots:
                source = archive = archive_of(list(robots), index=index, skip_bad_records=skip_bad_records)
                count = len(sites) if sites is not None else sum(1 for _ in source.robots_urls())
                if count == 0:
                    raise InputError("no robots.txt captures to audit in " + ", ".join(robots))
            else:
                fetching = options.fetching(params)
                source = fetching.client
                count = len(sites or ())
            frame = _run(out, source, agents, sites, registry, params.get("mode", "google"), processes, count,
                         fetching is not None and fetching.refresh)
            with_skipped(frame, archive.bad_records if archive is not None else ())
    except DamagedArchive as exc:
        raise damaged_archive(str(exc)) from None
    except SourceError as exc:
        raise InputError(str(exc)) from None
    finally:
        if fetching is not None:
            fetching.close()
        if archive is not None:
            archive.close()  # a temporary index on disk goes with it
    _write(frame, output_path)
    if report_path is not None:
        from robotrules.batch.report import write_report

        write_report(frame, report_path)
    _summary(out, frame, output_path, report_path)
    return EXIT_OK


def _site_urls(sites: list[str] | None) -> list[str]:
    """The robots.txt URLs of ``sites`` (those that have one), whose captures ``--cc-index`` reads."""
    if not sites:
        raise click.UsageError("--cc-index reads the captures of the sites asked about: give --sites or --host")
    from robotrules.batch.audit import site_keys

    return [key for key in site_keys(sites) if not key.startswith("!")]


def _crawls(given: tuple[str, ...]) -> dict[str, list[str]]:
    """The ``--crawl LABEL=SOURCE`` options as label -> sources, labels in the order first given."""
    found: dict[str, list[str]] = {}
    for text in given:
        label, equals, source = text.partition("=")
        label, source = label.strip(), source.strip()
        if not equals or not label or not source:
            raise click.BadParameter(f"{text!r} is not LABEL=SOURCE (a crawl's label, '=', its captures: "
                                     "CC-MAIN-2024-10=robots.warc.gz)", param_hint="'--crawl'")
        found.setdefault(label, []).append(source)
    return found


def beside(path: str, name: str) -> str:
    """The path of a table written beside ``path``: ``audit.csv.gz`` -> ``audit.<name>.csv.gz``."""
    from robotrules.batch.tables import OUTPUT_SUFFIXES

    lower = path.lower()
    for suffix in sorted(OUTPUT_SUFFIXES, key=len, reverse=True):
        if lower.endswith(suffix):
            return f"{path[:len(path) - len(suffix)]}.{name}{path[len(path) - len(suffix):]}"
    return f"{path}.{name}"


def _over_time(out: Any, crawls: dict[str, list[str]], agents: tuple[str, ...] | None, sites: list[str] | None,
               registry: Any, output_path: str, report_path: str | None, engine: str, processes: int | None,
               mode: str, skip_bad_records: bool) -> int:
    """``--crawl``: one audit per crawl (as ``--robots``, either engine), then combined and written."""
    from robotrules.batch.archives import archive_of
    from robotrules.batch.sources import DamagedArchive, SourceError, skipped_of, with_skipped
    from robotrules.batch.trends import changes, labelled, trends

    tables: list[tuple[str, Any]] = []
    bad: list[Any] = []
    for label, paths in crawls.items():
        try:
            if engine == "spark":
                frame = _spark(tuple(paths), None, agents, sites, registry, mode, skip_bad_records)
            else:
                archive = archive_of(list(paths), skip_bad_records=skip_bad_records)
                try:
                    count = len(sites) if sites is not None else sum(1 for _ in archive.robots_urls())
                    if count == 0:
                        raise InputError(f"no robots.txt captures to audit in crawl {label}: " + ", ".join(paths))
                    frame = _run(out, archive, agents, sites, registry, mode, processes, count, False)
                    with_skipped(frame, archive.bad_records)
                finally:
                    archive.close()
        except DamagedArchive as exc:
            raise damaged_archive(str(exc)) from None
        except SourceError as exc:
            raise InputError(str(exc)) from None
        if frame.empty and sites is None:
            raise InputError(f"no robots.txt captures to audit in crawl {label}: " + ", ".join(paths))
        bad.extend(skipped_of(frame))
        tables.append((label, frame))
    combined = labelled(tables)
    found, moved = trends(combined), changes(combined)
    trends_path, changes_path = beside(output_path, "trends"), beside(output_path, "changes")
    for frame, path in ((combined, output_path), (found, trends_path), (moved, changes_path)):
        _write(frame, path)
    if report_path is not None:
        from robotrules.batch.report import write_report

        write_report(combined, report_path, bad_records=bad)
    _over_time_summary(out, combined, moved, bad, (output_path, trends_path, changes_path), report_path)
    return EXIT_OK


def _over_time_summary(out: Any, combined: Any, moved: Any, bad: list[Any], paths: tuple[str, str, str],
                       report_path: str | None) -> None:
    from robotrules.batch import skipped_note
    from robotrules.batch.purposes import opt_out_counts
    from robotrules.batch.trends import crawls_of

    per_crawl = []
    for label in crawls_of(combined):
        mine = combined[combined["crawl"] == label]
        per_crawl.append({"crawl": label, "sites": int(mine["site"].nunique()), "rows": len(mine),
                          "verdicts": dict(Counter(str(v) for v in mine["verdict"])),
                          "training_opt_out": opt_out_counts(mine)})
    kinds = Counter(str(change) for change in moved["change"] if change)
    kinds.update(str(change) for change in moved["train_ai_change"] if change)
    agents = int(combined["agent"].nunique())
    if out.as_json:
        out.json({"crawls": per_crawl, "agents": agents, "rows": len(combined), "changes": len(moved),
                  "changed": dict(kinds), "output": paths[0], "trends": paths[1], "changes_output": paths[2],
                  "report": report_path, "bad_records": len(bad), "skipped": [record.to_dict() for record in bad]})
        return
    crawled = ", ".join(f"{entry['crawl']} {entry['sites']} site{'s' if entry['sites'] != 1 else ''}"
                        for entry in per_crawl)
    what = ", ".join(f"{count} {name}" for name, count in kinds.most_common())
    out.echo(f"audited {len(per_crawl)} crawl{'s' if len(per_crawl) != 1 else ''} ({crawled}) for {agents} "
             f"crawler{'s' if agents != 1 else ''}: {len(moved)} change"
             f"{'s' if len(moved) != 1 else ''} between crawls" + (f" ({what})" if what else "") + skipped_note(bad)
             + f" -> {', '.join(paths)}" + (f" and {report_path}" if report_path else ""))


def _agents(given: tuple[str, ...]) -> tuple[str, ...] | None:
    return options.agents(given, None) if given else None


def _sites(path: str) -> list[str]:
    from robotrules.batch.sources import SourceError
    from robotrules.batch.tables import read_urls

    try:
        return list(dict.fromkeys(url for url, _ in read_urls(path)))
    except SourceError as exc:
        raise InputError(str(exc)) from None


def _run(out: Any, source: Any, agents: tuple[str, ...] | None, sites: list[str] | None, registry: Any, mode: str,
         processes: int | None, count: int, refresh: bool) -> Any:
    from robotrules.batch.audit import AUDIT_COLUMNS, audit_rows, default_agents, typed
    from robotrules.errors import require

    pandas: Any = require("pandas", "batch")
    names = agents or default_agents(registry)
    rows = audit_rows(source, names, sites=sites, registry=registry, mode=mode, processes=processes, refresh=refresh)
    with out.progressing(rows, count * len(names), "auditing", "rows", streams_results=False) as shown:
        records = list(shown)
    return typed(pandas.DataFrame.from_records(records, columns=list(AUDIT_COLUMNS)))


def _spark(robots: tuple[str, ...], fetching: Any, agents: tuple[str, ...] | None, sites: list[str] | None,
           registry: Any, mode: str, skip_bad_records: bool) -> Any:
    """The audit table made on Spark in local mode: the capture files read by its executors, or
    the sites fetched there through clients like the command's own (its cache, timeout, User-Agent)."""
    from pathlib import Path

    from robotrules.batch.audit import audit
    from robotrules.batch.sources import DamagedArchive

    source = [Path(path) for path in robots] if robots else fetching.client
    try:
        return audit(source, agents, sites=sites, registry=registry, mode=mode, engine="spark",
                     refresh=fetching is not None and fetching.refresh, skip_bad_records=skip_bad_records)
    except DamagedArchive:
        raise
    except ValueError as exc:  # a source or a cache the executors cannot use
        raise InputError(str(exc)) from None
    except Exception as exc:  # a task that raised, a JVM that died: one line (--debug: all)
        raise engine_error("spark", exc) from exc


def _write(frame: Any, path: str) -> None:
    from robotrules.batch.tables import csv_frame, output_format

    fmt = output_format(path)
    try:
        if fmt == "parquet":
            from robotrules.errors import require

            require("pyarrow", "batch")
            frame.to_parquet(path, index=False)
        elif fmt == "csv":
            csv_frame(frame).to_csv(path, index=False)  # no cell a spreadsheet runs as a formula
        else:
            frame.to_json(path, orient="records", lines=True)
    except OSError as exc:
        from robotrules.cli._errors import describe_os_error

        raise InputError(describe_os_error(exc, f"cannot write {path}")) from None


def _summary(out: Any, frame: Any, output_path: str, report_path: str | None) -> None:
    from robotrules.batch import skipped_note
    from robotrules.batch.purposes import opt_out_counts
    from robotrules.batch.sources import skipped_of

    sites = int(frame["site"].nunique())
    agents = int(frame["agent"].nunique())
    verdicts = Counter(str(v) for v in frame["verdict"])
    opt_outs = opt_out_counts(frame)
    skipped = skipped_of(frame)
    if out.as_json:
        out.json({"sites": sites, "agents": agents, "rows": len(frame), "verdicts": dict(verdicts),
                  "training_opt_out": opt_outs, "output": output_path, "report": report_path,
                  "bad_records": len(skipped), "skipped": [bad.to_dict() for bad in skipped]})
        return
    parts = ", ".join(f"{count} {name}" for name, count in verdicts.most_common())
    training = ", ".join(f"{count} {name}" for name, count in opt_outs.items() if count)
    out.echo(f"audited {sites} site{'s' if sites != 1 else ''} for {agents} crawler{'s' if agents != 1 else ''}: "
             f"{parts or 'nothing'}{skipped_note(skipped)}"
             + (f"; AI training opt-out by site: {training}" if training else "")
             + f" -> {output_path}" + (f" and {report_path}" if report_path else ""))
