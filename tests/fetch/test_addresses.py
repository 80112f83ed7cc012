"""Redirects never reach internal services; userinfo is never followed (issue #8; F3, F8, S5).

With the address policy on (``Policy(public_addresses_only=True)``) every connection, the first
request and each redirect hop, over HTTP and FTP, is resolved and refused when any address is
not public, and made to the address that was checked. The tests' servers all live on loopback,
so the end-to-end tests use :class:`EntryOnly`: the default policy, except that the test's entry
server counts as public, and names under ``.invalid`` resolve as the test says (no DNS). The
internal servers count TCP connections: "never reached" means not even connected to.
"""

from __future__ import annotations

import pickle
import socket
from collections.abc import Iterator, Mapping
from ipaddress import IPv4Address, IPv6Address

import anyio
import httpx
import pytest

from robotrules.core.policy import Policy, standing
from robotrules.errors import BlockedAddress, InvalidURL, RobotsError
from robotrules.fetch import AddressPolicy, AsyncFetcher, Fetcher
from robotrules.fetch.addresses import refusal
from tests.servers.ftp import FTPServer
from tests.servers.http import HTTPServer, redirect, respond

from .conftest import NOW, TEST_POLICY, FakeClock, Run

ROBOTS = b"User-agent: *\nDisallow: /private\n"
INTERNAL = b"User-agent: *\nAllow: /\nSitemap: http://10.0.0.7/internal-sitemap.xml\n"
PUBLIC_ONLY = Policy(fetch_timeout=5.0, public_addresses_only=True)


class EntryOnly(AddressPolicy):
    """The default address policy, but loopback on ``port`` (the test's entry server) counts as public.

    ``names`` resolve without DNS: a name to its addresses, or to None for a name that does not
    resolve.
    """

    def __init__(self, port: int, names: Mapping[str, list[str] | None] | None = None) -> None:
        self.port = port
        self.names = dict(names or {})

    def refuses(self, address: IPv4Address | IPv6Address, port: int) -> str | None:
        if port == self.port and address.is_loopback:
            return None
        return super().refuses(address, port)

    def resolve(self, host: str, port: int) -> list[str]:
        if host not in self.names:
            return super().resolve(host, port)
        found = self.names[host]
        if found is None:
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return self.check(host, port, found)

    async def aresolve(self, host: str, port: int) -> list[str]:
        return self.resolve(host, port)


@pytest.fixture
def internal() -> Iterator[HTTPServer]:
    """An internal service on loopback, another port: its robots.txt must stay unread."""
    with HTTPServer() as srv:
        srv.default = respond(200, INTERNAL)
        yield srv


@pytest.fixture
def internal6() -> Iterator[HTTPServer]:
    """An internal service on the IPv6 loopback, [::1]."""
    try:
        srv = HTTPServer("::1")
    except OSError:
        pytest.skip("no IPv6 loopback here")
    with srv:
        srv.default = respond(200, INTERNAL)
        yield srv


# -- the classifier ---------------------------------------------------------------------------
REFUSED = [
    # IPv4
    ("127.0.0.1", "loopback"),
    ("127.255.255.254", "loopback"),
    ("10.0.0.1", "private"),
    ("172.16.0.1", "private"),
    ("172.31.255.255", "private"),
    ("192.168.1.1", "private"),
    ("169.254.169.254", "cloud metadata"),  # AWS, GCP, Azure, ... instance metadata
    ("169.254.170.2", "cloud metadata"),
    ("169.254.1.1", "link-local"),
    ("100.64.0.1", "shared (carrier-grade NAT)"),
    ("100.127.255.255", "shared (carrier-grade NAT)"),
    ("100.100.100.200", "cloud metadata"),
    ("168.63.129.16", "cloud metadata"),  # public block, Azure-internal service
    ("192.0.0.192", "cloud metadata"),
    ("0.0.0.0", "unspecified"),
    ("0.1.2.3", "unspecified"),
    ("224.0.0.1", "multicast"),
    ("239.255.255.250", "multicast"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "reserved"),
    ("192.0.0.8", "reserved (IETF protocol assignments)"),
    ("192.0.2.1", "documentation"),
    ("198.51.100.1", "documentation"),
    ("203.0.113.1", "documentation"),
    ("198.18.0.1", "reserved (benchmarking)"),
    ("192.88.99.1", "reserved (6to4 relay anycast)"),
    # IPv6
    ("::1", "loopback"),
    ("::", "unspecified"),
    ("fe80::1", "link-local"),
    ("fe80::1%lo", "link-local"),
    ("fc00::1", "unique-local"),
    ("fd12:3456:789a::1", "unique-local"),
    ("fd00:ec2::254", "cloud metadata"),
    ("fec0::1", "site-local"),
    ("ff02::1", "multicast"),
    ("ff0e::1", "multicast"),
    ("2001:db8::1", "documentation"),
    ("3fff::1", "documentation"),
    ("100::1", "reserved (discard-only)"),
    ("2001::1", "reserved (IETF protocol assignments, Teredo)"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "reserved (IETF protocol assignments, Teredo)"),
    ("64:ff9b:1::1", "private (local-use NAT64)"),
    ("::127.0.0.1", "reserved"),  # IPv4-compatible, deprecated
    ("4000::1", "reserved"),  # outside 2000::/3: not allocated for global unicast
    # IPv6 with an IPv4 address inside
    ("::ffff:127.0.0.1", "IPv4-mapped loopback (127.0.0.1)"),
    ("::ffff:10.0.0.1", "IPv4-mapped private (10.0.0.1)"),
    ("::ffff:169.254.169.254", "IPv4-mapped cloud metadata (169.254.169.254)"),
    ("2002:c0a8:101::1", "6to4 private (192.168.1.1)"),
    ("2002:7f00:1::", "6to4 loopback (127.0.0.1)"),
    ("64:ff9b::a9fe:a9fe", "NAT64 cloud metadata (169.254.169.254)"),
    ("64:ff9b::a00:1", "NAT64 private (10.0.0.1)"),
]

PUBLIC = [
    "8.8.8.8",
    "1.1.1.1",
    "93.184.215.14",
    "100.63.255.255",  # just below 100.64/10
    "100.128.0.0",  # just above it
    "172.15.255.255",
    "172.32.0.1",
    "169.253.255.255",
    "223.255.255.255",
    "2001:4860:4860::8888",
    "2606:4700:4700::1111",
    "2a00:1450:4001:81c::200e",
    "::ffff:8.8.8.8",
    "2002:808:808::1",  # 6to4 of a public address
    "64:ff9b::808:808",  # NAT64 of a public address
]


@pytest.mark.parametrize(("address", "why"), REFUSED)
def test_non_public_addresses_are_refused_with_the_reason(address: str, why: str) -> None:
    """Issue #8: loopback, private, link-local (metadata), shared, multicast, reserved, and IPv6 forms of them are refused."""
    assert refusal(address) == why


@pytest.mark.parametrize("address", PUBLIC)
def test_public_addresses_are_permitted(address: str) -> None:
    """Issue #8: globally routable unicast addresses, v4 and v6, are permitted."""
    assert refusal(address) is None


def test_refusal_takes_ipaddress_objects_and_rejects_non_addresses() -> None:
    """The classifier reads ``ipaddress`` objects as strings; a host name is not an address (ValueError)."""
    assert refusal(IPv4Address("10.0.0.1")) == "private"
    assert refusal(IPv6Address("::1")) == "loopback"
    with pytest.raises(ValueError, match="does not appear to be"):
        refusal("example.com")


def test_a_name_with_one_internal_address_among_public_ones_is_refused() -> None:
    """Issue #8: every resolved address must be public; one private address refuses the name (the connection could use it)."""
    with pytest.raises(BlockedAddress) as caught:
        AddressPolicy().check("mixed.example", 80, ["8.8.8.8", "10.0.0.1", "1.1.1.1"])
    error = caught.value
    assert (error.host, error.port, error.address, error.reason) == ("mixed.example", 80, "10.0.0.1", "private")
    assert "mixed.example" in str(error) and "10.0.0.1" in str(error) and "private" in str(error)
    assert AddressPolicy().check("ok.example", 80, ["8.8.8.8", "8.8.8.8", "2001:4860:4860::8888"]) == [
        "8.8.8.8", "2001:4860:4860::8888"]


def test_blocked_address_is_a_robots_error_and_a_value_error() -> None:
    """The error tree: BlockedAddress is a RobotsError and a ValueError, and survives pickling (worker processes)."""
    error = BlockedAddress("metadata.example", 80, "169.254.169.254", "cloud metadata")
    assert isinstance(error, RobotsError) and isinstance(error, ValueError)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.host, copy.address, copy.reason, str(copy)) == (error.host, error.address, error.reason, str(error))


# -- the setting ------------------------------------------------------------------------------
def test_public_addresses_only_is_off_by_default_and_turns_the_checks_on() -> None:
    """Issue #8: off by default for the library; Policy(public_addresses_only=True) gives the fetchers the default checks."""
    assert Policy().public_addresses_only is False
    fetcher = Fetcher(policy=TEST_POLICY)
    assert fetcher.addresses is None
    fetcher.close()
    fetcher = Fetcher(policy=PUBLIC_ONLY)
    assert type(fetcher.addresses) is AddressPolicy
    fetcher.close()
    custom = EntryOnly(1)
    fetcher = Fetcher(policy=TEST_POLICY, addresses=custom)
    assert fetcher.addresses is custom and fetcher.ftp.addresses is custom
    fetcher.close()


def test_public_addresses_only_refuses_a_callers_http_client() -> None:
    """Issue #8: the check lives where connections are opened, out of reach in a caller's client: the combination is refused."""
    with httpx.Client() as client, pytest.raises(ValueError, match="public_addresses_only"):
        Fetcher(client, policy=PUBLIC_ONLY)

    async def go() -> None:
        async with httpx.AsyncClient() as aclient:
            with pytest.raises(ValueError, match="public_addresses_only"):
                AsyncFetcher(aclient, addresses=AddressPolicy())

    anyio.run(go)


# -- the robots.txt URL itself ----------------------------------------------------------------
def test_robots_txt_at_an_internal_address_raises_before_any_request(fetch: Run, internal: HTTPServer) -> None:
    """Issue #8: with public_addresses_only, a robots.txt URL on loopback raises BlockedAddress; no connection is made."""
    with pytest.raises(BlockedAddress) as caught:
        fetch(internal.url(), policy=PUBLIC_ONLY)
    assert (caught.value.address, caught.value.reason) == ("127.0.0.1", "loopback")
    assert internal.connections == 0


def test_ftp_robots_txt_at_an_internal_address_raises_before_any_connection(fetch: Run, ftp_server: FTPServer) -> None:
    """Issue #8, S5: the FTP fetcher checks the address too, before connecting."""
    with pytest.raises(BlockedAddress):
        fetch(ftp_server.put("robots.txt", INTERNAL), policy=PUBLIC_ONLY)
    assert ftp_server.connections == 0 and ftp_server.retrievals() == 0


def test_client_raises_blocked_address_and_caches_nothing(internal: HTTPServer) -> None:
    """Issue #8: through RobotsClient the refusal is raised to the crawler, and nothing reaches the (shared) store."""
    from robotrules import MemoryStore, RobotsClient

    store = MemoryStore()
    with RobotsClient(store, policy=PUBLIC_ONLY) as client:
        with pytest.raises(BlockedAddress):
            client.allowed(internal.url("/page"), "bot")
        assert store.get(internal.url()) is None
    assert internal.connections == 0


def test_client_keeps_nothing_of_an_internal_service_it_was_redirected_to(server: HTTPServer, internal: HTTPServer) -> None:
    """Issue #8: through RobotsClient, robots(url).entry.body and sitemaps() hold nothing of the internal service's robots.txt.

    The client takes the address policy from its ``Policy``; to let the test's entry server on
    loopback count as public, its fetcher is swapped for one with :class:`EntryOnly`.
    """
    from robotrules import MemoryStore, RobotsClient

    server.route("/robots.txt", redirect(302, internal.url()))
    store = MemoryStore()
    with RobotsClient(store, policy=PUBLIC_ONLY) as client:
        client.fetcher.close()
        client.fetcher = Fetcher(policy=PUBLIC_ONLY, addresses=EntryOnly(server.port))
        state = client.robots(server.url("/page"))
        assert (state.kind, state.entry.body, client.sitemaps(server.url("/page"))) == ("allow", b"", [])
        stored = store.get(server.url())
        assert stored is not None and stored.body == b""
    assert internal.connections == 0


# -- redirects ---------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["loopback", "ipv6-loopback", "ftp", "metadata", "mapped", "userinfo"])
def test_redirect_to_an_internal_service_is_not_followed(
    fetch: Run, server: HTTPServer, internal: HTTPServer, ftp_server: FTPServer, request: pytest.FixtureRequest, target: str
) -> None:
    """Issue #8, F3: with public_addresses_only a redirect to loopback, [::1], ftp:// on loopback, a name resolving to the
    metadata address or to an IPv4-mapped loopback, or a Location with userinfo, is never connected to: a redirect that
    cannot be followed (F3, as a 404), with an empty body and the reason."""
    names: dict[str, list[str] | None] = {"metadata.invalid": ["169.254.169.254"], "mapped.invalid": ["::ffff:127.0.0.1"]}
    ftp_server.put("robots.txt", INTERNAL)
    counters = {"loopback": lambda: internal.connections, "ftp": lambda: ftp_server.connections}
    if target == "ipv6-loopback":
        internal6: HTTPServer = request.getfixturevalue("internal6")
        location = internal6.url()
        counters["ipv6"] = lambda: internal6.connections
    else:
        location = {
            "loopback": internal.url(),
            "ftp": ftp_server.url(),
            "metadata": "http://metadata.invalid/latest/meta-data/",
            "mapped": f"http://mapped.invalid:{internal.port}/robots.txt",
            "userinfo": internal.url().replace("http://", "http://admin:hunter2@"),
        }[target]
    url = server.route("/robots.txt", redirect(302, location))
    entry = fetch(url, addresses=EntryOnly(server.port, names))
    assert (entry.outcome, entry.body) == ("allow", b"")
    assert entry.why.code == "redirect-unusable", entry.reason
    assert ("userinfo" if target == "userinfo" else "not a public address") in entry.why.detail, entry.reason
    assert "hunter2" not in entry.reason + entry.final_url  # credentials are not recorded
    assert standing(entry, NOW, TEST_POLICY).kind == "allow"
    assert {name: count() for name, count in counters.items()} == dict.fromkeys(counters, 0)
    assert server.paths() == ["/robots.txt"]


def test_every_hop_is_checked(fetch: Run, server: HTTPServer, internal: HTTPServer) -> None:
    """Issue #8, F3: the check is made on every hop: two permitted hops, then one to an internal service, which is not made."""
    server.route("/robots.txt", redirect(301, "/a"))
    server.route("/a", redirect(302, server.url("/b")))
    server.route("/b", redirect(307, internal.url("/robots.txt")))
    entry = fetch(server.url(), addresses=EntryOnly(server.port))
    assert (entry.outcome, entry.body) == ("allow", b"")
    assert server.paths() == ["/robots.txt", "/a", "/b"]
    assert internal.connections == 0


def test_permitted_redirects_are_followed_with_the_policy_on(fetch: Run, server: HTTPServer) -> None:
    """Issue #8, F3: the address policy refuses addresses, not redirects: a hop to a permitted address is followed."""
    server.route("/moved.txt", respond(200, ROBOTS))
    entry = fetch(server.route("/robots.txt", redirect(301, "/moved.txt")), addresses=EntryOnly(server.port))
    assert (entry.outcome, entry.body, entry.final_url) == ("rules", ROBOTS, server.url("/moved.txt"))


def test_connection_goes_to_the_checked_address_without_resolving_again(fetch: Run, server: HTTPServer) -> None:
    """Issue #8: the name is resolved once, by the policy, and the connection made to that address (no DNS rebinding window).

    ``robots.invalid`` resolves only through the policy; had the transport resolved it again,
    the fetch would have failed with a DNS error.
    """
    server.route("/robots.txt", respond(200, ROBOTS))
    entry = fetch(f"http://robots.invalid:{server.port}/robots.txt",
                  addresses=EntryOnly(server.port, {"robots.invalid": ["127.0.0.1"]}))
    assert (entry.outcome, entry.body) == ("rules", ROBOTS)
    assert server.requests[0].headers["host"] == f"robots.invalid:{server.port}"  # the name is still the host


def test_a_name_that_does_not_resolve_is_still_a_dns_failure(fetch: Run) -> None:
    """Issue #8, F8: with the policy on, a name without addresses is a network failure (full disallow), not a refusal."""
    entry = fetch("http://down.invalid/robots.txt", addresses=EntryOnly(1, {"down.invalid": None}))
    assert (entry.outcome, entry.status) == ("error", 0)
    assert (entry.why.code, entry.why.failure) == ("network", "dns"), entry.reason


def test_tls_is_verified_for_the_host_name_not_the_address() -> None:
    """Issue #8: connecting to the checked address keeps TLS about the host: the server name sent (SNI) is the host name."""
    import httpcore

    from robotrules.fetch.http import _GuardedBackend

    seen: dict[str, object] = {}

    class Stream(httpcore.MockStream):  # type: ignore[misc]
        def start_tls(self, ssl_context: object, server_hostname: str | None = None, timeout: float | None = None) -> Stream:
            seen["server_hostname"] = server_hostname
            return self

    class Recorder(httpcore.MockBackend):  # type: ignore[misc]
        def connect_tcp(self, host: str, port: int, *args: object, **kwargs: object) -> Stream:
            seen["connected_to"] = (host, port)
            return Stream(list(self._buffer), http2=False)

    inner = Recorder([b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"])
    backend = _GuardedBackend(EntryOnly(443, {"robots.invalid": ["127.0.0.1"]}), inner)
    with httpcore.ConnectionPool(network_backend=backend) as pool:
        response = pool.request("GET", "https://robots.invalid/robots.txt")
    assert (response.status, response.content) == (200, b"ok")
    assert seen == {"connected_to": ("127.0.0.1", 443), "server_hostname": "robots.invalid"}


# -- userinfo, with or without the policy ------------------------------------------------------
@pytest.mark.parametrize("scheme", ["http", "ftp"])
def test_redirect_with_userinfo_is_never_followed_by_default(
    fetch: Run, server: HTTPServer, internal: HTTPServer, ftp_server: FTPServer, scheme: str
) -> None:
    """Issue #8, F3: a Location with user:password@ is refused even with the address policy off (the library default)."""
    ftp_server.put("robots.txt", INTERNAL)
    target = internal.url() if scheme == "http" else ftp_server.url()
    location = target.replace("://", "://admin:hunter2@")
    entry = fetch(server.route("/robots.txt", redirect(301, location)))
    assert (entry.outcome, entry.body) == ("allow", b"")
    assert entry.why.code == "redirect-unusable" and "userinfo" in entry.why.detail
    assert entry.final_url == target  # recorded without the credentials
    assert "hunter2" not in entry.reason
    assert (internal.connections, ftp_server.connections) == (0, 0)


def test_a_robots_txt_url_with_userinfo_is_not_fetched(fetch: Run, server: HTTPServer) -> None:
    """Issue #8: credentials in the robots.txt URL itself are refused (InvalidURL) before any connection.

    robots_url() never produces one (it drops userinfo); this guards direct callers of the fetchers.
    """
    with pytest.raises(InvalidURL, match="userinfo"):
        fetch(server.url().replace("http://", "http://admin:hunter2@"))
    assert server.connections == 0


# -- the library default keeps loopback working -------------------------------------------------
@pytest.mark.parametrize("target", ["loopback", "ipv6-loopback", "ftp"])
def test_redirects_to_loopback_are_followed_by_default(
    fetch: Run, server: HTTPServer, internal: HTTPServer, ftp_server: FTPServer, request: pytest.FixtureRequest, target: str
) -> None:
    """Issue #8, F3, S5: with the address policy off (the default) a redirect to another loopback service is followed as before."""
    location = {
        "loopback": internal.url,
        "ipv6-loopback": lambda: request.getfixturevalue("internal6").url(),
        "ftp": lambda: ftp_server.put("robots.txt", INTERNAL),
    }[target]()
    entry = fetch(server.route("/robots.txt", redirect(302, location)))
    assert (entry.outcome, entry.body, entry.final_url) == ("rules", INTERNAL, location)


@pytest.mark.anyio
async def test_async_fetcher_with_the_policy_on_fetches_a_permitted_host(server: HTTPServer, clock: FakeClock) -> None:
    """Issue #8: the async guarded client (anyio network backend) fetches normally where the policy permits."""
    server.route("/robots.txt", respond(200, ROBOTS))
    fetcher = AsyncFetcher(policy=TEST_POLICY, addresses=EntryOnly(server.port))
    try:
        entry = await fetcher.fetch(server.url(), None, clock)
    finally:
        await fetcher.aclose()
    assert (entry.outcome, entry.body) == ("rules", ROBOTS)
