"""Fixtures of the diff tests: the real console script and sites on 127.0.0.1, as the command-line tests have them."""

from __future__ import annotations

from tests.cli.conftest import cli_env, console_script, site

__all__ = ["cli_env", "console_script", "site"]
