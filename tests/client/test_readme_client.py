"""The README's client example runs as written, against a real server on 127.0.0.1 (no internet)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.servers.http import respond

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_client_example_runs_against_a_local_site(server, tmp_path, monkeypatch):
    server.route("/robots.txt", respond(200, b"user-agent: *\nallow: /private/press\ndisallow: /private\n"))
    blocks = re.findall(r"```py\n(.*?)```", README.read_text(), re.S)
    assert blocks, "the README has a client example"
    monkeypatch.chdir(tmp_path)
    for block in blocks:
        code = block.replace("https://example.com", f"http://127.0.0.1:{server.port}")
        exec(compile(code, "README.md", "exec"), {})
    assert server.hits("/robots.txt") == 2  # the first check, then refresh()
    assert (tmp_path / "robots.sqlite3").exists()
