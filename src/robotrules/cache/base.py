"""What every store does, and how an entry travels as bytes (C3).

A store maps a robots.txt URL (the key, C3: shared by every agent) to a
:class:`~robotrules.core.policy.Entry`: the raw body and its metadata. Stores keep; they never
decide (DESIGN). They also hold a short-lived lock per key so that a fleet fetches each
robots.txt once (single flight across processes). Lock expiry uses the wall clock of the store
(Redis server time, the machine's time for SQLite and memory), never the client's injected
clock, which may be simulated.

Store methods are synchronous and thread-safe. Errors from the backing service are raised as
:class:`~robotrules.errors.StoreError`; the client degrades to fetching without the store.
"""

from __future__ import annotations

import json
from typing import Protocol, runtime_checkable

from robotrules.core.policy import Entry

__all__ = ["Store", "decode_entry", "encode_entry"]


@runtime_checkable
class Store(Protocol):
    """A cache of robots.txt entries keyed by robots.txt URL, with a per-key fetch lock."""

    blocking: bool
    """True when calls do I/O (SQLite, Redis): the async client runs them in a worker thread."""

    def get(self, key: str) -> Entry | None:
        """The entry stored for ``key``, or None."""
        ...

    def put(self, entry: Entry) -> None:
        """Store ``entry`` under ``entry.url``, replacing what was there."""
        ...

    def delete(self, key: str) -> None:
        """Forget ``key`` (no error when absent)."""
        ...

    def acquire(self, key: str, ttl: float) -> str | None:
        """Take the fetch lock of ``key`` for ``ttl`` seconds: a token, or None when another holds it."""
        ...

    def release(self, key: str, token: str) -> None:
        """Give the lock back, only if ``token`` still holds it."""
        ...

    def close(self) -> None:
        """Release connections and files."""
        ...


_META_FIELDS = ("url", "outcome", "status", "reason", "fetched_at", "expires_at", "good_status",
                "good_at", "failures", "failing_since", "final_url")


def encode_entry(entry: Entry) -> bytes:
    """One self-describing blob: a JSON line of metadata, then the raw body bytes."""
    meta = {name: getattr(entry, name) for name in _META_FIELDS}
    return json.dumps(meta, separators=(",", ":")).encode() + b"\n" + entry.body


def decode_entry(blob: bytes) -> Entry:
    """The inverse of :func:`encode_entry`; ``ValueError`` for a blob it did not write."""
    head, sep, body = blob.partition(b"\n")
    if not sep:
        raise ValueError("not an encoded robotrules entry")
    try:
        meta = json.loads(head)
        return Entry(body=body, **meta)
    except (TypeError, ValueError, RecursionError) as exc:  # RecursionError: deeply nested JSON
        raise ValueError(f"not an encoded robotrules entry: {exc}") from None
