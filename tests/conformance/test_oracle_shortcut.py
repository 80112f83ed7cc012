"""The test oracle's shortcut gives the reference's own answers: ``oracle.check_all`` equals
``oracle.check`` query by query (the corpus differential test relies on it; G2, G5, R1-R6)."""

from __future__ import annotations

import pytest

from . import generate, oracle
from .test_differential_corpus import LINK_AGENTS, LINKS, ROBOTFILES, needs_corpus

pytestmark = [pytest.mark.oracle]

AGENTS = ("FooBot", "foobot", "BarBot", "*", "Foo Bot", ["barbot", "foobot"], ["nobody", "nothing"])
FILES = {
    "no groups": b"Allow: /x\n",
    "global only": b"User-agent: *\nDisallow: /private\nAllow: /private/open\n",
    "named and global": b"User-agent: FooBot\nDisallow: /foo\n\nUser-agent: *\nDisallow: /\n",
    "named group without rules": b"User-agent: FooBot\n\nUser-agent: *\nDisallow: /\n",
    "shared group": b"User-agent: barbot\nUser-agent: *\nDisallow: /shared\n",
    "odd agent lines": b"User-agent: * foobot\nDisallow: /a\nUser-agent: Foo Bot\nDisallow: /b\n",
}
URLS = ("http://site.local/", "http://site.local/private/open", "http://site.local/foo", "http://site.local/a",
        "http://site.local/shared/x", "http://site.local/b?q")


@pytest.mark.parametrize("body", FILES.values(), ids=FILES.keys())
def test_check_all_gives_each_querys_own_reference_answer(body: bytes) -> None:
    """Agents with and without a group of their own, agent lists, the same URL asked for several
    agents: every answer (allowed and line) is the one a separate reference call gives."""
    queries = [(agents, url) for url in URLS for agents in AGENTS]
    assert oracle.check_all(body, queries) == [oracle.check(body, agents, url) for agents, url in queries]


@pytest.mark.parametrize("profile", generate.PROFILES)
def test_check_all_agrees_with_check_on_generated_files(profile: str) -> None:
    """150 generated files per profile (odd user-agent lines, groups, agent lists, patterns), each
    with its own queries asked twice over (so answers are reused)."""
    for index in range(150):
        body, queries = generate.body_queries(generate.DEFAULT_SEED, profile, index)
        queries = queries * 2
        assert oracle.check_all(body, queries) == [oracle.check(body, agents, url) for agents, url in queries]


@needs_corpus
def test_check_all_agrees_with_check_on_a_sample_of_the_corpus() -> None:
    """Every 40th site with links, its first 25 links, the links test's six agents."""
    sites = sorted(s.name for s in LINKS.iterdir() if (ROBOTFILES / s.name).is_file())[::40]
    for site in sites:
        body = (ROBOTFILES / site).read_bytes()
        links = [u for u in (LINKS / site).read_bytes().decode("utf-8", "replace").split("\n") if u.strip()][:25]
        queries = [(agents, url) for url in links for agents in LINK_AGENTS]
        assert oracle.check_all(body, queries) == [oracle.check(body, agents, url) for agents, url in queries], site
