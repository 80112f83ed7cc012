"""Redirects over real HTTP: followed by the policy, at most 5 hops, loops and dead ends are 404s (F3)."""

from __future__ import annotations

import pytest

from robotrules.core.policy import standing
from tests.servers.ftp import FTPServer
from tests.servers.http import HTTPServer, redirect, respond

from .conftest import DAY, NOW, TEST_POLICY, Run

FINAL = b"User-agent: *\nDisallow: /final\n"


@pytest.mark.parametrize("hops", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("code", [301, 302, 307, 308])
def test_redirect_chains_of_up_to_5_hops_are_followed(fetch: Run, server: HTTPServer, code: int, hops: int) -> None:
    """F3: redirects are followed for at least 5 hops; the final 200's body decides."""
    url = server.chain(code, hops, respond(200, FINAL))
    entry = fetch(url)
    assert (entry.outcome, entry.status, entry.body) == ("rules", 200, FINAL)
    assert entry.url == url  # cached under the robots.txt URL asked for (C3) ...
    assert entry.final_url == server.url("/hop/0")  # ... while recording where the body came from
    assert server.paths() == ["/robots.txt"] + [f"/hop/{n}" for n in range(hops - 1, -1, -1)]
    assert entry.expires_at == NOW + DAY


def test_mixed_redirect_codes_count_as_one_chain(fetch: Run, server: HTTPServer) -> None:
    """F3: 301, 302, 303, 307 and 308 are all redirects; five of them in a row are still followed."""
    entry = fetch(server.chain([301, 302, 303, 307, 308], 5, respond(200, FINAL)))
    assert (entry.outcome, entry.body) == ("rules", FINAL)
    assert server.hits() == 6


@pytest.mark.parametrize("code", [301, 302, 307, 308])
def test_sixth_redirect_is_treated_as_404(fetch: Run, server: HTTPServer, code: int) -> None:
    """F3, F4: past 5 hops the crawler stops and treats robots.txt as a 404: full allow."""
    entry = fetch(server.chain(code, 6, respond(200, FINAL)))
    assert (entry.outcome, entry.status, entry.body) == ("allow", code, b"")
    assert (entry.why.code, entry.why.limit) == ("redirect-limit", 5)
    assert server.hits() == 6  # the 6th Location is never requested
    assert server.hits("/hop/0") == 0
    assert standing(entry, NOW, TEST_POLICY).kind == "allow"


def test_longer_chains_are_cut_at_the_same_place(fetch: Run, server: HTTPServer) -> None:
    """F3: a 20-hop chain costs 6 requests, not 20."""
    entry = fetch(server.chain(302, 20))
    assert entry.outcome == "allow"
    assert server.hits() == 6


def test_redirect_loop_is_treated_as_404(fetch: Run, server: HTTPServer) -> None:
    """F3: a redirect loop is detected and treated as a 404 (full allow), without going round again."""
    server.route("/a", redirect(302, "/b"))
    server.route("/b", redirect(307, "/robots.txt"))
    entry = fetch(server.route("/robots.txt", redirect(301, "/a")))
    assert (entry.outcome, entry.status) == ("allow", 307)
    assert (entry.why.code, entry.why.detail) == ("redirect-loop", server.url("/robots.txt"))
    assert server.paths() == ["/robots.txt", "/a", "/b"]


def test_redirect_to_itself_is_a_loop(fetch: Run, server: HTTPServer) -> None:
    """F3: robots.txt redirecting to its own URL is a loop: one request, full allow."""
    url = server.url("/robots.txt")
    server.route("/robots.txt", redirect(301, url))
    entry = fetch(url)
    assert (entry.outcome, entry.status) == ("allow", 301)
    assert server.hits() == 1


@pytest.mark.parametrize("location", [None, ""])
def test_redirect_without_location_is_treated_as_404(fetch: Run, server: HTTPServer, location: str | None) -> None:
    """F3: a 3xx with no (or an empty) Location leads nowhere: treated as a 404, full allow."""
    entry = fetch(server.route("/robots.txt", redirect(302, location)))
    assert (entry.outcome, entry.status, entry.body) == ("allow", 302, b"")
    assert entry.why.code == "redirect-no-location"


def test_304_without_a_conditional_request_is_treated_as_404(fetch: Run, server: HTTPServer) -> None:
    """F1, F3: the GET is unconditional, so a 304 is a 3xx going nowhere: full allow."""
    entry = fetch(server.route("/robots.txt", respond(304)))
    assert (entry.outcome, entry.status) == ("allow", 304)


@pytest.mark.parametrize(("start", "location", "final"), [
    ("/robots.txt", "/moved/robots.txt", "/moved/robots.txt"),  # absolute path
    ("/robots.txt", "moved/robots.txt", "/moved/robots.txt"),  # relative to /
    ("/dir/robots.txt", "../other/robots.txt", "/other/robots.txt"),  # dot segments
    ("/robots.txt", "?v=2", "/robots.txt?v=2"),  # query only
])
def test_relative_location_is_resolved_against_the_current_url(
    fetch: Run, server: HTTPServer, start: str, location: str, final: str
) -> None:
    """F3: a relative Location (RFC 9110 allows it) is resolved against the URL that redirected."""
    server.route(final, respond(200, FINAL))
    entry = fetch(server.route(start, redirect(301, location)))
    assert (entry.outcome, entry.body) == ("rules", FINAL)
    assert entry.final_url == server.url(final)
    assert server.paths() == [start, final]


def test_redirect_to_another_host_is_followed(fetch: Run, server: HTTPServer, other_server: HTTPServer) -> None:
    """F3: a redirect to another origin (www to bare host, a CDN) is followed; its body is this robots.txt's."""
    other_server.route("/robots.txt", respond(200, FINAL))
    target = other_server.url("/robots.txt", host="localhost")
    url = server.route("/robots.txt", redirect(301, target))
    entry = fetch(url, user_agent="TestBot/1.0")
    assert (entry.outcome, entry.body, entry.url, entry.final_url) == ("rules", FINAL, url, target)
    (request,) = other_server.requests
    assert request.headers["host"] == f"localhost:{other_server.port}"
    assert request.headers["user-agent"] == "TestBot/1.0"


def test_scheme_relative_location_to_another_host_name(fetch: Run, server: HTTPServer) -> None:
    """F3: a scheme-relative Location (//host:port/path) keeps the scheme and changes the host."""
    server.route("/final.txt", respond(200, FINAL))
    entry = fetch(server.route("/robots.txt", redirect(308, f"//localhost:{server.port}/final.txt")))
    assert (entry.outcome, entry.body) == ("rules", FINAL)
    assert entry.final_url == server.url("/final.txt", host="localhost")
    assert server.requests[-1].headers["host"] == f"localhost:{server.port}"


def test_same_path_on_another_host_name_is_not_a_loop(fetch: Run, server: HTTPServer) -> None:
    """F3: 127.0.0.1 and localhost are different URLs; /robots.txt on each is two hops, not a loop."""
    server.route("/robots.txt", redirect(301, server.url("/robots.txt", host="localhost")))
    entry = fetch(server.url("/robots.txt"))
    # The second hop is requested; only its answer (Location: itself, under localhost) closes a loop.
    assert (entry.outcome, entry.why.code) == ("allow", "redirect-loop")
    assert [r.headers["host"].split(":")[0] for r in server.requests] == ["127.0.0.1", "localhost"]


def test_redirect_to_an_unfetchable_scheme_is_treated_as_404(fetch: Run, server: HTTPServer) -> None:
    """F3, S5: a redirect the crawler cannot follow (gopher://) ends the chain like a 404: full allow."""
    entry = fetch(server.route("/robots.txt", redirect(302, "gopher://example.com/robots.txt")))
    assert (entry.outcome, entry.status) == ("allow", 302)
    assert entry.why.code == "redirect-bad-scheme"
    assert server.hits() == 1


@pytest.mark.parametrize("location", ["mailto:webmaster@example.com", "javascript:alert(1)", "http://[::1/robots.txt"])
def test_redirect_to_a_location_httpx_rejects_is_treated_as_404(fetch: Run, server: HTTPServer, location: str) -> None:
    """F3, S5: a redirect to mailto:, javascript: or an unparseable URL leads nowhere: treated as a 404, full allow.

    httpx resolves the Location itself, even when not following it, and raises before the
    response is seen, so the status is not known here (0); the reason names the Location.
    """
    entry = fetch(server.route("/robots.txt", redirect(302, location)))
    assert (entry.outcome, entry.status, entry.good_at is not None) == ("allow", 0, True)
    assert entry.why.code == "redirect-unusable"


def test_redirect_with_an_unusable_location_on_a_300_is_treated_as_404(fetch: Run, server: HTTPServer) -> None:
    """F3: the policy's own answer where httpx does not interfere (300 is not one of httpx's redirect codes)."""
    entry = fetch(server.route("/robots.txt", redirect(300, "mailto:webmaster@example.com")))
    assert (entry.outcome, entry.status) == ("allow", 300)
    assert entry.why.code == "redirect-bad-scheme"


@pytest.mark.google_only
def test_redirect_to_ftp_is_followed_with_anonymous_ftp(fetch: Run, server: HTTPServer, ftp_server: FTPServer) -> None:
    """F3, S5: http may redirect to an ftp:// robots.txt, which is fetched with anonymous FTP."""
    target = ftp_server.put("robots.txt", FINAL)
    entry = fetch(server.route("/robots.txt", redirect(301, target)))
    assert (entry.outcome, entry.status, entry.body, entry.final_url) == ("rules", 200, FINAL, target)


def test_redirect_body_does_not_matter(fetch: Run, server: HTTPServer) -> None:
    """F3: the body of a redirect is not the robots.txt, however big it is; the target's body is."""
    server.route("/final.txt", respond(200, FINAL))
    big = b"<html>" + b"x" * 600_000 + b"</html>"
    entry = fetch(server.route("/robots.txt", respond(301, big, {"Location": "/final.txt"})))
    assert (entry.outcome, entry.body) == ("rules", FINAL)


def test_redirect_target_failing_is_an_error(fetch: Run, server: HTTPServer) -> None:
    """F3, F5: the status of the last hop decides: a redirect to a 503 is a 503 error."""
    server.route("/final.txt", respond(503))
    entry = fetch(server.route("/robots.txt", redirect(301, "/final.txt")))
    assert (entry.outcome, entry.status) == ("error", 503)


def test_location_with_a_stray_bracket_is_an_answer_not_an_exception(fetch: Run, server: HTTPServer) -> None:
    """F3, F8: a Location whose host has a stray ']' must end in an entry (a 404-like allow), never raise."""
    entry = fetch(server.route("/robots.txt", redirect(301, "http://a]/robots.txt")))
    assert (entry.outcome, entry.status) == ("allow", 301)


@pytest.mark.parametrize("location", ["http://127.0.0.1:99999/robots.txt", "http://exa mple.com/robots.txt", "http:///robots.txt"])
def test_unusable_location_is_an_answer_not_an_exception(fetch: Run, server: HTTPServer, location: str) -> None:
    """F3, F8: a Location httpx cannot request (port out of range, space in host, no host) still ends in an entry."""
    entry = fetch(server.route("/robots.txt", redirect(301, location)))
    assert entry.outcome in ("allow", "error")
    assert server.hits() == 1
