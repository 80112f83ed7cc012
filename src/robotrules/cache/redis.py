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
a later holder took. Every ``redis.RedisError`` (unreachable server, timeout, error reply) is
raised as :class:`~robotrules.errors.StoreError`; a client made here has socket timeouts and at
most one quick retry, so an unreachable Redis fails within about ``2 * timeout`` instead of
hanging.

redis-py is an extra (``pip install 'robotrules[redis]'``); this module imports without it and
the :class:`~robotrules.errors.MissingExtra` message comes only when a store is constructed.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from robotrules.cache.base import decode_entry, encode_entry
from robotrules.core.policy import Entry
from robotrules.errors import StoreError, require

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["RedisStore"]

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
    retries are its own, and :meth:`close` leaves it open). ``timeout`` (seconds) is the connect
    and socket timeout of a client made here. ``retention`` (seconds, > 0) is how long an entry
    is kept after its last ``put``.

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
        timeout: float = 5.0,
    ) -> None:
        redis: Any = require("redis", "redis")
        if not retention > 0:
            raise ValueError("retention must be > 0")
        self._errors: type[Exception] = redis.RedisError
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
                retry=Retry(NoBackoff(), 1),  # one retry: a pooled connection the server closed
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
        """The entry stored for ``key``, or None. An undecodable value raises StoreError."""
        try:
            blob = self._client.get(self._entry_key(key))
        except self._errors as exc:
            raise StoreError(f"Redis: {exc}") from exc
        if blob is None:
            return None
        if not isinstance(blob, bytes):
            raise StoreError("Redis returned text: the client must use decode_responses=False")
        try:
            return decode_entry(blob)
        except ValueError as exc:
            raise StoreError(f"Redis: entry for {key!r}: {exc}") from exc

    def put(self, entry: Entry) -> None:
        """Store ``entry`` under ``entry.url``, replacing it, kept ``retention`` seconds from now."""
        try:
            self._client.set(self._entry_key(entry.url), encode_entry(entry), px=self._retention_ms)
        except self._errors as exc:
            raise StoreError(f"Redis: {exc}") from exc

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
