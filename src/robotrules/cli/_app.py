"""The ``robotrules`` click group: its commands, exit codes, and how failures are shown.

:func:`run` runs the group without click's standalone mode, so that every way out is decided
here: a command's return value is the exit code; a usage error is one ``robotrules: error:``
line and a hint; a person's bad input (raised as, or translated into,
:class:`~robotrules.cli._errors.InputError` by the group) is one line and 2; Ctrl-C is one line
and 130; a closed stdout (``| head``) ends quietly. Library warnings (a damaged cache moved
aside, a failing store) are shown as ``robotrules: warning:`` lines on stderr. ``--debug``
(before the command or among its options) prints, before that one line, every traceback behind
it (:func:`~robotrules.cli._errors.debug_trace`: a Spark task's, Java's), for bug reports.

A bare ``pip install robotrules`` brings click, so the command runs for local files (lint, test,
diff, demo, crawlers, robots-url, --version); the commands that always fetch or need a heavy
optional part (:data:`NEEDS`) first check that it is installed and otherwise say, in one line
with exit code 2, which extra to install. ``--version`` also says which core runs
(``robotrules.core.CORE_BUILD``).
"""

from __future__ import annotations

import functools
import importlib.util
import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import click

from robotrules._version import __version__
from robotrules.cli._commands_audit import audit
from robotrules.cli._commands_batch import batch
from robotrules.cli._commands_check import check
from robotrules.cli._commands_crawlers import crawlers
from robotrules.cli._commands_demo import demo
from robotrules.cli._commands_diff import diff
from robotrules.cli._commands_edit import edit_command
from robotrules.cli._commands_fetch import fetch, robots_url
from robotrules.cli._commands_lint import lint
from robotrules.cli._commands_serve import serve
from robotrules.cli._commands_testing import test
from robotrules.cli._errors import (
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_PIPE,
    InputError,
    Interrupted,
    PipeClosed,
    debug_trace,
    missing_extra,
    translate,
)
from robotrules.cli._output import say, visible

__all__ = ["NEEDS", "cli", "run", "version"]

_BATCH = ("pyarrow", "pandas", "warcio", "httpx")
NEEDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "check": ("cli", ("httpx",)),
    "fetch": ("cli", ("httpx",)),
    "batch": ("batch", _BATCH),
    "audit": ("audit", _BATCH),  # the report's plots (matplotlib) are asked for by --report
}
"""The commands that need an extra whatever their arguments: command -> (extra, the modules it must find).

``serve`` checks its own (the service). lint, test and diff need httpx only for a URL, and say so then.
"""

HELP = """robots.txt exactly as Google applies it: decide URLs, test drafts, lint, compare.

Start with 'robotrules demo' (an example explained), then try your own files and sites.

\b
Exit codes:
  0    all allowed (or as expected), no lint error, no change
  1    some URL disallowed (check, test), some verdict not as expected
       (test --expect), lint errors (lint), changes found (diff)
  2    usage or input error: a missing or unreadable file, a bad URL,
       an unusable cache, a bad option (one line on stderr)
  130  interrupted (Ctrl-C)

\b
Every command has --help with examples, and --json for machine-readable output.
An error is one line; --debug (here or after the command) adds the full trace.
"""

DEBUG = "robotrules.debug"
"""The key of ``click.Context.meta`` (shared by the group's context and its command's) set by ``--debug``."""


def version() -> str:
    """``robotrules 0.2.0 (compiled core)``: the version and which core runs (``robotrules.core.CORE_BUILD``)."""
    from robotrules import core

    return f"robotrules {__version__} ({core.CORE_BUILD})"


def _show_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(version())
        ctx.exit()


def _set_debug(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[DEBUG] = True


def _debug_option(hidden: bool) -> click.Option:
    return click.Option(["--debug"], is_flag=True, expose_value=False, callback=_set_debug, hidden=hidden,
                        help="On an error, also print the full trace (Python's, and Spark's or Java's for an "
                             "engine), for a bug report.")


def _show_trace(ctx: click.Context, exc: BaseException) -> None:
    """With ``--debug``: every traceback behind the error, on stderr, before its one line."""
    if ctx.meta.get(DEBUG) and not isinstance(exc, (click.UsageError, PipeClosed)):
        click.echo(visible(debug_trace(exc), lines=True), err=True, nl=False)


class _Group(click.Group):
    """A click group whose commands' exceptions become one-line errors (see :func:`translate`),
    after their full trace with ``--debug``."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.Abort):
            raise
        except click.ClickException as exc:
            _show_trace(ctx, exc)
            raise
        except (Exception, KeyboardInterrupt) as exc:
            translated = translate(exc)
            if translated is None:
                raise
            _show_trace(ctx, exc)
            raise translated from None


@click.group(cls=_Group, help=HELP, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("--version", "-V", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the version and which core runs (compiled, or pure Python and why), and exit.")
def cli() -> None:
    """The ``robotrules`` group; :func:`run` runs it and returns the command's exit code."""


cli.params.append(_debug_option(hidden=False))


def _needing(name: str, callback: Callable[..., Any]) -> Callable[..., Any]:
    """``callback``, first checking that the extra of command ``name`` is installed (after --help, before any work)."""
    extra, modules = NEEDS[name]

    @functools.wraps(callback)
    def checked(*args: Any, **kwargs: Any) -> Any:
        missing = [module for module in modules if importlib.util.find_spec(module) is None]
        if missing:
            raise InputError(missing_extra(f"robotrules {name}", missing, extra))
        return callback(*args, **kwargs)

    return checked


for _command in (check, test, lint, diff, edit_command, fetch, robots_url, serve, demo, batch, audit, crawlers):
    if _command.name in NEEDS and _command.callback is not None:
        _command.callback = _needing(_command.name, _command.callback)
    _command.params.append(_debug_option(hidden=True))  # shown once, in the group's help
    cli.add_command(_command)


class _StderrHandler(logging.Handler):
    """The library's warnings as ``robotrules: warning: ...`` lines on stderr."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage().removeprefix("robotrules: ")
            say(f"robotrules: {record.levelname.lower()}: {message}", err=True)
        except Exception:  # a logging handler must not raise
            self.handleError(record)


@contextmanager
def _library_warnings() -> Iterator[None]:
    handler = _StderrHandler(logging.WARNING)
    logger = logging.getLogger("robotrules")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)


def _stdout_gone() -> int:
    """stdout's reader left: point stdout at /dev/null so the final flush cannot fail, exit quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (tests): nothing to flush
        pass
    return EXIT_PIPE


def _usage(exc: click.UsageError) -> int:
    """A usage error in two lines at most: the message, and where to find help."""
    no_args = getattr(click.exceptions, "NoArgsIsHelpError", None)
    if no_args is not None and isinstance(exc, no_args):  # bare "robotrules": the help is what was wanted
        click.echo(exc.format_message())
        return EXIT_OK
    message = " ".join(exc.format_message().split())
    if (isinstance(exc, click.NoSuchOption) and exc.option_name in {"-r", "--robots"}
            and exc.ctx is not None and exc.ctx.info_name == "check"):  # the old way to name a local file
        message = ("check decides URLs against their sites' live robots.txt; "
                   "to decide URLs against a local file, use: robotrules test FILE URL...")
    say(f"robotrules: error: {message}", err=True)
    path = exc.ctx.command_path if exc.ctx is not None else "robotrules"
    say(f"Try '{path} --help' for help.", err=True)
    return EXIT_INPUT


def run(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``) and return its exit code."""
    with _library_warnings():
        try:
            code = cli.main(args=list(argv) if argv is not None else None, prog_name="robotrules",
                            standalone_mode=False)
            sys.stdout.flush()
        except click.UsageError as exc:
            return _usage(exc)
        except PipeClosed:
            return _stdout_gone()
        except Interrupted:
            click.echo("robotrules: interrupted", err=True)
            return EXIT_INTERRUPTED
        except click.ClickException as exc:
            say(f"robotrules: error: {exc.format_message()}", err=True)
            return exc.exit_code
        except click.Abort:  # Ctrl-C or end of input while click was parsing
            click.echo("robotrules: interrupted", err=True)
            return EXIT_INTERRUPTED
        except BrokenPipeError:
            return _stdout_gone()
        except SystemExit as exc:  # a library (uvicorn) that exits on its own
            if exc.code is None or isinstance(exc.code, int):
                return exc.code or EXIT_OK
            say(f"robotrules: error: {exc.code}", err=True)
            return EXIT_INPUT
    return code if isinstance(code, int) else EXIT_OK
