"""Stores for robots.txt entries, keyed by robots.txt URL and shared by every agent (C1-C3).

A store keeps :class:`~robotrules.core.policy.Entry` objects and a short per-key fetch lock; it
never decides what an entry means (that is :mod:`robotrules.core.policy`). Pick by reach:
:class:`MemoryStore` for one process (an LRU bounded by entries and bytes), :class:`SQLiteStore`
for the processes of one machine (the embedded default, one file in WAL mode), and
:class:`RedisStore` for a fleet (needs ``pip install 'robotrules[redis]'``; it imports without
redis-py and says so only when constructed). Every store follows the :class:`Store` protocol and
writes the same bytes, :func:`encode_entry`; backend failures are raised as
:class:`~robotrules.errors.StoreError`.

Every store keeps three promises (issue #8; see :mod:`robotrules.cache.base`): a ``put`` merges
with what is stored, atomically, by :func:`robotrules.core.policy.merge`, so a good copy is never
lost (C2); every entry read is checked by :func:`validate_entry` and an invalid one is logged
and read as missing; and the stores that do I/O give up on a stalled backend after a short
per-call ``timeout`` (0.25 s by default) with StoreError. A damaged or read-only SQLite file is
rebuilt, read only, or bypassed rather than stopping the client.
"""

from robotrules.cache.base import InvalidEntry, Store, decode_entry, encode_entry, validate_entry
from robotrules.cache.memory import MemoryStore
from robotrules.cache.redis import RedisStore
from robotrules.cache.sqlite import SQLiteStore, default_path

__all__ = [
    "InvalidEntry",
    "MemoryStore",
    "RedisStore",
    "SQLiteStore",
    "Store",
    "decode_entry",
    "default_path",
    "encode_entry",
    "validate_entry",
]
