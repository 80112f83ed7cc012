"""The fetchers as objects: identity sent, clients owned or borrowed, cache freshness and C2 (F1, F3, C1, C2)."""

from __future__ import annotations

import threading

import anyio
import httpx
import pytest

from robotrules.core.policy import Policy, standing
from robotrules.fetch import DEFAULT_USER_AGENT, AsyncFetcher, Fetcher
from tests.servers.http import Exchange, Handler, HTTPServer, delayed, reset, respond

from .conftest import DAY, NOW, TEST_POLICY, FakeClock, Run

ROBOTS = b"User-agent: *\nDisallow: /private\n"
NEWER = b"User-agent: *\nDisallow: /newer\n"


# -- identity ---------------------------------------------------------------------------------
def test_user_agent_sent_is_the_configured_one_on_every_hop(fetch: Run, server: HTTPServer) -> None:
    """F1: the robots.txt request says who the crawler is: the configured User-Agent, on every redirect hop too."""
    entry = fetch(server.chain(301, 3, respond(200, ROBOTS)), user_agent="TestBot/1.0")
    assert entry.body == ROBOTS
    assert [r.headers["user-agent"] for r in server.requests] == ["TestBot/1.0"] * 4


def test_default_user_agent_names_robotrules(fetch: Run, server: HTTPServer) -> None:
    """F1: without a user_agent the fetcher identifies itself as robotrules."""
    fetch(server.route("/robots.txt", respond(200, ROBOTS)))
    assert server.requests[0].headers["user-agent"] == DEFAULT_USER_AGENT
    assert DEFAULT_USER_AGENT.startswith("robotrules/")


def test_accept_encoding_offers_only_codings_the_fetcher_decodes(fetch: Run, server: HTTPServer) -> None:
    """F9: only gzip and deflate are offered, the codings decoded with a bounded output."""
    fetch(server.route("/robots.txt", respond(200, ROBOTS)))
    offered = {c.split(";")[0].strip() for c in server.requests[0].headers["accept-encoding"].split(",")}
    assert offered == {"gzip", "deflate"}


# -- caller-supplied clients ------------------------------------------------------------------
def test_caller_client_is_used_and_not_closed(server: HTTPServer, clock: FakeClock) -> None:
    """F1: a caller's httpx.Client carries the requests (its hooks see them) and survives Fetcher.close()."""
    seen: list[str] = []
    client = httpx.Client(event_hooks={"request": [lambda r: seen.append(str(r.url))]}, headers={"User-Agent": "client-default"})
    try:
        fetcher = Fetcher(client, user_agent="TestBot/1.0", policy=TEST_POLICY)
        url = server.chain(302, 2, respond(200, ROBOTS))
        entry = fetcher.fetch(url, None, clock)
        fetcher.close()
        assert entry.body == ROBOTS
        assert seen == [url, server.url("/hop/1"), server.url("/hop/0")]
        assert {r.headers["user-agent"] for r in server.requests} == {"TestBot/1.0"}  # the fetcher's identity wins
        assert not client.is_closed
        assert client.get(url, follow_redirects=True).status_code == 200  # still usable
    finally:
        client.close()


def test_caller_client_following_redirects_does_not_bypass_the_hop_limit(server: HTTPServer, clock: FakeClock) -> None:
    """F3: even a client built with follow_redirects=True and max_redirects=20 lets the policy count hops."""
    with httpx.Client(follow_redirects=True, max_redirects=20) as client:
        fetcher = Fetcher(client, policy=TEST_POLICY)
        entry = fetcher.fetch(server.chain(301, 6), None, clock)
        assert (entry.outcome, entry.status) == ("allow", 301)
        assert server.hits() == 6


def test_owned_client_is_closed_by_close(clock: FakeClock) -> None:
    """A fetcher closes the httpx client it created itself."""
    fetcher = Fetcher()
    fetcher.close()
    assert fetcher.http.client.is_closed


@pytest.mark.anyio
async def test_caller_async_client_is_used_and_not_closed(server: HTTPServer, clock: FakeClock) -> None:
    """F1: a caller's httpx.AsyncClient carries the requests and survives AsyncFetcher.aclose()."""
    seen: list[str] = []

    async def hook(request: httpx.Request) -> None:
        seen.append(request.url.path)

    async with httpx.AsyncClient(event_hooks={"request": [hook]}) as client:
        fetcher = AsyncFetcher(client, user_agent="TestBot/1.0", policy=TEST_POLICY)
        entry = await fetcher.fetch(server.route("/robots.txt", respond(200, ROBOTS)), None, clock)
        await fetcher.aclose()
        assert (entry.outcome, entry.body) == ("rules", ROBOTS)
        assert seen == ["/robots.txt"]
        assert server.requests[0].headers["user-agent"] == "TestBot/1.0"
        assert not client.is_closed
        assert (await client.get(server.url())).status_code == 200


@pytest.mark.anyio
async def test_async_fetches_run_concurrently(server: HTTPServer, clock: FakeClock) -> None:
    """The async fetcher does not serialise: 8 robots.txt are in flight together.

    Each answer waits at a barrier for all 8 requests; fetches made one at a time would never
    get past it (the first would time out at the deadline with an empty body).
    """
    fetcher = AsyncFetcher(policy=TEST_POLICY)
    results: dict[int, bytes] = {}
    everyone = threading.Barrier(8, timeout=TEST_POLICY.fetch_timeout + 1)

    def together(body: bytes) -> Handler:
        answer = respond(200, body)

        def handler(exchange: Exchange) -> None:
            everyone.wait()
            answer(exchange)

        return handler

    async def one(i: int) -> None:
        entry = await fetcher.fetch(server.route(f"/{i}/robots.txt", together(b"%d" % i)), None, clock)
        results[i] = entry.body

    async with anyio.create_task_group() as tg:
        for i in range(8):
            tg.start_soon(one, i)
    await fetcher.aclose()
    assert results == {i: b"%d" % i for i in range(8)}


@pytest.mark.anyio
async def test_async_deadline_cancels_a_hung_read(server: HTTPServer, clock: FakeClock) -> None:
    """F8: on the event loop the deadline cancels a read that would otherwise wait forever."""
    fetcher = AsyncFetcher(policy=Policy(fetch_timeout=0.5))
    server.route("/robots.txt", delayed(3600, respond(200)))  # an answer after an hour
    entry = await fetcher.fetch(server.url(), None, clock)
    await fetcher.aclose()
    assert (entry.outcome, entry.status, entry.why.code, entry.why.failure) == ("error", 0, "network", "timeout")


# -- C1: freshness ----------------------------------------------------------------------------
def test_fresh_cached_entry_is_returned_without_a_request(fetch: Run, server: HTTPServer, clock: FakeClock) -> None:
    """C1: within its lifetime the cached entry is the answer; the server is not asked again."""
    url = server.route("/robots.txt", respond(200, ROBOTS))
    first = fetch(url)
    clock.advance(DAY - 1)
    assert fetch(url, first) is first
    assert server.hits() == 1


def test_expired_cached_entry_is_fetched_again(fetch: Run, server: HTTPServer, clock: FakeClock) -> None:
    """C1: after 24 hours the robots.txt is fetched again and the new body replaces the old."""
    url = server.route("/robots.txt", respond(200, ROBOTS))
    first = fetch(url)
    server.route("/robots.txt", respond(200, NEWER))
    clock.advance(DAY)
    second = fetch(url, first)
    assert (second.body, second.good_at, second.expires_at) == (NEWER, NOW + DAY, NOW + 2 * DAY)
    assert server.hits() == 2


def test_force_refetches_a_fresh_entry(fetch: Run, server: HTTPServer) -> None:
    """C1: force=True refreshes even a fresh entry."""
    url = server.route("/robots.txt", respond(200, ROBOTS))
    first = fetch(url)
    server.route("/robots.txt", respond(200, NEWER))
    assert fetch(url, first, force=True).body == NEWER
    assert server.hits() == 2


# -- C2: a failed refresh keeps the good copy -------------------------------------------------
@pytest.mark.parametrize("failure", ["500", "503", "reset"])
def test_failed_refresh_keeps_the_good_copy_until_a_good_answer_replaces_it(
    fetch: Run, server: HTTPServer, clock: FakeClock, failure: str
) -> None:
    """C2, F5: a 5xx or a network failure on refresh keeps the cached rules deciding; the next 200 replaces them."""
    url = server.route("/robots.txt", respond(200, ROBOTS))
    good = fetch(url)
    assert good.outcome == "rules"

    clock.advance(3600)
    server.route("/robots.txt", {"500": respond(500), "503": respond(503), "reset": reset()}[failure])
    failed = fetch(url, good, force=True)
    assert failed.outcome == "error"
    assert failed.status == (0 if failure == "reset" else int(failure))
    assert (failed.body, failed.good_status, failed.good_at) == (ROBOTS, 200, NOW)
    assert (failed.failures, failed.failing_since, failed.fetched_at) == (1, NOW + 3600, NOW + 3600)
    assert failed.final_url == good.final_url
    now_standing = standing(failed, clock.now, TEST_POLICY)
    assert (now_standing.kind, now_standing.body, now_standing.age) == ("rules", ROBOTS, 3600)
    assert now_standing.why.decides == "good-copy"
    # Long after: still the good copy, not the F6 full allow (that is only for "no cached copy").
    assert standing(failed, clock.now + 60 * DAY, TEST_POLICY).kind == "rules"

    clock.advance(failed.expires_at - clock.now)
    server.route("/robots.txt", respond(200, NEWER))
    fixed = fetch(url, failed)
    assert (fixed.outcome, fixed.status, fixed.body) == ("rules", 200, NEWER)
    assert (fixed.failures, fixed.failing_since, fixed.good_at) == (0, None, clock.now)


def test_failed_refresh_keeps_a_cached_404_as_full_allow(fetch: Run, server: HTTPServer, clock: FakeClock) -> None:
    """C2, F4: a cached "no robots.txt" is a good copy too: a later 500 does not turn it into full disallow."""
    url = server.route("/robots.txt", respond(404))
    good = fetch(url)
    server.route("/robots.txt", respond(500))
    failed = fetch(url, good, force=True)
    assert (failed.outcome, failed.good_status, failed.failures) == ("error", 404, 1)
    assert standing(failed, clock.now, TEST_POLICY).kind == "allow"


def test_404_after_rules_replaces_them(fetch: Run, server: HTTPServer) -> None:
    """C2, F4: only failures keep the old copy; a 404 is an answer and replaces the rules with full allow."""
    url = server.route("/robots.txt", respond(200, ROBOTS))
    good = fetch(url)
    server.route("/robots.txt", respond(404))
    gone = fetch(url, good, force=True)
    assert (gone.outcome, gone.body, gone.good_status) == ("allow", b"", 404)
    assert standing(gone, NOW, TEST_POLICY).kind == "allow"
