"""The httpx transports that obey robots.txt (issue #10, part 3), against a real server on 127.0.0.1.

Every test talks to :class:`tests.servers.http.HTTPServer` on loopback and counts what reached
it, so "refused" means the page was never requested. Fetches are bounded by
``Policy(fetch_timeout=5)`` and httpx timeouts of 5 s.
"""

from __future__ import annotations

import os
import pickle
import re
import subprocess
import sys
import uuid
from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio
import httpx
import pytest

from robotrules import BlockedAddress, MemoryStore, Policy, RedisStore, RobotsClient, SQLiteStore
from robotrules.compat.httpx import AsyncRobotsTransport, RobotsDisallowedError, RobotsTransport, _question
from robotrules.errors import RobotsDisallowed, RobotsError
from robotrules.fetch import DEFAULT_USER_AGENT
from tests.cache.conftest import redis_url  # noqa: F401  (the fixture, shared)
from tests.compat._guard_site import POLICY, RULES, SRC, TIMEOUT, echo
from tests.servers.http import HTTPServer, free_port, redirect, respond

T = TypeVar("T")



class Recording(httpx.BaseTransport):
    """httpx's own transport (it really sends), recording the requests it is handed and its closing."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.requests: list[httpx.Request] = []
        self.closed = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return self.inner.handle_request(request)

    def close(self) -> None:
        self.closed = True
        self.inner.close()


class AsyncRecording(httpx.AsyncBaseTransport):
    """As :class:`Recording`, for the async transport."""

    def __init__(self) -> None:
        self.inner = httpx.AsyncHTTPTransport()
        self.requests: list[httpx.Request] = []
        self.closed = False

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        self.closed = True
        await self.inner.aclose()




def guarded(transport: httpx.BaseTransport | None = None, headers: dict[str, str] | None = None,
            **kwargs: object) -> httpx.Client:
    """An ``httpx.Client`` whose transport is a :class:`RobotsTransport` (policy POLICY unless given a client)."""
    if "client" not in kwargs:
        kwargs.setdefault("policy", POLICY)
    return httpx.Client(transport=RobotsTransport(transport, **kwargs), headers=headers, timeout=TIMEOUT)  # type: ignore[arg-type]


def refused(client: httpx.Client, url: str) -> RobotsDisallowedError:
    with pytest.raises(RobotsDisallowedError) as info:
        client.get(url)
    return info.value


# -- allowed requests pass, untouched --------------------------------------------------------------

def test_an_allowed_request_reaches_the_inner_transport_as_the_same_object_and_its_response_is_untouched(server):
    """The guard adds nothing: the inner transport gets the caller's request object; status,
    headers and body come back as the server sent them."""
    server.route("/private/open/form", echo)
    inner = Recording()
    with guarded(inner, user_agent="FooBot/1.0") as client:
        request = client.build_request("POST", server.url("/private/open/form?q=1"), content=b"payload",
                                       headers={"X-Mine": "kept"})
        response = client.send(request)
    assert inner.requests[-1] is request
    assert response.status_code == 200
    assert response.headers["x-page"] == "yes"
    assert response.content == b"echo: payload"
    sent = server.requests[-1]
    assert (sent.method, sent.target, sent.headers["x-mine"]) == ("POST", "/private/open/form?q=1", "kept")


def test_a_url_no_rule_disallows_is_fetched(server):
    """R1: no matching rule, allowed; the page is requested once."""
    with guarded(user_agent="BarBot") as client:
        assert client.get(server.url("/public/page")).status_code == 200
    assert server.hits("/public/page") == 1


def test_the_longest_match_allow_beats_a_shorter_disallow(server):
    """R1: "Allow: /private/open" (longer) wins over "Disallow: /private"."""
    with guarded(user_agent="BarBot") as client:
        assert client.get(server.url("/private/open/x")).status_code == 200


# -- disallowed requests raise, and are never sent -------------------------------------------------

def test_a_disallowed_request_raises_naming_the_robots_url_and_the_deciding_line_and_is_never_sent(server):
    """The error says which robots.txt and which line as written; the page is never requested."""
    with guarded(user_agent="BarBot/2.0") as client:
        exc = refused(client, server.url("/private/x"))
    robots = server.url("/robots.txt")
    assert str(exc) == f"robots.txt at {robots} disallows {server.url('/private/x')} for BarBot (line 4: 'Disallow: /private')"
    assert (exc.url, exc.robots_url, exc.agent, exc.token, exc.line, exc.text) == (
        server.url("/private/x"), robots, "BarBot/2.0", "BarBot", 4, "Disallow: /private")
    assert exc.reason == "200: rules from the body"
    assert server.hits("/private/x") == 0


def test_the_error_is_a_robotrules_error_and_an_httpx_request_error_carrying_the_request(server):
    """Existing ``except httpx.HTTPError`` clauses catch it; it is no transport error (not retried)."""
    with guarded(user_agent="BarBot") as client:
        request = client.build_request("GET", server.url("/private/x"))
        with pytest.raises(httpx.HTTPError) as info:
            client.send(request)
    exc = info.value
    assert isinstance(exc, RobotsDisallowed) and isinstance(exc, RobotsError)
    assert isinstance(exc, httpx.RequestError) and not isinstance(exc, httpx.TransportError)
    assert exc.request is request


def test_wildcard_and_end_anchor_rules_decide(server):
    """R3-R5: "Disallow: /*.pdf$" refuses /a/b.pdf but not /a/b.pdf?x=1 (the $ anchors the end)."""
    with guarded(user_agent="BarBot") as client:
        assert refused(client, server.url("/a/b.pdf")).line == 5
        assert client.get(server.url("/a/b.pdf?x=1")).status_code == 200
    assert server.hits("/a/b.pdf") == 1  # the query one only


def test_the_message_speaks_plainly_without_requirement_ids(server):
    """Messages people see cite no requirement ids."""
    with guarded(user_agent="BarBot") as client:
        message = str(refused(client, server.url("/private/x")))
    assert not re.search(r"\b[SFCPGRNAL][0-9]\b", message)


def test_the_error_survives_pickling_with_its_fields(server):
    """The error crosses process boundaries (multiprocessing, task queues) with what it says."""
    with guarded(user_agent="BarBot") as client:
        exc = refused(client, server.url("/private/x"))
    copy = pickle.loads(pickle.dumps(exc))
    assert type(copy) is RobotsDisallowedError and str(copy) == str(exc)
    assert (copy.url, copy.robots_url, copy.agent, copy.token, copy.line, copy.text, copy.reason) == (
        exc.url, exc.robots_url, exc.agent, exc.token, exc.line, exc.text, exc.reason)


def test_a_redirect_to_a_disallowed_page_is_refused_at_that_hop(server):
    """httpx sends each redirect hop through the transport: the hop to /private is refused, never sent."""
    server.route("/go", redirect(302, "/private/target"))
    with guarded(user_agent="BarBot") as client, pytest.raises(RobotsDisallowedError) as info:
        client.get(server.url("/go"), follow_redirects=True)
    assert info.value.url == server.url("/private/target")
    assert server.hits("/go") == 1 and server.hits("/private/target") == 0


# -- which agent ----------------------------------------------------------------------------------

@pytest.mark.parametrize("agent", ["FooBot", "FooBot/1.2", "Mozilla/5.0 (compatible; FooBot/2.1; +https://foo.example/bot)"])
def test_the_configured_agent_is_matched_on_its_product_token(server, agent):
    """G3, RFC 9309 2.2.1: a token, a versioned name and a whole header all select "User-agent: FooBot"."""
    with guarded(user_agent=agent) as client:
        exc = refused(client, server.url("/foo-only/x"))
        assert client.get(server.url("/private/x")).status_code == 200  # FooBot's group only (G2)
    assert (exc.token, exc.agent, exc.line, exc.text) == ("FooBot", agent, 8, "Disallow: /foo-only")


def test_without_a_configured_agent_each_requests_user_agent_header_is_matched(server):
    """No ``user_agent``: the request's User-Agent header decides, per request."""
    with guarded(headers={"User-Agent": "FooBot/3.0 (+https://foo.example/bot)"}) as client:
        assert refused(client, server.url("/foo-only/x")).agent == "FooBot/3.0 (+https://foo.example/bot)"
        assert client.get(server.url("/private/x")).status_code == 200
        with pytest.raises(RobotsDisallowedError) as info:  # a header of this request only
            client.get(server.url("/private/x"), headers={"User-Agent": "BarBot/1.0"})
    assert (info.value.token, info.value.agent) == ("BarBot", "BarBot/1.0")


def test_httpx_default_user_agent_is_matched_when_nothing_else_is_configured(server):
    """httpx always sends "python-httpx/<version>": its token, python-httpx, falls in the "*" group."""
    with guarded() as client:
        exc = refused(client, server.url("/private/x"))
    assert exc.token == "python-httpx" and exc.line == 4


def test_the_configured_agent_wins_over_the_request_header(server):
    """A configured ``user_agent`` is what robots.txt is matched for, whatever the header says."""
    with guarded(user_agent="BarBot", headers={"User-Agent": "FooBot/1.0"}) as client:
        assert refused(client, server.url("/private/x")).token == "BarBot"
        assert client.get(server.url("/foo-only/x")).status_code == 200
    assert server.requests[-1].headers["user-agent"] == "FooBot/1.0"  # the request itself is untouched


def test_robots_txt_requests_say_the_configured_user_agent_else_robotrules(server):
    """The robots.txt fetch identifies as the configured agent; without one, as robotrules."""
    with guarded(user_agent="FooBot/1.0 (+https://foo.example/bot)") as client:
        client.get(server.url("/page"))
    assert server.requests[0].path == "/robots.txt"
    assert server.requests[0].headers["user-agent"] == "FooBot/1.0 (+https://foo.example/bot)"
    with HTTPServer() as other:
        other.route("/robots.txt", respond(200, RULES))
        with guarded() as client:
            client.get(other.url("/page"))
        assert other.requests[0].headers["user-agent"] == DEFAULT_USER_AGENT


def test_a_blank_or_non_string_agent_is_a_clear_error():
    """Bad configuration fails at construction with a message, not at the first request."""
    with pytest.raises(ValueError, match="user_agent is blank"):
        RobotsTransport(user_agent="  ")
    with pytest.raises(TypeError, match="user_agent must be a str"):
        RobotsTransport(user_agent=b"FooBot")  # type: ignore[arg-type]


def test_a_client_and_a_store_or_policy_together_is_a_clear_error():
    """store= and policy= configure the robots client the transport makes; with client= they would be ignored."""
    with RobotsClient() as mine, pytest.raises(ValueError, match="either client= or store=/policy="):
        RobotsTransport(client=mine, store=MemoryStore())


# -- robots.txt states: 404, 5xx, unreachable, redirects ------------------------------------------

def test_a_404_robots_txt_allows_everything(server):
    """F4: no robots.txt, no restriction."""
    server.route("/robots.txt", respond(404))
    with guarded(user_agent="BarBot") as client:
        assert client.get(server.url("/private/x")).status_code == 200


def test_a_503_robots_txt_disallows_everything_and_the_message_says_why(server):
    """F5: a server error means full disallow, with no deciding line; the message says it could not be read."""
    server.route("/robots.txt", respond(503))
    with guarded(user_agent="BarBot") as client:
        exc = refused(client, server.url("/public/page"))
    assert exc.line == 0 and exc.text == ""
    assert str(exc) == (f"robots.txt at {server.url('/robots.txt')} disallows {server.url('/public/page')} for BarBot: "
                        "it could not be read, and until it can everything on the site is disallowed (503: server error)")
    assert server.hits("/public/page") == 0


def test_an_unreachable_robots_txt_disallows_everything():
    """F5, F8: a network failure (connection refused) is an answer, full disallow, not a crash."""
    url = f"http://127.0.0.1:{free_port()}/page"
    with guarded(user_agent="BarBot") as client:
        exc = refused(client, url)
    assert exc.line == 0 and "could not be read" in str(exc) and "connect" in exc.reason


def test_redirects_of_robots_txt_are_followed_and_the_final_file_decides(server):
    """F3: /robots.txt redirects three times; the file at the end decides, named by its robots.txt URL."""
    server.chain(301, 3, respond(200, b"User-agent: *\nDisallow: /moved\n"))
    with guarded(user_agent="BarBot") as client:
        exc = refused(client, server.url("/moved/x"))
        assert client.get(server.url("/private/x")).status_code == 200  # the old rules no longer apply
    assert (exc.robots_url, exc.line, exc.text) == (server.url("/robots.txt"), 2, "Disallow: /moved")
    assert server.hits("/hop/0") == 1


# -- the cache ------------------------------------------------------------------------------------

def test_robots_txt_is_fetched_once_for_many_requests(server):
    """C1: one fetch, then the cached copy answers every request of the site."""
    with guarded(user_agent="BarBot") as client:
        for n in range(20):
            client.get(server.url(f"/page/{n}"))
            with pytest.raises(RobotsDisallowedError):
                client.get(server.url(f"/private/{n}"))
    assert server.hits("/robots.txt") == 1
    assert server.hits() == 21


def test_two_transports_sharing_a_sqlite_store_fetch_robots_txt_once(server, tmp_path):
    """C3: a second client (another process alike) reads the copy the first one stored."""
    store = SQLiteStore(tmp_path / "robots.sqlite3")
    try:
        with guarded(user_agent="BarBot", store=store) as one:
            one.get(server.url("/page"))
        second = RobotsTransport(user_agent="BarBot", store=store, policy=POLICY)
        with httpx.Client(transport=second, timeout=TIMEOUT) as two:
            assert refused(two, server.url("/private/x")).line == 4
            assert second.robots.robots(server.url("/")).cache == "hit"
    finally:
        store.close()
    assert server.hits("/robots.txt") == 1


def test_two_transports_sharing_a_redis_store_fetch_robots_txt_once(server, redis_url):  # noqa: F811
    """C3: the fleet cache, on a real Redis server (skipped, saying why, when none is reachable)."""
    import redis

    store = RedisStore(redis_url, prefix=f"robotrules-test:{uuid.uuid4().hex}:")
    try:
        with guarded(user_agent="BarBot", store=store) as one:
            one.get(server.url("/page"))
        with guarded(user_agent="BarBot", store=store) as two:
            assert refused(two, server.url("/private/x")).line == 4
    finally:
        raw = redis.Redis.from_url(redis_url)
        for key in raw.scan_iter(match=store.prefix + "*"):
            raw.delete(key)
        raw.close()
        store.close()
    assert server.hits("/robots.txt") == 1


# -- what passes unchecked, and where robots.txt is fetched ---------------------------------------

def test_a_request_for_robots_txt_itself_passes_even_when_it_disallows_everything(server):
    """S3: robots.txt is always fetchable; the guard does not fetch it first on its own."""
    server.route("/robots.txt", respond(200, b"User-agent: *\nDisallow: /\n"))
    with guarded(user_agent="BarBot") as client:
        assert client.get(server.url("/robots.txt")).content == b"User-agent: *\nDisallow: /\n"
    assert server.hits("/robots.txt") == 1


@pytest.mark.parametrize(("url", "header", "configured", "expected"), [
    ("http://h.test/x", None, "FooBot", ("http://h.test/x", "FooBot")),
    ("HTTPS://h.test/x", "Bar/1.0", None, ("HTTPS://h.test/x", "Bar/1.0")),
    ("https://h.test/x", "  ", None, ("https://h.test/x", None)),  # a blank header: the robots client's agent
    ("https://h.test/x", None, None, ("https://h.test/x", None)),
    ("https://h.test/robots.txt", "Bar", None, None),  # S3: robots.txt itself
    ("HTTP://H.TEST/robots.txt", "Bar", None, None),
    ("https://h.test/robots.txt?x=1", "Bar", None, ("https://h.test/robots.txt?x=1", "Bar")),  # a page, not the file
    ("ftp://h.test/x", "Bar", None, None),  # schemes other than http(s): unchecked
    ("ws://h.test/x", "Bar", None, None),
    ("no-scheme", "Bar", None, None),
])
def test_which_requests_are_checked_and_for_which_agent(url, header, configured, expected):
    """The guards check http(s) requests other than robots.txt itself, for the configured agent, else the header."""
    assert _question(url, header, configured) == expected


def test_robots_txt_is_fetched_through_the_inner_transport_not_through_the_guard(server):
    """The robots.txt request goes to the inner transport (its proxy and TLS settings apply), once, with no recursion."""
    inner = Recording()
    with guarded(inner, user_agent="BarBot") as client:
        client.get(server.url("/page"))
    assert [r.url.path for r in inner.requests] == ["/robots.txt", "/page"]
    assert server.paths() == ["/robots.txt", "/page"]


def test_with_public_addresses_only_a_loopback_site_is_refused_before_any_request(server):
    """With the address policy on, robots.txt on 127.0.0.1 is not fetched (BlockedAddress), so nothing is sent."""
    strict = Policy(fetch_timeout=5.0, public_addresses_only=True)
    with guarded(user_agent="BarBot", policy=strict) as client, pytest.raises(BlockedAddress, match="not a public address"):
        client.get(server.url("/page"))
    assert server.hits() == 0


def test_a_robots_client_passed_in_is_used_and_not_closed(server):
    """``client=``: its agent is the default, its cache is used, and closing the transport leaves it open."""
    with RobotsClient(policy=POLICY, user_agent="FooBot/1.0") as mine:
        with guarded(client=mine) as client:
            client.get(server.url("/private/x"), headers={"User-Agent": ""})  # a blank header: the client's agent
            with pytest.raises(RobotsDisallowedError) as info:
                client.get(server.url("/foo-only/x"), headers={"User-Agent": ""})
        assert info.value.agent == "FooBot/1.0" and info.value.token == "FooBot"
        assert mine.check(server.url("/foo-only/x")).allowed is False
        assert mine.robots(server.url("/")).cache == "hit"
        with HTTPServer() as other:  # still fetching after the transport is closed
            other.route("/robots.txt", respond(200, b"User-agent: *\nDisallow: /\n"))
            assert mine.allowed(other.url("/x")) is False
            assert other.hits("/robots.txt") == 1


# -- closing --------------------------------------------------------------------------------------

def test_closing_closes_the_inner_transport_and_the_robots_client_the_transport_made(server):
    """``close()`` (via ``httpx.Client.close``) closes the inner transport and the transport's own robots client."""
    inner = Recording()
    transport = RobotsTransport(inner, user_agent="BarBot", policy=POLICY)
    with httpx.Client(transport=transport, timeout=TIMEOUT) as client:
        client.get(server.url("/page"))
    assert inner.closed
    with pytest.raises(RuntimeError, match="closed"):  # its HTTP client is closed: no more fetches
        transport.robots.check(server.url("/page", host="localhost"))


# -- async ----------------------------------------------------------------------------------------

def run(main: Callable[[], Awaitable[T]]) -> T:
    """Run ``main`` on a fresh asyncio event loop."""
    return anyio.run(main, backend="asyncio")


def test_async_transport_passes_allowed_requests_untouched_and_refuses_disallowed_ones(server):
    """AsyncRobotsTransport: the same request object reaches the inner transport; a disallowed one raises, unsent."""
    inner = AsyncRecording()

    async def main() -> tuple[httpx.Request, httpx.Response, RobotsDisallowedError]:
        transport = AsyncRobotsTransport(inner, user_agent="BarBot", policy=POLICY)
        async with httpx.AsyncClient(transport=transport, timeout=TIMEOUT) as client:
            request = client.build_request("GET", server.url("/page"))
            response = await client.send(request)
            with pytest.raises(RobotsDisallowedError) as info:
                await client.get(server.url("/private/x"))
        return request, response, info.value

    request, response, exc = run(main)
    assert inner.requests[-1] is request
    assert response.content == b"a page\n" and response.headers["x-page"] == "yes"
    assert (exc.line, exc.text, exc.token) == (4, "Disallow: /private", "BarBot")
    assert isinstance(exc, httpx.RequestError) and exc.request.url == server.url("/private/x")
    assert server.hits("/private/x") == 0
    assert inner.closed


def test_async_transport_fetches_robots_txt_once_for_many_concurrent_requests(server):
    """C1, single flight: 30 concurrent requests, one robots.txt fetch."""

    async def main() -> list[int]:
        codes: list[int] = []
        async with httpx.AsyncClient(transport=AsyncRobotsTransport(user_agent="BarBot", policy=POLICY),
                                     timeout=TIMEOUT) as client:

            async def one(n: int) -> None:
                codes.append((await client.get(server.url(f"/page/{n}"))).status_code)

            async with anyio.create_task_group() as tg:
                for n in range(30):
                    tg.start_soon(one, n)
        return codes

    assert run(main) == [200] * 30
    assert server.hits("/robots.txt") == 1


def test_async_transport_503_and_header_agent(server):
    """F5 full disallow on the async path too; without ``user_agent`` the header's token is matched."""
    server.route("/robots.txt", respond(503))

    async def main() -> RobotsDisallowedError:
        async with httpx.AsyncClient(transport=AsyncRobotsTransport(policy=POLICY), timeout=TIMEOUT,
                                     headers={"User-Agent": "FooBot/1.0"}) as client:
            with pytest.raises(RobotsDisallowedError) as info:
                await client.get(server.url("/page"))
        return info.value

    exc = run(main)
    assert exc.token == "FooBot" and exc.line == 0 and "503" in str(exc)


def test_async_transport_shares_a_store_with_a_sync_one(server, tmp_path):
    """C3: the async and the sync transports read one SQLite cache; robots.txt is fetched once."""
    store = SQLiteStore(tmp_path / "robots.sqlite3")

    async def main() -> int:
        async with httpx.AsyncClient(transport=AsyncRobotsTransport(user_agent="BarBot", store=store, policy=POLICY),
                                     timeout=TIMEOUT) as client:
            return (await client.get(server.url("/page"))).status_code

    try:
        assert run(main) == 200
        with guarded(user_agent="BarBot", store=store) as client:
            assert refused(client, server.url("/private/x")).line == 4
    finally:
        store.close()
    assert server.hits("/robots.txt") == 1


def test_async_transport_checks_its_arguments():
    """The same clear errors as the sync transport."""
    with pytest.raises(ValueError, match="user_agent is blank"):
        AsyncRobotsTransport(user_agent="")
    with pytest.raises(ValueError, match="either client= or store=/policy="):
        AsyncRobotsTransport(client=object(), policy=POLICY)  # type: ignore[arg-type]


# -- the optional dependency ----------------------------------------------------------------------

def test_without_httpx_the_module_names_the_extra_to_install():
    """DESIGN 12: importing robotrules.compat.httpx without httpx raises MissingExtra naming robotrules[http]."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); sys.modules['httpx'] = None\n"
        "from robotrules.errors import MissingExtra\n"
        "try:\n"
        "    import robotrules.compat.httpx\n"
        "except MissingExtra as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, SRC], check=False, capture_output=True, text=True, timeout=60,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "httpx is needed for this: pip install 'robotrules[http]'"
