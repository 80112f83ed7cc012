"""Where a robots.txt applies (S1-S5) and which part of a URL its rules see (R3).

:func:`path_params_query` extracts what Google's reference matches: the path, params and
query, never the fragment, with no normalisation (the caller passes URLs percent-encoded, as
the reference requires). :func:`robots_url` and :func:`robots_scope` give the robots.txt that
governs a URL: same scheme, host and port; default ports equal no port; hosts compare
case-insensitively and an IDN host equals its punycode form.
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import urlsplit

__all__ = [
    "DEFAULT_PORTS",
    "Scope",
    "is_robots_url",
    "path_params_query",
    "robots_scope",
    "robots_url",
    "same_scope",
]

DEFAULT_PORTS: dict[str, int] = {"http": 80, "https": 443, "ftp": 21}
"""S2: ports that equal "no port" for their scheme."""

# Up to where the path starts: optional "//", an optional "scheme://" (only when no '/', '?' or
# ';' comes before it), then the authority. Linear: no nested quantifiers.
_BEFORE_PATH = re.compile(r"(?://)?(?:[^/?;]*://)?[^/?;]*")


def path_params_query(url: str) -> str:
    """R3: the path+params+query of ``url`` as the reference extracts it; "/" when there is none.

    ``url`` may be absolute ("https://h/p?q"), scheme-relative ("//h/p") or a bare path
    ("/p"). A ``#`` before the path means the path is "/"; a path starting with ``?`` or ``;``
    gets a leading "/". Google-specific: the reference sees the URL as a C string, so a NUL
    ends it. Pure; never raises.
    """
    # Fast path, exact for what it takes: "letters://host/..." with no '?', ';' or '#' in host.
    scheme, sep, rest = url.partition("://")
    if sep and scheme.isalpha():
        host, slash, path = rest.partition("/")
        if "?" not in host and ";" not in host and "#" not in host:
            if not slash:  # "https://host": no path at all
                return "/"
            if "#" in path:
                path = path[: path.index("#")]
            if "\0" in path:
                path = path[: path.index("\0")]
            return "/" + path
    return _general_path(url)


def _general_path(url: str) -> str:
    """:func:`path_params_query` for any string (the reference's rules, step by step)."""
    start = _BEFORE_PATH.match(url).end()  # type: ignore[union-attr]  # always matches
    if start == len(url) or url.find("#", 0, start) >= 0:
        return "/"
    end = url.find("#", start)
    path = url[start:] if end < 0 else url[start:end]
    if path[0] != "/":
        path = "/" + path
    if "\0" in path:
        path = path[: path.index("\0")]
    return path


class Scope(NamedTuple):
    """S1: the origin a robots.txt governs: scheme, ASCII (punycode) lower-case host, port."""

    scheme: str
    host: str
    port: int | None

    def robots_url(self) -> str:
        """The ``/robots.txt`` URL of this origin, default port omitted (S1, S2)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        port = "" if self.port is None or DEFAULT_PORTS.get(self.scheme) == self.port else f":{self.port}"
        return f"{self.scheme}://{host}{port}/robots.txt"


def _ascii_host(host: str) -> str:
    """S4: lower-case the host and convert IDN labels to punycode; ``ValueError`` if it cannot be."""
    if host.isascii():
        return host.lower()
    try:
        return host.encode("idna").decode("ascii").lower()
    except UnicodeError as exc:
        raise ValueError(f"invalid internationalised host name {host!r}: {exc}") from None


def robots_scope(url: str) -> Scope:
    """The :class:`Scope` (origin) of an absolute URL (S1-S5). ``ValueError`` for a URL without one."""
    if not isinstance(url, str):
        raise TypeError(f"url must be str, not {type(url).__name__}")
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"invalid URL {url!r}: {exc}") from None
    scheme = parts.scheme.lower()
    host = parts.hostname
    if not scheme or not host:
        raise ValueError(f"not an absolute URL with a host: {url!r}")
    host = _ascii_host(host)
    if port is None:
        port = DEFAULT_PORTS.get(scheme)
    return Scope(scheme, host, port)


def robots_url(url: str) -> str:
    """S1-S5: the robots.txt URL that governs ``url`` (e.g. "https://example.com/robots.txt")."""
    return robots_scope(url).robots_url()


def same_scope(url_a: str, url_b: str) -> bool:
    """S1-S4: whether one robots.txt governs both URLs (same scheme, host and effective port)."""
    return robots_scope(url_a) == robots_scope(url_b)


def is_robots_url(url: str) -> bool:
    """S3: whether ``url`` is a robots.txt location (``/robots.txt`` at the top level, no query)."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    return bool(parts.scheme and parts.netloc) and parts.path == "/robots.txt" and not parts.query
