"""``robotrules diff``: what a new robots.txt changes, as Google applies it (:mod:`robotrules.diff`).

Either side is a file, ``-`` or a URL (the live file governing it, fetched now; ``--cached``
reads the cache; a note on stderr says which and how old). A site without a robots.txt
(4xx) compares as an empty file, which is what it means (everything allowed, F4); a side that
cannot be read (5xx, network failure) is an input error: there is no file to compare. Exit code
0 when nothing a crawler reads changes, 1 when a rule, verdict, crawl delay or sitemap changes.
"""

from __future__ import annotations

from typing import Any

import click

from robotrules.cli import _options as options
from robotrules.cli._errors import EXIT_FOUND, EXIT_OK
from robotrules.cli._fetching import Fetching
from robotrules.cli._output import Output, visible
from robotrules.cli._sources import STDIN, Source, live_body, read_source, url_list
from robotrules.core.decision import rule_text, verdict_word
from robotrules.diff import RobotsDiff, RuleChange, VerdictChange
from robotrules.diff import diff as compare

__all__ = ["diff", "rule_change", "verdict_change"]

HELP = """Show what changes from one robots.txt to another, as Google applies them.

Lists the rules each crawler gains, loses or sees flip between allow and disallow, and the
URLs whose verdict changes for which crawler (one URL per changed rule, plus those of
--urls), with crawl delays and sitemaps. Reordering, case, spacing and comments are not
changes. OLD and NEW are files, - for standard input (one of them), or URLs (the live
robots.txt of that site, fetched now - --cached uses the cached copy while it is fresh; a site
without one compares as an empty file).

By default every crawler named in either file is compared, and '*' (every other crawler).

Exit code: 0 no change, 1 something changed, 2 a usage or input error.

\b
Examples:
  robotrules diff robots.txt robots-new.txt
  robotrules diff https://example.com/robots.txt robots-new.txt -a Googlebot --urls pages.txt
  robotrules diff --json old.txt new.txt
"""


@click.command("diff", help=HELP, short_help="Show which rules and verdicts a new robots.txt changes.")
@click.argument("old", metavar="OLD")
@click.argument("new", metavar="NEW")
@options.agent_option
@options.urls_option
@options.live_fetch_options
@options.mode_option
@options.output_options
def diff(old: str, new: str, agent: tuple[str, ...], urls_file: str | None, **params: Any) -> int:
    """Exit code 1 when anything a crawler reads changes."""
    out = options.output(params)
    if [old, new, urls_file].count(STDIN) > 1:
        raise click.UsageError("standard input can be read once: only one of OLD, NEW and --urls can be '-'")
    tokens = list(dict.fromkeys(_token(a) for a in agent))
    fetching = options.fetching(params)
    try:
        before, after = _side(out, old, fetching), _side(out, new, fetching)
    finally:
        fetching.close()
    urls: list[str] = []
    if urls_file is not None:
        items, _ = url_list((), urls_file, stdin=False)
        urls = list(items)
    # The rules' paths are probed on the site of a side given as a URL; two files give paths.
    origin = next((side.name.removesuffix("/robots.txt") for side in (before, after) if side.state is not None), "")
    result = compare(before.body, after.body, agents=tokens, urls=urls, mode=params["mode"], origin=origin)
    if out.as_json:
        out.json(result.to_dict())
    else:
        _show(out, before.name, after.name, result)
    return EXIT_FOUND if result.changed else EXIT_OK


def _token(agent: str) -> str:
    return options.agent_token(agent)


def _side(out: Output, text: str, fetching: Fetching) -> Source:
    """One side's body: a live site without a robots.txt is an empty file (everything allowed)."""
    found = read_source(text, fetching)
    if found.state is not None and found.state.kind == "allow":
        out.note(f"{visible(fetching.state_line(found.state))}; compared as an empty file")
        return found
    if found.state is not None and found.state.kind == "rules":
        out.note(visible(fetching.state_line(found.state)))
    live_body(found, "compare")
    return found


def _show(out: Output, old: str, new: str, result: RobotsDiff) -> None:
    """The diff for people; every name, rule, URL and sitemap from the files shown :func:`visible`."""
    out.echo(out.style(f"--- {visible(old)}", fg="red"))
    out.echo(out.style(f"+++ {visible(new)}", fg="green"))
    if not result.changed:
        out.echo(f"no changes for {', '.join(map(visible, result.agents)) or 'any crawler'}")
        _ignored_delays(out, result)
        return
    width = max((len(visible(agent)) for agent in [*(c.agent for c in result.rules),
                                                   *(v.agent for v in result.verdicts)]), default=1)
    if result.rules:
        out.echo("rules:")
        for change in result.rules:
            out.echo(f"  {visible(change.agent):<{width}}  {rule_change(out, change)}")
    if result.verdicts:
        out.echo("verdicts:")
        for verdict in result.verdicts:
            out.echo(f"  {visible(verdict.agent):<{width}}  {verdict_change(out, verdict)}")
    if result.crawl_delays:
        out.echo("crawl delays (for crawlers that read crawl-delay; Google's crawlers ignore it):")
        for delay in result.crawl_delays:
            who = "* (all other crawlers)" if delay.agent == "*" else visible(delay.agent)
            out.echo(f"  {who}: {_seconds(delay.old)} -> {_seconds(delay.new)}")
    _ignored_delays(out, result)
    if result.sitemaps_added or result.sitemaps_removed:
        out.echo("sitemaps:")
        for url in result.sitemaps_added:
            out.echo(out.style(f"  + {visible(url)}", fg="green"))
        for url in result.sitemaps_removed:
            out.echo(out.style(f"  - {visible(url)}", fg="red"))


def rule_change(out: Output, change: RuleChange) -> str:
    """A rule change in the one wording of the diff and the edit: "~ changed now allow: /x (was
    disallow)  (old line 2, new line 5)", coloured by what changed; the rule shown :func:`visible`."""
    sign, colour = {"added": ("+", "green"), "removed": ("-", "red")}.get(change.change, ("~", "yellow"))
    lines = ", ".join(part for part in (f"old line {change.old_line}" if change.old_line else "",
                                         f"new line {change.new_line}" if change.new_line else "") if part)
    what = rule_text(change.kind, visible(change.value))
    if change.change == "changed":
        what = f"now {what} (was {'allow' if change.kind == 'disallow' else 'disallow'})"
    return out.style(f"{sign} {change.change:<7} {what}", fg=colour) + f"  ({lines})"


def verdict_change(out: Output, change: VerdictChange) -> str:
    """A verdict change in the one wording of the diff and the edit: "/x  allowed -> disallowed  (by
    line 3 of the new file: 'disallow: /x')" (:meth:`VerdictChange.why`), the new verdict coloured."""
    now = out.style(verdict_word(change.new_allowed), fg="green" if change.new_allowed else "red")
    return f"{visible(change.url)}  {verdict_word(change.old_allowed)} -> {now}  ({visible(change.why())})"


def _ignored_delays(out: Output, result: RobotsDiff) -> None:
    """Crawl-delay changes only Google's crawlers see: shown, but not a change (they ignore it)."""
    for delay in result.ignored_crawl_delays:
        out.echo(f"crawl delay for {visible(delay.agent)}: {_seconds(delay.old)} -> {_seconds(delay.new)} "
                 "(not a change: Google's crawlers ignore crawl-delay)")


def _seconds(value: float | None) -> str:
    return "none" if value is None else f"{value:g}s"
