"""Fixtures for the store tests: a fresh store of each kind, and a Redis server on 127.0.0.1.

Redis: the server on 127.0.0.1:6379 when it answers; otherwise a throw-away ``redis-server`` on a
free port for the session (no persistence); otherwise the Redis tests skip, saying why (and fail
in CI, where ``.ci/run`` starts a server: :func:`tests.needs.unavailable`). Every
test gets its own key prefix and its keys are deleted afterwards, so a shared server is safe.

Fault tests never touch that shared server: ``private_redis`` starts a ``redis-server`` of the
test's own on a spare loopback port, which the test may stop (SIGSTOP), kill and restart; its
finalizer always resumes and kills it. ``raw_writer`` puts bytes straight into a backend,
behind the store's back, as another program or a damaged disk would.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from robotrules.cache import MemoryStore, RedisStore, SQLiteStore
from robotrules.cache.base import Store
from robotrules.core.policy import Entry
from robotrules.core.reasons import from_fields
from tests.needs import unavailable
from tests.servers.privileges import Unavailable, file_permissions_apply

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


def _need_redis_py() -> None:
    try:
        import redis  # noqa: F401
    except ImportError:
        unavailable("redis-py is not installed (the robotrules[redis] extra)")


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """The URL of a Redis server on 127.0.0.1, started for the session if none is running."""
    _need_redis_py()
    url = "redis://{}:{}/0".format(*DEFAULT_REDIS)
    if _redis_answers(url):
        yield url
        return
    server = shutil.which("redis-server")
    if server is None:
        unavailable("no Redis on 127.0.0.1:6379 and no redis-server on PATH to start one")
    port = free_port()
    proc = subprocess.Popen(
        [server, "--save", "", "--appendonly", "no", "--port", str(port), "--bind", "127.0.0.1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    try:
        if not _redis_answers(url, wait=10.0):
            unavailable(f"redis-server started on port {port} but did not answer")
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


class PrivateRedis:
    """A ``redis-server`` of one test, on a spare loopback port, that the test may stall or kill."""

    def __init__(self, server: str) -> None:
        self.server = server
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        """Start (or restart, empty) the server on the same port."""
        self.proc = subprocess.Popen(
            [self.server, "--save", "", "--appendonly", "no", "--port", str(self.port), "--bind", "127.0.0.1"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if not _redis_answers(self.url, wait=10.0):
            self.kill()
            unavailable(f"redis-server on port {self.port} did not answer")

    def stop(self) -> None:
        """SIGSTOP: the server keeps its sockets open (the kernel still accepts) but answers nothing."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGSTOP)

    def cont(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGCONT)

    def kill(self) -> None:
        """SIGKILL and reap: its connections are closed by the kernel."""
        if self.proc is None:
            return
        self.cont()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=10)
        self.proc = None


@pytest.fixture
def private_redis() -> Iterator[PrivateRedis]:
    """A Redis server of this test alone; resumed and killed afterwards, whatever happened."""
    _need_redis_py()
    server = shutil.which("redis-server")
    if server is None or not hasattr(signal, "SIGSTOP"):
        unavailable("fault tests need redis-server on PATH and POSIX signals")
    made = PrivateRedis(server)
    try:
        yield made
    finally:
        made.kill()


@pytest.fixture
def store_kind(store: Store) -> str:
    """"memory", "sqlite" or "redis": the backend of ``store``."""
    return {"MemoryStore": "memory", "SQLiteStore": "sqlite", "RedisStore": "redis"}[type(store).__name__]


def _loose_entry(blob: bytes) -> object:
    """For the memory store, which keeps objects: the blob as an Entry built without any check
    (fields of any type), or the bytes themselves when they are not even that."""
    head, sep, body = blob.partition(b"\n")
    try:
        meta = json.loads(head)
        if not (sep and isinstance(meta, dict)):
            return blob
        if isinstance(meta.get("why"), dict):  # the reason as a Reason, when it is one
            with contextlib.suppress(ValueError):
                meta["why"] = from_fields(meta["why"])
        return Entry(body=body, **meta)
    except (TypeError, ValueError):
        return blob


@pytest.fixture
def raw_writer(store: Store, store_kind: str, request: pytest.FixtureRequest) -> Callable[[str, object], None]:
    """``write(key, value)``: store ``value`` (bytes, or any SQLite value) under ``key`` in the backend,
    bypassing the store: a row of another program, an older version, a damaged disk."""
    if store_kind == "memory":
        assert isinstance(store, MemoryStore)

        def write_memory(key: str, value: object) -> None:
            obj = _loose_entry(value) if isinstance(value, bytes) else value
            store._entries[key] = (obj, 1000)  # type: ignore[assignment]  # deliberately not an Entry
            store._bytes += 1000

        return write_memory
    if store_kind == "sqlite":
        assert isinstance(store, SQLiteStore)

        def write_sqlite(key: str, value: object) -> None:
            conn = sqlite3.connect(store.path)
            try:
                with conn:
                    conn.execute("INSERT OR REPLACE INTO entries (key, fetched_at, data) VALUES (?, 0, ?)", (key, value))
            finally:
                conn.close()

        return write_sqlite
    assert isinstance(store, RedisStore)
    client = request.getfixturevalue("redis_client")

    def write_redis(key: str, value: object) -> None:
        assert isinstance(value, bytes)
        client.set(f"{store.prefix}entry:{key}", value)

    return write_redis


def unprivileged_python(code: str, *args: str, timeout: float = 60) -> dict[str, Any]:
    """Run ``code`` in a child Python that file permissions apply to; its stdout's last line as JSON.

    Tests run as root in CI containers, where ``chmod`` stops nothing (CAP_DAC_OVERRIDE); the
    child then runs without that power (:func:`tests.servers.privileges.file_permissions_apply`),
    as an ordinary user does. Skips (fails in CI), saying why, when that cannot be arranged.
    """
    try:
        preexec = file_permissions_apply()
    except Unavailable as exc:
        unavailable(str(exc))
    done = subprocess.run([sys.executable, "-c", code, *args], check=False, capture_output=True, text=True,
                          timeout=timeout, preexec_fn=preexec)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if "skip" in result:
        unavailable(str(result["skip"]))
    return result
