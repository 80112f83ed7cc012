"""The service under hostile load (issue #16): what a stranger sends must not stall anyone else.

Each test pins one promise, against the real service on 127.0.0.1 (uvicorn with the service's
own configuration) and real sites that misbehave on purpose. No test measures speed: "fast"
is checked by order ("answered while the slow request is still pending") and by bounded waits
on events that would otherwise never happen (a connection the service must close).
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from ipaddress import IPv4Address, IPv6Address
from typing import Any

import httpx
import pytest
from anyio.from_thread import start_blocking_portal
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from robotrules import AsyncRobotsClient, MemoryStore, RobotsClient
from robotrules.core.policy import Entry, Policy
from robotrules.errors import BlockedAddress
from robotrules.fetch import AddressPolicy
from robotrules.service._edge import METHODS
from tests.servers.http import HTTPServer, hang, respond

from .conftest import ROBOTS, Start, error_of

REFUSED = [
    "http://10.0.0.1/page",
    "http://127.0.0.1:9/page",
    "http://[::1]/page",
    "http://2130706433/page",  # 127.0.0.1, as the URL standard reads a number
    "http://0x7f.1/page",  # the same, in hex and short form
    "http://[::ffff:10.1.2.3]/page",
    "http://169.254.169.254/latest/meta-data/",
    "https://192.168.1.1:8443/x",
]
"""Robots.txt hosts that are address literals the default policy refuses."""


class CountingStore(MemoryStore):
    """A memory store that counts every call made to it."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0

    def get(self, key: str) -> Entry | None:
        self.calls += 1
        return super().get(key)

    def put(self, entry: Entry) -> None:
        self.calls += 1
        super().put(entry)

    def acquire(self, key: str, ttl: float) -> str | None:
        self.calls += 1
        return super().acquire(key, ttl)


class CountingPolicy(AddressPolicy):
    """The default address policy, counting the name lookups it makes."""

    def __init__(self) -> None:
        self.lookups = 0

    def resolve(self, host: str, port: int) -> list[str]:
        self.lookups += 1
        return super().resolve(host, port)

    async def aresolve(self, host: str, port: int) -> list[str]:
        self.lookups += 1
        return await super().aresolve(host, port)


class SlowStore(MemoryStore):
    """A memory store whose every call takes ``delay`` seconds (a store on a sick disk or network)."""

    blocking = True  # its calls block: the async client runs them in worker threads, as for SQLite and Redis

    def __init__(self, delay: float) -> None:
        super().__init__()
        self.delay = delay

    def get(self, key: str) -> Entry | None:
        time.sleep(self.delay)
        return super().get(key)

    def put(self, entry: Entry) -> None:
        time.sleep(self.delay)
        super().put(entry)


def _metric(api: httpx.Client, name: str) -> float:
    """One sample of the service's /metrics page (0 when absent)."""
    for line in api.get("/metrics").text.splitlines():
        if line.startswith(name + " "):
            return float(line.rsplit(" ", 1)[1])
    return 0.0


def _until(condition: Callable[[], bool], within: float = 10.0) -> bool:
    """Poll ``condition`` until it holds (True) or ``within`` seconds pass (False)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


@contextmanager
def pending(call: Callable[[], httpx.Response]) -> Iterator[list[httpx.Response]]:
    """Run ``call`` in a thread for the block; its response lands in the yielded list."""
    box: list[httpx.Response] = []
    thread = threading.Thread(target=lambda: box.append(call()), daemon=True)
    thread.start()
    try:
        yield box
    finally:
        thread.join(30)


def _hanging_site(stack: ExitStack) -> HTTPServer:
    server = stack.enter_context(HTTPServer())
    server.route("/robots.txt", hang())
    return server


# -- #16-H1: refusals before any work ------------------------------------------------------------------

def test_a_refused_address_literal_is_refused_before_any_store_access_lookup_or_fetch(start: Start) -> None:
    """#16-H1: a robots.txt host the policy refuses as an address literal is a 403 at once: no store
    call, no name lookup; and it is never cached (asked again, it is refused again, not answered
    from a cached "outage")."""
    store, addresses = CountingStore(), CountingPolicy()
    api = start(allow_private=False, store=store, addresses=addresses)
    for url in REFUSED:
        message = error_of(api.get("/v1/check", params={"url": url}), 403, "blocked_address")
        assert "not a public address" in message
    urls = [f"http://127.{n // 65536}.{n // 256 % 256}.{n % 256}:8080/page" for n in range(1000)]
    error_of(api.post("/v1/check", json={"urls": urls, "agents": ["Googlebot"]}), 403, "blocked_address")
    error_of(api.get("/v1/robots", params={"url": REFUSED[0]}), 403, "blocked_address")
    error_of(api.post("/v1/diff", json={"old_url": REFUSED[1], "new": ""}), 403, "blocked_address")
    error_of(api.get("/v1/check", params={"url": REFUSED[0]}), 403, "blocked_address")
    assert (store.calls, len(store), addresses.lookups) == (0, 0, 0)


@pytest.mark.parametrize("url", REFUSED)
def test_the_clients_refuse_an_address_literal_before_their_store(url: str) -> None:
    """#16-H1: the library's clients screen literals too, before the store is read: nothing is stored."""
    policy = Policy(public_addresses_only=True)
    store = CountingStore()
    with RobotsClient(store, policy=policy) as client, pytest.raises(BlockedAddress):
        client.check(url)

    async def main() -> None:
        async with AsyncRobotsClient(store, policy=policy) as client:
            with pytest.raises(BlockedAddress):
                await client.robots(url)

    with start_blocking_portal() as portal:  # a loop of its own (the page tests may hold this thread's)
        portal.call(main)
    assert (store.calls, len(store)) == (0, 0)


def test_an_address_literal_the_policy_permits_is_not_screened_out() -> None:
    """#16-H1: screening follows the address policy: a literal it permits goes on to the fetch."""

    class Loopback(AddressPolicy):
        def refuses(self, address: IPv4Address | IPv6Address, port: int) -> str | None:
            return None if address.is_loopback else super().refuses(address, port)

    with HTTPServer() as site, RobotsClient(addresses=Loopback(), policy=Policy(public_addresses_only=True)) as client:
        site.route("/robots.txt", respond(200, b"User-agent: *\nDisallow: /private\n"))
        assert client.screen(site.url("/x")) == site.url("/robots.txt")
        assert not client.allowed(site.url("/private/x"), "FooBot")
        with pytest.raises(BlockedAddress):
            client.screen("http://10.0.0.1/x")


# -- #16-H1: deadlines and cancellation ---------------------------------------------------------------

def test_a_request_past_its_deadline_is_a_503_and_its_fetch_is_cancelled(start: Start) -> None:
    """#16-H1: a request gets ``deadline`` seconds; past it, it is answered 503 with Retry-After and
    its robots.txt fetch is given up (the site sees the connection close long before the fetch's own
    60 s timeout); nothing is cached, so the next request asks the site again."""
    with ExitStack() as stack:
        slow = _hanging_site(stack)
        api = start(deadline=1.0, fetch_timeout=60.0)
        response = api.get("/v1/check", params={"url": slow.url("/page")})
        error_of(response, 503, "deadline_exceeded")
        assert int(response.headers["retry-after"]) >= 1
        assert slow.exchanges[0].done.wait(15), "the fetch ran on after its request was answered"
        error_of(api.get("/v1/check", params={"url": slow.url("/page")}), 503, "deadline_exceeded")
        assert slow.hits("/robots.txt") == 2
        assert _metric(api, 'robotrules_refused_total{reason="deadline"}') == 2


def test_a_client_that_leaves_cancels_its_fetch(start: Start) -> None:
    """#16-H1: when the client disconnects, the work of its request is cancelled, not left running."""
    with ExitStack() as stack:
        slow = _hanging_site(stack)
        api = start(deadline=60.0, fetch_timeout=60.0)
        host, port = api.base_url.host, api.base_url.port
        with socket.create_connection((host, port), timeout=5) as sock:
            path = "/v1/check?url=" + slow.url("/page")
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            assert _until(lambda: slow.hits("/robots.txt") == 1)
        assert slow.exchanges[0].done.wait(15), "the fetch ran on for a client that had left"
        assert _until(lambda: _metric(api, 'robotrules_refused_total{reason="client_gone"}') == 1)


def hostile_draft(rules: int = 20_000) -> str:
    """A draft of many wildcard rules under 512,000 bytes: each check of it costs milliseconds."""
    lines = ["User-agent: *"]
    for n in range(rules):
        lines.append(f"Disallow: /*{n:x}*a*b*c$")
    return "\n".join(lines)[:500_000]


def test_draft_work_past_the_deadline_stops_before_the_answer(start: Start) -> None:
    """#16-M2, #16-H1: a /v1/test asking for minutes of checks is cut at the deadline; its thread
    stops checking (the work gauge is back to 0 when the 503 arrives), it does not run on."""
    api = start(deadline=1.0)
    body = {"robots": hostile_draft(), "urls": [f"/{'a' * 300}{n}" for n in range(1000)],
            "agents": [f"bot{n}" for n in range(10)]}
    response = api.post("/v1/test", json=body)
    error_of(response, 503, "deadline_exceeded")
    assert _metric(api, 'robotrules_in_flight{gate="work"}') == 0
    assert api.post("/v1/lint", json={"robots": "User-agent: *\nDisallow: /x\n"}).status_code == 200


# -- #16-H1, #16-M2: bounded work per request and per process -----------------------------------------------

def test_sites_checks_and_url_length_per_request_are_bounded(start: Start) -> None:
    """#16-H1, #16-M2: distinct sites (max_hosts), URL x agent checks (max_checks) and URL length
    (max_url_length) are documented limits: a request over one is a 422 naming it, before any fetch."""
    api = start(max_hosts=2, max_checks=6, max_url_length=100)
    sites = [f"http://127.0.0.{n}:9/x" for n in (2, 3, 4)]
    assert "at most 2" in error_of(api.post("/v1/check", json={"urls": sites}), 422, "too_many_hosts")
    assert "at most 6" in error_of(api.post("/v1/check", json={"urls": sites[:1] * 4, "agents": ["a", "b"]}), 422,
                                   "too_many_checks")
    error_of(api.post("/v1/test", json={"robots": "", "urls": ["/"] * 4, "agents": ["a", "b"]}), 422, "too_many_checks")
    long = "http://127.0.0.2:9/" + "a" * 100
    assert "at most 100" in error_of(api.get("/v1/check", params={"url": long}), 422, "url_too_long")
    error_of(api.post("/v1/test", json={"robots": "", "urls": ["/" + "a" * 100]}), 422, "url_too_long")


def test_a_full_fetch_queue_refuses_at_once_while_cached_checks_and_healthz_answer(start: Start, site: HTTPServer) -> None:
    """#16-H1: when every fetch slot is taken and the queue is full, a request that needs a fetch is
    refused at once (503 overloaded, Retry-After); a cached check and /healthz are answered meanwhile."""
    with ExitStack() as stack:
        slow, other = _hanging_site(stack), _hanging_site(stack)
        api = start(fetches=1, fetches_per_request=1, queue=0, deadline=3.0, fetch_timeout=60.0)
        assert api.get("/v1/check", params={"url": site.url("/private/x")}).status_code == 200
        waiting = stack.enter_context(httpx.Client(base_url=api.base_url, timeout=10.0))
        with pending(lambda: waiting.get("/v1/check", params={"url": slow.url("/x")})) as held:
            assert _until(lambda: slow.hits("/robots.txt") == 1)
            refused = api.get("/v1/check", params={"url": other.url("/x")})
            error_of(refused, 503, "overloaded")
            assert refused.headers["retry-after"] == "1"
            cached = api.get("/v1/check", params={"url": site.url("/private/x"), "agent": "Googlebot"})
            assert cached.status_code == 200 and cached.json()["results"][0]["robots"]["cache"] == "hit"
            assert api.get("/healthz").status_code == 200
            assert not held, "the slow request was answered before the others"
        error_of(held[0], 503, "deadline_exceeded")
        assert other.hits("/robots.txt") == 0
        assert _metric(api, 'robotrules_refused_total{reason="overloaded"}') == 1


def test_heavy_requests_queue_behind_few_work_slots_and_never_starve_healthz(start: Start) -> None:
    """#16-H1: heavy draft requests take one of ``work`` slots; past a full queue they are refused at
    once; /healthz is answered while they run (it takes no slot)."""
    api = start(work=1, queue=2, deadline=30.0)
    body = {"robots": hostile_draft(4_000), "urls": [f"/{'a' * 200}{n}" for n in range(500)],
            "agents": ["a", "b", "c", "d"]}
    statuses: list[int] = []
    lock = threading.Lock()

    def heavy() -> None:
        with httpx.Client(base_url=api.base_url, timeout=60.0) as client:
            status = client.post("/v1/test", json=body).status_code
        with lock:
            statuses.append(status)

    threads = [threading.Thread(target=heavy, daemon=True) for _ in range(8)]
    for thread in threads:
        thread.start()
    assert _until(lambda: _metric(api, 'robotrules_in_flight{gate="work"}') == 1)
    answered_meanwhile = 0
    while any(thread.is_alive() for thread in threads) and answered_meanwhile < 5:
        assert api.get("/healthz").status_code == 200
        answered_meanwhile += 1
    for thread in threads:
        thread.join(120)
    assert answered_meanwhile == 5, "healthz waited for the heavy requests"
    assert sorted(set(statuses)) == [200, 503] and statuses.count(200) >= 3, statuses


def test_a_slow_store_holds_up_neither_healthz_nor_cached_checks(start: Start, site: HTTPServer) -> None:
    """#16-H1: store calls run in the client's own worker threads, off the event loop: while loads
    wait on a store that takes 2 s a call, /healthz and checks answered from memory go on."""
    store = SlowStore(delay=0.0)
    api = start(store=store)
    assert api.get("/v1/check", params={"url": site.url("/x")}).status_code == 200
    store.delay = 2.0
    with ExitStack() as stack:
        others = [stack.enter_context(HTTPServer()) for _ in range(3)]
        for other in others:
            other.route("/robots.txt", respond(200, ROBOTS))
        calls = [lambda other=other: httpx.get(f"{api.base_url}/v1/check", params={"url": other.url("/x")},
                                                timeout=30.0) for other in others]
        with pending(calls[0]) as one, pending(calls[1]) as two, pending(calls[2]) as three:
            time.sleep(0.2)  # the loads are in the store by now
            for _ in range(3):
                assert api.get("/healthz").status_code == 200
                assert api.get("/v1/check", params={"url": site.url("/y")}).json()["results"][0]["robots"]["cache"] == "hit"
            assert not (one or two or three), "the slow loads finished first"
        assert [box[0].status_code for box in (one, two, three)] == [200, 200, 200]


# -- #16-M1: metrics ----------------------------------------------------------------------------------

@pytest.mark.parametrize("protocol", [H11Protocol, HttpToolsProtocol], ids=["h11", "httptools"])
def test_metrics_labels_come_from_closed_sets_whatever_clients_send(start: Start, protocol: type) -> None:
    """#16-M1: 1,000 invented methods and paths add no label value: the page stays the same size
    (give or take the digits of the counters)."""
    api = start(server={"protocol": protocol})
    api.get("/v1/nothing")
    api.request("BREW", "/v1/nothing")
    api.get("/metrics")  # the page's own series exist from the second request on (counted before its body goes)
    before = api.get("/metrics").text
    for n in range(1000):
        api.request(f"M{n}ETHOD", f"/no/such/path/{n}")
    after = api.get("/metrics").text
    methods = set(re.findall(r'method="([^"]*)"', after))
    endpoints = set(re.findall(r'endpoint="([^"]*)"', after))
    assert methods <= METHODS | {"other"}, methods
    assert not any(e.startswith("/no/") for e in endpoints), endpoints
    assert len(after) - len(before) < 200, len(after) - len(before)


# -- #16-L1: sockets ----------------------------------------------------------------------------------

@pytest.mark.parametrize("protocol", [H11Protocol, HttpToolsProtocol], ids=["h11", "httptools"])
def test_idle_and_slow_sockets_are_closed_and_hurt_no_one(start: Start, protocol: type) -> None:
    """#16-L1: 300 idle sockets and 10 that send their request head a byte at a time: everyone else
    is answered meanwhile, and the service closes them all once the head timeout passes."""
    api = start(server={"protocol": protocol, "head_timeout": 1.0})
    host, port = api.base_url.host, api.base_url.port
    with ExitStack() as stack:
        idle = [stack.enter_context(socket.create_connection((host, port), timeout=10)) for _ in range(300)]
        slow = [stack.enter_context(socket.create_connection((host, port), timeout=10)) for _ in range(10)]
        for sock in slow:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        for _ in range(5):
            assert api.get("/healthz").status_code == 200
        deadline = time.monotonic() + 15
        open_slow = list(slow)
        while open_slow and time.monotonic() < deadline:
            for sock in list(open_slow):
                try:
                    sock.sendall(b"a")
                except OSError:
                    open_slow.remove(sock)
            time.sleep(0.1)
        assert not open_slow, "a trickling request head kept its socket past the head timeout"
        for sock in idle:
            assert _closed_by_peer(sock), "an idle socket was kept past the head timeout"
        assert api.get("/healthz").status_code == 200


def _closed_by_peer(sock: socket.socket) -> bool:
    try:
        return sock.recv(1) == b""
    except (ConnectionResetError, TimeoutError):
        return False


def test_a_body_that_trickles_past_the_deadline_is_a_408(start: Start) -> None:
    """#16-L1, #16-H1: the body is read within the request's deadline; one that does not arrive in
    time is answered 408 and its connection closed."""
    api = start(deadline=1.0)
    with socket.create_connection((api.base_url.host, api.base_url.port), timeout=10) as sock:
        sock.sendall(b"POST /v1/lint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"robots\": ")
        reply = b""
        while b"\r\n\r\n" not in reply:
            chunk = sock.recv(65536)
            if not chunk:
                break
            reply += chunk
    assert reply.startswith(b"HTTP/1.1 408 ")
    assert b"connection: close" in reply.lower()


# -- #16-L5, #16-L3: what the service documents -----------------------------------------------------------

def test_the_api_pages_that_load_scripts_from_a_cdn_are_off_by_default(start: Start) -> None:
    """#16-L5: /docs and /redoc load their scripts from a CDN, so they are off unless asked for; the
    API's description is always at /openapi.json, and the tester page needs no internet."""
    api = start()
    error_of(api.get("/docs"), 404, "not_found")
    error_of(api.get("/redoc"), 404, "not_found")
    assert api.get("/openapi.json").status_code == 200
    assert "/openapi.json" in error_of(api.get("/v1/nothing"), 404, "not_found")
    assert start(docs=True).get("/docs").status_code == 200


def test_the_openapi_document_states_the_deadline_limits_and_refusals(api: httpx.Client) -> None:
    """#16-H1, #16-L3: the API description gives the deadline and the limits; every endpoint with a
    body documents 400 (not JSON), 422 (wrong shape) and 503 (overloaded or past the deadline)."""
    document: dict[str, Any] = api.get("/openapi.json").json()
    description = document["info"]["description"]
    assert "deadline of 10 seconds" in description and "1,000 URLs" in description and "100 distinct sites" in description
    for path in ("/v1/check", "/v1/test", "/v1/lint", "/v1/diff"):
        responses = document["paths"][path]["post"]["responses"]
        assert {"400", "422", "503"} <= set(responses), (path, sorted(responses))
