"""``robotrules fetch`` (the robots.txt governing URLs, as the client sees it) and
``robotrules robots-url`` (just its URL, S1-S5, nothing fetched).

``fetch`` shows the state of each robots.txt: what governs (its rules, or everything allowed or
disallowed) and why, its status, where redirects ended, its size and sitemaps, and the cache
state and age; ``--body`` prints the file exactly as fetched instead, so
``robotrules fetch --body https://example.com/ > robots.txt`` saves a copy to edit.
"""

from __future__ import annotations

from typing import Any

import click

from robotrules.answers import RobotsState, state_dict
from robotrules.cli import _options as options
from robotrules.cli._errors import EXIT_INPUT, EXIT_OK
from robotrules.cli._output import INDENT, Output, jsonl_option, visible
from robotrules.cli._sources import url_hint
from robotrules.errors import BlockedAddress, InvalidURL
from robotrules.hosts import robots_url as governing_url

__all__ = ["fetch", "robots_url"]

FETCH_HELP = """Show the robots.txt that governs each URL, as fetched and cached.

For each URL: the robots.txt URL, what happened and what governs (its rules, or everything
allowed or disallowed, and why), its HTTP status, where redirects ended, its size and
sitemaps, and the cache state and age. A cached copy is used while it is fresh (up to 24
hours); --refresh fetches now. With --body, print the file itself, exactly as fetched.

Exit code: 0, or 2 when a URL cannot be used.

\b
Examples:
  robotrules fetch https://example.com/some/page
  robotrules fetch --refresh --json https://example.com/
  robotrules fetch --body https://example.com/ > robots.txt
"""

ROBOTS_URL_HELP = """Print the robots.txt URL that governs each URL (nothing is fetched).

The scheme, host and port of the URL decide it: https://Example.COM:443/a?b gives
https://example.com/robots.txt. International host names are converted to their ASCII form.

Exit code: 0, or 2 when a URL has no robots.txt URL (an error line for each).

\b
Examples:
  robotrules robots-url https://example.com/a/b?c
  robotrules robots-url http://straße.de/x
"""


@click.command("fetch", help=FETCH_HELP, short_help="Show the robots.txt that governs URLs (status, cache, body).")
@click.argument("urls", nargs=-1, required=True, metavar="URL...")
@click.option("--body", is_flag=True, help="Print the robots.txt itself, exactly as fetched.")
@options.fetch_options
@options.mode_option
@options.output_options
@jsonl_option
def fetch(urls: tuple[str, ...], body: bool, **params: Any) -> int:
    """Exit code 2 when any URL cannot be used."""
    out = options.output(params).with_jsonl(params.get("jsonl", False))
    fetching = options.fetching(params)
    code = EXIT_OK
    try:
        for url in urls:
            try:
                state = fetching.state(url)
            except (InvalidURL, BlockedAddress) as exc:
                message = str(exc) + (url_hint(url) if isinstance(exc, InvalidURL) else "")
                out.error(message)
                if out.as_json:
                    out.result({"url": url, "error": message})
                code = EXIT_INPUT
                continue
            _show(out, url, state, body, fetching.state_line(state)[len(state.robots_url) + 2:])
    finally:
        fetching.close()
    out.results_done()
    return code


def _show(out: Output, url: str, state: RobotsState, body: bool, described: str) -> None:
    """One robots.txt's state: ``described`` is what happened, with the cache state and its hint;
    what the site said (where it redirected, its sitemaps) shown :func:`visible`."""
    entry = state.entry
    content = entry.body if state.kind == "rules" else b""
    sitemaps = state.robots.sitemaps if state.robots is not None else []
    if out.as_json:
        data = {"url": url, **state_dict(state), "size": len(content), "sitemaps": sitemaps}
        if body:
            data["body"] = content.decode("utf-8", errors="replace")
        out.result(data)
        return
    if body:
        if state.kind != "rules":
            out.note(f"no robots.txt body for {visible(url)}: {visible(described)}")
        out.write_bytes(content)
        return
    out.echo(out.style(visible(state.robots_url), bold=True))
    out.echo(INDENT + visible(described))
    facts = [f"status {state.status}" if state.status else "no HTTP status (the site could not be reached)"]
    if entry.redirects and entry.final_url:
        facts.append(f"{entry.redirects} redirect{'s' if entry.redirects != 1 else ''} to {visible(entry.final_url)}")
    if state.kind == "rules":
        facts.append(f"{len(content)} bytes")
    out.echo(INDENT + ", ".join(facts))
    for sitemap in sitemaps:
        out.echo(f"{INDENT}sitemap: {visible(sitemap)}")


@click.command("robots-url", help=ROBOTS_URL_HELP, short_help="Print the robots.txt URL that governs URLs.")
@click.argument("urls", nargs=-1, required=True, metavar="URL...")
@click.option("--json", "as_json", is_flag=True,
              help='One JSON document: {"results": [...]}, each {"url", "robots_url"} or {"url", "error"}.')
@jsonl_option
def robots_url(urls: tuple[str, ...], as_json: bool, jsonl: bool) -> int:
    """Exit code 2 when any URL has no robots.txt URL (an error line on stderr for each)."""
    out = Output(as_json=as_json).with_jsonl(jsonl)
    code = EXIT_OK
    for url in urls:
        try:
            found = governing_url(url)
        except ValueError as exc:
            out.error(str(exc))
            if out.as_json:
                out.result({"url": url, "error": str(exc)})
            code = EXIT_INPUT
            continue
        if out.as_json:
            out.result({"url": url, "robots_url": found})
        else:
            out.echo(visible(found))
    out.results_done()
    return code
