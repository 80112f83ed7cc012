"""RFC 9309 as written (mode="rfc9309"), as tables.

Section 5.1 (simple example) and 5.2 (longest match) are run in both modes: Google's reference
is the RFC's reference implementation and agrees on them (cross-checked by the oracle test).
Section 2.2.2's percent-encoding table, the implicit allow of /robots.txt and the strictness
about typos are RFC-only; where the reference differs, a google_only row pins its answer.
"""

from __future__ import annotations

import pytest

import robotrules

from ._cases import ALLOW, BOTH, DISALLOW, GOOGLE, RFC, U, case, flatten, google_rows, oracle_allowed

# RFC 9309 5.1, verbatim (without the "EOF" marker line of the figure).
SIMPLE = (
    "User-Agent: *\n"
    "Disallow: *.gif$\n"
    "Disallow: /example/\n"
    "Allow: /publications/\n"
    "User-Agent: foobot\n"
    "Disallow:/\n"
    "Allow:/example/page.html\n"
    "Allow:/example/allowed.gif\n"
    "User-Agent: barbot\n"
    "User-Agent: bazbot\n"
    "Disallow: /example/page.html\n"
    "User-Agent: quxbot\n"
)
SIMPLE_TABLE = [
    # (agent, path, expected, why)
    ("otherbot", "/x.gif", DISALLOW, "'*': all URLs with a .gif suffix ('*' spans the '/')"),
    ("otherbot", "/a/b/c.gif", DISALLOW, "'*': .gif suffix, deeper"),
    ("otherbot", "/x.gif?size=2", ALLOW, "'*': '$' — a query after .gif is not the end"),
    ("otherbot", "/example/", DISALLOW, "'*': the /example/ prefix"),
    ("otherbot", "/example/page.html", DISALLOW, "'*': the /example/ prefix"),
    ("otherbot", "/publications/", ALLOW, "'*': the /publications/ prefix is allowed"),
    ("otherbot", "/publications/page.html", ALLOW, "'*': the /publications/ prefix"),
    ("otherbot", "/other", ALLOW, "'*': everything else is allowed"),
    ("foobot", "/example/page.html", ALLOW, "foobot: one of its two allowed prefixes"),
    ("foobot", "/example/allowed.gif", ALLOW, "foobot: the other allowed prefix"),
    ("foobot", "/example/other", DISALLOW, "foobot: everything else is disallowed"),
    ("foobot", "/publications/", DISALLOW, "foobot does not follow the '*' group"),
    ("foobot", "/", DISALLOW, "foobot: 'Disallow:/' without a space"),
    ("FooBot", "/example/page.html", ALLOW, "product tokens match case-insensitively"),
    ("barbot", "/example/page.html", DISALLOW, "barbot: the shared group"),
    ("bazbot", "/example/page.html", DISALLOW, "bazbot: the shared group"),
    ("barbot", "/example/other", ALLOW, "barbot: the rest is allowed ('*' does not apply)"),
    ("bazbot", "/x.gif", ALLOW, "bazbot: the '*' .gif rule does not apply"),
    ("quxbot", "/example/page.html", ALLOW, "quxbot: an empty group at the end: allowed"),
    ("quxbot", "/x.gif", ALLOW, "quxbot: '*' does not apply"),
]
S5_1 = flatten(*[
    case(f"5.1-{agent}-{path.replace('/', '~')}", SIMPLE, agent, U + path, expected, why)
    for agent, path, expected, why in SIMPLE_TABLE
])

LONGEST = "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
S5_2 = flatten(
    case("5.2-longest-disallow", LONGEST, "foobot", U + "/example/page/disallowed.gif",
         DISALLOW, "the longer disallow is used for this URI"),
    case("5.2-allow-prefix", LONGEST, "foobot", U + "/example/page/other.gif", ALLOW,
         "only the allow matches"),
    case("5.2-allow-exact", LONGEST, "foobot", U + "/example/page/", ALLOW,
         "only the allow matches"),
    case("5.2-no-rule", LONGEST, "foobot", U + "/example/", ALLOW, "no rule matches: allowed"),
)

# 2.2.1 / 2.2.2 general rules.
S2_2 = flatten(
    case("2.2.2-equivalent-allow-wins", "user-agent: *\ndisallow: /folder\nallow: /folder\n",
         "bot", U + "/folder/page", ALLOW, "equivalent allow and disallow: allow"),
    case("2.2.2-no-rules-allowed", "user-agent: *\n", "bot", U + "/x", ALLOW,
         "no rules in the group: allowed"),
    case("2.2.2-rules-before-agent", "disallow: /x\nuser-agent: *\n", "bot", U + "/x", ALLOW,
         "rules that precede the first user-agent line are ignored"),
    case("2.2.1-merge-groups",
         "user-agent: ExampleBot\ndisallow: /foo\ndisallow: /bar\n\n"
         "user-agent: ExampleBot\ndisallow: /baz\n", "ExampleBot", U + "/baz", DISALLOW,
         "several groups matching the token are combined"),
    case("2.2.1-no-group-no-star", "user-agent: bazbot\ndisallow: /\n", "examplebot",
         U + "/x", ALLOW, "no matching group and no '*' group: no rules apply"),
    case("2.2.4-sitemap-no-boundary",
         "user-agent: a\nsitemap: https://example.com/s.xml\nuser-agent: b\ndisallow: /x\n",
         "a", U + "/x", DISALLOW, "a Sitemaps record must not terminate a group"),
    # /robots.txt is implicitly allowed (2.2.2); the reference has no such rule.
    case("2.2.2-robots-txt-allowed", "user-agent: *\ndisallow: /\n", "bot",
         U + "/robots.txt", ALLOW, "the /robots.txt URI is implicitly allowed", modes=RFC),
    case("2.2.2-robots-txt-only-exact", "user-agent: *\ndisallow: /\n", "bot",
         U + "/robots.txt.bak", DISALLOW, "only /robots.txt itself", modes=RFC),
    case("2.2.2-robots-txt-google", "user-agent: *\ndisallow: /\n", "bot", U + "/robots.txt",
         DISALLOW, "reference: /robots.txt is matched like any other path", modes=GOOGLE,
         google_only=True),
)

# 2.2.2, the percent-encoding table: (path in robots.txt, encoded path, path to match).
ENCODING_TABLE = [
    ("/foo/bar?baz=quz", "/foo/bar?baz=quz", "/foo/bar?baz=quz"),
    ("/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar",
     "/foo/bar?baz=https%3A%2F%2Ffoo.bar"),
    ("/foo/bar/\u30c4", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"),
    ("/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"),
    ("/foo/bar/%62%61%7A", "/foo/bar/%62%61%7A", "/foo/bar/baz"),
]
S2_2_2 = flatten(*[
    case(f"2.2.2-table-{n}-{label}", f"user-agent: *\ndisallow: {rule}\n", "bot", U + url,
         DISALLOW, f"RFC 9309 2.2.2 table row {n}: rule {rule!r} matches {url!r}", modes=RFC)
    for n, (path, encoded, to_match) in enumerate(ENCODING_TABLE, 1)
    for label, rule, url in (
        ("path-vs-match", path, to_match),
        ("encoded-vs-match", encoded, to_match),
        ("path-vs-encoded", path, encoded),
    )
])
S2_2_2_MORE = flatten(
    case("2.2.2-raw-utf8-url", "user-agent: *\ndisallow: /foo/bar/%E3%83%84\n", "bot",
         U + "/foo/bar/\u30c4", DISALLOW, "non-ASCII octets of the URI are percent-encoded "
         "before comparison", modes=RFC),
    case("2.2.2-unreserved-url-escape", "user-agent: *\ndisallow: /foo/bar/baz\n", "bot",
         U + "/foo/bar/%62%61%7A", DISALLOW, "escaped unreserved octets of the URI are decoded "
         "before comparison", modes=RFC),
    case("2.2.2-reserved-stays-escaped", "user-agent: *\ndisallow: /a/b\n", "bot",
         U + "/a%2Fb", ALLOW, "a reserved character's escape (%2F) is not decoded",
         modes=BOTH),
    # 2.2.3: special characters matched verbatim are written percent-encoded.
    case("2.2.3-escaped-star-matches-star", "user-agent: *\ndisallow: /path/file-with-a-%2A.html\n",
         "bot", U + "/path/file-with-a-*.html", DISALLOW, "%2A matches a literal '*'", modes=RFC),
    case("2.2.3-escaped-star-not-wildcard",
         "user-agent: *\ndisallow: /path/file-with-a-%2A.html\n", "bot",
         U + "/path/file-with-a-x.html", ALLOW, "%2A is not a wildcard", modes=BOTH),
    case("2.2.3-escaped-dollar-matches-dollar", "user-agent: *\ndisallow: /path/foo-%24\n",
         "bot", U + "/path/foo-$", DISALLOW, "%24 matches a literal '$'", modes=RFC),
    case("2.2.3-escaped-dollar-not-anchor", "user-agent: *\ndisallow: /path/foo-%24\n", "bot",
         U + "/path/foo-", ALLOW, "%24 is not an anchor", modes=BOTH),
    # The reference compares the URL as given: these RFC rows do not hold in google mode.
    case("2.2.2-unreserved-escape-google", "user-agent: *\ndisallow: /foo/bar/%62%61%7A\n",
         "bot", U + "/foo/bar/baz", ALLOW, "reference: %62%61%7A is not decoded",
         modes=GOOGLE, google_only=True),
    case("2.2.2-raw-utf8-url-google", "user-agent: *\ndisallow: /foo/bar/%E3%83%84\n", "bot",
         U + "/foo/bar/\u30c4", ALLOW, "reference: the raw UTF-8 URL is not encoded",
         modes=GOOGLE, google_only=True),
    case("2.2.3-escaped-star-google", "user-agent: *\ndisallow: /path/file-with-a-%2A.html\n",
         "bot", U + "/path/file-with-a-*.html", ALLOW,
         "reference: %2A only matches %2A in the URL", modes=GOOGLE, google_only=True),
)

# Strictness: RFC 9309 has no typo tolerance and requires the colon.
STRICT = flatten(
    case("strict-useragent-typo", "useragent: *\ndisallow: /x\n", "bot", U + "/x", ALLOW,
         "'useragent' is not 'user-agent': no group, the rule is orphaned", modes=RFC),
    case("strict-useragent-typo-google", "useragent: *\ndisallow: /x\n", "bot", U + "/x",
         DISALLOW, "reference: 'useragent' is accepted", modes=GOOGLE, google_only=True),
    case("strict-user-agent-no-colon", "user-agent *\ndisallow: /x\n", "bot", U + "/x", ALLOW,
         "a user-agent line without a colon is ignored", modes=RFC),
    case("strict-user-agent-no-colon-google", "user-agent *\ndisallow: /x\n", "bot", U + "/x",
         DISALLOW, "reference: the missing colon is accepted", modes=GOOGLE, google_only=True),
    case("strict-disallow-no-colon", "user-agent: *\ndisallow /x\n", "bot", U + "/x", ALLOW,
         "a rule without a colon is ignored", modes=RFC),
    case("strict-disallow-no-colon-google", "user-agent: *\ndisallow /x\n", "bot", U + "/x",
         DISALLOW, "reference: the missing colon is accepted", modes=GOOGLE, google_only=True),
    case("strict-disallow-typo", "user-agent: *\ndisalow: /x\n", "bot", U + "/x", ALLOW,
         "'disalow' is not a rule", modes=RFC),
    case("strict-valid-lines-still-count",
         "useragent: a\nuser-agent: *\ndisalow: /x\ndisallow: /y\n", "bot", U + "/y", DISALLOW,
         "invalid lines are skipped, valid ones still parsed (2.3.1.5)", modes=RFC),
    case("strict-valid-lines-skip-bad",
         "useragent: a\nuser-agent: *\ndisalow: /x\ndisallow: /y\n", "bot", U + "/x", ALLOW,
         "invalid lines are skipped", modes=RFC),
)

ALL = flatten(S5_1, S5_2, S2_2, S2_2_2, S2_2_2_MORE, STRICT)


@pytest.mark.parametrize(("mode", "body", "agent", "url", "expected", "why"), ALL)
def test_rfc9309(mode, body, agent, url, expected, why):
    """RFC 9309 sections 2.2 and 5: each row cites its section in the id."""
    rt = robotrules.parse(body, mode=mode)
    assert rt.allowed(url, agent) is expected, why


@pytest.mark.oracle
@pytest.mark.parametrize(("mode", "body", "agent", "url", "expected", "why"), google_rows(ALL))
def test_reference_agrees(mode, body, agent, url, expected, why):
    """The google-mode rows (5.1, 5.2 and the contrasts) are the reference's answers."""
    assert oracle_allowed(body, agent, url) is expected, why
