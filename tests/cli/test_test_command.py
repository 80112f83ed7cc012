"""``robotrules test``: URLs against one robots.txt (draft, stdin or live), with expectations for CI."""

from __future__ import annotations

from tests.servers.http import respond

from .conftest import ROBOTS, assert_clean_error, json_results

DRAFT = b"User-agent: *\nDisallow: /private\nAllow: /private/open\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n"


def test_a_local_draft_decides_paths_and_full_urls(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    done = robotrules("test", "robots.txt", "/private/x", "https://example.com/private/open/y", "/public")
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == f"robots.txt: robots.txt ({len(DRAFT)} bytes)"
    assert lines[1] == "DISALLOWED  /private/x  *"
    assert "by line 2: 'Disallow: /private'" in lines[2]
    assert "ALLOWED     https://example.com/private/open/y  *" in done.stdout
    assert "ALLOWED     /public  *" in done.stdout


def test_agents_are_matched_on_their_product_token(robotrules, tmp_path):
    """G3: -a Googlebot/2.1 is Googlebot, whose own group applies (not the * group)."""
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    done = robotrules("test", "robots.txt", "-a", "Googlebot/2.1", "--json", "/nogoogle", "/private/x")
    rows = json_results(done.stdout)
    assert [(r["token"], r["group"], r["allowed"]) for r in rows] == [("Googlebot", "googlebot", False),
                                                                       ("Googlebot", "googlebot", True)]
    assert rows[0]["source"] == "robots.txt" and rows[0]["robots"] is None


def test_expect_allowed_passes_when_every_url_is_allowed(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    done = robotrules("test", "robots.txt", "--expect", "allowed", "/", "/products", "/private/open/a")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("(as expected)") == 3 and done.stderr == ""


def test_expected_disallows_do_not_fail_the_run(robotrules, tmp_path):
    """With --expect disallowed, disallowed verdicts are the success: exit 0."""
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    assert robotrules("test", "robots.txt", "--expect", "disallowed", "/private", "/private/x").returncode == 0


def test_a_verdict_that_differs_from_the_expectation_fails_and_is_reported(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    done = robotrules("test", "robots.txt", "--expect", "allowed", "/", "/private/x")
    assert done.returncode == 1
    assert "DISALLOWED  /private/x  *  MISMATCH: expected allowed" in done.stdout
    assert ("robotrules: not as expected: /private/x for *: expected allowed, got disallowed "
            "(by line 2: 'Disallow: /private')") in done.stderr
    assert "1 of 2 verdicts not as expected" in done.stderr


def test_a_mismatch_says_why_in_the_words_of_the_verdict(robotrules, tmp_path):
    """R1: a mismatch no rule decided says so as the verdict's sentence does (one wording,
    robotrules.core.decision.rule_words), naming the path that was matched."""
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    done = robotrules("test", "robots.txt", "--expect", "disallowed", "/public")
    assert done.returncode == 1
    assert "allowed for *: no rule matches '/public' (group 'user-agent: *')" in done.stdout
    assert ("robotrules: not as expected: /public for *: expected disallowed, got allowed "
            "(no rule matches '/public')") in done.stderr


def test_an_expectations_file_guards_pages_with_mixed_verdicts(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    (tmp_path / "expect.txt").write_text("# the pages that matter\nallow /\ndisallow /private/x\n\nallow /private/open\n")
    done = robotrules("test", "robots.txt", "--expect-file", "expect.txt", "--json")
    assert done.returncode == 0
    rows = json_results(done.stdout)
    assert [(r["url"], r["expected"], r["as_expected"]) for r in rows] == [
        ("/", "allowed", True), ("/private/x", "disallowed", True), ("/private/open", "allowed", True)]
    (tmp_path / "expect.txt").write_text("disallow /\n")
    done = robotrules("test", "robots.txt", "--expect-file", "expect.txt")
    assert done.returncode == 1 and "expected disallowed, got allowed" in done.stderr


def test_a_bad_expectations_line_is_an_input_error(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    (tmp_path / "expect.txt").write_text("allow /\nmaybe /x\n")
    error = assert_clean_error(robotrules("test", "robots.txt", "--expect-file", "expect.txt"))
    assert error == "robotrules: error: expect.txt, line 2: expected 'allow URL' or 'disallow URL', got 'maybe /x'"


def test_the_draft_can_come_from_stdin(robotrules):
    done = robotrules("test", "-", "/private/x", "--json", stdin=DRAFT)
    assert [r["allowed"] for r in json_results(done.stdout)] == [False]
    assert json_results(done.stdout)[0]["source"] == "<stdin>"


def test_urls_can_come_from_stdin_or_a_file(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    done = robotrules("test", "robots.txt", "--json", stdin="/a\n# no\n/private/b\n")
    assert [r["url"] for r in json_results(done.stdout)] == ["/a", "/private/b"]
    (tmp_path / "urls.txt").write_text("/c\n")
    done = robotrules("test", "robots.txt", "--urls", "urls.txt", "--expect", "allowed")
    assert done.returncode == 0


def test_stdin_cannot_be_both_the_draft_and_the_url_list(robotrules):
    assert "standard input can be read once" in assert_clean_error(
        robotrules("test", "-", "--urls", "-", stdin=DRAFT))


def test_nothing_to_test_is_a_usage_error(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    assert "no URLs to test" in assert_clean_error(robotrules("test", "robots.txt"))
    assert "no URLs to test" in assert_clean_error(robotrules("test", "robots.txt", stdin=""))


def test_a_url_that_is_not_a_url_or_path_is_an_input_error(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    done = robotrules("test", "robots.txt", "private", "/ok")
    assert done.returncode == 2
    assert "ALLOWED     /ok" in done.stdout
    assert done.stderr == ("robotrules: error: 'private' is neither an absolute URL (https://example.com/page) "
                           "nor a path starting with '/'; did you mean '/private'?\n")


BROKEN_URLS = ["http://", "http://exa mple.com/page", "http://[::1/page", "http://example.com:99999/page",
               "http://a..b/page", "https://user@/page"]
"""Absolute URLs no robots.txt can govern: no host, a space in it, a broken IPv6 literal, a port out
of range, an empty label, userinfo without a host."""


def test_test_and_check_refuse_the_same_urls_with_the_same_message(robotrules, tmp_path):
    """#16-L6: one URL check for every command: what ``check`` refuses, ``test`` refuses too, in the
    same words (it used to decide them against the draft)."""
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    for url in BROKEN_URLS:
        tested = robotrules("test", "robots.txt", url)
        checked = robotrules("check", "--no-cache", url)
        assert (tested.returncode, checked.returncode) == (2, 2), url
        assert tested.stderr == checked.stderr, url
        assert_clean_error(tested)


def test_a_missing_draft_a_directory_and_empty_stdin_are_input_errors(robotrules, tmp_path):
    assert "No such file or directory: 'nope.txt'" in assert_clean_error(robotrules("test", "nope.txt", "/"))
    assert "Is a directory" in assert_clean_error(robotrules("test", str(tmp_path), "/"))
    assert "standard input is empty" in assert_clean_error(robotrules("test", "-", "/", stdin=""))


def test_an_empty_draft_allows_everything(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(b"")
    done = robotrules("test", "robots.txt", "--expect", "allowed", "/anything")
    assert done.returncode == 0
    assert done.stdout.startswith("robots.txt: robots.txt (0 bytes, empty: everything allowed)\n")


def test_a_live_robots_txt_is_fetched_and_tested(robotrules, site):
    """A URL as the source: the live file governing it (fetched now; --cached reads the cache), with its state."""
    server = site()
    done = robotrules("test", server.url("/"), "-a", "FooBot/1.2", "/Private/x", "--expect", "disallowed")
    assert done.returncode == 0
    assert done.stdout.startswith(f"robots.txt: {server.url()}: its rules decide (200")
    assert "by line 2: 'DisAllow: /Private  # note'" in done.stdout
    row = json_results(robotrules("test", server.url("/"), "--cached", "--json", "/tmp/x").stdout)[0]
    assert row["allowed"] is False and row["robots"]["cache"] == "hit" and row["source"] == server.url()


def test_a_live_404_allows_everything_and_a_503_disallows_everything_and_says_so(robotrules, site):
    """F4, F5 for a live source: the header says what governs."""
    missing = site(respond(404))
    done = robotrules("test", missing.url("/"), "/x", "--expect", "allowed")
    assert done.returncode == 0
    assert "no robots.txt (404): Google treats a missing robots.txt as allow all" in done.stdout.splitlines()[0]
    down = site(respond(503))
    done = robotrules("test", down.url("/"), "/x", "--expect", "allowed")
    assert done.returncode == 1
    assert "Google treats an unreachable robots.txt as disallow all" in done.stdout.splitlines()[0]
    assert "got disallowed (could not fetch robots.txt (server error 503))" in done.stderr


def test_an_unsupported_url_as_source_is_an_input_error(robotrules):
    assert "only http, https and ftp" in assert_clean_error(robotrules("test", "gopher://example.com/", "/"))


def test_json_verdicts_of_a_draft_have_the_shared_shape(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(ROBOTS)
    rows = json_results(robotrules("test", "robots.txt", "-a", "FooBot", "--json", "/Private/a").stdout)
    assert rows[0]["text"] == "DisAllow: /Private  # note"
    assert rows[0]["explanation"] == "disallowed for FooBot by line 2: 'DisAllow: /Private  # note' (group for 'foobot')"


def test_a_dash_among_the_urls_reads_them_from_stdin(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    done = robotrules("test", "robots.txt", "-", "--expect", "disallowed", stdin="/private/a\n/private/b\n")
    assert done.returncode == 0 and done.stdout.count("(as expected)") == 2
    assert "standard input can be read once" in assert_clean_error(robotrules("test", "-", "-", stdin=DRAFT))
