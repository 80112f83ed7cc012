"""The contract every store keeps, run against MemoryStore, SQLiteStore and RedisStore alike.

A store keeps entries keyed by robots.txt URL (C3) exactly as given, so the policy's answers
(C1 lifetime, C2 last good copy, C4 max-age) come back unchanged, and holds per-key fetch locks
(DESIGN: cache/, single flight; base.Store).
"""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from robotrules.cache import Store, decode_entry, encode_entry
from robotrules.core.policy import Entry

from ._workers import sample_entry

URL = "https://example.com/robots.txt"


def test_store_follows_the_store_protocol(store: Store) -> None:
    """DESIGN cache/: every store is a base.Store; only the in-process one is non-blocking."""
    assert isinstance(store, Store)
    assert store.blocking is (type(store).__name__ != "MemoryStore")


def test_round_trip_keeps_every_field_of_a_failing_entry(store: Store) -> None:
    """C2: an error entry with its last good copy, streak and timestamps comes back equal."""
    entry = Entry(
        url=URL, outcome="error", status=503, reason="503: server error; ünïcode ☃ \"quoted\"\nnewline",
        fetched_at=1_717_171_717.123456, expires_at=1_717_171_777.5, body=b"User-agent: *\nDisallow: /x\n",
        good_status=200, good_at=1_717_000_000.0, failures=3, failing_since=1_717_100_000.75,
        final_url="https://www.example.com/robots.txt",
    )
    store.put(entry)
    assert store.get(URL) == entry


def test_round_trip_keeps_none_and_default_fields(store: Store) -> None:
    """C2, F8: an entry with no good copy (good_at and failing_since None, status 0) comes back equal."""
    entry = Entry(url=URL, outcome="error", status=0, reason="dns error", fetched_at=5.0, expires_at=305.0)
    store.put(entry)
    got = store.get(URL)
    assert got == entry
    assert got is not None and got.good_at is None and got.failing_since is None


def test_body_with_every_byte_value_and_newlines_comes_back_exactly(store: Store) -> None:
    """C1: the cached copy is the body as fetched, byte for byte (P1 line ends, P3 any bytes)."""
    body = b"\n" + bytes(range(256)) * 3 + b"\r\n\r\n\x00\n" + b"\xef\xbb\xbfUser-agent: *\r"
    store.put(sample_entry(URL, body))
    got = store.get(URL)
    assert got is not None and got.body == body


def test_empty_body_comes_back_empty(store: Store) -> None:
    """F4: a 4xx entry has no body; it stays bytes and empty."""
    entry = Entry(url=URL, outcome="allow", status=404, reason="404", fetched_at=1.0, expires_at=2.0,
                  good_status=404, good_at=1.0)
    store.put(entry)
    got = store.get(URL)
    assert got == entry and got is not None and got.body == b""


def test_put_replaces_the_previous_entry(store: Store) -> None:
    """C1: a refresh replaces the cached copy for the same robots.txt URL."""
    store.put(sample_entry(URL, b"old"))
    newer = sample_entry(URL, b"new", fetched_at=1_700_086_400.0)
    store.put(newer)
    assert store.get(URL) == newer


def test_missing_key_is_none(store: Store) -> None:
    """base.Store.get: nothing stored gives None, not an error."""
    assert store.get("https://nothing.example/robots.txt") is None


def test_delete_forgets_and_deleting_twice_is_harmless(store: Store) -> None:
    """base.Store.delete: the entry is gone; deleting an absent key raises nothing."""
    store.put(sample_entry(URL, b"x"))
    store.delete(URL)
    assert store.get(URL) is None
    store.delete(URL)
    store.delete("https://never.example/robots.txt")


def test_entries_are_keyed_by_robots_url_not_agent(store: Store) -> None:
    """C3, S1: one entry per robots.txt URL; other schemes, hosts and ports are other keys."""
    urls = ["http://example.com/robots.txt", "https://example.com/robots.txt",
            "https://example.com:8443/robots.txt", "https://xn--mller-kva.eu/robots.txt"]
    for i, url in enumerate(urls):
        store.put(sample_entry(url, f"body {i}".encode()))
    for i, url in enumerate(urls):
        got = store.get(url)
        assert got is not None and got.url == url and got.body == f"body {i}".encode()
    store.delete(urls[0])
    assert store.get(urls[0]) is None and store.get(urls[1]) is not None


def test_lock_is_exclusive_until_released(store: Store) -> None:
    """DESIGN cache/ single flight: one holder per key; after release another may take it."""
    token = store.acquire(URL, ttl=30)
    assert isinstance(token, str) and token
    assert store.acquire(URL, ttl=30) is None
    store.release(URL, token)
    again = store.acquire(URL, ttl=30)
    assert again is not None and again != token
    store.release(URL, again)


def test_locks_of_different_keys_are_independent(store: Store) -> None:
    """C3: the lock is per robots.txt URL."""
    a = store.acquire(URL, ttl=30)
    b = store.acquire("http://example.com/robots.txt", ttl=30)
    assert a is not None and b is not None
    store.release(URL, a)
    store.release("http://example.com/robots.txt", b)


def test_release_with_a_wrong_token_keeps_the_lock(store: Store) -> None:
    """base.Store.release: only the holder's token releases; a stranger's does nothing."""
    token = store.acquire(URL, ttl=30)
    assert token is not None
    store.release(URL, "not-the-token")
    store.release("https://other.example/robots.txt", token)
    assert store.acquire(URL, ttl=30) is None
    store.release(URL, token)
    assert store.acquire(URL, ttl=30) is not None


def test_expired_lock_can_be_taken_and_the_old_holder_cannot_release_it(store: Store) -> None:
    """base.Store.acquire: a crashed holder's lock expires after ttl; its late release is ignored."""
    old = store.acquire(URL, ttl=0.3)
    assert old is not None
    assert store.acquire(URL, ttl=0.3) is None
    time.sleep(0.45)
    new = store.acquire(URL, ttl=30)
    assert new is not None
    store.release(URL, old)  # too late: the lock is someone else's now
    assert store.acquire(URL, ttl=30) is None
    store.release(URL, new)


@pytest.mark.parametrize("ttl", [0, -1.0])
def test_lock_ttl_must_be_positive(store: Store, ttl: float) -> None:
    """base.Store.acquire: a lock that expires at once is a caller bug, refused with ValueError."""
    with pytest.raises(ValueError):
        store.acquire(URL, ttl=ttl)


_urls = st.text(min_size=1, max_size=40).map(  # text() leaves out lone surrogates
    lambda s: "https://example.com/" + s
)
_times = st.floats(allow_nan=False, allow_infinity=False, width=64)
_entries = st.builds(
    Entry,
    url=_urls,
    outcome=st.sampled_from(["rules", "allow", "error"]),
    status=st.integers(0, 599),
    reason=st.text(max_size=60),
    fetched_at=_times,
    expires_at=_times,
    body=st.binary(max_size=300),
    good_status=st.integers(0, 599),
    good_at=st.none() | _times,
    failures=st.integers(0, 2**40),
    failing_since=st.none() | _times,
    final_url=st.text(max_size=40),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=_entries)
def test_any_entry_round_trips(store: Store, entry: Entry) -> None:
    """C1-C3: whatever the policy makes (hypothesis: any field values) comes back equal."""
    store.put(entry)
    assert store.get(entry.url) == entry
    assert decode_entry(encode_entry(entry)) == entry
