"""``robotrules audit``: which crawlers each site blocks, entirely or partly, as a table and a report.

Reads robots.txt captures (``--robots``: WARC files, tables of captures, folders of them) or, without
them, the live robots.txt files of ``--sites`` through the shared cache; classifies each site for
each agent (:mod:`robotrules.batch.audit`), writes the table to ``--output`` and, with ``--report``,
a self-contained HTML report (:mod:`robotrules.batch.audit.report.page`). ``--engine spark`` classifies on
Apache Spark (:func:`robotrules.batch.audit.workflow.audit` with ``engine="spark"``); the table is collected
and written, and the report made, here, as for the local engine. ``--crawl LABEL=SOURCE`` audits several
crawls, each as ``--robots`` would, then combines them (:mod:`robotrules.batch.audit.over_time`): the
table with a ``crawl`` column, the trends and changes tables beside it, and the report's trends.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import click

from robotrules.cli import _options as options
from robotrules.cli._errors import EXIT_OK, InputError, describe_os_error, engine_error
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
    from robotrules.batch import audit as library
    from robotrules.errors import DamagedArchive, SourceError

    out = options.output(params)
    labelled = _crawls(crawls)
    if labelled and robots:
        raise click.UsageError("give the captures either by --robots (one audit) or by --crawl (one per crawl), "
                               "not both")
    if labelled and params.get("index") is not None:
        raise click.UsageError("--index keeps the index of one set of --robots captures: it cannot be used "
                               "with --crawl")
    if report_path is not None and not report_path.lower().endswith((".html", ".htm")):
        raise click.BadParameter(f"the report is an HTML file: its name must end in .html, not {report_path!r}",
                                 param_hint="'--report'")
    archived = bool(robots or labelled or params["cc_index"])
    if archived and (params["refresh"] or params["no_cache"] or params["cache"] or params["redis"]):
        raise click.UsageError("--cache, --redis, --no-cache and --refresh are for live fetching: "
                               f"they cannot be used with {'--robots' if robots or labelled else '--cc-index'}")
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
    agents = options.agents(agent, None) if agent else None
    registry = options.registry(registry_file)
    sites = _sites(sites_file) if sites_file is not None else None
    if sites is not None and not sites:
        raise InputError(f"no sites to audit: {sites_file} is empty")
    with ExitStack() as stack:
        try:
            source: Any = list(robots) or None
            picked = options.cc_archive(params, robots, engine, lambda: _site_urls(sites), skip_bad_records)
            if picked is not None:
                source = stack.enter_context(picked)
            fetching = None if archived else options.fetching(params)
            if fetching is not None:
                stack.callback(fetching.close)
            summary = library.run(output_path, source, sites=sites, crawls=labelled or None, agents=agents,
                                  registry=registry, report_path=report_path, engine=engine, processes=processes,
                                  index=index, client=fetching.client if fetching is not None else None,
                                  mode=params.get("mode", "google"), refresh=fetching is not None and fetching.refresh,
                                  skip_bad_records=skip_bad_records,
                                  progress=_Bar(out, stack) if engine == "local" else None)
        except DamagedArchive as exc:
            raise damaged_archive(str(exc)) from None
        except (SourceError, ValueError) as exc:  # a source, a path or a cache that cannot be used
            raise InputError(str(exc)) from None
        except OSError as exc:
            raise InputError(describe_os_error(exc, "cannot write the audit")) from None
        except Exception as exc:
            if engine == "local":
                raise
            raise engine_error(engine, exc) from exc  # a task that raised, a JVM that died: one line (--debug: all)
    if out.as_json:
        out.json(summary.to_dict())
    else:
        out.echo(str(summary))
    return EXIT_OK


class _Bar:
    """The command line's progress bar as :func:`robotrules.batch.audit.run` reports progress:
    drawn from its first report (which gives the rows expected), closed with ``stack``."""

    def __init__(self, out: Any, stack: ExitStack) -> None:
        self.out, self.stack = out, stack
        self.advance: Any = None

    def __call__(self, done: int, total: int) -> None:
        if self.advance is None:
            self.advance = self.stack.enter_context(
                self.out.progress_bar(total, "auditing", "rows", streams_results=False))
        if done:
            self.advance(done)


def _site_urls(sites: list[str] | None) -> list[str]:
    """The robots.txt URLs of ``sites`` (those that have one), whose captures ``--cc-index`` reads."""
    if not sites:
        raise click.UsageError("--cc-index reads the captures of the sites asked about: give --sites or --host")
    from robotrules.batch.audit import site_keys

    return [key.robots_url for key in site_keys(sites) if key.robots_url]


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


def _sites(path: str) -> list[str]:
    from robotrules.batch.inputs.tables import read_urls
    from robotrules.errors import SourceError

    try:
        return list(dict.fromkeys(url for url, _ in read_urls(path)))
    except SourceError as exc:
        raise InputError(str(exc)) from None
