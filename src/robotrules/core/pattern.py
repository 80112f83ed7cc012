"""Path patterns: normalisation of their percent-encoding and linear-time matching (R3-R5).

A pattern is matched against the start of a URL's path+params+query. ``*`` matches any run of
characters and a final ``$`` anchors the end; every other character is literal, including a
``$`` that is not last (R4, as the reference does).

Matching is greedy and never backtracks: the text before the first ``*`` must be a prefix of
the path, each later ``*``-separated segment is found at its leftmost place after the
previous one, and with ``$`` the last segment must end the path after all of them. Leftmost
placement leaves the most room for what follows, so this decides exactly what the
reference's set-of-positions automaton decides, in at most O(len(path) + len(pattern))
character steps (each ``find`` scans forward from where the previous one stopped).
Contract relied on by the step-counting tests: :meth:`Pattern.matches` touches the path only
through ``find``, ``startswith``, ``endswith``, ``len`` and ``==`` (the work is done by
:func:`segments_match`, which keeps to the same operations).

Every mode compiles ``*`` and ``$`` as operators here: in ``legacy1994`` (L3), where they are
literal, the matcher never compiles a pattern (see :func:`robotrules.core.matcher.classify`).
"""

from __future__ import annotations

import re
from typing import NamedTuple

__all__ = [
    "Pattern",
    "compile_pattern",
    "google_escape",
    "rfc_normalise_path",
    "rfc_normalise_pattern",
    "segments_match",
]

_GOOGLE_ESCAPE_RE = re.compile(r"%([0-9A-Fa-f]{2})|[\x80-\xff]")


def _google_escape_one(m: re.Match[str]) -> str:
    hexdigits = m.group(1)
    if hexdigits is not None:
        return "%" + hexdigits.upper()
    return f"%{ord(m.group()):02X}"


def google_escape(value: str) -> str:
    """R3, Google-specific: percent-encode bytes >= 0x80 and upper-case existing ``%xx`` escapes.

    ``value`` is Latin-1 text (one character per byte, as the lexer gives it). This is how the
    reference normalises allow/disallow values, so a path written in raw UTF-8 and the same path
    percent-encoded become one pattern. The URL is not touched (the caller must pass it
    percent-encoded). The result is ASCII.
    """
    if "%" not in value and value.isascii():
        return value
    return _GOOGLE_ESCAPE_RE.sub(_google_escape_one, value)


_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_HEX = frozenset(b"0123456789ABCDEFabcdef")
# Octets that are never literal in a URI (RFC 3986 section 2): they are compared percent-encoded.
# RFC 9309 section 2.2.2 (table: "?baz=https://foo.bar" -> "?baz=https%3A%2F%2Ffoo.bar"): inside the
# query, the general delimiters are data and are compared percent-encoded.
_QUERY_DELIMS = frozenset(b":/?@[]")
_MUST_ENCODE = frozenset(range(0x21)) | frozenset(b'"<>\\^`{|}%') | frozenset(range(0x7F, 0x100))


def _rfc_normalise(data: bytes, literal_operators: bool) -> str:
    """RFC 9309 section 2.2.2: one canonical octet form for both sides of a comparison.

    ``%XX`` of an unreserved character is decoded; other escapes get upper-case hex; octets
    outside ASCII, characters never literal in a URI and, after the first ``?``, the general
    delimiters ``:/?@[]`` are percent-encoded. With
    ``literal_operators`` (a URL path), ``*`` and ``$`` are encoded too, so that they equal a
    pattern's ``%2A`` / ``%24`` and never act as wildcards (section 2.2.3); in a pattern, a
    ``$`` that is not last is literal, so it is encoded as well.
    """
    out: list[str] = []
    i = 0
    n = len(data)
    in_query = False
    while i < n:
        b = data[i]
        if b == 0x25 and i + 2 < n and data[i + 1] in _HEX and data[i + 2] in _HEX:
            octet = int(data[i + 1 : i + 3], 16)
            out.append(chr(octet) if octet in _UNRESERVED else "%" + data[i + 1 : i + 3].decode().upper())
            i += 3
            continue
        if (
            b in _MUST_ENCODE
            or (b == 0x24 and (literal_operators or i != n - 1))  # only a final "$" is an operator
            or (literal_operators and b == 0x2A)
            or (in_query and b in _QUERY_DELIMS)
        ):
            out.append(f"%{b:02X}")
        else:
            out.append(chr(b))
            in_query = in_query or b == 0x3F
        i += 1
    return "".join(out)


def rfc_normalise_pattern(value: str) -> str:
    """RFC 9309: normalise an allow/disallow value (Latin-1 text); ``*`` and ``$`` stay operators."""
    return _rfc_normalise(value.encode("latin-1"), literal_operators=False)


def rfc_normalise_path(path: str) -> str:
    """RFC 9309: normalise a URL's path+params+query for comparison with normalised patterns."""
    return _rfc_normalise(path.encode("utf-8", "surrogatepass"), literal_operators=True)


class Pattern(NamedTuple):
    """A compiled path pattern. Immutable; :meth:`matches` is pure and thread-safe.

    ``segments`` are the literal runs between ``*``; ``anchored`` is a final ``$``.
    """

    text: str
    segments: tuple[str, ...]
    anchored: bool

    def matches(self, path: str) -> bool:
        """Whether the pattern matches the start of ``path`` (R3-R5); O(len(path) + len(pattern))."""
        return segments_match(self.segments, self.anchored, path)


def segments_match(segments: tuple[str, ...], anchored: bool, path: str, start: int = 0) -> bool:
    """Whether a pattern matches ``path[start:]`` from its start (R4): ``segments`` are its literal
    runs between ``*`` (at least one; empty where ``*`` are adjacent or at an end), ``anchored`` a
    final ``$``. ``start`` lets a check match a path inside its URL without copying it.

    The first segment must be a prefix of the path. Each middle segment is found at its
    leftmost place after the previous one (empty ones are skipped). Without ``anchored`` the
    last segment must then occur anywhere after them (an empty one always does); with it, the
    path must end with the last segment, and that end must not overlap the segments before
    it. A single segment is a prefix of the path, or with ``anchored`` the whole path. Each
    ``find`` starts where the previous segment ended: linear time, as the module docstring says.
    """
    first = segments[0]
    if len(segments) == 1:
        if anchored:
            return len(path) - start == len(first) and path.startswith(first, start)
        return path.startswith(first, start)
    if not path.startswith(first, start):
        return False
    pos = start + len(first)
    for seg in segments[1:-1]:
        if seg:
            found = path.find(seg, pos)
            if found < 0:
                return False
            pos = found + len(seg)
    last = segments[-1]
    if anchored:
        return path.endswith(last) and len(path) - len(last) >= pos
    return not last or path.find(last, pos) >= 0


def compile_pattern(pattern: str) -> Pattern:
    """Compile a normalised pattern: ``*`` matches any run of characters, a final ``$`` ends the path."""
    if pattern.endswith("$"):
        return _new_pattern(Pattern, (pattern, tuple(pattern[:-1].split("*")), True))
    return _new_pattern(Pattern, (pattern, tuple(pattern.split("*")), False))


_new_pattern = tuple.__new__  # Pattern(...) without the Python-level __new__ frame
