"""SPEC L1-L3: the 1994 Robots Exclusion Standard (mode="legacy1994"), as tables.

The seed (000) is a scraped translation whose examples have a blank line after every line;
the examples here use the layout of the original standard (records separated by blank lines,
no blank lines inside a record). There is no oracle for this mode: the expectations come from
SPEC L1-L3 and the seed's text.
"""

from __future__ import annotations

import pytest

import robotrules

from ._cases import ALLOW, DISALLOW, LEGACY, U, case, flatten

# The three examples of the 1994 standard.
EXAMPLE_1 = (
    "# robots.txt for http://www.example.com/\n\n"
    "User-agent: *\n"
    "Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n"
    "Disallow: /tmp/ # these will soon disappear\n"
    "Disallow: /foo.html\n"
)
EXAMPLE_2 = (
    "# robots.txt for http://www.example.com/\n\n"
    "User-agent: *\n"
    "Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n\n"
    "# Cybermapper knows where to go.\n"
    "User-agent: cybermapper\n"
    "Disallow:\n"
)
EXAMPLE_3 = "# go away\nUser-agent: *\nDisallow: /\n"


def legacy(id, body, agent, url, expected, why):
    return case(id, body, agent, url, expected, why, modes=LEGACY)


EXAMPLES = flatten(
    legacy("L-ex1-map", EXAMPLE_1, "anybot", U + "/cyberworld/map/index.html", DISALLOW,
           "example 1: /cyberworld/map/ is disallowed"),
    legacy("L-ex1-tmp", EXAMPLE_1, "anybot", U + "/tmp/x", DISALLOW, "example 1: /tmp/"),
    legacy("L-ex1-foo", EXAMPLE_1, "anybot", U + "/foo.html", DISALLOW, "example 1: /foo.html"),
    legacy("L-ex1-foo-prefix", EXAMPLE_1, "anybot", U + "/foo.html.bak", DISALLOW,
           "example 1: a prefix: any URL starting with /foo.html"),
    legacy("L-ex1-cyberworld", EXAMPLE_1, "anybot", U + "/cyberworld/index.html", ALLOW,
           "example 1: only the map subtree is disallowed"),
    legacy("L-ex1-tmp-no-slash", EXAMPLE_1, "anybot", U + "/tmp", ALLOW,
           "example 1: /tmp/ does not cover /tmp"),
    legacy("L-ex1-root", EXAMPLE_1, "anybot", U + "/", ALLOW, "example 1: the rest is allowed"),
    legacy("L-ex2-other", EXAMPLE_2, "anybot", U + "/cyberworld/map/x", DISALLOW,
           "example 2: robots other than cybermapper stay out of the map"),
    legacy("L-ex2-cybermapper", EXAMPLE_2, "cybermapper", U + "/cyberworld/map/x", ALLOW,
           "example 2: cybermapper's record has an empty Disallow: everything allowed"),
    legacy("L-ex2-cybermapper-version", EXAMPLE_2, "CyberMapper/1.0", U + "/cyberworld/map/x",
           ALLOW, "example 2: case-insensitive, version information ignored"),
    legacy("L-ex3-anything", EXAMPLE_3, "anybot", U + "/anything", DISALLOW,
           "example 3: no robot should visit the site"),
    legacy("L-ex3-root", EXAMPLE_3, "anybot", U + "/", DISALLOW, "example 3: not even the root"),
)

L1 = flatten(
    legacy("L1-records", "User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\n", "a",
           U + "/a", DISALLOW, "record 'a' has /a"),
    legacy("L1-records-separate", "User-agent: a\nDisallow: /a\n\nUser-agent: b\nDisallow: /b\n",
           "a", U + "/b", ALLOW, "record 'b' does not apply to 'a'"),
    legacy("L1-blank-line-ends-record", "User-agent: a\n\nDisallow: /x\n", "a", U + "/x", ALLOW,
           "a blank line ends the record: the Disallow after it has no User-agent"),
    legacy("L1-comment-line-not-boundary", "User-agent: a\n# comment\nDisallow: /x\n", "a",
           U + "/x", DISALLOW, "a comment-only line is not a record boundary"),
    legacy("L1-trailing-comment", "User-agent: a # the a robot\nDisallow: /x # secret\n", "a",
           U + "/x", DISALLOW, "'#' and the rest of the line are discarded"),
    legacy("L1-unknown-field", "User-agent: a\nFoo: bar\nDisallow: /x\n", "a", U + "/x",
           DISALLOW, "unrecognised headers are ignored"),
    legacy("L1-field-case", "user-AGENT: a\ndisALLOW: /x\n", "a", U + "/x", DISALLOW,
           "field names are case-insensitive"),
    legacy("L1-crlf", "User-agent: a\r\nDisallow: /x\r\n\r\nUser-agent: b\r\nDisallow: /y\r\n",
           "a", U + "/y", ALLOW, "CR LF line ends; the empty CR LF line separates records"),
    legacy("L1-cr", "User-agent: a\rDisallow: /x\r\rUser-agent: b\rDisallow: /y\r", "a",
           U + "/x", DISALLOW, "CR line ends"),
    legacy("L1-cr-records", "User-agent: a\rDisallow: /x\r\rUser-agent: b\rDisallow: /y\r", "a",
           U + "/y", ALLOW, "an empty CR line separates records"),
)

L2 = flatten(
    legacy("L2-several-agents", "User-agent: a\nUser-agent: b\nDisallow: /x\n", "b", U + "/x",
           DISALLOW, "several User-agent lines share one record"),
    legacy("L2-case-insensitive", "User-agent: CyberMapper\nDisallow: /x\n", "cybermapper",
           U + "/x", DISALLOW, "agent names match case-insensitively"),
    legacy("L2-version-ignored", "User-agent: cybermapper\nDisallow: /x\n", "CyberMapper/2.1",
           U + "/x", DISALLOW, "the robot's version information is ignored"),
    legacy("L2-substring", "User-agent: mapper\nDisallow: /x\n", "CyberMapper/2.1", U + "/x",
           DISALLOW, "liberal matching: the record's name is a substring of the robot's name"),
    legacy("L2-no-match-star", "User-agent: cybermapper\nDisallow: /x\n\n"
           "User-agent: *\nDisallow: /y\n", "googlebot", U + "/y", DISALLOW,
           "a robot matching no record follows the '*' default record"),
    legacy("L2-no-match-star-not-other", "User-agent: cybermapper\nDisallow: /x\n\n"
           "User-agent: *\nDisallow: /y\n", "googlebot", U + "/x", ALLOW,
           "... and not the other records"),
    legacy("L2-match-not-star", "User-agent: *\nDisallow: /y\n\n"
           "User-agent: cybermapper\nDisallow: /x\n", "cybermapper", U + "/y", ALLOW,
           "a robot with its own record ignores the '*' record"),
    legacy("L2-no-record-no-star", "User-agent: cybermapper\nDisallow: /\n", "googlebot",
           U + "/x", ALLOW, "no matching record and no '*' record: no restrictions"),
)

L3 = flatten(
    legacy("L3-help-html", "User-agent: *\nDisallow: /help\n", "bot", U + "/help.html", DISALLOW,
           "'/help' disallows /help.html"),
    legacy("L3-help-index", "User-agent: *\nDisallow: /help\n", "bot", U + "/help/index.html",
           DISALLOW, "'/help' disallows /help/index.html"),
    legacy("L3-help-slash-index", "User-agent: *\nDisallow: /help/\n", "bot",
           U + "/help/index.html", DISALLOW, "'/help/' disallows /help/index.html"),
    legacy("L3-help-slash-html", "User-agent: *\nDisallow: /help/\n", "bot", U + "/help.html",
           ALLOW, "'/help/' allows /help.html"),
    legacy("L3-case-sensitive", "User-agent: *\nDisallow: /help\n", "bot", U + "/Help.html",
           ALLOW, "paths are compared as written"),
    legacy("L3-empty-disallow", "User-agent: *\nDisallow:\n", "bot", U + "/anything", ALLOW,
           "an empty Disallow allows everything"),
    legacy("L3-empty-file", "", "bot", U + "/anything", ALLOW, "an empty robots.txt: welcome"),
    legacy("L3-comments-only", "# nothing\n", "bot", U + "/anything", ALLOW,
           "a file without records: welcome"),
    legacy("L3-query-prefix", "User-agent: *\nDisallow: /cgi-bin/search\n", "bot",
           U + "/cgi-bin/search?q=x", DISALLOW, "the prefix also covers queries"),
    # Allow is not part of the 1994 standard; wildcards are ordinary characters.
    legacy("L3-allow-ignored", "User-agent: *\nDisallow: /\nAllow: /public\n", "bot",
           U + "/public/x", DISALLOW, "'Allow' is an unknown field in 1994: ignored"),
    legacy("L3-allow-only", "User-agent: *\nAllow: /\nDisallow: /x\n", "bot", U + "/x",
           DISALLOW, "an Allow line cannot override a Disallow"),
    legacy("L3-star-literal", "User-agent: *\nDisallow: /*.php\n", "bot", U + "/index.php",
           ALLOW, "'*' in a 1994 path is a literal character, not a wildcard"),
    legacy("L3-star-literal-hit", "User-agent: *\nDisallow: /*.php\n", "bot", U + "/*.php",
           DISALLOW, "'/*.php' only covers paths that literally start with '/*.php'"),
    legacy("L3-dollar-literal", "User-agent: *\nDisallow: /a$\n", "bot", U + "/a", ALLOW,
           "'$' in a 1994 path is a literal character, not an anchor"),
    legacy("L3-dollar-literal-hit", "User-agent: *\nDisallow: /a$\n", "bot", U + "/a$b",
           DISALLOW, "'/a$' covers paths that literally start with '/a$'"),
)

ALL = flatten(EXAMPLES, L1, L2, L3)


@pytest.mark.parametrize(("mode", "body", "agent", "url", "expected", "why"), ALL)
def test_legacy_1994(mode, body, agent, url, expected, why):
    """L1-L3: each row pins one rule of the 1994 standard."""
    rt = robotrules.parse(body, mode=mode)
    assert rt.allowed(url, agent) is expected, why


@pytest.mark.parametrize(("body", "agent", "url"), [
    ("User-agent: *\nDisallow: /\nAllow: /public\n", "bot", U + "/public/x"),
    ("User-agent: *\nDisallow: /*.php\n", "bot", U + "/index.php"),
    ("User-agent: a\n\nDisallow: /x\n", "a", U + "/x"),
])
def test_legacy_differs_from_google(body, agent, url):
    """L1, L3 vs R4/R6/G1: the same file decides differently in legacy1994 and google mode."""
    legacy = robotrules.parse(body, mode="legacy1994").allowed(url, agent)
    google = robotrules.parse(body, mode="google").allowed(url, agent)
    assert legacy != google
