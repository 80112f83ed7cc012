"""Issue #19 item 5: what a crawler really has (a User-Agent header, "Googlebot/2.1", a relative
URL) is decided as the reference decides it, with a warning that names what to pass (G2, G3, R3)."""

from __future__ import annotations

import subprocess
import sys
import warnings

import pytest

import robotrules
from robotrules import RobotsInputWarning, parse
from robotrules.core import agents


@pytest.fixture(autouse=True)
def _fresh_memo() -> None:
    """Each test sees its agents for the first time (the warning comes once per process)."""
    agents._SEEN_AGENTS.clear()


BODY = b"User-agent: Googlebot\nDisallow: /private\n\nUser-agent: *\nDisallow: /\n"


def test_a_versioned_agent_keeps_the_references_verdict_and_warns_with_the_token():
    """G3: "Googlebot/2.1" is compared whole, so only the '*' group applies; the warning names 'Googlebot'."""
    robots = parse(BODY)
    with pytest.warns(RobotsInputWarning, match=r"'Googlebot/2\.1'.*'Googlebot'") as caught:
        decision = robots.check("https://example.com/page", "Googlebot/2.1")
    assert (decision.allowed, decision.agent) == (False, "*")
    assert caught[0].filename == __file__  # attributed to the caller, not to robotrules


def test_a_whole_user_agent_header_warns_on_the_allowed_hot_path():
    """G2, G3: allowed() with a full header warns too, with user_agent_token's answer."""
    header = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html) issue19-hot-path"
    with pytest.warns(RobotsInputWarning, match="'Googlebot'") as caught:
        assert parse(BODY).allowed("https://example.com/private", header) is False
    assert caught[0].filename == __file__


def test_the_warning_comes_once_per_distinct_agent():
    """Memoised: the second call for the same string is silent, another string warns again."""
    robots = parse(BODY)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(3):
            robots.allowed("/page", "OnceBot/1.0")
            robots.check("/page", "OnceBot/1.0")
        robots.allowed("/page", "OnceBot/2.0")
    assert [str(w.message).split("'")[1] for w in caught] == ["OnceBot/1.0", "OnceBot/2.0"]


def test_product_tokens_and_the_star_never_warn():
    """What the CLI, the service and the compat layers pass: tokens, known or not, and '*'."""
    robots = parse(BODY)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RobotsInputWarning)
        for agent in ("Googlebot", "googlebot", "UnknownBot", "Googlebot-Image", "my_bot", "*"):
            robots.allowed("https://example.com/x", agent)
            robots.check("/x", agent)
            robots.crawl_delay(agent)
        robots.check("//example.com/x", ["Googlebot", "Googlebot-News"])


def test_a_relative_url_keeps_the_references_verdict_and_warns():
    """R3: "private/page" is neither absolute nor a path: decided as the reference does, with a warning."""
    robots = parse(BODY)
    with pytest.warns(RobotsInputWarning, match="'private/page' is neither an absolute URL nor a path"):
        assert robots.allowed("private/page", "Googlebot") is True
    with pytest.warns(RobotsInputWarning, match="neither an absolute URL"):
        robots.check("example.com/private", "Googlebot")


def test_the_1994_mode_matches_names_liberally_and_does_not_warn_about_agents():
    """L2: legacy1994 compares names without their version, so "Googlebot/2.1" is meant there."""
    robots = parse(BODY, mode="legacy1994")
    with warnings.catch_warnings():
        warnings.simplefilter("error", RobotsInputWarning)
        assert robots.check("/private", "Googlebot/2.1").allowed is False


def test_the_warning_category_is_a_user_warning_exported_from_robotrules():
    """Public: robotrules.RobotsInputWarning, so programs can filter it or make it an error."""
    assert issubclass(robotrules.RobotsInputWarning, UserWarning)
    code = ("import robotrules; robotrules.parse(b'User-agent: *\\nDisallow: /').allowed('/', 'Foo/1.0')")
    run = subprocess.run([sys.executable, "-W", "error::UserWarning", "-c", code], check=False,
                         capture_output=True, text=True)
    assert run.returncode == 1 and "RobotsInputWarning" in run.stderr and "'Foo'" in run.stderr
