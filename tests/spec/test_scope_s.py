"""SPEC S1-S5: where a robots.txt applies, as tables.

``robotrules.robots_url(url)`` is the robots.txt URL that governs ``url``: same scheme, host and
port, path ``/robots.txt``; default ports dropped, host lower-cased, IDN hosts in punycode,
userinfo, query and fragment dropped. ``robotrules.same_scope(a, b)`` says whether two URLs are
governed by the same robots.txt (the seeds' "valid for / not valid for" table).
"""

from __future__ import annotations

import pytest

import robotrules


def row(id, url, expected, why):
    return pytest.param(url, expected, why, id=id)


ROBOTS_URL = [
    # S1: top level of the same scheme + host + port
    row("S1-plain", "http://example.com/", "http://example.com/robots.txt", "the root"),
    row("S1-deep-path", "http://example.com/folder/file", "http://example.com/robots.txt",
        "a file in a subfolder is governed by the top-level robots.txt"),
    row("S1-no-path", "http://example.com", "http://example.com/robots.txt", "no path at all"),
    row("S1-https", "https://example.com/a/b", "https://example.com/robots.txt",
        "the scheme is kept: https has its own robots.txt"),
    row("S1-subdomain", "http://other.example.com/x", "http://other.example.com/robots.txt",
        "a subdomain has its own robots.txt"),
    row("S1-self", "http://example.com/robots.txt", "http://example.com/robots.txt",
        "robots.txt governs itself"),
    # S2: default ports are the same origin as no port; others are kept
    row("S2-http-80", "http://example.com:80/x", "http://example.com/robots.txt",
        "http:80 is the default port"),
    row("S2-https-443", "https://example.com:443/x", "https://example.com/robots.txt",
        "https:443 is the default port"),
    row("S2-ftp-21", "ftp://example.com:21/pub/file", "ftp://example.com/robots.txt",
        "ftp:21 is the default port"),
    row("S2-http-81", "http://example.com:81/x", "http://example.com:81/robots.txt",
        "a non-default port is kept"),
    row("S2-http-8181", "http://example.com:8181/x", "http://example.com:8181/robots.txt",
        "a non-default port is kept"),
    row("S2-http-443-kept", "http://example.com:443/x", "http://example.com:443/robots.txt",
        "443 is only the default for https"),
    row("S2-https-80-kept", "https://example.com:80/x", "https://example.com:80/robots.txt",
        "80 is only the default for http"),
    row("S2-ftp-80-kept", "ftp://example.com:80/x", "ftp://example.com:80/robots.txt",
        "80 is not ftp's default"),
    # S3: subfolder robots.txt is not a robots.txt
    row("S3-subfolder-robots", "http://example.com/folder/robots.txt",
        "http://example.com/robots.txt",
        "a robots.txt in a subfolder is an ordinary file governed by the top-level one"),
    # S4: host case, IDN, IP hosts
    row("S4-host-case", "http://EXAMPLE.com/Folder/File", "http://example.com/robots.txt",
        "host names are case-insensitive (lower-cased); the path is not kept"),
    row("S4-scheme-case", "HTTP://Example.COM/", "http://example.com/robots.txt",
        "schemes are case-insensitive (lower-cased)"),
    row("S4-idn", "http://www.m\u00fcller.eu/", "http://www.xn--mller-kva.eu/robots.txt",
        "an IDN host is written in punycode"),
    row("S4-idn-upper", "http://WWW.M\u00dcLLER.EU/x", "http://www.xn--mller-kva.eu/robots.txt",
        "an upper-case IDN host is lower-cased, then punycode"),
    row("S4-idn-port", "http://www.m\u00fcller.eu:8080/x",
        "http://www.xn--mller-kva.eu:8080/robots.txt", "IDN host with a port"),
    row("S4-punycode-kept", "http://www.xn--mller-kva.eu/x",
        "http://www.xn--mller-kva.eu/robots.txt", "punycode stays punycode"),
    row("S4-ipv4", "http://212.96.82.21/x", "http://212.96.82.21/robots.txt",
        "an IP host is its own host"),
    row("S4-ipv6", "http://[2001:db8::1]:8080/x", "http://[2001:db8::1]:8080/robots.txt",
        "an IPv6 host keeps its brackets"),
    row("S4-www-shop", "http://www.shop.example.com/x",
        "http://www.shop.example.com/robots.txt", "every host name is its own scope"),
    # S5: any scheme; ftp is Google-specific but supported
    row("S5-ftp", "ftp://example.com/pub/file.txt", "ftp://example.com/robots.txt",
        "ftp:// has its own robots.txt at the FTP origin"),
    # userinfo, query and fragment are dropped
    row("S1-userinfo", "http://user:secret@example.com/x", "http://example.com/robots.txt",
        "userinfo is not part of the origin"),
    row("S1-query", "http://example.com/search?q=robots", "http://example.com/robots.txt",
        "the query is dropped"),
    row("S1-fragment", "http://example.com/page#top", "http://example.com/robots.txt",
        "the fragment is dropped"),
    row("S1-everything", "https://u:p@Example.com:443/a/b;c?d=e#f",
        "https://example.com/robots.txt", "all of the above at once"),
]


@pytest.mark.parametrize(("url", "expected", "why"), ROBOTS_URL)
def test_robots_url(url, expected, why):
    """S1-S5: the robots.txt URL that governs a URL."""
    assert robotrules.robots_url(url) == expected, why


# The seeds' table: (robots.txt URL, valid for, not valid for).
SEED_SCOPE = [
    ("http://example.com/robots.txt",
     ["http://example.com/", "http://example.com/folder/file"],
     ["http://other.example.com/", "https://example.com/", "http://example.com:8181/"]),
    ("http://www.example.com/robots.txt",
     ["http://www.example.com/"],
     ["http://example.com/", "http://shop.www.example.com/", "http://www.shop.example.com/"]),
    ("http://www.m\u00fcller.eu/robots.txt",
     ["http://www.m\u00fcller.eu/", "http://www.xn--mller-kva.eu/"],
     ["http://www.muller.eu/"]),
    ("ftp://example.com/robots.txt", ["ftp://example.com/"], ["http://example.com/"]),
    ("http://212.96.82.21/robots.txt", ["http://212.96.82.21/"], ["http://example.com/"]),
    ("http://example.com:80/robots.txt",
     ["http://example.com:80/", "http://example.com/"],
     ["http://example.com:81/"]),
    ("http://example.com:8181/robots.txt", ["http://example.com:8181/"], ["http://example.com/"]),
]
SCOPE_ROWS = [
    pytest.param(robots, page, valid, id=f"S-{'valid' if valid else 'invalid'}-{robots}-{page}")
    for robots, valid_for, invalid_for in SEED_SCOPE
    for valid, pages in ((True, valid_for), (False, invalid_for))
    for page in pages
]


@pytest.mark.parametrize(("robots", "page", "valid"), SCOPE_ROWS)
def test_seed_scope_table_via_robots_url(robots, page, valid):
    """S1, S2, S4, S5: the seeds' table: a robots.txt is valid for a page iff the page's
    robots_url is that robots.txt's own robots_url."""
    assert (robotrules.robots_url(page) == robotrules.robots_url(robots)) is valid


@pytest.mark.parametrize(("robots", "page", "valid"), SCOPE_ROWS)
def test_seed_scope_table_via_same_scope(robots, page, valid):
    """S1, S2, S4, S5: the same table through robotrules.same_scope, which the package exports."""
    assert robotrules.same_scope(robots, page) is valid
    assert robotrules.same_scope(page, robots) is valid, "same_scope is symmetric"


def test_subfolder_robots_txt_governs_nothing_below_it():
    """S3: crawlers do not look in subfolders: a page under /folder/ is governed by the
    top-level robots.txt, not by /folder/robots.txt."""
    page = "http://example.com/folder/page.html"
    assert robotrules.robots_url(page) == "http://example.com/robots.txt"
    assert robotrules.robots_url(page) != "http://example.com/folder/robots.txt"


# S4: international host names are mapped as browsers, httpx and the WHATWG URL standard map
# them: UTS 46, non-transitional (IDNA 2008 code points), never IDNA 2003, which maps several
# names to another registered domain. Hosts are percent-decoded first, IP addresses written as
# the URL standard writes them, and a trailing dot is kept (its own host, as in the standard).
IDN_HOSTS = [
    row("S4-idn-sharp-s", "http://stra\u00dfe.de/x", "http://xn--strae-oqa.de/robots.txt",
        "\u00df is kept: IDNA 2003 gave strasse.de, another registered domain"),
    row("S4-idn-sharp-s-upper", "http://STRA\u00dfE.DE/x", "http://xn--strae-oqa.de/robots.txt",
        "upper case around \u00df is folded, \u00df kept"),
    row("S4-idn-final-sigma", "http://\u03b2\u03cc\u03bb\u03bf\u03c2.com/", "http://xn--nxasmm1c.com/robots.txt",
        "final sigma \u03c2 is kept: IDNA 2003 gave \u03c3, xn--nxasmq6b.com"),
    row("S4-idn-capital-sigma", "http://\u0392\u038c\u039b\u039f\u03a3.com/", "http://xn--nxasmq6b.com/robots.txt",
        "a capital \u03a3 folds to \u03c3 by UTS 46 (not to the final \u03c2 that str.lower() gives)"),
    row("S4-idn-zwnj", "http://\u0646\u0627\u0645\u0647\u200c\u0627\u06cc.com/",
        "http://xn--mgba3gch31f060k.com/robots.txt", "a ZWNJ where CONTEXTJ allows it is kept: IDNA 2003 dropped it"),
    row("S4-idn-zwj", "http://\u0dc1\u0dca\u200d\u0dbb\u0dd3.com/", "http://xn--10cl1a0b660p.com/robots.txt",
        "a ZWJ after a virama is kept: IDNA 2003 dropped it"),
    row("S4-idn-ideographic-full-stop", "http://b\u00fccher\u3002de/", "http://xn--bcher-kva.de/robots.txt",
        "U+3002 separates labels"),
    row("S4-idn-fullwidth-full-stop", "http://b\u00fccher\uff0ede/", "http://xn--bcher-kva.de/robots.txt",
        "U+FF0E separates labels"),
    row("S4-idn-halfwidth-full-stop", "http://b\u00fccher\uff61de/", "http://xn--bcher-kva.de/robots.txt",
        "U+FF61 separates labels"),
    row("S4-fullwidth-letters", "http://\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25.com/", "http://example.com/robots.txt",
        "full-width letters map to ASCII"),
    row("S4-idn-mixed-labels", "http://_dmarc.B\u00dcCHER.de/", "http://_dmarc.xn--bcher-kva.de/robots.txt",
        "ASCII labels are kept as they are (lower case) next to IDN labels"),
    row("S4-punycode-upper", "http://WWW.XN--MLLER-KVA.EU/", "http://www.xn--mller-kva.eu/robots.txt",
        "punycode is lower-cased and stays punycode"),
    row("S4-percent-escaped-host", "http://ex%61mple.com/", "http://example.com/robots.txt",
        "the URL standard percent-decodes hosts"),
    row("S4-percent-escaped-idn", "http://stra%C3%9Fe.de/", "http://xn--strae-oqa.de/robots.txt",
        "percent-decoded as UTF-8, then mapped"),
    row("S4-trailing-dot-kept", "http://Example.COM./x", "http://example.com./robots.txt",
        "a trailing dot is kept: its own host, as in the URL standard"),
    row("S4-idn-trailing-dot-kept", "http://stra\u00dfe.de./x", "http://xn--strae-oqa.de./robots.txt",
        "a trailing dot is kept after an IDN"),
    row("S4-ipv4-shorthand", "http://127.1/", "http://127.0.0.1/robots.txt",
        "IPv4 shorthand is the address it stands for"),
    row("S4-ipv4-hex-octal", "http://0x7f.0.0.01/", "http://127.0.0.1/robots.txt",
        "hex and octal IPv4 numbers, as the URL standard reads them"),
    row("S4-ipv4-one-number", "http://2130706433:8080/", "http://127.0.0.1:8080/robots.txt",
        "a single number is a 32-bit address"),
    row("S4-ipv4-trailing-dot", "http://127.0.0.1./", "http://127.0.0.1/robots.txt",
        "an IPv4 address drops a trailing dot"),
    row("S4-not-an-address", "http://a.1/", "http://a.1/robots.txt",
        "a name ending in a number that is no address stays a name (DNS answers for it)"),
    row("S4-ipv6-compressed", "http://[0:0:0:0:0:0:0:1]:8080/", "http://[::1]:8080/robots.txt",
        "IPv6 zeros are compressed"),
    row("S4-ipv6-lower", "http://[2001:DB8:0:0:1:0:0:A]/", "http://[2001:db8::1:0:0:a]/robots.txt",
        "IPv6 in lower case; the first longest run of zeros compressed"),
    row("S4-ipv6-v4-mapped", "http://[::ffff:192.0.2.1]/", "http://[::ffff:c000:201]/robots.txt",
        "an IPv4-mapped address is written in hex, as the URL standard does"),
]


@pytest.mark.parametrize(("url", "expected", "why"), IDN_HOSTS)
def test_hosts_are_mapped_as_the_url_standard_maps_them(url, expected, why):
    """S4: the robots.txt of an international host name is fetched from the host a browser or
    httpx would crawl (UTS 46, non-transitional), never from another domain (IDNA 2003)."""
    assert robotrules.robots_url(url) == expected, why


SAME_HOST = [
    ("http://www.m\u00fcller.eu/", "http://www.xn--mller-kva.eu/", True),  # S4's own example
    ("http://stra\u00dfe.de/", "http://xn--strae-oqa.de/", True),
    ("http://stra\u00dfe.de/", "http://strasse.de/", False),  # another registered domain
    ("http://\u03b2\u03cc\u03bb\u03bf\u03c2.com/", "http://\u03b2\u03cc\u03bb\u03bf\u03c3.com/", False),
    ("http://\u0646\u0627\u0645\u0647\u200c\u0627\u06cc.com/", "http://\u0646\u0627\u0645\u0647\u0627\u06cc.com/", False),
    ("http://b\u00fccher\u3002de/", "http://B\u00dcCHER.de/", True),
    ("http://example.com./", "http://example.com/", False),  # the trailing dot is kept
    ("http://127.1/", "http://127.0.0.1/", True),
    ("http://[::1]/", "http://[0:0::1]/", True),
]


@pytest.mark.parametrize(("a", "b", "same"), SAME_HOST)
def test_same_scope_agrees_with_the_mapping_of_hosts(a, b, same):
    """S4: same_scope compares the mapped hosts, so it agrees with robots_url: one robots.txt
    governs both URLs exactly when their robots.txt URLs are equal."""
    assert robotrules.same_scope(a, b) is same
    assert robotrules.same_scope(b, a) is same
    assert (robotrules.robots_url(a) == robotrules.robots_url(b)) is same
