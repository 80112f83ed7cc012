"""Text from strangers never drives the terminal: every command shows a site's (or a registry's)
control characters, C1 controls and bidi overrides as visible escapes, through a real
pseudo-terminal, while data written to a file or pipe stays exactly as it was."""

from __future__ import annotations

import json
import os
import pty
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.servers.http import HTTPServer, respond

from .conftest import SCRIPT, TRACEBACK

HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x1b]52;c;cHduZWQ=\x07\u009b31m\u202e"
"""What a hostile site writes: a new terminal title (OSC 0), clear screen (CSI 2J), a clipboard
write (OSC 52), an 8-bit CSI (U+009B) and a right-to-left override (U+202E)."""

RAW = [b"\x1b]", b"\x1b[2J", b"\x07", "\u009b".encode(), "\u202e".encode()]
"""The bytes that must never reach the terminal."""

SHOWN = [b"\\x1b]0;pwned\\x07\\x1b[2J\\x1b]52;c;cHduZWQ=\\x07", b"\\x9b31m", b"\\u202e"]
"""The same characters as a person sees them instead."""

ROBOTS = (f"User-agent: *\nDisallow: /a{HOSTILE}\nFoo{HOSTILE}: bar\n"
          f"Sitemap: https://example.com/s{HOSTILE}.xml\n").encode()

REGISTRY = {"crawlers": [{"name": f"Evil{HOSTILE}", "operator": f"Op{HOSTILE}", "purpose": f"p{HOSTILE}",
                          "kind": "other", "source": "https://example.com/"}]}

Args = Callable[[Path, HTTPServer], list[str]]


def _on_terminal(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, bytes]:
    """Run the console script with stdout and stderr on one pseudo-terminal: its exit code and
    every byte the terminal received."""
    from .harness import drain_terminal

    controller, terminal = pty.openpty()
    process = subprocess.Popen([SCRIPT, *args], stdin=subprocess.DEVNULL, stdout=terminal, stderr=terminal,
                               cwd=cwd, env=env)
    os.close(terminal)
    return drain_terminal(controller, process, 30)


def _files(tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_bytes(b"User-agent: *\nDisallow: /b\n")
    (tmp_path / "robots.txt").write_bytes(ROBOTS)
    (tmp_path / "registry.json").write_text(json.dumps(REGISTRY), encoding="utf-8")


COMMANDS: dict[str, Args] = {
    "lint": lambda path, server: ["lint", "robots.txt"],
    "diff": lambda path, server: ["diff", "old.txt", "robots.txt"],
    "fetch": lambda path, server: ["fetch", "--no-cache", server.url("/x")],
    "fetch --body": lambda path, server: ["fetch", "--no-cache", "--body", server.url("/x")],
    "edit": lambda path, server: ["edit", "robots.txt", "--block", "GPTBot"],
    "edit --write": lambda path, server: ["edit", "robots.txt", "--block", "GPTBot", "--write"],
    "crawlers": lambda path, server: ["crawlers", "--registry", "registry.json", "--replace"],
    "crawlers --format csv": lambda path, server: ["crawlers", "--registry", "registry.json", "--replace",
                                                   "--format", "csv"],
    "crawlers --json": lambda path, server: ["crawlers", "--registry", "registry.json", "--replace", "--json"],
    "test": lambda path, server: ["test", "robots.txt", "-a", "Foo", f"/a{HOSTILE}"],
    "check": lambda path, server: ["check", "--no-cache", "-a", "Foo", server.url(f"/a{HOSTILE}")],
}


@pytest.mark.parametrize("command", list(COMMANDS))
def test_no_command_writes_a_sites_escape_sequences_to_the_terminal(command, tmp_path, cli_env, site):
    """A site's title change, screen clear, clipboard write, 8-bit CSI and right-to-left override
    reach the terminal as visible escapes (``\\x1b``, ``\\u202e``), never as the characters."""
    _files(tmp_path)
    server = site(respond(200, ROBOTS))
    code, shown = _on_terminal(COMMANDS[command](tmp_path, server), tmp_path, cli_env)
    assert code in (0, 1), shown
    assert TRACEBACK.encode() not in shown
    for raw in RAW:
        assert raw not in shown, (raw, shown)
    if command == "crawlers --json":  # JSON's own escapes: \u001b, \u009b, \u202e
        assert b"\\u001b]0;pwned\\u0007" in shown and b"\\u009b" in shown and b"\\u202e" in shown, shown
    else:
        for escaped in SHOWN:
            assert escaped in shown, (escaped, shown)


def test_data_sent_to_a_file_or_pipe_is_the_sites_bytes_exactly(console_script, site, tmp_path):
    """Escaping is for the terminal: ``fetch --body`` and ``edit`` into a pipe give the file's
    bytes as they are (a copy to edit), and ``edit --write`` writes them so."""
    _files(tmp_path)
    server = site(respond(200, ROBOTS))
    assert console_script("fetch", "--no-cache", "--body", server.url("/x"), binary=True).stdout == ROBOTS
    edited = console_script("edit", "robots.txt", "--block", "GPTBot", binary=True).stdout
    assert edited.startswith(ROBOTS)
    assert console_script("edit", "robots.txt", "--block", "GPTBot", "--write").returncode == 0
    assert (tmp_path / "robots.txt").read_bytes() == edited


def test_the_files_line_breaks_stay_line_breaks_on_the_terminal(tmp_path, cli_env):
    """A whole file shown on a terminal keeps its LF and CRLF line breaks; a lone carriage
    return (which would let a line overwrite itself) is shown as ``\\x0d``."""
    (tmp_path / "robots.txt").write_bytes(b"User-agent: *\r\nDisallow: /x\rAllow: /\n")
    code, shown = _on_terminal(["edit", "robots.txt", "--block", "GPTBot"], tmp_path, cli_env)
    assert code == 0
    assert b"User-agent: *\r" in shown and b"User-agent: *\\x0d" not in shown, shown  # CRLF as it is
    assert b"Disallow: /x\\x0dAllow: /" in shown, shown
