"""Exit codes and the one-line errors of the ``robotrules`` command.

Every failure a person can cause (a missing file, a bad URL, an unusable cache, a bad option)
ends as one line on stderr and exit code 2, never a traceback: the commands raise
:class:`InputError`, and :func:`translate` turns the library's and the OS's exceptions into it.
A part that is not installed (httpx for the network, the service, the batch tables) is one line
too, with the pip command that installs it (:func:`missing_extra`). An engine that fails (a Spark
task that raised, a JVM that died) is one line too (:func:`engine_error`); ``--debug`` adds the
whole story, every traceback of the chain (:func:`debug_trace`).
"""

from __future__ import annotations

import re
import sqlite3
import traceback
from collections.abc import Sequence

import click

from robotrules.errors import BlockedAddress, InvalidURL, MissingExtra, StoreError

__all__ = [
    "EXIT_FOUND",
    "EXIT_INPUT",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_PIPE",
    "InputError",
    "Interrupted",
    "PipeClosed",
    "debug_trace",
    "describe_os_error",
    "engine_error",
    "missing_extra",
    "translate",
]

EXIT_OK = 0
"""Every URL allowed (or as expected), no lint error, no change."""
EXIT_FOUND = 1
"""Some URL disallowed (or not as expected), lint errors, or a diff found changes."""
EXIT_INPUT = 2
"""A usage or input error: one line on stderr."""
EXIT_INTERRUPTED = 130
"""Interrupted with Ctrl-C (128 + SIGINT, as shells report it)."""
EXIT_PIPE = 141
"""The reader of stdout went away (``robotrules check ... | head``): 128 + SIGPIPE, silently."""


class InputError(click.ClickException):
    """A person's input cannot be used: shown as ``robotrules: error: <message>``, exit code 2."""

    exit_code = EXIT_INPUT


class Interrupted(click.ClickException):
    """Ctrl-C: shown as one line, exit code 130."""

    exit_code = EXIT_INTERRUPTED

    def __init__(self) -> None:
        super().__init__("interrupted")


class PipeClosed(click.ClickException):
    """stdout was closed by its reader: nothing more to say, exit code 141."""

    exit_code = EXIT_PIPE

    def __init__(self) -> None:
        super().__init__("")


def missing_extra(what: str, modules: Sequence[str], extra: str) -> str:
    """``check needs httpx: pip install 'robotrules[cli]'``: what needs which missing modules, and the line to run."""
    return f"{what} needs {', '.join(modules)}: pip install 'robotrules[{extra}]'"


def describe_os_error(exc: OSError, what: str = "") -> str:
    """``cannot read robots.txt: No such file or directory: 'x'``: the OS's words without ``[Errno n]``."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    where = f": {exc.filename!r}" if exc.filename is not None else ""
    return f"{what + ': ' if what else ''}{reason}{where}"


def translate(exc: BaseException) -> click.ClickException | None:
    """The one-line error for an exception a command let through, or None when it is a bug.

    Order matters: BrokenPipeError and the library's URL errors are OSError and ValueError too.
    """
    if isinstance(exc, click.ClickException):
        return exc
    if isinstance(exc, KeyboardInterrupt):
        return Interrupted()
    if isinstance(exc, BrokenPipeError):
        return PipeClosed()
    if isinstance(exc, (InvalidURL, BlockedAddress)):  # UnsupportedScheme is an InvalidURL
        return InputError(str(exc))
    if isinstance(exc, MissingExtra):
        if exc.extra == "http":  # the command's users know the cli extra, which brings httpx too
            return InputError(missing_extra("fetching robots.txt over the network", [exc.module], "cli"))
        return InputError(str(exc))
    if isinstance(exc, StoreError):
        return InputError(f"the cache failed: {exc}")
    if isinstance(exc, sqlite3.Error):
        return InputError(f"the cache failed: {exc}")
    if isinstance(exc, UnicodeDecodeError):
        return InputError(f"the input is not UTF-8 text: {exc.reason} at byte {exc.start}")
    if isinstance(exc, UnicodeEncodeError):
        return InputError(f"cannot write {exc.object[exc.start:exc.end]!r} in this terminal's encoding ({exc.encoding}); "
                          "set PYTHONIOENCODING=utf-8 or use --json")
    if isinstance(exc, OSError):
        return InputError(describe_os_error(exc))
    return None


_TRACEBACK = "Traceback (most recent call last)"
_JAVA = re.compile(r"^(?:Caused by: )?(?:[a-z][\w$]*\.)+(?P<name>[A-Z][\w$]*): (?P<message>.+)$")
"""A Java exception line (``org.apache.spark.SparkException: ...``, ``Caused by: java.io.IOException: ...``)."""
_STAGE = re.compile(r"Job aborted due to stage failure: .*?most recent failure: Lost task .*?\): ")
"""Spark's preamble to the error of the task that failed (which task, which attempt, which host)."""
_LONGEST = 400


def _java(line: str) -> str | None:
    """``IOException: No space left on device`` for a Java exception line; None for any other line."""
    found = _JAVA.match(line)
    return f"{found['name']}: {found['message']}" if found is not None else None


def _cause_line(text: str) -> str:
    """What failed, in one line, from the text of an engine's error: the exception line of the
    last Python traceback in it (a task's, as Python printed it), else the last ``Caused by:``
    of a Java trace, else its first exception line, else its first line; Java class names without
    their packages, at most 400 characters."""
    found = ""
    if _TRACEBACK in text:
        lines = text.rsplit(_TRACEBACK, 1)[1].splitlines()[1:]  # after the rest of that line
        found = next((line.strip() for line in lines if line.strip() and not line[0].isspace()), "")
    if not found:
        every = [line.strip().removeprefix(": ") for line in text.splitlines() if line.strip()]
        java = [(line.startswith("Caused by: "), shown) for line in every if (shown := _java(line)) is not None]
        causes = [shown for caused, shown in java if caused]
        found = causes[-1] if causes else java[0][1] if java else every[0] if every else ""
        preamble = _STAGE.search(found)
        if preamble is not None:  # the task's own error follows it
            found = found[preamble.end():]
            found = _java(found) or found
    return found if len(found) <= _LONGEST else found[: _LONGEST - 3] + "..."


def engine_error(engine: str, exc: BaseException) -> click.ClickException:
    """The one-line error for an exception a batch engine other than the local one let through:
    the usual one when :func:`translate` knows it (a file that cannot be written, a cache that
    failed), else ``the spark engine failed: ZeroDivisionError: division by zero ...``, what
    failed taken from the engine's error (a task's Python traceback, a Java trace), which
    ``--debug`` shows whole."""
    translated = translate(exc)
    if translated is not None:
        return translated
    what = _cause_line(str(exc)) or type(exc).__name__
    return InputError(f"the {engine} engine failed: {what} (run again with --debug for the full error)")


def debug_trace(exc: BaseException) -> str:
    """Every traceback behind ``exc``, oldest first, as Python prints a chain, including the
    exceptions a one-line error hid (``raise InputError(...) from None``): what ``--debug`` shows."""
    chain: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not seen for seen in chain):
        chain.append(current)
        current = current.__cause__ if current.__cause__ is not None else current.__context__
    parts: list[str] = []
    for older, newer in zip(reversed(chain), [*reversed(chain[:-1]), None], strict=True):
        parts.append("".join(traceback.format_exception(type(older), older, older.__traceback__, chain=False)))
        if newer is not None:
            parts.append("\nThe above exception was the direct cause of the following exception:\n\n"
                         if newer.__cause__ is older else
                         "\nDuring handling of the above exception, another exception occurred:\n\n")
    return "".join(parts)
