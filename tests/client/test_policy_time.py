"""The client's cached standing changes exactly when the policy says (C1, C4, F5, F6).

The policy (:mod:`robotrules.core.policy`) decides every question of time; the client keeps the
numbers it is given. These tests move an injected clock to the policy's own boundaries (the
entry's ``expires_at``, the F6 flip, the instant after it) and check that the client's answer,
its cache state and the number of requests change there and nowhere else. No sleeping.
"""

from __future__ import annotations

import math

import pytest

from robotrules import MemoryStore, UnsupportedScheme
from robotrules.core.policy import age, flips_at, fresh, standing
from tests.client.conftest import DAY, POLICY, T0
from tests.servers.http import respond

RULES = b"user-agent: *\ndisallow: /private\n"


def before(t: float) -> float:
    return math.nextafter(t, -math.inf)


def test_the_cached_standing_flips_to_full_allow_exactly_at_the_policys_f6_moment(server, make_client, clock):
    """F6, F5: failing for exactly 30 days is still full disallow; the next instant is full allow, with no request."""
    server.route("/robots.txt", respond(503))
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/page"
    assert client.check(url, "bot").state.kind == "disallow"  # T0: the outage starts

    clock.now = T0 + 30 * DAY - 10  # the back-off has long expired: a retry, due after the flip
    state = client.check(url, "bot").state
    entry = state.entry
    assert (state.kind, state.cache, server.hits("/robots.txt")) == ("disallow", "miss", 2)
    flip = flips_at(entry, POLICY)
    until = standing(entry, clock.now, POLICY).until
    assert flip == T0 + 30 * DAY and flip < entry.expires_at and until == math.nextafter(flip, math.inf)

    clock.now = flip  # failing for exactly 30 days
    result = client.check(url, "bot")
    assert (result.allowed, result.state.kind, result.state.cache) == (False, "disallow", "hit")

    clock.now = until  # the first instant after 30 days: the policy says full allow, and so does the client
    result = client.check(url, "bot")
    expected = standing(entry, clock.now, POLICY)
    assert (result.allowed, result.state.kind, result.state.reason) == (True, "allow", expected.reason)
    assert result.state.cache == "hit" and server.hits("/robots.txt") == 2  # decided from the stored entry
    assert client.allowed(f"http://127.0.0.1:{server.port}/other", "bot")

    clock.now = before(entry.expires_at)
    assert client.allowed(url, "bot") and server.hits("/robots.txt") == 2
    clock.now = entry.expires_at  # the retry is due: fetched again, still failing, still full allow (F6)
    result = client.check(url, "bot")
    assert (result.allowed, result.state.cache, server.hits("/robots.txt")) == (True, "miss", 3)


def test_a_copy_is_used_until_the_instant_before_expires_at_and_refetched_at_it(server, make_client, clock):
    """C1, C4: the policy's freshness decides both the in-process copy and the stored one, at the same instant."""
    server.route("/robots.txt", respond(200, RULES, {"Cache-Control": "max-age=600"}))
    store = MemoryStore()
    first = make_client(store)
    url = f"http://127.0.0.1:{server.port}/private/x"
    entry = first.check(url, "bot").state.entry
    assert entry.expires_at == T0 + 600

    clock.now = before(entry.expires_at)
    assert fresh(entry, clock.now)
    assert first.check(url, "bot").state.cache == "hit"  # the in-process copy
    second = make_client(store)  # empty in-process cache: the stored entry is fresh, no request
    assert second.check(url, "bot").state.cache == "hit"
    assert server.hits("/robots.txt") == 1

    clock.now = entry.expires_at
    assert not fresh(entry, clock.now)
    assert second.check(url, "bot").state.cache == "miss"
    assert server.hits("/robots.txt") == 2
    state = first.check(url, "bot").state  # its copy is due too; the store holds the newer one, fresh
    assert (state.cache, state.entry.fetched_at, server.hits("/robots.txt")) == ("hit", entry.expires_at, 2)


def test_a_hit_reports_the_age_the_policy_gives_for_the_deciding_copy(server, make_client, clock):
    """C1, C2: the age of a cached answer is the policy's age(), also while a good copy outlives failures."""
    server.route("/robots.txt", respond(200, RULES))
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/private/x"
    client.allowed(url, "bot")
    clock.advance(1234.5)
    state = client.robots(url)
    assert (state.cache, state.age) == ("hit", age(state.entry, clock.now)) and state.age == 1234.5

    server.route("/robots.txt", respond(500))
    clock.now = T0 + DAY  # the refresh fails: the good copy decides (C2), its age keeps growing
    state = client.robots(url)
    assert (state.kind, state.cache, state.failures, state.age) == ("rules", "miss", 1, DAY)
    clock.advance(30)
    state = client.robots(url)
    assert (state.cache, state.age) == ("hit", age(state.entry, clock.now)) and state.age == DAY + 30


def test_refresh_stays_forced_while_the_copy_is_fresh(server, make_client, clock):
    """C1: refresh() fetches now even though the policy finds the copy fresh; later checks use the new copy."""
    server.route("/robots.txt", respond(200, RULES))
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/private/x"
    entry = client.check(url, "bot").state.entry
    clock.advance(60)
    assert fresh(entry, clock.now)
    refreshed = client.refresh(url)
    assert (refreshed.cache, refreshed.entry.fetched_at, server.hits("/robots.txt")) == ("miss", T0 + 60, 2)
    assert client.check(url, "bot").state.cache == "hit" and server.hits("/robots.txt") == 2


@pytest.mark.parametrize("url", ["ftps://127.0.0.1/x", "httpx://127.0.0.1/x", "https2://127.0.0.1/x", "ftpx://127.0.0.1/x"])
def test_schemes_that_merely_start_like_http_or_ftp_are_refused(make_client, url):
    """S5: only http, https and ftp themselves are fetched (the policy's FETCHABLE_SCHEMES), not look-alikes."""
    with pytest.raises(UnsupportedScheme, match="http, https and ftp"):
        make_client().allowed(url, "bot")
