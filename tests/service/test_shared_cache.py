"""Several service instances share one cache through Redis (C3): a robots.txt fetched by one is
answered from the cache by the others, and the site sees one request.

Needs a Redis server on 127.0.0.1:6379 (skipped, saying so, when none answers). Each test uses a
key prefix of its own and deletes its keys afterwards.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import ExitStack

import pytest

from robotrules import RedisStore
from tests.needs import unavailable
from tests.servers.http import HTTPServer

from .conftest import Start

REDIS_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture
def prefix() -> Iterator[str]:
    """A private key prefix on the local Redis; skips (fails in CI) when Redis is not reachable."""
    redis = pytest.importorskip("redis")
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5, socket_timeout=2)
    try:
        client.ping()
    except (redis.RedisError, OSError) as exc:
        client.close()
        unavailable(f"no Redis server reachable at 127.0.0.1:6379 ({exc})")
    name = f"robotrules-test:{uuid.uuid4().hex}:"
    try:
        yield name
    finally:
        for key in client.scan_iter(match=name + "*"):
            client.delete(key)
        client.close()


def test_a_second_instance_answers_from_the_shared_cache(start: Start, site: HTTPServer, prefix: str) -> None:
    """C3: instance B finds the robots.txt that instance A fetched; the site sees one request."""
    one, two = RedisStore(REDIS_URL, prefix=prefix), RedisStore(REDIS_URL, prefix=prefix)
    try:
        first = start(store=one)
        second = start(store=two)
        [a] = first.get("/v1/check", params={"url": site.url("/private/x"), "agent": "Googlebot"}).json()["results"]
        [b] = second.get("/v1/check", params={"url": site.url("/private/x"), "agent": "Googlebot"}).json()["results"]
        assert a["robots"]["cache"] == "miss"
        assert b["robots"]["cache"] in {"hit", "shared"}
        assert b["robots"]["fetched_at"] == a["robots"]["fetched_at"]
        assert (a["allowed"], a["line"]) == (b["allowed"], b["line"])
        assert site.hits("/robots.txt") == 1
        entry = second.get("/v1/robots", params={"url": site.url("/")}).json()
        assert entry["cache"] == "hit" and entry["body"].startswith("User-agent: *")
        assert site.hits("/robots.txt") == 1
        assert second.get("/healthz").json()["store"] == "ok"
    finally:
        one.close()
        two.close()


def test_a_batch_on_two_instances_fetches_each_site_once(start: Start, prefix: str) -> None:
    """Both instances decide the same sites: every robots.txt is fetched once in all."""
    with ExitStack() as stack:
        sites = [stack.enter_context(HTTPServer()) for _ in range(3)]
        stores = [RedisStore(REDIS_URL, prefix=prefix) for _ in range(2)]
        for store in stores:
            stack.callback(store.close)
        first, second = (start(store=store) for store in stores)
        urls = [site.url("/page") for site in sites]
        assert first.post("/v1/check", json={"urls": urls}).status_code == 200
        results = second.post("/v1/check", json={"urls": urls}).json()["results"]
        assert {r["robots"]["cache"] for r in results} <= {"hit", "shared"}
        assert [site.hits("/robots.txt") for site in sites] == [1, 1, 1]
