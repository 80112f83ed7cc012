"""``robotrules edit``: the edited robots.txt on stdout, what it changes on stderr, --write, --check
(G1-G5, P1, N2, A1), through the installed console script."""

from __future__ import annotations

import json
import os
import stat

import pytest

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
    assert "/  allowed -> disallowed  (by line 8 of the new file: 'disallow: /')" in stderr
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


def test_write_through_a_symlink_edits_its_target_and_keeps_the_link_and_the_mode(console_script, tmp_path):
    """``--write`` on a symbolic link replaces the file it points to (at once, keeping its mode and
    owner); the link stays a link to it."""
    real = tmp_path / "deploy" / "robots.txt"
    real.parent.mkdir()
    real.write_bytes(SITE)
    real.chmod(0o640)
    before = real.stat()
    (tmp_path / "robots.txt").symlink_to(real)
    done = console_script("edit", "robots.txt", "--block", "GPTBot", "--write")
    assert done.returncode == 0, done.stderr
    link = tmp_path / "robots.txt"
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == SITE + b"\r\nUser-agent: GPTBot\r\nDisallow: /\r\n"
    after = real.stat()
    assert stat.S_IMODE(after.st_mode) == 0o640 and (after.st_uid, after.st_gid) == (before.st_uid, before.st_gid)
    assert sorted(p.name for p in real.parent.iterdir()) == ["robots.txt"]  # no temporary file left


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a file to another user needs root")
def test_write_keeps_the_owner_of_a_file_that_belongs_to_someone_else(console_script, tmp_path):
    """The edited file is a new file moved into place: it is given the old one's owner and group,
    so editing a site's robots.txt as root does not take it from the site's user."""
    (tmp_path / "robots.txt").write_bytes(SITE)
    os.chown(tmp_path / "robots.txt", 12345, 12345)
    done = console_script("edit", "robots.txt", "--block", "GPTBot", "--write")
    assert done.returncode == 0, done.stderr
    after = (tmp_path / "robots.txt").stat()
    assert (after.st_uid, after.st_gid) == (12345, 12345)
    assert (tmp_path / "robots.txt").read_bytes().endswith(b"User-agent: GPTBot\r\nDisallow: /\r\n")


def test_a_legacy_edit_says_the_group_reaches_every_crawler_whose_name_contains_the_token(console_script, tmp_path):
    """L2: in the 1994 standard's reading a group for GPTBot also applies to MyGPTBotClone: the
    command says so beside the edit, in plain words."""
    (tmp_path / "robots.txt").write_bytes(b"User-agent: *\nDisallow: /private\n")
    done = console_script("edit", "robots.txt", "--block", "GPTBot", "--mode", "legacy1994")
    assert done.returncode == 0, done.stderr
    assert "applies to every crawler whose name contains 'GPTBot'" in done.stderr
    assert not REQUIREMENT_ID.search(done.stderr)
