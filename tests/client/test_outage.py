"""A simulated 40-day outage through the client, the clock moved by hand (F5, F6, C2).

The server on 127.0.0.1 is real; only time is simulated. The client is asked every hour of
the outage, as a busy crawler would; it refetches whenever its back-off says so.
"""

from __future__ import annotations

from tests.client.conftest import DAY, T0
from tests.servers.http import respond

OLD = b"user-agent: *\ndisallow: /old\n"
NEW = b"user-agent: *\ndisallow: /new\n"


def hourly(client, clock, url, days):
    """(day, allowed, kind) for each hour of ``days`` days from now."""
    seen = []
    for _ in range(int(days * 24)):
        clock.advance(3600)
        result = client.check(url, "bot")
        seen.append(((clock.now - T0) / DAY, result.allowed, result.state.kind))
    return seen


def test_without_a_cached_copy_40_days_down_is_disallow_until_day_30_then_allow(server, make_client, clock):
    """F5, F6: nothing cached: full disallow while unreachable, full allow after 30 days."""
    server.route("/robots.txt", respond(503))
    client = make_client()
    url = f"http://127.0.0.1:{server.port}/page"
    assert not client.allowed(url, "bot")  # day 0: the outage starts at the first fetch
    seen = hourly(client, clock, url, 40)
    assert all(not allowed and kind == "disallow" for day, allowed, kind in seen if day <= 30)
    assert all(allowed and kind == "allow" for day, allowed, kind in seen if day > 30)
    assert server.hits("/robots.txt") > 40 * 24 // 2  # retried all along (503: at most hourly)
    server.route("/robots.txt", respond(200, NEW))
    clock.advance(3600)
    result = client.check(f"http://127.0.0.1:{server.port}/new", "bot")
    assert (result.allowed, result.state.kind, result.state.failures) == (False, "rules", 0)


def test_with_a_cached_copy_it_decides_for_40_days_and_the_first_success_replaces_it(server, make_client, clock):
    """C2, F6: the last good copy decides throughout the outage; the first good refresh replaces it."""
    server.route("/robots.txt", respond(200, OLD))
    client = make_client()
    old_url, new_url = f"http://127.0.0.1:{server.port}/old", f"http://127.0.0.1:{server.port}/new"
    assert not client.allowed(old_url, "bot")
    server.route("/robots.txt", respond(500))
    clock.advance(DAY)  # the copy expires; every refresh from now on fails
    fetches_before = server.hits("/robots.txt")
    seen = hourly(client, clock, old_url, 40)
    assert all(not allowed and kind == "rules" for _, allowed, kind in seen)
    assert client.allowed(new_url, "bot")
    state = client.robots(old_url)
    assert state.failures > 40 and state.status == 200 and state.age > 40 * DAY
    assert server.hits("/robots.txt") - fetches_before > 40  # it kept trying
    server.route("/robots.txt", respond(200, NEW))
    clock.advance(3600)
    assert client.allowed(old_url, "bot") and not client.allowed(new_url, "bot")
    state = client.robots(old_url)
    assert (state.failures, state.age, state.reason) == (0, 0.0, "200: rules from the body")
