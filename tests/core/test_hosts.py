"""S4: hosts no robots.txt can be fetched for, and the host mapping's contract (issue #8).

``robotrules.robots_url`` raises :class:`~robotrules.InvalidURL` (a ``ValueError``) for a URL
whose host DNS cannot hold (a label over 63 octets, a name over 253), that the URL standard
refuses (forbidden code points, IDNA failures, malformed IP literals) or whose port is no port;
the message says why and quotes at most a short part of a huge URL. The UTS 46 mapping lives
outside the standard-library core (``robotrules.hosts``); the core refuses a host it would
need, rather than guess with IDNA 2003.
"""

from __future__ import annotations

import re

import pytest

import robotrules
from robotrules.core import urls as core_urls
from robotrules.hosts import domain_to_ascii

U_UMLAUT = "\u00fc"
DEL = "\x7f"
LABEL_63 = "a" * 63
NAME_253 = ".".join([LABEL_63, "b" * 63, "c" * 63, "d" * 61])  # 63 * 3 + 61 + 3 dots = 253


def bad(id, url, message):
    return pytest.param(url, message, id=id)


BAD_URLS = [
    # DNS lengths (RFC 1035), after mapping
    bad("S4-label-64", f"http://{'a' * 64}.example/", "label of 64 octets is longer than DNS allows (63)"),
    bad("S4-name-254", f"http://{NAME_253}d/", "host name of 254 octets is longer than DNS allows (253)"),
    bad("S4-name-255-trailing-dot", f"http://{NAME_253}d./", "host name of 254 octets"),
    bad("S4-idn-label-over-63-after-mapping", f"http://{U_UMLAUT * 60}.de/", "label of 66 octets"),
    bad("S4-host-64KiB", f"http://{'a' * 65537}/private", "longer than DNS allows"),
    # empty labels
    bad("S4-empty-label", "http://a..example/", "empty label"),
    bad("S4-leading-dot", "http://.example/", "empty label"),
    bad("S4-two-trailing-dots", "http://example.com../", "empty label"),
    bad("S4-only-a-dot", "http://./", "empty label"),
    # the URL standard's forbidden domain code points
    bad("S4-del", "http://a.test\x7f/private", "forbidden character '\\x7f'"),
    bad("S4-nul", "http://a\x00b.example/", "forbidden character '\\x00'"),
    bad("S4-c0-control", "http://a\x1fb.example/", "forbidden character '\\x1f'"),
    bad("S4-space", "http://a b.example/", "forbidden character ' '"),
    bad("S4-less-than", "http://a<b.example/", "forbidden character '<'"),
    bad("S4-greater-than", "http://a>b.example/", "forbidden character '>'"),
    bad("S4-caret", "http://a^b.example/", "forbidden character '^'"),
    bad("S4-pipe", "http://a|b.example/", "forbidden character '|'"),
    bad("S4-open-bracket", "http://a[b.example/", "forbidden character '['"),
    bad("S4-percent", "http://a%zzb.example/", "forbidden character '%'"),
    bad("S4-escaped-percent", "http://a%25b.example/", "forbidden character '%'"),
    bad("S4-escaped-slash", "http://a%2Fb.example/", "forbidden character '/'"),
    bad("S4-escaped-question-mark", "http://a%3Fb.example/", "forbidden character '?'"),
    bad("S4-escaped-hash", "http://a%23b.example/", "forbidden character '#'"),
    bad("S4-escaped-at", "http://a%40b.example/", "forbidden character '@'"),
    bad("S4-escaped-colon", "http://a%3Ab.example/", "forbidden character ':'"),
    bad("S4-escaped-backslash", "http://a%5Cb.example/", "forbidden character '\\\\'"),
    bad("S4-escaped-nul", "http://a%00b.example/", "forbidden character '\\x00'"),
    bad("S4-fullwidth-solidus", "http://a\uff0fb.example/", "forbidden character '/'"),
    bad("S4-escape-not-utf8", "http://b%FF.example/", "not UTF-8"),
    bad("S4-backslash-in-authority", "http://example.com\\@evil.example/", "backslash"),
    # IDNA (UTS 46) failures
    bad("S4-idna-zwnj-out-of-context", "http://a\u200cb.example/", "not a valid international host name"),
    bad("S4-idna-leading-combining-mark", "http://\u0301a.example/", "not a valid international host name"),
    bad("S4-idna-disallowed", "http://\ufffd.example/", "not a valid international host name"),
    bad("S4-idna-bad-punycode", "http://xn--zz.example/", "not a valid international host name"),
    bad("S4-idna-punycode-of-ascii", "http://xn--abc-.example/", "not a valid international host name"),
    # ports
    bad("S2-port-letters", "http://example.com:8o/", "invalid port"),
    bad("S2-port-sign", "http://example.com:+80/", "invalid port"),
    bad("S2-port-non-ascii-digits", "http://example.com:\u0668\u0660/", "invalid port"),
    bad("S2-port-two-colons", "http://example.com:80:80/", "invalid port"),
    bad("S2-port-65536", "http://example.com:65536/", "out of range"),
    bad("S2-port-huge", f"http://example.com:{'9' * 5000}/", "out of range"),
    # IP literals
    bad("S4-ipv6-unclosed", "http://[::1/", "IPv6"),
    bad("S4-ipv6-garbage-after", "http://[::1]x/", "IPv6"),
    bad("S4-ipv6-not-hex", "http://[::g]/", "IPv6"),
    bad("S4-ipv6-nine-groups", "http://[1:2:3:4:5:6:7:8:9]/", "IPv6"),
    bad("S4-ipv6-zone-id", "http://[fe80::1%25eth0]/", "IPv6"),
    bad("S4-ipv6-future", "http://[v1.abc]/", "IPv6"),
    bad("S4-ipv4-in-brackets", "http://[127.0.0.1]/", "IPv6"),
    bad("S4-ipv4-octet-256", "http://256.0.0.1/", "invalid IPv4 address"),
    bad("S4-ipv4-bad-octal", "http://1.2.3.08/", "invalid IPv4 address"),
]


@pytest.mark.parametrize(("url", "message"), BAD_URLS)
def test_urls_no_robots_txt_can_be_fetched_for_are_invalid_url(url, message):
    """S4, S2 (issue #8): host names longer than DNS allows, forbidden host code points, empty
    labels, IDNA failures, bad ports and malformed IP literals are an InvalidURL, never a
    robots.txt URL that no fetch could use."""
    with pytest.raises(robotrules.InvalidURL, match=re.escape(message)):
        robotrules.robots_url(url)
    with pytest.raises(robotrules.InvalidURL):
        robotrules.robots_scope(url)
    with pytest.raises(ValueError, match=re.escape(message)):  # the core alone, ASCII or not, says the same or refuses
        core_urls.robots_url(url, domain_to_ascii)


@pytest.mark.parametrize("url", [
    f"http://{'a' * (1 << 20)}/x",
    f"http://{U_UMLAUT * (1 << 20)}.de/x",
    f"http://{'a' * 70}{'%41' * (1 << 18)}/x",
    f"http://example.com:{'1' * (1 << 20)}/x",
    f"http://[{'1' * (1 << 20)}]/x",
    f"http://a{DEL * (1 << 20)}/x",
])
def test_error_messages_quote_at_most_a_short_part_of_a_huge_url(url):
    """Issue #8: a 1 MB host is refused with a message of a few hundred characters that says
    how long it was, not the host echoed in full (logs, exception chains, the CLI)."""
    with pytest.raises(robotrules.InvalidURL) as caught:
        robotrules.robots_url(url)
    assert len(str(caught.value)) < 600, str(caught.value)[:700]
    assert "characters)" in str(caught.value)


@pytest.mark.parametrize(("url", "expected"), [
    (f"http://{NAME_253}/x", f"http://{NAME_253}/robots.txt"),
    (f"http://{NAME_253}./x", f"http://{NAME_253}./robots.txt"),
    (f"http://{LABEL_63}.example/x", f"http://{LABEL_63}.example/robots.txt"),
    (f"http://{U_UMLAUT * 50}.de/x", "http://xn--tdaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.de/robots.txt"),
])
def test_the_longest_names_dns_allows_are_kept(url, expected):
    """S4: the limits are DNS's own, counted after mapping: 253 octets (254 with the trailing
    dot), labels of 63."""
    assert robotrules.robots_url(url) == expected


def test_core_without_a_mapping_refuses_a_non_ascii_host_rather_than_guess():
    """S4: the standard-library core has no UTS 46; given no mapping it refuses an IDN host
    (a ValueError naming the public function) instead of mapping it with IDNA 2003, which
    sends straße.de to strasse.de. ASCII hosts need no mapping."""
    with pytest.raises(ValueError, match="UTS 46"):
        core_urls.robots_url("http://stra\u00dfe.de/x")
    assert core_urls.robots_url("http://Example.COM:80/x") == "http://example.com/robots.txt"
    assert core_urls.robots_url("http://stra\u00dfe.de/x", domain_to_ascii) == "http://xn--strae-oqa.de/robots.txt"


@pytest.mark.parametrize(("domain", "expected"), [
    ("\U0001f4a9.la", "xn--ls8h.la"),  # valid in UTS 46, not in IDNA 2008: idna.encode refuses it
    ("a_b.b\u00fccher.de", "a_b.xn--bcher-kva.de"),  # UseSTD3ASCIIRules off: '_' is kept
    ("-\u00fc-.de", "xn-----xka.de"),  # CheckHyphens off
    ("XN--MLLER-KVA.eu", "xn--mller-kva.eu"),
    ("\u05e2\u05d1\u05e8\u05d9\u05ea.com", "xn--5dbqzzl.com"),  # a right-to-left label passes the Bidi rule
])
def test_domain_to_ascii_uses_the_url_standards_uts46_options(domain, expected):
    """S4: UTS 46 with the URL standard's options (CheckHyphens, UseSTD3ASCIIRules off;
    CheckBidi, CheckJoiners on; non-transitional), which accept names that the stricter
    ``idna.encode`` (IDNA 2008 code points, hyphen rules) would refuse."""
    assert domain_to_ascii(domain) == expected


@pytest.mark.parametrize("domain", ["1.\u05e2\u05d1\u05e8\u05d9\u05ea", "a\u200db.example", "xn--a.example"])
def test_domain_to_ascii_refuses_with_a_value_error(domain):
    """S4: a Bidi domain whose label breaks RFC 5893, a ZWJ out of context, bad punycode."""
    with pytest.raises(ValueError, match="not a valid international host name"):
        domain_to_ascii(domain)


def test_the_cli_robots_url_command_maps_idn_hosts_and_reports_invalid_ones(capsys):
    """S4: ``robotrules robots-url`` uses the same mapping, and an InvalidURL is an error line
    with exit code 2 (a short one, for a 1 MB host), not a traceback."""
    pytest.importorskip("click")
    from robotrules import cli

    code = cli.main(["robots-url", "http://stra\u00dfe.de/x", "http://a.test\x7f/private", f"http://{'a' * (1 << 20)}/"])
    out = capsys.readouterr()
    assert code == 2
    assert out.out.splitlines() == ["http://xn--strae-oqa.de/robots.txt"]
    errors = out.err.splitlines()
    assert len(errors) == 2 and all(line.startswith("robotrules: error: ") for line in errors)
    assert "forbidden character" in errors[0] and len(errors[1]) < 600
