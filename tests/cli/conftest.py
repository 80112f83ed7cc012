"""Fixtures of the command-line tests: the command run in process or as the console script, and
real sites on 127.0.0.1.

``robotrules(*args, stdin=..., env=..., binary=False)`` runs the command line in this process
(:func:`tests.cli.harness.in_process`: ``robotrules.cli.main`` with its own stdin, stdout,
stderr, environment and working directory, everything put back afterwards), in ``tmp_path``,
with ``ROBOTRULES_CACHE`` pointing into ``tmp_path`` (never the user's cache) and colour
settings cleared; it returns a :class:`subprocess.CompletedProcess` (text) as a real run would.
``console_script(...)`` and ``python_m(...)`` do the same with a real process (the installed
``robotrules`` script, ``python -m robotrules``): for what only a process proves (the entry
points, signals, pipes, terminals). ``site(handler)`` starts a scriptable HTTP server whose
``/robots.txt`` is answered by ``handler`` and returns it; every server stops when the test ends.
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

from tests.cli.harness import SCRIPT, cli_environment, in_process, in_subprocess
from tests.servers.http import Handler, HTTPServer, respond

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

REQUIREMENT_ID = re.compile(r"\b[SFCPGRNAL][0-9]{1,2}\b")
"""Requirement ids (F5, S1-S5, ...): never in what users read."""

TRACEBACK = "Traceback (most recent call last)"

Run = Callable[..., "subprocess.CompletedProcess[str]"]


def run_script(command: list[str], args: tuple[str, ...], cwd: Path, env: dict[str, str],
               stdin: str | bytes | None, timeout: float, binary: bool = False) -> subprocess.CompletedProcess[Any]:
    """One run of the command line as a real process (:func:`tests.cli.harness.in_subprocess`)."""
    return in_subprocess(command, args, cwd=cwd, env=env, stdin=stdin, timeout=timeout, binary=binary)


@pytest.fixture
def cli_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a run: the cache in tmp_path, no colour settings inherited."""
    return cli_environment(tmp_path)


@pytest.fixture
def robotrules(tmp_path: Path, cli_env: dict[str, str]) -> Run:
    """Run the command line in process: ``robotrules("check", url, stdin=..., env=..., binary=False)``."""

    def run(*args: str, stdin: str | bytes | None = None, env: dict[str, str] | None = None,
            timeout: float = 20.0, binary: bool = False) -> subprocess.CompletedProcess[Any]:
        return in_process(args, cwd=tmp_path, env={**cli_env, **(env or {})}, stdin=stdin, timeout=timeout,
                          binary=binary)

    return run


@pytest.fixture
def console_script(tmp_path: Path, cli_env: dict[str, str]) -> Run:
    """Run the installed console script as a real process, the same way."""
    if not os.path.exists(SCRIPT):
        pytest.fail(f"no robotrules console script next to {sys.executable}: install the project (pip install -e .)")

    def run(*args: str, stdin: str | bytes | None = None, env: dict[str, str] | None = None,
            timeout: float = 20.0, binary: bool = False) -> subprocess.CompletedProcess[Any]:
        return run_script([SCRIPT], args, tmp_path, {**cli_env, **(env or {})}, stdin, timeout, binary)

    return run


@pytest.fixture
def python_m(tmp_path: Path, cli_env: dict[str, str]) -> Run:
    """Run ``python -m robotrules`` as a real process, the same way."""

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


def json_results(text: str) -> list[dict[str, Any]]:
    """The results of a per-URL command's ``--json`` output: one JSON document ``{"results": [...]}``."""
    import json

    document = json.loads(text)  # one document: anything else on stdout fails here
    assert isinstance(document, dict) and list(document) == ["results"], text[:200]
    results: list[dict[str, Any]] = document["results"]
    return results
