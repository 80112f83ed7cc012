"""Issue #21 items 1-2: a group is indexed when a check first asks for it, and the path of a usual
URL is taken in one slice (R3, R6, G4; DESIGN 8: a parsed file stays safe to share)."""

from __future__ import annotations

import pickle
import threading

import pytest
from hypothesis import given
from hypothesis import strategies as st

import robotrules
from robotrules.core.matcher import Parts, RuleSet
from robotrules.core.urls import path_params_query


def _name(n: int) -> str:
    """A product token for crawler ``n`` (tokens hold letters, "-" and "_": no digits)."""
    return "bot" + chr(97 + n // 26) + chr(97 + n % 26)


MANY_GROUPS = "".join(
    f"user-agent: {_name(n)}\ndisallow: /private{n}/\nallow: /private{n}/open*.html$\ndisallow: /*?s={n}\n"
    for n in range(200)
).encode() + b"user-agent: *\ndisallow: /tmp/\nallow: /tmp/ok$\n"

URL_PIECES = st.sampled_from(["http", "https", "ftp", "h2", "", ":", "/", "//", "://", "?", ";", "#", "\0", "a", "é",
                              "x.com", "p", "%41", "*", "$", ".", "@", "[::1]", ":8080"])


@pytest.mark.filterwarnings("ignore::robotrules.RobotsInputWarning")  # generated URLs are of every form
@given(st.lists(URL_PIECES, max_size=12).map("".join))
def test_a_check_of_a_url_decides_as_a_check_of_its_extracted_path(url: str) -> None:
    robots = robotrules.parse(MANY_GROUPS + b"user-agent: botah\ndisallow: /*a*p$\ndisallow: /%41\ndisallow: /h$\n")
    path = path_params_query(url)
    for agent in ("botah", _name(150), "other"):
        assert robots.allowed(url, agent) == robots.check(url, agent).allowed
        assert robots.check(url, agent).path == path
        if path_params_query(path) == path:  # a path that reads as itself ("//h/p" names a host)
            assert robots.allowed(path, agent) == robots.allowed(url, agent)


def test_parsing_indexes_no_group_and_a_check_indexes_only_the_groups_it_asks_for() -> None:
    robots = robotrules.parse(MANY_GROUPS)
    assert not any(group.ruleset.built for group in robots.groups)
    assert not robots.allowed("https://x.com/private5/a", "botaf")
    assert robots.allowed("https://x.com/private5/open1.html", "botaf")
    assert [g.agents for g in robots.groups if g.ruleset.built] == [("botaf",)]
    assert not robots.allowed("https://x.com/tmp/x", "nobody")
    assert sum(g.ruleset.built for g in robots.groups) == 2


def test_rules_and_sizes_read_the_same_before_and_after_the_index_is_built() -> None:
    before = robotrules.parse(MANY_GROUPS)
    after = robotrules.parse(MANY_GROUPS)
    for group in after.groups:
        group.ruleset.best("/")
    for one, other in zip(before.groups, after.groups, strict=True):
        assert not one.ruleset.built and other.ruleset.built
        assert one.ruleset.sizes() == other.ruleset.sizes()
        assert one.ruleset.parts() == other.ruleset.parts()
        assert one.rules == other.rules


def test_groups_naming_one_agent_merge_when_first_matched_and_decide_as_one_group() -> None:
    """G4: the merged rules are indexed from the groups' own, on first use."""
    body = b"user-agent: a\ndisallow: /x\nuser-agent: b\nallow: /\nuser-agent: a\nallow: /x/ok\ndisallow: /*.pdf$\n"
    robots = robotrules.parse(body)
    assert not any(group.ruleset.built for group in robots.groups)
    assert not robots.allowed("/x/no", "a") and robots.allowed("/x/ok", "a") and not robots.allowed("/f.pdf", "a")
    assert [g.ruleset.built for g in robots.groups] == [True, False, True]


def test_a_file_shared_by_threads_gives_each_the_answers_of_a_file_used_alone() -> None:
    """DESIGN 8: threads racing to index the same groups each see a whole index and the same verdicts."""
    urls = [f"https://x.com/private{n % 200}/{'open1.html' if n % 3 else 'a'}?s={n % 7}" for n in range(400)]
    agents = [_name(n) for n in range(0, 200, 7)] + ["other"]
    alone = robotrules.parse(MANY_GROUPS)
    expected = [[alone.allowed(url, agent) for agent in agents] for url in urls]
    for _ in range(5):
        shared = robotrules.parse(MANY_GROUPS)
        start = threading.Barrier(8)
        results: list[list[list[bool]]] = []

        def work(shared: robotrules.RobotsTxt = shared, start: threading.Barrier = start,
                 results: list[list[list[bool]]] = results) -> None:
            start.wait()
            results.append([[shared.allowed(url, agent) for agent in agents] for url in urls])

        threads = [threading.Thread(target=work) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        assert len(results) == 8 and all(found == expected for found in results)


def test_a_rule_set_built_from_parts_in_any_order_matches_as_sorted() -> None:
    parts = Parts([(5, "/")], [(9 << 21, "/ab"), (40 << 21, "/abcdef")], [], [])
    ruleset = RuleSet.build(parts, None)
    assert ruleset.best("/abcdefg") == (40 << 21, "/abcdef")
    assert [r for r, _ in ruleset.ranked()] == [40 << 21, 9 << 21, 5]


def test_parsed_files_their_rules_and_findings_survive_pickling_built_or_not() -> None:
    """A parsed file crosses process boundaries (multiprocessing, Spark): unpickled, it decides as
    before and keeps its size and findings, with the compiled core too (its frozen classes refuse
    the attribute writes pickle would make: they pickle as what rebuilds them)."""
    body = MANY_GROUPS + b"user-agent: botah\ndisalow: /typo\n" + b"#" * 600_000
    robots = robotrules.parse(body)
    robots.allowed("https://x.com/private7/a", "botah")
    again = pickle.loads(pickle.dumps(robots))
    assert again.size == robots.size == len(body) and again.body == robots.body and again.mode == robots.mode
    assert again.diagnostics == robots.diagnostics and again.groups == robots.groups
    for agent in ("botah", _name(3), "other"):
        for url in ("https://x.com/private7/a", "https://x.com/private3/open1.html", "/tmp/ok", "/tmp/no"):
            assert again.check(url, agent) == robots.check(url, agent)
    ruleset = robots.groups[7].ruleset
    assert ruleset.built and pickle.loads(pickle.dumps(ruleset)) == ruleset
    assert pickle.loads(pickle.dumps(robots.diagnostics)) == robots.diagnostics
    rfc = robotrules.parse(b"user-agent: *\ndisallow: /%7Ea\n", mode="rfc9309")
    assert pickle.loads(pickle.dumps(rfc)).check("/~a", "x") == rfc.check("/~a", "x")
