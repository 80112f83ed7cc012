"""``robotrules audit``: which crawlers each site blocks, entirely or partly, as a table and a report.

Reads robots.txt captures (``--robots``: WARC files, tables of captures, folders of them) or, without
them, the live robots.txt files of ``--sites`` through the shared cache; classifies each site for
each agent (:mod:`robotrules.batch.audit`), writes the table to ``--output`` and, with ``--report``,
a self-contained HTML report (:mod:`robotrules.batch.report`). ``--engine spark`` classifies on
Apache Spark (:func:`robotrules.batch.audit.audit` with ``engine="spark"``); the table is collected
and written, and the report made, here, as for the local engine.
"""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import click

from robotrules.cli import _options as options
from robotrules.cli._errors import EXIT_OK, InputError
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

--engine spark makes the same table on Apache Spark in local mode (robotrules[spark] and Java):
its executors read the captures, or fetch the sites through the same cache.

Exit code: 0 done, 2 a usage or input error.

\b
Examples:
  robotrules audit --robots robots.warc.gz --output audit.parquet --report audit.html
  robotrules audit --sites sites.txt -a GPTBot -a CCBot --output audit.csv
  robotrules audit --robots captures/ --registry my-crawlers.csv --output audit.jsonl
"""


@click.command("audit", help=HELP, short_help="Audit which crawlers sites block, as a table and an HTML report.")
@click.option("--robots", "robots", metavar="SOURCE", multiple=True,
              help="robots.txt captures: a WARC file, a table of captures or a folder (repeatable). "
                   "Default: fetch the sites of --sites live through the cache.")
@options.index_option
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
def audit(robots: tuple[str, ...], sites_file: str | None, agent: tuple[str, ...], registry_file: str | None,
          output_path: str, report_path: str | None, engine: str, processes: int | None, **params: Any) -> int:
    """Exit code 0 when the table (and report) were written."""
    from robotrules.batch.archives import archive_of
    from robotrules.batch.sources import DamagedArchive, SourceError, source_kind, with_skipped
    from robotrules.batch.tables import output_format

    out = options.output(params)
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
    if robots and (params["refresh"] or params["no_cache"] or params["cache"] or params["redis"]):
        raise click.UsageError("--cache, --redis, --no-cache and --refresh are for live fetching: "
                               "they cannot be used with --robots")
    if not robots and sites_file is None:
        raise click.UsageError("give the robots.txt captures (--robots) or the sites to fetch live (--sites)")
    skip_bad_records = bool(params["skip_bad_records"])
    if skip_bad_records and not robots:
        raise click.UsageError("--skip-bad-records is for the archives of --robots: give --robots too")
    index = options.index_path(params, robots, engine)
    agents = _agents(agent)
    registry = options.registry(registry_file)
    sites = _sites(sites_file) if sites_file is not None else None
    if sites is not None and not sites:
        raise InputError(f"no sites to audit: {sites_file} is empty")
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
            if robots:
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


def _write(frame: Any, path: str) -> None:
    from robotrules.batch.tables import output_format

    fmt = output_format(path)
    try:
        if fmt == "parquet":
            from robotrules.errors import require

            require("pyarrow", "batch")
            frame.to_parquet(path, index=False)
        elif fmt == "csv":
            frame.to_csv(path, index=False)
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
