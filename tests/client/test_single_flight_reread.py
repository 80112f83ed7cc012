"""Single flight across processes is exact: the holder of the store lock reads the store again (C3).

Issue #8 item 7: a process that misses the store, then takes the lock after another process
finished its fetch (between this one's read and its lock), must use that copy, not fetch again.
The interleaving is made deterministic with a store wrapper that writes a fresh entry, as the
other process would, just before the client's ``acquire``; then a fleet of real processes on
SQLite and on Redis checks the same hosts at zero latency and each host is fetched once.
"""

from __future__ import annotations

import multiprocessing
import time
import uuid

import pytest

from robotrules import MemoryStore
from tests.client._stores import Scripted, fetched_entry, hosts_served
from tests.client._workers import check_hosts
from tests.client.conftest import DAY, POLICY
from tests.servers.http import respond

RULES = b"user-agent: *\ndisallow: /private\n"
OTHERS = b"user-agent: *\ndisallow: /others\n"  # what the other process fetched


def another_process_fetches(store, clock, body=OTHERS, at=None):
    """A hook for the wrapped store: write the entry another process's fetch just ended with."""

    def hook(key, *_):
        store.inner.put(fetched_entry(key, body, clock.now if at is None else at, POLICY))

    return hook


def test_a_copy_written_between_the_store_read_and_the_lock_is_used_without_fetching(server, make_client, clock):
    """C3, issue #8 item 7: the read after taking the lock finds the other process's fresh copy: zero requests."""
    server.route("/robots.txt", respond(200, RULES))
    store = Scripted(MemoryStore(), clock=clock)
    store.before["acquire"] = another_process_fetches(store, clock)
    client = make_client(store)
    result = client.check(f"http://127.0.0.1:{server.port}/others/x", "bot")
    assert server.hits("/robots.txt") == 0
    assert (result.allowed, result.line, result.state.cache) == (False, 2, "shared")
    assert client.allowed(f"http://127.0.0.1:{server.port}/private", "bot")  # the other process's rules decide
    assert store.calls["get"] == 2 and store.calls["acquire"] == 1 and store.calls["put"] == 0
    assert store.calls["release"] == 1  # the lock taken is given back


def test_an_expired_entry_before_the_lock_is_refetched_and_a_refresh_of_a_fresh_one_is_shared(server, make_client, clock):
    """C1, C3: the second read shares only a newer attempt the policy finds fresh; an expired one is refetched.
    A forced refresh shares a fetch that another process finished after it started."""
    server.route("/robots.txt", respond(200, RULES))
    store = Scripted(MemoryStore(), clock=clock)
    store.before["acquire"] = another_process_fetches(store, clock, at=clock.now - 2 * DAY)  # already expired
    client = make_client(store)
    url = f"http://127.0.0.1:{server.port}/private/x"
    result = client.check(url, "bot")
    assert (result.allowed, result.state.cache, server.hits("/robots.txt")) == (False, "miss", 1)

    clock.advance(60)
    store.before["acquire"] = another_process_fetches(store, clock)  # fresh, newer than what this one saw
    state = client.refresh(url)
    assert (state.cache, server.hits("/robots.txt")) == ("shared", 1)
    assert not client.allowed(f"http://127.0.0.1:{server.port}/others", "bot")


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_four_processes_checking_the_same_hosts_at_zero_latency_fetch_each_host_once(server, tmp_path, kind, request):
    """C3, issue #8 item 7: 4 crawler processes x 500 hosts, each in its own order, on one store: 500 fetches."""
    server.route("/robots.txt", respond(200, RULES))
    hosts = 500
    if kind == "sqlite":
        spec = ("sqlite", str(tmp_path / "fleet.sqlite3"), "")
    else:
        redis_url = request.getfixturevalue("redis_url")
        spec = ("redis", redis_url, f"robotrules-test:{uuid.uuid4().hex}:")
    start = time.time() + 2.0  # the processes import robotrules first, then start together
    ctx = multiprocessing.get_context("spawn")
    try:
        with ctx.Pool(4) as pool:
            runs = [pool.apply_async(check_hosts, (spec, server.port, hosts, start, seed)) for seed in range(4)]
            misses = [run.get(timeout=120) for run in runs]
    finally:
        if kind == "redis":
            import redis

            raw = redis.Redis.from_url(spec[1])
            for key in raw.scan_iter(match=spec[2] + "*"):
                raw.delete(key)
            raw.close()
    served = hosts_served(server)
    assert len(served) == hosts and set(served.values()) == {1}, sorted(served.items(), key=lambda kv: -kv[1])[:5]
    assert sum(misses) == hosts


def test_waiting_for_a_lock_that_is_never_released_ends_with_the_checks_store_deadline(server, make_client, clock):
    """Issue #8 item 5: the waits for another process's fetch count against the check's store
    deadline. A lock whose holder died (or could not release it while the store stalled) costs a
    check about ``store_deadline``, not the lock's whole lifetime: the check then fetches itself,
    and the verdict is right (counted in store calls, not timed)."""
    server.route("/robots.txt", respond(200, RULES))
    inner = MemoryStore()
    url = f"http://127.0.0.1:{server.port}/private/x"
    assert inner.acquire(f"http://127.0.0.1:{server.port}/robots.txt", 3600.0)  # a dead process's lock
    store = Scripted(inner, clock=clock)
    client = make_client(store, store_deadline=0.2)
    assert client.allowed(url, "bot") is False
    assert server.hits("/robots.txt") == 1
    assert store.calls["acquire"] <= 6  # polls of 0.02, 0.04, 0.08, 0.16 s: then the deadline is spent
