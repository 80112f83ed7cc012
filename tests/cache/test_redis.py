"""RedisStore: the fleet store on a real Redis at 127.0.0.1 (DESIGN cache/ Redis).

Keys live under a per-test prefix and are deleted afterwards (see conftest.py).
"""

from __future__ import annotations

import multiprocessing
import os
import socket
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from robotrules.cache import RedisStore
from robotrules.errors import StoreError

from ._workers import put_entry, read_entry, sample_entry
from .conftest import free_port

URL = "https://example.com/robots.txt"
SRC = str(Path(__file__).resolve().parents[2] / "src")


def test_two_processes_share_one_cached_copy(redis_url: str, redis_prefix: str, redis_store: RedisStore) -> None:
    """C3: what one crawler process caches in Redis, another reads (and vice versa)."""
    body = bytes(range(256)) + b"\nUser-agent: *\nDisallow: /private\n"
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
        pool.submit(put_entry, "redis", redis_url, redis_prefix, URL, body).result(timeout=60)
        got = redis_store.get(URL)
        assert got is not None and got.body == body
        other = "http://other.example/robots.txt"
        redis_store.put(sample_entry(other, b"from the parent"))
        seen = pool.submit(read_entry, "redis", redis_url, redis_prefix, other).result(timeout=60)
    assert seen == (b"from the parent", 1_700_000_000.25, sample_entry(other, b"").reason)


def test_entry_is_one_blob_under_prefix_entry_url(redis_store: RedisStore, redis_client: Any, redis_prefix: str) -> None:
    """DESIGN cache/ Redis: the key is prefix + 'entry:' + robots.txt URL (C3), the value encode_entry()."""
    from robotrules.cache import encode_entry

    entry = sample_entry(URL, b"User-agent: *\n")
    redis_store.put(entry)
    assert redis_client.get(f"{redis_prefix}entry:{URL}") == encode_entry(entry)


def test_retention_sets_the_key_ttl_and_each_put_refreshes_it(redis_url: str, redis_prefix: str, redis_client: Any) -> None:
    """C2, DESIGN cache/ Redis: an entry lives `retention` after its last put, so re-puts of a
    failing site keep its last good copy."""
    store = RedisStore(redis_url, prefix=redis_prefix, retention=1000.0)
    key = f"{redis_prefix}entry:{URL}"
    store.put(sample_entry(URL, b"good"))
    assert 990_000 < redis_client.pttl(key) <= 1_000_000
    redis_client.pexpire(key, 5_000)
    store.put(sample_entry(URL, b"good"))
    assert redis_client.pttl(key) > 990_000
    store.close()


def test_entry_dropped_after_retention_without_puts(redis_url: str, redis_prefix: str) -> None:
    """DESIGN cache/ Redis: an entry nobody refreshes for `retention` seconds is gone."""
    store = RedisStore(redis_url, prefix=redis_prefix, retention=0.3)
    store.put(sample_entry(URL, b"x"))
    assert store.get(URL) is not None
    time.sleep(0.5)
    assert store.get(URL) is None
    store.close()


def test_lock_key_expires_on_the_server(redis_store: RedisStore, redis_client: Any, redis_prefix: str) -> None:
    """base.Store.acquire: the lock is SET NX PX, so a crashed holder's lock expires on Redis' clock."""
    token = redis_store.acquire(URL, ttl=10)
    assert token is not None
    assert redis_client.get(f"{redis_prefix}lock:{URL}") == token.encode()
    assert 0 < redis_client.pttl(f"{redis_prefix}lock:{URL}") <= 10_000
    redis_store.release(URL, token)
    assert redis_client.exists(f"{redis_prefix}lock:{URL}") == 0


def test_value_that_is_not_an_entry_gives_store_error(redis_store: RedisStore, redis_client: Any, redis_prefix: str) -> None:
    """DESIGN 10: a foreign or corrupted value is a StoreError, not a crash."""
    redis_client.set(f"{redis_prefix}entry:{URL}", b"garbage")
    with pytest.raises(StoreError):
        redis_store.get(URL)


def test_close_leaves_a_client_passed_in_open(redis_client: Any, redis_prefix: str) -> None:
    """DESIGN cache/ Redis: the store closes only a client it made."""
    store = RedisStore(client=redis_client, prefix=redis_prefix)
    store.put(sample_entry(URL, b"x"))
    store.close()
    assert redis_client.ping()
    assert redis_client.exists(f"{redis_prefix}entry:{URL}") == 1


def test_client_that_decodes_responses_is_refused(redis_url: str) -> None:
    """DESIGN cache/ Redis: entries are bytes, so a decode_responses=True client is a ValueError."""
    import redis

    client = redis.Redis.from_url(redis_url, decode_responses=True)
    with pytest.raises(ValueError, match="decode_responses"):
        RedisStore(client=client)
    client.close()


def test_unreachable_redis_raises_store_error_quickly() -> None:
    """DESIGN cache/ Redis, base.Store: nothing listening on the port -> StoreError from every call, no hang."""
    pytest.importorskip("redis")
    store = RedisStore(f"redis://127.0.0.1:{free_port()}/0", timeout=0.5)
    for call in (lambda: store.get(URL), lambda: store.put(sample_entry(URL, b"")),
                 lambda: store.acquire(URL, 1), lambda: store.release(URL, "t"), lambda: store.delete(URL)):
        with pytest.raises(StoreError):
            call()
    store.close()


def test_silent_server_raises_store_error_after_the_timeout() -> None:
    """DESIGN cache/ Redis: a server that accepts but never answers times out into StoreError."""
    pytest.importorskip("redis")
    with socket.socket() as listener:  # accepts connections (kernel backlog) but never replies
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        port = listener.getsockname()[1]
        store = RedisStore(f"redis://127.0.0.1:{port}/0", timeout=0.3)
        with pytest.raises(StoreError):  # without the timeout, this read would wait forever
            store.get(URL)
        store.close()


def test_module_imports_without_redis_and_constructing_names_the_extra() -> None:
    """DESIGN 12: without redis-py, robotrules.cache imports; RedisStore() says pip install robotrules[redis]."""
    code = (
        "import sys; sys.path.insert(0, sys.argv[1])\n"
        "import robotrules.cache as c\n"
        "assert 'redis' not in sys.modules\n"
        "from robotrules.errors import MissingExtra\n"
        "try:\n"
        "    c.RedisStore()\n"
        "except MissingExtra as exc:\n"
        "    print(exc)\n"
    )
    # -S: no site-packages, so redis-py is really absent (the core is standard library only)
    out = subprocess.run([sys.executable, "-S", "-c", code, SRC], check=False, capture_output=True, text=True, timeout=30,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "redis is needed for this: pip install 'robotrules[redis]'"
