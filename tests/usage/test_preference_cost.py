"""What a usage answer costs (issue #33 item 2): AI-use lines are parsed and compiled once per
parsed file, and a URL is decided by a longest match, not a scan of every line (A1, A2, A7).

Work is counted, never timed: calls to the statement parser and the path compiler (made from
``core.usage``, which is never compiled), and to the segment matcher (seen in the pure-Python core).
"""

from __future__ import annotations

import pytest

import robotrules
from robotrules.core import matcher, pattern, usage

HOSTILE_LINES = 23_000
SAME = b"User-agent: *\n" + b"Content-Usage: /*b x\n" * HOSTILE_LINES
"""The issue's file: 23,000 equal Content-Usage lines (483 KB, under the 500 KiB limit)."""
DISTINCT = b"User-agent: *\n" + b"".join(b"Content-Usage: /*b%d* x\n" % i for i in range(HOSTILE_LINES))
"""The same with a distinct pattern on each line (cut at 512,000 bytes by F9)."""
URLS = ("https://example.com/", "https://example.com/abc/def?q=1", "https://example.com/b12345",
        "https://example.com/b1/b22/b333", "/x/b", "https://example.com/" + "b" * 2000)

pure_python_only = pytest.mark.skipif(
    robotrules.core.COMPILED,
    reason="compiled core: the matcher's calls to segments_match do not go through the module globals counted here; "
    "the same source is counted in the pure-Python build (editable install)",
)


def _count(monkeypatch: pytest.MonkeyPatch, calls: list[str], module: object, name: str) -> None:
    original = getattr(module, name)

    def counting(*args: object, **kwargs: object) -> object:
        calls.append(name)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counting)


@pytest.mark.parametrize("body", [SAME, DISTINCT], ids=["same", "distinct"])
def test_each_statement_and_path_is_parsed_once_per_file_however_many_calls(monkeypatch, body: bytes) -> None:
    """A1, A5, A7: the first usage() call of a group parses each distinct statement and compiles
    each distinct path once; later calls, for any URL and agent, parse and compile nothing."""
    calls: list[str] = []
    for name in ("parse_statement", "parse_signal", "compile_pattern"):
        _count(monkeypatch, calls, usage, name)
    robots = robotrules.parse(body)
    assert calls == []
    robots.usage(URLS[0], "bot")
    written = [usage.split_value(ext.value) for ext in robots.groups[0].extensions]  # F9 may cut the last line
    assert calls.count("parse_statement") == len({statement for _, statement in written}) <= 2
    assert calls.count("compile_pattern") == len({path for path, _ in written})
    calls.clear()
    for _ in range(3):
        for url in URLS:
            for agent in ("bot", "other", ["bot", "other"]):
                robots.usage(url, agent)
                robots.usage_lines(agent)
    assert calls == []


@pure_python_only
@pytest.mark.parametrize("body", [SAME, DISTINCT], ids=["same", "distinct"])
def test_a_usage_answer_on_the_hostile_files_matches_few_segments(monkeypatch, body: bytes) -> None:
    """A2, issue #33: on 23,000 Content-Usage lines a URL costs a longest match, as a crawl check
    does: at most a few full pattern matches per call, not one per line."""
    robots = robotrules.parse(body)
    for url in URLS:
        robots.usage(url, "bot")  # index built
    calls: list[str] = []
    _count(monkeypatch, calls, matcher, "segments_match")
    _count(monkeypatch, calls, pattern, "segments_match")
    for url in URLS:
        calls.clear()
        robots.usage(url, "bot")
        assert len(calls) <= 4, (url[:40], len(calls))


def test_the_parsed_lines_are_kept_and_shared_between_calls() -> None:
    """A1, DESIGN 8: the rules a usage answer names are the ones parsed the first time (the same
    objects on every call), and equal statements are one parsed statement."""
    robots = robotrules.parse(SAME)
    first, again = robots.usage("/b", "bot"), robots.usage("/ab", "other")
    assert len(first.rules) == HOSTILE_LINES and first.rules is again.rules
    assert first.statement == again.statement and first.preferences() == again.preferences()
    rules, _ = robots.usage_lines("bot")
    assert rules is robots.usage_lines("other")[0] and rules == first.rules
    assert len({id(rule.statement) for rule in rules}) == 1 and len({id(rule.pattern) for rule in rules}) == 1


def test_the_hostile_file_decides_as_one_rule_would() -> None:
    """A2, A4: 23,000 equal lines tie on every path containing "b"; together they say what one says."""
    many, one = robotrules.parse(SAME), robotrules.parse(b"User-agent: *\nContent-Usage: /*b x\n")
    for url in URLS:
        a, b = many.usage(url, "bot"), one.usage(url, "bot")
        assert (a.crawlable, a.statement, bool(a.rules)) == (b.crawlable, b.statement, bool(b.rules))
