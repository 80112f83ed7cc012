"""A good copy held in process memory is a good copy: a store that fails or forgets cannot erase it (C2, F6).

Issue #8 item 3: when the store read fails (or the key is gone) while the site answers 5xx, the
refresh must start from the in-process entry, so the error entry the policy makes carries the
good copy (C2), and that is what the store receives. Otherwise every process sharing the store
sees full disallow, and 30 days later full allow (F6), including the paths the good copy
disallowed. A real server on 127.0.0.1 answers 200 and then 503; the store is a real
MemoryStore behind a wrapper that fails ``get`` or forgets the key when read.
"""

from __future__ import annotations

import pytest

from robotrules import MemoryStore
from tests.client._stores import Scripted
from tests.client.conftest import DAY
from tests.servers.http import respond

RULES = b"user-agent: *\ndisallow: /private\n"


def sick(store: Scripted, how: str) -> None:
    if how == "get fails":
        store.fail.add("get")
    else:
        store.forget = True


@pytest.mark.parametrize("how", ["get fails", "key forgotten"])
def test_a_failing_store_read_during_a_5xx_keeps_the_in_process_good_copy_here_and_in_the_store(server, make_client, clock, how):
    """C2, F5: after a good 200, a 503 refresh with an unreadable store still decides by the good copy,
    in this process and in another client sharing the store; a disallowed path stays disallowed."""
    server.route("/robots.txt", respond(200, RULES))
    shared = MemoryStore()
    store = Scripted(shared, clock=clock)
    one = make_client(store)
    base = f"http://127.0.0.1:{server.port}"
    assert not one.allowed(base + "/private/x", "bot") and one.allowed(base + "/public", "bot")

    server.route("/robots.txt", respond(503))
    sick(store, how)
    clock.advance(DAY)  # the copy is due: the refresh meets the 503 and a store that cannot say what it held
    result = one.check(base + "/private/x", "bot")
    assert server.hits("/robots.txt") == 2
    assert (result.allowed, result.line, result.state.kind, result.state.status) == (False, 2, "rules", 200)
    assert result.state.failures == 1 and result.state.why.decides == "good-copy"
    assert one.allowed(base + "/public", "bot")

    other = make_client(shared)  # another process on the same store: it sees the good copy, not a full disallow
    seen = other.check(base + "/private/x", "bot")
    assert (seen.allowed, seen.state.kind, seen.state.cache, seen.state.failures) == (False, "rules", "hit", 1)
    assert other.allowed(base + "/public", "bot")
    assert server.hits("/robots.txt") == 2


@pytest.mark.parametrize("how", ["get fails", "key forgotten"])
def test_31_days_of_5xx_with_an_unreadable_store_still_decide_by_the_good_copy(server, make_client, clock, how):
    """F6, C2: the good copy keeps deciding past 30 days of failure: never full allow for a path it disallows."""
    server.route("/robots.txt", respond(200, RULES))
    shared = MemoryStore()
    store = Scripted(shared, clock=clock)
    client = make_client(store)
    base = f"http://127.0.0.1:{server.port}"
    assert not client.allowed(base + "/private/x", "bot")

    server.route("/robots.txt", respond(503))
    sick(store, how)
    for _ in range(31 * 4):  # every 6 hours for 31 days
        clock.advance(DAY / 4)
        result = client.check(base + "/private/x", "bot")
        assert (result.allowed, result.state.kind) == (False, "rules")
        assert client.allowed(base + "/public", "bot")
    state = client.robots(base + "/")
    assert state.failures > 31 and state.age >= 31 * DAY and state.status == 200
    assert server.hits("/robots.txt") > 31

    other = make_client(shared)
    late = other.check(base + "/private/x", "bot")
    assert (late.allowed, late.state.kind, late.state.status) == (False, "rules", 200)
    assert other.allowed(base + "/public", "bot")
