"""A fleet sharing one cache: RedisStore and SQLiteStore across processes (C3, single flight).

Real Redis on 127.0.0.1 (or one started for the session, or a skip saying why), real worker
processes, a real HTTP server whose robots.txt is slow, so that the checks overlap.
"""

from __future__ import annotations

import multiprocessing
import time
import uuid

import anyio
import pytest

from robotrules import AsyncRobotsClient, Policy, RedisStore, RobotsClient, SQLiteStore
from tests.client._workers import check_many
from tests.servers.http import delayed, respond

RULES = b"user-agent: *\ndisallow: /private\n"


@pytest.fixture
def redis_store(redis_url):
    store = RedisStore(redis_url, prefix=f"robotrules-test:{uuid.uuid4().hex}:")
    yield store
    import redis

    raw = redis.Redis.from_url(redis_url)
    for key in raw.scan_iter(match=store.prefix + "*"):
        raw.delete(key)
    raw.close()
    store.close()


def test_100_concurrent_async_checks_for_one_uncached_host_cause_one_fetch(server, redis_store):
    """C3, single flight: 100 tasks on one event loop, one Redis-backed client, one request."""
    server.route("/robots.txt", delayed(0.3, respond(200, RULES)))
    url = f"http://127.0.0.1:{server.port}/private/page"

    async def main():
        async with AsyncRobotsClient(redis_store, policy=Policy(fetch_timeout=5.0)) as client:
            answers = []

            async def one():
                answers.append(await client.allowed(url, "bot"))

            async with anyio.create_task_group() as tg:
                for _ in range(100):
                    tg.start_soon(one)
            return answers

    assert anyio.run(main) == [False] * 100
    assert server.hits("/robots.txt") == 1


def test_100_concurrent_checks_from_four_processes_cause_one_fetch_and_share_the_copy(server, redis_url, redis_store):
    """C3: four crawler processes x 25 threads on one Redis: one fetch; all read the same entry."""
    server.route("/robots.txt", delayed(0.5, respond(200, RULES)))
    url = f"http://127.0.0.1:{server.port}/private/page"
    start = time.time() + 1.5  # the processes import robotrules first, then start together
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        runs = [pool.apply_async(check_many, (redis_url, redis_store.prefix, url, 25, start)) for _ in range(4)]
        results = [row for run in runs for row in run.get(timeout=60)]
    assert len(results) == 100
    assert server.hits("/robots.txt") == 1
    assert {allowed for allowed, _, _ in results} == {False}
    assert len({fetched_at for _, fetched_at, _ in results}) == 1  # one copy, shared
    assert {cache for _, _, cache in results} <= {"miss", "shared", "hit"}


def test_a_copy_fetched_by_one_process_is_read_by_another_without_fetching(server, redis_url, redis_store):
    """C3: a second crawler process finds the first one's copy in Redis."""
    server.route("/robots.txt", respond(200, RULES))
    url = f"http://127.0.0.1:{server.port}/private/page"
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        first = pool.apply(check_many, (redis_url, redis_store.prefix, url, 1, 0.0))
    with ctx.Pool(1) as pool:
        second = pool.apply(check_many, (redis_url, redis_store.prefix, url, 1, 0.0))
    assert server.hits("/robots.txt") == 1
    assert first[0][2] == "miss" and second[0][2] == "hit" and first[0][1] == second[0][1]


def test_sqlite_store_is_shared_by_two_clients_like_two_processes(server, tmp_path):
    """C3: the embedded SQLite cache serves a second client (a second connection) without a fetch."""
    server.route("/robots.txt", respond(200, RULES))
    url = f"http://127.0.0.1:{server.port}/private/page"
    path = tmp_path / "cache.sqlite3"
    with RobotsClient(SQLiteStore(path)) as one:
        assert not one.allowed(url, "bot")
        one.store.close()
    with RobotsClient(SQLiteStore(path)) as two:
        result = two.check(url, "bot")
        two.store.close()
    assert (result.allowed, result.state.cache, server.hits("/robots.txt")) == (False, "hit", 1)
