"""Exit codes and the one-line errors of the ``robotrules`` command.

Every failure a person can cause (a missing file, a bad URL, an unusable cache, a bad option)
ends as one line on stderr and exit code 2, never a traceback: the commands raise
:class:`InputError`, and :func:`translate` turns the library's and the OS's exceptions into it.
A part that is not installed (httpx for the network, the service, the batch tables) is one line
too, with the pip command that installs it (:func:`missing_extra`).
"""

from __future__ import annotations

import sqlite3
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
    "describe_os_error",
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
