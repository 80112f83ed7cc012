"""What every store does, and how an entry travels as bytes (C3).

A store maps a robots.txt URL (the key, C3: shared by every agent) to a
:class:`~robotrules.core.policy.Entry`: the raw body and its metadata. Stores keep; they never
decide (DESIGN). They also hold a short-lived lock per key so that a fleet fetches each
robots.txt once (single flight across processes). Lock expiry uses the wall clock of the store
(Redis server time, the machine's time for SQLite and memory), never the client's injected
clock, which may be simulated.

Store methods are synchronous and thread-safe. Errors from the backing service are raised as
:class:`~robotrules.errors.StoreError`; the client degrades to fetching without the store.

What a store promises (every backend; ``tests/cache/test_contract.py`` runs the promises
against each):

- **A write never loses a good copy.** ``put`` merges the new entry with what is stored,
  atomically, by :func:`~robotrules.core.policy.merge` (the newer good copy and the newer
  attempt win), so two crawlers racing, or a slow one finishing last, never replace an entry
  holding a good copy with one that does not (C2).
- **Nothing read is trusted.** Every entry read back is checked by :func:`validate_entry`
  (types, ranges, and that it belongs to the key it was read under). An invalid one is logged
  (one warning, logger ``robotrules.cache``), treated as missing, and replaced by the next
  ``put``. ``put`` refuses an invalid entry with :class:`InvalidEntry` (a ``ValueError``).
- **Calls fail fast.** Each store that does I/O (SQLite, Redis) has a short per-call
  ``timeout`` (0.25 s by default); a backend that stalls makes the call raise
  :class:`~robotrules.errors.StoreError` within a small multiple of it, never the seconds to
  minutes a client library waits by default. The memory store does no I/O.
"""

from __future__ import annotations

import json
import logging
import math
from dataclasses import fields
from typing import Protocol, runtime_checkable

from robotrules.core.policy import Entry
from robotrules.core.reasons import Reason, from_fields
from robotrules.errors import RobotsError

__all__ = [
    "MAX_STATUS",
    "MAX_TIME",
    "InvalidEntry",
    "Store",
    "checked_entry",
    "decode_entry",
    "encode_entry",
    "load_entry",
    "validate_entry",
]

log = logging.getLogger("robotrules.cache")


@runtime_checkable
class Store(Protocol):
    """A cache of robots.txt entries keyed by robots.txt URL, with a per-key fetch lock."""

    blocking: bool
    """True when calls do I/O (SQLite, Redis): the async client runs them in a worker thread."""

    def get(self, key: str) -> Entry | None:
        """The entry stored for ``key``, or None: none stored, or one that fails :func:`validate_entry`
        (logged once per read, as a warning of logger ``robotrules.cache`` naming the key and why)."""
        ...

    def put(self, entry: Entry) -> None:
        """Store ``entry`` under ``entry.url``, merged with what is there: a good copy is never lost.

        What is kept is :func:`~robotrules.core.policy.merge` of the stored entry and ``entry``,
        computed and written atomically against concurrent puts from any thread, process or
        machine sharing the store: the good copy (body, ``good_status``, ``good_at``,
        ``final_url``, ``redirects``) of whichever holds the newer one, and the attempt fields of the newer
        attempt (by ``fetched_at``; on a tie, ``entry``). A stored entry that fails
        :func:`validate_entry` counts as absent, so this put replaces it. An invalid ``entry``
        raises :class:`InvalidEntry` (a ``ValueError``) and nothing is written.
        """
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


MAX_TIME = 253_402_300_799.0
"""The latest time an entry may hold (9999-12-31 23:59:59 UTC, seconds since the epoch): every
time in a valid entry is a representable ``datetime``, and a value beyond it (``1e308``, a huge
integer) is rejected rather than pinning an entry as fresh for ever."""

MAX_STATUS = 999
"""Statuses are 0 (no response, F8) or a three-digit code; the policy keeps even invalid ones
(``invalid status``, F8), so anything in ``0..999`` is accepted."""

_MAX_FAILURES = 2**63 - 1
_MAX_REDIRECTS = 1000  # hops behind the good copy; the policy follows a handful (F3)
_OUTCOMES = frozenset({"rules", "allow", "error"})
_META_FIELDS = ("url", "outcome", "status", "reason", "fetched_at", "expires_at", "good_status",
                "good_at", "failures", "failing_since", "final_url", "redirects")


class InvalidEntry(RobotsError, ValueError):
    """An entry that a store must not keep or hand out: a wrong type, a value out of range, or a
    URL other than the key it was read under. The message names the field."""


def _show(value: object) -> str:
    """A short repr, safe for values built to be huge (an int too long for ``repr``)."""
    if isinstance(value, int) and value.bit_length() > 128:
        return f"an int of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _time(name: str, value: object, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidEntry(f"{name} is {type(value).__name__}, not a number")
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidEntry(f"{name} is {value!r}, not a finite time")
    if not 0 <= value <= MAX_TIME:
        raise InvalidEntry(f"{name} is {_show(value)}, outside [0, {MAX_TIME:.0f}]")


def _int(name: str, value: object, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidEntry(f"{name} is {type(value).__name__}, not an int")
    if not 0 <= value <= high:
        raise InvalidEntry(f"{name} is {_show(value)}, outside [0, {high}]")


def _str(name: str, value: object) -> None:
    if not isinstance(value, str):
        raise InvalidEntry(f"{name} is {type(value).__name__}, not a str")


def validate_entry(entry: object, key: str | None = None) -> Entry:
    """``entry`` itself when a store may keep and hand it out; else :class:`InvalidEntry` naming why.

    Checked: every field has its declared type exactly (a ``bool`` is not an ``int``; times may
    be ``int`` or ``float``); times are finite, in ``[0, MAX_TIME]`` (``good_at`` and
    ``failing_since`` may be None); ``status`` and ``good_status`` in ``[0, MAX_STATUS]``;
    ``outcome`` one of "rules", "allow", "error"; ``failures >= 0``; ``body`` is ``bytes``;
    ``why`` an attempt's :class:`~robotrules.core.reasons.Reason` with a known code and fields of
    their types; and, given ``key``, ``url == key`` (an entry stored under another URL is not this
    key's: installing it would make one host's rules decide for another).

    Why: entries come back from files and servers that other processes, older versions, or
    people write; an unchecked field would raise out of ``allowed()`` in every process reading
    it, until someone deleted it. Nothing here judges what the entry means (that is the policy's).
    """
    if not isinstance(entry, Entry):
        raise InvalidEntry(f"a {type(entry).__name__}, not an Entry")
    _str("url", entry.url)
    if key is not None and entry.url != key:
        raise InvalidEntry(f"url {entry.url[:200]!r} is not the key it was stored under")
    if not isinstance(entry.outcome, str) or entry.outcome not in _OUTCOMES:
        raise InvalidEntry(f"outcome {_show(entry.outcome)} is not one of rules, allow, error")
    _int("status", entry.status, MAX_STATUS)
    _str("reason", entry.reason)
    _time("fetched_at", entry.fetched_at)
    _time("expires_at", entry.expires_at)
    if not isinstance(entry.body, bytes):
        raise InvalidEntry(f"body is {type(entry.body).__name__}, not bytes")
    _int("good_status", entry.good_status, MAX_STATUS)
    _time("good_at", entry.good_at, optional=True)
    _int("failures", entry.failures, _MAX_FAILURES)
    _time("failing_since", entry.failing_since, optional=True)
    _str("final_url", entry.final_url)
    _int("redirects", entry.redirects, _MAX_REDIRECTS)
    _reason(entry.why)
    return entry


def _reason(why: object) -> None:
    """``why`` is an attempt's :class:`~robotrules.core.reasons.Reason` with fields of their types."""
    if not isinstance(why, Reason):
        raise InvalidEntry(f"why is {type(why).__name__}, not a Reason")
    try:
        from_fields({spec.name: getattr(why, spec.name) for spec in fields(why)})  # every field of its type
    except ValueError as exc:
        raise InvalidEntry(f"why: {exc}") from None
    if why.decides != "attempt":
        raise InvalidEntry(f"why.decides is {_show(why.decides)}: an entry's reason is its attempt's")


def encode_entry(entry: Entry) -> bytes:
    """One self-describing blob: a JSON line of metadata, then the raw body bytes.

    The metadata are the entry's fields by name, ``why`` (the reason as data) as a JSON object of
    :meth:`~robotrules.core.reasons.Reason.to_fields`. Versions before it wrote no ``why``: their
    blobs still decode (:func:`_reason_of`)."""
    meta: dict[str, object] = {name: getattr(entry, name) for name in _META_FIELDS}
    meta["why"] = entry.why.to_fields()
    return json.dumps(meta, separators=(",", ":")).encode() + b"\n" + entry.body


def _reason_of(meta: dict[str, object]) -> Reason | None:
    """The reason stored in an entry's metadata (``why``), or None when it has none that this
    version can read: a blob an older version wrote (no ``why``), or one a newer version wrote
    with a code this one does not know. The entry then gets its reason from its sentence, by
    :func:`~robotrules.core.reasons.from_sentence` (:class:`~robotrules.core.policy.Entry`
    does that when it is made without one): the one fallback, so such a blob still reads."""
    why = meta.pop("why", None)
    if not isinstance(why, dict):
        return None
    try:
        return from_fields(why)
    except ValueError:
        return None


def decode_entry(blob: bytes, key: str | None = None) -> Entry:
    """The inverse of :func:`encode_entry`, validated (:func:`validate_entry`, with ``key`` when given).

    ``ValueError`` for a blob it did not write ("not an encoded robotrules entry") and
    :class:`InvalidEntry` (a ``ValueError``) for one whose fields are wrong.
    """
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise ValueError(f"not an encoded robotrules entry: a {type(blob).__name__}, not bytes")
    head, sep, body = bytes(blob).partition(b"\n")
    if not sep:
        raise ValueError("not an encoded robotrules entry")
    try:
        meta = json.loads(head)
        if not isinstance(meta, dict):
            raise TypeError(f"metadata is a JSON {type(meta).__name__}, not an object")
        why = _reason_of(meta)
        entry = Entry(body=body, **meta) if why is None else Entry(body=body, why=why, **meta)
    except (TypeError, ValueError, RecursionError) as exc:  # RecursionError: deeply nested JSON
        raise ValueError(f"not an encoded robotrules entry: {str(exc)[:200]}") from None
    return validate_entry(entry, key)


def load_entry(key: str, blob: bytes, where: str) -> Entry | None:
    """What a store's ``get`` hands out for the raw ``blob`` read under ``key``: the entry, or None
    for an undecodable or invalid one, logged as one warning naming ``where``, the key and why."""
    try:
        return decode_entry(blob, key)
    except ValueError as exc:
        _ignored(key, where, exc)
        return None


def checked_entry(key: str, entry: object, where: str) -> Entry | None:
    """As :func:`load_entry`, for a store that keeps :class:`Entry` objects rather than bytes."""
    try:
        return validate_entry(entry, key)
    except InvalidEntry as exc:
        _ignored(key, where, exc)
        return None


def _ignored(key: str, where: str, why: Exception) -> None:
    """The one warning for an invalid entry a store read (it is then treated as missing)."""
    log.warning("robotrules: ignoring the invalid cache entry for %r in %s (treated as missing): %s", key, where, why)
