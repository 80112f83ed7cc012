"""The exceptions robotrules raises, all in one tree::

    RobotsError                      base of everything below
    ├── InvalidURL (ValueError)      not an absolute URL with a host (S1), or no scheme to fetch
    │   └── UnsupportedScheme        a scheme other than http, https and ftp (S5)
    ├── StoreError                   the backing store (SQLite, Redis) failed; the client logs it
    │                                and goes on without the store
    └── MissingExtra (ImportError)   an optional part is not installed: "pip install robotrules[x]"

Network failures are never raised by the client: they are answers (F5, F8). The parser never
raises on any body (DESIGN 10).
"""

from __future__ import annotations

__all__ = ["InvalidURL", "MissingExtra", "RobotsError", "StoreError", "UnsupportedScheme", "require"]


class RobotsError(Exception):
    """Base class of robotrules' own exceptions."""


class InvalidURL(RobotsError, ValueError):
    """A URL without a scheme and host, so no robots.txt governs it (S1)."""


class UnsupportedScheme(InvalidURL):
    """S5: any scheme may have a robots.txt, but only http, https and ftp can be fetched."""


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
