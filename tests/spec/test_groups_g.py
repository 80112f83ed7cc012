"""SPEC G1-G5: groups and user agents, as tables.

The seed examples are given with "(group N)" placeholders; here each group N gets the rule
``disallow: /groupN``, so "agent follows group N" reads "agent is disallowed on /groupN and
allowed on the other /groupM". A list of agents is one crawler checking on behalf of several
tokens; in google mode it means the reference's ``AllowedByRobots(body, [agents], url)``.
"""

from __future__ import annotations

import pytest

import robotrules

from ._cases import ALLOW, BOTH, DISALLOW, GOOGLE, U, case, flatten, google_rows, oracle_allowed

# --- G5 seed example 1 -------------------------------------------------------------------------
EXAMPLE_1 = (
    "user-agent: googlebot-news\ndisallow: /group1\n\n"
    "user-agent: *\ndisallow: /group2\n\n"
    "user-agent: googlebot\ndisallow: /group3\n"
)


def follows(id, agent, group, why, body=EXAMPLE_1, n=3, modes=BOTH, google_only=False):
    """Rows saying that `agent` follows exactly group `group` of `body` (groups 1..n)."""
    return flatten(*[
        case(f"{id}-group{g}", body, agent, U + f"/group{g}",
             DISALLOW if g == group else ALLOW, why, modes=modes, google_only=google_only)
        for g in range(1, n + 1)
    ])


G5 = flatten(
    follows("G5-ex1-googlebot-news", "googlebot-news", 1,
            "Googlebot News follows only the most specific group, group 1"),
    follows("G5-ex1-googlebot-news-case", "Googlebot-News", 1,
            "the product token matches case-insensitively"),
    follows("G5-ex1-googlebot-web", "googlebot", 3, "Googlebot (web) follows group 3"),
    follows("G5-ex1-googlebot-images", ["googlebot-image", "googlebot"], 3,
            "Googlebot Images: no googlebot-image group, so the more generic googlebot group"),
    follows("G5-ex1-googlebot-image-alone", "googlebot-image", 2,
            "the single token 'googlebot-image' matches no group exactly, so '*' (no prefix "
            "matching); Google's image crawler also checks 'googlebot', see the row above"),
    follows("G5-ex1-news-crawling-images", ["googlebot-news", "googlebot-image"], 1,
            "Googlebot News crawling images follows the Googlebot News group only"),
    follows("G5-ex1-otherbot-web", "otherbot", 2, "Otherbot (web) follows the '*' group"),
    follows("G5-ex1-otherbot-news", "otherbot-news", 2,
            "Otherbot (news) follows '*' too: a related entry applies only if it matches"),
    follows("G5-ex1-several-unknown", ["otherbot", "thirdbot"], 2,
            "several tokens that match no group fall back to '*'"),
    follows("G5-ex1-list-order", ["otherbot", "googlebot-news"], 1,
            "a specific match among several tokens beats '*', whatever the list order"),
)

# The reference merges the rules of every group matched by any token of the list; SPEC G5
# speaks of "the group of its most specific token". Pinned for google mode (the reference
# decides) so that a change is noticed; see the report.
G5_MERGE = flatten(
    case("G5-list-merges-matched-groups-group1", EXAMPLE_1, ["googlebot-news", "googlebot"],
         U + "/group1", DISALLOW, "reference: rules of groups 1 and 3 both apply",
         modes=GOOGLE, google_only=True),
    case("G5-list-merges-matched-groups-group3", EXAMPLE_1, ["googlebot-news", "googlebot"],
         U + "/group3", DISALLOW, "reference: rules of groups 1 and 3 both apply",
         modes=GOOGLE, google_only=True),
    case("G5-list-merges-matched-groups-group2", EXAMPLE_1, ["googlebot-news", "googlebot"],
         U + "/group2", ALLOW, "'*' is not used when a specific group matched",
         modes=GOOGLE, google_only=True),
)

# --- G4 seed example 2: groups for the same agent are merged ------------------------------------
EXAMPLE_2 = (
    "user-agent: googlebot-news\ndisallow: /fish\n\n"
    "user-agent: *\ndisallow: /carrots\n\n"
    "user-agent: googlebot-news\ndisallow: /shrimp\n"
)
G4 = flatten(
    case("G4-ex2-news-fish", EXAMPLE_2, "googlebot-news", U + "/fish", DISALLOW,
         "googlebot-news gets /fish from its first group"),
    case("G4-ex2-news-shrimp", EXAMPLE_2, "googlebot-news", U + "/shrimp", DISALLOW,
         "googlebot-news gets /shrimp from its second group (merged)"),
    case("G4-ex2-news-carrots", EXAMPLE_2, "googlebot-news", U + "/carrots", ALLOW,
         "googlebot-news does not get the '*' rules"),
    case("G4-ex2-news-other", EXAMPLE_2, "googlebot-news", U + "/other", ALLOW,
         "nothing else is disallowed"),
    case("G4-ex2-star-carrots", EXAMPLE_2, "otherbot", U + "/carrots", DISALLOW,
         "other crawlers get /carrots"),
    case("G4-ex2-star-fish", EXAMPLE_2, "otherbot", U + "/fish", ALLOW,
         "other crawlers do not get the googlebot-news rules"),
    case("G4-ex2-star-shrimp", EXAMPLE_2, "otherbot", U + "/shrimp", ALLOW,
         "other crawlers do not get the googlebot-news rules"),
    case("G4-ex2-googlebot-star", EXAMPLE_2, "googlebot", U + "/carrots", DISALLOW,
         "googlebot has no group and is not googlebot-news: '*'"),
    case("G4-merge-case-insensitive",
         "user-agent: ExampleBot\ndisallow: /a\n\nuser-agent: examplebot\ndisallow: /b\n",
         "examplebot", U + "/a", DISALLOW, "groups are merged across differently cased tokens"),
    case("G4-merge-case-insensitive-b",
         "user-agent: ExampleBot\ndisallow: /a\n\nuser-agent: examplebot\ndisallow: /b\n",
         "EXAMPLEBOT", U + "/b", DISALLOW, "groups are merged across differently cased tokens"),
    case("G4-merge-star", "user-agent: *\ndisallow: /a\n\nuser-agent: *\nallow: /a/b\n", "bot",
         U + "/a/b", ALLOW, "two '*' groups are merged: the longer allow wins"),
)

# --- G1: group boundaries ------------------------------------------------------------------------
SEED_GROUPS = (
    "user-agent: a\ndisallow: /c\n\n"
    "user-agent: b\ndisallow: /d\n\n"
    "user-agent: e\nuser-agent: f\ndisallow: /g\n\n"
    "user-agent: h\n"
)
G1 = flatten(
    case("G1-seed-a-c", SEED_GROUPS, "a", U + "/c", DISALLOW, "group 'a' has /c"),
    case("G1-seed-a-d", SEED_GROUPS, "a", U + "/d", ALLOW, "group 'a' does not have /d"),
    case("G1-seed-b-d", SEED_GROUPS, "b", U + "/d", DISALLOW, "group 'b' has /d"),
    case("G1-seed-b-c", SEED_GROUPS, "b", U + "/c", ALLOW, "group 'b' does not have /c"),
    case("G1-seed-e-g", SEED_GROUPS, "e", U + "/g", DISALLOW, "e and f share one group"),
    case("G1-seed-f-g", SEED_GROUPS, "f", U + "/g", DISALLOW, "e and f share one group"),
    case("G1-seed-f-c", SEED_GROUPS, "f", U + "/c", ALLOW, "f does not get group a's rules"),
    case("G1-seed-h-empty", SEED_GROUPS, "h", U + "/c", ALLOW,
         "the last group 'h' has no rules: it allows everything"),
    case("G1-seed-unknown", SEED_GROUPS, "zbot", U + "/c", ALLOW,
         "no matching group and no '*': no rules apply"),
    case("G1-last-group-empty-beats-star", "user-agent: *\ndisallow: /\n\nuser-agent: h\n", "h",
         U + "/x", ALLOW, "an empty last group still selects h, so '*' does not apply"),
    case("G1-last-group-empty-others", "user-agent: *\ndisallow: /\n\nuser-agent: h\n", "zbot",
         U + "/x", DISALLOW, "other crawlers follow '*'"),
    case("G1-rules-before-agent-ignored", "disallow: /x\nuser-agent: *\ndisallow: /y\n", "bot",
         U + "/x", ALLOW, "a rule before any user-agent line belongs to no group"),
    case("G1-rules-before-agent-rest-ok", "disallow: /x\nuser-agent: *\ndisallow: /y\n", "bot",
         U + "/y", DISALLOW, "the group after the orphan rule works"),
    case("G1-agent-after-rule-new-group",
         "user-agent: a\ndisallow: /y\nuser-agent: b\ndisallow: /x\n", "a", U + "/x", ALLOW,
         "a user-agent line after a rule starts a new group"),
    case("G1-agents-before-rules-share",
         "user-agent: a\nuser-agent: b\ndisallow: /x\n", "a", U + "/x", DISALLOW,
         "consecutive user-agent lines share the rules that follow"),
    case("G1-empty-disallow-ends-group",
         "user-agent: a\ndisallow:\nuser-agent: b\ndisallow: /x\n", "a", U + "/x", ALLOW,
         "an empty disallow is still a rule line, so 'b' starts a new group"),
    case("G1-empty-file", "", "bot", U + "/x", ALLOW, "no groups at all: no rules apply"),
    case("G1-no-star-no-match", "user-agent: bazbot\ndisallow: /\n", "examplebot", U + "/a",
         ALLOW, "no matching group and no '*' group: no rules apply (RFC 9309 2.2.1)"),
)

# --- G2: one group applies, the most specific; order irrelevant ----------------------------------
G2 = flatten(
    case("G2-specific-beats-star-after",
         "user-agent: *\ndisallow: /x\n\nuser-agent: b\nallow: /\n", "b", U + "/x", ALLOW,
         "b has its own group: the '*' rules are ignored"),
    case("G2-specific-beats-star-before",
         "user-agent: b\nallow: /\n\nuser-agent: *\ndisallow: /x\n", "b", U + "/x", ALLOW,
         "the order of groups is irrelevant"),
    case("G2-not-merged-with-star",
         "user-agent: b\ndisallow: /y\n\nuser-agent: *\ndisallow: /x\n", "b", U + "/x", ALLOW,
         "the specific group is not merged with '*'"),
    case("G2-specific-rules-apply",
         "user-agent: b\ndisallow: /y\n\nuser-agent: *\ndisallow: /x\n", "b", U + "/y", DISALLOW,
         "the specific group's own rules apply"),
    case("G2-star-for-others",
         "user-agent: b\ndisallow: /y\n\nuser-agent: *\ndisallow: /x\n", "c", U + "/x", DISALLOW,
         "'*' is the fallback for crawlers that match no other group"),
    case("G2-star-in-shared-group", "user-agent: a\nuser-agent: *\ndisallow: /x\n", "zbot",
         U + "/x", DISALLOW, "'*' may share a group with other agents"),
)

# --- G3: product token matching -------------------------------------------------------------------
G3 = flatten(
    case("G3-version-in-file", "user-agent: googlebot/1.2\ndisallow: /x\n", "googlebot",
         U + "/x", DISALLOW, "'googlebot/1.2' means googlebot", modes=GOOGLE, google_only=True),
    case("G3-star-suffix-in-file", "user-agent: googlebot*\ndisallow: /x\n", "googlebot",
         U + "/x", DISALLOW, "'googlebot*' means googlebot", modes=GOOGLE, google_only=True),
    case("G3-text-after-space-in-file", "user-agent: googlebot news\ndisallow: /x\n",
         "googlebot", U + "/x", DISALLOW, "text after the product token is ignored",
         modes=GOOGLE, google_only=True),
    case("G3-no-prefix-match-file", "user-agent: googlebot-news\ndisallow: /x\n", "googlebot",
         U + "/x", ALLOW, "'googlebot-news' is not googlebot: whole tokens only"),
    case("G3-no-prefix-match-caller", "user-agent: googlebot\ndisallow: /x\n",
         "googlebot-news", U + "/x", ALLOW, "googlebot-news does not follow a googlebot group"),
    case("G3-star-trailing-space", "user-agent: * \ndisallow: /x\n", "googlebot", U + "/x",
         DISALLOW, "'* ' is the '*' group"),
    case("G3-no-wildcard-in-agent", "user-agent: *bot\ndisallow: /x\n", "googlebot", U + "/x",
         ALLOW, "'*bot' is not a pattern over agent names"),
    case("G3-caller-full-ua-string", "user-agent: googlebot\ndisallow: /x\n", "Googlebot/2.1",
         U + "/x", ALLOW, "the reference compares the caller's whole string with the token; "
         "callers pass the product token (see robotrules.user_agent_token)", modes=GOOGLE,
         google_only=True),
)

ALL = flatten(G5, G5_MERGE, G4, G1, G2, G3)


@pytest.mark.parametrize(("mode", "body", "agent", "url", "expected", "why"), ALL)
def test_group_selection(mode, body, agent, url, expected, why):
    """G1-G5: each row pins which group's rules an agent (or list of agents) follows."""
    rt = robotrules.parse(body, mode=mode)
    assert rt.allowed(url, agent) is expected, why


@pytest.mark.oracle
@pytest.mark.parametrize(("mode", "body", "agent", "url", "expected", "why"), google_rows(ALL))
def test_reference_agrees(mode, body, agent, url, expected, why):
    """The google-mode expectations above are the reference's answers."""
    assert oracle_allowed(body, agent, url) is expected, why


def test_agent_list_equals_single_agent_for_one_token():
    """G5: a one-element list decides like the single agent."""
    rt = robotrules.parse(EXAMPLE_1)
    for g in (1, 2, 3):
        for agent in ("googlebot-news", "googlebot", "otherbot"):
            url = U + f"/group{g}"
            assert rt.allowed(url, [agent]) == rt.allowed(url, agent)
