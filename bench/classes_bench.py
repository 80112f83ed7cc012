#!/usr/bin/env python3
"""Parse and check speed by class of file: robotrules against protego, per number of groups and per size.

    python bench/classes_bench.py [--corpus PATH] [--limit N] [--repeat K] [--json OUT] [--quiet]

The whole-corpus figures of ``corpus_bench.py`` are dominated by the many small files; a class of
file can still be slower than protego (issue #21: files with hundreds of groups parsed at a third
to a half of protego's speed). This script splits the corpus into classes by how many
``user-agent`` lines a file has (0-1, 2-9, 10-99, 100 and more) and by size (up to 4 KB, up to
64 KB, more), and reports, for each class, the time to parse its files and to parse them and
check their sites' links, robotrules against protego in the same rounds (the libraries take turns,
best of K; the same harness as ``corpus_bench.py``, whose functions it uses). Ratios are
"robotrules is N x faster than protego"; a class under 1.0x is slower.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections.abc import Callable
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_corpus_bench", Path(__file__).with_name("corpus_bench.py"))
assert _spec is not None and _spec.loader is not None
cb = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = cb  # dataclasses look their module up there
_spec.loader.exec_module(cb)

PEERS = ("robotrules", "protego")


def user_agent_lines(body: bytes) -> int:
    """How many lines of ``body`` start with ``user-agent`` (any case, after blanks)."""
    return sum(1 for line in body.splitlines() if line.lstrip().lower().startswith(b"user-agent"))


def classes(c: cb.Corpus) -> dict[str, Callable[[int], bool]]:
    """Name -> which files (by index) are in the class."""
    agents = [user_agent_lines(b) for b in c.raw]
    sizes = [len(b) for b in c.raw]
    return {
        "0-1 user-agent lines": lambda i: agents[i] <= 1,
        "2-9 user-agent lines": lambda i: 2 <= agents[i] <= 9,
        "10-99 user-agent lines": lambda i: 10 <= agents[i] <= 99,
        "100+ user-agent lines": lambda i: agents[i] >= 100,
        "up to 4 KB": lambda i: sizes[i] <= 4096,
        "4-64 KB": lambda i: 4096 < sizes[i] <= 65536,
        "over 64 KB": lambda i: sizes[i] > 65536,
    }


def time_e2e_of(adapters: list, inputs: dict, c: cb.Corpus, repeat: int, keep: Callable[[int], bool]) -> dict:
    """Parse + check every link of the class's sites, best of ``repeat`` rounds, libraries taking turns."""
    jobs = {a.key: [(inputs[a.key][si], links) for si, links in zip(c.site_index, c.links, strict=True) if keep(si)]
            for a in adapters}
    best: dict[str, int] = {}
    for r in range(repeat):
        for a in cb._rounds(adapters, r):
            with cb._NoGC():
                t0 = cb.perf_ns()
                a.e2e(jobs[a.key])
                dt = cb.perf_ns() - t0
            best[a.key] = min(best.get(a.key, dt), dt)
    return {a.key: {"total_ns": best[a.key], "sites": len(jobs[a.key])} for a in adapters}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", type=Path, default=None, help="corpus directory (default as corpus_bench.py)")
    p.add_argument("--limit", type=int, default=None, help="only the first N robotfiles (sorted by name)")
    p.add_argument("--repeat", type=int, default=5, help="best of K runs (default 5)")
    p.add_argument("--json", type=Path, default=None, help="write the results as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = p.parse_args(argv)
    log = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    c = cb.load_corpus(args.corpus or cb.default_corpus(), args.limit)
    if not c.names:
        print(f"no robotfiles in {args.corpus or cb.default_corpus()}", file=sys.stderr)
        return 2
    adapters, missing = cb.make_adapters()
    adapters = [a for a in adapters if a.key in PEERS]
    if len(adapters) < len(PEERS):
        print(f"needs robotrules and protego (pip install -e '.[bench]'): {missing}", file=sys.stderr)
        return 2
    inputs = {a.key: cb.inputs_for(a, c) for a in adapters}
    rows = []
    for name, keep in classes(c).items():
        files = sum(1 for i in range(len(c.names)) if keep(i))
        if not files:
            continue
        log(f"{name}: {files} files")
        parse = cb.time_parse(adapters, inputs, max(1, args.repeat), keep=keep)
        e2e = time_e2e_of(adapters, inputs, c, max(1, args.repeat), keep)
        ours, theirs = parse["robotrules"]["total_ns"], parse["protego"]["total_ns"]
        row = {"class": name, "files": files, "parse_ns": {k: v["total_ns"] for k, v in parse.items()},
               "parse_ratio": theirs / ours, "sites": e2e["robotrules"]["sites"]}
        if row["sites"]:
            row["e2e_ns"] = {k: v["total_ns"] for k, v in e2e.items()}
            row["e2e_ratio"] = e2e["protego"]["total_ns"] / e2e["robotrules"]["total_ns"]
        rows.append(row)
    print(f"robotrules {adapters[0].version} against protego {adapters[1].version}, same rounds, best of {args.repeat}")
    print(f"{'class':<24} {'files':>6} {'parse':>8} {'sites':>6} {'parse+check':>12}")
    for row in rows:
        e2e_text = f"{row['e2e_ratio']:.2f}x" if "e2e_ratio" in row else "n/a"
        print(f"{row['class']:<24} {row['files']:>6} {row['parse_ratio']:>7.2f}x {row['sites']:>6} {e2e_text:>12}")
    slower = [row["class"] for row in rows if row["parse_ratio"] < 1 or row.get("e2e_ratio", 1) < 1]
    print("every class at least as fast as protego" if not slower else f"slower than protego: {', '.join(slower)}")
    if args.json:
        args.json.write_text(json.dumps({"machine": cb.machine_info(), "repeat": args.repeat, "classes": rows},
                                        indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
