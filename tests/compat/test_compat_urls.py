"""One URL normalisation for every compat surface (issue #22, item 2): a URL is matched as it goes on
the wire (R3), whether it reaches ``compat.RobotFileParser.can_fetch`` or the Scrapy backend's
``RobotRulesParser.allowed``, raw or percent-encoded, ``str`` or ``bytes``.

The table is decided by both surfaces; the decision on the encoded form is checked against
Google's reference (``jwm.robotstxt``), and where Scrapy's default backend (Protego) answers
otherwise, the row says why.
"""

from __future__ import annotations

from typing import Any

import pytest

from robotrules.compat import RobotFileParser
from robotrules.compat._urls import wire_url

BODY = """User-agent: *
Disallow: /wiki/Käyttäjä:
Disallow: /search?q=ä
Disallow: /%7Ejoe/
Disallow: /caf%C3%A9/
"""
"""Rules written with raw UTF-8 and with percent-escapes (R3: both must match the same URLs)."""

AGENT = "FooBot/1.0"
SITE = "https://site.local"

# (url, allowed, protego_agrees): the verdict of both surfaces; whether Scrapy's Protego backend gives it too
TABLE: list[Any] = [
    pytest.param(f"{SITE}/wiki/Käyttäjä:", False, True, id="non-ascii-path"),
    pytest.param(f"{SITE}/wiki/K%C3%A4ytt%C3%A4j%C3%A4:", False, True, id="non-ascii-path-encoded"),
    pytest.param("/wiki/Käyttäjä:", False, True, id="non-ascii-bare-path"),
    pytest.param(f"{SITE}/wiki/Käyttäjä", True, True, id="non-ascii-path-not-matching"),
    pytest.param(f"{SITE}/search?q=ä", False, True, id="non-ascii-query"),
    pytest.param(f"{SITE}/search?q=%C3%A4iti", False, True, id="non-ascii-query-encoded"),
    pytest.param(f"{SITE}/café/menu", False, True, id="non-ascii-path-against-encoded-rule"),
    pytest.param(f"{SITE}/caf%C3%A9/menu", False, True, id="encoded-path-against-encoded-rule"),
    pytest.param(f"{SITE}/ok#/wiki/Käyttäjä:", True, True, id="non-ascii-fragment-never-matched"),
    # Escapes already in the URL are compared as given, as Google's reference does (R3); Protego
    # decodes both sides first, so it disallows these two.
    pytest.param(f"{SITE}/wiki/K%c3%a4ytt%c3%a4j%c3%a4:", True, False, id="encoded-lower-case-hex-as-given",
                 marks=pytest.mark.google_only),
    pytest.param(f"{SITE}/~joe/", True, False, id="ascii-unescaped-as-given", marks=pytest.mark.google_only),
    pytest.param(f"{SITE}/%7Ejoe/", False, True, id="ascii-escape-as-given"),
    # bytes: each non-ASCII byte is percent-encoded as it is
    pytest.param(f"{SITE}/wiki/Käyttäjä:".encode(), False, True, id="bytes-utf8"),
    pytest.param(f"{SITE}/wiki/K%C3%A4ytt%C3%A4j%C3%A4:".encode(), False, True, id="bytes-encoded"),
    pytest.param(f"{SITE}/wiki/Käyttäjä:".encode("latin-1"), True, None, id="bytes-latin1-is-another-url"),
]

TEXT_TABLE = [row for row in TABLE if isinstance(row.values[0], str)]
"""The rows with ``str`` URLs: ``RobotFileParser.can_fetch`` takes no bytes (TypeError, pinned in
test_robotparser_api.py), and Protego's backend decodes bytes as UTF-8 text."""


def _absolute(url: str) -> str:
    return url if "://" in url else SITE + url


@pytest.mark.parametrize(("url", "allowed", "protego_agrees"), TEXT_TABLE)
def test_robotparser_matches_the_url_as_it_goes_on_the_wire(url: str, allowed: bool, protego_agrees: bool | None):
    """R3: ``compat.RobotFileParser.can_fetch`` percent-encodes non-ASCII characters as UTF-8 and
    compares other escapes as given. It takes ``str`` URLs only (bytes: TypeError, pinned in
    test_robotparser_api.py), so the bytes rows are the Scrapy backend's."""
    rp = RobotFileParser()
    rp.parse(BODY)
    assert rp.can_fetch(AGENT, url) is allowed


@pytest.mark.parametrize(("url", "allowed", "protego_agrees"), TABLE)
def test_scrapy_backend_matches_the_url_as_it_goes_on_the_wire(url: str | bytes, allowed: bool,
                                                                protego_agrees: bool | None):
    """R3: ``RobotRulesParser.allowed`` gives the verdict ``compat.RobotFileParser`` gives for the
    same URL (issue #22: a raw ``/wiki/Käyttäjä:`` was allowed by one and disallowed by the other);
    a ``bytes`` URL is decided on its bytes, a non-UTF-8 byte being another URL."""
    pytest.importorskip("scrapy", reason="the Scrapy backend needs scrapy (the scrapy extra)")
    from robotrules.compat.scrapy import RobotRulesParser

    parser = RobotRulesParser(BODY.encode())
    assert parser.allowed(url, AGENT) is allowed
    assert parser.allowed(url, AGENT.encode()) is allowed


@pytest.mark.parametrize(("url", "allowed", "protego_agrees"), TABLE)
def test_the_wire_form_is_decided_as_googles_reference_decides_it(url: str | bytes, allowed: bool,
                                                                  protego_agrees: bool | None):
    """R3: the verdict is Google's reference's for the URL as sent (it expects percent-encoded
    URLs, and escapes the rules' non-ASCII bytes itself): the compat surfaces encode what a
    crawler would send, and nothing else."""
    googlebot = pytest.importorskip("jwm.robotstxt.googlebot")
    wire = _absolute(wire_url(url))
    assert wire.isascii()
    assert googlebot.RobotsMatcher().OneAgentAllowedByRobots(BODY, "FooBot", wire) is allowed


@pytest.mark.parametrize(("url", "allowed", "protego_agrees"), TEXT_TABLE)
def test_scrapys_protego_backend_agrees_except_on_escapes_it_decodes(url: str, allowed: bool, protego_agrees: bool):
    """Scrapy's default backend (Protego) disallows the raw non-ASCII URLs too, so swapping it for
    robotrules changes no verdict there; it differs only where it decodes escapes Google compares
    as given (``%c3%a4``, ``~`` against ``%7E``), as the Scrapy guide lists."""
    pytest.importorskip("scrapy", reason="the Scrapy backend needs scrapy (the scrapy extra)")
    from scrapy.robotstxt import ProtegoRobotParser

    protego = ProtegoRobotParser(BODY.encode(), None)
    assert (protego.allowed(_absolute(url), AGENT) is allowed) is protego_agrees


@pytest.mark.parametrize(
    ("url", "wire"),
    [
        ("https://site.local/wiki/Käyttäjä:", "https://site.local/wiki/K%C3%A4ytt%C3%A4j%C3%A4:"),
        ("https://site.local/a b?q=ä#ö", "https://site.local/a b?q=%C3%A4#%C3%B6"),
        ("https://site.local/%7e/%C3%A4/%", "https://site.local/%7e/%C3%A4/%"),
        ("/😀", "/%F0%9F%98%80"),
        ("/\udce4", "/%ED%B3%A4"),
        (b"https://site.local/K\xc3\xa4", "https://site.local/K%C3%A4"),
        (b"https://site.local/K\xe4/\xff", "https://site.local/K%E4/%FF"),
        (b"/plain", "/plain"),
        ("", ""),
    ],
    ids=["non-ascii", "only-non-ascii-encoded", "escapes-kept", "astral", "lone-surrogate", "bytes-utf8",
         "bytes-other", "bytes-ascii", "empty"],
)
def test_wire_url_encodes_non_ascii_and_leaves_ascii_as_given(url: str | bytes, wire: str):
    """R3: ``wire_url`` percent-encodes non-ASCII characters as UTF-8 (bytes: each non-ASCII byte),
    keeps every ASCII character (space, ``%``, escapes in either case) as given, never raises."""
    assert wire_url(url) == wire
    if isinstance(url, str) and url.isascii():
        assert wire_url(url) is url
