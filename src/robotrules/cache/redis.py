"""The fleet store: entries and fetch locks in Redis, shared by every crawler that can reach it.

Why Redis: crawlers on many machines share one cached copy of each robots.txt (C3) and fetch it
once (single flight through a lock key), with expiry done by the server.

Keys (``prefix`` defaults to ``"robotrules:"``)::

    prefix + "entry:" + url   the encode_entry() blob, expiring ``retention`` seconds after the last put
    prefix + "lock:" + url    a random token, SET NX PX: the fetch lock, expiring on the server's clock

Retention: the Redis key expiry is not the robots.txt lifetime (that is ``Entry.expires_at``,
decided by the policy, C1/C4). It is how long an entry may sit unused: every ``put`` sets it to
``retention`` again, so an entry nobody asks about for ``retention`` seconds is dropped by
Redis. A failing refresh still puts an entry (the "error" entry that carries the last good copy,
C2), so the last good copy of a site that keeps failing is kept as long as crawlers keep asking.

Release is a compare-and-delete Lua script, so a holder whose lock expired cannot delete the lock
a later holder took.

Writes merge (C2): ``put`` is an optimistic transaction, ``WATCH`` the key, ``GET`` it, compute
:func:`~robotrules.core.policy.merge` in Python, then ``MULTI``/``SET``/``EXEC``; when another
writer changed the key in between, EXEC fails and the put starts again (at most
:data:`PUT_ATTEMPTS` times). The merge rule thus lives once, in the policy, for every backend.
Reads are checked: a value that does not decode or fails
:func:`~robotrules.cache.base.validate_entry` (including one whose URL is not its key's) is
logged and read as missing, and the next ``put`` replaces it.

Failing fast: every ``redis.RedisError`` (unreachable server, timeout, error reply) is raised as
:class:`~robotrules.errors.StoreError`. A client made here has ``socket_connect_timeout`` and
``socket_timeout`` equal to ``timeout`` and no retries (redis-py's default ``Retry`` would retry
three times with a back-off of up to 10 s; a connection the server closed is still replaced
before use, since the pool checks each connection it hands out). A stalled server (stopped,
overloaded, a dropped network) thus costs a call about ``timeout``, at most about
``2 * timeout`` (connect, then no answer), and the connection that timed out is dropped, so
calls work again as soon as the server answers. A command sent before the stall may still be
carried out when the server resumes; a put's EXEC is still checked against its WATCH then, so
the merge stays right. Name resolution of the host is the system's and is not bounded by
``timeout``: use an IP address or a local resolver for a fleet cache.

redis-py is an extra (``pip install 'robotrules[redis]'``); this module imports without it and
the :class:`~robotrules.errors.MissingExtra` message comes only when a store is constructed.
"""

from __future__ import annotations

import secrets
import time
from typing import TYPE_CHECKING, Any

from robotrules.cache.base import encode_entry, load_entry, validate_entry
from robotrules.core.policy import Entry, merge
from robotrules.errors import StoreError, require

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["DEFAULT_TIMEOUT", "PUT_ATTEMPTS", "RedisStore"]

DEFAULT_TIMEOUT = 0.25
"""Seconds a call may wait for Redis to connect or answer (see :class:`RedisStore`)."""

PUT_ATTEMPTS = 32
"""How many times a ``put`` that lost a race (another writer changed the key during its
WATCH/EXEC) starts again before giving up with StoreError. Each round has a winner, so only a
put contending with dozens of writers of the same key at once could run out."""

_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


class RedisStore:
    """Entries and fetch locks in Redis (see the module docstring for keys and retention).

    ``url`` is a redis-py URL (``redis://``, ``rediss://``, ``unix://``). ``client`` is an
    existing ``redis.Redis`` to use instead (it must not decode responses; its timeouts and
    retries are its own, and :meth:`close` leaves it open). ``retention`` (seconds, > 0) is how
    long an entry is kept after its last ``put``.

    ``timeout`` (seconds, > 0; default :data:`DEFAULT_TIMEOUT`, 0.25 s) is the connect and socket
    timeout of a client made here, with no retries: a call to a stalled Redis raises
    :class:`StoreError` after about ``timeout`` (at most about twice that). Why 0.25 s: Redis on
    loopback or a LAN answers a GET or SET of an entry (at most 500 KiB, F9) in well under 10 ms,
    so 0.25 s only runs out when the server is not answering; a check makes up to four store
    calls before it fetches, so a dead cache costs it about a second rather than 40 s, and the
    client then goes on without the store. Raise it for Redis across a WAN.

    Thread-safe: redis-py clients keep a pool of connections, one per concurrent call.
    """

    blocking = True

    def __init__(
        self,
        url: str = "redis://127.0.0.1:6379/0",
        *,
        prefix: str = "robotrules:",
        retention: float = 90 * 86400,
        client: Any = None,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        redis: Any = require("redis", "redis")
        if not retention > 0:
            raise ValueError("retention must be > 0")
        if not timeout > 0:
            raise ValueError("timeout must be > 0")
        self._errors: type[Exception] = redis.RedisError
        self._watch_error: type[Exception] = redis.WatchError
        self._connection_errors: tuple[type[BaseException], ...] = (OSError, redis.ConnectionError, redis.TimeoutError)
        self.timeout = timeout
        self.prefix = prefix
        self.retention = retention
        self._retention_ms = max(1, int(retention * 1000))
        self._owns_client = client is None
        if client is None:
            from redis.backoff import NoBackoff
            from redis.retry import Retry

            client = redis.Redis.from_url(
                url,
                socket_timeout=timeout,
                socket_connect_timeout=timeout,
                retry=Retry(NoBackoff(), 0),  # no retry: a call fails within its timeout (module docstring)
            )
            self.url = url
        else:
            kwargs = getattr(getattr(client, "connection_pool", None), "connection_kwargs", {})
            if kwargs.get("decode_responses"):
                raise ValueError("RedisStore needs a client with decode_responses=False (entries are bytes)")
            self.url = ""
        self._client: Any = client
        self._release = client.register_script(_RELEASE)

    def _entry_key(self, key: str) -> str:
        return f"{self.prefix}entry:{key}"

    def _lock_key(self, key: str) -> str:
        return f"{self.prefix}lock:{key}"

    def get(self, key: str) -> Entry | None:
        """The entry stored for ``key``, or None (also for an invalid value: logged, see base.Store.get)."""
        try:
            blob = self._client.get(self._entry_key(key))
        except self._errors as exc:
            raise StoreError(f"Redis: {exc}") from exc
        if blob is None:
            return None
        if not isinstance(blob, bytes):
            raise StoreError("Redis returned text: the client must use decode_responses=False")
        return load_entry(key, blob, f"Redis ({self._entry_key(key)!r})")

    def put(self, entry: Entry) -> None:
        """Store the merge of the stored entry and ``entry`` (WATCH/MULTI/EXEC, see the module
        docstring), kept ``retention`` seconds from now. ``InvalidEntry`` for an invalid ``entry``;
        StoreError when Redis fails or the put loses :data:`PUT_ATTEMPTS` races in a row."""
        validate_entry(entry)
        name = self._entry_key(entry.url)
        deadline = time.monotonic() + 2 * self.timeout  # a backstop: a lost race costs a few round trips
        try:
            with self._client.pipeline(transaction=True) as pipe:
                for _ in range(PUT_ATTEMPTS):
                    try:
                        pipe.watch(name)
                        blob = pipe.get(name)
                        stored = None
                        if isinstance(blob, bytes):
                            stored = load_entry(entry.url, blob, f"Redis ({name!r})")
                        pipe.multi()
                        pipe.set(name, encode_entry(merge(stored, entry)), px=self._retention_ms)
                        pipe.execute()
                        return
                    except self._watch_error as exc:
                        if self._lost_connection(exc):  # redis-py reports a dropped WATCH connection so
                            raise StoreError(f"Redis: {exc.__context__ or exc}") from exc
                        if time.monotonic() > deadline:
                            break
        except self._errors as exc:
            raise StoreError(f"Redis: {exc}") from exc
        raise StoreError(f"Redis: the put of {entry.url!r} kept losing the race to other writers of the key")

    def _lost_connection(self, exc: BaseException) -> bool:
        """Whether a WatchError stands for a connection that failed (redis-py raises it so while a
        WATCH is on) rather than a key another writer changed: retrying would wait again."""
        if "occurred while watching" in str(exc):
            return True
        seen: BaseException | None = exc.__cause__ or exc.__context__
        for _ in range(8):
            if seen is None:
                return False
            if isinstance(seen, self._connection_errors):
                return True
            seen = seen.__cause__ or seen.__context__
        return False

    def delete(self, key: str) -> None:
        """Forget ``key`` (no error when absent)."""
        try:
            self._client.delete(self._entry_key(key))
        except self._errors as exc:
            raise StoreError(f"Redis: {exc}") from exc

    def acquire(self, key: str, ttl: float) -> str | None:
        """Take the fetch lock of ``key`` for ``ttl`` seconds (> 0, server clock): a token, or None."""
        if not ttl > 0:
            raise ValueError("ttl must be > 0")
        token = secrets.token_hex(16)
        try:
            won = self._client.set(self._lock_key(key), token, nx=True, px=max(1, int(ttl * 1000)))
        except self._errors as exc:
            raise StoreError(f"Redis: {exc}") from exc
        return token if won else None

    def release(self, key: str, token: str) -> None:
        """Give the lock of ``key`` back, only if ``token`` still holds it (atomic, in Lua)."""
        try:
            self._release(keys=[self._lock_key(key)], args=[token])
        except self._errors as exc:
            raise StoreError(f"Redis: {exc}") from exc

    def close(self) -> None:
        """Close the client if this store made it; a client passed in is left to its owner."""
        if self._owns_client:
            try:
                self._client.close()
            except self._errors as exc:
                raise StoreError(f"Redis: {exc}") from exc

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
