"""The exceptions robotrules raises, all in one tree::

    RobotsError                      base of everything below
    ├── InvalidURL (ValueError)      not an absolute URL with a host (S1), or no scheme to fetch
    │   └── UnsupportedScheme        a scheme other than http, https and ftp (S5)
    ├── BlockedAddress (ValueError)  the address policy refused to connect to a host's address
    │                                (Policy.public_addresses_only): raised for the robots.txt
    │                                URL itself; a redirect hop refused is an answer (F3)
    ├── StoreError                   the backing store (SQLite, Redis) failed; the client logs it
    │                                and goes on without the store
    └── MissingExtra (ImportError)   an optional part is not installed: "pip install robotrules[x]"

Network failures are never raised by the client: they are answers (F5, F8). The parser never
raises on any body (DESIGN 10).
"""

from __future__ import annotations

__all__ = ["BlockedAddress", "InvalidURL", "MissingExtra", "RobotsError", "StoreError", "UnsupportedScheme", "require"]


class RobotsError(Exception):
    """Base class of robotrules' own exceptions."""


class InvalidURL(RobotsError, ValueError):
    """A URL without a scheme and host, so no robots.txt governs it (S1)."""


class UnsupportedScheme(InvalidURL):
    """S5: any scheme may have a robots.txt, but only http, https and ftp can be fetched."""


class BlockedAddress(RobotsError, ValueError):
    """The address policy refused a connection: ``host`` resolves to ``address``, which is ``reason``.

    Raised, before any request, when the robots.txt URL itself resolves to an address the
    policy refuses (``Policy(public_addresses_only=True)``: loopback, private, link-local, cloud
    metadata, ...; see :mod:`robotrules.fetch.addresses`). Nothing is fetched or cached. A
    redirect to such an address is not raised: it is a redirect that cannot be followed (F3).
    """

    def __init__(self, host: str, port: int, address: str, reason: str) -> None:
        self.host = host
        self.port = port
        self.address = address
        self.reason = reason
        where = address if host == address else f"{host} ({address})"
        super().__init__(f"refused to connect to {where} port {port}: not a public address: {reason}")

    def __reduce__(self) -> tuple[type[BlockedAddress], tuple[str, int, str, str]]:
        return type(self), (self.host, self.port, self.address, self.reason)


class StoreError(RobotsError):
    """The store's backing service failed (a database error, Redis unreachable)."""


class MissingExtra(RobotsError, ImportError):
    """An optional dependency is missing; the message names the extra to install."""


def require(module: str, extra: str) -> object:
    """Import ``module`` or raise :class:`MissingExtra` naming ``robotrules[extra]``."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(f"{module} is needed for this: pip install 'robotrules[{extra}]'") from None
