"""The client as people use it: agents matched on their product token, explanations they can read.

The core compares agents exactly as Google's reference does (G3: a caller passes a token); the
client is a surface for people and crawlers, which hold a User-Agent header or a versioned name,
so it matches on the product token of what it is given (RFC 9309 2.2.1) and says which token it
used. Explanations quote the deciding line as written, show redirects, and cite no requirement ids.
"""

from __future__ import annotations

import re

import pytest

from robotrules import MemoryStore, RobotsInputWarning, parse
from robotrules.answers import check_offline, from_result
from robotrules.cache.base import decode_entry, encode_entry
from robotrules.core.policy import Entry, merge
from tests.servers.http import redirect, respond

FOOBOT = b"User-agent: FooBot\nDisAllow: /Private  # keep out\n\nUser-agent: *\nAllow: /\n"
IDS = re.compile(r"\b[SFCPGRNAL]\d+\b")


@pytest.mark.parametrize("agent", ["FooBot", "foobot", "FooBot/1.2", "Mozilla/5.0 (compatible; FooBot/2.1)",
                                   "Mozilla/5.0 (compatible; FooBot/2.1; +http://foo.example/bot)"])
def test_a_versioned_name_or_a_whole_header_is_matched_on_its_product_token(server, make_client, agent):
    """The issue's cases: each of these is FooBot, so User-agent: FooBot / Disallow applies."""
    server.route("/robots.txt", respond(200, FOOBOT))
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/Private/page"
    assert client.allowed(url, agent) is False
    result = client.check(url, agent)
    assert (result.allowed, result.line, result.agent.lower()) == (False, 2, "foobot")


def test_the_core_still_compares_the_callers_string_exactly():
    """The reference: a caller passing a whole header matches no group (G3), with a warning naming the
    token to pass; only surfaces extract the token."""
    robots = parse(FOOBOT)
    with pytest.warns(RobotsInputWarning, match="'FooBot'"):
        assert robots.allowed("/Private/page", "FooBot/1.2") is True
    assert robots.allowed("/Private/page", "FooBot") is False


def test_the_clients_own_user_agent_is_the_default_agent(server, make_client):
    """RobotsClient(user_agent=...) is the agent matched when a call names none, not only the header sent."""
    server.route("/robots.txt", respond(200, FOOBOT))
    client = make_client(user_agent="Mozilla/5.0 (compatible; FooBot/2.1; +http://foo.example/bot)")
    url = f"http://127.0.0.1:{server.port}/Private/page"
    assert client.agent == "FooBot"
    assert client.allowed(url) is False
    assert client.check(url).agent == "FooBot"
    assert server.requests[-1].headers["user-agent"].startswith("Mozilla/5.0 (compatible; FooBot/2.1")
    other = make_client(user_agent="OtherBot/3.0")
    assert other.allowed(url) is True


def test_several_agents_are_each_matched_on_their_token(server, make_client):
    """G5: a crawler with several names passes them all; each counts by its product token."""
    server.route("/robots.txt", respond(200, FOOBOT))
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/Private/page"
    result = client.check(url, ["OtherBot/1.0", "FooBot/2.1"])
    assert (result.allowed, result.agent) == (False, "OtherBot, FooBot")


def test_the_deciding_line_is_quoted_as_written(server, make_client):
    """Case, spacing and the comment of the deciding line are shown as in the file."""
    server.route("/robots.txt", respond(200, FOOBOT))
    result = make_client().check(f"http://127.0.0.1:{server.port}/Private/page", "FooBot")
    assert result.text == "DisAllow: /Private  # keep out"
    assert "'DisAllow: /Private  # keep out'" in result.explain()


def test_redirects_followed_are_shown_with_the_final_url(server, make_client):
    """F3: the explanation names where the redirects ended and how many hops led there."""
    server.route("/robots.txt", redirect(301, "/step"))
    server.route("/step", redirect(302, "/final.txt"))
    server.route("/final.txt", respond(200, FOOBOT))
    state = make_client().robots(f"http://127.0.0.1:{server.port}/")
    assert (state.entry.redirects, state.entry.final_url) == (2, f"http://127.0.0.1:{server.port}/final.txt")
    assert f"after 2 redirects to http://127.0.0.1:{server.port}/final.txt" in str(state)


def test_a_state_prints_for_people_and_its_repr_hides_the_body(server, make_client):
    """print(client.refresh(url)) is one readable line; repr() leaves out the parsed file and the entry."""
    server.route("/robots.txt", respond(200, FOOBOT))
    state = make_client().refresh(f"http://127.0.0.1:{server.port}/")
    assert str(state) == f"http://127.0.0.1:{server.port}/robots.txt: its rules decide (200); fetched just now"
    assert "RobotsTxt(" not in repr(state) and "Entry(" not in repr(state) and "User-agent" not in repr(state)


@pytest.mark.parametrize(("status", "full"), [(404, "allow"), (503, "disallow")])
def test_explanations_cite_no_requirement_ids(server, make_client, status, full):
    """Messages people read speak plainly: no (F5), P3:, (S1-S5)."""
    server.route("/robots.txt", respond(status, b""))
    result = make_client().check(f"http://127.0.0.1:{server.port}/x", "FooBot")
    text = result.explain()
    assert ("no robots.txt (404)" if full == "allow" else "could not fetch robots.txt (server error 503)") in text
    assert not IDS.search(text), text


def test_a_verdict_as_json_names_the_agent_given_and_the_token_used(server, make_client):
    """The one JSON form of a verdict (CLI --json, the service): agent as given, token, line as written, robots state."""
    server.route("/robots.txt", respond(200, FOOBOT))
    url = f"http://127.0.0.1:{server.port}/Private/page"
    data = from_result(make_client().check(url, "FooBot/1.2"), url, "FooBot/1.2").to_dict()
    assert (data["agent"], data["token"], data["allowed"], data["line"]) == ("FooBot/1.2", "FooBot", False, 2)
    assert data["text"] == "DisAllow: /Private  # keep out" and data["kind"] == "disallow"
    assert data["robots"]["status"] == 200 and data["robots"]["cache"] == "miss"
    assert data["robots"]["robots_url"] == f"http://127.0.0.1:{server.port}/robots.txt"


def test_an_offline_verdict_matches_on_the_token_and_has_no_robots_state():
    verdict = check_offline(parse(FOOBOT), "/Private/x", "Mozilla/5.0 (compatible; FooBot/2.1)", "draft")
    data = verdict.to_dict()
    assert (data["allowed"], data["token"], data["line"], data["robots"]) == (False, "FooBot", 2, None)
    assert verdict.explain() == "disallowed for FooBot by line 2: 'DisAllow: /Private  # keep out' (group for 'foobot')"


def test_redirect_count_survives_the_store_and_a_failed_refresh():
    """C2: the good copy's final URL and redirect count travel with it through stores and merges."""
    good = Entry("https://a.example/robots.txt", "rules", 200, "200", 10.0, 20.0, b"x", 200, 10.0,
                 final_url="https://b.example/robots.txt", redirects=3)
    assert decode_entry(encode_entry(good)).redirects == 3
    failed = Entry("https://a.example/robots.txt", "error", 503, "503", 30.0, 40.0, failures=1, failing_since=30.0)
    kept = merge(good, failed)
    assert (kept.outcome, kept.redirects, kept.final_url) == ("error", 3, "https://b.example/robots.txt")
    store = MemoryStore()
    store.put(good)
    store.put(failed)
    assert store.get(good.url).redirects == 3  # type: ignore[union-attr]


def test_a_robots_txt_at_another_path_is_fetched_and_cached_at_exactly_that_url(server, make_client):
    """robots_at(): a file that is not /robots.txt (urllib.robotparser reads any URL it is given),
    fetched once, then a cache hit; force fetches again."""
    server.route("/elsewhere/robots.txt", respond(200, FOOBOT))
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/elsewhere/robots.txt"
    first = client.robots_at(url + "#fragment")
    assert (first.robots_url, first.cache, first.status) == (url, "miss", 200)
    assert client.robots_at(url).cache == "hit"
    assert client.robots_at(url, force=True).cache == "miss"
    assert server.hits("/elsewhere/robots.txt") == 2 and server.hits("/robots.txt") == 0


def test_a_fetcher_given_to_the_client_makes_its_requests_and_the_policy_stays_the_clients():
    """fetcher=: a framework's own downloader (Scrapy's) sends the requests; status rules, redirects
    and the cache are still the client's (F2, F3)."""
    from robotrules import Policy, RobotsClient
    from robotrules.core.policy import Response
    from robotrules.fetch import Fetcher

    class Canned(Fetcher):
        def __init__(self) -> None:
            super().__init__(policy=Policy())
            self.sent: list[str] = []

        def send(self, fetch, deadline):  # type: ignore[no-untyped-def]
            self.sent.append(fetch.url)
            if fetch.url.endswith("/robots.txt"):
                return Response(301, {"location": "https://b.example/rules.txt"}, b"")
            return Response(200, {}, FOOBOT)

    fetcher = Canned()
    client = RobotsClient(fetcher=fetcher)
    assert client.allowed("https://a.example/Private/x", "FooBot") is False
    assert client.allowed("https://a.example/other", "FooBot") is True
    assert fetcher.sent == ["https://a.example/robots.txt", "https://b.example/rules.txt"]
    with pytest.raises(ValueError, match="either fetcher or http_client"):
        RobotsClient(fetcher=fetcher, http_client=object())
