"""The local engine's compact chunks (Block) and its shortcuts give exactly the rows of
decide_url, the decision every engine shares (G2, G4, R1, R6, S1-S5)."""

from __future__ import annotations

import pickle

from robotrules import batch
from robotrules.batch.engine import ArchiveSource, Block, Counts, Decider, robots_url_of
from robotrules.batch.engine.rows import decide_url, row_fields, tokens_of
from tests.batch.conftest import AGENTS, World

HOSTS = {
    "https://a.example": b"User-agent: *\nDisallow: /x\n",
    "https://a.example.evil.example": b"User-agent: *\nDisallow: /y\n",
    "https://b.example": b"User-agent: FooBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n",
    "https://a.example:8443": b"User-agent: *\nDisallow: /w\n",
    "http://a.example": b"User-agent: *\nDisallow: /\n",
}

TRICKY = [
    "https://a.example/x",
    "https://a.example.evil.example/y",  # shares "https://a.example" as a prefix, another host
    "https://a.example/y",
    "https://a.example@b.example/z",  # userinfo: the host is b.example
    "https://a.example:8443/w",  # another port, another robots.txt
    "https://a.example",  # no path
    "https://a.example?q=/x",
    "http://a.example/x",
    "HTTPS://A.EXAMPLE/x",
    "mailto:someone@a.example",  # no robots.txt at all
    "/relative/x",
    "https://c.example/never-captured",
]


def _source() -> ArchiveSource:
    captures = [batch.Capture(origin + "/robots.txt", 200, {}, body) for origin, body in HOSTS.items()]
    return ArchiveSource(batch.Archive(captures))


def _expected(items: list[str | tuple[str, str]], agents: tuple[str, ...], source: ArchiveSource) -> list[tuple]:
    """Row by row with no shortcut: each URL's robots URL computed afresh, then decide_url."""
    rows = []
    for item in items:
        url, names = (item, agents) if isinstance(item, str) else (item[0], (item[1],))
        robots = robots_url_of(url)
        rows.extend(decide_url(url, names, None if robots is None else source.governing(robots)))
    return rows


def test_a_block_reads_as_the_rows_decide_url_gives_for_urls_and_pairs(world: World) -> None:
    source = ArchiveSource(batch.archive_of(str(world.warc)))
    items: list[str | tuple[str, str]] = []
    for n, url in enumerate(world.urls()):
        items.append(url if n % 3 else (url, AGENTS[n % len(AGENTS)]))
    block = Decider(source).decide(items, AGENTS)
    assert isinstance(block, Block)
    assert list(block) == _expected(items, AGENTS, source)
    assert len(block) == len(block.rows()) and block[0] == block.rows()[0] and block[-2:] == block.rows()[-2:]


def test_urls_sharing_a_prefix_with_the_last_origin_get_their_own_robots_txt() -> None:
    """The same-origin shortcut applies only to "<origin>/..." URLs: a longer host, userinfo,
    another port or scheme, or a query right after the host are each looked up."""
    source = _source()
    items = TRICKY + TRICKY[::-1] + [(url, "FooBot") for url in TRICKY]
    block = Decider(source).decide(items, AGENTS)
    assert list(block) == _expected(items, AGENTS, source)
    by_url = {row[0]: row for row in block if row[1] == "*"}
    assert by_url["https://a.example.evil.example/y"][2] is False
    assert by_url["https://a.example/y"][2] is True
    assert by_url["https://a.example@b.example/z"][5] == "https://b.example/robots.txt"
    assert by_url["https://c.example/never-captured"][2] is None


def test_a_block_crosses_processes_without_its_urls_and_reads_the_same_once_they_are_given_back() -> None:
    source = _source()
    items: list[str | tuple[str, str]] = [*TRICKY, ("https://b.example/q", "FooBot")]
    block = Decider(source).decide(items, AGENTS)
    copy = pickle.loads(pickle.dumps(block))
    assert "a.example/x" not in pickle.dumps(block).decode("latin-1")  # the URLs stay with the caller
    copy.items = items
    assert list(copy) == list(block)


def test_a_block_is_counted_without_making_its_rows() -> None:
    block = Decider(_source()).decide(TRICKY, AGENTS)
    counts = Counts()
    counts.add(block)
    assert block._rows is None
    by_rows = Counts()
    by_rows.add(list(block))
    assert (counts.rows, counts.allowed, counts.disallowed, counts.unknown) == (
        by_rows.rows, by_rows.allowed, by_rows.disallowed, by_rows.unknown)
    assert counts.unknown > 0 and counts.disallowed > 0 and counts.allowed > 0


def test_agents_are_matched_on_their_product_tokens_once_per_job() -> None:
    assert tokens_of(AGENTS) == ("FooBot", "Googlebot", "*", "FooBot")


def test_a_block_written_as_arrow_columns_holds_exactly_its_rows(world: World) -> None:
    """Parquet output is built from the compact columns; it must equal the row tuples."""
    from robotrules.answers import COLUMNS
    from robotrules.batch.writers import _schema

    source = ArchiveSource(batch.archive_of(str(world.warc)))
    urls_only: list[str | tuple[str, str]] = [*world.urls(), *TRICKY]
    mixed: list[str | tuple[str, str]] = [url if n % 2 else (url, "FooBot/1.0") for n, url in enumerate(urls_only)]
    for items in (urls_only, mixed):
        block = Decider(source).decide(items, AGENTS)
        table = block.to_arrow(_schema(row_fields()))
        assert [tuple(row[name] for name in COLUMNS) for row in table.to_pylist()] == list(block)


def test_a_governors_selected_rules_are_kept_per_agents_and_not_pickled() -> None:
    """The rules each tuple of agents obeys are selected once per robots.txt, and stay in the
    process that selected them (a governor sent to a worker arrives without them)."""
    gov = _source().governing("https://b.example/robots.txt")
    rules = gov.rules_for(("FooBot", "*"))
    assert rules is gov.rules_for(("FooBot", "*"))
    assert rules is not None and rules.verdicts("https://b.example/x") == [(False, 2), (True, 5)]
    copy = pickle.loads(pickle.dumps(gov))
    assert copy._rules == {} and copy.robots is not None
    assert copy.rules_for(("FooBot", "*")).verdicts("https://b.example/x") == [(False, 2), (True, 5)]
