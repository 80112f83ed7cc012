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
