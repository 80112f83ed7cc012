"""The robotrules command (click): check, lint, robots-url, fetch, --version."""

from __future__ import annotations

import importlib.metadata
import json
import sys

import robotrules
from robotrules import cli


def run(args, capsys):
    code = cli.main(args)
    return code, capsys.readouterr()


def test_check_without_arguments_uses_the_embedded_example(capsys):
    code, out = run(["check"], capsys)
    assert "(embedded example)" in out.out
    assert "DISALLOW googlebot-news   https://www.example.com/fish/salmon.html" in out.out
    assert code == 1  # some URL is disallowed


def test_check_json_on_a_file(tmp_path, capsys):
    robots = tmp_path / "robots.txt"
    robots.write_bytes(b"user-agent: *\ndisallow: /private\n")
    code, out = run(["check", "-r", str(robots), "-a", "bot", "--json", "https://h/private/x", "https://h/ok"], capsys)
    rows = [json.loads(line) for line in out.out.splitlines()]
    assert [(r["allowed"], r["line"]) for r in rows] == [(False, 2), (True, 0)]
    assert code == 1


def test_lint_exit_code_reflects_errors(tmp_path, capsys):
    robots = tmp_path / "robots.txt"
    robots.write_bytes(b"user-agent: *\nthis is not a rule\n")
    code, out = run(["lint", str(robots)], capsys)
    assert code == 1 and "[invalid-line]" in out.out
    robots.write_bytes(b"user-agent: *\ndisallow: /x\n")
    code, out = run(["lint", str(robots), "--json"], capsys)
    assert code == 0 and json.loads(out.out) == []


def test_robots_url_and_bad_url(capsys):
    code, out = run(["robots-url", "https://Example.COM:443/a?b#c", "not a url"], capsys)
    assert out.out.splitlines() == ["https://example.com/robots.txt"]
    assert "not an absolute URL" in out.err and code == 2


def test_version_is_the_one_package_version(capsys):
    """`robotrules --version` prints the version of the installed metadata, which is
    `robotrules.__version__` (one source: src/robotrules/_version.py)."""
    code, out = run(["--version"], capsys)
    assert code == 0
    assert out.out == f"robotrules, version {importlib.metadata.version('robotrules')}\n"
    assert importlib.metadata.version("robotrules") == robotrules.__version__


def test_missing_click_gives_the_install_hint(monkeypatch, capsys):
    """DESIGN 12: a missing extra is a one-line message, not a traceback."""
    monkeypatch.setitem(sys.modules, "click", None)
    assert cli.main(["check"]) == 2
    assert "pip install 'robotrules[cli]'" in capsys.readouterr().err


def test_unknown_command_is_a_usage_error(capsys):
    assert cli.main(["frobnicate"]) == 2


def test_fetch_decides_live_urls_and_caches_in_sqlite(tmp_path, capsys):
    """F2, C1: `robotrules fetch` fetches once into its SQLite cache; a second run reads the cache."""
    from tests.servers.http import HTTPServer, respond

    cache = tmp_path / "cache.sqlite3"
    with HTTPServer() as server:
        server.route("/robots.txt", respond(200, b"user-agent: *\ndisallow: /private\n"))
        base = f"http://127.0.0.1:{server.port}"
        args = ["fetch", "--cache", str(cache), "-a", "bot", "--json", base + "/private/x", base + "/ok"]
        code, out = run(args, capsys)
        rows = [json.loads(line) for line in out.out.splitlines()]
        assert code == 1
        assert [(r["allowed"], r["line"], r["status"], r["cache"]) for r in rows] == [(False, 2, 200, "miss"), (True, 0, 200, "hit")]
        code, out = run(args, capsys)
        assert [json.loads(line)["cache"] for line in out.out.splitlines()] == ["hit", "hit"]
        assert server.hits("/robots.txt") == 1
        code, out = run(["fetch", "--no-cache", "--refresh", base + "/ok"], capsys)
        assert code == 0 and "ALLOW" in out.out and server.hits("/robots.txt") == 2


def test_fetch_reports_full_disallow_for_a_dead_site_and_bad_urls(tmp_path, capsys):
    """F8: a refused connection is full disallow; a URL without a host is a usage error (exit 2)."""
    from tests.servers.http import free_port

    code, out = run(["fetch", "--no-cache", "--timeout", "2", f"http://127.0.0.1:{free_port()}/x", "not-a-url"], capsys)
    assert code == 2
    assert "DISALLOW" in out.out and "full disallow" in out.out
    assert "error: " in out.err
