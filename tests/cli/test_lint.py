"""``robotrules lint``: compiler-style diagnostics of a file, stdin or a live robots.txt."""

from __future__ import annotations

import json
import subprocess

from tests.needs import unavailable
from tests.servers.http import respond
from tests.servers.privileges import Unavailable, file_permissions_apply

from .conftest import REQUIREMENT_ID, SCRIPT, assert_clean_error

BAD = b"user-agent: *\nthis is not a rule\n  disalow: /x\ndisallow: private\n"


def test_findings_are_printed_as_a_compiler_prints_them(robotrules, tmp_path):
    """``file:line:col: severity code: message``, with the column of the finding (1 for a whole
    line), then a summary on stderr; exit 1 because one finding is an error."""
    (tmp_path / "robots.txt").write_bytes(BAD)
    done = robotrules("lint", "robots.txt")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == "robots.txt:2:1: error invalid-line: not a 'field: value' line; ignored: 'this is not a rule'"
    assert lines[1].startswith("robots.txt:3:3: warning field-typo: ")
    assert lines[2] == "    fix: Disallow: /x"
    assert lines[3].startswith("robots.txt:4:11: warning path-without-slash: ")
    assert lines[4] == "    fix: disallow: /private"
    assert done.stderr == "robots.txt: 1 error, 2 warnings\n"
    assert not REQUIREMENT_ID.search(done.stdout)


def test_a_file_level_finding_has_no_line_or_column(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(b"<!DOCTYPE html><html><body>hi</body></html>\n")
    done = robotrules("lint", "robots.txt")
    assert done.returncode == 1
    assert any(line.startswith("robots.txt: error html-content: ") for line in done.stdout.splitlines())


def test_a_clean_file_exits_0(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(b"user-agent: *\ndisallow: /x\n")
    done = robotrules("lint", "robots.txt")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "robots.txt: no problems found\n")


def test_warnings_alone_exit_0(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(b"user-agent: *\ndisalow: /x\n")
    assert robotrules("lint", "robots.txt").returncode == 0


def test_an_empty_file_is_a_valid_robots_txt(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(b"")
    done = robotrules("lint", "robots.txt")
    assert done.returncode == 0
    assert "an empty file: it allows everything" in done.stderr


def test_json_is_one_document_with_counts(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(BAD)
    done = robotrules("lint", "--json", "robots.txt")
    data = json.loads(done.stdout)
    assert (data["source"], data["errors"], data["warnings"]) == ("robots.txt", 1, 2)
    assert data["diagnostics"][1] == {"line": 3, "column": 3, "severity": "warning", "code": "field-typo",
                                      "message": data["diagnostics"][1]["message"], "fix": "Disallow: /x"}
    assert done.returncode == 1


def test_stdin_is_read_without_an_argument_or_with_a_dash(robotrules):
    """The issue: ``robotrules lint < file`` once linted the embedded example instead."""
    done = robotrules("lint", stdin=BAD)
    assert done.returncode == 1 and done.stdout.startswith("<stdin>:2:1: error invalid-line")
    done = robotrules("lint", "-", stdin=b"user-agent: *\nallow: /\n")
    assert done.returncode == 0 and done.stderr == "<stdin>: no problems found\n"


def test_empty_stdin_is_an_input_error(robotrules):
    assert "standard input is empty" in assert_clean_error(robotrules("lint", stdin=b""))


def test_a_missing_file_and_a_directory_are_input_errors(robotrules, tmp_path):
    error = assert_clean_error(robotrules("lint", "missing.txt"))
    assert error == "robotrules: error: cannot read robots.txt: No such file or directory: 'missing.txt'"
    assert "Is a directory" in assert_clean_error(robotrules("lint", str(tmp_path)))


def test_an_unreadable_file_is_an_input_error(robotrules, tmp_path, cli_env):
    """A file the user may not read is one input error line. Root reads any file, so as root the
    command runs as a process without that power (:mod:`tests.servers.privileges`)."""
    secret = tmp_path / "robots.txt"
    secret.write_bytes(b"user-agent: *\n")
    secret.chmod(0)
    try:
        drop = file_permissions_apply()
    except Unavailable as exc:
        unavailable(str(exc))
    if drop is None:  # an ordinary user: the permission applies in this process
        done = robotrules("lint", "robots.txt")
    else:
        done = subprocess.run([SCRIPT, "lint", "robots.txt"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              cwd=tmp_path, env=cli_env, timeout=20, check=False, preexec_fn=drop)
    assert "Permission denied" in assert_clean_error(done)


def test_a_live_robots_txt_is_linted(robotrules, site):
    """The issue: ``lint URL`` could not read a live robots.txt."""
    server = site(respond(200, b"user-agent: *\nnonsense\n"))
    done = robotrules("lint", server.url("/any/page"))
    assert done.returncode == 1
    assert done.stdout.startswith(f"{server.url()}:2:1: error invalid-line")


def test_a_live_site_without_a_robots_txt_has_nothing_to_lint(robotrules, site):
    server = site(respond(404))
    error = assert_clean_error(robotrules("lint", server.url()))
    assert f"cannot lint {server.url()}: no robots.txt (404)" in error


def test_an_unsupported_url_is_an_input_error(robotrules):
    assert "only http, https and ftp" in assert_clean_error(robotrules("lint", "gopher://example.com/robots.txt"))


def test_the_mode_changes_what_is_valid(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(b"user-agent: *\ndisallow /x\n")
    google = robotrules("lint", "robots.txt")
    assert "missing-colon" in google.stdout and google.returncode == 0
    assert robotrules("lint", "--mode", "nonsense", "robots.txt").returncode == 2


def test_a_finding_with_an_obvious_fix_shows_the_line_as_it_should_be_written(robotrules, tmp_path):
    """Issue #19 item 8: in text a second line "fix: ...", in JSON the field ``fix`` (null without one)."""
    (tmp_path / "robots.txt").write_bytes(b"User-agent: *\nDisallow: admin/\nContent-Signals: ai-train=no\n"
                                          b"Content-Usage: Train-AI=n\nDisallow:\n")
    lines = robotrules("lint", "robots.txt").stdout.splitlines()
    assert lines[1] == "    fix: Disallow: /admin/"
    assert lines[3] == "    fix: Content-Signal: ai-train=no"
    assert "    fix: Content-Usage: train-ai=n" in lines
    data = json.loads(robotrules("lint", "--json", "robots.txt").stdout)
    fixes = {(d["line"], d["code"]): d["fix"] for d in data["diagnostics"]}
    assert fixes[(2, "path-without-slash")] == "Disallow: /admin/"
    assert fixes[(3, "signal-misspelt")] == "Content-Signal: ai-train=no"
    assert fixes[(4, "usage-unreadable")] == "Content-Usage: train-ai=n"
    assert fixes[(5, "empty-rule")] is None


def test_json_columns_are_one_based_and_the_whole_file_has_null_line_and_column(robotrules, tmp_path):
    """Issue #19 item 9: JSON counts as the text does (column 1 for a finding about a whole line)."""
    (tmp_path / "robots.txt").write_bytes(b"\xef\xbb\xbfUser-agent: *\nDisallow:\n" + b"#" * 600_000)
    data = json.loads(robotrules("lint", "--json", "robots.txt").stdout)
    where = {d["code"]: (d["line"], d["column"]) for d in data["diagnostics"]}
    assert where["size-limit"] == (None, None)
    assert where["empty-rule"] == (2, 1)
    assert all(d["column"] is None or d["column"] >= 1 for d in data["diagnostics"])
