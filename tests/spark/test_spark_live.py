"""Live fetching on Spark: each robots.txt fetched once per job, in the executors, through the
cache the caller names, giving the rows of the local engine's live path.

Issue #11: without captures ``robotrules batch`` and ``robotrules audit`` fetch robots.txt live
through the cache on either engine. The sites are real HTTP servers on 127.0.0.1 answering 200,
gzip, redirect chains (one past the hop limit, one to a dead host), 404, 410, 503, 500, an HTML
page, a body over the size limit, and a host with nothing listening (F1-F9, C3).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from robotrules import MemoryStore, RedisStore, RobotsClient, SQLiteStore, batch
from robotrules.answers import COLUMNS
from robotrules.batch.audit import AUDIT_COLUMNS, audit_rows
from robotrules.core.policy import Policy
from tests.batch.conftest import AGENTS, FAILED, World, world  # noqa: F401 (the live sites of the batch tests)
from tests.cache.conftest import redis_client, redis_prefix, redis_store, redis_url  # noqa: F401 (a real Redis)

pytestmark = pytest.mark.jvm

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")

POLICY = Policy(fetch_timeout=5.0)


def robots_hits(world: World) -> dict[str, int]:  # noqa: F811
    """How many times each live site's /robots.txt was asked for so far (the sites with a server:
    every one but the last, where nothing listens)."""
    return {name: server.hits("/robots.txt") for name, server in zip(world.bases, world.servers, strict=False)}


def test_live_spark_batch_fetches_each_robots_txt_once_into_the_named_cache_with_the_local_rows(
        spark: Any, world: World, tmp_path: Path) -> None:  # noqa: F811
    """F1-F9, C3: every row equals the local engine's live row for the same answers; each
    robots.txt was fetched once for the whole Spark job (not once per row), and the executors
    kept what they fetched in the SQLite cache the caller named."""
    from robotrules import spark as rs

    urls = world.urls()
    cache = tmp_path / "spark-cache.sqlite3"
    before = robots_hits(world)
    frame = spark.createDataFrame([(url,) for url in urls], "url string")
    result = rs.decide(frame, None, list(AGENTS), policy=POLICY, store=str(cache))
    assert tuple(result.columns) == COLUMNS
    got = rs.collect_rows(result)
    fetched = robots_hits(world)
    assert {name: fetched[name] - before[name] for name in fetched} == dict.fromkeys(fetched, 1)

    client = RobotsClient(SQLiteStore(str(tmp_path / "local-cache.sqlite3")), policy=POLICY)
    try:
        local = batch.decide(urls, list(AGENTS), client=client, processes=1)
    finally:
        client.close()
        client.store.close()
    want = sorted((tuple(None if value is pandas.NA else value for value in row) for row in local.itertuples(index=False)),
                  key=repr)
    assert len(got) == len(urls) * len(AGENTS)
    assert got == want
    by_url = {(row[0], row[1]): row for row in got}
    assert by_url[world.bases["down"] + "/", "*"][2] is False  # a 503 disallows everything
    assert by_url[world.bases["missing"] + "/tmp/a", "*"][2] is True  # a 404 allows everything
    assert by_url[world.bases["chain"] + "/chained", "*"][4] == "Disallow: /chained"  # the chain's target decides
    store = SQLiteStore(str(cache))
    try:
        kept = [name for name, base in world.bases.items() if store.get(base + "/robots.txt") is not None]
    finally:
        store.close()
    assert sorted(kept) == sorted(world.bases)


def test_live_spark_audit_of_a_sites_table_gives_the_local_live_audit_rows(
        spark: Any, world: World, tmp_path: Path) -> None:  # noqa: F811
    """A table of site URLs (several pages per site, and text that is no URL) audited live on
    Spark: each site's robots.txt fetched once, the rows of the local live audit."""
    from robotrules import spark as rs

    sites = [*world.urls(), "not a url"]
    agents = ["FooBot", "GPTBot", "*"]
    before = robots_hits(world)
    table = spark.createDataFrame([(site,) for site in sites], "url string")
    frame = rs.audit(spark, None, agents, sites=table, policy=POLICY, store=str(tmp_path / "audit-cache.sqlite3"))
    got = sorted((tuple(row[name] for name in AUDIT_COLUMNS) for row in frame.collect()), key=repr)
    fetched = robots_hits(world)
    assert {name: fetched[name] - before[name] for name in fetched} == dict.fromkeys(fetched, 1)

    client = RobotsClient(MemoryStore(), policy=POLICY)
    try:
        want = sorted(audit_rows(client, agents, sites=sites), key=repr)
    finally:
        client.close()
    assert got == want
    verdicts = {(row[0], row[1]): row[6] for row in got}
    assert verdicts[world.bases["down"] + "/robots.txt", "GPTBot"] == "unreachable"
    assert verdicts[world.bases["gone"] + "/robots.txt", "GPTBot"] == "no-robots"
    assert verdicts[world.bases[FAILED] + "/robots.txt", "*"] == "unreachable"
    assert verdicts["not a url", "*"] == "unknown"


def test_the_executors_share_a_redis_cache_with_every_other_client(spark: Any, world: World,  # noqa: F811
                                                                    redis_store: RedisStore) -> None:  # noqa: F811
    """C3: given a RedisStore (its URL and key prefix), the executors keep what they fetch there,
    so a local client on the same Redis answers the same rows without fetching again."""
    from robotrules import spark as rs

    urls = world.urls(["ok", "chain", "down"])
    before = robots_hits(world)
    got = rs.collect_rows(rs.decide(spark.createDataFrame([(url,) for url in urls], "url string"), None, ["FooBot"],
                                    policy=POLICY, store=redis_store))
    client = RobotsClient(redis_store, policy=POLICY)
    try:
        local = batch.decide(urls, ["FooBot"], client=client, processes=1)
    finally:
        client.close()
    after = robots_hits(world)
    assert {name: after[name] - before[name] for name in ("ok", "chain", "down")} == {"ok": 1, "chain": 1, "down": 1}
    assert got == sorted((tuple(None if v is pandas.NA else v for v in row) for row in local.itertuples(index=False)),
                         key=repr)


def test_live_spark_refresh_fetches_each_cached_robots_txt_again_once(
        spark: Any, world: World, tmp_path: Path) -> None:  # noqa: F811
    """C2 on Spark: with refresh=True the executors fetch each robots.txt again, once for the job,
    although the named cache holds it fresh; without it the cache answers and nothing is fetched."""
    from robotrules import spark as rs

    urls = world.urls()
    cache = str(tmp_path / "spark-cache.sqlite3")
    frame = spark.createDataFrame([(url,) for url in urls], "url string")
    rs.collect_rows(rs.decide(frame, None, ["*"], policy=POLICY, store=cache))
    before = robots_hits(world)
    rs.collect_rows(rs.decide(frame, None, ["*"], policy=POLICY, store=cache))
    assert robots_hits(world) == before  # all cached, all fresh
    rs.collect_rows(rs.decide(frame, None, ["*"], policy=POLICY, store=cache, refresh=True))
    after = robots_hits(world)
    assert {name: after[name] - before[name] for name in after} == dict.fromkeys(after, 1)
