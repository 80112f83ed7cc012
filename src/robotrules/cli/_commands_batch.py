"""``robotrules batch``: decide a table of URLs for crawlers, against crawl archives or live sites.

Reads URLs (a Parquet, CSV or JSONL table with a ``url`` and an optional ``agent`` column, or one
URL a line; ``-`` for standard input), decides each for each agent against the robots.txt
captures of ``--robots`` (WARC files, tables of captures, folders of them) or, without it, the
live robots.txt files through the shared cache, and writes the rows to ``--output`` (its format
from its name), streaming. The library behind it is :mod:`robotrules.batch`.
"""

from __future__ import annotations

import sys
from contextlib import nullcontext
from typing import Any

import click

from robotrules.cli import _options as options
from robotrules.cli._errors import EXIT_FOUND, EXIT_OK, InputError, engine_error
from robotrules.cli._sources import damaged_archive

__all__ = ["batch"]

HELP = """Decide a table of URLs for crawlers, against crawl archives or live sites.

URLs come from --urls FILE: a Parquet, CSV or JSONL table with a 'url' column and an optional
'agent' column (a row with an agent is decided for that agent only), or a text file with one
URL a line; '-' reads URLs from standard input.

robots.txt files come from --robots (repeatable): WARC files of robots.txt captures (.warc,
.warc.gz, such as Common Crawl's), tables of captures (.parquet, .csv, .jsonl with robots_url,
status, headers, body) or folders of them. Captured answers are judged as live ones are: a 503
disallows everything, a 404 allows everything, redirects are followed to captured targets.
Without --robots, each site's robots.txt is fetched live through the shared cache.
Captures are held in memory, or in a temporary index on disk when the files hold more than
128 MiB; --index PATH keeps that index at PATH and reuses it while the files are unchanged.
Of each captured body the first 512,000 bytes count, as for a live fetch; the reason of rules
from a longer one says the rest was ignored. A damaged archive (a file cut short, a corrupt
gzip member) is an error naming the file and the byte; --skip-bad-records goes on without the
damaged records and counts them in the summary.

The rows go to --output (.parquet, .csv, .jsonl, .csv.gz, .jsonl.gz) with the columns url,
agent, allowed, line, rule, robots_url, robots_status, reason and robots_outcome (what the fetch
of the robots.txt got: with_rules, no_rules, allow_all, forbidden, defer, redirect_unresolved,
not_robots_txt or no_capture), one row for each input row and agent (a row with an empty url is
kept, with the reason "invalid URL"); a summary line follows.
--preferences adds the columns train_ai, search and ai_input: the URL's AI-use preferences for
the agent, from the Content-Usage and Content-Signal lines of its robots.txt (true: allowed,
false: disallowed, empty: unknown, or not applicable because the URL may not be crawled).

Exit code: 0 all allowed, 1 some URL disallowed (or its site unknown to the archive),
2 a usage or input error, or a failed engine (a Spark task that raised: one line; --debug
shows the full error).

\b
Examples:
  robotrules batch --urls urls.txt -a GPTBot -a Googlebot --robots robots.warc.gz --output out.parquet
  robotrules batch --urls frontier.parquet --robots captures/ --output verdicts.csv --processes 8
  robotrules batch --urls frontier.parquet --robots cc-robots/ --index cc-robots.sqlite3 --output out.parquet
  robotrules batch --urls urls.csv -a FooBot --output live.jsonl
  robotrules batch --urls urls.txt -a GPTBot --robots robots.warc.gz --preferences --output out.csv
  robotrules batch --urls urls.parquet --robots robots.warc.gz --output out.parquet --engine spark
  robotrules batch --urls urls.txt -a GPTBot --cc-index cc-index/crawl=CC-MAIN-2024-18/ --output out.csv
"""


@click.command("batch", help=HELP, short_help="Decide a table of URLs against crawl archives or live sites.")
@click.option("--urls", "urls_file", metavar="FILE", required=True,
              help="The URLs: a .parquet, .csv or .jsonl table (url, optional agent), or one URL a line; '-': stdin.")
@options.agent_option
@click.option("--robots", "robots", metavar="SOURCE", multiple=True,
              help="robots.txt captures: a WARC file, a table of captures or a folder (repeatable). "
                   "Default: fetch live through the cache.")
@options.index_option
@options.cc_index_options
@options.skip_bad_records_option
@click.option("--output", "-o", "output_path", metavar="FILE", required=True,
              help="Where the rows go: .parquet, .csv, .jsonl (or .csv.gz, .jsonl.gz).")
@click.option("--preferences", "preferences", is_flag=True,
              help="Add the columns train_ai, search and ai_input: each URL's AI-use preferences for the agent.")
@options.engine_options("one per core")
@options.fetch_options
@options.mode_option
@click.option("--json", "as_json", is_flag=True, help="The summary as one JSON object.")
@options.progress_option
def batch(urls_file: str, agent: tuple[str, ...], robots: tuple[str, ...], output_path: str, preferences: bool,
          engine: str, processes: int | None, **params: Any) -> int:
    """Exit code 1 when any row is not allowed (disallowed, or unknown to the archive)."""
    import robotrules.batch as library
    from robotrules.batch.captures import archive_of
    from robotrules.batch.inputs import source_kind
    from robotrules.batch.inputs.tables import read_urls
    from robotrules.batch.writers import output_format
    from robotrules.errors import DamagedArchive, SourceError

    out = options.output(params)
    agents = options.agents(agent, params["user_agent"])
    try:
        output_format(output_path)
        for source in robots:
            if not _is_folder(source):
                source_kind(source)
    except SourceError as exc:
        raise InputError(str(exc)) from None
    live_only = [flag for flag, given in (("--cache", params["cache"] is not None), ("--redis", params["redis"] is not None),
                                          ("--no-cache", params["no_cache"]), ("--refresh", params["refresh"])) if given]
    archived = bool(robots or params["cc_index"])
    if archived and live_only:
        raise click.UsageError(f"{', '.join(live_only)} {'is' if len(live_only) == 1 else 'are'} for live fetching: "
                               f"not with {'--robots' if robots else '--cc-index'}")
    skip_bad_records = bool(params["skip_bad_records"])
    if skip_bad_records and not archived:
        raise click.UsageError("--skip-bad-records is for the archives of --robots: give --robots too")
    index = options.index_path(params, robots, engine)
    lines = None
    if urls_file == "-":
        urls, lines = _stdin_copy()
    else:
        urls = urls_file
    local = engine == "local"  # other engines report no progress: no bar
    total = _rows_known(urls, lines, len(agents)) if local and out.show_progress(streams_results=False) else None
    fetching = None if archived else options.fetching(params)
    client = fetching.client if fetching is not None else None
    archive = None
    try:
        given: Any = list(robots) or None
        if index is not None:  # else run() reads them: in memory, or a temporary index for large files
            given = archive = archive_of(list(robots), index=index, skip_bad_records=skip_bad_records)
        picked = options.cc_archive(params, robots, engine, lambda: (url for url, _ in read_urls(urls)),
                                    skip_bad_records)
        if picked is not None:
            given = archive = picked
        bar = out.progress_bar(total, "deciding", "rows", streams_results=False) if local else nullcontext(None)
        with bar as progress:
            summary = library.run(urls, output_path, agents, given, engine=engine, processes=processes,
                                  mode=params.get("mode", "google"), client=client, progress=progress,
                                  refresh=fetching is not None and fetching.refresh,
                                  skip_bad_records=skip_bad_records, preferences=preferences)
    except DamagedArchive as exc:
        raise damaged_archive(str(exc)) from None
    except SourceError as exc:
        raise InputError(str(exc)) from None
    except ValueError as exc:
        raise InputError(str(exc)) from None
    except Exception as exc:
        if engine == "local":
            raise
        raise engine_error(engine, exc) from exc  # a task that raised, a JVM that died: one line (--debug: all)
    finally:
        if fetching is not None:
            fetching.close()
        if archive is not None:
            archive.close()
    if summary.rows == 0:
        _remove(output_path)
        raise InputError(f"no URLs to decide: {'standard input' if urls_file == '-' else urls_file} is empty")
    if out.as_json:
        out.json(summary.to_dict())
    else:
        out.echo(f"{summary} -> {output_path}")
    return EXIT_OK if summary.disallowed == 0 and summary.unknown == 0 else EXIT_FOUND


def _remove(path: str) -> None:
    import contextlib
    import os

    with contextlib.suppress(OSError):
        os.unlink(path)


def _is_folder(path: str) -> bool:
    import os

    return os.path.isdir(path)


def _stdin_copy() -> tuple[str, int]:
    """Standard input saved to a temporary file (URL lists stream from files; stdin is read once),
    and the number of URL lines it holds (not blank, not a ``#`` comment), counted as it is copied."""
    import atexit
    import os
    import tempfile

    handle, path = tempfile.mkstemp(prefix="robotrules-urls-", suffix=".txt")
    atexit.register(_remove, path)
    lines = 0
    with os.fdopen(handle, "wb") as target:
        for line in sys.stdin.buffer:
            target.write(line)
            text = line.decode("utf-8", "replace").strip()
            lines += bool(text) and not text.startswith("#")
    return path, lines


def _rows_known(urls: str, lines: int | None, agents: int) -> int | None:
    """The rows a run will write, when known before it runs (the progress bar's total): standard
    input's URL lines as copied, else the input's rows as :func:`count_urls` counts them, each for
    each agent (rows that may name their own agent: known with one agent only, as such a row is
    decided for that one)."""
    if lines is not None:
        return lines * agents
    from robotrules.batch.inputs.tables import count_urls

    found = count_urls(urls)
    if found is None:
        return None
    rows, own_agents = found
    if own_agents:
        return rows if agents == 1 else None
    return rows * agents
