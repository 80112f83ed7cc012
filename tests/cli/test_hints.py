"""Issue #19 item 6: suspicious input gets a plain hint, on stderr.

Repros: ``-a 'User-agent: Googlebot'`` was decided as the crawler ``User-agent``, ``-a 'Google
bot'`` as ``Google``, ``check example.com/page`` said "not an absolute URL" without the URL
meant, and ``test robots.txt cart`` did not suggest ``/cart``.

Which is which: a robots.txt line given as an agent can only be a mistake, so it is an error
(exit 2, nothing decided); words split by spaces are a valid User-Agent header (matched on its
first word, G3), so they are decided as given, with a warning naming the likely crawler.
"""

from __future__ import annotations

import pytest

from .conftest import ROBOTS, TRACEBACK, assert_clean_error

DRAFT = b"User-agent: Googlebot\nDisallow: /private\n\nUser-agent: *\nDisallow: /cart\n"


@pytest.mark.parametrize("command", ["test", "diff"])
def test_a_robots_txt_line_as_agent_is_an_error_naming_the_token(console_script, tmp_path, command):
    """G3: ``User-agent: Googlebot`` would be the crawler ``User-agent``: an error saying what to give."""
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    args = ("robots.txt", "/private") if command == "test" else ("robots.txt", "robots.txt")
    done = console_script(command, *args, "-a", "User-agent: Googlebot")
    error = assert_clean_error(done)
    assert "'User-agent: Googlebot' is a robots.txt line, not a crawler name: give -a Googlebot" in error
    assert done.stdout == ""


def test_a_name_split_by_spaces_is_decided_with_a_warning_suggesting_the_crawler(console_script, tmp_path):
    """G3: ``Google bot`` is matched on its first word, as a User-Agent header is; the warning
    says so and names the crawler most likely meant."""
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    done = console_script("test", "robots.txt", "-a", "Google bot", "/private")
    assert done.returncode == 0, done.stderr
    assert "ALLOWED     /private  Google bot -> Google" in done.stdout
    assert done.stderr == ("robotrules: warning: -a 'Google bot' is matched as the crawler 'Google' (its first word, "
                           "as in a User-Agent header); did you mean -a Googlebot?\n")


def test_a_whole_user_agent_header_gets_no_warning(console_script, tmp_path):
    """G3: a real User-Agent header is what --agent promises to take: no hint."""
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
    done = console_script("test", "robots.txt", "-a", header, "/private")
    assert done.returncode == 1 and done.stderr == ""


def test_a_url_without_scheme_suggests_https(console_script, site):
    """S1: ``example.com/page`` has no scheme: the error suggests the URL meant; the run goes on."""
    server = site()
    done = console_script("check", "--no-cache", "example.com/page", server.url("/"))
    assert done.returncode == 2 and TRACEBACK not in done.stderr
    assert done.stderr == ("robotrules: error: not an absolute URL with a host: 'example.com/page'; "
                           "did you mean 'https://example.com/page'?\n")
    assert done.stdout.startswith(f"ALLOWED     {server.url('/')}")
    fetched = console_script("fetch", "--no-cache", "example.com/page")
    assert "did you mean 'https://example.com/page'?" in assert_clean_error(fetched)


def test_a_path_without_its_slash_suggests_it(console_script, tmp_path):
    """R1: a URL to test is absolute or a path starting with '/': ``cart`` suggests ``/cart``."""
    (tmp_path / "robots.txt").write_bytes(ROBOTS)
    done = console_script("test", "robots.txt", "cart")
    assert done.returncode == 2
    assert done.stderr.endswith("nor a path starting with '/'; did you mean '/cart'?\n")


def test_a_host_given_as_the_robots_txt_source_suggests_its_url(console_script):
    """A source that is no file but looks like a host gets the URL it likely means."""
    error = assert_clean_error(console_script("test", "example.com", "/x"))
    assert error.endswith("did you mean 'https://example.com'?")
