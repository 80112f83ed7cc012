"""RedisStore: the fleet store on a real Redis at 127.0.0.1 (DESIGN cache/ Redis).

Keys live under a per-test prefix and are deleted afterwards (see conftest.py).
"""

from __future__ import annotations

import multiprocessing
import os
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from robotrules.cache import RedisStore
from robotrules.errors import StoreError

from ._workers import put_entry, read_entry, sample_entry
from .conftest import PrivateRedis, free_port

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


def test_value_that_is_not_an_entry_reads_as_missing(redis_store: RedisStore, redis_client: Any, redis_prefix: str) -> None:
    """#8 item 4, DESIGN 10: a foreign or corrupted value is read as missing (logged), not a crash."""
    redis_client.set(f"{redis_prefix}entry:{URL}", b"garbage")
    assert redis_store.get(URL) is None
    redis_store.put(sample_entry(URL, b"x"))
    assert redis_store.get(URL) == sample_entry(URL, b"x")


def test_put_that_loses_a_race_starts_again_and_merges_with_the_winner(
        redis_store: RedisStore, redis_client: Any, redis_prefix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """#8 item 3: another writer changes the key between this put's WATCH and EXEC: EXEC fails, the
    put reads again and merges with what the other wrote (its newer good copy survives)."""
    import robotrules.cache.redis as module
    from robotrules.cache import encode_entry
    from robotrules.core.policy import Entry, merge

    redis_store.put(sample_entry(URL, b"first", fetched_at=1_700_000_000.0))
    racer = sample_entry(URL, b"the racer's newer copy", fetched_at=1_700_000_500.0)
    mine = Entry(URL, "error", 503, "503: server error", 1_700_000_900.0, 1_700_001_200.0, failures=1,
                 failing_since=1_700_000_900.0)  # a failure that knew no copy
    reads: list[bytes] = []
    real_load = module.load_entry

    def load_and_race(key: str, blob: bytes, where: str) -> Entry | None:
        reads.append(blob)
        if len(reads) == 1:  # between our WATCH and EXEC, another crawler writes
            redis_client.set(f"{redis_prefix}entry:{URL}", encode_entry(racer))
        return real_load(key, blob, where)

    monkeypatch.setattr(module, "load_entry", load_and_race)
    redis_store.put(mine)
    assert len(reads) == 2 and reads[1] == encode_entry(racer)
    assert redis_store.get(URL) == merge(racer, mine)
    got = redis_store.get(URL)
    assert got is not None and got.body == b"the racer's newer copy" and got.outcome == "error"


def test_call_to_a_silent_server_makes_one_attempt_no_retry() -> None:
    """#8 item 5: a call to a server that accepts but never answers raises StoreError after one
    connection attempt (redis-py's retries would multiply the wait: 40 s for one check before)."""
    pytest.importorskip("redis")
    accepted: list[socket.socket] = []
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        listener.settimeout(0.05)
        port = listener.getsockname()[1]
        stop = threading.Event()

        def accept() -> None:
            while not stop.is_set():
                try:
                    accepted.append(listener.accept()[0])
                except OSError:
                    continue

        thread = threading.Thread(target=accept)
        thread.start()
        store = RedisStore(f"redis://127.0.0.1:{port}/0", timeout=0.2)
        try:
            for call in (lambda: store.get(URL), lambda: store.put(sample_entry(URL, b"x"))):
                before = len(accepted)
                with pytest.raises(StoreError):
                    call()  # the stalled server never answers: only the store's timeout ends this
                time.sleep(0.1)  # let the accept loop see any second connection
                assert len(accepted) - before == 1  # one connection: no retry that waits a timeout more
        finally:
            stop.set()
            thread.join(timeout=5)
            store.close()
            for conn in accepted:
                conn.close()


class _HalfDeadRedis:
    """A fake Redis on loopback that answers every command with +OK but never answers GET: a put
    stalls inside its WATCH/EXEC transaction. Records the commands it received."""

    def __init__(self) -> None:
        self.commands: list[bytes] = []
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.listener.settimeout(0.05)
        self.port = self.listener.getsockname()[1]
        self.stop = threading.Event()
        self.conns: list[socket.socket] = []
        self.thread = threading.Thread(target=self._serve)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop.is_set():
            try:
                conn = self.listener.accept()[0]
            except OSError:
                continue
            self.conns.append(conn)
            threading.Thread(target=self._talk, args=(conn,), daemon=True).start()

    def _talk(self, conn: socket.socket) -> None:
        data = b""
        conn.settimeout(0.05)
        while not self.stop.is_set():
            try:
                chunk = conn.recv(65536)
            except OSError:
                continue
            if not chunk:
                return
            data += chunk
            while True:  # RESP arrays of bulk strings: *N, then $len + bytes for each
                parts, rest = self._parse(data)
                if parts is None:
                    break
                data = rest
                command = parts[0].upper()
                self.commands.append(command)
                if command == b"HELLO":  # redis-py 5+ opens with HELLO 3: a RESP3 map
                    conn.sendall(b"%1\r\n$5\r\nproto\r\n:3\r\n")
                elif command != b"GET":
                    conn.sendall(b"+OK\r\n")

    @staticmethod
    def _parse(data: bytes) -> tuple[list[bytes] | None, bytes]:
        if not data.startswith(b"*") or b"\r\n" not in data:
            return None, data
        head, rest = data.split(b"\r\n", 1)
        parts: list[bytes] = []
        for _ in range(int(head[1:])):
            if b"\r\n" not in rest:
                return None, data
            size_line, rest = rest.split(b"\r\n", 1)
            size = int(size_line[1:])
            if len(rest) < size + 2:
                return None, data
            parts.append(rest[:size])
            rest = rest[size + 2:]
        return parts, rest

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        self.listener.close()
        for conn in self.conns:
            conn.close()


def test_put_that_stalls_inside_its_transaction_fails_fast_without_starting_again() -> None:
    """#8 item 5: redis-py reports a connection lost during WATCH as a WatchError; the put must not
    take that for a lost race and start again (each start waiting a timeout more): one WATCH,
    StoreError within 10 x timeout."""
    pytest.importorskip("redis")
    server = _HalfDeadRedis()
    store = RedisStore(f"redis://127.0.0.1:{server.port}/0", timeout=0.2)
    try:
        with pytest.raises(StoreError):
            store.put(sample_entry(URL, b"x"))
        assert server.commands.count(b"WATCH") == 1  # one start: none waiting a timeout more
    finally:
        store.close()
        server.close()


def test_store_works_again_once_a_stopped_server_resumes(private_redis: PrivateRedis) -> None:
    """#8 item 5: the connections that timed out while Redis was stopped are dropped, not kept
    stuck in the pool: after SIGCONT every call works at once."""
    store = RedisStore(private_redis.url)
    store.put(sample_entry(URL, b"before"))
    private_redis.stop()
    for call in (lambda: store.get(URL), lambda: store.put(sample_entry(URL, b"x")), lambda: store.acquire(URL, 5)):
        with pytest.raises(StoreError):
            call()
    private_redis.cont()
    got = store.get(URL)
    assert got is not None and got.body in (b"before", b"x")  # a write sent before the stop may land late
    store.put(sample_entry(URL, b"after", fetched_at=1_800_000_000.0))
    assert store.get(URL) == sample_entry(URL, b"after", fetched_at=1_800_000_000.0)
    token = store.acquire("https://other.example/robots.txt", 5)
    assert token is not None
    store.release("https://other.example/robots.txt", token)
    store.close()


def test_store_reconnects_after_the_server_is_killed_and_restarted_empty(private_redis: PrivateRedis) -> None:
    """#8 item 5: Redis killed (calls raise StoreError, at once: connection refused) and started
    again empty on the same port: the same store reconnects; the lock script is loaded again."""
    store = RedisStore(private_redis.url)
    store.put(sample_entry(URL, b"before"))
    token = store.acquire(URL, 30)
    assert token is not None
    store.release(URL, token)  # the release script is now cached by this server
    private_redis.kill()
    with pytest.raises(StoreError):
        store.get(URL)
    private_redis.start()
    assert store.get(URL) is None  # restarted empty
    store.put(sample_entry(URL, b"after"))
    assert store.get(URL) == sample_entry(URL, b"after")
    token = store.acquire(URL, 30)
    assert token is not None
    store.release(URL, token)
    assert store.acquire(URL, 30) is not None
    store.close()


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
