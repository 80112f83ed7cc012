"""Fixtures for the store tests: a fresh store of each kind, and a Redis server on 127.0.0.1.

Redis: the server on 127.0.0.1:6379 when it answers; otherwise a throw-away ``redis-server`` on a
free port for the session (no persistence); otherwise the Redis tests skip, saying why. Every
test gets its own key prefix and its keys are deleted afterwards, so a shared server is safe.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from robotrules.cache import MemoryStore, RedisStore, SQLiteStore
from robotrules.cache.base import Store

DEFAULT_REDIS = ("127.0.0.1", 6379)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on (just now)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _redis_answers(url: str, wait: float = 0.0) -> bool:
    import redis

    deadline = time.monotonic() + wait
    while True:
        client = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        try:
            if client.ping():
                return True
        except redis.RedisError:
            pass
        finally:
            client.close()
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of a Redis server on 127.0.0.1, started for the session if none is running."""
    pytest.importorskip("redis", reason="redis-py is not installed (the robotrules[redis] extra)")
    url = "redis://{}:{}/0".format(*DEFAULT_REDIS)
    if _redis_answers(url):
        yield url
        return
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("no Redis on 127.0.0.1:6379 and no redis-server on PATH to start one")
    port = free_port()
    proc = subprocess.Popen(
        [server, "--save", "", "--appendonly", "no", "--port", str(port), "--bind", "127.0.0.1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        if not _redis_answers(url, wait=10.0):
            pytest.skip(f"redis-server started on port {port} but did not answer")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def redis_client(redis_url: str) -> Iterator[Any]:
    """A plain redis-py client (bytes replies) for looking at keys behind a store's back."""
    import redis

    client = redis.Redis.from_url(redis_url, socket_timeout=2, socket_connect_timeout=2)
    yield client
    client.close()


@pytest.fixture
def redis_prefix(redis_client: Any) -> Iterator[str]:
    """A key prefix of this test alone; its keys are deleted afterwards."""
    prefix = f"robotrules-test:{uuid.uuid4().hex}:"
    yield prefix
    keys = list(redis_client.scan_iter(match=prefix + "*", count=1000))
    if keys:
        redis_client.delete(*keys)


@pytest.fixture
def redis_store(redis_url: str, redis_prefix: str) -> Iterator[RedisStore]:
    store = RedisStore(redis_url, prefix=redis_prefix, timeout=2.0)
    yield store
    store.close()


@pytest.fixture
def sqlite_path(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "robots.sqlite3"


@pytest.fixture(params=["memory", "sqlite", "redis"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    """A fresh, empty store of each kind; closed afterwards."""
    made: Store
    if request.param == "memory":
        made = MemoryStore()
    elif request.param == "sqlite":
        made = SQLiteStore(tmp_path / "contract.sqlite3")
    else:
        made = request.getfixturevalue("redis_store")
    yield made
    made.close()
