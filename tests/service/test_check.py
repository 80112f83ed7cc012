"""GET and POST /v1/check: live verdicts with the deciding line, as the CLI's JSON shows them.

The robots.txt is fetched from a real site on 127.0.0.1 and cached as Google does (F1-F8,
C1-C3); agents are matched on their product token (RFC 9309 2.2.1, G3).
"""

from __future__ import annotations

import httpx

from tests.servers.http import HTTPServer, respond

from .conftest import ROBOTS, Start

VERDICT_KEYS = {"url", "agent", "token", "allowed", "line", "text", "kind", "group", "path", "source", "full",
                "ignored_global", "robots", "explanation", "preferences", "preference_lines",
                "preference_lines_omitted"}


def test_get_check_gives_the_verdict_with_the_deciding_line_as_written(api: httpx.Client, site: HTTPServer) -> None:
    """R1-R6: the verdict names the deciding line (number and text as written), the group and the path."""
    response = api.get("/v1/check", params={"url": site.url("/private/page?q=1"), "agent": "OtherBot"})
    assert response.status_code == 200
    [verdict] = response.json()["results"]
    assert set(verdict) == VERDICT_KEYS
    assert verdict["allowed"] is False
    assert (verdict["line"], verdict["text"], verdict["kind"]) == (2, "Disallow: /private", "disallow")
    assert (verdict["group"], verdict["path"], verdict["full"]) == ("*", "/private/page?q=1", None)
    assert verdict["source"] == site.url("/robots.txt")
    assert verdict["robots"]["robots_url"] == site.url("/robots.txt")
    assert verdict["robots"]["kind"] == "rules" and verdict["robots"]["status"] == 200
    assert "disallowed for OtherBot by line 2: 'Disallow: /private'" in verdict["explanation"]


def test_the_longest_matching_rule_decides_and_is_explained(api: httpx.Client, site: HTTPServer) -> None:
    """R6: the longer allow wins over the shorter disallow, and the explanation says which line."""
    [verdict] = api.get("/v1/check", params={"url": site.url("/private/open/x")}).json()["results"]
    assert verdict["allowed"] is True and verdict["line"] == 3 and verdict["text"] == "Allow: /private/open"
    assert verdict["explanation"].startswith("allowed for * by line 3: 'Allow: /private/open'")


def test_agent_defaults_to_the_star_group(api: httpx.Client, site: HTTPServer) -> None:
    """Without an agent the service decides for '*': the global group (G2)."""
    [verdict] = api.get("/v1/check", params={"url": site.url("/nogoogle")}).json()["results"]
    assert (verdict["agent"], verdict["token"], verdict["group"], verdict["allowed"]) == ("*", "*", "*", True)


def test_agents_given_as_headers_or_versioned_names_are_matched_on_their_product_token(
        api: httpx.Client, site: HTTPServer) -> None:
    """G3, RFC 9309 2.2.1: 'Googlebot/2.1' and a whole User-Agent header select the Googlebot group;
    the verdict shows the agent as given and the token matched."""
    header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
    response = api.get("/v1/check", params=[("url", site.url("/nogoogle/x")), ("agent", "Googlebot/2.1"),
                                             ("agent", header), ("agent", "googlebot"), ("agent", "GPTBot")])
    results = response.json()["results"]
    assert [(r["agent"], r["token"], r["allowed"], r["line"]) for r in results] == [
        ("Googlebot/2.1", "Googlebot", False, 6),
        (header, "Googlebot", False, 6),
        ("googlebot", "googlebot", False, 6),
        ("GPTBot", "GPTBot", True, None),  # no deciding line: null (issue #19)
    ]
    assert results[0]["group"] == "googlebot" and results[3]["group"] == "*"


def test_post_check_decides_every_url_for_every_agent_in_request_order(start: Start) -> None:
    """Every URL x agent, URL by URL; each site's robots.txt is fetched once for the whole batch (C3)."""
    api = start()
    with HTTPServer() as one, HTTPServer() as two:
        one.route("/robots.txt", respond(200, ROBOTS))
        two.route("/robots.txt", respond(200, b"User-agent: GPTBot\nDisallow: /\n"))
        urls = [one.url("/private/a"), two.url("/a"), one.url("/b"), two.url("/private/b")]
        response = api.post("/v1/check", json={"urls": urls, "agents": ["GPTBot/1.2", "Googlebot"]})
        assert response.status_code == 200, response.text
        results = response.json()["results"]
        assert [(r["url"], r["agent"]) for r in results] == [(u, a) for u in urls for a in ("GPTBot/1.2", "Googlebot")]
        assert [r["allowed"] for r in results] == [False, True, False, True, True, True, False, True]
        assert one.hits("/robots.txt") == 1 and two.hits("/robots.txt") == 1
        caches = [r["robots"]["cache"] for r in results]
        assert caches.count("miss") == 2 and set(caches) <= {"miss", "hit", "shared"}


def test_post_check_agents_default_to_star(api: httpx.Client, site: HTTPServer) -> None:
    """POST without agents decides for '*'."""
    results = api.post("/v1/check", json={"urls": [site.url("/private")]}).json()["results"]
    assert [(r["agent"], r["allowed"]) for r in results] == [("*", False)]


def test_a_missing_robots_txt_allows_everything_and_says_so(api: httpx.Client) -> None:
    """F4: a 404 robots.txt means full allow: no line decides, ``full`` says why."""
    with HTTPServer() as site:
        [verdict] = api.get("/v1/check", params={"url": site.url("/anything")}).json()["results"]
    assert (verdict["allowed"], verdict["full"], verdict["line"], verdict["text"]) == (True, "allow", None, None)
    assert verdict["robots"]["status"] == 404 and verdict["robots"]["kind"] == "allow"
    assert "no robots.txt (404)" in verdict["explanation"]


def test_a_failing_robots_txt_disallows_everything_and_says_so(api: httpx.Client) -> None:
    """F5: a 5xx robots.txt (no cached copy) means full disallow."""
    with HTTPServer() as site:
        site.route("/robots.txt", respond(503, b"down"))
        [verdict] = api.get("/v1/check", params={"url": site.url("/x")}).json()["results"]
    assert (verdict["allowed"], verdict["full"]) == (False, "disallow")
    assert verdict["robots"]["status"] == 503


def test_a_host_that_does_not_resolve_is_an_answer_not_an_error(api: httpx.Client) -> None:
    """F8: a network failure (here, a name that cannot resolve) is full disallow, with the reason."""
    response = api.get("/v1/check", params={"url": "http://no-such-host.invalid/page"})
    assert response.status_code == 200
    [verdict] = response.json()["results"]
    assert (verdict["allowed"], verdict["full"]) == (False, "disallow")
    assert verdict["robots"]["status"] == 0 and verdict["robots"]["reason"]


def test_verdicts_are_the_same_json_as_the_shared_verdict_form(api: httpx.Client, site: HTTPServer) -> None:
    """One JSON form everywhere: the service's verdict is Verdict.to_dict() of the same check."""
    from robotrules import RobotsClient
    from robotrules.answers import from_result

    url = site.url("/private/x")
    [served] = api.get("/v1/check", params={"url": url, "agent": "Googlebot/2.1"}).json()["results"]
    with RobotsClient() as client:
        local = from_result(client.check(url, "Googlebot/2.1"), url, "Googlebot/2.1").to_dict()
    for key in ("url", "agent", "token", "allowed", "line", "text", "kind", "group", "path", "source", "full"):
        assert served[key] == local[key], key
    assert set(served["robots"]) == set(local["robots"])


def test_check_gives_the_ai_use_preferences_with_their_lines(api: httpx.Client) -> None:
    """A2, A3, A7: Content-Usage and Content-Signal answered per URL; none where the URL may not be crawled."""
    body = (b"User-agent: *\nContent-Signal: search=yes\nDisallow: /never/\nContent-Usage: train-ai=n\n"
            b"Content-Usage: /ai-ok/ train-ai=y\n")
    with HTTPServer() as server:
        server.route("/robots.txt", respond(200, body))
        response = api.post("/v1/check", json={"urls": [server.url("/x"), server.url("/ai-ok/y"), server.url("/never/z")],
                                               "agents": ["GPTBot/1.1"]})
    assert response.status_code == 200, response.text
    plain, ok, never = response.json()["results"]
    assert plain["preferences"] == {"train-ai": False, "search": True, "ai-input": None}
    assert plain["preference_lines"] == [2, 4]
    assert ok["preferences"]["train-ai"] is True and ok["preference_lines"] == [2, 5]
    assert never["allowed"] is False and never["preferences"] == {"train-ai": None, "search": None, "ai-input": None}
