"""``robotrules check``: decide live URLs, each against its site's robots.txt, through the cache.

Each URL is decided for each agent against the robots.txt that governs it (fetched with
Google's status rules, F1-F8, and kept in the shared cache, C1-C3), and shown with why: the
deciding line as written, its group, the robots.txt URL, its status, the redirects followed, and
the cache state and age ("cached 5 min ago; --refresh fetches now": check is the crawler's view,
so the cache answers while its copy is fresh). A robots.txt that could not be fetched is said so,
with what Google's rules make of it (F5, F8: disallow all until it is tried again). Results stream: one verdict (or JSON object) per URL and agent as soon
as it is known (with --json, one document at the end; --jsonl streams). A URL that cannot be checked is an error line; the run goes on.
"""

from __future__ import annotations

from typing import Any

import click

from robotrules.cli import _options as options
from robotrules.cli._errors import EXIT_FOUND, EXIT_INPUT, EXIT_OK, InputError
from robotrules.cli._fetching import Fetching, decide
from robotrules.cli._output import INDENT, Output, jsonl_option, verdict_lines, visible
from robotrules.cli._sources import url_hint, url_list
from robotrules.errors import BlockedAddress, InvalidURL

__all__ = ["check"]

HELP = """Decide live URLs for crawlers, each against its site's robots.txt.

Fetches each site's robots.txt as Google does (through the shared cache) and shows, for each
URL and agent, the verdict and why: the deciding line as written, its group, the robots.txt
URL, its status, redirects followed, and the cache state and age. A cached copy is used while
it is fresh (up to 24 hours) and the answer says how old it is; --refresh fetches now. When a
robots.txt cannot be fetched, the answer says what happened and what Google makes of it.

URLs come from the arguments (- reads standard input), from --urls FILE, or from standard
input (one per line) when no URL is given and standard input is not a terminal.

Where the site states AI-use preferences (Content-Usage, Content-Signal), they are shown
with each verdict; --purpose asks about one use (train-ai, search or ai-input) for every URL.

Exit code: 0 all allowed, 1 some URL disallowed (or, with --purpose, that use refused), 2 a
usage or input error (such as a URL without a host; the other URLs are still checked).

\b
Examples:
  robotrules check -a Googlebot https://example.com/private/x https://example.com/
  robotrules check -a 'FooBot/1.2' --jsonl --urls urls.txt > verdicts.jsonl
  robotrules check -a GPTBot --purpose train-ai https://example.com/article
  cat urls.txt | robotrules check --refresh
"""


@click.command("check", help=HELP, short_help="Decide live URLs against their sites' robots.txt.")
@click.argument("urls", nargs=-1, metavar="[URL]...")
@options.urls_option
@options.agent_option
@options.purpose_option
@options.fetch_options
@options.mode_option
@options.output_options
@jsonl_option
@options.progress_option
def check(urls: tuple[str, ...], urls_file: str | None, agent: tuple[str, ...], purpose: str | None,
          **params: Any) -> int:
    """Exit code 2 when any URL could not be checked, else 1 when any verdict is a disallow (or,
    with ``purpose``, a refusal of that use)."""
    out = options.output(params).with_jsonl(params.get("jsonl", False))
    fetching = options.fetching(params)
    agents = options.agents(agent, params["user_agent"])
    items, length = url_list(urls, urls_file, stdin=True)
    if length == 0:
        raise click.UsageError("no URLs to check: give them as arguments, with --urls FILE, or on standard input")
    try:
        code, seen = _run(out, fetching, items, length, agents, purpose)
        if seen:
            out.results_done()
    finally:
        fetching.close()
    if not seen:
        raise InputError("no URLs to check: the list was empty")
    return code


def _run(out: Output, fetching: Fetching, items: Any, length: int | None, agents: tuple[str, ...],
         purpose: str | None) -> tuple[int, int]:
    code = EXIT_OK
    seen = 0
    with out.progressing(items, length, "checking") as progress:
        for url in progress:
            seen += 1
            try:
                state = fetching.state(url)
            except (InvalidURL, BlockedAddress) as exc:
                code = EXIT_INPUT
                _failed(out, url, str(exc) + (url_hint(url) if isinstance(exc, InvalidURL) else ""))
                continue
            for name in agents:
                verdict = decide(state, url, name)
                if not verdict.allowed or (purpose is not None and verdict.preference(purpose) is False):
                    code = max(code, EXIT_FOUND)
                if out.as_json:
                    out.result(verdict.to_dict())
                else:
                    shown = INDENT + visible(str(state))
                    for line in verdict_lines(out, verdict, purpose=purpose):
                        out.echo(INDENT + visible(fetching.state_line(state)) if line == shown else line)
    return code, seen


def _failed(out: Output, url: str, message: str) -> None:
    """A URL that cannot be checked: an error line, and in JSON an object saying so (so a reader
    of the stream can pair every input URL with an answer)."""
    out.error(message)
    if out.as_json:
        out.result({"url": url, "error": message})
