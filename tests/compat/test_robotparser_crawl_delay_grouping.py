"""Issue #22 item 5: a ``user-agent`` line after a ``crawl-delay`` line joins the same group.

Only a rule (``allow``, ``disallow``) ends a group's run of ``user-agent`` lines (G1);
``crawl-delay`` and ``request-rate`` are other lines (N2) and end nothing. So in

    User-agent: one
    Crawl-delay: 5
    User-agent: two
    Crawl-delay: 10

``one`` and ``two`` are one group, and the first valid ``crawl-delay`` of the group, 5, is the
answer for both. ``urllib.robotparser`` and protego start a new entry at ``User-agent: two`` and
answer 10 for it. This file pins robotrules' answer, the peers' answers (so the difference listed
in docs/guides/robotparser.md stays true) and the reference parser's grouping, which is why.
"""

from __future__ import annotations

import urllib.robotparser
from pathlib import Path
from urllib.robotparser import RequestRate

import protego
import pytest

from robotrules.compat import RobotFileParser
from tests.conformance import oracle

BODY = """\
User-agent: one
Crawl-delay: 5
Request-rate: 1/5
User-agent: two
Crawl-delay: 10
Request-rate: 1/10
"""

GUIDE_ROW = "| `User-agent: one`, `Crawl-delay: 5`, `User-agent: two`, `Crawl-delay: 10`: `crawl_delay(\"two\")` |"


def robotrules_parser(body: str = BODY, mode: str = "google") -> RobotFileParser:
    rp = RobotFileParser(mode=mode)
    rp.parse(body.splitlines())
    return rp


@pytest.mark.parametrize("mode", ["google", "rfc9309", "legacy1994"])
def test_a_user_agent_after_a_crawl_delay_joins_the_group_and_gets_its_first_delay(mode: str) -> None:
    """G1, N2: ``crawl-delay`` is not a rule, so ``User-agent: two`` joins ``one``'s group; the
    group's first valid ``crawl-delay`` (5) answers for both agents, in every mode."""
    rp = robotrules_parser(mode=mode)
    assert rp.crawl_delay("one") == 5
    assert rp.crawl_delay("two") == 5
    assert rp.crawl_delay("Two/2.0") == 5  # the agent's token decides (G3)


def test_request_rate_follows_the_same_grouping() -> None:
    """G1, N2: ``request-rate`` is read from the same merged group: the first one, 1/5, for both agents."""
    rp = robotrules_parser()
    assert rp.request_rate("one") == RequestRate(1, 5)
    assert rp.request_rate("two") == RequestRate(1, 5)


def test_the_standard_library_starts_a_new_entry_at_the_second_user_agent() -> None:
    """The difference documented in docs/guides/robotparser.md: in ``urllib.robotparser`` a
    ``Crawl-delay`` line ends the entry's agents, so ``User-agent: two`` starts a new entry and gets 10 (and 1/10)."""
    rp = urllib.robotparser.RobotFileParser()
    rp.parse(BODY.splitlines())
    assert rp.crawl_delay("one") == 5
    assert rp.crawl_delay("two") == 10
    assert rp.request_rate("two") == RequestRate(1, 10)


def test_protego_starts_a_new_group_at_the_second_user_agent() -> None:
    """The same difference with protego: ``two`` gets 10 (and 1/10)."""
    rp = protego.Protego.parse(BODY)
    assert rp.crawl_delay("one") == 5
    assert rp.crawl_delay("two") == 10
    rate = rp.request_rate("two")
    assert rate is not None and (rate.requests, rate.seconds) == (1, 10)


def test_the_reference_parser_groups_the_agents_the_same_way() -> None:
    """G1, as Google's reference decides it: a ``disallow`` after ``User-agent: two`` applies to
    ``one`` too, because the ``crawl-delay`` line between them did not end the group; robotrules
    decides each URL as the reference does."""
    body = BODY + "Disallow: /private\n"
    for agent in ("one", "two"):
        assert oracle.allowed(body, agent, "https://example.com/private/x") is False, agent
        assert robotrules_parser(body).can_fetch(agent, "https://example.com/private/x") is False, agent
    assert oracle.allowed(body, "three", "https://example.com/private/x") is True
    assert robotrules_parser(body).can_fetch("three", "https://example.com/private/x") is True


def test_a_rule_between_the_groups_keeps_them_apart() -> None:
    """G1: with a rule after ``Crawl-delay: 5``, ``User-agent: two`` starts a new group, and every
    library answers 10 for ``two``: the difference is only about groups with no rule yet."""
    body = "User-agent: one\nCrawl-delay: 5\nDisallow: /a\nUser-agent: two\nCrawl-delay: 10\nDisallow: /b\n"
    standard = urllib.robotparser.RobotFileParser()
    standard.parse(body.splitlines())
    assert robotrules_parser(body).crawl_delay("two") == standard.crawl_delay("two") == 10
    assert protego.Protego.parse(body).crawl_delay("two") == 10


def test_the_robotparser_guide_lists_the_difference() -> None:
    """The differences table of docs/guides/robotparser.md has this row, with its reason (G1)."""
    guide = Path(__file__).resolve().parents[2] / "docs" / "guides" / "robotparser.md"
    rows = [line for line in guide.read_text(encoding="utf-8").splitlines() if line.startswith(GUIDE_ROW)]
    assert len(rows) == 1, GUIDE_ROW
    assert "`10`" in rows[0] and "`5`" in rows[0] and "(../requirements.md#G1)" in rows[0]
