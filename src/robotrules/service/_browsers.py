"""What keeps a web page in a visitor's browser from using this service against them.

Two ways a hostile page could reach a service that its visitor runs on their own machine:

* **DNS rebinding.** The page's own host name is made to resolve to 127.0.0.1; the browser then
  sends the page's requests, with the page's ``Host``, to the service on loopback, and lets the
  page read the answers (``/v1/robots`` bodies of internal sites, with ``--allow-private``). A
  service listening on loopback therefore answers only requests whose ``Host`` names a loopback
  address or ``localhost`` (:func:`host_allowed`, :data:`LOOPBACK_NAMES`); any other is refused
  before any work, 421 ``wrong_host``.
* **Framing.** The tester page in an invisible frame could be clicked through by the framing
  page. The page is sent with ``Content-Security-Policy: ... frame-ancestors 'none'`` and
  ``X-Frame-Options: DENY`` as headers (:data:`PAGE_HEADERS`): a CSP in a ``<meta>`` tag cannot
  say ``frame-ancestors``, so the policy has its one home here.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Collection, Iterable
from typing import Any
from urllib.parse import urlsplit

__all__ = ["LOOPBACK_NAMES", "PAGE_HEADERS", "host_allowed", "host_of", "loopback_hosts"]

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
"""The names a loopback service answers to, besides the address it listens on."""

PAGE_HEADERS = {
    # Everything the page uses comes from this server; nothing may frame it.
    "content-security-policy": "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; object-src 'none'; "
                               "frame-ancestors 'none'",
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
"""The headers of the tester page (and its files)."""


def _is_loopback(host: str) -> bool:
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def loopback_hosts(listen: str) -> frozenset[str]:
    """The ``Host`` names a service listening on ``listen`` answers to: when ``listen`` is a
    loopback address (or ``localhost``), those of :data:`LOOPBACK_NAMES` and ``listen`` itself;
    else every name (an empty set)."""
    if not _is_loopback(listen):
        return frozenset()
    return frozenset(name.lower() for name in (*LOOPBACK_NAMES, listen.strip("[]")))


def host_of(headers: Iterable[tuple[bytes, bytes]]) -> str | None:
    """The host name of a request's ``Host`` header (lower case, an IPv6 address without its
    brackets, no port), or None when there is none or it cannot be read."""
    for name, value in headers:
        if name == b"host":
            try:
                host = urlsplit("//" + value.decode("latin-1")).hostname
            except ValueError:
                return None
            return host or None
    return None


def host_allowed(scope: dict[str, Any] | Any, hosts: Collection[str]) -> bool:
    """Whether the request ``scope`` (ASGI) may be answered: any ``Host`` when ``hosts`` is empty,
    else one of ``hosts``."""
    if not hosts:
        return True
    return host_of(scope.get("headers", ())) in hosts
