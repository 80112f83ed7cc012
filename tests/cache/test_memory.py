"""MemoryStore: an LRU bounded by entry count and by bytes, safe across threads (DESIGN cache/ memory)."""

from __future__ import annotations

import random
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from robotrules.cache import MemoryStore
from robotrules.cache.memory import ENTRY_OVERHEAD, entry_size

from ._workers import sample_entry


def url(i: int) -> str:
    return f"https://site{i}.example/robots.txt"


def test_count_bound_evicts_the_least_recently_stored() -> None:
    """DESIGN cache/ memory (LRU): past max_entries the oldest entry goes first (C1 cache)."""
    store = MemoryStore(max_entries=3)
    for i in range(4):
        store.put(sample_entry(url(i), b"x"))
    assert len(store) == 3
    assert store.get(url(0)) is None
    assert all(store.get(url(i)) is not None for i in (1, 2, 3))


def test_recently_read_entry_survives_eviction() -> None:
    """DESIGN cache/ memory (LRU): get() marks an entry used, so the next-oldest is evicted."""
    store = MemoryStore(max_entries=3)
    for i in range(3):
        store.put(sample_entry(url(i), b"x"))
    assert store.get(url(0)) is not None
    store.put(sample_entry(url(3), b"x"))
    assert store.get(url(0)) is not None
    assert store.get(url(1)) is None


def test_replacing_an_entry_marks_it_used_without_growing_the_count() -> None:
    """C1: a refresh replaces in place (one entry per URL) and counts as a use."""
    store = MemoryStore(max_entries=3)
    for i in range(3):
        store.put(sample_entry(url(i), b"x"))
    store.put(sample_entry(url(0), b"refreshed"))
    assert len(store) == 3
    store.put(sample_entry(url(3), b"x"))
    got = store.get(url(0))
    assert got is not None and got.body == b"refreshed"
    assert store.get(url(1)) is None


def test_byte_bound_evicts_until_the_total_fits() -> None:
    """DESIGN cache/ memory: the store holds at most max_bytes of (estimated) entry size."""
    size = entry_size(sample_entry(url(0), b"a" * 1000))
    store = MemoryStore(max_bytes=3 * size)
    for i in range(5):
        store.put(sample_entry(url(i), b"a" * 1000))
    assert len(store) == 3
    assert store.total_bytes == 3 * size
    assert [store.get(url(i)) is not None for i in range(5)] == [False, False, True, True, True]
    store.put(sample_entry(url(9), b"b" * (2 * size)))  # big: pushes out several small ones
    assert store.total_bytes <= 3 * size
    assert store.get(url(9)) is not None and len(store) == 1


def test_entry_size_counts_body_url_strings_and_overhead() -> None:
    """DESIGN cache/ memory: the byte estimate is body + url + reason + final_url + a fixed overhead."""
    entry = sample_entry(url(1), b"12345")
    assert entry_size(entry) == 5 + 2 * len(url(1)) + len(entry.reason) + ENTRY_OVERHEAD


def test_entry_bigger_than_max_bytes_is_not_kept_and_drops_the_older_copy() -> None:
    """DESIGN cache/ memory: an entry over the bound is not stored; the key's old entry goes too,
    and the other entries stay."""
    small = sample_entry(url(0), b"small")
    store = MemoryStore(max_bytes=4 * entry_size(small))
    store.put(small)
    store.put(sample_entry(url(1), b"small"))
    store.put(sample_entry(url(0), b"x" * (5 * entry_size(small))))
    assert store.get(url(0)) is None
    assert store.get(url(1)) is not None
    assert store.total_bytes == entry_size(small) and len(store) == 1


def test_delete_and_clear_give_the_bytes_back() -> None:
    """DESIGN cache/ memory: the byte total follows deletes."""
    store = MemoryStore()
    store.put(sample_entry(url(0), b"x" * 100))
    store.put(sample_entry(url(1), b"x" * 100))
    store.delete(url(0))
    assert store.total_bytes == entry_size(sample_entry(url(1), b"x" * 100))
    store.clear()
    assert store.total_bytes == 0 and len(store) == 0


@pytest.mark.parametrize("kwargs", [{"max_entries": 0}, {"max_bytes": -1}])
def test_bounds_must_be_sensible(kwargs: dict[str, int]) -> None:
    """DESIGN cache/ memory: a store that can hold nothing by count is a configuration error."""
    with pytest.raises(ValueError):
        MemoryStore(**kwargs)


def test_threads_keep_the_bounds_and_the_byte_total_consistent() -> None:
    """base.Store (thread-safe): 8 threads of put/get/delete leave count, bytes and order consistent."""
    store = MemoryStore(max_entries=50, max_bytes=40 * (ENTRY_OVERHEAD + 300))

    def work(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(2000):
            i = rng.randrange(120)
            op = rng.random()
            if op < 0.5:
                store.put(sample_entry(url(i), bytes(rng.randrange(200))))
            elif op < 0.9:
                got = store.get(url(i))
                assert got is None or got.url == url(i)
            else:
                store.delete(url(i))

    with ThreadPoolExecutor(8) as pool:
        list(pool.map(work, range(8)))  # re-raises the first failure of any thread
    assert len(store) <= 50
    held = [store.get(url(i)) for i in range(120)]
    assert store.total_bytes == sum(entry_size(e) for e in held if e is not None)
    assert store.total_bytes <= store.max_bytes


def test_threads_contending_for_a_lock_never_hold_it_together() -> None:
    """DESIGN cache/ single flight: at most one thread holds a key's lock at any moment."""
    store = MemoryStore()
    holders = 0
    most = 0
    wins = 0
    guard = threading.Lock()

    def work() -> None:
        nonlocal holders, most, wins
        for _ in range(3000):
            token = store.acquire("k", ttl=30)
            if token is None:
                continue
            with guard:
                holders += 1
                wins += 1
                most = max(most, holders)
            with guard:
                holders -= 1
            store.release("k", token)

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most == 1 and wins > 0


def test_expired_locks_are_swept_so_abandoned_locks_do_not_pile_up() -> None:
    """base.Store.acquire: locks never released expire and are eventually forgotten."""
    store = MemoryStore()
    for i in range(3000):
        assert store.acquire(f"k{i}", ttl=1e-9) is not None
    assert len(store._locks) <= 1025
