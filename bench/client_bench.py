#!/usr/bin/env python3
"""Fetch-and-cache client benchmark: RobotsClient as a crawler uses it, per store, with peers.

    python bench/client_bench.py [--hosts N] [--checks N] [--cold-checks N] [--miss-hosts N]
        [--repeat K] [--stores memory,sqlite,redis] [--redis-url URL] [--quick] [--out DIR]

Set-up. ``--hosts`` (10,000) synthetic sites ``http://siteNNNNN.test/``; site ``i`` serves the
corpus robots.txt number ``i % 1,613`` (sorted by name, round-robin) and is asked about the links
crawled on that corpus site, rewritten onto the synthetic host (path and query kept); the sites
without links get "/" and a few common paths. ``--checks`` (200,000) URLs are picked, the same
number for every host (each host's links taken in turn), and shuffled once with a fixed seed:
one fixed list, so that consecutive decisions hit different hosts, as in a crawler's frontier.
Each store (MemoryStore; SQLiteStore in a temporary directory; RedisStore on 127.0.0.1:6379
under a unique key prefix, deleted afterwards, skipped if Redis does not answer) is filled
directly with a fresh :class:`~robotrules.core.policy.Entry` per host (outcome "rules", status
200, fetched now, expiring in ten years, body = the corpus bytes), so that the cached figures
need no network. The client is given an ``httpx.Client`` that counts its requests: a cached
figure during which anything was fetched is flagged (it would not be a cached figure).

What each figure means, and why it is measured:

* **Warm** (``cache_size=10_000``): the in-process LRU of parsed files holds every host (one
  untimed pass first), so a decision is URL -> robots.txt URL, an LRU lookup, the freshness test
  and the match. The crawler's steady state; the store is not touched, so the three stores
  should agree (they differ only by noise).
* **No in-process cache** (``cache_size=0``): every decision reads the store (a dict, an SQLite
  row, a Redis GET), decodes the entry and parses the robots.txt again. The worst case of a
  client whose LRU is too small for its working set; ``--cold-checks`` (10,000) decisions of the
  same list, because each costs a parse. Compared with the floor "parse + check" (a dict of raw
  bodies, parse then check, no store), it shows what the store read adds.
* **Small in-process cache** (``--small-cache``, 1,000): the same 10,000-decision list through a
  1,000-file LRU (one untimed pass first; it takes turns with the cache_size=0 clients). The picks are uniform over hosts, so the hit rate is
  about 1,000 / hosts (it is simulated exactly and shown): the figure lands between the two above.
* **Miss, fetched**: a first ``allowed()`` for a host that neither the LRU nor the store has
  (its entry deleted first): store read, store lock, HTTP GET, store write, lock release, parse.
  Median and p90 over ``--miss-hosts`` (500) hosts spread across the set, each host's best of the
  repeats. The robots.txt is served by a real HTTP/1.1 server on 127.0.0.1 (``http.server`` in a
  child process, keep-alive; the synthetic names reach it through an httpx transport that rewrites
  the address and keeps the Host header). For scale, the same GET alone through the same
  ``httpx.Client`` and the parse alone are given: loopback is the cheapest network there is, so
  these are lower bounds of a real miss.
* **Miss, already in the store**: the same hosts through a new client whose LRU is empty while
  the store holds a fresh entry (another process fetched it): store read + decode + parse.
* **Store put / get**: mean time of ``store.put(entry)`` while filling the store and of
  ``store.get(key)`` while checking that every entry is there (10,000 each, not repeated).
* **Peers** (same URL list, same run, taking turns with the warm clients): a dict host ->
  parsed object, then one check per URL: protego (``can_fetch(url, agent)``),
  ``urllib.robotparser`` (``RobotFileParser`` fed the lines, ``can_fetch(agent, url)``), and
  robotrules' own ``parse()`` objects (the no-client baseline: the client's overhead is the
  warm client's time minus this one's). The peers are handed the dict key with each URL, which
  is the most favourable case for them: the client has to derive its key from the URL.

Method: ``time.perf_counter_ns``, the garbage collector disabled while timing (long-lived objects
frozen out of it with ``gc.freeze()``), best of ``--repeat`` (3) rounds, the contenders of a
figure taking turns in each round (order rotated) so that a change of machine load hits them
alike. Ratios are within one run; compare figures of two runs only as ratios. The decisions of
every client and of bare robotrules are compared (they must be identical); the peers'
disagreements with robotrules are counted for information. Results: ``client-<build>.md`` and
``.json`` in ``--out`` (bench/results), build = "compiled" or "pure" (which core was imported).
"""
from __future__ import annotations

import argparse
import gc
import json
import logging
import math
import multiprocessing
import platform
import random
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

import robotrules
from robotrules import MemoryStore, RedisStore, RobotsClient, SQLiteStore, parse
from robotrules.cache.base import Store
from robotrules.core.policy import Entry

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus_bench  # corpus loader, machine info, formatting: one definition

AGENT = "googlebot"
REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = REPO_ROOT / "bench" / "results"
STORES = ("memory", "sqlite", "redis")
FAR_FUTURE = 10 * 365 * 86_400.0
NO_LINK_PATHS = ("/", "/index.html", "/about/", "/search?q=robots", "/admin/", "/wp-login.php", "/cgi-bin/test.cgi")
QUICK = {"hosts": 300, "checks": 3_000, "cold_checks": 300, "small_cache": 30, "miss_hosts": 20, "repeat": 1}

perf_ns = time.perf_counter_ns
Log = Callable[[str], None]


# --------------------------------------------------------------------------- workload


@dataclass
class Workload:
    """The synthetic hosts, what they serve, and the fixed list of URLs to decide on."""

    origins: list[str]               # "http://site00042.test", per host
    robots_urls: list[str]           # origin + "/robots.txt", per host
    file_of: list[int]               # corpus file index served by each host
    raw: list[bytes]                 # corpus bodies (by file index)
    paths: list[list[str]]           # per corpus file: the paths (and queries) asked about
    picks: list[str]                 # the URLs, shuffled
    pick_host: list[int]             # host index of each pick
    files_with_links: int = 0

    def body(self, host: int) -> bytes:
        return self.raw[self.file_of[host]]

    def first_url(self, host: int) -> str:
        return self.origins[host] + self.paths[self.file_of[host]][0]


def _rewrite(link: str) -> str | None:
    """The path and query of a corpus link ("/" for an empty path), None if it cannot be split."""
    try:
        parts = urlsplit(link)
    except ValueError:
        return None
    path = parts.path or "/"
    if not path.startswith("/"):
        path = "/" + path
    return path + ("?" + parts.query if parts.query else "")


def build_workload(c: corpus_bench.Corpus, hosts: int, checks: int, seed: int) -> Workload:
    n_files = len(c.names)
    paths: list[list[str]] = [list(NO_LINK_PATHS) for _ in range(n_files)]
    with_links = 0
    for si, links in zip(c.site_index, c.links, strict=True):
        rewritten = [p for p in (_rewrite(u) for u in links) if p is not None]
        if rewritten:
            paths[si] = rewritten
            with_links += 1
    width = max(5, len(str(hosts - 1)))
    origins = [f"http://site{i:0{width}d}.test" for i in range(hosts)]
    file_of = [i % n_files for i in range(hosts)]
    order = list(range(checks))
    random.Random(seed).shuffle(order)
    picks, pick_host = [], []
    for k in order:  # the k-th pick: host k % hosts, its (k // hosts)-th path in turn
        h = k % hosts
        ps = paths[file_of[h]]
        picks.append(origins[h] + ps[(k // hosts) % len(ps)])
        pick_host.append(h)
    return Workload(origins, [o + "/robots.txt" for o in origins], file_of, c.raw, paths, picks, pick_host, with_links)


def fresh_entry(robots_url: str, body: bytes, now: float) -> Entry:
    """What a successful fetch just now would have stored (F2, C1), valid for ten years."""
    return Entry(url=robots_url, outcome="rules", status=200, reason="200: rules from the body (F2)",
                 fetched_at=now, expires_at=now + FAR_FUTURE, body=body, good_status=200, good_at=now,
                 final_url=robots_url)


# --------------------------------------------------------------------------- HTTP server and transport


class _QuietServer(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Silent: a client may hang up mid-body (the fetcher stops reading at 512,000 bytes)."""


def _handler(bodies: dict[str, bytes]) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        """GET /robots.txt: the body of the host named by the Host header; anything else 404."""

        protocol_version = "HTTP/1.1"  # keep-alive: the client's connection is reused
        disable_nagle_algorithm = True

        def do_GET(self) -> None:
            host = (self.headers.get("Host") or "").split(":", 1)[0].lower()
            body = bodies.get(host) if self.path == "/robots.txt" else None
            head = "200 OK" if body is not None else "404 Not Found"
            body = body if body is not None else b""
            self.wfile.write(  # one write: no Nagle / delayed-ACK stall between head and body
                f"HTTP/1.1 {head}\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


class RobotsServer:
    """A ThreadingHTTPServer on 127.0.0.1 in a forked child (its work does not take the GIL
    of the process being measured; on 2 cores it runs beside it)."""

    def __init__(self, bodies: dict[str, bytes]) -> None:
        self._server = _QuietServer(("127.0.0.1", 0), _handler(bodies))
        self.port: int = self._server.server_address[1]
        self._proc: Any = None

    def __enter__(self) -> RobotsServer:
        self._proc = multiprocessing.get_context("fork").Process(target=self._server.serve_forever, daemon=True)
        self._proc.start()
        self._server.server_close()  # the child has its own copy of the listening socket
        return self

    def __exit__(self, *exc: object) -> None:
        self._proc.terminate()
        self._proc.join(5)


class LoopbackTransport(httpx.HTTPTransport):
    """Sends every request to 127.0.0.1:port; the Host header still names the synthetic site."""

    def __init__(self, port: int) -> None:
        super().__init__()
        self.port = port
        self.requests = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.requests += 1
        request.url = request.url.copy_with(scheme="http", host="127.0.0.1", port=self.port)
        return super().handle_request(request)


class WarningCounter(logging.Handler):
    """Counts the client's warnings (a failing store is logged and bypassed, never raised)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0
        self.last = ""

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1
        self.last = record.getMessage()


# --------------------------------------------------------------------------- stores


@dataclass
class StoreRun:
    name: str
    store: Store | None = None
    error: str = ""
    cleanup: Callable[[], None] | None = None
    info: dict[str, Any] = field(default_factory=dict)
    transport: LoopbackTransport | None = None  # this store's clients fetch through it (counted)
    http: httpx.Client | None = None


def redis_reason(url: str) -> str:
    """"" when Redis answers at ``url``, else why not."""
    try:
        import redis
    except ImportError:
        return "redis-py not installed"
    client = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
    try:
        client.ping()
        return ""
    except redis.RedisError as exc:
        return f"Redis not reachable at {url}: {exc}"
    finally:
        client.close()


def open_store(name: str, tmpdir: Path, redis_url: str, hosts: int) -> StoreRun:
    run = StoreRun(name)
    try:
        if name == "memory":
            run.store = MemoryStore(max_entries=max(100_000, hosts), max_bytes=1 << 30)
        elif name == "sqlite":
            path = tmpdir / "robots-cache.sqlite"
            run.store = SQLiteStore(path)
            run.info["sqlite_version"] = sqlite3.sqlite_version
        else:
            why = redis_reason(redis_url)
            if why:
                run.error = f"skipped: {why}"
                return run
            import redis

            prefix = f"robotrules-bench:{uuid.uuid4().hex}:"
            run.info["prefix"] = prefix
            admin = redis.Redis.from_url(redis_url, socket_timeout=5.0)
            run.info["redis_version"] = admin.info("server").get("redis_version", "?")

            def cleanup() -> None:  # the bench's own keys only, by their unique prefix
                try:
                    keys = list(admin.scan_iter(match=prefix + "*", count=1000))
                    for i in range(0, len(keys), 1000):
                        admin.delete(*keys[i:i + 1000])
                finally:
                    admin.close()

            run.cleanup = cleanup
            run.store = RedisStore(redis_url, prefix=prefix)
    except Exception as exc:  # a store still being finished: report it, go on with the others
        run.error = f"error opening: {type(exc).__name__}: {exc}"
        run.store = None
    return run


def populate(run: StoreRun, w: Workload) -> None:
    """Put a fresh entry per host, then read every one back: mean put and get times."""
    store = run.store
    assert store is not None
    now = time.time()
    entries = [fresh_entry(u, w.body(h), now) for h, u in enumerate(w.robots_urls)]
    t0 = perf_ns()
    for e in entries:
        store.put(e)
    put_ns = perf_ns() - t0
    missing = wrong = 0
    t0 = perf_ns()
    got = [store.get(u) for u in w.robots_urls]
    get_ns = perf_ns() - t0
    for e, g in zip(entries, got, strict=True):
        if g is None:
            missing += 1
        elif g != e:
            wrong += 1
    run.info.update(put_mean_ns=put_ns / len(entries), get_mean_ns=get_ns / len(entries))
    if missing or wrong:
        raise RuntimeError(f"after {len(entries):,} puts, {missing:,} entries missing and {wrong:,} differing on get")


# --------------------------------------------------------------------------- timing


class NoGC:
    """The collector off while timing (after a collection of the unfrozen objects)."""

    def __enter__(self) -> None:
        gc.collect()
        gc.disable()

    def __exit__(self, *exc: object) -> None:
        gc.enable()


def rotated(items: list[Any], r: int) -> list[Any]:
    k = r % len(items) if items else 0
    return items[k:] + items[:k]


def best_of(contenders: dict[str, Callable[[], None]], repeat: int,
            on_error: Callable[[str, BaseException], None] | None = None) -> dict[str, int]:
    """Best wall time (ns) of each contender over ``repeat`` rounds, taking turns in each round.

    A contender that raises (a store failing mid-run) is reported through ``on_error`` and left
    out of the following rounds and of the result."""
    best: dict[str, int] = {}
    names = list(contenders)
    failed: set[str] = set()
    for r in range(repeat):
        for name in rotated(names, r):
            if name in failed:
                continue
            fn = contenders[name]
            try:
                with NoGC():
                    t0 = perf_ns()
                    fn()
                    dt = perf_ns() - t0
            except Exception as exc:  # handed to on_error
                if on_error is None:
                    raise
                failed.add(name)
                on_error(name, exc)
                continue
            best[name] = min(best.get(name, dt), dt)
    return {k: v for k, v in best.items() if k not in failed}


def rate(ns: int, n: int) -> dict[str, float]:
    return {"decisions": n, "best_total_ns": ns, "ns_per_decision": ns / n, "decisions_per_s": n * 1e9 / ns}


def quantile(values: list[float], q: float) -> float:
    """Nearest-rank quantile (q=0.5: median, q=0.9: p90)."""
    s = sorted(values)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def latency(samples: list[float]) -> dict[str, float]:
    return {"samples": len(samples), "median_ns": quantile(samples, 0.5), "p90_ns": quantile(samples, 0.9),
            "mean_ns": statistics.fmean(samples)}


def lru_hit_rate(keys: list[str], size: int) -> float:
    """Hit rate of an LRU of ``size`` over ``keys`` in a second pass, the first pass warming it
    (as the benchmark does; later passes repeat the same state)."""
    lru: OrderedDict[str, None] = OrderedDict()
    hits = 0
    for timed in (False, True):
        for k in keys:
            if k in lru:
                lru.move_to_end(k)
                hits += timed
            else:
                lru[k] = None
                if len(lru) > size:
                    lru.popitem(last=False)
    return hits / len(keys)


# --------------------------------------------------------------------------- loops (one call per decision)


def client_loop(client: RobotsClient, urls: list[str]) -> Callable[[], None]:
    def run(allowed: Callable[[str, str], bool] = client.allowed, agent: str = AGENT) -> None:
        for u in urls:
            allowed(u, agent)
    return run


def dict_loop(objs: dict[str, Any], pairs: list[tuple[str, str]], method: str) -> Callable[[], None]:
    """A crawler's own dict host -> parsed object: ``obj.allowed(url, agent)`` or ``obj.can_fetch(url, agent)``."""
    if method == "allowed":
        def run_rr(agent: str = AGENT) -> None:
            for k, u in pairs:
                objs[k].allowed(u, agent)
        return run_rr

    def run_pg(agent: str = AGENT) -> None:
        for k, u in pairs:
            objs[k].can_fetch(u, agent)
    return run_pg


def urllib_loop(objs: dict[str, Any], pairs: list[tuple[str, str]]) -> Callable[[], None]:
    def run(agent: str = AGENT) -> None:
        for k, u in pairs:
            objs[k].can_fetch(agent, u)
    return run


def parse_check_loop(bodies: dict[str, bytes], pairs: list[tuple[str, str]]) -> Callable[[], None]:
    def run(agent: str = AGENT, parse: Callable[..., Any] = parse) -> None:
        for k, u in pairs:
            parse(bodies[k]).allowed(u, agent)
    return run


# --------------------------------------------------------------------------- phases


@dataclass
class Ctx:
    w: Workload
    stores: list[StoreRun]
    http: httpx.Client
    transport: LoopbackTransport  # the floors' own (the GET alone)
    warnings: WarningCounter
    repeat: int
    log: Log
    results: dict[str, dict[str, Any]]
    problems: list[str]

    def live(self) -> list[StoreRun]:
        return [s for s in self.stores if s.store is not None and not s.error]

    def fail(self, run: StoreRun, phase: str, exc: BaseException) -> None:
        run.error = f"error in {phase}: {type(exc).__name__}: {exc}"
        self.problems.append(f"{run.name}: {run.error}")
        self.log(f"{run.name}: {run.error}")

    def on_error(self, name: str, exc: BaseException) -> None:
        """A timed contender ("store" or "store/figure") raised: mark its store failed (peers are
        not expected to raise)."""
        run = next((s for s in self.stores if s.name == name.partition("/")[0]), None)
        if run is None:
            raise exc
        self.fail(run, "timing", exc)

    def fetches(self) -> dict[str, int]:
        """HTTP requests so far by each store's clients."""
        return {r.name: r.transport.requests for r in self.stores if r.transport is not None}

    def guard(self, label: str, before: dict[str, int], warnings_before: int) -> set[str]:
        """The stores whose clients fetched during a cached figure (so it is not one): reported."""
        bad, msgs = set(), []
        for name, n in self.fetches().items():
            fetched = n - before.get(name, 0)
            if fetched:
                bad.add(name)
                msgs.append(f"{name}: {label}: {fetched:,} HTTP requests during a cached figure "
                            "(the store missed or was bypassed); the figure is marked invalid")
        warned = self.warnings.count - warnings_before
        if warned:
            msgs.append(f"{label}: {warned:,} client warnings (last: {self.warnings.last})")
        for msg in msgs:
            self.problems.append(msg)
            self.log(msg)
        return bad

    def mark(self, bad: set[str], *figures: str) -> None:
        for name in bad:
            for fig in figures:
                if fig in self.results[name]:
                    self.results[name][fig]["invalid"] = "fetched during a cached figure"


def phase_warm(ctx: Ctx) -> dict[str, Any]:
    """Warm clients (every host in the LRU) and the peers, on the full list, taking turns."""
    w, log = ctx.w, ctx.log
    pairs = [(w.origins[h], u) for h, u in zip(w.pick_host, w.picks, strict=True)]
    bodies = {o: w.body(h) for h, o in enumerate(w.origins)}
    texts = {o: b.decode("utf-8", errors="replace") for o, b in bodies.items()}
    contenders: dict[str, Callable[[], None]] = {}
    decisions: dict[str, list[bool]] = {}
    req0, warn0 = ctx.fetches(), ctx.warnings.count
    for run in ctx.live():
        try:
            log(f"warm: {run.name}: warm-up pass ({len(w.picks):,} decisions)")
            client = RobotsClient(run.store, http_client=run.http, cache_size=max(10_000, len(w.origins)))
            decisions[run.name] = [client.allowed(u, AGENT) for u in w.picks]
            contenders[run.name] = client_loop(client, w.picks)
        except Exception as exc:  # a broken store is reported, the others go on
            ctx.fail(run, "warm-up", exc)
    log("warm: parsing for the peers")
    rr = {o: parse(b) for o, b in bodies.items()}
    decisions["robotrules_dict"] = [rr[k].allowed(u, AGENT) for k, u in pairs]
    contenders["robotrules_dict"] = dict_loop(rr, pairs, "allowed")
    peers = {"robotrules_dict": f"robotrules {robotrules.__version__}"}
    try:
        from protego import Protego
    except ImportError:
        ctx.problems.append("protego: not installed; skipped")
    else:
        pg = {o: Protego.parse(t) for o, t in texts.items()}
        decisions["protego"] = [bool(pg[k].can_fetch(u, AGENT)) for k, u in pairs]
        contenders["protego"] = dict_loop(pg, pairs, "can_fetch")
        peers["protego"] = f"protego {corpus_bench._ver('protego')}"
    from urllib.robotparser import RobotFileParser

    def ul_parse(text: str) -> RobotFileParser:
        rp = RobotFileParser()
        rp.parse(text.splitlines())
        return rp

    ul = {o: ul_parse(t) for o, t in texts.items()}
    decisions["urllib"] = [bool(ul[k].can_fetch(AGENT, u)) for k, u in pairs]
    contenders["urllib"] = urllib_loop(ul, pairs)
    peers["urllib"] = f"urllib.robotparser (stdlib {platform.python_version()})"
    bad = ctx.guard("warm-up", req0, warn0)

    gc.collect()
    gc.freeze()  # ~40k long-lived parsed objects: out of every collection from here on
    try:
        log(f"warm: timing {len(contenders)} contenders, best of {ctx.repeat}")
        req0, warn0 = ctx.fetches(), ctx.warnings.count
        best = best_of(contenders, ctx.repeat, ctx.on_error)
        bad |= ctx.guard("warm", req0, warn0)
    finally:
        gc.unfreeze()
    n = len(w.picks)
    ref = decisions["robotrules_dict"]
    agreement: dict[str, int] = {}
    for name, ds in decisions.items():
        if name == "robotrules_dict":
            continue
        diff = sum(1 for a, b in zip(ds, ref, strict=True) if a != b)
        agreement[name] = diff
        if diff and name in STORES:
            ctx.problems.append(f"{name}: warm RobotsClient differs from parse() on {diff:,} of {n:,} decisions")
    for run in ctx.live():
        if run.name in best:
            ctx.results[run.name]["warm"] = rate(best[run.name], n)
    ctx.mark(bad, "warm")
    peer_out = {k: {**rate(best[k], n), "version": v} for k, v in peers.items()}
    allowed = {k: sum(ds) for k, ds in decisions.items()}
    return {"peers": peer_out, "differ_from_parse": agreement, "allowed_counts": allowed}


def phase_cold(ctx: Ctx, cold_checks: int, small_cache: int) -> dict[str, Any]:
    """cache_size=0 (every decision reads the store and parses) and cache_size=``small_cache``
    (an LRU smaller than the working set), on the first ``cold_checks`` URLs of the list."""
    w, log = ctx.w, ctx.log
    urls = w.picks[:cold_checks]
    hosts = w.pick_host[:cold_checks]
    pairs = [(w.origins[h], u) for h, u in zip(hosts, urls, strict=True)]
    bodies = {o: w.body(h) for h, o in enumerate(w.origins)}
    ref = [parse(bodies[k]).allowed(u, AGENT) for k, u in pairs]
    n = len(urls)
    out: dict[str, Any] = {"decisions": n, "distinct_hosts": len(set(hosts))}
    hit = lru_hit_rate([w.robots_urls[h] for h in hosts], small_cache)
    out["lru_hit_rate"] = hit

    sizes = {"no_cache": 0, "small_cache": small_cache}
    contenders: dict[str, Callable[[], None]] = {}
    req0, warn0 = ctx.fetches(), ctx.warnings.count
    for run in ctx.live():
        for key, size in sizes.items():
            try:
                client = RobotsClient(run.store, http_client=run.http, cache_size=size)
                ds = [client.allowed(u, AGENT) for u in urls]  # warm-up pass, and the decisions
                diff = sum(1 for a, b in zip(ds, ref, strict=True) if a != b)
                if diff:
                    ctx.problems.append(f"{run.name}: RobotsClient(cache_size={size}) differs from parse() on {diff:,} of {n:,}")
                contenders[f"{run.name}/{key}"] = client_loop(client, urls)
            except Exception as exc:  # as above
                ctx.fail(run, f"cache_size={size}", exc)
    contenders["parse_check"] = parse_check_loop(bodies, pairs)
    bad = ctx.guard("cache_size=0 and small cache, warm-up", req0, warn0)
    log(f"cache_size=0 and {small_cache}: timing {len(contenders)} contenders on {n:,} decisions, best of {ctx.repeat}")
    req0, warn0 = ctx.fetches(), ctx.warnings.count
    best = best_of(contenders, ctx.repeat, ctx.on_error)
    bad |= ctx.guard("cache_size=0 and small cache", req0, warn0)
    for run in ctx.live():
        for key, size in sizes.items():
            t = best.get(f"{run.name}/{key}")
            if t is not None:
                ctx.results[run.name][key] = {**rate(t, n), "cache_size": size, **({"lru_hit_rate": hit} if size else {})}
    ctx.mark(bad, *sizes)
    out["parse_check"] = rate(best["parse_check"], n)
    return out


def phase_miss(ctx: Ctx, miss_hosts: int, seed: int) -> dict[str, Any]:
    """First decision for hosts the client has never seen: fetched, or found in the store."""
    w, log = ctx.w, ctx.log
    n_hosts = len(w.origins)
    chosen = sorted({min(n_hosts - 1, round(i * n_hosts / miss_hosts)) for i in range(miss_hosts)})
    random.Random(seed + 1).shuffle(chosen)
    expected = {h: parse(w.body(h)).allowed(w.first_url(h), AGENT) for h in chosen}
    fetched: dict[str, dict[int, float]] = {s.name: {} for s in ctx.live()}
    stored: dict[str, dict[int, float]] = {s.name: {} for s in ctx.live()}
    get_only: dict[int, float] = {}
    parse_only: dict[int, float] = {}
    http = ctx.http
    for hc in [http] + [r.http for r in ctx.live() if r.http is not None]:
        hc.get(w.robots_urls[0]).read()  # each keep-alive connection is open before any timing

    bad_store: set[str] = set()
    bad_fetch: set[str] = set()  # not one request per miss, warnings, or wrong decisions

    def keep(best: dict[int, float], h: int, dt: float) -> None:
        best[h] = min(best.get(h, dt), dt)

    def first_checks(run: Any, best: dict[int, float]) -> int:
        """A new client's first check of each chosen host, timed into ``best``; the wrong decisions."""
        client = RobotsClient(run.store, http_client=run.http, cache_size=max(10_000, n_hosts))
        wrong = 0
        with NoGC():
            for h in chosen:
                url = w.first_url(h)
                t0 = perf_ns()
                ok = client.allowed(url, AGENT)
                keep(best, h, perf_ns() - t0)
                wrong += ok != expected[h]
        return wrong

    for r in range(ctx.repeat):
        log(f"miss: round {r + 1} of {ctx.repeat} ({len(chosen)} hosts per store)")
        for run in rotated(ctx.live(), r):
            store = run.store
            assert store is not None
            try:
                for h in chosen:
                    store.delete(w.robots_urls[h])
                req0, warn0 = ctx.fetches(), ctx.warnings.count
                wrong = first_checks(run, fetched[run.name])
                got = ctx.fetches()[run.name] - req0[run.name]
                if got != len(chosen) or ctx.warnings.count != warn0 or wrong:
                    bad_fetch.add(run.name)
                    ctx.problems.append(f"{run.name}: fetch misses: {got} requests for {len(chosen)} hosts, "
                                        f"{ctx.warnings.count - warn0} warnings, {wrong} wrong decisions")
                req0, warn0 = ctx.fetches(), ctx.warnings.count
                wrong = first_checks(run, stored[run.name])
                if wrong:
                    ctx.problems.append(f"{run.name}: store misses: {wrong} wrong decisions")
                bad_store |= ctx.guard("miss with the entry in the store", req0, warn0)
            except Exception as exc:  # as above
                ctx.fail(run, "miss", exc)
        with NoGC():  # the floors: the GET alone through the same client, and the parse alone
            for h in chosen:
                t0 = perf_ns()
                resp = http.get(w.robots_urls[h])
                body = resp.content
                keep(get_only, h, perf_ns() - t0)
                if resp.status_code != 200 or body != w.body(h):
                    ctx.problems.append(f"server: {w.robots_urls[h]} answered {resp.status_code}, {len(body)} bytes")
                t0 = perf_ns()
                parse(body)
                keep(parse_only, h, perf_ns() - t0)
    for run in ctx.live():
        if len(fetched[run.name]) == len(chosen):
            ctx.results[run.name]["miss_fetch"] = latency(list(fetched[run.name].values()))
        if len(stored[run.name]) == len(chosen):
            ctx.results[run.name]["miss_store"] = latency(list(stored[run.name].values()))
    ctx.mark(bad_store, "miss_store")
    for name in bad_fetch:
        if "miss_fetch" in ctx.results[name]:
            ctx.results[name]["miss_fetch"]["invalid"] = "not one fetch per miss, or warnings"
    return {"hosts": len(chosen), "http_get": latency(list(get_only.values())),
            "parse": latency(list(parse_only.values())),
            "body_bytes_median": statistics.median(len(w.body(h)) for h in chosen)}


# --------------------------------------------------------------------------- report


def fmt_ns(ns: float | None) -> str:
    return "n/a" if ns is None else corpus_bench.fmt_ns(ns)


def fmt_rate(per_s: float | None) -> str:
    if per_s is None:
        return "n/a"
    if per_s >= 1e6:
        return f"{per_s / 1e6:.2f} M/s"
    if per_s >= 1e3:
        return f"{per_s / 1e3:,.1f} k/s"
    return f"{per_s:,.0f} /s"


def _get(d: dict[str, Any], *path: str) -> Any:
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d


def compute_ratios(report: dict[str, Any]) -> dict[str, Any]:
    """Warm client vs every peer (decisions/s ratio), and the client's overhead per decision."""
    peers = report["peers"]
    out: dict[str, Any] = {}
    for name, res in report["stores"].items():
        warm = res.get("warm")
        if not warm or "invalid" in warm:
            continue
        r: dict[str, Any] = {}
        for peer, p in peers.items():
            r[peer] = warm["decisions_per_s"] / p["decisions_per_s"]
        base = peers.get("robotrules_dict")
        if base:
            r["overhead_ns_per_decision"] = warm["ns_per_decision"] - base["ns_per_decision"]
            r["overhead_factor"] = warm["ns_per_decision"] / base["ns_per_decision"]
        floor = _get(report, "cold", "parse_check")
        nc = res.get("no_cache")
        if floor and nc:
            r["no_cache_vs_parse_check"] = nc["ns_per_decision"] / floor["ns_per_decision"]
        out[name] = r
    return out


def _times(x: float) -> str:
    return f"{x:.2f}x" if x < 10 else f"{x:.1f}x"


def speed(ratio: float) -> str:
    """A decisions/s ratio as "N x faster" / "N x slower"."""
    return f"{_times(ratio)} faster" if ratio >= 1 else f"{_times(1 / ratio)} slower"


def render(report: dict[str, Any]) -> str:
    m, p = report["machine"], report["params"]
    stores = report["stores"]
    cols = list(p["stores"])
    out = ["### robotrules fetch-and-cache client benchmark", ""]
    out.append(f"- Python: {m['python']} ({m['python_build']}); {m['platform']}")
    out.append(f"- Machine: {m['cpu'] or m['machine']}, nproc = {m['nproc']}")
    out.append(f"- robotrules {report['versions']['robotrules']}; httpx {report['versions']['httpx']}; "
               + "; ".join(f"{k} {v}" for k, v in report["versions"].items() if k not in ("robotrules", "httpx")))
    s = report["setup"]
    out.append(f"- {s['hosts']:,} hosts over {s['files']:,} corpus files ({s['files_with_links']:,} with links); "
               f"{s['checks']:,} shuffled URL picks ({s['checks'] // s['hosts']:,} per host), agent \"{AGENT}\"; "
               f"best of {p['repeat']} rounds, gc off while timing")
    out.append("")

    def row(label: str, fn: Callable[[dict[str, Any]], str], figure: str = "") -> str:
        cells = []
        for c in cols:
            r = stores.get(c, {})
            if r.get("status", "ok") != "ok":
                cells.append(r["status"])
            elif figure and _get(r, figure, "invalid"):
                cells.append(f"invalid ({r[figure]['invalid']})")
            else:
                cells.append(fn(r))
        return f"| {label} | " + " | ".join(cells) + " |"

    cold = report.get("cold", {})
    hit = cold.get("lru_hit_rate")
    nc_n, warm_n = cold.get("decisions"), s["checks"]
    out.append("| Figure | " + " | ".join(cols) + " |")
    out.append("|---|" + "---:|" * len(cols))
    out.append(row(f"Warm, every host in the LRU (cache_size=10,000), {warm_n:,} decisions: decisions/s",
                   lambda r: fmt_rate(_get(r, "warm", "decisions_per_s")), "warm"))
    out.append(row("  per decision", lambda r: fmt_ns(_get(r, "warm", "ns_per_decision")), "warm"))
    out.append(row(f"No in-process cache (cache_size=0), {nc_n or 0:,} decisions: decisions/s",
                   lambda r: fmt_rate(_get(r, "no_cache", "decisions_per_s")), "no_cache"))
    out.append(row("  per decision (store read + decode + parse + check)",
                   lambda r: fmt_ns(_get(r, "no_cache", "ns_per_decision")), "no_cache"))
    out.append(row(f"Small LRU (cache_size={p['small_cache']:,}, hit rate {100 * (hit or 0):.1f}%): decisions/s",
                   lambda r: fmt_rate(_get(r, "small_cache", "decisions_per_s")), "small_cache"))
    out.append(row("  per decision", lambda r: fmt_ns(_get(r, "small_cache", "ns_per_decision")), "small_cache"))
    miss = report.get("miss", {})
    mh = miss.get("hosts", 0)
    out.append(row(f"Miss, fetched over loopback HTTP ({mh:,} hosts): median",
                   lambda r: fmt_ns(_get(r, "miss_fetch", "median_ns")), "miss_fetch"))
    out.append(row("  p90", lambda r: fmt_ns(_get(r, "miss_fetch", "p90_ns")), "miss_fetch"))
    out.append(row("Miss, fresh entry already in the store: median", lambda r: fmt_ns(_get(r, "miss_store", "median_ns")), "miss_store"))
    out.append(row("  p90", lambda r: fmt_ns(_get(r, "miss_store", "p90_ns")), "miss_store"))
    out.append(row(f"store.put, mean over {s['hosts']:,} (filling)", lambda r: fmt_ns(_get(r, "store", "put_mean_ns"))))
    out.append(row(f"store.get, mean over {s['hosts']:,} (checking)", lambda r: fmt_ns(_get(r, "store", "get_mean_ns"))))
    out.append("")

    peers = report["peers"]
    ratios = report["ratios"]
    rcols = [c for c in cols if c in ratios]
    labels = {"robotrules_dict": "robotrules parse(), dict host -> RobotsTxt (no client)",
              "protego": "protego, dict host -> Protego", "urllib": "urllib.robotparser, dict host -> RobotFileParser"}
    out.append(f"Peers on the same {warm_n:,} URLs (dict of parsed objects, no store, no freshness; "
               "taking turns with the warm clients):")
    out.append("")
    out.append("| Library | decisions/s | per decision | " + " | ".join(f"RobotsClient warm ({c}) vs it" for c in rcols) + " |")
    out.append("|---|---:|---:|" + "---:|" * len(rcols))
    for k, v in peers.items():
        cells = [speed(ratios[c][k]) for c in rcols]
        out.append(f"| {labels.get(k, k)} ({v['version']}) | {fmt_rate(v['decisions_per_s'])} | "
                   f"{fmt_ns(v['ns_per_decision'])} | " + " | ".join(cells) + " |")
    pc = cold.get("parse_check")
    if pc:
        out.append(f"| robotrules parse() + check on every decision (no store; the floor of cache_size=0), "
                   f"{pc['decisions']:,} decisions | {fmt_rate(pc['decisions_per_s'])} | {fmt_ns(pc['ns_per_decision'])} | "
                   + " | ".join("n/a" for _ in rcols) + " |")
    out.append("")
    if miss:
        g, pa = miss["http_get"], miss["parse"]
        out.append(f"Miss floors, same {mh:,} hosts (median body {miss['body_bytes_median']:,.0f} bytes): "
                   f"HTTP GET alone (an identical httpx.Client, no RobotsClient) median {fmt_ns(g['median_ns'])}, p90 {fmt_ns(g['p90_ns'])}; "
                   f"parse() alone median {fmt_ns(pa['median_ns'])}, p90 {fmt_ns(pa['p90_ns'])}.")
        out.append("")
    out.append("Ratios and overhead:")
    out.append("")
    for c in rcols:
        r = ratios[c]
        line = f"- {c}: warm RobotsClient is " + "; ".join(f"{speed(r[k])} than {k}" for k in peers)
        if "overhead_ns_per_decision" in r:
            line += (f"; client overhead over a bare dict of RobotsTxt: {fmt_ns(r['overhead_ns_per_decision'])} "
                     f"per decision ({_times(r['overhead_factor'])} the bare time)")
        if "no_cache_vs_parse_check" in r:
            line += f"; cache_size=0 costs {_times(r['no_cache_vs_parse_check'])} a bare parse + check"
        out.append(line)
    out.append("")
    if report["problems"]:
        out.append("Problems seen during the run:")
        out.append("")
        out += [f"- {x}" for x in report["problems"]]
        out.append("")
    out.append("Notes:")
    out.append("")
    out += [f"- {n}" for n in report["notes"]]
    return "\n".join(out).rstrip() + "\n"


# --------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", type=Path, default=None, help="corpus directory (default as corpus_bench.py)")
    p.add_argument("--hosts", type=int, default=10_000, help="synthetic hosts (default 10,000)")
    p.add_argument("--checks", type=int, default=200_000, help="URL picks for the warm figures (default 200,000)")
    p.add_argument("--cold-checks", type=int, default=10_000,
                   help="picks for cache_size=0 and cache_size=1,000 (each decision parses; default 10,000)")
    p.add_argument("--small-cache", type=int, default=1_000,
                   help="cache_size of the small-LRU figure (default 1,000)")
    p.add_argument("--miss-hosts", type=int, default=500, help="hosts timed for the miss figures (default 500)")
    p.add_argument("--repeat", type=int, default=3, help="best of K rounds (default 3)")
    p.add_argument("--stores", default=",".join(STORES), help="comma-separated: memory,sqlite,redis")
    p.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    p.add_argument("--seed", type=int, default=20_241)
    p.add_argument("--quick", action="store_true",
                   help="tiny run for a smoke test: " + ", ".join(f"{k}={v}" for k, v in QUICK.items()))
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="directory for client-<build>.md/.json (default bench/results)")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = p.parse_args(argv)
    if args.quick:
        for k, v in QUICK.items():
            setattr(args, k, v)
    args.stores = [s.strip() for s in args.stores.split(",") if s.strip()]
    bad = [s for s in args.stores if s not in STORES]
    if bad:
        p.error(f"unknown store(s) {bad}; choose from {','.join(STORES)}")
    if args.hosts < 1 or args.checks < args.hosts:
        p.error("need 1 <= --hosts <= --checks (every host is picked at least once)")
    args.cold_checks = max(1, min(args.cold_checks, args.checks))
    args.miss_hosts = max(1, min(args.miss_hosts, args.hosts))
    args.repeat = max(1, args.repeat)
    return args


def _versions() -> dict[str, str]:
    core = "mypyc-compiled" if robotrules.core.COMPILED else "pure Python"
    v = {"robotrules": f"{robotrules.__version__} (core: {core})", "httpx": httpx.__version__,
         "redis-py": corpus_bench._ver("redis"), "sqlite": sqlite3.sqlite_version}
    return v


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    log: Log = (lambda s: None) if args.quiet else (lambda s: print(s, file=sys.stderr, flush=True))
    t_start = time.monotonic()
    corpus_path = args.corpus or corpus_bench.default_corpus()
    c = corpus_bench.load_corpus(corpus_path)
    if not c.names:
        print(f"no robotfiles in {corpus_path}", file=sys.stderr)
        return 2
    w = build_workload(c, args.hosts, args.checks, args.seed)
    log(f"{args.hosts:,} hosts over {len(c.names):,} files; {len(w.picks):,} picks")
    build = "compiled" if robotrules.core.COMPILED else "pure"
    results: dict[str, dict[str, Any]] = {s: {} for s in args.stores}
    problems: list[str] = []
    warnings = WarningCounter()
    rlog = logging.getLogger("robotrules")
    rlog.addHandler(warnings)
    tmpdir = Path(tempfile.mkdtemp(prefix="robotrules-client-bench-"))
    runs: list[StoreRun] = []
    report: dict[str, Any] = {}
    try:
        bodies = {urlsplit(o).hostname or "": w.body(h) for h, o in enumerate(w.origins)}
        with RobotsServer(bodies) as server:
            transport = LoopbackTransport(server.port)
            with httpx.Client(transport=transport) as http:
                for name in args.stores:
                    run = open_store(name, tmpdir, args.redis_url, args.hosts)
                    runs.append(run)
                    if run.error:
                        log(f"{name}: {run.error}")
                        continue
                    log(f"{name}: filling with {args.hosts:,} entries")
                    try:
                        populate(run, w)
                    except Exception as exc:  # as above
                        run.error = f"error filling: {type(exc).__name__}: {exc}"
                        problems.append(f"{name}: {run.error}")
                        log(f"{name}: {run.error}")
                for run in runs:
                    run.transport = LoopbackTransport(server.port)
                    run.http = httpx.Client(transport=run.transport)
                ctx = Ctx(w, runs, http, transport, warnings, args.repeat, log, results, problems)
                try:
                    warm = phase_warm(ctx)
                    cold = phase_cold(ctx, args.cold_checks, args.small_cache)
                    miss = phase_miss(ctx, args.miss_hosts, args.seed)
                finally:
                    for run in runs:
                        if run.http is not None:
                            run.http.close()
                requests = transport.requests + sum(ctx.fetches().values())
        versions = _versions()
        for run in runs:
            if "redis_version" in run.info:
                versions["redis server"] = run.info["redis_version"]
        stores_out: dict[str, Any] = {}
        for run in runs:
            status = "ok" if not run.error else run.error
            stores_out[run.name] = {"status": status, **results[run.name],
                                    "store": {k: v for k, v in run.info.items() if k != "prefix"}}
        report = {
            "build": build,
            "machine": corpus_bench.machine_info(),
            "versions": versions,
            "params": {"hosts": args.hosts, "checks": args.checks, "cold_checks": args.cold_checks,
                       "small_cache": args.small_cache, "miss_hosts": args.miss_hosts, "repeat": args.repeat, "stores": args.stores,
                       "seed": args.seed, "quick": args.quick, "agent": AGENT},
            "setup": {"hosts": args.hosts, "files": len(c.names), "files_with_links": w.files_with_links,
                      "checks": len(w.picks), "corpus": str(c.path)},
            "stores": stores_out,
            "peers": warm["peers"],
            "decisions": {"differ_from_parse": warm["differ_from_parse"], "allowed_counts": warm["allowed_counts"]},
            "cold": cold,
            "miss": miss,
            "http_requests_total": requests,
            "problems": problems,
            "wall_s": round(time.monotonic() - t_start, 1),
        }
        report["ratios"] = compute_ratios(report)
        report["notes"] = [
            ("Warm: one untimed pass loads every host into the client's LRU; the timed passes never touch the store "
             "(so the stores should agree, within noise)."),
            (f"cache_size=0 and cache_size={args.small_cache:,}: the first {args.cold_checks:,} picks "
             f"({cold['distinct_hosts']:,} distinct hosts); every LRU miss reads the store, decodes the entry and "
             "parses the file. Both sizes, every store and the parse + check floor take turns in the same rounds. "
             "The LRU hit rate is simulated over the same sequence."),
            ("Peers get the dict key with each URL for free (the client derives its key from the URL) and str input "
             "decoded outside the timing (robotrules gets bytes). Their disagreements with robotrules are counted in "
             "the JSON (decisions.differ_from_parse), for information."),
            ("Misses: each host's entry deleted from the store first; a new client per round; median and p90 over the "
             "hosts of each host's best round. The server is a ThreadingHTTPServer (HTTP/1.1 keep-alive) in a forked "
             "child on 127.0.0.1; the GET floor is the same request without the client."),
            f"Whole run: {report['wall_s']} s.",
        ]
    finally:
        rlog.removeHandler(warnings)
        for run in runs:
            try:
                if run.cleanup is not None:
                    run.cleanup()
                if run.store is not None:
                    run.store.close()
            except Exception as exc:  # cleanup problems are reported, never hidden
                problems.append(f"{run.name}: cleanup failed: {type(exc).__name__}: {exc}")
        shutil.rmtree(tmpdir, ignore_errors=True)

    md = render(report)
    print(md)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"client-{build}.md").write_text(md)
    (args.out / f"client-{build}.json").write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
