"""``robotrules lint``: a robots.txt's diagnostics, written as a compiler writes them.

``{name}:{line}:{col}: {severity} {code}: {message}`` per finding (``{name}: ...`` for a
finding about the whole file; column 1 when a finding concerns a whole line), so editors and CI
annotators that read compiler output can jump to it; a finding with an obvious fix is followed
by an indented ``fix: {the line as it should be written}``; then a summary line on stderr. The source
is a file, ``-`` or a URL (the live robots.txt, fetched now, or the cached copy with
``--cached``; a note on stderr says which; a site without one, or one that cannot be read, has
nothing to lint: an input error). With no argument, standard input is read when it is not
a terminal.
"""

from __future__ import annotations

from typing import Any

import click

from robotrules.cli import _options as options
from robotrules.cli._errors import EXIT_FOUND, EXIT_OK
from robotrules.cli._output import INDENT, Output, diagnostic_dict, visible
from robotrules.cli._sources import STDIN, Source, live_body, read_source, stdin_is_terminal
from robotrules.core.lint import Diagnostic
from robotrules.core.lint import lint as lint_body

__all__ = ["lint", "location"]

HELP = """List what Google ignores or misreads in a robots.txt, as a compiler would.

Each finding is printed as FILE:LINE:COLUMN: SEVERITY CODE: MESSAGE, then a summary on
standard error. The robots.txt is a file, - for standard input, or a URL (the live robots.txt
of that site, fetched now: --cached uses the cached copy while it is fresh). With no argument,
standard input is read (when it is not a terminal).

An empty file is a valid robots.txt (it allows everything); empty standard input is an error.

Exit code: 0 no errors (warnings and notes allowed), 1 some error, 2 a usage or input error.

\b
Examples:
  robotrules lint robots.txt
  robotrules lint https://example.com/robots.txt
  robotrules lint --json < robots.txt
"""

_COLOURS = {"error": "red", "warning": "yellow", "info": "cyan"}


@click.command("lint", help=HELP, short_help="List what Google ignores or misreads in a robots.txt.")
@click.argument("source", required=False, metavar="[FILE|URL|-]")
@options.live_fetch_options
@options.mode_option
@options.output_options
def lint(source: str | None, **params: Any) -> int:
    """Exit code 1 when any finding is an error."""
    out = options.output(params)
    if source is None:
        if stdin_is_terminal():
            raise click.UsageError("give a robots.txt to lint: a file, a URL, or - for standard input")
        source = STDIN
    fetching = options.fetching(params)
    try:
        found = read_source(source, fetching)
    finally:
        fetching.close()
    if found.state is not None and found.state.kind == "rules" and not out.as_json:
        out.note(visible(fetching.state_line(found.state)))
    body = live_body(found, "lint")
    diagnostics = lint_body(body, params["mode"])
    counts = {severity: sum(1 for d in diagnostics if d.severity == severity) for severity in _COLOURS}
    if out.as_json:
        out.json({
            "source": found.name,
            "diagnostics": [diagnostic_dict(d) for d in diagnostics],
            "errors": counts["error"],
            "warnings": counts["warning"],
            "infos": counts["info"],
        })
    else:
        _show(out, found, diagnostics, counts)
    return EXIT_FOUND if counts["error"] else EXIT_OK


def location(name: str, diagnostic: Diagnostic) -> str:
    """``name:line:col`` (column 1 for a whole line), or ``name`` for the whole file."""
    if not diagnostic.line:
        return name
    return f"{name}:{diagnostic.line}:{diagnostic.column or 1}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _show(out: Output, found: Source, diagnostics: list[Diagnostic], counts: dict[str, int]) -> None:
    """The findings for people; the name, the messages (which may quote the file) and the fixes
    shown :func:`visible`."""
    name = visible(found.name)
    for d in diagnostics:
        severity = out.style(d.severity, fg=_COLOURS.get(d.severity), bold=d.severity == "error")
        out.echo(f"{location(name, d)}: {severity} {d.code}: {visible(d.message)}")
        if d.fix is not None:
            out.echo(f"{INDENT}fix: {visible(d.fix)}")
    if not diagnostics:
        summary = "no problems found" + (" (an empty file: it allows everything)" if not found.body else "")
    else:
        parts = [_plural(counts["error"], "error"), _plural(counts["warning"], "warning")]
        if counts["info"]:
            parts.append(f"{counts['info']} info")
        summary = ", ".join(parts)
    out.echo(f"{name}: {summary}", err=True)
