"""Issue #19 item 9: one JSON convention for every command, through the real console script.

``--json`` prints one JSON document (a per-URL command: ``{"results": [...]}``); JSON Lines only
with ``--jsonl``; lines and columns 1-based as in the text; "no deciding line" is null (R1, R6).
"""

from __future__ import annotations

import json

import pytest

from .conftest import ROBOTS, json_lines, json_results

FILE = b"User-agent: *\nDisallow: /private\nDisallow: admin/\n"


@pytest.fixture
def robots_file(tmp_path):
    (tmp_path / "robots.txt").write_bytes(FILE)
    (tmp_path / "new.txt").write_bytes(b"User-agent: *\nDisallow: /\n")
    return tmp_path / "robots.txt"


@pytest.mark.parametrize("args", [
    ("test", "robots.txt", "/private/x", "/open"),
    ("robots-url", "https://a.example/x", "https://b.example/y"),
    ("lint", "robots.txt"),
    ("diff", "robots.txt", "new.txt"),
    ("demo",),
    ("crawlers", "gptbot"),
])
def test_every_command_prints_one_json_document(console_script, robots_file, args):
    """One document on stdout, whatever the number of results (json.loads reads it whole)."""
    done = console_script(*args, "--json")
    assert done.returncode in (0, 1), done.stderr
    json.loads(done.stdout)


def test_per_url_commands_collect_their_results_in_order(console_script, robots_file, site):
    """test, check, fetch and robots-url: ``{"results": [...]}``, one per URL and agent, errors included."""
    rows = json_results(console_script("test", "robots.txt", "--json", "/private/x", "/open").stdout)
    assert [(r["url"], r["allowed"]) for r in rows] == [("/private/x", False), ("/open", True)]
    rows = json_results(console_script("robots-url", "--json", "https://a.example/x", "nowhere").stdout)
    assert rows[0]["robots_url"] == "https://a.example/robots.txt" and "error" in rows[1]
    server = site()
    rows = json_results(console_script("check", "--json", server.url("/a"), server.url("/tmp/b")).stdout)
    assert [r["allowed"] for r in rows] == [True, False]
    rows = json_results(console_script("fetch", "--json", server.url("/a")).stdout)
    assert rows[0]["size"] == len(ROBOTS)


def test_json_lines_only_behind_jsonl(console_script, robots_file, site):
    """--jsonl: one object a line as each result is known (implies JSON)."""
    rows = json_lines(console_script("test", "robots.txt", "--jsonl", "/private/x", "/open").stdout)
    assert [r["url"] for r in rows] == ["/private/x", "/open"]
    rows = json_lines(console_script("robots-url", "--jsonl", "https://a.example/x", "https://b.example/").stdout)
    assert [r["robots_url"] for r in rows] == ["https://a.example/robots.txt", "https://b.example/robots.txt"]
    server = site()
    assert len(json_lines(console_script("check", "--jsonl", server.url("/a"), server.url("/b")).stdout)) == 2
    assert len(json_lines(console_script("fetch", "--jsonl", server.url("/a")).stdout)) == 1


def test_no_deciding_line_is_null_not_zero(console_script, robots_file):
    """R1: a URL no rule matches has no deciding line: null in JSON (the Python API keeps 0)."""
    rows = json_results(console_script("test", "robots.txt", "--json", "/open", "/private/x").stdout)
    assert [(r["line"], r["text"]) for r in rows] == [(None, None), (2, "Disallow: /private")]
    data = json.loads(console_script("diff", "--json", "robots.txt", "new.txt").stdout)
    lines = [change[key] for change in data["rules"] for key in ("old_line", "new_line")]
    assert None in lines and 0 not in lines
    verdicts = json.loads(console_script("demo", "--json").stdout)["verdicts"]
    assert all(v["line"] is None or v["line"] >= 1 for v in verdicts)


def test_lint_columns_in_json_are_the_texts(console_script, robots_file):
    """Columns are 1-based in JSON as in the text (robots.txt:3:11 is line 3, column 11)."""
    text = console_script("lint", "robots.txt").stdout
    data = json.loads(console_script("lint", "--json", "robots.txt").stdout)
    finding = data["diagnostics"][0]
    assert f"robots.txt:{finding['line']}:{finding['column']}: " in text
    assert (finding["line"], finding["column"], finding["fix"]) == (3, 11, "Disallow: /admin/")
