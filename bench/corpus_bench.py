#!/usr/bin/env python3
"""Corpus benchmark: robotrules against protego, urllib.robotparser and Google's C++ reference.

    python bench/corpus_bench.py [--corpus PATH] [--limit N] [--repeat K] [--json OUT] [--markdown OUT]

Measures on the real-world corpus (see bench/README.md for what each figure means):
  1. parse time of the whole corpus (every robotfile), best of K runs;
  2. check time per URL with the file parsed once (per-site batches, median over sites, and total);
  3. parse + check of every link of every site (end to end, what the corpus authors measured);
  4. memory retained per parsed file (tracemalloc) and peak;
plus, for information, the correctness drift of each parser against Google's reference.

User agent "googlebot" everywhere, as the corpus authors did. Peers that are not installed are
reported as "not installed" and skipped. Targets are reported as met / not met; the script never
fails because a target is missed.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

AGENT = "googlebot"
GOOGLE_LIMIT = 512_000  # F9: Google reads the first 500 KiB; the reference parser does not cut.
MIN_BATCH_CHECKS = 100  # each timed per-site batch covers at least this many checks
REPO_ROOT = Path(__file__).resolve().parent.parent

# Targets: ratios against protego measured in the same run, per core (issue #21): what the
# compiled core (regular wheels) and the pure-Python fallback are each held to.
TARGETS_COMPILED = {
    "parse": ("parse whole corpus", ">=", 5.0),
    "check_median": ("median check per URL", ">=", 4.0),
    "e2e": ("parse + check everything", ">=", 5.0),
    "memory": ("memory retained per parsed file", "<=", 0.45),
}
TARGETS_PURE = {
    "parse": ("parse whole corpus", ">=", 3.0),
    "check_median": ("median check per URL", ">=", 2.5),
    "e2e": ("parse + check everything", ">=", 4.0),
    "memory": ("memory retained per parsed file", "<=", 0.5),
}


def core_targets() -> dict[str, tuple[str, str, float]]:
    """The targets of the core being measured (compiled or pure Python)."""
    import robotrules.core

    return TARGETS_COMPILED if robotrules.core.COMPILED else TARGETS_PURE


perf_ns = time.perf_counter_ns


# --------------------------------------------------------------------------- corpus


@dataclass
class Corpus:
    path: Path
    names: list[str]                 # every robotfile (sorted)
    raw: list[bytes]                 # raw bytes, in names order
    text: list[str]                  # utf-8 decoded with errors="replace"
    sites: list[str]                 # sites that have both a robotfile and a non-empty links file
    site_index: list[int]            # index into names/raw/text for each site
    links: list[list[str]]           # links per site
    link_files_without_robotfile: int = 0

    @property
    def n_big(self) -> int:
        """Files over Google's 512,000-byte limit: robotrules (like Google) reads only the first
        512,000 bytes of them, the Python peers parse all of it."""
        return sum(1 for b in self.raw if len(b) > GOOGLE_LIMIT)

    @property
    def n_links(self) -> int:
        return sum(len(ls) for ls in self.links)


def default_corpus() -> Path:
    env = os.environ.get("ROBOTRULES_CORPUS")
    if env:
        return Path(env)
    return (REPO_ROOT / ".." / "shared" / "corpus").resolve()


def load_corpus(path: Path, limit: int | None = None) -> Corpus:
    rdir, ldir = path / "robotfiles", path / "links"
    if not rdir.is_dir():
        raise FileNotFoundError(f"corpus not found: {rdir} is not a directory")
    names = sorted(p.name for p in rdir.iterdir() if p.is_file())
    if limit is not None:
        names = names[:limit]
    raw = [(rdir / n).read_bytes() for n in names]
    text = [b.decode("utf-8", errors="replace") for b in raw]
    index = {n: i for i, n in enumerate(names)}
    sites, site_index, links = [], [], []
    orphans = 0
    if ldir.is_dir():
        for lf in sorted(p.name for p in ldir.iterdir() if p.is_file()):
            if lf not in index:
                if limit is None:
                    orphans += 1
                continue
            ls = [ln.strip() for ln in (ldir / lf).read_bytes().decode("utf-8", errors="replace").splitlines()]
            ls = [u for u in ls if u]
            if ls:
                sites.append(lf)
                site_index.append(index[lf])
                links.append(ls)
    return Corpus(path, names, raw, text, sites, site_index, links, orphans)


# --------------------------------------------------------------------------- adapters


@dataclass
class Adapter:
    """One parser under test. Every callable runs its own loop so that the per-call overhead of
    the harness is the same for every library (one direct bound-method call per check)."""

    key: str
    label: str
    version: str
    input_kind: str                                   # "bytes" | "str"
    parse: Callable[[Any], Any] | None                # None: no separate parse (reference)
    check_loop: Callable[[Any, list, int], None]      # (parsed, links, times)
    decide: Callable[[Any, str], bool]                # one decision, untimed
    e2e: Callable[[list], None]                       # [(input, links)] -> parse + check all
    measure_check: bool = True
    notes: list[str] = field(default_factory=list)


def _ver(mod: str) -> str:
    try:
        from importlib.metadata import version
        return version(mod)
    except Exception:  # pragma: no cover
        return "?"


def make_adapters() -> tuple[list[Adapter], dict[str, str]]:
    """Return the available adapters and {label: reason} for the missing ones."""
    adapters: list[Adapter] = []
    missing: dict[str, str] = {}

    # robotrules ------------------------------------------------------------
    try:
        import robotrules.core
        rparse = robotrules.parse
    except Exception as e:  # ImportError, or the package is not implemented yet
        missing["robotrules"] = f"not installed ({type(e).__name__}: {e})"
    else:
        def rr_loop(rt, links, times, agent=AGENT):
            allowed = rt.allowed
            for _ in range(times):
                for u in links:
                    allowed(u, agent)

        def rr_e2e(pairs, parse=rparse, agent=AGENT):
            for body, links in pairs:
                allowed = parse(body).allowed
                for u in links:
                    allowed(u, agent)

        def rr_decide(rt, url):
            return bool(rt.allowed(url, AGENT))

        v = getattr(robotrules, "__version__", None) or _ver("robotrules")
        v += " (core: mypyc-compiled)" if robotrules.core.COMPILED else " (core: pure Python)"
        adapters.append(Adapter("robotrules", "robotrules", v, "bytes", rparse, rr_loop, rr_decide, rr_e2e))
        adapters.append(Adapter(
            "robotrules_str", "robotrules (str in)", v, "str", rparse, rr_loop, rr_decide, rr_e2e,
            measure_check=False,
            notes=["same decoded str as the peers; checks are identical to the bytes run, not re-measured"]))

    # protego ----------------------------------------------------------------
    try:
        from protego import Protego
    except Exception as e:
        missing["protego"] = f"not installed ({type(e).__name__})"
    else:
        pparse = Protego.parse

        def pg_loop(p, links, times, agent=AGENT):
            can_fetch = p.can_fetch
            for _ in range(times):
                for u in links:
                    can_fetch(u, agent)

        def pg_e2e(pairs, parse=pparse, agent=AGENT):
            for text, links in pairs:
                can_fetch = parse(text).can_fetch
                for u in links:
                    can_fetch(u, agent)

        adapters.append(Adapter("protego", "protego", _ver("protego"), "str", pparse, pg_loop,
                                lambda p, url: bool(p.can_fetch(url, AGENT)), pg_e2e))

    # urllib.robotparser ---------------------------------------------------------
    from urllib.robotparser import RobotFileParser

    def ul_parse(text, RFP=RobotFileParser):
        rp = RFP()
        rp.parse(text.splitlines())
        return rp

    def ul_loop(rp, links, times, agent=AGENT):
        can_fetch = rp.can_fetch
        for _ in range(times):
            for u in links:
                can_fetch(agent, u)

    def ul_e2e(pairs, parse=ul_parse, agent=AGENT):
        for text, links in pairs:
            can_fetch = parse(text).can_fetch
            for u in links:
                can_fetch(agent, u)

    adapters.append(Adapter("urllib", "urllib.robotparser", f"stdlib {platform.python_version()}", "str",
                            ul_parse, ul_loop, lambda rp, url: bool(rp.can_fetch(AGENT, url)), ul_e2e,
                            notes=["parse includes text.splitlines()"]))

    # Google's C++ reference via jwm.robotstxt -------------------------------------
    try:
        from jwm.robotstxt import googlebot
    except Exception as e:
        missing["google"] = f"not installed ({type(e).__name__})"
    else:
        Matcher = googlebot.RobotsMatcher

        def g_loop(body, links, times, agent=AGENT, M=Matcher):
            for _ in range(times):
                for u in links:
                    M().OneAgentAllowedByRobots(body, agent, u)

        def g_e2e(pairs, agent=AGENT, M=Matcher):
            for body, links in pairs:
                for u in links:
                    M().OneAgentAllowedByRobots(body, agent, u)

        adapters.append(Adapter(
            "google", "Google C++ (jwm.robotstxt)", _ver("jwm.robotstxt"), "bytes", None, g_loop,
            lambda body, url: bool(Matcher().OneAgentAllowedByRobots(body, AGENT, url)), g_e2e,
            notes=[("no separate parse: every check reparses the whole file (new RobotsMatcher per check), "
                    "so its check time includes the parse and its end-to-end figure equals its check total"),
                   "given the raw bytes cut at 512,000 bytes (Google's limit)"]))
    return adapters, missing


def inputs_for(a: Adapter, c: Corpus) -> list:
    if a.key == "google":
        return [b[:GOOGLE_LIMIT] for b in c.raw]
    return c.raw if a.input_kind == "bytes" else c.text


# --------------------------------------------------------------------------- measurements


class _NoGC:
    def __enter__(self):
        gc.collect()
        self.was = gc.isenabled()
        gc.disable()

    def __exit__(self, *exc):
        if self.was:
            gc.enable()
        gc.collect()


def _rounds(adapters: list, r: int) -> list:
    """The adapters in round r, rotated so that no library always runs first or last."""
    k = r % len(adapters) if adapters else 0
    return adapters[k:] + adapters[:k]


def time_parse(adapters: list[Adapter], inputs: dict, repeat: int, keep=None) -> dict:
    """Whole-corpus parse time per adapter, best of `repeat` rounds. The libraries take turns within
    each round, so that a change in machine load hits them all alike. keep(i) selects files."""
    sel = {a.key: [x for i, x in enumerate(inputs[a.key]) if keep is None or keep(i)] for a in adapters}
    best: dict[str, int] = {}
    for r in range(repeat):
        for a in _rounds(adapters, r):
            parse, xs = a.parse, sel[a.key]
            with _NoGC():
                t0 = perf_ns()
                for x in xs:
                    parse(x)
                dt = perf_ns() - t0
            best[a.key] = min(best.get(a.key, dt), dt)
    out = {}
    for a in adapters:
        n = len(sel[a.key])
        out[a.key] = {"total_ns": best[a.key] if n else None, "per_file_ns": best[a.key] / n if n else None, "files": n}
    return out


def time_checks(adapters: list[Adapter], inputs: dict, c: Corpus, repeat: int, ref_repeat: int) -> dict:
    """Per site: parse once, then time batches of all its links, libraries taking turns; best batch."""
    per_url: dict[str, list] = {a.key: [] for a in adapters}
    site_ns: dict[str, list] = {a.key: [] for a in adapters}
    for si, links in zip(c.site_index, c.links, strict=True):
        n = len(links)
        objs, times = {}, {}
        for a in adapters:
            objs[a.key] = inputs[a.key][si] if a.parse is None else a.parse(inputs[a.key][si])
            times[a.key] = 1 if a.key == "google" else max(1, -(-MIN_BATCH_CHECKS // n))
            a.check_loop(objs[a.key], links, 1)  # warm-up (lazy compilation, caches): not timed
        best: dict[str, int] = {}
        with _NoGC():
            for r in range(repeat):
                for a in _rounds(adapters, r):
                    if a.key == "google" and r >= ref_repeat:
                        continue
                    loop, obj, t = a.check_loop, objs[a.key], times[a.key]
                    t0 = perf_ns()
                    loop(obj, links, t)
                    dt = perf_ns() - t0
                    best[a.key] = min(best.get(a.key, dt), dt)
        del objs
        for a in adapters:
            one_pass = best[a.key] / times[a.key]
            site_ns[a.key].append(one_pass)
            per_url[a.key].append(one_pass / n)
    return {a.key: {
        "median_per_url_ns": statistics.median(per_url[a.key]) if per_url[a.key] else None,
        "mean_per_url_ns": (sum(site_ns[a.key]) / c.n_links) if c.n_links else None,
        "total_ns": sum(site_ns[a.key]),
        "sites": len(per_url[a.key]),
        "links": c.n_links,
        "repeat": ref_repeat if a.key == "google" else repeat,
        "_site_ns": site_ns[a.key],
    } for a in adapters}


def time_e2e(adapters: list[Adapter], inputs: dict, c: Corpus, repeat: int, only_small: bool = False) -> dict:
    """Parse + check every link of every site, libraries taking turns; best of `repeat` rounds."""
    keep = [si for si in c.site_index if not (only_small and len(c.raw[si]) > GOOGLE_LIMIT)]
    keep_set = set(keep)
    pairs = {a.key: [(inputs[a.key][si], links) for si, links in zip(c.site_index, c.links, strict=True) if si in keep_set]
             for a in adapters}
    n_links = sum(len(ls) for si, ls in zip(c.site_index, c.links, strict=True) if si in keep_set)
    best: dict[str, int] = {}
    if keep:
        for r in range(repeat):
            for a in _rounds(adapters, r):
                with _NoGC():
                    t0 = perf_ns()
                    a.e2e(pairs[a.key])
                    dt = perf_ns() - t0
                best[a.key] = min(best.get(a.key, dt), dt)
    return {a.key: {"total_ns": best.get(a.key), "sites": len(keep), "links": n_links} for a in adapters}


def measure_memory(a: Adapter, inputs: list) -> dict:
    parse = a.parse
    parse(inputs[0])  # warm-up: lazy imports / module-level caches are not charged to the files
    n = len(inputs)
    kept: list = [None] * n  # allocated before the baseline: only the parsed objects are counted
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        for i, x in enumerate(inputs):
            kept[i] = parse(x)
        gc.collect()
        cur, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del kept
    gc.collect()
    return {"retained_per_file_bytes": (cur - base) / n, "retained_total_bytes": cur - base,
            "peak_bytes": peak - base, "files": n}


def measure_drift(adapters: list[Adapter], c: Corpus) -> dict:
    ref = next((a for a in adapters if a.key == "google"), None)
    if ref is None:
        return {}
    ref_in = inputs_for(ref, c)
    expected = [[ref.decide(ref_in[si], u) for u in links] for si, links in zip(c.site_index, c.links, strict=True)]
    out = {}
    for a in adapters:
        if a.key == "google":
            continue
        inputs = inputs_for(a, c)
        diff = 0
        sites_diff = 0
        for si, links, exp in zip(c.site_index, c.links, expected, strict=True):
            obj = a.parse(inputs[si])
            d = sum(1 for u, e in zip(links, exp, strict=True) if a.decide(obj, u) != e)
            diff += d
            sites_diff += d > 0
        out[a.key] = {"disagreements": diff, "decisions": c.n_links,
                      "fraction": diff / c.n_links if c.n_links else 0.0, "sites_with_disagreement": sites_diff}
    return out


# --------------------------------------------------------------------------- reporting


def machine_info() -> dict:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        nproc = len(os.sched_getaffinity(0))
    except AttributeError:
        nproc = os.cpu_count()
    return {"python": f"{platform.python_implementation()} {platform.python_version()}",
            "python_build": " ".join(platform.python_build()), "platform": platform.platform(),
            "machine": platform.machine(), "cpu": cpu, "nproc": nproc}


def fmt_ns(ns: float | None) -> str:
    if ns is None:
        return "n/a"
    if ns < 1e3:
        return f"{ns:.0f} ns"
    if ns < 1e6:
        return f"{ns / 1e3:.2f} µs"
    if ns < 1e9:
        return f"{ns / 1e6:.1f} ms"
    return f"{ns / 1e9:.2f} s"


def fmt_bytes(b: float | None) -> str:
    if b is None:
        return "n/a"
    if b < 10 * 1024:
        return f"{b:,.0f} B"
    if b < 10 * 1024 * 1024:
        return f"{b / 1024:,.1f} KiB"
    return f"{b / 1024 / 1024:,.1f} MiB"


# metric key -> (row label, getter from per-library results, formatter, kind)
def _metrics(c_files: int) -> list:
    return [
        ("parse", f"Parse whole corpus ({c_files:,} files), total",
         lambda r: r.get("parse", {}).get("total_ns"), fmt_ns, "time"),
        ("parse_per_file", "Parse, mean per file",
         lambda r: r.get("parse", {}).get("per_file_ns"), fmt_ns, "time"),
        ("parse_small", f"Parse, only files <= {GOOGLE_LIMIT:,} bytes",
         lambda r: r.get("parse_small", {}).get("total_ns"), fmt_ns, "time"),
        ("check_median", "Check per URL, median over sites (parsed once)",
         lambda r: r.get("check", {}).get("median_per_url_ns"), fmt_ns, "time"),
        ("check_total", "Check every link once, total (parsed once)",
         lambda r: r.get("check", {}).get("total_ns"), fmt_ns, "time"),
        ("e2e", "Parse + check every link of every site",
         lambda r: r.get("e2e", {}).get("total_ns"), fmt_ns, "time"),
        ("e2e_small", f"Parse + check, only sites with files <= {GOOGLE_LIMIT:,} bytes",
         lambda r: r.get("e2e_small", {}).get("total_ns"), fmt_ns, "time"),
        ("memory", "Memory retained per parsed file",
         lambda r: r.get("memory", {}).get("retained_per_file_bytes"), fmt_bytes, "memory"),
        ("memory_small", f"Memory retained per parsed file, only files <= {GOOGLE_LIMIT:,} bytes",
         lambda r: r.get("memory_small", {}).get("retained_per_file_bytes"), fmt_bytes, "memory"),
        ("peak", "Peak traced memory, parsing all files",
         lambda r: r.get("memory", {}).get("peak_bytes"), fmt_bytes, "memory"),
    ]


def ratio_phrase(metric_kind: str, ours: float, theirs: float, other: str, subject: str = "robotrules") -> str:
    if not ours or not theirs:
        return "n/a"
    if metric_kind == "time":
        r = theirs / ours
        return f"{subject} is {r:.1f}x faster than {other}" if r >= 1 else f"{subject} is {1 / r:.1f}x slower than {other}"
    r = ours / theirs
    return f"{subject} uses {r:.2f}x the memory of {other}"


def compute_summary(results: dict, labels: dict) -> dict:
    """Ratios of robotrules against every peer, and the target verdicts against protego."""
    rr = results.get("robotrules")
    ratios: dict = {}
    targets: dict = {}
    for key, _name, get, _fmt, kind in _metrics(0):
        if rr is None:
            break
        ours = get(rr)
        for peer, pres in results.items():
            if peer.startswith("robotrules"):
                continue
            theirs = get(pres)
            if ours and theirs:
                value = theirs / ours if kind == "time" else ours / theirs
                ratios.setdefault(key, {})[peer] = {"value": value, "phrase": ratio_phrase(kind, ours, theirs, labels[peer])}
    for key, (desc, op, goal) in core_targets().items():
        v = ratios.get(key, {}).get("protego", {}).get("value")
        entry = {"description": desc, "goal": f"{op} {goal:g}x protego", "value": v,
                 "met": None if v is None else (v >= goal if op == ">=" else v <= goal)}
        # informational: the same ratio with robotrules fed the decoded str like the peers
        rs, pg = results.get("robotrules_str"), results.get("protego")
        if rs is not None and pg is not None and key in ("parse", "e2e", "memory"):
            get = next(m[2] for m in _metrics(0) if m[0] == key)
            o, t = get(rs), get(pg)
            if o and t:
                entry["value_str_input"] = t / o if key != "memory" else o / t
        small = {"parse": "parse_small", "e2e": "e2e_small", "memory": "memory_small"}.get(key)
        if small:
            entry["value_within_limit"] = ratios.get(small, {}).get("protego", {}).get("value")
        targets[key] = entry
    return {"ratios": ratios, "targets": targets}


def render_table(results: dict, labels: dict, order: list, missing: dict, c: Corpus, md: bool) -> str:
    cols = [k for k in order if k in results or k in missing]
    head = ["Metric"] + [labels.get(k, k) for k in cols]
    rows = []
    for key, name, get, fmt, _kind in _metrics(len(c.names)):
        if not any(get(results[k]) is not None for k in cols if k in results):
            continue
        row = [name]
        for k in cols:
            if k in missing:
                row.append("not installed")
            else:
                v = get(results[k])
                row.append(fmt(v) if v is not None else ("same as bytes" if k == "robotrules_str" and key.startswith("check") else "n/a"))
        rows.append(row)
    drift_row = ["Decisions differing from Google's reference"]
    for k in cols:
        d = results.get(k, {}).get("drift")
        drift_row.append("not installed" if k in missing else
                         ("(reference)" if k == "google" else (f"{d['fraction'] * 100:.3f}% ({d['disagreements']:,})" if d else "n/a")))
    rows.append(drift_row)
    if md:
        out = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * len(cols)) + "|"]
        out += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(out)
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    line = lambda r: "  ".join(r[0].ljust(widths[0]) if i == 0 else x.rjust(widths[i]) for i, x in enumerate(r))  # noqa: E731
    return "\n".join([line(head), "-" * (sum(widths) + 2 * (len(widths) - 1))] + [line(r) for r in rows])


def render_report(report: dict, c: Corpus, md: bool) -> str:
    results, labels, missing = report["results"], report["labels"], report["missing"]
    order = report["order"]
    m = report["machine"]
    out = []
    h = "### " if md else ""
    out.append(f"{h}robotrules corpus benchmark")
    out.append("")
    out.append(f"- Python: {m['python']} ({m['python_build']}); {m['platform']}")
    out.append(f"- Machine: {m['cpu'] or m['machine']}, nproc = {m['nproc']}")
    cc = report["corpus"]
    out.append(f"- Corpus: {cc['robotfiles']:,} robotfiles ({cc['bytes']:,} bytes); {cc['sites_with_links']:,} sites with links, "
               f"{cc['links']:,} links; user agent \"{AGENT}\"; best of {report['repeat']} runs "
               f"(reference: {report['ref_repeat']}); gc disabled while timing")
    out.append("- Versions: " + ", ".join(f"{labels[k]} {report['versions'][k]}" for k in order if k in results and k != "robotrules_str"))
    out.append("")
    out.append(render_table(results, labels, order, missing, c, md))
    out.append("")
    summ = report["summary"]
    if summ["ratios"]:
        out.append(f"{h}Ratios (robotrules, bytes input)" if md else "Ratios (robotrules, bytes input):")
        out.append("")
        names = {m[0]: m[1] for m in _metrics(len(c.names))}
        for key, per in summ["ratios"].items():
            if key in ("parse_per_file", "peak"):
                continue
            out.append(f"- {names[key]}: " + "; ".join(v["phrase"] for v in per.values()))
        out.append("")
    out.append(f"{h}Targets (ratios to protego, same run)" if md else "Targets (ratios to protego, same run):")
    out.append("")
    if md:
        out.append(f"| Target | Goal | robotrules | robotrules (str in) | only files <= {GOOGLE_LIMIT:,} B | Verdict |")
        out.append("|---|---|---:|---:|---:|---|")
    for t in summ["targets"].values():
        v = t["value"]
        vs = "n/a" if v is None else f"{v:.2f}x"
        vstr = t.get("value_str_input")
        vstr_s = "n/a" if vstr is None else f"{vstr:.2f}x"
        vsm = t.get("value_within_limit")
        vsm_s = "n/a" if vsm is None else f"{vsm:.2f}x"
        verdict = "n/a" if t["met"] is None else ("met" if t["met"] else "NOT met")
        if md:
            out.append(f"| {t['description']} | {t['goal']} | {vs} | {vstr_s} | {vsm_s} | {verdict} |")
        else:
            extra = f"; only files <= {GOOGLE_LIMIT:,} B: {vsm_s}" if vsm is not None else ""
            out.append(f"- {t['description']}: goal {t['goal']}, got {vs} (str input: {vstr_s}{extra}) -> {verdict}")
    out.append("")
    notes = report["notes"]
    if notes:
        out.append(f"{h}Notes" if md else "Notes:")
        out.append("")
        out += [f"- {n}" for n in notes]
    return "\n".join(out).rstrip() + "\n"


# --------------------------------------------------------------------------- main


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--corpus", type=Path, default=None,
                   help="corpus directory (default: $ROBOTRULES_CORPUS or ../shared/corpus from the repo root)")
    p.add_argument("--limit", type=int, default=None, help="only the first N robotfiles (sorted by name) and their links")
    p.add_argument("--repeat", type=int, default=5, help="best of K runs (default 5)")
    p.add_argument("--ref-repeat", type=int, default=2,
                   help="repeats for Google's reference, which reparses on every check (default 2)")
    p.add_argument("--json", type=Path, default=None, help="write the results as JSON")
    p.add_argument("--markdown", type=Path, default=None, help="write the results as a markdown report")
    p.add_argument("--no-drift", action="store_true", help="skip the correctness drift pass")
    p.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    return p.parse_args(argv)


def _public(obj):
    """Drop private ("_"-prefixed) keys, such as the per-site raw times, from the JSON."""
    if isinstance(obj, dict):
        return {k: _public(v) for k, v in obj.items() if not str(k).startswith("_")}
    if isinstance(obj, list):
        return [_public(v) for v in obj]
    return obj


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    corpus_path = args.corpus or default_corpus()
    log = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    repeat = max(1, args.repeat)
    ref_repeat = max(1, min(args.ref_repeat, repeat))

    c = load_corpus(corpus_path, args.limit)
    if not c.names:
        print(f"no robotfiles in {corpus_path}", file=sys.stderr)
        return 2
    adapters, missing = make_adapters()
    labels = {a.key: a.label for a in adapters}
    labels.update({"robotrules": "robotrules", "protego": "protego", "urllib": "urllib.robotparser",
                   "google": "Google C++ (jwm.robotstxt)"})
    order = ["robotrules", "robotrules_str", "protego", "urllib", "google"]
    results: dict[str, dict] = {a.key: {} for a in adapters}
    log(f"corpus {corpus_path}: {len(c.names)} files, {len(c.sites)} sites with links, {c.n_links} links")
    for k, why in missing.items():
        log(f"{labels[k]}: {why}; skipped")

    # Sanity pass (untimed): a parser that raises on some file is reported and dropped.
    for a in list(adapters):
        if a.parse is None:
            continue
        try:
            for x in inputs_for(a, c):
                a.parse(x)
        except Exception as e:
            missing[a.key] = f"error: {type(e).__name__}: {e}"
            adapters.remove(a)
            results.pop(a.key)
            log(f"{a.label}: raised {e!r}; skipped")

    inputs = {a.key: inputs_for(a, c) for a in adapters}
    parsers = [a for a in adapters if a.parse is not None]
    small = lambda i: len(c.raw[i]) <= GOOGLE_LIMIT  # noqa: E731
    log("parse (whole corpus)")
    for k, v in time_parse(parsers, inputs, repeat).items():
        results[k]["parse"] = v
    if c.n_big:
        log(f"parse (files <= {GOOGLE_LIMIT:,} bytes)")
        for k, v in time_parse(parsers, inputs, repeat, keep=small).items():
            results[k]["parse_small"] = v
    if c.links:
        log("check (parsed once)")
        for k, v in time_checks([a for a in adapters if a.measure_check], inputs, c, repeat, ref_repeat).items():
            results[k]["check"] = v
        # The reference reparses on every check: its end-to-end time is its check total (not re-run).
        e2e_adapters = [a for a in adapters if a.key != "google"]
        log("parse + check")
        for k, v in time_e2e(e2e_adapters, inputs, c, repeat).items():
            results[k]["e2e"] = v
        if c.n_big:
            log(f"parse + check (files <= {GOOGLE_LIMIT:,} bytes)")
            for k, v in time_e2e(e2e_adapters, inputs, c, repeat, only_small=True).items():
                results[k]["e2e_small"] = v
        if "google" in results and "check" in results["google"]:
            site_ns = results["google"]["check"]["_site_ns"]
            results["google"]["e2e"] = {"total_ns": sum(site_ns), "sites": len(c.sites), "links": c.n_links,
                                        "derived_from": "check total"}
            if c.n_big:
                results["google"]["e2e_small"] = {
                    "total_ns": sum(t for t, si in zip(site_ns, c.site_index, strict=True) if small(si)),
                    "derived_from": "check total"}
    for a in parsers:
        log(f"{a.label}: memory")
        results[a.key]["memory"] = measure_memory(a, inputs[a.key])
        sub = [x for i, x in enumerate(inputs[a.key]) if small(i)]
        if c.n_big and sub:
            results[a.key]["memory_small"] = measure_memory(a, sub)

    if not args.no_drift and c.links:
        log("drift against the reference")
        for k, d in measure_drift(adapters, c).items():
            results[k]["drift"] = d

    notes = [
        ("Peers get the bytes decoded as UTF-8 with errors=\"replace\" (outside the timed region); "
         "robotrules gets the raw bytes, and \"robotrules (str in)\" gets the same decoded str as the peers."),
        (f"Check: each site's file parsed once; all its links checked in a loop (repeated so that a batch is at least {MIN_BATCH_CHECKS} "
         "checks), best batch of the repeats; per-URL time = site time / links; the median is over sites."),
        "Parse + check: for every site with links, parse its file and check every link (the corpus authors' method).",
        ("Memory: tracemalloc, all files parsed and kept alive; retained = traced memory growth / files "
         "(input bytes/str are allocated before the baseline and not counted); peak = highest growth during the run."),
    ]
    for a in adapters:
        notes += [f"{a.label}: {n}" for n in a.notes]
    if c.n_big:
        notes.append(f"{c.n_big} file(s) exceed Google's 512,000-byte limit (F9); robotrules and the reference read "
                     "only the first 512,000 bytes, protego and urllib parse all of it. The \"only files <= 512,000 "
                     "bytes\" rows leave them out, for a like-for-like comparison.")
    if c.link_files_without_robotfile:
        notes.append(f"{c.link_files_without_robotfile} links files have no robotfile and are ignored.")
    for k, why in missing.items():
        notes.append(f"{labels.get(k, k)}: {why}.")

    report = {
        "machine": machine_info(),
        "corpus": {"path": str(c.path), "robotfiles": len(c.names), "bytes": sum(len(b) for b in c.raw),
                   "sites_with_links": len(c.sites), "links": c.n_links, "limit": args.limit},
        "agent": AGENT,
        "repeat": repeat,
        "ref_repeat": ref_repeat,
        "versions": {a.key: a.version for a in adapters},
        "labels": labels,
        "order": order,
        "missing": missing,
        "results": results,
        "notes": notes,
    }
    report["summary"] = compute_summary(results, labels)

    print(render_report(report, c, md=False))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(_public(report), indent=2) + "\n")
    if args.markdown:
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text(render_report(report, c, md=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
