"""``robotrules diff``: rules and verdicts that change between two files, either side a file or a URL."""

from __future__ import annotations

import json

from tests.servers.http import respond

from .conftest import assert_clean_error

OLD = b"User-agent: *\nDisallow: /private/\nAllow: /private/public\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n"
NEW = b"User-agent: Googlebot\nDisallow: /nogoogle\n\nUser-agent: *\nAllow: /private/\nDisallow: /tmp/*.pdf$\n"


def test_rule_and_verdict_changes_of_two_files(robotrules, tmp_path):
    """G2-G4, R6: per crawler, the rules added, removed or flipped and the URLs whose verdict
    changes; exit 1 because something changed."""
    (tmp_path / "old.txt").write_bytes(OLD)
    (tmp_path / "new.txt").write_bytes(NEW)
    done = robotrules("diff", "old.txt", "new.txt")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:3] == ["--- old.txt", "+++ new.txt", "rules:"]
    assert "*  ~ changed now allow: /private/ (was disallow)  (old line 2, new line 5)" in done.stdout
    assert "*  - removed allow: /private/public  (old line 3)" in done.stdout
    assert "*  + added   disallow: /tmp/*.pdf$  (new line 6)" in done.stdout
    assert "*  /tmp/.pdf  allowed -> disallowed  (by line 6 of the new file: 'disallow: /tmp/*.pdf$')" in done.stdout
    assert "Googlebot" not in done.stdout  # Googlebot's own group did not change


def test_the_same_rules_reordered_are_no_change(robotrules, tmp_path):
    (tmp_path / "old.txt").write_bytes(b"user-agent: *\ndisallow: /a\nallow: /b\n")
    (tmp_path / "new.txt").write_bytes(b"User-Agent: *\nAllow: /b   # kept\nDisallow: /a\n")
    done = robotrules("diff", "old.txt", "new.txt")
    assert done.returncode == 0
    assert done.stdout.splitlines()[-1] == "no changes for *"


def test_json_is_the_diff_document(robotrules, tmp_path):
    (tmp_path / "old.txt").write_bytes(OLD)
    (tmp_path / "new.txt").write_bytes(NEW)
    data = json.loads(robotrules("diff", "--json", "old.txt", "new.txt", "--urls", "-",
                                 stdin="/private/report.html\n").stdout)
    assert data["changed"] is True and data["agents"] == ["*", "Googlebot"]
    assert {"change": "removed", "agent": "*", "kind": "allow", "value": "/private/public", "old_line": 3,
            "new_line": None} in data["rules"]  # not in the new file: null in JSON (issue #19)
    assert data["verdicts"][0]["url"] == "/private/report.html"


def test_agents_are_chosen_by_product_token(robotrules, tmp_path):
    (tmp_path / "old.txt").write_bytes(OLD)
    (tmp_path / "new.txt").write_bytes(NEW)
    data = json.loads(robotrules("diff", "--json", "-a", "Googlebot/2.1", "old.txt", "new.txt").stdout)
    assert data["agents"] == ["Googlebot"] and data["changed"] is False


def test_a_file_against_the_live_robots_txt(robotrules, site, tmp_path):
    server = site(respond(200, OLD))
    (tmp_path / "new.txt").write_bytes(NEW)
    done = robotrules("diff", server.url("/"), "new.txt")
    assert done.returncode == 1
    assert done.stdout.startswith(f"--- {server.url()}\n+++ new.txt\n")
    same = robotrules("diff", server.url("/"), "-", stdin=OLD)
    assert same.returncode == 0, same.stdout + same.stderr


def test_a_live_site_without_robots_txt_compares_as_an_empty_file(robotrules, site, tmp_path):
    server = site(respond(404))
    (tmp_path / "new.txt").write_bytes(b"user-agent: *\ndisallow: /x\n")
    done = robotrules("diff", server.url(), "new.txt")
    assert done.returncode == 1
    assert "compared as an empty file" in done.stderr
    assert "+ added   disallow: /x" in done.stdout


def test_a_live_site_that_cannot_be_read_is_an_input_error(robotrules, site, tmp_path):
    server = site(respond(503))
    (tmp_path / "new.txt").write_bytes(b"")
    assert "cannot compare" in assert_clean_error(robotrules("diff", server.url(), "new.txt"))


def test_missing_files_and_two_stdins_are_input_errors(robotrules, tmp_path):
    (tmp_path / "new.txt").write_bytes(NEW)
    assert "No such file or directory: 'old.txt'" in assert_clean_error(robotrules("diff", "old.txt", "new.txt"))
    assert "standard input can be read once" in assert_clean_error(robotrules("diff", "-", "-", stdin=NEW))
    assert "Missing argument 'NEW'" in assert_clean_error(robotrules("diff", "new.txt"))
