"""The audit's verdict for one robots.txt and one agent: its exact definition, corner by corner.

Every case is also checked against the single-URL decision (RobotsTxt.check) over probe paths
built from the file's own rules: a "blocked" agent may fetch none of them (but robots.txt), an
"allowed" one all of them, a "partly" one some and not others.
"""

from __future__ import annotations

import pytest

from robotrules import parse
from robotrules.answers import Governing
from robotrules.batch.audit import classify, classify_site, default_agents
from robotrules.core.robotstxt import RobotsTxt
from robotrules.crawlers import CRAWLERS

CASES = [
    # (body, agent, verdict, why)
    ("", "GPTBot", "allowed", "an empty file allows everything"),
    ("User-agent: *\nDisallow:\n", "GPTBot", "allowed", "R1: an empty disallow blocks nothing"),
    ("User-agent: *\nAllow: /\n", "GPTBot", "allowed", "a group with only allow lines"),
    ("User-agent: *\nDisallow: /\n", "GPTBot", "blocked", "Disallow: / blocks every path"),
    ("User-agent: *\nDisallow: /*\n", "GPTBot", "blocked", "R4: /* is every path"),
    ("User-agent: *\nDisallow: *\n", "GPTBot", "blocked", "Google: * alone is every path"),
    ("User-agent: *\nDisallow: /\nAllow: /$\n", "GPTBot", "partly", "the home page stays open"),
    ("User-agent: *\nDisallow: /\nAllow: /public/\n", "GPTBot", "partly", "an allow opens a folder"),
    ("User-agent: *\nDisallow: /*\nAllow: /\n", "GPTBot", "blocked", "R6: the shorter allow never wins"),
    ("User-agent: *\nDisallow: /\nAllow: /\n", "GPTBot", "allowed", "R6: on equal length allow wins"),
    ("User-agent: *\nDisallow: /\nAllow: /robots.txt\n", "GPTBot", "blocked", "robots.txt is always readable"),
    ("User-agent: *\nDisallow: /\nAllow: /a\nDisallow: /a*\n", "GPTBot", "blocked",
     "R6: a longer disallow covers the allow's every path"),
    ("User-agent: *\nDisallow: /\nAllow: /a\nDisallow: /a/\n", "GPTBot", "partly", "/ab stays open"),
    ("User-agent: *\nDisallow: /private\nAllow: /private\n", "GPTBot", "allowed", "an allow of the same path wins"),
    ("User-agent: *\nDisallow: /$\n", "GPTBot", "partly", "only the home page is closed"),
    ("User-agent: *\nDisallow: /*.pdf$\n", "GPTBot", "partly", "a wildcard rule closes some paths"),
    ("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "GPTBot", "blocked", "its own group"),
    ("User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n", "Googlebot", "allowed", "G2: the * group"),
    ("User-agent: GPTBot\nDisallow: /\n", "Googlebot", "allowed", "no group applies"),
    ("User-agent: gptbot\nDisallow: /\n", "GPTBot/1.2 (+https://openai.com/gptbot)", "blocked",
     "G3: the product token, case-insensitively"),
    ("User-agent: GPTBot\nDisallow: /a\n\nUser-agent: GPTBot\nDisallow: /\n", "GPTBot", "blocked",
     "G4: groups naming the agent merge"),
]


def probes(robots: RobotsTxt) -> list[str]:
    """Paths that exercise every rule of the file: each rule's literal start, and a step past it."""
    paths = {"/", "/index.html", "/x", "/public/page", "/a", "/ab", "/a/b", "/private", "/doc.pdf"}
    for group in robots.groups:
        for rule in group.rules:
            head = rule.value.split("*", 1)[0].rstrip("$") or "/"
            paths.update({head, head + "x", head.rstrip("/") + "/x"})
    return sorted(path for path in paths if path.startswith("/"))


@pytest.mark.parametrize(("body", "agent", "expected", "why"), CASES, ids=[case[3] for case in CASES])
def test_verdict_follows_the_definition_and_agrees_with_single_url_checks(body: str, agent: str, expected: str,
                                                                          why: str) -> None:
    """R1, R4, R6, G2-G4: the verdict, and the single-URL decisions over the file's probe paths agree with it."""
    robots = parse(body)
    assert classify(robots, agent).verdict == expected, why
    token = agent.split("/", maxsplit=1)[0]
    allowed = {path: robots.check(path, token).allowed for path in probes(robots)
               if not path.startswith("/robots.txt")}  # by definition: allows of robots.txt open nothing
    if expected == "blocked":
        assert not any(allowed.values()), allowed
    elif expected == "allowed":
        assert all(allowed.values()), allowed
    else:
        assert not all(allowed.values()), allowed


def test_partly_lists_the_disallow_rules_that_can_decide_as_written() -> None:
    """R6: a disallow beaten everywhere by an allow of the same path is not counted; the others are kept as written."""
    robots = parse("User-agent: *\nDisAllow: /tmp  # scratch\nDisallow: /same\nAllow: /same\nDisallow: /*.pdf$\n")
    found = classify(robots, "Bingbot")
    assert found.verdict == "partly"
    assert found.disallow_rules == ("DisAllow: /tmp", "Disallow: /*.pdf$")


def test_explicit_says_whether_a_group_names_the_agent() -> None:
    """G2: a named group is explicit; the * fallback is not."""
    robots = parse("User-agent: CCBot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp\n")
    assert classify(robots, "CCBot").explicit is True
    assert classify(robots, "GPTBot").explicit is False


def test_crawl_delay_and_content_signals_come_from_the_agents_group() -> None:
    """N2: crawl-delay, Content-Signal and Content-Usage lines of the group that applies."""
    robots = parse("User-agent: Bingbot\nDisallow: /x\nCrawl-delay: 7\nContent-Usage: train-ai=n\nContent-Usage: /blog/ search=y\n\n"
                   "User-agent: *\nCrawl-delay: 1\nContent-Signal: search=yes, ai-train=no\n")
    bing = classify(robots, "Bingbot")
    assert (bing.crawl_delay, bing.content_signals) == (7.0, "train-ai=n; /blog/ search=y")
    other = classify(robots, "GPTBot")
    assert (other.crawl_delay, other.content_signals) == (1.0, "search=yes, ai-train=no")


@pytest.mark.parametrize(("kind", "status", "verdict"), [("allow", 404, "no-robots"), ("disallow", 503, "unreachable"),
                                                          ("unknown", 0, "unknown")])
def test_a_site_without_rules_has_the_same_verdict_for_every_agent(kind: str, status: int, verdict: str) -> None:
    """F4, F5: a 4xx allows everything, a 5xx disallows everything, whoever asks; no capture is unknown."""
    gov = Governing("https://a.test/robots.txt", kind, status, "why")  # type: ignore[arg-type]
    rows = classify_site(gov, ["GPTBot", "*"])
    assert [(row[1], row[5], row[6], row[-2]) for row in rows] == [("GPTBot", status, verdict, "why"),
                                                                   ("*", status, verdict, "why")]


def test_rows_name_the_operator_and_purpose_from_the_registry() -> None:
    """The registry gives each known agent its operator, purpose and kind; '*' stands for every other crawler."""
    gov = Governing("https://a.test/robots.txt", "rules", 200, "200", parse("User-agent: *\nDisallow: /x\n"))
    gpt, star = classify_site(gov, ["GPTBot", "*"])
    assert gpt[2:5] == ("OpenAI", next(c.purpose for c in CRAWLERS if c.token == "GPTBot"), "ai-training")
    assert star[2] == "" and "not named" in star[3]


def test_default_agents_are_the_registry_names_once_each_and_star() -> None:
    """A8: the default audit covers every crawler of the registry by the name its operator writes
    (several names may share one product token: each is audited), each name once whatever its
    case, then '*'."""
    from robotrules.crawlers import Crawler

    agents = default_agents()
    assert agents[-1] == "*" and agents[:-1] == tuple(dict.fromkeys(c.name for c in CRAWLERS))
    assert len({agent.lower() for agent in agents}) == len(agents)
    twins = (Crawler("AI2Bot", "Allen", "p", "ai-training", "https://x.test/"),
             Crawler("AI2Bot-Dolma", "Allen", "p", "ai-training", "https://x.test/"),
             Crawler("ai2bot", "Allen", "p", "ai-training", "https://x.test/"))
    assert default_agents(twins) == ("AI2Bot", "AI2Bot-Dolma", "*")
