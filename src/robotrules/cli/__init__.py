"""The ``robotrules`` command for people: decide live URLs, test drafts, lint, compare, serve.

The face is :func:`main` (and ``cli``, the click group); the parts are private modules.
Commands (each in its own module, ``_commands_*.py``): ``check`` (live URLs through the shared
cache), ``test`` (URLs against one robots.txt, with expected verdicts for CI), ``lint``
(compiler-style diagnostics), ``diff`` (what a new file changes), ``fetch`` (the robots.txt
governing a URL), ``robots-url``, ``serve`` (the HTTP service) and ``demo`` (the embedded
example explained). Inputs are read by ``_sources``, live files fetched by ``_fetching``,
output written by ``_output``, shared options defined once in ``_options``; ``_app`` holds the
click group and the exit codes (``_errors``).

Exit codes: 0 all allowed / no problem, 1 something disallowed, not as expected, a lint error
or a change, 2 a usage or input error (one line on stderr, no traceback), 130 interrupted.

A bare ``pip install robotrules`` brings click, so the command works on local files (lint,
test, diff, demo, crawlers, robots-url, ``--version``, which also says which core runs). What
fetches (check, fetch, a URL given to lint, test or diff) needs httpx, the ``cli`` extra, and
serve, batch and audit need theirs: without it, the command says in one line which extra to
install (exit code 2). Should click itself be missing (an install with ``--no-deps``), this
package still imports and :func:`main` prints a one-line "pip install 'robotrules[cli]'" message.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from robotrules.cli._example import EXAMPLE, EXAMPLE_AGENTS, EXAMPLE_URLS

if TYPE_CHECKING:
    from robotrules.cli._app import cli as cli

__all__ = ["EXAMPLE", "EXAMPLE_AGENTS", "EXAMPLE_URLS", "cli", "main"]


def __getattr__(name: str) -> object:
    """``robotrules.cli.cli``, the click group, imported on first use (it needs click)."""
    if name == "cli":
        from robotrules.cli._app import cli

        return cli
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: Sequence[str] | None = None) -> int:
    """Console entry point: run the command line ``argv`` (default ``sys.argv[1:]``), return the exit code."""
    try:
        import click  # noqa: F401
    except ImportError:
        print("robotrules: the command line needs click: pip install 'robotrules[cli]'", file=sys.stderr)
        return 2
    from robotrules.cli._app import run

    return run(argv)
