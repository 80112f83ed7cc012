"""The local engine: the same rows in input order with any number of processes, live sources
through the client's cache, and streaming in bounded chunks."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

from robotrules import MemoryStore, RobotsClient, SQLiteStore, batch
from robotrules.batch.engine import ArchiveSource, Counts, Decider, decide_rows
from robotrules.core.policy import Policy
from tests.batch.conftest import AGENTS, World
from tests.servers.http import HTTPServer, respond


def test_one_and_two_processes_give_identical_rows_in_input_order(world: World) -> None:
    """Chunks are decided by different workers and come back in input order."""
    pairs = [(url, agent) for url in world.urls() for agent in AGENTS] * 3
    one = [row for chunk in batch.rows(pairs, robots=world.warc, processes=1, chunk_size=7) for row in chunk]
    two = [row for chunk in batch.rows(pairs, robots=world.warc, processes=2, chunk_size=7) for row in chunk]
    assert one == two
    assert [(row[0], row[1]) for row in two] == pairs


def test_live_source_goes_through_the_clients_cache(tmp_path: Path) -> None:
    """Without captures, robots.txt files are fetched live once and kept in the shared store (C3)."""
    with HTTPServer() as server:
        server.route("/robots.txt", respond(200, b"User-agent: *\nDisallow: /no\n"))
        base = server.url("/").rstrip("/")
        store = SQLiteStore(str(tmp_path / "cache.sqlite3"))
        client = RobotsClient(store)
        try:
            frame = batch.decide([f"{base}/no/x", f"{base}/yes", f"{base}/no"], ["FooBot", "*"], client=client,
                                 processes=2)
            again = batch.decide([f"{base}/no/y"], client=client)
        finally:
            client.close()
        assert frame["allowed"].tolist() == [False, False, True, True, False, False]
        assert frame["rule"].tolist()[0] == "Disallow: /no"
        assert bool(again["allowed"][0]) is False
        assert server.hits("/robots.txt") == 1
        assert store.get(base + "/robots.txt") is not None
        store.close()


def test_live_source_with_a_store_argument_equals_check() -> None:
    with HTTPServer() as server:
        server.route("/robots.txt", respond(503))
        base = server.url("/").rstrip("/")
        frame = batch.decide([f"{base}/a"], store=MemoryStore())
        client = RobotsClient(MemoryStore())
        try:
            result = client.check(f"{base}/a", "*")
        finally:
            client.close()
    assert bool(frame["allowed"][0]) is result.allowed is False
    assert frame["reason"][0] == result.state.reason


def test_a_generator_of_200k_rows_streams_in_bounded_chunks() -> None:
    """Bounded memory by design: the input is consumed chunk by chunk as the output is consumed,
    never read ahead beyond the window of chunks in flight."""
    consumed = 0

    def pairs() -> Iterator[tuple[str, str]]:
        nonlocal consumed
        for number in range(200_000):
            consumed += 1
            yield f"https://site{number % 50}.example/page{number}", "*"  # a row with its own agent

    source = ArchiveSource(batch.Archive([batch.Capture(f"https://site{n}.example/robots.txt", 200, {},
                                                        b"User-agent: *\nDisallow: /page1\n") for n in range(50)]))
    chunks = decide_rows(pairs(), ("googlebot",), source, processes=1, chunk_size=10_000)
    first = next(chunks)
    assert len(first) == 10_000
    assert consumed <= 20_000  # the first chunk, and at most the next one peeked
    counts = Counts()
    counts.add(first)
    for chunk in chunks:
        assert len(chunk) <= 10_000
        counts.add(chunk)
    assert counts.rows == 200_000 and consumed == 200_000
    assert counts.allowed + counts.disallowed == 200_000


def test_the_pool_reads_no_further_than_its_window() -> None:
    consumed = 0

    def urls() -> Iterator[str]:
        nonlocal consumed
        for number in itertools.count():
            consumed += 1
            yield f"https://a.example/{number}"

    chunks = decide_rows(urls(), ("a", "b"), ArchiveSource(batch.Archive()), processes=2, chunk_size=100)
    next(chunks)
    assert consumed <= 100 * (2 * 2 + 1)
    chunks.close()  # an endless input: closing the generator ends the pool


def test_each_worker_keeps_a_bounded_cache_of_judged_robots_txt() -> None:
    archive = batch.Archive([batch.Capture(f"https://s{n}.example/robots.txt", 200, {}, b"") for n in range(20)])
    decider = Decider(ArchiveSource(archive), cache_size=5)
    rows = decider.decide([f"https://s{n}.example/" for n in range(20)], ("*",))
    assert all(row[2] is True for row in rows)
    assert len(decider._cache) == 5


def test_bad_engine_arguments_are_clear_errors(world: World) -> None:
    with pytest.raises(ValueError, match="processes must be at least 1"):
        list(batch.rows(["https://a.example/"], robots=world.warc, processes=0))
    with pytest.raises(ValueError, match="unknown engine"):
        batch.decide(["https://a.example/"], robots=world.warc, engine="dask")
    with pytest.raises(ValueError, match="no agents"):
        batch.decide(["https://a.example/"], agents=[], robots=world.warc)


def test_the_archive_is_judged_with_the_given_policy(world: World) -> None:
    """F3: with max_redirects=6 the six-hop chain is followed to its end (which disallows all)."""
    url = world.bases["too-long"] + "/"
    default = batch.decide([url], robots=world.warc)
    longer = batch.decide([url], robots=world.warc, policy=Policy(max_redirects=6))
    assert bool(default["allowed"][0]) is True
    assert bool(longer["allowed"][0]) is False


def test_refresh_fetches_each_live_robots_txt_once_per_job_across_chunks() -> None:
    """C2: with refresh, a robots.txt the cache holds fresh is fetched again at its first use in
    the job, and only then, whatever the number of chunks and fetching threads."""
    with HTTPServer() as server:
        server.route("/robots.txt", respond(200, b"User-agent: *\nDisallow: /old\n"))
        base = server.url("/").rstrip("/")
        client = RobotsClient(MemoryStore())
        try:
            assert client.allowed(f"{base}/old", "*") is False
            server.route("/robots.txt", respond(200, b"User-agent: *\nDisallow: /new\n"))
            urls = [f"{base}/old", f"{base}/new"] * 20
            rows = [row for chunk in batch.rows(urls, "*", client=client, refresh=True, processes=1, chunk_size=3)
                    for row in chunk]
        finally:
            client.close()
    assert server.hits("/robots.txt") == 2
    assert [row[2] for row in rows[:2]] == [True, False]
    assert all(row[4] == "Disallow: /new" for row in rows if not row[2])
