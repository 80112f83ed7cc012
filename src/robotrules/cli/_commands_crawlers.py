"""``robotrules crawlers``: list, search and export the crawler registry (:mod:`robotrules.crawlers`, A8).

Text for people (one line a crawler: name, the token Google reads when it differs, purpose,
operator, whether it obeys robots.txt), JSON and CSV that ``--registry`` reads back. Exit code 0,
also when nothing matches (a search is not a check); 2 for a registry file that cannot be used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from robotrules.cli import _options as options
from robotrules.cli._errors import EXIT_OK
from robotrules.cli._output import Output, visible
from robotrules.crawlers import KIND_LABELS, KINDS, OBEYS, SNAPSHOT, Crawler, dumps, search

__all__ = ["crawlers"]

HELP = """List, search and export the crawlers robotrules knows.

Each crawler has its name as its operator writes it, the product token a robots.txt group names
it by (as Google reads it: a group for 'AI2Bot' is read as one for 'AI'), what it is for, who
runs it, whether its operator says it obeys robots.txt, and where that is documented. The
registry joins the crawlers whose operators document them with the community list ai.robots.txt
(a snapshot, MIT licence).

QUERY keeps the crawlers whose name, token, operator, purpose or kind contains it. --registry
FILE adds crawlers from a .json or .csv file (the form --format json or csv writes, or
ai.robots.txt's robots.json); --replace uses only that file.

Exit code: 0 (also when nothing matches), 2 a usage or input error.

\b
Examples:
  robotrules crawlers
  robotrules crawlers openai
  robotrules crawlers --kind ai-training --format csv > training.csv
  robotrules crawlers --registry my-crawlers.json --json
"""

_OBEY_WORDS = {"yes": "obeys robots.txt", "no": "does not obey robots.txt", "unknown": "robots.txt: unknown"}


@click.command("crawlers", help=HELP, short_help="List, search and export the crawlers robotrules knows.")
@click.argument("query", required=False, default="")
@click.option("--kind", "kinds", multiple=True, type=click.Choice(sorted(KINDS)),
              help="Only crawlers for this purpose (repeatable).")
@click.option("--obeys", type=click.Choice(sorted(OBEYS)), default=None,
              help="Only crawlers whose operator says they obey robots.txt (yes), do not (no), or does not say.")
@options.registry_option
@click.option("--replace", is_flag=True, help="Use only the crawlers of --registry, not the built-in ones.")
@click.option("--format", "form", type=click.Choice(["text", "json", "csv"]), default=None,
              help="Output format (default text; --json is --format json).")
@options.output_options
def crawlers(query: str, kinds: tuple[str, ...], obeys: str | None, registry_file: str | None, replace: bool,
             form: str | None, **params: Any) -> int:
    """Exit code 0: listing never fails once the registry is read."""
    out = options.output(params)
    if replace and registry_file is None:
        raise click.UsageError("--replace needs --registry FILE")
    if form is not None and out.as_json and form != "json":
        raise click.UsageError(f"--json and --format {form} disagree: give one")
    registry = options.registry(registry_file, replace)
    found = [c for c in search(query, registry)
             if (not kinds or c.kind in kinds) and (obeys is None or c.obeys == obeys)]
    form = "json" if out.as_json else form or "text"
    if form == "text":
        _show(out, found, query, len(registry))
    else:
        out.write_text(dumps(found, form))
    return EXIT_OK


def _show(out: Output, found: Sequence[Crawler], query: str, total: int) -> None:
    if not found:
        out.echo(f"no crawler matches {query!r}" if query else "no crawler matches")
        return
    width = min(max(len(visible(c.name)) for c in found), 28)
    for crawler in found:
        operator = visible(crawler.operator) if crawler.operator != "unknown" else "operator unknown"
        notes = [KIND_LABELS[crawler.kind], operator, _OBEY_WORDS[crawler.obeys]]
        if crawler.ignores_global:
            notes.append("ignores the '*' group")
        name = out.style(visible(crawler.name).ljust(width), bold=True)
        read = "" if crawler.token_valid else out.style(f"  (read as {crawler.token!r})", fg="yellow")
        out.echo(f"{name}  {'; '.join(notes)}{read}")
    community = sum(c.origin == "ai.robots.txt" for c in found)
    renamed = sum(not c.token_valid for c in found)
    tail = [f"{len(found)} of {total} crawlers"]
    if community:
        tail.append(f"{community} from ai.robots.txt ({SNAPSHOT.date} snapshot, MIT licence)")
    if renamed:
        tail.append(f"{renamed} whose name is not a product token: a robots.txt group naming one is read "
                    "under the token shown")
    out.echo("; ".join(tail), err=True)
