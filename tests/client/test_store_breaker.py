"""A sick store costs a check a bounded time, and a store that keeps failing is left alone for a while.

Issue #8 item 5: all store calls of one check share ``store_deadline`` seconds; once spent, the
check's other store calls are skipped and it goes on as without a store. After
``store_failures`` consecutive failed calls a circuit breaker opens: no store calls for
``store_cooldown`` seconds, then exactly one probe; a probe that succeeds closes it. The store
here is a real MemoryStore behind a wrapper that fails or "stalls" by moving the injected clock
(so nothing sleeps, and fail-fast is pinned by counting calls); the robots.txt files come from a
real server on 127.0.0.1 under many host names. The verdicts stay right throughout: the client
fetches without the store.
"""

from __future__ import annotations

import logging

import pytest

from tests.client._stores import Scripted, hosts_served
from tests.servers.http import respond

RULES = b"user-agent: *\ndisallow: /private\n"


@pytest.fixture
def site(server):
    server.route("/robots.txt", respond(200, RULES))
    return server


def check_host(client, n):
    """An uncached check (a host not seen before); the verdicts of /private and /public must be right."""
    result = client.check(f"http://h{n}.test/private/x", "bot")
    assert (result.allowed, result.line) == (False, 2)
    assert client.allowed(f"http://h{n}.test/public", "bot")
    return result


def test_after_three_store_failures_checks_make_no_store_calls_until_the_cool_down_then_one_probe(site, make_client, clock, caplog):
    """Issue #8 item 5: the breaker opens after 3 consecutive StoreErrors; N uncached checks then make
    zero store calls; after the 30 s cool-down exactly one probe; a successful probe closes it."""
    store = Scripted(clock=clock)
    store.fail = {"get", "put", "delete", "acquire", "release"}
    client = make_client(store, http_client=make_client.loopback(site.port))
    assert client.store_state == "ok"
    with caplog.at_level(logging.INFO, logger="robotrules"):
        first = check_host(client, 0)  # get, acquire, put: three failures in one check
        assert store.total == 3 and client.store_state == "down" and first.state.store == "down"
        for n in range(1, 11):
            assert check_host(client, n).state.store == "down"
        assert store.total == 3  # ten uncached checks: not one store call

        clock.advance(29.9)
        check_host(client, 11)
        assert store.total == 3 and client.store_state == "down"
        clock.advance(0.1)  # the cool-down is over: the next call is a probe
        assert client.store_state == "probing"
        check_host(client, 12)
        assert store.total == 4 and client.store_state == "down"  # one probe (a get), failed: another cool-down
        check_host(client, 13)
        assert store.total == 4

        store.fail.clear()  # the store is back
        clock.advance(30)
        result = check_host(client, 14)  # the probe succeeds, and the rest of the check uses the store
        assert client.store_state == "ok" and result.state.store == "ok"
        # so far: get, acquire, put (failed); a get (failed probe); now the probe (a get) and the
        # check's own calls: acquire, a second read under the lock, put, release
        assert (store.calls["get"], store.calls["acquire"], store.calls["put"], store.calls["release"]) == (4, 2, 2, 1)
    opened = [r for r in caplog.records if r.levelno == logging.WARNING and "bypassed" in r.getMessage()]
    closed = [r for r in caplog.records if r.levelno == logging.INFO and "answers again" in r.getMessage()]
    assert len(opened) == 1 and len(closed) == 1
    assert set(hosts_served(site).values()) == {1} and len(hosts_served(site)) == 15  # every host fetched once


def test_a_store_call_that_stalls_past_the_deadline_ends_the_checks_store_calls(site, make_client, clock):
    """Issue #8 item 5: a get that takes longer than store_deadline (1 s) leaves the rest of the check
    without the store; three such checks open the breaker, and the fourth makes no store call."""
    store = Scripted(clock=clock)
    store.stall = 1.5  # every call "takes" 1.5 s of the client's clock
    client = make_client(store, http_client=make_client.loopback(site.port))
    assert client.store_deadline == 1.0
    for n in range(3):
        before = store.total
        check_host(client, n)
        assert store.total - before == 1  # the get only: acquire, put and release skipped
    assert client.store_state == "down"
    check_host(client, 3)
    assert store.total == 3
    assert set(hosts_served(site).values()) == {1}


def test_store_calls_share_one_deadline_per_check(site, make_client, clock):
    """Issue #8 item 5: the deadline is for all store calls of a check together: calls of 0.6 s each
    leave time for two (get, acquire), then the check goes on without the store (no put)."""
    store = Scripted(clock=clock)
    store.stall = 0.6
    client = make_client(store, http_client=make_client.loopback(site.port))
    check_host(client, 0)
    assert (store.calls["get"], store.calls["acquire"], store.calls["put"]) == (1, 1, 0)
    assert client.store_state == "ok"  # calls shorter than the deadline are no failures, even when together they spend it
    store.stall = 0.0
    check_host(client, 1)
    assert (store.calls["get"], store.calls["acquire"], store.calls["put"], store.calls["release"]) == (3, 2, 1, 1)


def test_a_longer_deadline_and_threshold_are_settings(site, make_client, clock):
    """Issue #8 item 5: store_deadline, store_failures and store_cooldown are constructor settings."""
    store = Scripted(clock=clock)
    store.fail = {"get", "acquire", "put"}
    client = make_client(store, http_client=make_client.loopback(site.port),
                         store_deadline=5.0, store_failures=6, store_cooldown=120.0)
    assert (client.store_deadline, client.store_failures, client.store_cooldown) == (5.0, 6, 120.0)
    check_host(client, 0)
    assert client.store_state == "ok"  # 3 failures < 6
    check_host(client, 1)
    assert client.store_state == "down" and store.total == 6
    clock.advance(119)
    check_host(client, 2)
    assert store.total == 6
    clock.advance(1)
    check_host(client, 3)
    assert store.total == 7


def test_a_failed_refresh_by_the_breaker_still_keeps_the_good_copy(site, make_client, clock):
    """C2 with the breaker open: the in-process good copy decides a 5xx refresh made without the store."""
    store = Scripted(clock=clock)
    client = make_client(store, http_client=make_client.loopback(site.port))
    check_host(client, 0)
    store.fail = {"get", "put", "delete", "acquire", "release"}
    site.route("/robots.txt", respond(503))
    clock.advance(86_400)
    result = check_host(client, 0)  # fails three times: the breaker opens; the good copy still decides
    assert (result.state.kind, result.state.failures, result.state.store) == ("rules", 1, "down")
