"""GET /v1/robots: the cache entry for the robots.txt governing a URL (S1-S5, F3, C1-C3)."""

from __future__ import annotations

import httpx

from tests.servers.http import HTTPServer, redirect, respond

from .conftest import ROBOTS

STATE_KEYS = {"robots_url", "final_url", "redirects", "kind", "status", "reason", "cache", "age", "failures",
              "fetched_at", "expires_at", "store", "summary"}


def test_robots_entry_shows_the_text_its_size_and_sitemaps(api: httpx.Client, site: HTTPServer) -> None:
    """The entry of the robots.txt governing any URL of the site (S1): state, body as text, size, sitemaps (N1)."""
    response = api.get("/v1/robots", params={"url": site.url("/some/page?x=1")})
    assert response.status_code == 200
    entry = response.json()
    assert set(entry) == STATE_KEYS | {"body", "size", "sitemaps"}
    assert entry["robots_url"] == site.url("/robots.txt")
    assert entry["body"] == ROBOTS.decode() and entry["size"] == len(ROBOTS)
    assert entry["sitemaps"] == ["https://example.com/sitemap.xml"]
    assert (entry["kind"], entry["status"], entry["redirects"]) == ("rules", 200, 0)


def test_robots_entry_is_fetched_once_then_served_from_the_cache(api: httpx.Client, site: HTTPServer) -> None:
    """C1, C3: the first request fetches (cache 'miss'), the next ones are answered from the cache ('hit')."""
    first = api.get("/v1/robots", params={"url": site.url("/")}).json()
    second = api.get("/v1/robots", params={"url": site.url("/other")}).json()
    assert (first["cache"], second["cache"]) == ("miss", "hit")
    assert first["fetched_at"] == second["fetched_at"] and second["expires_at"] > second["fetched_at"]
    assert site.hits("/robots.txt") == 1


def test_robots_entry_shows_where_redirects_ended(api: httpx.Client, site: HTTPServer) -> None:
    """F3: redirects are followed (up to five hops); the entry names the final URL and the hop count."""
    site.route("/robots.txt", redirect(301, "/moved/robots.txt"))
    site.route("/moved/robots.txt", redirect(302, site.url("/final/robots.txt", host="localhost")))
    site.route("/final/robots.txt", respond(200, b"User-agent: *\nDisallow: /final-only\n"))
    entry = api.get("/v1/robots", params={"url": site.url("/x")}).json()
    assert entry["robots_url"] == site.url("/robots.txt")
    assert (entry["final_url"], entry["redirects"]) == (site.url("/final/robots.txt", host="localhost"), 2)
    assert entry["body"] == "User-agent: *\nDisallow: /final-only\n"
    assert "after 2 redirects" in entry["summary"]
    [verdict] = api.get("/v1/check", params={"url": site.url("/final-only")}).json()["results"]
    assert verdict["allowed"] is False and verdict["robots"]["redirects"] == 2


def test_robots_entry_of_a_missing_file_has_no_body(api: httpx.Client) -> None:
    """F4: a 404 means full allow; there is no body, so body and size are null."""
    with HTTPServer() as site:
        entry = api.get("/v1/robots", params={"url": site.url("/")}).json()
    assert (entry["kind"], entry["status"], entry["body"], entry["size"], entry["sitemaps"]) == ("allow", 404, None, None, [])


def test_robots_body_that_is_not_utf8_is_shown_with_replacement_characters(api: httpx.Client, site: HTTPServer) -> None:
    """The body is shown as UTF-8 text; bytes that are not UTF-8 become U+FFFD, the size stays the bytes'."""
    body = b"User-agent: *\nDisallow: /caf\xe9\n"
    site.route("/robots.txt", respond(200, body))
    entry = api.get("/v1/robots", params={"url": site.url("/")}).json()
    assert entry["body"] == "User-agent: *\nDisallow: /caf\ufffd\n" and entry["size"] == len(body)
