"""Every in-process structure of the client is bounded in bytes, not only in count (issue #8).

A maximum-size robots.txt (512,000 bytes, F9) costs megabytes once parsed, so an LRU bounded by
a number of files alone is not bounded: the client charges each parsed file an estimate of what
it retains and evicts least recently used files past ``cache_bytes``. The per-URL lock table
and the origin memo are bounded too. No network: the store is filled directly, as another
process would have filled it.

The estimate (the cost model of ``robotrules.client``) is pinned by a table of the bytes it
charges for fixed files, one per costly shape; its weights come from the calibration in
``bench/limits_bench.py`` (``calibrate``: what each shape really retains, measured with
``tracemalloc``; ``budget``: what a full cache retains against its budget), which is where a
change of the weights is measured and this table updated. One test here still measures with
``tracemalloc`` (what Python allocated and still holds, never RSS): a maximum-size file of the
costliest shapes retains no more than it is charged, give or take, so the budget stays a bound.
"""

from __future__ import annotations

import gc
import tracemalloc
from concurrent.futures import ThreadPoolExecutor

import pytest

from robotrules import MemoryStore, RobotsClient
from robotrules.core.policy import Entry, Response, begin
from tests.client._stores import Scripted, fetched_entry, hosts_served
from tests.client.conftest import POLICY, T0
from tests.servers.clock import FakeClock
from tests.servers.http import respond

MiB = 2**20
SIZE = 512_000


def maximum_size(variant: int) -> bytes:
    """512,000 bytes of robots.txt that parse into many objects: wildcard rules, or crawl-delay lines."""
    if variant % 2:
        unit, head = b"disallow: /*%x*%x\n", b"user-agent: *\n"
        lines = [unit % (variant, i) for i in range(SIZE // 12)]
    else:
        unit, head = b"crawl-delay: %d%d\n", b"user-agent: *\ndisallow: /private\n"
        lines = [unit % (variant, i) for i in range(SIZE // 12)]
    return (head + b"".join(lines))[:SIZE]


def filled_store(bodies: dict[str, bytes]) -> MemoryStore:
    """A store holding a fresh 200 entry per robots.txt URL (as if fetched at T0 by another process)."""
    store = MemoryStore(max_entries=100_000, max_bytes=1 << 30)
    for url, body in bodies.items():
        store.put(fetched_entry(url, body, T0, POLICY))
    return store


def _repeat(head: bytes, unit: bytes, count: int) -> bytes:
    return head + b"".join(unit % i for i in range(count))


CHARGES: list[tuple[str, int, bytes, int]] = [
    # (shape, status, body, bytes charged for its slot: the entry and the parsed file)
    ("empty file", 200, b"", 2177),
    ("typical file", 200, (b"User-agent: *\nDisallow: /private/\nAllow: /private/press/\n\n"
                           b"Sitemap: https://example.com/sitemap.xml\n"), 3145),
    ("literal rules", 200, _repeat(b"user-agent: *\n", b"disallow: /d%d/\n", 1000), 116_515),
    ("wildcard rules", 200, _repeat(b"user-agent: *\n", b"disallow: /*x%d*\n", 1000), 258_515),
    ("rules ending in $", 200, _repeat(b"user-agent: *\n", b"disallow: /e%d$\n", 1000), 256_515),
    ("rules written otherwise than their pattern", 200, _repeat(b"user-agent: *\n", "disallow: /é%d\n".encode(), 1000),
     296_515),
    ("groups of one agent", 200, _repeat(b"", b"user-agent: b%d\ndisallow: /x\n", 500), 396_957),
    ("groups merged for one agent", 200, _repeat(b"", b"user-agent: bot\ndisallow: /m%d\n", 500), 398_957),
    ("user-agent lines", 200, _repeat(b"", b"user-agent: a%d\n", 500) + b"disallow: /\n", 59_651),
    ("other lines", 200, _repeat(b"user-agent: *\n", b"x-field: %d\n", 1000), 268_515),
    ("content-usage lines (their preference index too)", 200,
     _repeat(b"user-agent: *\n", b"content-usage: /*u%d* train-ai=n\n", 1000), 1_030_515),
    ("sitemap lines", 200, _repeat(b"", b"sitemap: https://example.com/s%d.xml\n", 500), 79_957),
    ("a 404 page (no rules: only the entry)", 404, b"<h1>Not found</h1>\n" * 20, 2189),
    ("maximum size, wildcard rules", 200, maximum_size(1), 7_005_647),
    ("maximum size, crawl-delay lines", 200, maximum_size(0), 7_303_747),
]
"""The cost model's charge for one slot per shape (CPython's object sizes do not enter: the model
counts items). Calibrated in ``bench/limits_bench.py calibrate``; update both together."""


@pytest.mark.parametrize(("shape", "status", "body", "charged"), CHARGES, ids=[row[0] for row in CHARGES])
def test_each_shape_is_charged_the_calibrated_bytes(shape: str, status: int, body: bytes, charged: int) -> None:
    """Issue #8 item 1: the bytes charged for a parsed file are the cost model's, as calibrated:
    per body byte, literal rule, pattern rule, rule written otherwise, other line, agent or
    sitemap name, group and merged rule, plus the slot and its entry's strings."""
    url = "http://site.test/robots.txt"
    step = begin(url, None, T0, POLICY)
    assert not isinstance(step, Entry)
    entry = step.apply(Response(status, {}, body), T0)
    assert isinstance(entry, Entry)
    store = MemoryStore()
    store.put(entry)
    client = RobotsClient(store, clock=FakeClock(T0), policy=POLICY)
    client.check("http://site.test/x", "bot")
    assert client.cached_bytes == charged, f"{shape}: charged {client.cached_bytes:,}, calibrated {charged:,}"
    client.close()


def test_parsed_maximum_size_files_are_bounded_by_cache_bytes(clock):
    """Issue #8 item 1: many maximum-size files (each charged about 7 MiB): the charged bytes never
    exceed cache_bytes, the least recently used files go, and the most recent one is kept."""
    budget = 16 * MiB
    files = 4  # unbounded, these would be charged about 4 x 7 MiB
    bodies = {f"http://big{i}.test/robots.txt": maximum_size(i) for i in range(files)}
    bodies["http://small.test/robots.txt"] = b"user-agent: *\ndisallow: /private\n"
    store = filled_store(bodies)
    client = RobotsClient(store, clock=clock, policy=POLICY, cache_bytes=budget)
    assert (client.cache_bytes, client.cache_size) == (budget, 10_000)
    assert not client.allowed("http://small.test/private", "bot")
    for i in range(files):
        assert client.allowed(f"http://big{i}.test/public", "bot")
        assert not client.allowed(f"http://big{i}.test/private/x" if i % 2 == 0 else f"http://big{i}.test/{i:x}/0", "bot")
        assert 0 < client.cached_bytes <= budget
    last = client.check(f"http://big{files - 1}.test/x", "bot")
    assert last.state.cache == "hit"  # the most recent file is kept


@pytest.mark.slow
@pytest.mark.parametrize("variant", [1, 0], ids=["wildcard rules", "crawl-delay lines"])
def test_a_maximum_size_file_retains_no_more_than_it_is_charged(clock, variant: int) -> None:
    """Issue #8 item 1: the charge bounds real memory: what one slot of a maximum-size file of the
    costliest shapes retains (tracemalloc: its entry decoded, its parsed file, its state) is
    within half again of its charge (calibrated at 0.8-0.96 of it), so ``cache_bytes`` bounds
    the memory the cache holds, give or take, and is never off by a multiple."""
    body = maximum_size(variant)
    store = filled_store({"http://big.test/robots.txt": body, "http://small.test/robots.txt": b"user-agent: *\n"})
    client = RobotsClient(store, clock=clock, policy=POLICY)
    assert client.allowed("http://small.test/x", "bot")  # warm-up: first-call set-up not counted
    del body
    gc.collect()
    tracemalloc.start()
    try:
        base, charged = tracemalloc.get_traced_memory()[0], client.cached_bytes
        client.allowed("http://big.test/x", "bot")
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0] - base
        charged = client.cached_bytes - charged
    finally:
        tracemalloc.stop()
    assert charged > MiB
    assert retained <= 1.5 * charged, f"retained {retained / MiB:.1f} MiB for a charge of {charged / MiB:.1f} MiB"
    client.close()


def test_a_file_of_content_usage_lines_retains_no_more_than_it_is_charged_once_its_preferences_are_read() -> None:
    """A1, A2: a group's Content-Usage lines are compiled into an index when a verdict first asks
    for preferences; the charge of a file of 18,000 distinct wildcard paths covers what the parsed
    file then retains (tracemalloc), so a cache of such files stays within ``cache_bytes``."""
    from robotrules import parse
    from robotrules.client._cost import parsed_cost

    body = _repeat(b"user-agent: *\ndisallow: /private\n", b"content-usage: /*b%d* train-ai=n\n", 18_000)[:SIZE]
    gc.collect()
    tracemalloc.start()
    try:
        robots = parse(body)
        robots.usage("/abc", "bot")
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    charged = parsed_cost(robots) + 2 * len(body)
    assert retained <= 1.2 * charged, f"retained {retained / MiB:.1f} MiB for a charge of {charged / MiB:.1f} MiB"


def test_the_default_byte_budget_is_256_mib_beside_10000_files():
    """Issue #8 item 1: documented defaults: cache_bytes=256 MiB beside cache_size=10,000; the origin memo 8 MiB."""
    from robotrules.client import DEFAULT_CACHE_BYTES, ORIGIN_MEMO_BYTES

    client = RobotsClient()
    assert (client.cache_bytes, client.cache_size, DEFAULT_CACHE_BYTES) == (256 * MiB, 10_000, 256 * MiB)
    assert (ORIGIN_MEMO_BYTES, client.cached_bytes) == (8 * MiB, 0)
    client.close()


def test_eviction_by_bytes_drops_the_least_recently_used_file_first(clock):
    """Issue #8 item 1: past cache_bytes, the least recently used parsed file goes first (LRU)."""
    body = b"user-agent: *\ndisallow: /private\n" + b"".join(b"disallow: /d%d\n" % i for i in range(200))
    urls = [f"http://h{i}.test/robots.txt" for i in range(5)]
    store = Scripted(filled_store(dict.fromkeys(urls, body)), clock=clock)
    probe = RobotsClient(store, clock=clock, policy=POLICY)
    probe.allowed("http://h0.test/", "bot")
    one = probe.cached_bytes  # what one such file is charged
    client = RobotsClient(store, clock=clock, policy=POLICY, cache_bytes=3 * one)
    for i in range(3):
        client.allowed(f"http://h{i}.test/", "bot")
    client.allowed("http://h0.test/", "bot")  # h0 is now the most recently used
    client.allowed("http://h3.test/", "bot")  # over budget: h1 (least recently used) goes
    assert client.cached_bytes <= 3 * one
    reads = store.calls["get"]
    assert [client.check(f"http://h{i}.test/x", "bot").state.cache for i in (0, 2, 3)] == ["hit"] * 3
    assert store.calls["get"] == reads  # hits: no store read
    assert client.check("http://h1.test/x", "bot").state.cache == "hit"  # read back from the store, parsed again
    assert store.calls["get"] == reads + 1


def test_a_file_charged_more_than_the_whole_budget_answers_but_is_not_kept(clock):
    """Issue #8 item 1: a parsed file bigger than cache_bytes on its own still decides, but is not cached."""
    url = "http://big.test/robots.txt"
    store = Scripted(filled_store({url: maximum_size(1)}), clock=clock)
    client = RobotsClient(store, clock=clock, policy=POLICY, cache_bytes=MiB)
    assert not client.allowed("http://big.test/x1y0", "bot")  # "disallow: /*1*0"
    assert client.check("http://big.test/public", "bot").allowed
    assert client.cached_bytes == 0 and store.calls["get"] == 2  # read (and parsed) for each call


def test_the_per_url_lock_table_is_empty_after_a_burst_of_distinct_hosts(server, make_client):
    """Issue #8 item 1: a lock per robots.txt URL exists only while someone holds or waits for it."""
    server.route("/robots.txt", respond(200, b"user-agent: *\ndisallow: /private\n"))
    client = make_client(http_client=make_client.loopback(server.port))
    urls = [f"http://h{i}.test/private/{j}" for i in range(150) for j in range(2)]
    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda u: client.allowed(u, "bot"), urls))
    assert answers == [False] * len(urls)
    assert len(client._flights) == 0
    assert set(hosts_served(server).values()) == {1} and len(hosts_served(server)) == 150


@pytest.mark.slow
def test_the_origin_memo_is_bounded_in_bytes_even_for_megabyte_urls():
    """Issue #8 item 1: 64 URLs with a 1 MiB user info each do not leave 64 MiB of memo behind;
    50,000 ordinary origins leave at most the memo's budget (ORIGIN_MEMO_BYTES, 8 MiB)."""
    client = RobotsClient()
    client.robots_url("http://warm.test/")
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for i in range(64):
            url = "http://" + "u" * MiB + f"@h{i}.test/page"
            assert client.robots_url(url) == f"http://h{i}.test/robots.txt"
            del url
        for i in range(50_000):  # many ordinary origins: the memo starts over past its budget
            client.robots_url(f"http://host-{i:06d}.example/")
        gc.collect()
        retained = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert retained <= 10 * MiB, f"retained {retained / MiB:.1f} MiB"
    client.close()
