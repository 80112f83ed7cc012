"""``robotrules edit``: the edited robots.txt on stdout, what it changes on stderr, --write, --check
(G1-G5, P1, N2, A1), through the installed console script."""

from __future__ import annotations

import json

from .conftest import REQUIREMENT_ID, assert_clean_error

SITE = (b"# shop\r\n"
        b"User-agent: *\r\n"
        b"Disallow: /cart\r\n"
        b"Content-Signal: search=yes, ai-train=no\r\n"
        b"License: https://example.com/license\r\n")


def test_the_edited_file_goes_to_stdout_byte_for_byte_and_the_diff_to_stderr(console_script, tmp_path):
    (tmp_path / "robots.txt").write_bytes(SITE)
    done = console_script("edit", "robots.txt", "--block", "GPTBot", binary=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == SITE + b"\r\nUser-agent: GPTBot\r\nDisallow: /\r\n"
    stderr = done.stderr.decode()
    assert "GPTBot:" in stderr
    assert "/  allowed -> disallowed  (line 8: disallow: /)" in stderr
    assert "unchanged: *" in stderr
    assert (tmp_path / "robots.txt").read_bytes() == SITE  # no --write: the file is untouched
    assert not REQUIREMENT_ID.search(stderr)


def test_write_edits_the_file_in_place(console_script, tmp_path):
    (tmp_path / "robots.txt").write_bytes(SITE)
    done = console_script("edit", "robots.txt", "--block-purpose", "ai-training", "--usage", "train-ai=n", "--write")
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert "robots.txt: edited" in done.stderr
    assert "skipped AI2Bot" in done.stderr  # Google reads the name as 'AI'
    body = (tmp_path / "robots.txt").read_bytes()
    assert body.startswith(b"# shop\r\nUser-agent: *\r\nContent-Usage: train-ai=n\r\nDisallow: /cart\r\n"
                           b"Content-Signal: search=yes, ai-train=no\r\nLicense: https://example.com/license\r\n")
    assert b"User-agent: GPTBot\r\n" in body and b"AI2Bot" not in body


def test_check_exits_1_when_the_file_would_change_and_0_when_not(console_script, tmp_path):
    """For CI: nothing on stdout, the file untouched; 0 once the edit is in."""
    (tmp_path / "robots.txt").write_bytes(SITE)
    done = console_script("edit", "robots.txt", "--block", "GPTBot", "--check")
    assert done.returncode == 1
    assert done.stdout == ""
    assert "robots.txt: would change" in done.stderr
    assert (tmp_path / "robots.txt").read_bytes() == SITE
    assert console_script("edit", "robots.txt", "--block", "GPTBot", "--write").returncode == 0
    again = console_script("edit", "robots.txt", "--block", "GPTBot", "--check")
    assert again.returncode == 0, again.stderr
    assert "already blocked" in again.stderr and "would not change" in again.stderr


def test_a_name_google_reads_as_another_token_is_a_clean_error(console_script, tmp_path):
    (tmp_path / "robots.txt").write_bytes(SITE)
    line = assert_clean_error(console_script("edit", "robots.txt", "--block", "AI2Bot"))
    assert "Google reads 'AI2Bot' as 'AI'" in line


def test_nothing_to_change_and_write_with_check_are_usage_errors(console_script, tmp_path):
    (tmp_path / "robots.txt").write_bytes(SITE)
    assert "say what to change" in assert_clean_error(console_script("edit", "robots.txt"))
    assert "cannot be used together" in assert_clean_error(
        console_script("edit", "robots.txt", "--block", "GPTBot", "--write", "--check"))
    assert "not standard input" in assert_clean_error(
        console_script("edit", "-", "--block", "GPTBot", "--write", stdin=SITE))


def test_a_missing_file_is_a_clean_error(console_script):
    assert "cannot read robots.txt" in assert_clean_error(console_script("edit", "nope.txt", "--block", "GPTBot"))


def test_json_is_one_document_with_the_text_the_notes_and_the_diff(console_script, tmp_path):
    (tmp_path / "robots.txt").write_bytes(SITE)
    done = console_script("edit", "robots.txt", "--block", "GPTBot", "--allow", "Googlebot", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["changed"] is True and data["written"] is False
    assert data["blocked"] == ["GPTBot"] and data["allowed"] == ["Googlebot"]
    assert data["robots"].endswith("User-agent: GPTBot\r\nDisallow: /\r\n\r\nUser-agent: Googlebot\r\nAllow: /\r\n")
    flips = {(v["agent"].lower(), v["url"], v["new_allowed"]) for v in data["diff"]["verdicts"]}
    assert ("gptbot", "/", False) in flips and ("googlebot", "/cart", True) in flips


def test_standard_input_is_edited_to_stdout(console_script):
    done = console_script("edit", "-", "--block", "CCBot", stdin=b"User-agent: *\nDisallow: /a", binary=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == b"User-agent: *\nDisallow: /a\n\nUser-agent: CCBot\nDisallow: /\n"
