"""Bytes to line events: the one tokeniser that the model, the matcher and the linter share.

P1: lines end at CR, LF or CR LF. P3: a leading BOM is skipped. P4: ``#`` starts a comment
anywhere; surrounding ASCII whitespace is dropped; a comment-only line yields no event.
P5/P6: field names are case-insensitive; in ``google`` mode the reference's typos, prefix
matches and missing colons are accepted and flagged. F9: only the first 512,000 bytes count.

An event is a plain tuple ``(line, kind, key, value, flags)`` (bytes for key and value) so
that lexing a large file allocates as little as possible; the consumers decode what they keep.
The lexer never raises on any input.
"""

from __future__ import annotations

from typing import NamedTuple

from robotrules.core.modes import Mode

__all__ = [
    "SIZE_LIMIT",
    "MAX_LINE_BYTES",
    "USER_AGENT",
    "ALLOW",
    "DISALLOW",
    "SITEMAP",
    "OTHER",
    "INVALID",
    "BLANK",
    "F_TYPO",
    "F_PREFIX",
    "F_MISSING_COLON",
    "F_TRUNCATED",
    "F_NUL",
    "Lexed",
    "lex",
    "to_bytes",
]

SIZE_LIMIT = 512_000
"""F9: Google reads the first 500 KiB (512,000 bytes) of a robots.txt; the rest is ignored."""

MAX_LINE_BYTES = 16_663
"""Google-specific: the reference keeps at most this many bytes of a line (2083 * 8 - 1)."""

# Event kinds.
USER_AGENT, ALLOW, DISALLOW, SITEMAP, OTHER, INVALID, BLANK = range(1, 8)

# Event flags (bit set).
F_TYPO = 1  # field accepted as a frequent typo (P6, google only)
F_PREFIX = 2  # field only starts with a known name, e.g. "user-agentx" (P6, google only)
F_MISSING_COLON = 4  # whitespace stood for the colon (P6, google only)
F_TRUNCATED = 8  # line longer than MAX_LINE_BYTES was cut (google only)
F_NUL = 16  # a NUL byte ended the line early (google only)

_BOM = b"\xef\xbb\xbf"

_EXACT: dict[bytes, int] = {
    b"user-agent": USER_AGENT,
    b"allow": ALLOW,
    b"disallow": DISALLOW,
    b"sitemap": SITEMAP,
}

# (lower-case name, kind, is a typo). Google-specific (P6): the reference's accepted spellings.
_GOOGLE_NAMES: tuple[tuple[bytes, int, bool], ...] = (
    (b"user-agent", USER_AGENT, False),
    (b"useragent", USER_AGENT, True),
    (b"user agent", USER_AGENT, True),
    (b"allow", ALLOW, False),
    (b"disallow", DISALLOW, False),
    (b"dissallow", DISALLOW, True),
    (b"dissalow", DISALLOW, True),
    (b"disalow", DISALLOW, True),
    (b"diasllow", DISALLOW, True),
    (b"disallaw", DISALLOW, True),
    (b"sitemap", SITEMAP, False),
    (b"site-map", SITEMAP, True),
)


class Lexed(NamedTuple):
    """The events of one file plus the file-level facts the linter reports."""

    events: list[tuple[int, int, bytes, bytes, int]]
    bom_bytes: int  # how many leading BOM bytes were skipped (P3)
    size: int  # size of the whole input in bytes
    over_limit: bool  # input was longer than SIZE_LIMIT (F9)
    lines: int  # number of lines read


def to_bytes(body: bytes | bytearray | memoryview | str) -> bytes:
    """The bytes of a robots.txt body: ``str`` is encoded as UTF-8 (lone surrogates kept, P3)."""
    if isinstance(body, bytes):
        return body
    if isinstance(body, str):
        return body.encode("utf-8", "surrogatepass")
    if isinstance(body, (bytearray, memoryview)):
        return bytes(body)
    raise TypeError(f"robots.txt body must be bytes or str, not {type(body).__name__}")


def _classify(lower_key: bytes, mode: Mode) -> tuple[int, int]:
    """Kind and flags of a field name that is not exactly one of the four standard names."""
    if mode.field_prefix_match:
        for name, kind, typo in _GOOGLE_NAMES:
            if (typo and not mode.accept_typos) or not lower_key.startswith(name):
                continue
            flags = F_TYPO if typo else 0
            if len(lower_key) != len(name):
                flags |= F_PREFIX
            return kind, flags
    return OTHER, 0


def _split_missing_colon(line: bytes) -> tuple[bytes, bytes] | None:
    """Google-specific (P6): "key value" with exactly two whitespace-separated words."""
    cut = -1
    for ws in (b" ", b"\t"):
        i = line.find(ws)
        if i >= 0 and (cut < 0 or i < cut):
            cut = i
    if cut < 0:
        return None
    value = line[cut + 1 :].lstrip(b" \t")
    if b" " in value or b"\t" in value:
        return None
    return line[:cut].rstrip(), value


def lex(body: bytes, mode: Mode) -> Lexed:
    """Split ``body`` into directive events in file order (P1-P7, F9). Never raises."""
    size = len(body)
    data = body[:SIZE_LIMIT] if size > SIZE_LIMIT else body
    bom = 0
    if mode.skip_partial_bom:
        # Google-specific (P3): any leading prefix of the BOM is skipped.
        while bom < 3 and bom < len(data) and data[bom] == _BOM[bom]:
            bom += 1
    elif data.startswith(_BOM):
        bom = 3
    if bom:
        data = data[bom:]

    events: list[tuple[int, int, bytes, bytes, int]] = []
    append = events.append
    c_lines = mode.c_string_lines
    blank_ends = mode.blank_line_ends_record
    missing_colon = mode.accept_missing_colon
    exact = _EXACT
    lines = data.splitlines()
    n = 0
    for n, line in enumerate(lines, 1):  # noqa: B007 - n is used after the loop
        if not line:
            if blank_ends:
                append((n, BLANK, b"", b"", 0))
            continue
        flags = 0
        if c_lines:
            if len(line) > MAX_LINE_BYTES:
                line = line[:MAX_LINE_BYTES]
                flags = F_TRUNCATED
            if b"\0" in line:
                line = line[: line.index(b"\0")]
                flags |= F_NUL
        hash_at = line.find(b"#")
        if hash_at >= 0:
            line = line[:hash_at]
        line = line.strip()
        if not line:
            if blank_ends and hash_at < 0:
                append((n, BLANK, b"", b"", 0))
            continue
        colon = line.find(b":")
        if colon >= 0:
            key = line[:colon].rstrip()
            value = line[colon + 1 :].lstrip()
        else:
            split = _split_missing_colon(line) if missing_colon else None
            if split is None:
                append((n, INVALID, line, b"", flags))
                continue
            key, value = split
            value = value.strip()
            flags |= F_MISSING_COLON
        if not key:
            append((n, INVALID, line, b"", flags))
            continue
        lower = key.lower()
        kind = exact.get(lower)
        if kind is None:
            kind, extra = _classify(lower, mode)
            flags |= extra
        append((n, kind, key, value, flags))
    # The reference counts a final line after the last line break; it can hold nothing.
    return Lexed(events, bom, size, size > SIZE_LIMIT, n)
