"""Worker processes for the fleet tests (importable under the "spawn" start method)."""

from __future__ import annotations

import threading


def check_many(redis_url: str, prefix: str, url: str, threads: int, start: float) -> list[tuple[bool, float, str]]:
    """In a fresh process: ``threads`` concurrent checks of ``url`` sharing one RedisStore.

    Returns (allowed, entry.fetched_at, cache state) per check. ``start`` is a wall-clock time
    to wait for, so that the processes' checks overlap.
    """
    import time

    from robotrules import Policy, RedisStore, RobotsClient

    store = RedisStore(redis_url, prefix=prefix)
    client = RobotsClient(store, policy=Policy(fetch_timeout=10.0))
    results: list[tuple[bool, float, str]] = []
    lock = threading.Lock()
    time.sleep(max(0.0, start - time.time()))

    def one() -> None:
        result = client.check(url, "bot")
        with lock:
            results.append((result.allowed, result.state.entry.fetched_at, result.state.cache))

    workers = [threading.Thread(target=one) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(30)
    client.close()
    store.close()
    return results


def check_hosts(store_spec: tuple[str, str, str], port: int, hosts: int, start: float, seed: int) -> int:
    """In a fresh process: one uncached check of each of ``hosts`` host names (h0.test, ...), in
    an order of its own, through one client on the shared store; the checks that said "miss".

    ``store_spec``: ("sqlite", path, "") or ("redis", url, prefix). Every host name reaches the
    server on 127.0.0.1:``port``. ``start``: a wall-clock time to wait for, so that the
    processes run together.
    """
    import random
    import time

    from robotrules import Policy, RedisStore, RobotsClient, SQLiteStore
    from tests.client._stores import loopback_http

    kind, where, prefix = store_spec
    # Generous store timeouts and deadline: this run is about the race, not about a slow store
    # (a store call that fails or is skipped degrades to fetching without the lock, by design).
    store = SQLiteStore(where, timeout=10.0) if kind == "sqlite" else RedisStore(where, prefix=prefix, timeout=10.0)
    http = loopback_http(port)
    client = RobotsClient(store, http_client=http, policy=Policy(fetch_timeout=10.0), store_deadline=60.0)
    order = list(range(hosts))
    random.Random(seed).shuffle(order)
    time.sleep(max(0.0, start - time.time()))
    misses = sum(client.check(f"http://h{n}.test/private", "bot").state.cache == "miss" for n in order)
    client.close()
    http.close()
    store.close()
    return misses
