"""Which network addresses the fetchers may connect to: the address policy (issue #8, F3).

A robots.txt can redirect anywhere, and a fetcher that follows redirects on behalf of strangers
(a crawler fleet, a web service that checks any URL) must not become a way into the network it
runs in: loopback services, private networks, the cloud metadata address 169.254.169.254. With
the address policy on (``Policy(public_addresses_only=True)``, off by default for the library)
every connection, the first request and each redirect hop, over HTTP(S) and FTP alike, is made
like this::

    host --getaddrinfo--> every address it resolves to
        |-- any address refused (refusal(), or AddressPolicy.refuses()) ---> BlockedAddress
        '-- all permitted --> connect to those addresses, in order; the name is not resolved again

so there is no window between the check and the connection in which the name could be made to
point elsewhere (DNS rebinding). TLS still verifies the certificate for the host name.

:func:`refusal` is the classifier: None for a globally routable unicast address, else why not.
It is an explicit table (below), the same on every Python version, rather than
``ipaddress.is_global``, whose answers have changed between versions and miss multicast,
site-local and addresses embedded in IPv6 (IPv4-mapped, 6to4, NAT64)::

    IPv4  0.0.0.0/8 unspecified, 10/8 172.16/12 192.168/16 private, 100.64/10 shared (CGNAT),
          127/8 loopback, 169.254/16 link-local, 192.0.0/24 192.88.99/24 198.18/15 240/4 reserved
          (255.255.255.255 included), 192.0.2/24 198.51.100/24 203.0.113/24 documentation,
          224/4 multicast
    IPv6  :: unspecified, ::1 loopback, fc00::/7 unique-local, fe80::/10 link-local,
          fec0::/10 site-local, ff00::/8 multicast, 2001:db8::/32 3fff::/20 documentation,
          2001::/23 reserved (IETF protocol assignments, Teredo), 64:ff9b:1::/48 local NAT64,
          100::/64 discard, and anything outside 2000::/3 (not allocated for global unicast)
    embedded  ::ffff:a.b.c.d (IPv4-mapped), 2002:ab:cd::/48 (6to4), 64:ff9b::a.b.c.d (NAT64):
              judged by the IPv4 address inside
    metadata  169.254.169.254, 169.254.170.2, 168.63.129.16, 100.100.100.200, 192.0.0.192,
              fd00:ec2::254: cloud metadata services (168.63.129.16 is otherwise public)

:class:`AddressPolicy` applies it to a host name: :meth:`AddressPolicy.resolve` (blocking) and
:meth:`AddressPolicy.aresolve` (async) resolve, check every address and return the ones to
connect to, or raise :class:`~robotrules.errors.BlockedAddress`. Subclass it and override
:meth:`AddressPolicy.refuses` to permit an internal network or refuse more.

A host that is an address literal needs no lookup to be judged: :meth:`AddressPolicy.screen`
refuses a robots.txt URL on a refused literal (``http://10.0.0.1/``, ``http://[::1]/``, and the
URL standard's other spellings of an IPv4 address, ``http://2130706433/``) at once, so the
clients and the service turn it away before any store access, lookup or fetch, and never cache
the refusal (it is this instance's policy, not the site's answer). Names pass the screen; they
are judged when they are resolved.
"""

from __future__ import annotations

import socket
from collections.abc import Sequence
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network, ip_address, ip_network

from robotrules.errors import BlockedAddress

__all__ = ["AddressPolicy", "literal", "refusal"]

IPAddress = IPv4Address | IPv6Address


def _table(rows: Sequence[tuple[str, str]]) -> tuple[tuple[IPv4Network | IPv6Network, str], ...]:
    return tuple((ip_network(net), why) for net, why in rows)


_IPV4 = _table([
    ("0.0.0.0/8", "unspecified"),  # "this network"
    ("10.0.0.0/8", "private"),
    ("100.64.0.0/10", "shared (carrier-grade NAT)"),
    ("127.0.0.0/8", "loopback"),
    ("169.254.0.0/16", "link-local"),
    ("172.16.0.0/12", "private"),
    ("192.0.0.0/24", "reserved (IETF protocol assignments)"),
    ("192.0.2.0/24", "documentation"),
    ("192.88.99.0/24", "reserved (6to4 relay anycast)"),
    ("192.168.0.0/16", "private"),
    ("198.18.0.0/15", "reserved (benchmarking)"),
    ("198.51.100.0/24", "documentation"),
    ("203.0.113.0/24", "documentation"),
    ("224.0.0.0/4", "multicast"),
    ("240.0.0.0/4", "reserved"),  # 255.255.255.255, broadcast, included
])

_IPV6 = _table([
    ("::/128", "unspecified"),
    ("::1/128", "loopback"),
    ("64:ff9b:1::/48", "private (local-use NAT64)"),
    ("100::/64", "reserved (discard-only)"),
    ("2001::/23", "reserved (IETF protocol assignments, Teredo)"),
    ("2001:db8::/32", "documentation"),
    ("3fff::/20", "documentation"),
    ("fc00::/7", "unique-local"),
    ("fe80::/10", "link-local"),
    ("fec0::/10", "site-local"),
    ("ff00::/8", "multicast"),
])

_GLOBAL_UNICAST = IPv6Network("2000::/3")
_MAPPED = IPv6Network("::ffff:0:0/96")
_NAT64 = IPv6Network("64:ff9b::/96")

_METADATA = frozenset(ip_address(a) for a in (
    "169.254.169.254",  # AWS, GCP, Azure, OpenStack, DigitalOcean, ... instance metadata
    "169.254.170.2",  # AWS ECS task metadata
    "168.63.129.16",  # Azure WireServer: in a public block, reachable only from inside Azure
    "100.100.100.200",  # Alibaba Cloud
    "192.0.0.192",  # Oracle Cloud
    "fd00:ec2::254",  # AWS, over IPv6
))


def literal(host: str) -> IPAddress | None:
    """The address ``host`` spells when it is an address literal in canonical form (dotted-decimal
    IPv4, or IPv6 with or without brackets), else None (a name)."""
    if not host:
        return None
    if host[0] == "[" and host[-1:] == "]":
        host = host[1:-1]
    elif ":" not in host and not host.replace(".", "").isdigit():
        return None  # the common case, a name: no parsing
    try:
        return ip_address(host)
    except ValueError:
        return None


def refusal(address: str | IPAddress) -> str | None:
    """None when ``address`` is a globally routable unicast address, else why it is not.

    ``address`` is an IP address (a string such as ``"10.0.0.1"``, ``"::1"`` or
    ``"fe80::1%eth0"``, or an ``ipaddress`` object); a string that is not one raises
    ``ValueError``. The reasons are short phrases: ``"loopback"``, ``"private"``,
    ``"link-local"``, ``"cloud metadata"``, ``"IPv4-mapped loopback (127.0.0.1)"``, ... See the
    module docstring for the table.
    """
    ip = ip_address(address.split("%", 1)[0]) if isinstance(address, str) else address
    if isinstance(ip, IPv6Address) and ip.scope_id is not None:
        ip = IPv6Address(str(ip).split("%", 1)[0])
    if ip in _METADATA:
        return "cloud metadata"
    if isinstance(ip, IPv4Address):
        return next((why for net, why in _IPV4 if ip in net), None)
    embedded: tuple[str, IPv4Address] | None = None
    if ip in _MAPPED:
        embedded = ("IPv4-mapped", IPv4Address(int(ip) & 0xFFFF_FFFF))
    elif ip in _NAT64:
        embedded = ("NAT64", IPv4Address(int(ip) & 0xFFFF_FFFF))
    elif ip.sixtofour is not None:
        embedded = ("6to4", ip.sixtofour)
    if embedded is not None:
        kind, inner = embedded
        why = refusal(inner)
        return None if why is None else f"{kind} {why} ({inner})"
    found = next((why for net, why in _IPV6 if ip in net), None)
    if found is None and ip not in _GLOBAL_UNICAST:
        return "reserved"
    return found


class AddressPolicy:
    """Resolves host names and refuses to connect where :meth:`refuses` says no.

    The default refuses every address :func:`refusal` refuses. Instances hold no state and
    are safe to share between threads and tasks.
    """

    def refuses(self, address: IPAddress, port: int) -> str | None:
        """Why a connection to ``address``, ``port`` must not be made, or None to permit it.

        Override to permit a network the crawler is meant to reach, or to refuse more; the
        default is :func:`refusal` (the port does not matter to it).
        """
        return refusal(address)

    def check(self, host: str, port: int, addresses: Sequence[str]) -> list[str]:
        """``addresses`` (``host`` resolved), without repeats, if every one is permitted.

        :class:`~robotrules.errors.BlockedAddress` names the first refused one: a name with
        one internal address among public ones is refused, since which one a connection uses
        is not for the checker to decide.
        """
        unique = list(dict.fromkeys(addresses))
        for address in unique:
            why = self.refuses(ip_address(address.split("%", 1)[0]), port)
            if why is not None:
                raise BlockedAddress(host, port, address, why)
        return unique

    def resolve(self, host: str, port: int) -> list[str]:
        """Resolve ``host`` (blocking) and :meth:`check` its addresses.

        ``socket.gaierror`` if it does not resolve (or is not a name that can be looked up).
        Override this and :meth:`aresolve` to resolve another way; the fetchers connect to
        the addresses returned, and never resolve the name themselves.
        """
        try:
            infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except UnicodeError as exc:  # an empty or too long label
            raise socket.gaierror(socket.EAI_NONAME, f"{host!r} cannot be looked up: {exc}") from None
        return self.check(host, port, [str(info[4][0]) for info in infos])

    def screen(self, scope: tuple[str, str, int | None]) -> None:
        """Refuse an origin whose host is a refused address literal, without any lookup.

        ``scope`` is a :class:`~robotrules.Scope` (scheme, canonical host, effective port), as
        :func:`robotrules.robots_scope` gives it: an IPv4 host is in dotted decimal there, an
        IPv6 one without brackets. :class:`~robotrules.errors.BlockedAddress` when the policy
        refuses the literal; nothing for a name (judged when it is resolved) or a permitted address.
        """
        _, host, port = scope
        address = literal(host)
        if address is None:
            return
        why = self.refuses(address, port if port is not None else 0)
        if why is not None:
            raise BlockedAddress(host, port if port is not None else 0, str(address), why)

    async def aresolve(self, host: str, port: int) -> list[str]:
        """As :meth:`resolve`, on the event loop (asyncio or trio)."""
        import anyio

        try:
            infos = await anyio.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except UnicodeError as exc:
            raise socket.gaierror(socket.EAI_NONAME, f"{host!r} cannot be looked up: {exc}") from None
        return self.check(host, port, [str(info[4][0]) for info in infos])
