"""The private-address guard (issue #8, F3): with ``allow_private=False`` (the default) the service
never fetches a robots.txt from loopback, private, link-local or cloud-metadata addresses.

A robots.txt URL whose host is (or resolves to) one is a 403 before any connection; a redirect hop
to one is not followed (a redirect leading nowhere: full allow, with the reason). The tests' sites
are on loopback, so the redirect tests use :class:`EntryOnly`: the default address policy except
that the entry site's port counts as public, and names under ``.invalid`` resolve as the test
says, without DNS. "Never reached" is checked as: the internal server accepted no connection.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator, Mapping
from ipaddress import IPv4Address, IPv6Address

import httpx
import pytest

from robotrules.fetch import AddressPolicy
from tests.servers.http import HTTPServer, redirect, respond

from .conftest import ROBOTS, Start, error_of


class EntryOnly(AddressPolicy):
    """The default policy, but loopback on ``port`` is public; ``names`` resolve without DNS."""

    def __init__(self, port: int, names: Mapping[str, list[str]] | None = None) -> None:
        self.port = port
        self.names = dict(names or {})

    def refuses(self, address: IPv4Address | IPv6Address, port: int) -> str | None:
        if port == self.port and address.is_loopback:
            return None
        return super().refuses(address, port)

    def resolve(self, host: str, port: int) -> list[str]:
        if host in self.names:
            return self.check(host, port, self.names[host])
        if host.endswith(".invalid"):
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return super().resolve(host, port)

    async def aresolve(self, host: str, port: int) -> list[str]:
        if host in self.names or host.endswith(".invalid"):
            return self.resolve(host, port)
        return await super().aresolve(host, port)


@pytest.fixture
def guarded(start: Start) -> httpx.Client:
    """The service as deployed: private addresses refused."""
    return start(allow_private=False)


@pytest.fixture
def internal() -> Iterator[HTTPServer]:
    """An internal service on loopback: its robots.txt must stay unread."""
    with HTTPServer() as server:
        server.default = respond(200, b"User-agent: *\nAllow: /\n")
        yield server


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "127.1.2.3"])
def test_a_robots_txt_on_loopback_is_refused_before_any_connection(
        guarded: httpx.Client, internal: HTTPServer, host: str) -> None:
    message = error_of(guarded.get("/v1/check", params={"url": internal.url("/page", host=host)}), 403,
                       "blocked_address")
    assert "not a public address" in message and "loopback" in message
    assert internal.connections == 0


def test_a_robots_txt_on_the_ipv6_loopback_is_refused(guarded: httpx.Client) -> None:
    try:
        server = HTTPServer("::1")
    except OSError:
        pytest.skip("no IPv6 loopback here")
    with server:
        error_of(guarded.get("/v1/check", params={"url": server.url("/x")}), 403, "blocked_address")
        assert server.connections == 0


@pytest.mark.parametrize(("host", "why"), [("10.0.0.1", "private"), ("10.255.255.254", "private"),
                                           ("192.168.1.1", "private"), ("172.16.5.4", "private"),
                                           ("169.254.169.254", "cloud metadata"), ("169.254.1.1", "link-local"),
                                           ("[fd00::1]", "unique-local"), ("0.0.0.0", "unspecified")])
def test_a_robots_txt_on_a_private_or_metadata_address_is_refused(guarded: httpx.Client, host: str, why: str) -> None:
    """Private ranges and the cloud metadata address are refused by address, before any connection is tried."""
    message = error_of(guarded.get("/v1/check", params={"url": f"http://{host}/latest/meta-data/"}), 403,
                       "blocked_address")
    assert why in message


def test_every_live_endpoint_applies_the_guard(guarded: httpx.Client, internal: HTTPServer) -> None:
    url = internal.url("/")
    error_of(guarded.post("/v1/check", json={"urls": [url]}), 403, "blocked_address")
    error_of(guarded.get("/v1/robots", params={"url": url}), 403, "blocked_address")
    error_of(guarded.post("/v1/diff", json={"old_url": url, "new": ""}), 403, "blocked_address")
    assert internal.connections == 0


def test_blocked_requests_are_counted(guarded: httpx.Client, internal: HTTPServer) -> None:
    guarded.get("/v1/check", params={"url": internal.url("/")})
    assert "robotrules_blocked_addresses_total 1.0" in guarded.get("/metrics").text


def test_allow_private_turns_the_guard_off(start: Start, site: HTTPServer) -> None:
    """``allow_private=True`` (``robotrules serve --allow-private``): loopback sites are fetched."""
    [verdict] = start(allow_private=True).get("/v1/check", params={"url": site.url("/private")}).json()["results"]
    assert verdict["allowed"] is False and site.hits("/robots.txt") == 1


# -- redirect hops ------------------------------------------------------------------------------

def _entry(start: Start, site: HTTPServer, target: str, names: Mapping[str, list[str]] | None = None) -> httpx.Client:
    site.route("/robots.txt", redirect(301, target))
    return start(allow_private=False, addresses=EntryOnly(site.port, names))


def test_the_entry_site_itself_is_fetched_normally(start: Start, site: HTTPServer) -> None:
    """Sanity of the harness: the permitted entry site's robots.txt is read and decides."""
    api = start(allow_private=False, addresses=EntryOnly(site.port))
    [verdict] = api.get("/v1/check", params={"url": site.url("/private")}).json()["results"]
    assert verdict["allowed"] is False and verdict["robots"]["kind"] == "rules"
    assert site.hits("/robots.txt") == 1


def test_a_redirect_to_loopback_is_not_followed(start: Start, site: HTTPServer, internal: HTTPServer) -> None:
    """F3: the hop to 127.0.0.1 (another port) is refused: a redirect leading nowhere, full allow, reason given."""
    api = _entry(start, site, internal.url("/robots.txt"))
    [verdict] = api.get("/v1/check", params={"url": site.url("/private")}).json()["results"]
    assert (verdict["allowed"], verdict["full"]) == (True, "allow")
    assert "not a public address" in verdict["robots"]["reason"]
    assert internal.connections == 0 and site.hits("/robots.txt") == 1


@pytest.mark.parametrize("target", ["http://10.0.0.1/robots.txt", "http://192.168.0.10/robots.txt",
                                    "http://169.254.169.254/latest/meta-data/", "http://[::1]:80/robots.txt",
                                    "http://[::ffff:127.0.0.1]/robots.txt", "http://internal.invalid/robots.txt"])
def test_a_redirect_to_a_private_range_is_not_followed(start: Start, site: HTTPServer, target: str) -> None:
    """F3: hops to private ranges, the metadata address, mapped loopback or a name resolving to a private
    address are refused before connecting; the verdict says why."""
    api = _entry(start, site, target, names={"internal.invalid": ["10.1.2.3"]})
    [verdict] = api.get("/v1/check", params={"url": site.url("/private")}).json()["results"]
    assert (verdict["allowed"], verdict["full"]) == (True, "allow")
    assert "not a public address" in verdict["robots"]["reason"]
    entry = api.get("/v1/robots", params={"url": site.url("/")}).json()
    assert entry["body"] is None and entry["kind"] == "allow"


def test_a_redirect_chain_through_the_entry_site_to_loopback_is_stopped_at_the_hop(
        start: Start, site: HTTPServer, internal: HTTPServer) -> None:
    """A permitted first hop does not launder the next one: each hop is checked."""
    site.route("/robots.txt", redirect(302, "/hop"))
    site.route("/hop", redirect(302, internal.url("/robots.txt", host="localhost")))
    api = start(allow_private=False, addresses=EntryOnly(site.port))
    [verdict] = api.get("/v1/check", params={"url": site.url("/x")}).json()["results"]
    assert verdict["full"] == "allow" and "not a public address" in verdict["robots"]["reason"]
    assert internal.connections == 0 and site.hits("/hop") == 1


def test_a_site_that_redirects_to_itself_is_followed(start: Start, site: HTTPServer) -> None:
    """Only refused addresses stop a redirect: a hop within the permitted site is followed as usual."""
    site.route("/robots.txt", redirect(301, "/real-robots.txt"))
    site.route("/real-robots.txt", respond(200, ROBOTS))
    api = start(allow_private=False, addresses=EntryOnly(site.port))
    [verdict] = api.get("/v1/check", params={"url": site.url("/private")}).json()["results"]
    assert verdict["allowed"] is False and verdict["robots"]["redirects"] == 1
