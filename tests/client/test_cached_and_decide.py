"""``cached()``, ``decide()`` and large bodies: what the service builds on (issue #16-H1).

``cached(url)`` answers from this process's copy without any store access or fetch (None when it
has none that holds now); ``decide(state, url, agent)`` answers a URL under a state as ``check``
does. A fetched body over 64 KiB is parsed off the event loop by the async client, with the
same verdicts.
"""

from __future__ import annotations

from typing import Any

from robotrules import MemoryStore, parse
from tests.servers.clock import FakeClock
from tests.servers.http import HTTPServer, respond

from .conftest import DAY

ROBOTS = b"User-agent: *\nDisallow: /private\n\nUser-agent: FooBot\nAllow: /private/foo\n"


def test_cached_answers_only_what_this_process_holds_fresh(server: HTTPServer, make_client: Any,
                                                           clock: FakeClock) -> None:
    """C1: nothing before the first load, the state (a hit) after it, nothing once it expired;
    never a fetch."""
    server.route("/robots.txt", respond(200, ROBOTS))
    client = make_client(MemoryStore())
    assert client.cached(server.url("/private/x")) is None
    assert server.hits() == 0
    client.robots(server.url("/"))
    state = client.cached(server.url("/private/x"))
    assert state is not None and state.cache == "hit" and state.kind == "rules"
    clock.advance(DAY + 1)
    assert client.cached(server.url("/private/x")) is None
    assert server.hits() == 1


def test_decide_answers_as_check_does(server: HTTPServer, make_client: Any) -> None:
    """G2, G3, R6: ``decide`` under a state gives ``check``'s verdict, line and token, for a token,
    a versioned name or a whole header."""
    server.route("/robots.txt", respond(200, ROBOTS))
    client = make_client(MemoryStore())
    state = client.robots(server.url("/"))
    for url in (server.url("/private/x"), server.url("/private/foo/1"), server.url("/open")):
        for agent in ("FooBot", "FooBot/1.2", "Mozilla/5.0 (compatible; FooBot/2.1)", "Other", None):
            got, want = client.decide(state, url, agent), client.check(url, agent)
            assert (got.allowed, got.line, got.agent) == (want.allowed, want.line, want.agent), (url, agent)


def test_a_large_body_gives_the_verdicts_of_parse(server: HTTPServer, make_client: Any) -> None:
    """F9, R1-R6: a robots.txt over 64 KiB (parsed in a worker thread by the async client) decides
    exactly as :func:`robotrules.parse` does, and a refresh with the same body keeps the verdicts."""
    body = ROBOTS + b"".join(b"Disallow: /dir%d/*.php$\n" % n for n in range(6000))
    assert len(body) > 64 * 1024
    server.route("/robots.txt", respond(200, body))
    client = make_client(MemoryStore())
    robots = parse(body)
    urls = [server.url(path) for path in ("/private/x", "/dir17/a.php", "/dir17/a.php?x", "/dir5999/b/c.php")]
    for url in urls:
        assert client.allowed(url, "Googlebot") == robots.allowed(url, "Googlebot")
    client.refresh(server.url("/"))
    assert [client.allowed(url, "Googlebot") for url in urls] == [robots.allowed(url, "Googlebot") for url in urls]
    assert server.hits("/robots.txt") == 2
