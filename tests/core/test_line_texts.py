"""``RobotsTxt.line_texts()`` reads every line as ``line_text`` quotes it, in one pass (P1: CR,
LF and CRLF end lines; bytes that are not UTF-8 replaced; a BOM kept out as the lexer keeps it)."""

from __future__ import annotations

import pytest

from robotrules import parse

BODIES = [
    b"User-agent: *\nDisallow: /a # note\n",
    b"User-agent: *\r\nDisallow: /b\rAllow: /b/c\r\n\r\nSitemap: https://x.test/s.xml",
    b"\xef\xbb\xbfUser-agent: FooBot\nDisallow: /\xe4\xf6\n",
    b"",
    b"no newline at the end",
    b"#" * 600_000 + b"\nDisallow: /past-the-limit\n",
]


@pytest.mark.parametrize("mode", ["google", "rfc9309", "legacy1994"])
@pytest.mark.parametrize("body", BODIES)
def test_line_texts_is_line_text_of_every_line(body: bytes, mode: str) -> None:
    robots = parse(body, mode=mode)
    texts = robots.line_texts()
    assert texts == [robots.line_text(line) for line in range(1, len(texts) + 1)]
    assert robots.line_text(len(texts) + 1) == ""
