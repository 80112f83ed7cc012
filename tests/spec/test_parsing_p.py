"""SPEC P1-P7 and F9: file format and parsing, as tables.

Each row: (mode, robots.txt body, agent, url, expected allowed, why). Rows for behaviour that
only Google's reference has (accepted typos, missing colon, partial BOM, ...) are marked
``google_only``; the same inputs in ``rfc9309`` mode have their own rows (P6: no typo tolerance).
Every google-mode row is cross-checked against the reference by ``test_reference_agrees``.
"""

from __future__ import annotations

import pytest

import robotrules

from ._cases import ALLOW, DISALLOW, GOOGLE, LIMIT, RFC, U, case, flatten, google_rows, oracle_allowed, pad_to

# --- P1: lines separated by CR, CR LF or LF --------------------------------------------------
P1 = flatten(
    case("P1-lf", "user-agent: *\ndisallow: /x\n", "bot", U + "/x", DISALLOW, "LF ends lines"),
    case("P1-crlf", "user-agent: *\r\ndisallow: /x\r\n", "bot", U + "/x", DISALLOW,
         "CR LF ends lines"),
    case("P1-cr", "user-agent: *\rdisallow: /x\r", "bot", U + "/x", DISALLOW,
         "a lone CR ends lines (old Mac files)"),
    case("P1-cr-allow-longer", "user-agent: *\rdisallow: /x\rallow: /x/y\r", "bot", U + "/x/y",
         ALLOW, "three CR-separated lines are three lines: the longer allow wins"),
    case("P1-mixed", "user-agent: a\r\ndisallow: /a\ruser-agent: b\ndisallow: /b\r\n", "b",
         U + "/b", DISALLOW, "CR, LF and CR LF may be mixed in one file"),
    case("P1-mixed-other-group", "user-agent: a\r\ndisallow: /a\ruser-agent: b\ndisallow: /b\r\n",
         "b", U + "/a", ALLOW, "the CR after '/a' ends the line, so 'b' starts a new group"),
    case("P1-lf-cr", "user-agent: *\n\rdisallow: /x", "bot", U + "/x", DISALLOW,
         "LF then CR is two line ends (an empty line), not a broken line"),
    case("P1-no-final-eol", "user-agent: *\ndisallow: /x", "bot", U + "/x", DISALLOW,
         "the last line needs no line end"),
    case("P1-str-body", "user-agent: *\ndisallow: /caf\u00e9\n", "bot", U + "/caf%C3%A9",
         DISALLOW, "a str body is UTF-8: 'é' becomes %C3%A9 in the pattern"),
    case("P1-bytes-body", "user-agent: *\ndisallow: /caf\u00e9\n".encode(), "bot",
         U + "/caf%C3%A9", DISALLOW, "the same body as bytes decides the same"),
)

# --- P2: only valid lines count; HTML and junk are ignored ----------------------------------
HTML = (
    "<!DOCTYPE html>\n<html>\n<head><title>robots</title></head>\n<body>\n"
    "user-agent: *\n<p>Welcome to our site!</p>\ndisallow: /private\n</body>\n</html>\n"
)
P2 = flatten(
    case("P2-html-valid-lines", HTML, "bot", U + "/private/a", DISALLOW,
         "an HTML page yields its valid lines; the tags between them are ignored"),
    case("P2-html-other-path", HTML, "bot", U + "/public", ALLOW,
         "nothing else in the HTML page is a rule"),
    case("P2-html-inline", "<html><body>user-agent: *<br>disallow: /x</body></html>", "bot",
         U + "/x", ALLOW, "directives inside an HTML line are not lines of their own"),
    case("P2-junk-in-group", "user-agent: *\nhello world\n::::\n}{\ndisallow: /x\n", "bot",
         U + "/x", DISALLOW, "junk lines inside a group are skipped, the group goes on"),
    case("P2-non-utf8-junk", b"\xff\xfe\x00u\x00s\nuser-agent: *\n\x80\x81\x82\ndisallow: /x\n",
         "bot", U + "/x", DISALLOW, "P3: non-UTF-8 junk never stops the valid lines"),
    case("P2-only-comments", "# nothing here\n# at all\n", "bot", U + "/x", ALLOW,
         "a file of comments has no rules"),
    case("P2-empty", "", "bot", U + "/x", ALLOW, "an empty file has no rules"),
)

# --- P3: BOM; non-UTF-8 bytes ----------------------------------------------------------------
P3 = flatten(
    case("P3-bom-bytes", b"\xef\xbb\xbfuser-agent: *\ndisallow: /x\n", "bot", U + "/x", DISALLOW,
         "a UTF-8 BOM before the first line is ignored"),
    case("P3-bom-str", "\ufeffuser-agent: *\ndisallow: /x\n", "bot", U + "/x", DISALLOW,
         "a str body starting with U+FEFF: the BOM is ignored"),
    case("P3-bom-not-at-start", b"user-agent: *\n\xef\xbb\xbfdisallow: /x\n", "bot", U + "/x",
         ALLOW, "only a BOM at the start of the file is skipped; elsewhere it spoils the line"),
    case("P3-partial-bom-2", b"\xef\xbbuser-agent: *\ndisallow: /x\n", "bot", U + "/x",
         DISALLOW, "the reference also skips a truncated BOM prefix (EF BB)",
         modes=GOOGLE, google_only=True),
    case("P3-partial-bom-1", b"\xefuser-agent: *\ndisallow: /x\n", "bot", U + "/x", DISALLOW,
         "the reference also skips a truncated BOM prefix (EF)", modes=GOOGLE, google_only=True),
    case("P3-latin1-pattern", b"user-agent: *\ndisallow: /caf\xe9\n", "bot", U + "/caf%E9",
         DISALLOW, "a non-UTF-8 byte in a pattern is percent-escaped byte for byte",
         modes=GOOGLE, google_only=True),
)

# --- P4: <field>:<value><#comment>, whitespace, comment lines --------------------------------
P4 = flatten(
    case("P4-trailing-comment", "user-agent: * # everyone\ndisallow: /x # secret\n", "bot",
         U + "/x", DISALLOW, "a comment after the value is dropped"),
    case("P4-comment-no-space", "user-agent: *\ndisallow: /x#c\n", "bot", U + "/xy", DISALLOW,
         "'#' starts a comment even without a space: the pattern is '/x'"),
    case("P4-comment-line-not-boundary",
         "user-agent: a\n# a comment between the agents\nuser-agent: b\ndisallow: /x\n", "a",
         U + "/x", DISALLOW, "a comment-only line is not a group boundary: a and b share rules"),
    case("P4-blank-line-between-agents", "user-agent: a\n\nuser-agent: b\ndisallow: /x\n", "a",
         U + "/x", DISALLOW, "a blank line between user-agent lines does not end the group"),
    case("P4-commented-out-rule", "user-agent: *\n# disallow: /x\n", "bot", U + "/x", ALLOW,
         "a commented-out rule is not a rule"),
    case("P4-whitespace", "  \t user-agent \t : \t * \t \n \tdisallow\t:\t/x\t \n", "bot",
         U + "/x", DISALLOW, "spaces and tabs around the line, field, colon and value are ignored"),
    case("P4-no-space-after-colon", "user-agent:*\ndisallow:/x\n", "bot", U + "/x", DISALLOW,
         "whitespace is optional (RFC 9309 5.1 foobot)"),
    case("P4-trailing-space-in-value", "user-agent: *\ndisallow: /x   \n", "bot", U + "/x",
         DISALLOW, "trailing whitespace of the value is not part of the pattern"),
    case("P4-trailing-space-not-literal", "user-agent: *\ndisallow: /x   \n", "bot", U + "/xy",
         DISALLOW, "the pattern is '/x', so '/xy' is covered too"),
)

# --- P5: field names case-insensitive; paths case-sensitive; agents case-insensitive ---------
P5 = flatten(
    case("P5-fields-upper", "USER-AGENT: *\nDISALLOW: /x\n", "bot", U + "/x", DISALLOW,
         "field names are case-insensitive"),
    case("P5-fields-mixed", "User-Agent: *\nDisAllow: /x\nALLOW: /x/y\n", "bot", U + "/x/y",
         ALLOW, "'ALLOW' is an allow line"),
    case("P5-fields-mixed-disallow", "User-Agent: *\nDisAllow: /x\nALLOW: /x/y\n", "bot",
         U + "/x/z", DISALLOW, "'DisAllow' is a disallow line"),
    case("P5-path-case-rule-upper", "user-agent: *\ndisallow: /Fish\n", "bot", U + "/fish",
         ALLOW, "paths are case-sensitive: '/Fish' does not cover '/fish'"),
    case("P5-path-case-url-upper", "user-agent: *\ndisallow: /fish\n", "bot", U + "/Fish",
         ALLOW, "paths are case-sensitive: '/fish' does not cover '/Fish'"),
    case("P5-agent-case-file", "user-agent: GoogleBot\ndisallow: /x\n", "googlebot", U + "/x",
         DISALLOW, "agent values are case-insensitive (file side)"),
    case("P5-agent-case-caller", "user-agent: googlebot\ndisallow: /x\n", "GOOGLEBOT", U + "/x",
         DISALLOW, "agent values are case-insensitive (caller side)"),
)

# --- P6: typos and a missing colon: accepted by the reference, not by RFC 9309 ---------------
TYPOS = [
    ("useragent", "useragent: *\ndisallow: /x\n"),
    ("user-space-agent", "user agent: *\ndisallow: /x\n"),
    ("dissallow", "user-agent: *\ndissallow: /x\n"),
    ("dissalow", "user-agent: *\ndissalow: /x\n"),
    ("disalow", "user-agent: *\ndisalow: /x\n"),
    ("diasllow", "user-agent: *\ndiasllow: /x\n"),
    ("disallaw", "user-agent: *\ndisallaw: /x\n"),
    ("no-colon-both", "user-agent *\ndisallow /x\n"),
    ("no-colon-disallow", "user-agent: *\ndisallow /x\n"),
    ("no-colon-tab", "user-agent: *\ndisallow\t/x\n"),
]
P6 = flatten(
    *[
        case(f"P6-{name}", body, "bot", U + "/x", DISALLOW,
             f"the reference accepts '{name}' as the intended line", modes=GOOGLE,
             google_only=True)
        for name, body in TYPOS
    ],
    *[
        case(f"P6-{name}", body, "bot", U + "/x", ALLOW,
             f"strict mode: '{name}' is not a valid line and is ignored", modes=RFC)
        for name, body in TYPOS
    ],
    case("P6-no-colon-allow", "user-agent: *\ndisallow: /x\nallow /x/y\n", "bot", U + "/x/y",
         ALLOW, "the reference accepts 'allow /x/y' without a colon", modes=GOOGLE,
         google_only=True),
    case("P6-no-colon-allow", "user-agent: *\ndisallow: /x\nallow /x/y\n", "bot", U + "/x/y",
         DISALLOW, "strict mode: 'allow /x/y' without a colon is ignored", modes=RFC),
    case("P6-no-colon-two-values", "user-agent: *\ndisallow /x /y\n", "bot", U + "/x", ALLOW,
         "without a colon the reference only accepts a single whitespace-free value",
         modes=GOOGLE, google_only=True),
    case("P6-no-separator", "user-agent: *\ndisallow/x\n", "bot", U + "/x", ALLOW,
         "'disallow/x' has neither colon nor whitespace: not a line"),
)

# --- P7: ABNF, Postel's law ------------------------------------------------------------------
P7 = flatten(
    case("P7-unknown-field-in-group", "user-agent: a\nfoo: bar\nuser-agent: b\ndisallow: /x\n",
         "a", U + "/x", DISALLOW, "an unknown field between user-agent lines ends no group"),
    case("P7-sitemap-in-group",
         "user-agent: a\nsitemap: http://example.com/s.xml\nuser-agent: b\ndisallow: /x\n", "a",
         U + "/x", DISALLOW, "a sitemap line does not terminate a group (RFC 9309 2.2.4)"),
    case("P7-value-with-space", "user-agent: *\ndisallow: /x /y\n", "bot", U + "/x", ALLOW,
         "the value is '/x /y' (inner space kept), so '/x' is not covered",
         modes=GOOGLE, google_only=True),
)

# --- F9: only the first 512,000 bytes count ---------------------------------------------------
_IN = "disallow: /in\n"
AT_LIMIT = pad_to("user-agent: *\n", LIMIT - len(_IN)) + _IN + "disallow: /out\n"
_CUT = "disallow: /abc"  # the limit falls right after '/abc' of '/abcdef'
STRADDLE = pad_to("user-agent: *\n", LIMIT - len(_CUT)) + "disallow: /abcdef\n"
# a str body whose characters fit but whose UTF-8 bytes do not: 'é' is two bytes
_MB_PAD = "# " + "\u00e9" * (LIMIT // 2 + 100) + "\n"
MULTIBYTE = "user-agent: *\n" + _MB_PAD + "disallow: /late\n"
assert len(MULTIBYTE) < LIMIT < len(MULTIBYTE.encode())

F9 = flatten(
    case("F9-last-line-inside", AT_LIMIT, "bot", U + "/in", DISALLOW,
         "a rule ending exactly at byte 512,000 counts"),
    case("F9-line-after-limit", AT_LIMIT, "bot", U + "/out", ALLOW,
         "a rule starting at byte 512,000 is ignored"),
    case("F9-straddling-line-cut", STRADDLE, "bot", U + "/abcxyz", DISALLOW,
         "a line cut by the limit keeps its first part: the pattern becomes '/abc'"),
    case("F9-straddling-line-not-whole", STRADDLE, "bot", U + "/abdef", ALLOW,
         "the cut pattern '/abc' does not cover '/abdef'"),
    case("F9-counts-bytes-not-chars", MULTIBYTE, "bot", U + "/late", ALLOW,
         "the limit counts UTF-8 bytes of a str body, not characters"),
)

ALL = flatten(P1, P2, P3, P4, P5, P6, P7, F9)


@pytest.mark.parametrize(("mode", "body", "agent", "url", "expected", "why"), ALL)
def test_parsing_rule(mode, body, agent, url, expected, why):
    """P1-P7, F9: each row pins one parsing behaviour (see its id and why)."""
    rt = robotrules.parse(body, mode=mode)
    assert rt.allowed(url, agent) is expected, why


@pytest.mark.oracle
@pytest.mark.parametrize(("mode", "body", "agent", "url", "expected", "why"), google_rows(ALL))
def test_reference_agrees(mode, body, agent, url, expected, why):
    """The google-mode expectations above are the reference's answers (SPEC: the reference
    decides in google mode)."""
    assert oracle_allowed(body, agent, url) is expected, why


def test_str_and_bytes_bodies_parse_alike():
    """P1: a str body is its UTF-8 encoding."""
    body = "user-agent: *\ndisallow: /\u00fcber\nallow: /\u00fcber/ok\n"
    for url in (U + "/%C3%BCber", U + "/%C3%BCber/ok", U + "/other"):
        assert robotrules.parse(body).allowed(url, "bot") == robotrules.parse(
            body.encode()).allowed(url, "bot")


@pytest.mark.parametrize("body", [
    b"\x00\x01\x02\xff" * 100,
    b"user-agent: \xff\xfe\ndisallow: /\xc3\n",
    "user-agent: *\ndisallow: /\ud800\n",  # lone surrogate in a str body
    b"\r" * 1000 + b"\n" * 1000,
    b":" * 5000,
    b"user-agent: *\n" + b"disallow: " + b"*" * 10000 + b"x\n",
])
@pytest.mark.parametrize("mode", ["google", "rfc9309", "legacy1994"])
def test_parser_never_raises(body, mode):
    """P3: malformed or non-UTF-8 input may parse wrongly but never crashes."""
    rt = robotrules.parse(body, mode=mode)
    assert isinstance(rt.allowed(U + "/x", "bot"), bool)


def test_unknown_mode_is_a_value_error():
    """Modes: only google, rfc9309 and legacy1994 exist."""
    with pytest.raises(ValueError):
        robotrules.parse("user-agent: *\n", mode="bing")
