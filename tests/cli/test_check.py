"""``robotrules check``: live URLs decided through the cache, with why, as a person runs it."""

from __future__ import annotations

import os
import pty
import socket
import subprocess

import pytest

from tests.needs import unavailable
from tests.servers.http import free_port, respond

from .conftest import ROBOTS, SCRIPT, TRACEBACK, assert_clean_error, json_results


def test_the_deciding_line_is_shown_exactly_as_written(robotrules, site):
    """DESIGN 5: the deciding line as written in the file (case, spacing, comment), not re-cased,
    with its group, the robots.txt URL, its status and the cache state."""
    server = site()
    done = robotrules("check", "-a", "FooBot", server.url("/Private/x"))
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"DISALLOWED  {server.url('/Private/x')}  FooBot"
    assert "by line 2: 'DisAllow: /Private  # note' (group for 'foobot')" in lines[1]
    assert lines[2].startswith(f"    {server.url()}: its rules decide (200")
    assert lines[2].endswith("fetched just now")


@pytest.mark.parametrize("agent", ["FooBot/1.2", "Mozilla/5.0 (compatible; FooBot/1.2; +https://foo.example/bot)"])
def test_versioned_names_and_whole_headers_are_matched_on_their_product_token(robotrules, site, agent):
    """G3 (the issue's FooBot case): ``-a FooBot/1.2`` is FooBot, whose group disallows /Private;
    the output shows the agent as given and the token used."""
    server = site()
    done = robotrules("check", "-a", agent, server.url("/Private/x"), server.url("/ok"))
    assert done.returncode == 1, done.stderr
    assert done.stdout.startswith(f"DISALLOWED  {server.url('/Private/x')}  {agent} -> FooBot\n")
    assert f"ALLOWED     {server.url('/ok')}  {agent} -> FooBot" in done.stdout


def test_the_agent_defaults_to_the_token_of_the_user_agent_header(robotrules, site):
    """Without -a, the token of --user-agent decides (and is sent as the request's header)."""
    server = site()
    done = robotrules("check", "--user-agent", "FooBot/3.0 (+https://foo.example)", server.url("/Private"))
    assert done.returncode == 1
    assert "DISALLOWED" in done.stdout and "  FooBot\n" in done.stdout
    assert server.requests[-1].headers["user-agent"] == "FooBot/3.0 (+https://foo.example)"
    done = robotrules("check", server.url("/Private"))
    assert done.returncode == 0 and "ALLOWED" in done.stdout and "  *\n" in done.stdout


def test_exit_code_is_0_when_every_url_is_allowed_and_1_when_one_is_disallowed(robotrules, site):
    server = site()
    assert robotrules("check", server.url("/a"), server.url("/tmp/open/b")).returncode == 0
    assert robotrules("check", server.url("/a"), server.url("/tmp/x")).returncode == 1


def test_the_cache_is_shared_between_runs_miss_then_hit(robotrules, site, tmp_path):
    """C1, C3: the first run fetches (cache miss), later runs and URLs read the SQLite cache
    (hit), which lives where --cache says."""
    server = site()
    cache = tmp_path / "mine.sqlite3"
    first = json_results(robotrules("check", "--cache", str(cache), "--json", server.url("/a"), server.url("/b")).stdout)
    assert [row["robots"]["cache"] for row in first] == ["miss", "hit"]
    second = json_results(robotrules("check", "--cache", str(cache), "--json", server.url("/a")).stdout)
    assert second[0]["robots"]["cache"] == "hit"
    assert server.hits("/robots.txt") == 1 and cache.exists()


def test_refresh_fetches_again_and_says_miss(robotrules, site):
    """``--refresh`` fetches the robots.txt once more, and that verdict says "fetched just now"
    (not "cached 0 s ago" as a re-read would); later URLs of the same site use the fresh copy."""
    server = site()
    robotrules("check", server.url("/a"))
    done = robotrules("check", "--refresh", server.url("/a"), server.url("/b"))
    assert server.hits("/robots.txt") == 2
    states = [line for line in done.stdout.splitlines() if line.startswith(f"    {server.url()}")]
    assert states[0].endswith("; fetched just now")
    assert states[1].endswith("; --refresh fetches now") and "; cached " in states[1]


def test_redirects_followed_are_shown(robotrules, site):
    """F3: the explanation says where the redirects ended."""
    server = site()
    server.chain(301, 2, respond(200, ROBOTS))
    done = robotrules("check", "-a", "FooBot", server.url("/Private"))
    assert done.returncode == 1
    assert f"after 2 redirects to {server.url('/hop/0')}" in done.stdout
    row = json_results(robotrules("check", "--json", server.url("/Private")).stdout)[0]
    assert row["robots"]["redirects"] == 2 and row["robots"]["final_url"] == server.url("/hop/0")


def test_a_site_without_robots_txt_allows_everything_and_a_5xx_disallows_everything(robotrules, site):
    """F4, F5: 404 is a full allow, 503 a full disallow, and the output says so."""
    missing = site(respond(404, b"no"))
    done = robotrules("check", missing.url("/x"))
    assert done.returncode == 0
    assert "allowed for *: no robots.txt (404)" in done.stdout
    assert "Google treats a missing robots.txt as allow all" in done.stdout
    down = site(respond(503, b"busy"))
    done = robotrules("check", down.url("/x"))
    assert done.returncode == 1
    assert "disallowed for *: could not fetch robots.txt (server error 503)" in done.stdout
    assert "Google treats an unreachable robots.txt as disallow all" in done.stdout
    row = json_results(robotrules("check", "--json", "--no-cache", down.url("/x")).stdout)[0]
    assert row["full"] == "disallow" and row["robots"]["status"] == 503 and row["allowed"] is False


def test_json_is_one_document_of_verdicts_in_the_shared_shape(robotrules, site):
    """One JSON document, one result per URL and agent, in the form the service and the page use too."""
    server = site()
    done = robotrules("check", "--json", "-a", "FooBot/1.2", "-a", "*", server.url("/Private"), server.url("/tmp/x"))
    rows = json_results(done.stdout)
    assert [(r["url"], r["agent"], r["token"], r["allowed"]) for r in rows] == [
        (server.url("/Private"), "FooBot/1.2", "FooBot", False),
        (server.url("/Private"), "*", "*", True),
        (server.url("/tmp/x"), "FooBot/1.2", "FooBot", True),
        (server.url("/tmp/x"), "*", "*", False),
    ]
    first = rows[0]
    assert set(first) >= {"url", "agent", "token", "allowed", "line", "text", "kind", "group", "path", "source",
                          "full", "robots", "explanation"}
    assert (first["line"], first["text"], first["kind"], first["group"]) == (2, "DisAllow: /Private  # note",
                                                                              "disallow", "foobot")
    assert first["source"] == server.url() and first["robots"]["status"] == 200
    assert done.returncode == 1


def test_urls_come_from_a_file_with_comments_and_blank_lines(robotrules, site, tmp_path):
    server = site()
    listed = tmp_path / "urls.txt"
    listed.write_text(f"# pages\n{server.url('/a')}\n\n   {server.url('/tmp/b')}  \n")
    done = robotrules("check", "--json", "--urls", str(listed))
    assert [r["url"] for r in json_results(done.stdout)] == [server.url("/a"), server.url("/tmp/b")]
    assert done.returncode == 1


def test_urls_come_from_stdin_when_none_is_given(robotrules, site):
    server = site()
    done = robotrules("check", "--json", stdin=f"{server.url('/a')}\n{server.url('/b')}\n")
    assert [r["url"] for r in json_results(done.stdout)] == [server.url("/a"), server.url("/b")]
    assert done.returncode == 0
    done = robotrules("check", "--urls", "-", "--json", stdin=f"{server.url('/tmp/c')}\n")
    assert [r["allowed"] for r in json_results(done.stdout)] == [False]


def test_empty_stdin_is_an_input_error(robotrules):
    assert "no URLs to check" in assert_clean_error(robotrules("check", stdin=""))


def test_no_urls_on_a_terminal_is_a_usage_error_not_the_example(tmp_path, cli_env):
    """The issue: ``robotrules check`` alone once decided the embedded example. On a terminal
    with no URL it now says what it needs (exit 2) and reads nothing."""
    controller, terminal = pty.openpty()
    try:
        done = subprocess.run([SCRIPT, "check"], stdin=terminal, capture_output=True, text=True, cwd=tmp_path,
                              env=cli_env, timeout=20, check=False)
    finally:
        os.close(controller)
        os.close(terminal)
    assert "no URLs to check" in assert_clean_error(done)
    assert "example" not in done.stdout


def test_a_bad_url_is_an_error_line_and_the_others_are_still_checked(robotrules, site):
    """S1, S5: a URL without a host or with a scheme that has no robots.txt is one error line;
    the run goes on and exits 2."""
    server = site()
    done = robotrules("check", "not-a-url", server.url("/tmp/x"), "gopher://example.com/x")
    assert done.returncode == 2
    assert f"DISALLOWED  {server.url('/tmp/x')}" in done.stdout
    errors = done.stderr.splitlines()
    assert errors == ["robotrules: error: not an absolute URL with a host: 'not-a-url'",
                      ("robotrules: error: cannot fetch a robots.txt for 'gopher://example.com/x': "
                      "only http, https and ftp have one")]
    rows = json_results(robotrules("check", "--json", "not-a-url").stdout)
    assert rows == [{"url": "not-a-url", "error": "not an absolute URL with a host: 'not-a-url'"}]


def test_an_unreachable_site_is_a_full_disallow_not_an_error(robotrules):
    """F8: a refused connection is an answer (everything disallowed), not a crash."""
    done = robotrules("check", "--timeout", "2", f"http://127.0.0.1:{free_port()}/x")
    assert done.returncode == 1 and TRACEBACK not in done.stderr
    assert "could not fetch robots.txt (connection refused)" in done.stdout


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "soon"])
def test_timeout_must_be_a_positive_number_of_seconds(robotrules, value):
    error = assert_clean_error(robotrules("check", "--timeout", value, "https://example.com/"))
    assert "--timeout" in error


def test_a_directory_as_cache_path_is_a_one_line_error(robotrules, tmp_path):
    (tmp_path / "somedir").mkdir()
    error = assert_clean_error(robotrules("check", "--cache", str(tmp_path / "somedir"), "http://127.0.0.1:9/x"))
    assert "the cache path is a directory" in error


def test_a_cache_under_a_file_is_a_one_line_error(robotrules, tmp_path):
    (tmp_path / "afile").write_text("x")
    error = assert_clean_error(robotrules("check", "--cache", str(tmp_path / "afile" / "c.db"), "http://127.0.0.1:9/x"))
    assert "cannot use the cache file" in error


def test_conflicting_cache_options_are_a_usage_error(robotrules):
    error = assert_clean_error(robotrules("check", "--no-cache", "--redis", "redis://127.0.0.1:1/0", "https://a.b/"))
    assert "--no-cache and --redis" in error


def _redis_up() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 6379), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def test_the_cache_can_be_shared_in_redis(robotrules, site):
    """C3: --redis keeps the fetched file in Redis: a second run reads it from there."""
    if not _redis_up():
        unavailable("no Redis server answers on 127.0.0.1:6379")
    pytest.importorskip("redis")
    server = site()
    url = server.url(f"/redis-{os.getpid()}")
    # --refresh: a copy an earlier run left in the shared Redis for a port used again must not answer
    rows = json_results(robotrules("check", "--redis", "redis://127.0.0.1:6379/0", "--refresh", "--json", url).stdout)
    assert rows[0]["robots"]["cache"] != "hit" and server.hits("/robots.txt") == 1
    rows = json_results(robotrules("check", "--redis", "redis://127.0.0.1:6379/0", "--json", url).stdout)
    assert rows[0]["robots"]["cache"] == "hit" and server.hits("/robots.txt") == 1
    robotrules("check", "--redis", "redis://127.0.0.1:6379/0", "--refresh", url)  # leave no stale copy behind


def test_an_unreachable_redis_is_a_one_line_error(robotrules):
    error = assert_clean_error(robotrules("check", "--redis", f"redis://127.0.0.1:{free_port()}/0", "https://a.b/"))
    assert "cannot use the Redis cache" in error


def test_an_unknown_option_is_a_usage_error_with_a_hint(robotrules):
    done = robotrules("check", "--frobnicate", "https://example.com/")
    assert_clean_error(done)
    assert done.stderr.splitlines() == ["robotrules: error: No such option '--frobnicate'.",
                                        "Try 'robotrules check --help' for help."]


def test_an_agent_without_a_product_token_is_a_usage_error(robotrules):
    assert "names no crawler" in assert_clean_error(robotrules("check", "-a", "12/3", "https://example.com/"))


def test_output_piped_into_head_ends_quietly(tmp_path, cli_env, site):
    """A closed stdout (``| head -1``) ends the run without a BrokenPipeError traceback."""
    server = site()
    listed = tmp_path / "urls.txt"
    listed.write_text("".join(f"{server.url(f'/p{n}')}\n" for n in range(3000)))
    done = subprocess.run(f"'{SCRIPT}' check --no-cache --urls urls.txt | head -1", shell=True, capture_output=True,
                          text=True, cwd=tmp_path, env=cli_env, timeout=30, check=False)
    assert done.stdout.startswith("ALLOWED")
    assert done.stderr == ""


def test_the_old_robots_option_points_to_test(robotrules):
    """``check -r FILE`` once decided against a local file; that is ``test`` now, and the error says so."""
    error = assert_clean_error(robotrules("check", "-r", "robots.txt", "https://example.com/"))
    assert "to decide URLs against a local file, use: robotrules test FILE URL..." in error


def test_a_url_list_that_is_not_utf8_is_an_input_error(robotrules):
    assert "<stdin>, line 2: not UTF-8 text" in assert_clean_error(robotrules("check", stdin=b"# ok\n\xff\xfe\n"))


def test_a_dash_among_the_urls_reads_stdin_after_the_arguments(robotrules, site):
    server = site()
    done = robotrules("check", "--json", server.url("/a"), "-", stdin=f"{server.url('/tmp/b')}\n")
    assert [(r["url"], r["allowed"]) for r in json_results(done.stdout)] == [(server.url("/a"), True),
                                                                           (server.url("/tmp/b"), False)]


def test_a_missing_url_list_is_an_input_error(robotrules):
    error = assert_clean_error(robotrules("check", "--urls", "missing.txt"))
    assert error == "robotrules: error: cannot read the URL list: No such file or directory: 'missing.txt'"
