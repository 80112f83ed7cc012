"""Bytes to line events: the one tokeniser that the model builder and the linter share.

P1: lines end at CR, LF or CR LF. P3: a leading BOM is skipped. P4: ``#`` starts a comment
anywhere; surrounding ASCII whitespace is dropped; a comment-only line yields no event.
P5/P6: field names are case-insensitive; in ``google`` mode the reference's typos, prefix
matches and missing colons are accepted and flagged. F9: only the first 512,000 bytes count.

The body is decoded as Latin-1: one character per byte, so every length, cut and comparison
is the reference's byte-wise one, and ASCII-only operations (:data:`WS`, ``lower``) see what
C sees. (Unicode notions such as ``str.strip()`` without arguments would not: they treat
``\\x85`` or ``\\xa0`` as blanks, so this module always names the ASCII blanks.) Values are
turned into real text only where a caller sees them (:func:`robotrules.core.model.text`).

Lines that Google's C buffer would cut (over 16,663 bytes, or at a NUL) are cut before
tokenising (:func:`split_lines` is :func:`uncut_lines` then :func:`cut_lines`); the linter keeps
the uncut lines of the same split to report what was cut. An event is a plain tuple
``(line, kind, key, value, flags)``. The lexer never raises on any input.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from robotrules.core.modes import Mode

__all__ = [
    "ALLOW",
    "BLANK",
    "DISALLOW",
    "F_MISSING_COLON",
    "F_PREFIX",
    "F_TYPO",
    "INVALID",
    "MAX_LINE_BYTES",
    "OTHER",
    "SITEMAP",
    "SIZE_LIMIT",
    "USER_AGENT",
    "WS",
    "Lexed",
    "cut_lines",
    "decode",
    "fast_keys",
    "lex",
    "skip_bom",
    "split_lines",
    "to_bytes",
    "tokenize_line",
    "uncut_lines",
]

SIZE_LIMIT: Final = 512_000
"""F9: Google reads the first 500 KiB (512,000 bytes) of a robots.txt; the rest is ignored."""

MAX_LINE_BYTES: Final = 16_663
"""Google-specific: the reference keeps at most this many bytes of a line (2083 * 8 - 1)."""

WS: Final = " \t\n\r\x0b\x0c"
"""P4: the blanks stripped around lines, fields and values (C's isspace, as the reference)."""

# Event kinds. The two rule kinds come first so that "kind <= ALLOW" means "a rule" and
# "kind - DISALLOW" is 1 for allow, 0 for disallow (the model builder relies on this).
DISALLOW: Final = 1
ALLOW: Final = 2
USER_AGENT: Final = 3
SITEMAP: Final = 4
OTHER: Final = 5
INVALID: Final = 6
BLANK: Final = 7

# Event flags (bit set).
F_TYPO: Final = 1  # field accepted as a frequent typo (P6, google only)
F_PREFIX: Final = 2  # field only starts with a known name, e.g. "user-agentx" (P6, google only)
F_MISSING_COLON: Final = 4  # whitespace stood for the colon (P6, google only)

_BOM = b"\xef\xbb\xbf"

_EXACT: dict[str, int] = {
    "user-agent": USER_AGENT,
    "allow": ALLOW,
    "disallow": DISALLOW,
    "sitemap": SITEMAP,
}

# (lower-case name, kind, is a typo). Google-specific (P6): the reference's accepted spellings.
_GOOGLE_NAMES: tuple[tuple[str, int, bool], ...] = (
    ("user-agent", USER_AGENT, False),
    ("useragent", USER_AGENT, True),
    ("user agent", USER_AGENT, True),
    ("allow", ALLOW, False),
    ("disallow", DISALLOW, False),
    ("dissallow", DISALLOW, True),
    ("dissalow", DISALLOW, True),
    ("disalow", DISALLOW, True),
    ("diasllow", DISALLOW, True),
    ("disallaw", DISALLOW, True),
    ("sitemap", SITEMAP, False),
    ("site-map", SITEMAP, True),
)


class Lexed(NamedTuple):
    """The events of one file and facts about the whole file (the linter reports its BOM)."""

    events: list[tuple[int, int, str, str, int]]
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


def skip_bom(data: bytes, mode: Mode) -> int:
    """P3: how many leading bytes are (part of) a UTF-8 BOM and skipped."""
    if mode.skip_partial_bom:
        # Google-specific (P3): any leading prefix of the BOM is skipped.
        n = 0
        while n < 3 and n < len(data) and data[n] == _BOM[n]:
            n += 1
        return n
    return 3 if data.startswith(_BOM) else 0


def decode(body: bytes, mode: Mode) -> tuple[str, int]:
    """The counted part of ``body`` (F9) as Latin-1 text without its BOM (P3), and the BOM's size."""
    data = body if len(body) <= SIZE_LIMIT else body[:SIZE_LIMIT]  # compiled code's slices always copy
    bom = skip_bom(data, mode)
    return (data[bom:] if bom else data).decode("latin-1"), bom


def split_lines(text: str, mode: Mode) -> list[str]:
    """P1: the lines of ``text`` as the parser reads them: :func:`uncut_lines`, then :func:`cut_lines`."""
    return cut_lines(uncut_lines(text), text, mode)


def uncut_lines(text: str) -> list[str]:
    """P1: the lines of ``text``; CR LF, CR and LF all end a line (nothing else does). Nothing is cut."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def cut_lines(lines: list[str], text: str, mode: Mode) -> list[str]:
    """The ``lines`` of ``text`` (:func:`uncut_lines`) as the mode reads them: ``lines`` itself when
    nothing is cut, else a new list (so the linter keeps the uncut lines to report what was cut).

    Google-specific (``c_string_lines``): the reference holds a line in a C buffer of 16,663
    bytes and reads it as a C string, so a longer line is cut and a NUL ends it.
    """
    if mode.c_string_lines:
        if len(text) > MAX_LINE_BYTES and max(map(len, lines)) > MAX_LINE_BYTES:
            lines = [line[:MAX_LINE_BYTES] for line in lines]
        if "\0" in text:
            lines = [line.partition("\0")[0] for line in lines]
    return lines


def _classify(lower_key: str, mode: Mode) -> tuple[int, int]:
    """Kind and flags of a field name that is not exactly a standard name the mode accepts."""
    if mode.field_prefix_match:
        for name, kind, typo in _GOOGLE_NAMES:
            if (typo and not mode.accept_typos) or not lower_key.startswith(name):
                continue
            flags = F_TYPO if typo else 0
            if len(lower_key) != len(name):
                flags |= F_PREFIX
            return kind, flags
    return OTHER, 0


def _split_missing_colon(line: str) -> tuple[str, str] | None:
    """Google-specific (P6): "key value" with exactly two words separated by spaces or tabs."""
    cut = -1
    for blank in (" ", "\t"):
        i = line.find(blank)
        if i >= 0 and (cut < 0 or i < cut):
            cut = i
    if cut < 0:
        return None
    value = line[cut + 1 :].lstrip(" \t")
    if " " in value or "\t" in value:
        return None
    return line[:cut].rstrip(WS), value.strip(WS)


_FAST_KEYS: dict[str, dict[str, int]] = {}


def fast_keys(mode: Mode) -> dict[str, int]:
    """Usual spellings of the standard fields that ``mode`` accepts ("Disallow", "user-agent", ...).

    A line ``<one of these>:<value>`` tokenises as (kind, key, value-before-'#', stripped), which
    is what :func:`tokenize_line` gives for it: readers may take that shortcut.
    """
    keys = _FAST_KEYS.get(mode.name)
    if keys is None:
        keys = {}
        for name, kind in _EXACT.items():
            if kind == ALLOW and not mode.allow_rules:
                continue  # 1994: "allow" is an unknown field, left to the general path
            for spelling in (name, name.upper(), name.capitalize(), name.title()):
                keys[spelling] = kind
        _FAST_KEYS[mode.name] = keys
    return keys


def tokenize_line(n: int, line: str, mode: Mode) -> tuple[int, int, str, str, int] | None:
    """One line to one event (P2, P4, P6): comment cut, blanks stripped, key and value split.

    None for a line that holds nothing (empty or comment only), except that a blank line is a
    BLANK event in modes where it ends a record (L1).
    """
    hash_at = line.find("#")
    if hash_at >= 0:
        line = line[:hash_at]
    line = line.strip(WS)
    if not line:
        return (n, BLANK, "", "", 0) if mode.blank_line_ends_record and hash_at < 0 else None
    flags = 0
    colon = line.find(":")
    if colon >= 0:
        key = line[:colon].rstrip(WS)
        value = line[colon + 1 :].lstrip(WS)
    else:
        split = _split_missing_colon(line) if mode.accept_missing_colon else None
        if split is None:
            return (n, INVALID, line, "", 0)
        key, value = split
        flags = F_MISSING_COLON
    if not key:
        return (n, INVALID, line, "", 0)
    lower = key.lower()  # Latin-1 letters never lower-case into ASCII: as C's ASCII tolower here
    kind = _EXACT.get(lower)
    if kind is None or (kind == ALLOW and not mode.allow_rules):
        kind, extra = _classify(lower, mode)
        flags |= extra
    return (n, kind, key, value, flags)


def lex(body: bytes, mode: Mode) -> Lexed:
    """Split ``body`` into directive events in file order (P1-P7, F9). Never raises; linear time.

    This is the general path, for tools and tests. The model builder reads lines itself with a
    fast path for the usual spellings and :func:`tokenize_line` for the rest, with the same
    events; the linter takes its events from that pass
    (:func:`~robotrules.core.model.build_model_from_lines`) rather than lexing again.
    """
    text, bom = decode(body, mode)
    events: list[tuple[int, int, str, str, int]] = []
    lines = split_lines(text, mode)
    for n, line in enumerate(lines, 1):
        event = tokenize_line(n, line, mode)
        if event is not None:
            events.append(event)
    return Lexed(events, bom, len(body), len(body) > SIZE_LIMIT, len(lines))
