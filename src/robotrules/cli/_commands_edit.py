"""``robotrules edit``: block or allow crawlers in a robots.txt, or state an AI-use preference, safely
(:mod:`robotrules.edit` does the work; this is its command line).

The edited file goes to stdout (or back into FILE with ``--write``), what changed to stderr: notes,
then the verdict diff. ``--check`` writes nothing and exits 1 when the file would change, for CI.
A request the edit refuses is an input error (one line, exit code 2).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any

import click

from robotrules.cli import _options as options
from robotrules.cli._commands_diff import rule_change, verdict_change
from robotrules.cli._errors import EXIT_FOUND, EXIT_OK, InputError, describe_os_error
from robotrules.cli._output import Output, visible
from robotrules.cli._sources import STDIN, read_local
from robotrules.crawlers import KINDS
from robotrules.edit import EditRefused, EditResult, edit

__all__ = ["edit_command"]

HELP = """Block or allow crawlers in a robots.txt, changing nothing else.

Prints the edited file, and on standard error what it changes: which crawlers now read other
rules, and which of the file's paths change verdict for them. Every other line (comments,
Content-Signal, License, ...) is kept as written, line breaks too. Crawlers you do not name keep
every verdict: the edit is checked before it is shown, and refused otherwise.

A crawler is named by the token a robots.txt group names it by (GPTBot). A name that Google
reads as another token is refused (AI2Bot is read as AI, which other crawlers share).
--block-purpose blocks every crawler of the registry made for that purpose ('robotrules
crawlers' lists them), skipping those whose names Google reads as other tokens.

--usage adds or updates the Content-Usage line of the '*' group, e.g. train-ai=n (no AI
training), for crawlers that read it.

Exit code: 0 done (with --check: the file would not change), 1 with --check: the file would
change, 2 a usage or input error, or an edit refused.

\b
Examples:
  robotrules edit robots.txt --block GPTBot --block CCBot
  robotrules edit robots.txt --block-purpose ai-training --usage train-ai=n --write
  robotrules edit robots.txt --block-purpose ai-training --check
"""


@click.command("edit", help=HELP, short_help="Block or allow crawlers in a robots.txt, changing nothing else.")
@click.argument("file", metavar="FILE|-")
@click.option("--block", "block", multiple=True, metavar="TOKEN", help="A crawler to disallow everywhere (repeatable).")
@click.option("--block-purpose", "block_purpose", multiple=True, type=click.Choice(sorted(KINDS)),
              help="Block every crawler of the registry with this purpose (repeatable), e.g. ai-training.")
@click.option("--allow", "allow", multiple=True, metavar="TOKEN",
              help="A crawler to allow everywhere (repeatable).")
@click.option("--usage", "usage", metavar="STATEMENT", default=None,
              help="A Content-Usage statement for the whole site, set in the '*' group, e.g. train-ai=n.")
@click.option("--write", "write", is_flag=True, help="Edit FILE in place instead of printing the result.")
@click.option("--check", "check", is_flag=True,
              help="Print nothing but what would change; exit code 1 when the file would change.")
@options.mode_option
@options.output_options
def edit_command(file: str, block: tuple[str, ...], block_purpose: tuple[str, ...], allow: tuple[str, ...],
                 usage: str | None, write: bool, check: bool, **params: Any) -> int:
    """Exit code 1 with ``--check`` when the file would change."""
    out = options.output(params)
    if write and check:
        raise click.UsageError("--write and --check cannot be used together")
    if write and file == STDIN:
        raise click.UsageError("--write edits a file in place: give a file, not standard input")
    if not (block or block_purpose or allow or usage is not None):
        raise click.UsageError("say what to change: --block, --block-purpose, --allow or --usage")
    source = read_local(file)
    try:
        result = edit(source.body, block=block, block_purpose=block_purpose, allow=allow, usage=usage,
                      mode=params["mode"])
    except EditRefused as refused:
        raise InputError(str(refused)) from None
    if write and result.changed:
        _write(file, result.body)
    if out.as_json:
        out.json({"source": source.name, "written": write and result.changed, **result.to_dict()})
    else:
        for note in result.notes:
            out.note(visible(note))
        name = visible(source.name)
        _show(out, name, result)
        if write:
            out.echo(f"{name}: {'edited' if result.changed else 'unchanged'}", err=True)
        elif check:
            out.echo(f"{name}: {'would change' if result.changed else 'would not change'}", err=True)
        else:
            out.write_bytes(result.body)
    return EXIT_FOUND if check and result.changed else EXIT_OK


def _write(path: str, body: bytes) -> None:
    """Replace the file at ``path`` with ``body`` at once (a reader sees the old file or the new
    one), keeping its mode and owner. A symbolic link is written through: the file it points to
    is replaced, and the link stays a link to it."""
    target = os.path.realpath(path)
    try:
        kept = os.stat(target)
        handle, temporary = tempfile.mkstemp(prefix=".robots-", dir=os.path.dirname(target))
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(body)
            shutil.copymode(target, temporary)
            _keep_owner(temporary, kept, path)
            os.replace(temporary, target)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError as exc:
        raise InputError(describe_os_error(exc, f"cannot write {path}")) from None


def _keep_owner(temporary: str, kept: os.stat_result, path: str) -> None:
    """Give the new file the owner and group of the one it replaces; refuse (an input error,
    nothing written) when that is not allowed, rather than change who owns ``path``."""
    made = os.stat(temporary)
    if (made.st_uid, made.st_gid) == (kept.st_uid, kept.st_gid):
        return
    try:
        os.chown(temporary, kept.st_uid, kept.st_gid)
    except PermissionError:
        raise InputError(f"cannot write {path} in place: the edited file could not keep its owner and group "
                         "(print the result and copy it over instead)") from None


def _show(out: Output, name: str, result: EditResult) -> None:
    """The verdict diff on stderr: per set of crawlers that see the same change, the rules they gain
    or lose and the verdicts that change (a purpose blocks dozens of crawlers the same way)."""
    found = result.diff
    if not found.rules and not found.verdicts:
        out.echo("no crawler's rules change" + (" (the usage statement is set)" if result.changed else ""), err=True)
        return
    changes: dict[str, list[str]] = {}
    for change in found.rules:
        changes.setdefault(visible(change.agent), []).append("  " + rule_change(out, change))
    for verdict in found.verdicts:
        changes.setdefault(visible(verdict.agent), []).append("  " + verdict_change(out, verdict))
    alike: dict[tuple[str, ...], list[str]] = {}
    for agent, said in changes.items():
        alike.setdefault(tuple(said), []).append(agent)
    out.echo(out.style(f"--- {name}", fg="red"), err=True)
    out.echo(out.style(f"+++ {name} (edited)", fg="green"), err=True)
    for lines, agents in alike.items():
        count = f" ({len(agents)} crawlers)" if len(agents) > 2 else ""
        out.echo(f"{', '.join(agents)}{count}:", err=True)
        for line in lines:
            out.echo(line, err=True)
    others = [shown for shown in map(visible, found.agents) if shown not in changes]
    if others:
        out.echo(f"unchanged: {', '.join(others)}, and every crawler not named", err=True)
