"""``robotrules fetch`` (the governing robots.txt: state, status, body) and ``robotrules robots-url``."""

from __future__ import annotations

from tests.servers.http import respond

from .conftest import ROBOTS, assert_clean_error, json_results


def test_fetch_shows_the_state_status_size_and_sitemaps(robotrules, site):
    server = site()
    done = robotrules("fetch", server.url("/some/page"))
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0] == server.url()
    assert lines[1] == "    its rules decide (200); fetched just now"
    assert lines[2] == f"    status 200, {len(ROBOTS)} bytes"
    assert lines[3] == "    sitemap: https://example.com/sitemap.xml"


def test_fetch_shows_redirects(robotrules, site):
    server = site()
    server.chain(302, 2, respond(200, ROBOTS))
    done = robotrules("fetch", server.url("/x"))
    assert f"after 2 redirects to {server.url('/hop/0')}" in done.stdout
    assert f"status 200, 2 redirects to {server.url('/hop/0')}, {len(ROBOTS)} bytes" in done.stdout


def test_fetch_body_prints_the_file_exactly(robotrules, site):
    """The bytes as served: CR LF line ends, UTF-8 and a stray byte untouched."""
    body = b"User-agent: *\r\nDisallow: /caf\xc3\xa9  # \xff as served\r\n"
    server = site(respond(200, body))
    done = robotrules("fetch", "--body", server.url("/x"), binary=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, body, b"")


def test_fetch_refresh_fetches_again_and_says_miss(robotrules, site):
    server = site()
    robotrules("fetch", server.url())
    assert "; --refresh fetches now" in robotrules("fetch", server.url()).stdout
    done = robotrules("fetch", "--refresh", server.url())
    assert "fetched just now" in done.stdout and server.hits("/robots.txt") == 2


def test_fetch_json_is_the_state_with_the_body_on_request(robotrules, site):
    server = site()
    rows = json_results(robotrules("fetch", "--json", "--body", server.url("/p")).stdout)
    row = rows[0]
    assert (row["url"], row["robots_url"], row["status"], row["kind"], row["cache"]) == (
        server.url("/p"), server.url(), 200, "rules", "miss")
    assert row["body"] == ROBOTS.decode() and row["size"] == len(ROBOTS)
    assert row["sitemaps"] == ["https://example.com/sitemap.xml"]
    assert "body" not in json_results(robotrules("fetch", "--json", server.url("/p")).stdout)[0]


def test_fetch_of_a_site_without_robots_txt_says_everything_is_allowed(robotrules, site):
    server = site(respond(404))
    done = robotrules("fetch", server.url())
    assert done.returncode == 0 and "no robots.txt (404): Google treats a missing robots.txt as allow all" in done.stdout
    done = robotrules("fetch", "--body", server.url())
    assert done.stdout == "" and "robotrules: note: no robots.txt body" in done.stderr


def test_fetch_of_bad_urls_is_an_input_error(robotrules, site):
    server = site()
    done = robotrules("fetch", "not a url", server.url())
    assert done.returncode == 2 and done.stdout.startswith(server.url())
    assert done.stderr.startswith("robotrules: error: not an absolute URL")
    assert "Missing argument" in assert_clean_error(robotrules("fetch"))


def test_robots_url_prints_the_governing_url_and_reports_bad_ones(robotrules):
    """S1-S5: scheme, host and port decide; a URL without a host is an error line and exit 2."""
    done = robotrules("robots-url", "https://Example.COM:443/a?b#c", "not a url", "http://stra\u00dfe.de/x")
    assert done.stdout.splitlines() == ["https://example.com/robots.txt", "http://xn--strae-oqa.de/robots.txt"]
    assert done.stderr.splitlines() == ["robotrules: error: not an absolute URL with a host: 'not a url'"]
    assert done.returncode == 2


def test_robots_url_json(robotrules):
    done = robotrules("robots-url", "--json", "https://a.example/x", "nope")
    assert json_results(done.stdout) == [{"url": "https://a.example/x", "robots_url": "https://a.example/robots.txt"},
                                       {"url": "nope", "error": "not an absolute URL with a host: 'nope'"}]
    assert done.returncode == 2
