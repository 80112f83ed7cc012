"""Status codes over real HTTP: what each class of answer becomes (F1-F5, F7, F8, C1, C4)."""

from __future__ import annotations

from email.utils import formatdate

import pytest

from robotrules.core.policy import Policy, standing
from tests.servers.http import HTTPServer, close_silently, raw, reset, respond

from .conftest import DAY, NOW, TEST_POLICY, Run

ROBOTS = b"User-agent: *\nDisallow: /private\n"


# -- F1 ---------------------------------------------------------------------------------------
def test_request_is_an_unconditional_get_of_the_robots_url(fetch: Run, server: HTTPServer) -> None:
    """F1: one plain GET of /robots.txt, with no conditional headers, even when refreshing a cached copy."""
    url = server.route("/robots.txt", respond(200, ROBOTS))
    first = fetch(url)
    fetch(url, first, force=True)
    assert server.hits() == 2
    for request in server.requests:
        assert (request.method, request.target, request.version) == ("GET", "/robots.txt", "HTTP/1.1")
        assert request.headers["host"] == f"127.0.0.1:{server.port}"
        assert not {"if-modified-since", "if-none-match", "range", "if-range"} & set(request.headers)


# -- F2 ---------------------------------------------------------------------------------------
def test_200_keeps_the_body_for_parsing(fetch: Run, server: HTTPServer) -> None:
    """F2, C1: a 200 is a conditional allow; the body is kept and lives for 24 hours."""
    url = server.route("/robots.txt", respond(200, ROBOTS, {"Content-Type": "text/plain"}))
    entry = fetch(url)
    assert entry.outcome == "rules"
    assert (entry.status, entry.body, entry.url, entry.final_url) == (200, ROBOTS, url, url)
    assert "rules from the body" in entry.reason
    assert (entry.fetched_at, entry.expires_at) == (NOW, NOW + DAY)
    assert (entry.good_status, entry.good_at, entry.failures, entry.failing_since) == (200, NOW, 0, None)
    assert standing(entry, NOW, TEST_POLICY)[:3] == ("rules", ROBOTS, 200)


@pytest.mark.parametrize("status", [201, 202, 203, 206, 226, 299])
def test_every_2xx_status_means_the_body_decides(fetch: Run, server: HTTPServer, status: int) -> None:
    """F2: any 2xx, not only 200, is a conditional allow with the body parsed."""
    entry = fetch(server.route("/robots.txt", respond(status, ROBOTS)))
    assert (entry.outcome, entry.status, entry.body) == ("rules", status, ROBOTS)
    assert standing(entry, NOW, TEST_POLICY).kind == "rules"


def test_204_no_content_is_an_empty_robots_txt(fetch: Run, server: HTTPServer) -> None:
    """F2: 204 is a 2xx: rules from an empty body (which allow everything)."""
    entry = fetch(server.route("/robots.txt", respond(204)))
    assert (entry.outcome, entry.status, entry.body) == ("rules", 204, b"")
    assert standing(entry, NOW, TEST_POLICY)[:2] == ("rules", b"")


def test_http_1_0_body_delimited_by_connection_close(fetch: Run, server: HTTPServer) -> None:
    """F2: an HTTP/1.0 answer with no Content-Length ends when the server closes; that body is complete."""
    entry = fetch(server.route("/robots.txt", raw(b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n" + ROBOTS)))
    assert (entry.outcome, entry.status, entry.body) == ("rules", 200, ROBOTS)


def test_interim_1xx_response_before_the_200_is_skipped(fetch: Run, server: HTTPServer) -> None:
    """F2: an informational 103 Early Hints is not the answer; the 200 after it is."""
    head = b"HTTP/1.1 103 Early Hints\r\nLink: </x.css>; rel=preload\r\n\r\n"
    final = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(ROBOTS), ROBOTS)
    entry = fetch(server.route("/robots.txt", raw(head + final)))
    assert (entry.outcome, entry.status, entry.body) == ("rules", 200, ROBOTS)


def test_html_served_as_robots_txt_is_kept_as_is(fetch: Run, server: HTTPServer) -> None:
    """F3: logical redirects in a 2xx body (meta refresh, JavaScript, frames) are not followed; the HTML is the body."""
    html = (
        b"<!doctype html><html><head><meta http-equiv=refresh content='0; url=/real-robots.txt'>"
        b"<script>location.href='/real-robots.txt'</script></head>"
        b"<frameset><frame src='/real-robots.txt'></frameset></html>\n"
    )
    server.route("/real-robots.txt", respond(200, b"User-agent: *\nDisallow: /\n"))
    entry = fetch(server.route("/robots.txt", respond(200, html, {"Content-Type": "text/html"})))
    assert (entry.outcome, entry.status, entry.body) == ("rules", 200, html)
    assert server.paths() == ["/robots.txt"]


# -- F4 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("status", [400, 401, 403, 404, 405, 410, 418, 451, 499])
def test_4xx_means_no_robots_txt_and_full_allow(fetch: Run, server: HTTPServer, status: int) -> None:
    """F4: every 4xx (401 and 403 included) means no valid robots.txt: full allow, cached 24 h."""
    entry = fetch(server.route("/robots.txt", respond(status, b"<h1>nope</h1>", {"Content-Type": "text/html"})))
    assert (entry.outcome, entry.status, entry.body) == ("allow", status, b"")
    assert "no robots.txt" in entry.reason
    assert (entry.expires_at, entry.good_status, entry.good_at, entry.failures) == (NOW + DAY, status, NOW, 0)
    assert standing(entry, NOW, TEST_POLICY).kind == "allow"


def test_429_is_a_server_error_by_default(fetch: Run, server: HTTPServer) -> None:
    """F5 (Google today): 429 Too Many Requests is treated like a 503, retried sooner, full disallow meanwhile."""
    entry = fetch(server.route("/robots.txt", respond(429)))
    assert (entry.outcome, entry.status, entry.failures) == ("error", 429, 1)
    assert entry.expires_at == NOW + TEST_POLICY.retry_after_503
    assert standing(entry, NOW, TEST_POLICY).kind == "disallow"


def test_429_is_full_allow_when_all_4xx_alike(fetch: Run, server: HTTPServer) -> None:
    """F4 as the seeds say (Policy(all_4xx_alike=True)): 429 is a 4xx like any other, full allow."""
    policy = Policy(fetch_timeout=5.0, all_4xx_alike=True)
    entry = fetch(server.route("/robots.txt", respond(429)), policy=policy)
    assert (entry.outcome, entry.status, entry.failures) == ("allow", 429, 0)
    assert standing(entry, NOW, policy).kind == "allow"


# -- F5 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("status", [500, 501, 502, 503, 504, 599])
def test_5xx_is_an_error_and_full_disallow(fetch: Run, server: HTTPServer, status: int) -> None:
    """F5: a 5xx is a temporary error: no good copy, so full disallow until a retry succeeds."""
    entry = fetch(server.route("/robots.txt", respond(status, b"oops")))
    assert (entry.outcome, entry.status, entry.body) == ("error", status, b"")
    assert (entry.failures, entry.failing_since, entry.good_at, entry.good_status) == (1, NOW, None, 0)
    assert standing(entry, NOW, TEST_POLICY)[:3] == ("disallow", b"", status)


def test_503_is_retried_sooner_than_other_5xx(fetch: Run, server: HTTPServer) -> None:
    """F5: 503 leads to fairly frequent retries: its entry expires before a 500's."""
    e500 = fetch(server.route("/500/robots.txt", respond(500)))
    e503 = fetch(server.route("/503/robots.txt", respond(503)))
    assert e503.expires_at == NOW + TEST_POLICY.retry_after_503
    assert e500.expires_at == NOW + TEST_POLICY.retry_after_error
    assert e503.expires_at < e500.expires_at


@pytest.mark.parametrize(("status", "retry_after", "expected"), [
    (503, "120", 120.0),
    (500, "1800", 1800.0),
    (429, "600", 600.0),
    (503, "5", 60.0),  # below min_ttl: raised to it
    (503, "999999", 3600.0),  # above max_retry_interval: capped
    (503, "soon", 60.0),  # not a number nor a date: ignored
])
def test_retry_after_seconds_is_honoured_within_bounds(
    fetch: Run, server: HTTPServer, status: int, retry_after: str, expected: float
) -> None:
    """F5: Retry-After decides when to retry, clamped to [min_ttl, max_retry_interval]."""
    entry = fetch(server.route("/robots.txt", respond(status, b"", {"Retry-After": retry_after})))
    assert entry.outcome == "error"
    assert entry.expires_at == NOW + expected


def test_retry_after_http_date_is_honoured(fetch: Run, server: HTTPServer) -> None:
    """F5: Retry-After may be an HTTP date; the retry is at that date."""
    when = formatdate(NOW + 900, usegmt=True)
    entry = fetch(server.route("/robots.txt", respond(503, b"", {"Retry-After": when})))
    assert (entry.outcome, entry.status, entry.expires_at) == ("error", 503, NOW + 900)


# -- C1, C4 -----------------------------------------------------------------------------------
@pytest.mark.parametrize(("cache_control", "ttl"), [
    ("max-age=3600", 3600.0),
    ("public, max-age=7200", 7200.0),
    ('max-age="600"', 600.0),
    ("max-age=5", 60.0),  # raised to min_ttl
    ("max-age=99999999", 7 * DAY),  # lowered to max_ttl
    ("no-store", 60.0),
    ("no-cache", 60.0),
    ("max-age=soon", DAY),  # malformed: ignored
    ("private", DAY),
])
def test_cache_control_max_age_sets_the_lifetime(fetch: Run, server: HTTPServer, cache_control: str, ttl: float) -> None:
    """C1, C4: Cache-Control: max-age lengthens or shortens the 24 h lifetime, within bounds."""
    entry = fetch(server.route("/robots.txt", respond(200, ROBOTS, {"Cache-Control": cache_control})))
    assert entry.outcome == "rules"
    assert entry.expires_at == NOW + ttl


def test_cache_control_applies_to_a_404_too(fetch: Run, server: HTTPServer) -> None:
    """C4, F4: "no robots.txt" is a cached answer like any other; max-age sets its lifetime."""
    entry = fetch(server.route("/robots.txt", respond(404, b"", {"Cache-Control": "max-age=300"})))
    assert (entry.outcome, entry.expires_at) == ("allow", NOW + 300)


# -- F8: statuses that are not valid ----------------------------------------------------------
@pytest.mark.parametrize("status", [600, 799, 999])
def test_status_outside_100_599_is_an_error(fetch: Run, server: HTTPServer, status: int) -> None:
    """F8: an invalid response (a status no class covers) is a server error."""
    entry = fetch(server.route("/robots.txt", respond(status, ROBOTS)))
    assert (entry.outcome, entry.status, entry.body) == ("error", status, b"")
    assert "invalid status" in entry.reason
    assert standing(entry, NOW, TEST_POLICY).kind == "disallow"


@pytest.mark.parametrize("head", [
    b"HTTP/1.1 abc Broken\r\nContent-Length: 0\r\n\r\n",
    b"HTTP/1.1 20 Short\r\nContent-Length: 0\r\n\r\n",
    b"HELLO\r\n\r\n",
    b"SSH-2.0-OpenSSH_9.6\r\n",
    b"HTTP/1.1 100 Continue\r\n\r\n",  # only an interim answer, then the connection closes
])
def test_unparseable_or_missing_final_status_is_an_error(fetch: Run, server: HTTPServer, head: bytes) -> None:
    """F8: a response without a usable final status line is an invalid response: an error, status 0."""
    entry = fetch(server.route("/robots.txt", raw(head)))
    assert (entry.outcome, entry.status) == ("error", 0)
    assert entry.reason.startswith("protocol error")


# -- F7 (opt-in) ------------------------------------------------------------------------------
F7 = Policy(fetch_timeout=5.0, detect_misconfigured_5xx=True)


def _misconfigured(server: HTTPServer, robots_status: int = 500, home_status: int = 200, unknown_status: int = 500) -> str:
    server.default = respond(unknown_status, b"error page")
    server.route("/", respond(home_status, b"<html>home</html>"))
    return server.route("/robots.txt", respond(robots_status, b"error page"))


@pytest.mark.google_only
def test_5xx_for_missing_pages_too_is_treated_as_404_when_detection_is_on(fetch: Run, server: HTTPServer) -> None:
    """F7: a site answering 5xx for robots.txt and for a page that cannot exist, while / is 200, is misconfigured: full allow."""
    entry = fetch(_misconfigured(server), policy=F7)
    assert (entry.outcome, entry.status, entry.failures) == ("allow", 500, 0)
    assert "missing pages" in entry.reason
    assert standing(entry, NOW, F7).kind == "allow"
    paths = server.paths()
    assert paths[0] == "/robots.txt" and paths[2] == "/" and len(paths) == 3
    assert paths[1].startswith("/robotrules-probe-") and paths[1] != "/robots.txt"


@pytest.mark.google_only
def test_5xx_is_a_plain_error_without_misconfiguration_detection(fetch: Run, server: HTTPServer) -> None:
    """F7 is opt-in: without it the same site is a plain 5xx error (full disallow) and no probe is sent."""
    entry = fetch(_misconfigured(server))
    assert (entry.outcome, entry.status) == ("error", 500)
    assert server.paths() == ["/robots.txt"]


@pytest.mark.google_only
def test_5xx_stays_an_error_when_missing_pages_are_404(fetch: Run, server: HTTPServer) -> None:
    """F7, F5: a site that answers 404 for missing pages is not misconfigured; its robots.txt 5xx stays an error."""
    entry = fetch(_misconfigured(server, unknown_status=404), policy=F7)
    assert (entry.outcome, entry.status, entry.failures) == ("error", 500, 1)
    assert standing(entry, NOW, F7).kind == "disallow"
    assert len(server.paths()) == 2  # robots.txt and the probe; the home page is not needed


@pytest.mark.google_only
@pytest.mark.parametrize("home", [503, 301, 404])
def test_5xx_stays_an_error_when_the_home_page_is_not_2xx(fetch: Run, server: HTTPServer, home: int) -> None:
    """F7, F5: the whole site failing (or / not answering 2xx) is not the misconfiguration F7 forgives."""
    entry = fetch(_misconfigured(server, home_status=home), policy=F7)
    assert (entry.outcome, entry.status) == ("error", 500)
    assert len(server.paths()) == 3


@pytest.mark.google_only
@pytest.mark.parametrize("probe", [reset(), close_silently()])
def test_5xx_stays_an_error_when_the_probe_fails(fetch: Run, server: HTTPServer, probe: object) -> None:
    """F7, F8: a network failure on the probe proves nothing: the robots.txt 5xx stays an error."""
    url = _misconfigured(server)
    server.default = probe  # type: ignore[assignment]
    entry = fetch(url, policy=F7)
    assert (entry.outcome, entry.status) == ("error", 500)


@pytest.mark.google_only
def test_misconfigured_503_keeps_its_retry_after_when_still_an_error(fetch: Run, server: HTTPServer) -> None:
    """F7, F5: when the probes do not forgive the 5xx, the robots.txt's own Retry-After still decides."""
    server.default = respond(404)
    url = server.route("/robots.txt", respond(503, b"", {"Retry-After": "240"}))
    entry = fetch(url, policy=F7)
    assert (entry.outcome, entry.status, entry.expires_at) == ("error", 503, NOW + 240)
