"""``robotrules test``: decide URLs against one robots.txt (a local draft or a live file), and
optionally hold them to expected verdicts, so a site's CI can guard its important pages.

The robots.txt is a file, ``-`` (standard input) or a URL (the live file that governs it,
fetched now - a site owner who just edited it must see the edit - or read from the cache with
``--cached``: a site without one allows everything, F4; one that cannot be fetched disallows
everything, F5, F8 - the header line says what happened and how old the copy is). URLs may be absolute or paths starting
with "/". ``--expect allowed|disallowed`` applies to every URL given as an argument, with
``--urls`` or on stdin; ``--expect-file`` lists ``allow URL`` / ``disallow URL`` lines for mixed
expectations. With any expectation, the exit code is 1 only when some verdict differs from its
expectation (an expected disallow is a success); without, 1 when any URL is disallowed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

import click

from robotrules.answers import Verdict, check_offline
from robotrules.cli import _options as options
from robotrules.cli._errors import EXIT_FOUND, EXIT_INPUT, EXIT_OK, InputError
from robotrules.cli._fetching import Fetching, decide
from robotrules.cli._output import Output, agent_label, jsonl_option, verdict_lines, visible
from robotrules.cli._sources import STDIN, is_url, read_expectations, read_local, url_hint, url_list
from robotrules.core.decision import rule_words, verdict_word
from robotrules.core.robotstxt import parse
from robotrules.errors import BlockedAddress, InvalidURL
from robotrules.hosts import check_url

__all__ = ["test"]

HELP = """Decide URLs against one robots.txt: a local draft, standard input (-) or a live URL.

A URL's robots.txt is fetched now, every run, so an edit on the server shows at once
(--cached uses the cached copy while it is fresh, as check does).

URLs may be full URLs or paths starting with '/'. They come from the arguments (- reads
standard input), from --urls FILE, or from standard input when none is given (and the
robots.txt is not read from it).

With --expect, every URL must get that verdict; with --expect-file, each line says
'allow URL' or 'disallow URL'. Each verdict that differs is reported, so a site's CI can guard
its important pages before a new robots.txt goes live.

Where the file states AI-use preferences (Content-Usage, Content-Signal), they are shown with
each verdict; --purpose asks about one use (train-ai, search or ai-input) for every URL.

Exit code: 0 all as expected (without expectations: all allowed), 1 some verdict not as
expected (without expectations: some URL disallowed; with --purpose, that use refused), 2 a
usage or input error.

\b
Examples:
  robotrules test robots.txt -a Googlebot /private/x /products/
  robotrules test robots.txt -a Googlebot --expect allowed --urls important-pages.txt
  robotrules test robots.txt --expect-file expectations.txt
  robotrules test https://example.com/ -a bingbot /search
  robotrules test robots.txt -a GPTBot --purpose train-ai /articles/
"""

_Decide = Callable[[str, str], Verdict]


@click.command("test", help=HELP, short_help="Decide URLs against a local or live robots.txt, with expectations.")
@click.argument("source", metavar="ROBOTS_FILE|URL|-")
@click.argument("urls", nargs=-1, metavar="[URL]...")
@options.urls_option
@options.agent_option
@options.purpose_option
@click.option("--expect", type=click.Choice(["allowed", "disallowed"]), default=None,
              help="The verdict every URL (from the arguments, --urls or standard input) must get.")
@click.option("--expect-file", "expect_file", metavar="FILE", default=None,
              help="Lines 'allow URL' or 'disallow URL': the verdict each URL must get ('-': standard input).")
@options.live_fetch_options
@options.mode_option
@options.output_options
@jsonl_option
@options.progress_option
def test(source: str, urls: tuple[str, ...], urls_file: str | None, agent: tuple[str, ...], purpose: str | None,
         expect: str | None, expect_file: str | None, **params: Any) -> int:
    """Exit code 2 on an input error, else 1 when a verdict is not as expected (or, with no
    expectation, disallowed), else 0."""
    out = options.output(params).with_jsonl(params.get("jsonl", False))
    fetching = options.fetching(params)
    agents = options.agents(agent, params["user_agent"])
    stdin_taken = [name for name, value in (("the robots.txt", source), ("--urls", urls_file),
                                             ("the URL list", STDIN if STDIN in urls else None),
                                             ("--expect-file", expect_file)) if value == STDIN]
    if len(stdin_taken) > 1:
        raise click.UsageError(f"standard input can be read once: {' and '.join(stdin_taken)} both ask for it")
    try:
        judge, header = _robots(source, fetching, params["mode"])
        expected = read_expectations(expect_file) if expect_file is not None else []
        items, length = url_list(urls, urls_file, stdin=source != STDIN and expect_file is None)
        if length == 0 and not expected:
            raise click.UsageError("no URLs to test: give them as arguments, with --urls FILE, --expect-file FILE, "
                                   "or on standard input")
        if not out.as_json:
            out.echo(header)
        work = _with_expectations(items, expect, expected)
        total = None if length is None else length + len(expected)
        code, seen, decided, mismatches = _run(out, judge, work, total, agents, purpose)
    finally:
        fetching.close()
    if not seen:
        raise InputError("no URLs to test: the list was empty")
    out.results_done()
    for verdict, wanted in mismatches:
        out.echo(f"robotrules: not as expected: {visible(verdict.url)} for {visible(agent_label(verdict))}: "
                 f"expected {wanted}, got {verdict_word(verdict.allowed)} ({visible(_why(verdict))})", err=True)
    if mismatches and not out.as_json:
        out.echo(f"{len(mismatches)} of {decided} verdicts not as expected", err=True)
    return code


def _why(verdict: Verdict) -> str:
    """What decided, in the words of the verdict's sentence: the line as written or no rule
    (:func:`~robotrules.core.decision.rule_words`), or what happened to the live file."""
    if verdict.full is not None:
        return verdict.state.cause() if verdict.state is not None else f"everything {verdict_word(verdict.allowed)}"
    return rule_words(verdict.line, verdict.text, verdict.path)


def _robots(source: str, fetching: Fetching, mode: str) -> tuple[_Decide, str]:
    """How to decide a URL for an agent, and a header line saying which robots.txt decides."""
    if is_url(source):
        state = fetching.state(source)
        return (lambda url, agent: decide(state, url, agent)), f"robots.txt: {visible(fetching.state_line(state))}"
    local = read_local(source)
    robots = parse(local.body, mode=mode)
    header = f"robots.txt: {visible(local.name)} ({robots.size} bytes{', empty: everything allowed' if not robots.size else ''})"
    return (lambda url, agent: check_offline(robots, url, agent, local.name)), header


def _with_expectations(items: Iterable[str], expect: str | None,
                       listed: list[tuple[str, str]]) -> Iterator[tuple[str, str | None]]:
    for url in items:
        yield url, expect
    yield from listed


def _run(out: Output, judge: _Decide, work: Iterable[tuple[str, str | None]], total: int | None,
         agents: tuple[str, ...], purpose: str | None) -> tuple[int, int, int, list[tuple[Verdict, str]]]:
    """Decide and show each URL for each agent: (exit code, URLs seen, verdicts, mismatches)."""
    code = EXIT_OK
    seen = decided = 0
    any_expected = False
    mismatches: list[tuple[Verdict, str]] = []
    disallowed = False
    refused = False  # with --purpose: that use refused for some URL
    failed = False
    with out.progressing(work, total, "testing") as progress:
        for url, expected in progress:
            seen += 1
            try:
                check_url(url, paths=True)  # the one URL check of every command
            except InvalidURL as exc:
                failed = True
                message = str(exc) + url_hint(url, paths=True)
                out.error(message)
                if out.as_json:
                    out.result({"url": url, "error": message})
                continue
            for name in agents:
                try:
                    verdict = judge(url, name)
                except (InvalidURL, BlockedAddress) as exc:
                    failed = True
                    out.error(str(exc))
                    if out.as_json:
                        out.result({"url": url, "error": str(exc)})
                    break
                decided += 1
                disallowed = disallowed or not verdict.allowed
                refused = refused or (purpose is not None and verdict.preference(purpose) is False)
                if expected is not None:
                    any_expected = True
                    if (expected == "allowed") != verdict.allowed:
                        mismatches.append((verdict, expected))
                if out.as_json:
                    data = verdict.to_dict()
                    if expected is not None:
                        data["expected"] = expected
                        data["as_expected"] = (expected == "allowed") == verdict.allowed
                    out.result(data)
                else:
                    for line in verdict_lines(out, verdict, expected, purpose):
                        out.echo(line)
    if failed:
        code = EXIT_INPUT
    elif mismatches or (not any_expected and disallowed) or refused:
        code = EXIT_FOUND
    return code, seen, decided, mismatches
