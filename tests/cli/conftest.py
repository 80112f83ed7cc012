"""Fixtures of the command-line tests: the real console script, and real sites on 127.0.0.1.

``robotrules(*args, stdin=..., env=...)`` runs the installed ``robotrules`` console script (the
one next to the venv's python) in a subprocess, with a timeout, in ``tmp_path``, with
``ROBOTRULES_CACHE`` pointing into ``tmp_path`` (never the user's cache) and colour settings
cleared; it returns the :class:`subprocess.CompletedProcess` (text). ``site(handler)`` starts a
scriptable HTTP server whose ``/robots.txt`` is answered by ``handler`` and returns it; every
server stops when the test ends.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.servers.http import Handler, HTTPServer, respond

SCRIPT = os.path.join(os.path.dirname(sys.executable), "robotrules")

ROBOTS = b"""\
User-agent: FooBot
DisAllow: /Private  # note

User-agent: *
Disallow: /tmp
Allow: /tmp/open

Sitemap: https://example.com/sitemap.xml
"""
"""The live robots.txt of most tests: a named group with a line written in mixed case and a
comment (shown exactly as written), and a ``*`` group."""

REQUIREMENT_ID = re.compile(r"\b[SFCPGRNL][0-9]{1,2}\b")
"""Requirement ids (F5, S1-S5, ...): never in what users read."""

TRACEBACK = "Traceback (most recent call last)"

Run = Callable[..., "subprocess.CompletedProcess[str]"]


def run_script(command: list[str], args: tuple[str, ...], cwd: Path, env: dict[str, str],
               stdin: str | bytes | None, timeout: float, binary: bool = False) -> subprocess.CompletedProcess[Any]:
    """One run of the command line; stdin /dev/null unless given (never the test runner's).
    Output is text (UTF-8, undecodable bytes replaced), or bytes with ``binary``."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    done = subprocess.run([*command, *args], input=data, stdin=subprocess.DEVNULL if data is None else None,
                          capture_output=True, cwd=cwd, env=env, timeout=timeout, check=False)
    if binary:
        return done
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


@pytest.fixture
def cli_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a run: the cache in tmp_path, no colour settings inherited."""
    env = {k: v for k, v in os.environ.items() if k not in {"NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE"}}
    env["ROBOTRULES_CACHE"] = str(tmp_path / "cache" / "robots.sqlite3")
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    env["PYTHONUNBUFFERED"] = "1"
    return env


@pytest.fixture
def robotrules(tmp_path: Path, cli_env: dict[str, str]) -> Run:
    """Run the installed console script: ``robotrules("check", url, stdin=..., env=..., binary=False)``."""
    if not os.path.exists(SCRIPT):
        pytest.skip(f"no robotrules console script next to {sys.executable}")

    def run(*args: str, stdin: str | bytes | None = None, env: dict[str, str] | None = None,
            timeout: float = 20.0, binary: bool = False) -> subprocess.CompletedProcess[Any]:
        return run_script([SCRIPT], args, tmp_path, {**cli_env, **(env or {})}, stdin, timeout, binary)

    return run


@pytest.fixture
def python_m(tmp_path: Path, cli_env: dict[str, str]) -> Run:
    """Run ``python -m robotrules`` the same way."""

    def run(*args: str, stdin: str | bytes | None = None, env: dict[str, str] | None = None,
            timeout: float = 20.0) -> subprocess.CompletedProcess[str]:
        return run_script([sys.executable, "-m", "robotrules"], args, tmp_path, {**cli_env, **(env or {})},
                          stdin, timeout)

    return run


@pytest.fixture
def site() -> Iterator[Callable[..., HTTPServer]]:
    """``site(handler=respond(200, ROBOTS))``: a started server answering /robots.txt with ``handler``."""
    servers: list[HTTPServer] = []

    def start(handler: Handler | None = None) -> HTTPServer:
        server = HTTPServer().start()
        servers.append(server)
        server.route("/robots.txt", handler or respond(200, ROBOTS))
        return server

    yield start
    for server in servers:
        server.stop()


def assert_clean_error(done: subprocess.CompletedProcess[str], code: int = 2) -> str:
    """A failed run as a person should see it: the exit code, one ``robotrules: error:`` line
    (plus, for a usage error, the help hint), no traceback, no requirement id. Returns the line."""
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    assert TRACEBACK not in done.stderr
    lines = done.stderr.splitlines()
    errors = [line for line in lines if line.startswith("robotrules: error: ")]
    assert len(errors) == 1, done.stderr
    assert all(line in errors or line.startswith("Try 'robotrules") for line in lines), done.stderr
    assert not REQUIREMENT_ID.search(done.stderr), done.stderr
    return errors[0]


def json_lines(text: str) -> list[dict[str, Any]]:
    """The objects of JSON Lines output."""
    import json

    return [json.loads(line) for line in text.splitlines() if line.strip()]
