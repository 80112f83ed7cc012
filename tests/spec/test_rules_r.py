"""SPEC R1-R6: rules and matching, as tables.

R5 is the seeds' path table, verbatim: each pattern is put in ``disallow: <pattern>`` under
``user-agent: *``; "matches" reads "disallowed". R6 is the seeds' precedence table, each row in
both rule orders (order in the file must not matter). The R6 row the seeds leave undefined
takes the reference's answer.
"""

from __future__ import annotations

import pytest

import robotrules

from ._cases import ALLOW, DISALLOW, GOOGLE, U, case, flatten, google_rows, oracle_allowed

# --- R5: the seeds' path table (001, 002, 003) --------------------------------------------------
PATH_TABLE = {
    # pattern: (matches, does not match)
    "/": (["/", "/anything", "/a/b.html?c=d"], []),
    "/*": (["/", "/anything", "/a/b.html?c=d"], []),
    "/fish": (
        ["/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html",
         "/fish.php?id=anything"],
        ["/Fish.asp", "/catfish", "/?id=fish"],
    ),
    "/fish*": (
        ["/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html",
         "/fish.php?id=anything"],
        ["/Fish.asp", "/catfish", "/?id=fish"],
    ),
    "/fish/": (
        ["/fish/", "/fish/?id=anything", "/fish/salmon.htm"],
        ["/fish", "/fish.html", "/Fish/Salmon.asp"],
    ),
    "/*.php": (
        ["/filename.php", "/folder/filename.php", "/folder/filename.php?parameters",
         "/folder/any.php.file.html", "/filename.php/"],
        ["/", "/windows.PHP"],
    ),
    "/*.php$": (
        ["/filename.php", "/folder/filename.php"],
        ["/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"],
    ),
    "/fish*.php": (
        ["/fish.php", "/fishheads/catfish.php?parameters"],
        ["/Fish.PHP"],
    ),
}


def _slug(s: str) -> str:
    return s.replace("/", "~") or "empty"


R5 = flatten(*[
    case(f"R5-{_slug(pattern)}-{'matches' if hit else 'not'}-{_slug(path)}",
         f"user-agent: *\ndisallow: {pattern}\n", "bot", U + path,
         DISALLOW if hit else ALLOW,
         f"seed path table: {pattern!r} {'matches' if hit else 'does not match'} {path!r}")
    for pattern, (hits, misses) in PATH_TABLE.items()
    for hit, paths in ((True, hits), (False, misses))
    for path in paths
])

# The pre-2019 seed (001) says 'fish/' (no leading slash) "equals /fish/". The reference
# does not add the slash: 'fish/' matches no path. Google mode follows the reference.
R5_NO_SLASH = flatten(*[
    case(f"R5-no-leading-slash-fish~-{_slug(path)}", "user-agent: *\ndisallow: fish/\n", "bot",
         U + path, ALLOW,
         "reference: a pattern without leading '/' matches nothing (seed 001 disagrees)",
         modes=GOOGLE, google_only=True)
    for path in ["/fish/", "/fish/?id=anything", "/fish/salmon.htm"]
])

# --- R6: precedence, the seeds' table -------------------------------------------------------------
PRECEDENCE = [
    # (url path, allow, disallow, expected, why)
    ("/page", "/p", "/", ALLOW, "the longer rule wins: allow /p (2) over disallow / (1)"),
    ("/folder/page", "/folder", "/folder", ALLOW,
     "equal length, both match: the least restrictive (allow) wins"),
    ("/folder/page", "/folder/", "/folder", ALLOW,
     "seed 001's variant: allow /folder/ is longer than disallow /folder"),
    ("/page.htm", "/page", "/*.htm", DISALLOW,
     "seed: undefined; reference: disallow /*.htm (6) is longer than allow /page (5)"),
    ("/", "/$", "/", ALLOW, "allow /$ (2) beats disallow / (1) on the root"),
    ("/page.htm", "/$", "/", DISALLOW, "allow /$ does not match /page.htm; disallow / does"),
]
R6 = flatten(*[
    case(f"R6-{_slug(path)}-allow{_slug(allow)}-disallow{_slug(disallow)}-{order}", body, "bot",
         U + path, expected, why)
    for path, allow, disallow, expected, why in PRECEDENCE
    for order, body in (
        ("allow-first", f"user-agent: *\nallow: {allow}\ndisallow: {disallow}\n"),
        ("disallow-first", f"user-agent: *\ndisallow: {disallow}\nallow: {allow}\n"),
    )
])
R6_MORE = flatten(
    case("R6-identical-rules-allow-wins", "user-agent: *\ndisallow: /a\nallow: /a\n", "bot",
         U + "/a", ALLOW, "an allow and a disallow that are the same: allow"),
    case("R6-allow-root-disallow-root", "user-agent: *\nallow: /\ndisallow: /\n", "bot",
         U + "/a", ALLOW, "allow / and disallow /: allow"),
    case("R6-longest-disallow", "user-agent: *\nallow: /a\ndisallow: /a/b\n", "bot",
         U + "/a/b/c", DISALLOW, "the longer disallow wins over a shorter allow"),
    case("R6-longest-allow-deep", "user-agent: *\ndisallow: /a\nallow: /a/b\ndisallow: /a/b/c\n",
         "bot", U + "/a/b/x", ALLOW, "the longest matching rule decides, not the longest rule"),
    case("R6-merged-groups-precedence",
         "user-agent: b\ndisallow: /a\n\nuser-agent: b\nallow: /a/\n", "b", U + "/a/x", ALLOW,
         "precedence is computed over the merged rules of all matching groups"),
)

# --- R1: empty rules are ignored; default is allow --------------------------------------------
R1 = flatten(
    case("R1-empty-disallow", "user-agent: *\ndisallow:\n", "bot", U + "/x", ALLOW,
         "'disallow:' with no path is ignored: nothing is disallowed"),
    case("R1-empty-disallow-spaces", "user-agent: *\ndisallow:    \n", "bot", U + "/x", ALLOW,
         "a value of only whitespace is empty"),
    case("R1-empty-disallow-comment", "user-agent: *\ndisallow: # nothing\n", "bot", U + "/x",
         ALLOW, "a value that is only a comment is empty"),
    case("R1-empty-allow-ignored", "user-agent: *\nallow:\ndisallow: /\n", "bot", U + "/x",
         DISALLOW, "'allow:' with no path does not allow anything"),
    case("R1-default-allow", "user-agent: *\ndisallow: /x\n", "bot", U + "/y", ALLOW,
         "no matching rule: allowed"),
    case("R1-group-without-rules", "user-agent: *\n", "bot", U + "/y", ALLOW,
         "a group without rules allows everything"),
)

# --- R2/R3: what is matched: path + params + query, never the fragment -------------------------
R3 = flatten(
    case("R3-query-matched", "user-agent: *\ndisallow: /*?\n", "bot", U + "/a?b=c", DISALLOW,
         "the query is part of what is matched"),
    case("R3-no-query", "user-agent: *\ndisallow: /*?\n", "bot", U + "/a", ALLOW,
         "no query, no '?'"),
    case("R3-params-matched", "user-agent: *\ndisallow: /x;y\n", "bot", U + "/x;y=1?a",
         DISALLOW, "path parameters are part of what is matched"),
    case("R3-fragment-dropped-anchor", "user-agent: *\ndisallow: /y$\n", "bot", U + "/y#frag",
         DISALLOW, "the fragment is not part of the path: '/y$' matches '/y#frag'"),
    case("R3-fragment-not-matched", "user-agent: *\ndisallow: /*x\n", "bot", U + "/y#x", ALLOW,
         "text in the fragment is never matched"),
    case("R3-fragment-path-like", "user-agent: *\ndisallow: /x\n", "bot", U + "/y#/x", ALLOW,
         "a path-like fragment is still the fragment"),
    case("R3-no-path-is-root", "user-agent: *\ndisallow: /$\n", "bot", "http://example.com",
         DISALLOW, "a URL without a path has the path '/'"),
    case("R3-path-only-url", "user-agent: *\ndisallow: /x\n", "bot", "/x/y", DISALLOW,
         "a url may be given as a path starting with '/'"),
    case("R3-path-only-url-miss", "user-agent: *\ndisallow: /x\n", "bot", "/y", ALLOW,
         "a url may be given as a path starting with '/'"),
    case("R3-https-and-port", "user-agent: *\ndisallow: /x\n", "bot",
         "https://example.com:8443/x?q", DISALLOW, "scheme, host and port are not matched"),
    # Non-ASCII in rules: UTF-8 or percent-encoded UTF-8 match the same (percent-encoded) URLs.
    case("R3-utf8-rule", "user-agent: *\ndisallow: /\u00e4\n", "bot", U + "/%C3%A4", DISALLOW,
         "a raw UTF-8 rule matches the percent-encoded URL"),
    case("R3-pct-rule", "user-agent: *\ndisallow: /%C3%A4\n", "bot", U + "/%C3%A4", DISALLOW,
         "the percent-encoded rule matches the same URL"),
    case("R3-pct-lower-rule", "user-agent: *\ndisallow: /%c3%a4\n", "bot", U + "/%C3%A4",
         DISALLOW, "hex digits of a rule's escapes are case-insensitive"),
    case("R3-utf8-rule-3-bytes", "user-agent: *\ndisallow: /foo/bar/\u30c4\n", "bot",
         U + "/foo/bar/%E3%83%84", DISALLOW, "a 3-byte UTF-8 character in a rule"),
    case("R3-pct-rule-3-bytes", "user-agent: *\ndisallow: /foo/bar/%E3%83%84\n", "bot",
         U + "/foo/bar/%E3%83%84", DISALLOW, "its percent-encoded form"),
    case("R3-utf8-rule-allow", "user-agent: *\ndisallow: /\nallow: /foo/bar/\u30c4\n", "bot",
         U + "/foo/bar/%E3%83%84", ALLOW, "the same holds for allow rules"),
    # Google-only: the URL is not normalised by the reference.
    case("R3-raw-utf8-url-not-matched", "user-agent: *\ndisallow: /\u00e4\n", "bot",
         U + "/\u00e4", ALLOW, "reference: a raw UTF-8 URL is compared as is, and the rule "
         "is percent-encoded, so they differ (RFC 9309 would encode the URL)", modes=GOOGLE,
         google_only=True),
    case("R3-unreserved-escape-not-decoded", "user-agent: *\ndisallow: /foo/bar/%62%61%7A\n",
         "bot", U + "/foo/bar/baz", ALLOW, "reference: %62%61%7A is not decoded to 'baz' "
         "(RFC 9309 2.2.2 would decode it)", modes=GOOGLE, google_only=True),
    case("R3-unreserved-escape-literal", "user-agent: *\ndisallow: /foo/bar/%62%61%7A\n", "bot",
         U + "/foo/bar/%62%61%7A", DISALLOW, "the escaped form matches itself"),
    case("R3-lower-hex-url", "user-agent: *\ndisallow: /%C3%A4\n", "bot", U + "/%c3%a4", ALLOW,
         "reference: lower-case escapes in the URL are not normalised", modes=GOOGLE,
         google_only=True),
    case("R3-escaped-slash-distinct", "user-agent: *\ndisallow: /a/b\n", "bot", U + "/a%2Fb",
         ALLOW, "%2F is not '/': a reserved character's escape stays distinct"),
)

# --- R4: wildcards ------------------------------------------------------------------------------
R4 = flatten(
    case("R4-star-zero-chars", "user-agent: *\ndisallow: /a*b\n", "bot", U + "/ab", DISALLOW,
         "'*' matches zero characters"),
    case("R4-star-many-chars", "user-agent: *\ndisallow: /a*b\n", "bot", U + "/a/x/y?b",
         DISALLOW, "'*' matches any characters, '/' and '?' included"),
    case("R4-star-then-prefix", "user-agent: *\ndisallow: /a*b\n", "bot", U + "/a/x/y/bz",
         DISALLOW, "the pattern still only needs to match a prefix"),
    case("R4-star-no-b", "user-agent: *\ndisallow: /a*b\n", "bot", U + "/a/x", ALLOW,
         "'/a*b' needs a 'b' after '/a'"),
    case("R4-dollar-end", "user-agent: *\ndisallow: /a$\n", "bot", U + "/a", DISALLOW,
         "'$' anchors the end of the URL"),
    case("R4-dollar-not-prefix", "user-agent: *\ndisallow: /a$\n", "bot", U + "/ab", ALLOW,
         "'/a$' is not a prefix rule"),
    case("R4-dollar-query", "user-agent: *\ndisallow: /a$\n", "bot", U + "/a?x", ALLOW,
         "the query is part of the URL's end"),
    case("R4-star-dollar", "user-agent: *\ndisallow: /x*$\n", "bot", U + "/x", DISALLOW,
         "'/x*$' matches '/x' ('*' is empty)"),
    case("R4-star-dollar-any", "user-agent: *\ndisallow: /x*$\n", "bot", U + "/xyz/w", DISALLOW,
         "'/x*$' matches anything starting with '/x'"),
    case("R4-leading-star", "user-agent: *\ndisallow: *.gif$\n", "bot", U + "/a/b.gif",
         DISALLOW, "a pattern may start with '*' (RFC 9309 5.1)"),
    case("R4-lone-star", "user-agent: *\ndisallow: *\n", "bot", U + "/", DISALLOW,
         "'*' alone matches every path"),
    case("R4-several-stars", "user-agent: *\ndisallow: /*a*b*c\n", "bot", U + "/xaybzc",
         DISALLOW, "several wildcards"),
    case("R4-several-stars-order", "user-agent: *\ndisallow: /*a*b*c\n", "bot", U + "/xcybza",
         ALLOW, "several wildcards keep their order"),
    case("R4-star-literal-url", "user-agent: *\ndisallow: /x*y\n", "bot", U + "/x%2Ay",
         DISALLOW, "'*' also matches an escaped star"),
    case("R4-escaped-star-literal", "user-agent: *\ndisallow: /x%2Ay\n", "bot", U + "/xzy",
         ALLOW, "an escaped '*' in a rule is no wildcard"),
    case("R4-inner-dollar-literal", "user-agent: *\ndisallow: /$x\n", "bot", U + "/$x",
         DISALLOW, "reference: a '$' that is not last is a literal character",
         modes=GOOGLE, google_only=True),
    case("R4-inner-dollar-not-anchor", "user-agent: *\ndisallow: /$x\n", "bot", U + "/", ALLOW,
         "reference: a '$' that is not last anchors nothing", modes=GOOGLE, google_only=True),
    case("R4-pathological-pattern", "user-agent: *\ndisallow: /" + "*a" * 200 + "b\n", "bot",
         U + "/" + "a" * 500, ALLOW, "many wildcards, no match (must finish quickly)"),
    case("R4-pathological-pattern-hit", "user-agent: *\ndisallow: /" + "*a" * 200 + "b\n",
         "bot", U + "/" + "a" * 500 + "b", DISALLOW, "many wildcards, a match"),
)

ALL = flatten(R5, R5_NO_SLASH, R6, R6_MORE, R1, R3, R4)


@pytest.mark.parametrize(("mode", "body", "agent", "url", "expected", "why"), ALL)
def test_rule_matching(mode, body, agent, url, expected, why):
    """R1-R6: each row pins whether a rule matches a URL and which rule wins."""
    rt = robotrules.parse(body, mode=mode)
    assert rt.allowed(url, agent) is expected, why


@pytest.mark.oracle
@pytest.mark.parametrize(("mode", "body", "agent", "url", "expected", "why"), google_rows(ALL))
def test_reference_agrees(mode, body, agent, url, expected, why):
    """The google-mode expectations above (seed tables included) are the reference's answers."""
    assert oracle_allowed(body, agent, url) is expected, why


@pytest.mark.parametrize("pattern", ["/fish", "/fish/", "/*.php", "/fish*.php", "/"])
def test_trailing_star_changes_nothing(pattern):
    """R4: '/fish*' == '/fish', '/*' == '/': a trailing '*' changes no decision."""
    urls = [p for hits, misses in PATH_TABLE.values() for p in hits + misses]
    plain = robotrules.parse(f"user-agent: *\ndisallow: {pattern}\n")
    starred = robotrules.parse(f"user-agent: *\ndisallow: {pattern}*\n")
    for path in urls:
        assert plain.allowed(U + path, "bot") == starred.allowed(U + path, "bot"), path
