"""Issue #19 items 1 and 2: a site owner gets the live file, the crawler's view says how old its
copy is, and a robots.txt that could not be fetched is described as what happened.

Repro of item 1: after the server's ``Disallow: /cart`` became ``/basket``, ``robotrules test
http://site/ -a Googlebot /cart`` still answered DISALLOWED by the old line from a 24-hour cache.
Repro of item 2: a refused connection was explained as "robots.txt says disallow everything", and
a failure answered from the cache 50 s later said ``"age": 0.0``.
"""

from __future__ import annotations

import re
import time

from robotrules.cache import SQLiteStore
from robotrules.core.policy import Entry
from tests.servers.http import free_port, redirect, respond

from .conftest import TRACEBACK, json_results

OLD = b"User-agent: *\nDisallow: /cart\n"
NEW = b"User-agent: *\nDisallow: /basket\n"


def test_test_lint_and_diff_fetch_the_live_file_after_an_edit_on_the_server(console_script, site, tmp_path):
    """C1 does not apply to a site owner's commands: ``test``, ``lint`` and ``diff`` of a URL
    fetch the live robots.txt every run, so an edit on the server shows at once."""
    server = site(respond(200, OLD))
    cache = str(tmp_path / "cache.sqlite3")
    first = console_script("test", "--cache", cache, server.url("/"), "-a", "Googlebot", "/cart")
    assert first.returncode == 1, first.stderr
    server.route("/robots.txt", respond(200, NEW))
    again = console_script("test", "--cache", cache, server.url("/"), "-a", "Googlebot", "/cart")
    assert again.returncode == 0, again.stdout
    assert again.stdout.startswith(f"robots.txt: {server.url()}: its rules decide (200); fetched just now\n")
    lint = console_script("lint", "--cache", cache, server.url())
    assert f"robotrules: note: {server.url()}: its rules decide (200); fetched just now" in lint.stderr
    (tmp_path / "draft.txt").write_bytes(NEW)
    diff = console_script("diff", "--cache", cache, server.url(), "draft.txt")
    assert diff.returncode == 0 and "no changes" in diff.stdout
    assert server.hits("/robots.txt") == 4


def test_cached_reads_the_cache_and_says_how_to_fetch_now(console_script, site, tmp_path):
    """``--cached`` on test, lint and diff answers from the cache while its copy is fresh (C1),
    and the state line says so, with how to get the live file."""
    server = site(respond(200, OLD))
    cache = str(tmp_path / "cache.sqlite3")
    console_script("test", "--cache", cache, server.url("/"), "/cart")
    server.route("/robots.txt", respond(200, NEW))
    stale = console_script("test", "--cache", cache, "--cached", server.url("/"), "-a", "Googlebot", "/cart")
    assert stale.returncode == 1
    header = stale.stdout.splitlines()[0]
    assert re.search(r"; cached \d+ s ago; without --cached it is fetched now$", header), header
    lint = console_script("lint", "--cache", cache, "--cached", server.url())
    assert "without --cached it is fetched now" in lint.stderr
    assert server.hits("/robots.txt") == 1


def test_check_keeps_the_cache_and_always_says_its_state(console_script, site, tmp_path):
    """``check`` is the crawler's view: the cache answers (C1), and every answer says how old the
    copy is and that --refresh fetches now."""
    server = site(respond(200, OLD))
    cache = str(tmp_path / "cache.sqlite3")
    first = console_script("check", "--cache", cache, server.url("/cart"))
    assert first.stdout.splitlines()[2] == f"    {server.url()}: its rules decide (200); fetched just now"
    server.route("/robots.txt", respond(200, NEW))
    cached = console_script("check", "--cache", cache, server.url("/cart"))
    assert cached.returncode == 1
    assert re.fullmatch(rf"    {re.escape(server.url())}: its rules decide \(200\); cached \d+ s ago; "
                        r"--refresh fetches now", cached.stdout.splitlines()[2])
    fresh = console_script("check", "--cache", cache, "--refresh", server.url("/cart"))
    assert fresh.returncode == 0 and fresh.stdout.splitlines()[2].endswith("; fetched just now")
    assert "--refresh fetches now" in console_script("fetch", "--cache", cache, server.url()).stdout


def test_a_refused_connection_says_what_happened_and_what_google_makes_of_it(console_script):
    """F5, F8: a refused connection is not the site saying anything: the verdict names the
    failure, the state says Google treats it as disallow all and when it is tried again."""
    done = console_script("check", "--no-cache", "--timeout", "2", "-a", "Googlebot",
                          f"http://127.0.0.1:{free_port()}/x")
    assert done.returncode == 1 and TRACEBACK not in done.stderr
    lines = done.stdout.splitlines()
    assert lines[1] == "    disallowed for Googlebot: could not fetch robots.txt (connection refused)"
    assert lines[2].endswith(": could not fetch robots.txt (connection refused): Google treats an unreachable "
                             "robots.txt as disallow all; tried just now; next try in 5 min")
    assert "says" not in done.stdout


def test_server_errors_429_and_redirect_loops_are_described_plainly(console_script, site):
    """F5: a 5xx and a 429 are failures to fetch (disallow all); F3: a redirect loop is read as
    a missing robots.txt (allow all); each says what happened first."""
    down = site(respond(503))
    assert "could not fetch robots.txt (server error 503): Google treats an unreachable robots.txt as disallow all" \
        in console_script("check", "--no-cache", down.url("/x")).stdout
    limited = site(respond(429))
    assert "could not fetch robots.txt (429 too many requests)" in console_script("fetch", "--no-cache",
                                                                                   limited.url()).stdout
    looping = site()
    looping.chain(302, 1, redirect(302, "/robots.txt"))
    text = console_script("check", "--no-cache", looping.url("/x")).stdout
    assert "robots.txt redirects in a loop (back to " in text
    assert "Google treats it as missing, allow all" in text


def test_a_cached_failure_reports_its_real_age(console_script, tmp_path):
    """C1, F5: a failure answered from the cache is as old as the attempt (it said 0 s, 50 s later)."""
    cache = tmp_path / "cache.sqlite3"
    url = f"http://127.0.0.1:{free_port()}/robots.txt"
    now = time.time()
    store = SQLiteStore(str(cache))
    store.put(Entry(url=url, outcome="error", status=0, reason="connect error: [Errno 111] Connection refused",
                    fetched_at=now - 50, expires_at=now + 250, failures=1, failing_since=now - 50))
    store.close()
    row = json_results(console_script("check", "--cache", str(cache), "--json", url).stdout)[0]
    assert row["robots"]["cache"] == "hit" and row["robots"]["age"] >= 50
    text = console_script("check", "--cache", str(cache), url).stdout
    assert re.search(r"; cached (\d+ s|\d+ min) ago; next try in \d+ (s|min); --refresh fetches now$",
                     text.splitlines()[2]), text


def test_help_says_which_commands_fetch_live_and_which_read_the_cache(console_script):
    """The options are said where they are: --cached on test, lint and diff; --refresh on check and fetch."""
    for command in ("test", "lint", "diff"):
        shown = console_script(command, "--help").stdout
        assert "--cached" in shown and "--refresh" not in shown, command
    for command in ("check", "fetch"):
        shown = console_script(command, "--help").stdout
        assert "--refresh" in shown and "--cached" not in shown, command
