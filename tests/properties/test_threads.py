"""A parsed robots.txt is shared safely across threads.

DESIGN 8 (immutable results, reading never writes a memo, one parsed file shared across
threads, tasks and caches) and C3 (a cached file is shared by different crawlers).
"""

from __future__ import annotations

import random
import sys
import threading

import pytest

import robotrules

from ._strategies import MODES, QUERY_AGENTS

N_THREADS = 8


def _random_body(rng: random.Random) -> bytes:
    lines = []
    for g in range(40):
        for _ in range(rng.randint(1, 2)):
            lines.append(f"User-agent: {rng.choice(['*', 'foo', 'bar', 'baz', 'Bar-Bot', 'foo_bar', 'q' + str(g)])}")
        for _ in range(rng.randint(1, 8)):
            pat = "/" + "".join(rng.choice("ab/*.?=") for _ in range(rng.randint(0, 8)))
            if rng.random() < 0.2:
                pat += "$"
            lines.append(f"{rng.choice(['Allow', 'Disallow'])}: {pat}")
        if rng.random() < 0.2:
            lines.append(f"Crawl-delay: {rng.randint(0, 9)}")
        lines.append("")
    lines.append("Sitemap: http://example.com/sitemap.xml")
    return "\n".join(lines).encode()


def _queries(rng: random.Random) -> list[tuple[str, object]]:
    out: list[tuple[str, object]] = []
    for _ in range(400):
        path = "/" + "".join(rng.choice("ab/.?=$") for _ in range(rng.randint(0, 14)))
        url = rng.choice(["", "http://example.com"]) + path
        agent: object = rng.choice(QUERY_AGENTS)
        if rng.random() < 0.2:
            agent = [rng.choice(QUERY_AGENTS) for _ in range(rng.randint(1, 3))]
        out.append((url, agent))
    return out


@pytest.mark.parametrize("mode", MODES)
def test_one_parsed_file_checked_from_8_threads_answers_like_sequential(mode):
    """DESIGN 8: parse once, check from 8 threads concurrently (tiny switch interval, each
    thread in its own order): every Decision equals the sequential one."""
    rng = random.Random(f"threads-{mode}")
    rt = robotrules.parse(_random_body(rng), mode=mode)
    queries = _queries(rng)
    expected = [rt.check(u, a) for u, a in queries]
    expected_delay = [rt.crawl_delay(a) for _, a in queries]

    barrier = threading.Barrier(N_THREADS)
    results: list[list | None] = [None] * N_THREADS
    errors: list[BaseException] = []

    def worker(k: int) -> None:
        try:
            order = list(range(len(queries)))
            random.Random(k).shuffle(order)
            got: list = [None] * len(queries)
            barrier.wait()
            for _ in range(2):
                for i in order:
                    u, a = queries[i]
                    d = rt.check(u, a)
                    if got[i] is not None and got[i] != d:
                        raise AssertionError(f"query {i} changed between passes")
                    got[i] = d
                    if rt.crawl_delay(a) != expected_delay[i]:
                        raise AssertionError(f"crawl_delay for query {i} differs")
            results[k] = got
        except BaseException as e:
            errors.append(e)

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=worker, args=(k,)) for k in range(N_THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(old)

    assert errors == []
    for k in range(N_THREADS):
        mismatches = [i for i, (e, g) in enumerate(zip(expected, results[k], strict=True)) if e != g]
        assert mismatches == [], f"thread {k}: queries {mismatches[:5]} differ from sequential"
    # and the shared object still answers as before
    assert [rt.check(u, a) for u, a in queries] == expected
