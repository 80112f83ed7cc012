"""Where a robots.txt applies (S1-S5) and which part of a URL its rules see (R3).

:func:`path_params_query` extracts what Google's reference matches: the path, params and
query, never the fragment, with no normalisation (the caller passes URLs percent-encoded, as
the reference requires).

:func:`robots_scope` and :func:`robots_url` give the robots.txt that governs a URL: same
scheme, host and port; default ports equal no port (S2). The host is read as the WHATWG URL
standard's host parser reads it, so that the robots.txt fetched is the one of the host a
browser or an HTTP client would crawl (S4):

- percent-escapes in the host are decoded (UTF-8), then the host is mapped to ASCII. An ASCII
  host without ``xn--`` labels is lower-cased here. Any other host (non-ASCII, or with
  punycode labels to check) needs UTS 46 processing, which the standard library does not have:
  it is done by the ``to_ascii`` function the caller passes. :func:`robotrules.robots_url`
  passes :func:`robotrules.hosts.domain_to_ascii` (the ``idna`` package); without one, such a
  host is a ``ValueError`` here, never a guess (Python's ``"idna"`` codec is IDNA 2003, which
  maps ``straße.de`` to another domain, ``strasse.de``).
- a mapped host with a forbidden domain code point (U+0000-U+001F, space, DEL,
  ``# % / : < > ? @ [ \\ ] ^ |``) is a ``ValueError``, as in the URL standard. So are an
  empty label (``a..b``, ``.a``), a label over 63 octets and a name over 253 octets (254 with
  the trailing dot): the URL standard leaves those limits to DNS, but no DNS name is like that,
  so no robots.txt can ever be fetched for such a host.
- a trailing dot is kept (``example.com.`` is its own host, as in the URL standard, and its
  robots.txt is ``http://example.com./robots.txt``).
- a host that is an IPv4 address by the URL standard's rules (``127.1``, ``0x7f.0.0.1``,
  ``017700000001``, with or without a trailing dot) is written in dotted decimal
  (``127.0.0.1``); four decimal numbers that are not an address (``256.1.1.1``) are a
  ``ValueError`` (httpx refuses them too). Other hosts that end in a number but are no address
  (``a.1``, ``999.1``) are kept as names, although the URL standard refuses them: no other
  host maps to them, and DNS settles them (an unreachable robots.txt, F8).
- an IPv6 literal is validated and written as the URL standard serialises it: lower case, the
  first longest run of two or more zero groups compressed, IPv4-mapped addresses in hex
  (``[::ffff:102:304]``). Zone identifiers (``%25eth0``) and ``[v1.x]`` forms are refused.
- a port is decimal digits up to 65535; an empty port is no port.
- a backslash anywhere in the authority is a ``ValueError``: browsers end the host at it
  (``http://a.example\\@b.example/`` is on ``a.example``) while RFC 3986 parsers read a
  user name (and host ``b.example``), so either answer would be a guess.

Error messages quote at most about 100 characters of the URL or host, whatever their length.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import NamedTuple
from urllib.parse import unquote_to_bytes, urlsplit

__all__ = [
    "DEFAULT_PORTS",
    "MAX_HOST_LENGTH",
    "MAX_LABEL_LENGTH",
    "Scope",
    "canonical_host",
    "cut_at_fragment",
    "is_robots_url",
    "path_params_query",
    "robots_scope",
    "robots_url",
]

DEFAULT_PORTS: dict[str, int] = {"http": 80, "https": 443, "ftp": 21}
"""S2: ports that equal "no port" for their scheme."""

MAX_HOST_LENGTH = 253
"""S4: octets of a host name without its trailing dot (RFC 1035 §2.3.4, as DNS resolvers apply it)."""

MAX_LABEL_LENGTH = 63
"""S4: octets of one label of a host name (RFC 1035 §2.3.4)."""

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
    # Fast paths, exact for what they take (this runs once per check): "https://" and "http://"
    # URLs, then "letters://host/...", each with no '?', ';' or '#' in the host.
    if url.startswith("https://"):
        start = url.find("/", 8)
        host = url[8:] if start < 0 else url[8:start]
    elif url.startswith("http://"):
        start = url.find("/", 7)
        host = url[7:] if start < 0 else url[7:start]
    elif url[:1] == "/" and url[1:2] != "/":  # a bare path
        return cut_at_fragment(url) if "#" in url or "\0" in url else url
    else:
        scheme, sep, rest = url.partition("://")
        if sep and scheme.isalpha():
            host, slash, path = rest.partition("/")
            if "?" not in host and ";" not in host and "#" not in host:
                return cut_at_fragment("/" + path) if slash else "/"
        return _general_path(url)
    if "?" in host or ";" in host or "#" in host:
        return _general_path(url)
    if start < 0:  # no path at all
        return "/"
    path = url[start:]
    return cut_at_fragment(path) if "#" in path or "\0" in path else path


def cut_at_fragment(path: str) -> str:
    """``path`` up to a ``#`` or a NUL (the reference reads the URL as a C string)."""
    if "#" in path:
        path = path[: path.index("#")]
    if "\0" in path:
        path = path[: path.index("\0")]
    return path


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
    """S1: the origin a robots.txt governs: scheme, ASCII (punycode) lower-case host, port.

    ``host`` is a domain name, a dotted-decimal IPv4 address or an IPv6 address without its
    brackets; ``port`` is the effective port (the scheme's default when the URL has none).
    """

    scheme: str
    host: str
    port: int | None

    def robots_url(self) -> str:
        """The ``/robots.txt`` URL of this origin, default port omitted (S1, S2)."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        port = "" if self.port is None or DEFAULT_PORTS.get(self.scheme) == self.port else f":{self.port}"
        return f"{self.scheme}://{host}{port}/robots.txt"


# -- messages ------------------------------------------------------------------------------

_SHOWN = 100


def _shown(text: str) -> str:
    """``text`` quoted for an error message, cut to about 100 characters (hosts can be megabytes)."""
    if len(text) <= _SHOWN:
        shown = repr(text)
        if len(shown) <= _SHOWN:
            return shown
    return f"{repr(text[:_SHOWN])[: _SHOWN - 20]}... ({len(text)} characters)"


# -- hosts ---------------------------------------------------------------------------------

_FORBIDDEN_IN_DOMAIN = frozenset(
    [chr(c) for c in range(0x20)] + [" ", "#", "%", "/", ":", "<", ">", "?", "@", "[", "\\", "]", "^", "|", "\x7f"]
)
"""The URL standard's forbidden domain code points: its forbidden host code points, the controls U+0000-U+001F, % and DEL."""

_DECIMAL = frozenset("0123456789")
_OCTAL = frozenset("01234567")
_HEX = frozenset("0123456789abcdefABCDEF")

_MAX_INPUT_HOST = 1024
"""Characters of a (percent-decoded) host that are read at all; a longer one is refused before any
work. Any name DNS can hold is far shorter; only characters UTS 46 drops (soft hyphens, ...)
could pad one this far, and the ``idna`` package refuses such input too."""


def _ipv4_number(part: str) -> int | None:
    """The URL standard's IPv4 number parser: decimal, ``0x`` hex or ``0`` octal; None if not one."""
    if not part:
        return None
    digits = _DECIMAL
    radix = 10
    if part[:2] in ("0x", "0X"):
        part, digits, radix = part[2:], _HEX, 16
        if not part:
            return 0
    elif len(part) > 1 and part[0] == "0":
        part, digits, radix = part[1:], _OCTAL, 8
    for char in part:
        if char not in digits:
            return None
    return int(part, radix)


def _ipv4(host: str) -> str | None:
    """The dotted-decimal form of ``host`` when the URL standard reads it as an IPv4 address, else None."""
    parts = host.split(".")
    if len(parts) > 1 and not parts[-1]:
        parts.pop()  # one trailing dot
    if len(parts) > 4:
        return None
    numbers: list[int] = []
    for part in parts:
        number = _ipv4_number(part)
        if number is None:
            return None
        numbers.append(number)
    last = numbers.pop()
    if any(n > 255 for n in numbers) or last >= 256 ** (4 - len(numbers)):
        return None
    address = last
    for i, n in enumerate(numbers):
        address += n << (8 * (3 - i))
    return f"{address >> 24}.{(address >> 16) & 255}.{(address >> 8) & 255}.{address & 255}"


def _ipv6(literal: str) -> str:
    """S4: the IPv6 address in ``[literal]`` as the URL standard serialises it; ``ValueError`` if it is not one."""
    if "%" in literal or not literal.isascii():  # zone ids are not part of URLs; ipaddress takes them
        raise ValueError(f"malformed IPv6 address {_shown(literal)}")
    try:
        value = int(ipaddress.IPv6Address(literal))
    except ValueError:
        raise ValueError(f"malformed IPv6 address {_shown(literal)}") from None
    pieces = [(value >> (16 * (7 - i))) & 0xFFFF for i in range(8)]
    start, length, i = -1, 1, 0  # the first longest run of at least two zero pieces
    while i < 8:
        if pieces[i] == 0:
            j = i
            while j < 8 and pieces[j] == 0:
                j += 1
            if j - i > length:
                start, length = i, j - i
            i = j
        else:
            i += 1
    if start < 0:
        return ":".join(f"{p:x}" for p in pieces)
    head = ":".join(f"{p:x}" for p in pieces[:start])
    tail = ":".join(f"{p:x}" for p in pieces[start + length :])
    return f"{head}::{tail}"


def _check_domain(host: str) -> None:
    """S4: ``ValueError`` unless ``host`` (ASCII, mapped, no forbidden code point) is a name DNS could hold."""
    name = host[:-1] if host.endswith(".") else host
    if len(name) > MAX_HOST_LENGTH:
        raise ValueError(f"host name of {len(name)} octets is longer than DNS allows ({MAX_HOST_LENGTH}): {_shown(host)}")
    for label in name.split("."):
        if not label:
            raise ValueError(f"empty label in host {_shown(host)}")
        if len(label) > MAX_LABEL_LENGTH:
            raise ValueError(
                f"label of {len(label)} octets is longer than DNS allows ({MAX_LABEL_LENGTH}) in host {_shown(host)}"
            )


def canonical_host(host: str, to_ascii: Callable[[str], str] | None = None) -> str:
    """S4: ``host`` as it appears in a URL (no userinfo, no port) in its canonical ASCII form.

    The URL standard's host parser (see the module docstring): IPv6 literals in brackets,
    percent-decoding, the mapping to ASCII, the forbidden code points, IPv4 in dotted decimal,
    and the DNS lengths. ``to_ascii`` maps a host that is not ASCII, or has an ``xn--`` label,
    to its ASCII form (UTS 46; :func:`robotrules.hosts.domain_to_ascii`), raising
    ``ValueError`` when it cannot; without it such a host is a ``ValueError`` (an ASCII host
    with ``xn--`` labels is then lower-cased unchecked). Pure; raises only ``ValueError``.
    """
    if host.startswith("["):
        if not host.endswith("]"):
            raise ValueError(f"malformed IPv6 address {_shown(host)}")
        return _ipv6(host[1:-1])
    if "%" in host:
        try:
            host = unquote_to_bytes(host).decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"host {_shown(host)} is not UTF-8 once percent-decoded") from None
    if not host:
        raise ValueError("empty host")
    if len(host) > _MAX_INPUT_HOST:
        raise ValueError(f"host name of {len(host)} characters is longer than DNS allows: {_shown(host)}")
    if host.isascii():
        host = host.lower()
        if "xn--" in host and to_ascii is not None:
            host = _mapped(host, to_ascii)
    elif to_ascii is None:
        raise ValueError(f"the host {_shown(host)} needs UTS 46 mapping: use robotrules.robots_url (robotrules.hosts)")
    else:
        host = _mapped(host, to_ascii)
    for char in host:  # before the IPv4 reading, as in the URL standard
        if char in _FORBIDDEN_IN_DOMAIN:
            raise ValueError(f"forbidden character {char!r} in host {_shown(host)}")
    address = _ipv4(host)
    if address is not None:
        return address
    labels = (host[:-1] if host.endswith(".") else host).split(".")
    if len(labels) == 4 and all(label and set(label) <= _DECIMAL for label in labels):
        raise ValueError(f"invalid IPv4 address {_shown(host)}")  # as httpx refuses it
    _check_domain(host)
    return host


def _mapped(host: str, to_ascii: Callable[[str], str]) -> str:
    """``to_ascii(host)``, held to its contract: an ASCII string, or ``ValueError``."""
    mapped = to_ascii(host)
    if not mapped.isascii():
        raise ValueError(f"the host {_shown(host)} did not map to ASCII")
    if not mapped:
        raise ValueError(f"the host {_shown(host)} maps to an empty name")
    return mapped


# -- URLs ----------------------------------------------------------------------------------

_STRIPPED = "".join(c for c in map(chr, range(0x3001)) if c <= " " or c.isspace())
"""Leading and trailing characters ignored around a URL: U+0000-U+0020 (the URL
standard), and the other white space ``str.strip()`` removes."""

_LETTERS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_SCHEME_CHARS = _LETTERS | frozenset("0123456789+-.")


def _authority(url: str) -> tuple[str, str]:
    """The lower-case scheme and the authority (``user@host:port``) of an absolute URL; ``ValueError`` if none."""
    url = url.strip(_STRIPPED)
    if "\t" in url or "\n" in url or "\r" in url:  # removed anywhere (the URL standard; urlsplit)
        url = url.replace("\t", "").replace("\n", "").replace("\r", "")
    colon = url.find(":")
    scheme = url[:colon] if colon > 0 else ""
    if not scheme or scheme[0] not in _LETTERS or any(c not in _SCHEME_CHARS for c in scheme):
        raise ValueError(f"not an absolute URL with a host: {_shown(url)}")
    if url[colon + 1 : colon + 3] != "//":
        raise ValueError(f"not an absolute URL with a host: {_shown(url)}")
    start = colon + 3
    end = len(url)
    for stop in "/?#":
        found = url.find(stop, start, end)
        if found >= 0:
            end = found
    authority = url[start:end]
    if not authority:
        raise ValueError(f"not an absolute URL with a host: {_shown(url)}")
    return scheme.lower(), authority


def robots_scope(url: str, to_ascii: Callable[[str], str] | None = None) -> Scope:
    """The :class:`Scope` (origin) of an absolute URL (S1-S5); ``ValueError`` for a URL without a usable one.

    ``to_ascii`` maps non-ASCII hosts (see :func:`canonical_host`); :func:`robotrules.robots_scope`
    passes the UTS 46 mapping. Pure; raises ``TypeError`` for a non-str, else only ``ValueError``.
    """
    if not isinstance(url, str):
        raise TypeError(f"url must be str, not {type(url).__name__}")
    scheme, authority = _authority(url)
    if "\\" in authority:
        raise ValueError(f"a backslash in the authority of {_shown(url)}: browsers end the host there")
    hostport = authority.rpartition("@")[2]
    if hostport.startswith("["):
        close = hostport.find("]")
        if close < 0:
            raise ValueError(f"malformed IPv6 address in {_shown(url)}")
        raw_host, after = hostport[: close + 1], hostport[close + 1 :]
        if after and after[0] != ":":
            raise ValueError(f"malformed IPv6 address in {_shown(url)}")
        raw_port = after[1:]
        has_port = bool(after)
    else:
        raw_host, colon, raw_port = hostport.partition(":")
        has_port = bool(colon)
    if not raw_host:
        raise ValueError(f"not an absolute URL with a host: {_shown(url)}")
    port: int | None = None
    if has_port and raw_port:
        if not (raw_port.isascii() and raw_port.isdigit()):
            raise ValueError(f"invalid port {_shown(raw_port)} in {_shown(url)}")
        digits = raw_port.lstrip("0")
        if len(digits) > 5 or int(digits or "0") > 65535:
            raise ValueError(f"port {_shown(raw_port)} out of range 0-65535 in {_shown(url)}")
        port = int(digits or "0")
    try:
        host = canonical_host(raw_host, to_ascii)
    except ValueError as exc:
        raise ValueError(f"invalid host in {_shown(url)}: {exc}") from None
    if port is None:
        port = DEFAULT_PORTS.get(scheme)
    return Scope(scheme, host, port)


def robots_url(url: str, to_ascii: Callable[[str], str] | None = None) -> str:
    """S1-S5: the robots.txt URL that governs ``url`` (e.g. "https://example.com/robots.txt").

    ``to_ascii`` as for :func:`robots_scope`; :func:`robotrules.robots_url` passes the UTS 46 mapping.
    """
    return robots_scope(url, to_ascii).robots_url()


def is_robots_url(url: str) -> bool:
    """S3: whether ``url`` is a robots.txt location (``/robots.txt`` at the top level, no query)."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    return bool(parts.scheme and parts.netloc) and parts.path == "/robots.txt" and not parts.query
