#!/usr/bin/env python3
"""Pathological inputs: robotrules against protego and Google's C++ reference (jwm.robotstxt).

    python bench/pathological_bench.py [--repeat K] [--timeout S] [--limit N] [--json OUT] [--markdown OUT]

(a) the pattern "/*a*a*a*a*a*a*a*a*a*b" checked against 4,000-character URLs of 'a's (a naive
    backtracking matcher is exponential here; Google's matcher is O(len(pattern) * len(path)));
(b) a generated ~500 KiB robots.txt of 20,000 wildcard rules, parsed, then checked against a few URLs;
(c) issue #8 item 10: 18,700 rules "Disallow: /*aaaaaaaa*b<N>" (cut at 512,000 bytes), parsed, then
    checked against paths of 'a's of 100, 4,000 and 100,000 characters (and one matching "b1").

Every figure is the best of K runs, in milliseconds. Each measurement runs in a forked child with a
time limit, so a parser that blows up is reported as "> S s" instead of hanging the benchmark.
The reference has no separate parse: its check figures include reparsing the whole file.
--limit N makes a tiny run (N*100 rules in (b) and (c), N*4-character URLs) for smoke tests.
"""
from __future__ import annotations

import argparse
import gc
import json
import multiprocessing
import platform
import sys
import time
from collections.abc import Callable
from pathlib import Path

AGENT = "googlebot"
PATTERN = "/*a*a*a*a*a*a*a*a*a*b"
GOOGLE_LIMIT = 512_000
perf_ns = time.perf_counter_ns


# --------------------------------------------------------------------------- inputs


def wildcard_case(url_length: int) -> tuple[bytes, list[tuple[str, str]]]:
    body = f"User-agent: *\nDisallow: {PATTERN}\n".encode()
    urls = [
        (f"{url_length:,}-char path of 'a's (no match)", "/" + "a" * (url_length - 1)),
        (f"{url_length:,}-char path of 'a's ending in 'b' (match)", "/" + "a" * (url_length - 2) + "b"),
    ]
    return body, urls


def many_rules_case(n_rules: int, max_bytes: int = GOOGLE_LIMIT) -> tuple[bytes, list[tuple[str, str]]]:
    """A deterministic file of n_rules wildcard Allow/Disallow rules (~25 bytes a line), under max_bytes."""
    shapes = ("/s{0}/*/page.php$", "/*{0}*?q=*&", "/dir{0}*/*.xml", "/*/post{0}$", "/img/*-{0}.jpeg",
              "/*.cgi?id={0}*")
    lines = ["User-agent: *"]
    size = len(lines[0]) + 1
    for i in range(n_rules):
        field = "Allow" if i % 5 == 0 else "Disallow"
        line = f"{field}: " + shapes[i % len(shapes)].format(f"{i:x}")
        if size + len(line) + 1 > max_bytes:
            break
        lines.append(line)
        size += len(line) + 1
    body = ("\n".join(lines) + "\n").encode()
    last = f"{max(i for i in range(len(lines) - 1) if i % len(shapes) == 0):x}"
    urls = [
        ("/", "/"),
        ("path matching a rule near the end", f"/s{last}/a/b/page.php"),
        ("query matching a wildcard rule", f"/shop/item{997:x}?q=1&x=" + "z" * 40),
        ("long path matching nothing", "/nothing/" + "z" * 500),
        ("deep path, many partial matches", "/dir2/" + "/".join(f"p{i:x}" for i in range(50)) + "/x"),
    ]
    return body, urls


ISSUE_RULES = 18_700


def issue_case(lengths: tuple[int, ...] = (100, 4_000, 100_000),
               rules: int = ISSUE_RULES) -> tuple[bytes, list[tuple[str, str]]]:
    """Issue #8 item 10: a file of wildcard rules that all share their longest segment."""
    body = ("User-agent: *\n" + "".join(f"Disallow: /*aaaaaaaa*b{i}\n" for i in range(rules))).encode()
    urls = []
    for n in lengths:
        urls.append((f"{n:,}-char path of 'a's (no match)", "/" + "a" * (n - 1)))
        urls.append((f"{n:,}-char path of 'a's ending in 'b1' (match)", "/" + "a" * (n - 3) + "b1"))
    return body, urls


# --------------------------------------------------------------------------- libraries


def libraries() -> tuple[dict[str, dict], dict[str, str]]:
    """{key: {label, parse(body)->obj | None, check(obj_or_body, url)->bool}} and {key: why missing}."""
    libs: dict[str, dict] = {}
    missing: dict[str, str] = {}
    try:
        import robotrules
        rparse = robotrules.parse
        libs["robotrules"] = {"label": "robotrules", "parse": rparse, "input": "bytes",
                              "check": lambda rt, url: rt.allowed(url, AGENT)}
    except Exception as e:
        missing["robotrules"] = f"not installed ({type(e).__name__})"
    try:
        from protego import Protego
        libs["protego"] = {"label": "protego", "parse": Protego.parse, "input": "str",
                           "check": lambda p, url: p.can_fetch(url, AGENT)}
    except Exception as e:
        missing["protego"] = f"not installed ({type(e).__name__})"
    try:
        from jwm.robotstxt import googlebot
        M = googlebot.RobotsMatcher
        libs["google"] = {"label": "Google C++ (jwm.robotstxt)", "parse": None, "input": "bytes",
                          "check": lambda body, url: M().OneAgentAllowedByRobots(body, AGENT, url)}
    except Exception as e:
        missing["google"] = f"not installed ({type(e).__name__})"
    return libs, missing


def _input(lib: dict, body: bytes):
    if lib["parse"] is None:
        return body[:GOOGLE_LIMIT]
    return body if lib["input"] == "bytes" else body.decode("utf-8", errors="replace")


# --------------------------------------------------------------------------- timing


def best_of(fn: Callable[[], object], repeat: int) -> int:
    best = None
    for _ in range(repeat):
        gc.collect()
        gc.disable()
        try:
            t0 = perf_ns()
            fn()
            dt = perf_ns() - t0
        finally:
            gc.enable()
        best = dt if best is None else min(best, dt)
    return best


def _child(conn, fn):
    try:
        conn.send(("ok", fn()))
    except BaseException as e:  # report, never hang
        conn.send(("error", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


def run_limited(fn: Callable[[], object], timeout: float):
    """Run fn in a forked child; ("ok", value) | ("timeout", None) | ("error", msg)."""
    try:
        ctx = multiprocessing.get_context("fork")
    except ValueError:  # no fork (Windows): run inline, without a time limit
        try:
            return ("ok", fn())
        except Exception as e:
            return ("error", f"{type(e).__name__}: {e}")
    parent, child = ctx.Pipe(duplex=False)
    p = ctx.Process(target=_child, args=(child, fn), daemon=True)
    p.start()
    child.close()
    try:
        if parent.poll(timeout):
            return parent.recv()
        return ("timeout", None)
    except EOFError:
        return ("error", f"child died (exit code {p.exitcode})")
    finally:
        if p.is_alive():
            p.kill()
        p.join()
        parent.close()


def measure_case(lib: dict, body: bytes, urls: list[tuple[str, str]], repeat: int, timeout: float,
                 with_parse: bool) -> dict:
    data = _input(lib, body)
    parse, check = lib["parse"], lib["check"]
    out: dict = {}
    if with_parse:
        if parse is None:
            out["parse"] = ("n/a", None)
        else:
            out["parse"] = run_limited(lambda: best_of(lambda: parse(data), repeat), timeout)

    for desc, url in urls:
        def job(url=url):
            obj = data if parse is None else parse(data)
            check(obj, url)  # warm-up, and the decision
            return {"ns": best_of(lambda: check(obj, url), repeat), "allowed": bool(check(obj, url))}
        out[desc] = run_limited(job, timeout)

    if with_parse:
        def everything():
            def once():
                obj = data if parse is None else parse(data)
                for _d, u in urls:
                    check(obj, u)
            return best_of(once, repeat)
        out["parse + check all URLs"] = run_limited(everything, timeout)
    return out


def fmt(res, timeout: float) -> str:
    status, value = res
    if status == "n/a":
        return "n/a"
    if status == "timeout":
        return f"> {timeout:g} s"
    if status == "error":
        return f"error: {value}"
    if isinstance(value, dict):
        return f"{value['ns'] / 1e6:.3f} ms ({'allow' if value['allowed'] else 'disallow'})"
    return f"{value / 1e6:.3f} ms"


# --------------------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=5, help="best of K runs (default 5)")
    ap.add_argument("--timeout", type=float, default=60.0, help="time limit per measurement, seconds (default 60)")
    ap.add_argument("--url-length", type=int, default=4000, help="length of the 'a...' URLs in (a) (default 4000)")
    ap.add_argument("--rules", type=int, default=20_000, help="number of rules in (b) (default 20000)")
    ap.add_argument("--limit", type=int, default=None, help="tiny run: N*100 rules and N*4-character URLs")
    ap.add_argument("--json", type=Path, default=None)
    ap.add_argument("--markdown", type=Path, default=None)
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    repeat = max(1, args.repeat)
    n_rules, url_len = args.rules, args.url_length
    if args.limit is not None:
        n_rules, url_len = min(n_rules, args.limit * 100), min(url_len, max(4, args.limit * 4))
    log = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))

    libs, missing = libraries()
    order = [k for k in ("robotrules", "protego", "google") if k in libs or k in missing]
    labels = {"robotrules": "robotrules", "protego": "protego", "google": "Google C++ (jwm.robotstxt)"}

    body_a, urls_a = wildcard_case(url_len)
    body_b, urls_b = many_rules_case(n_rules)
    n_b = body_b.count(b"\n") - 1
    lengths = (100, 4_000, 100_000) if args.limit is None else (max(16, url_len),)
    issue_rules = ISSUE_RULES if args.limit is None else min(ISSUE_RULES, args.limit * 100)
    body_c, urls_c = issue_case(lengths, issue_rules)
    cases = [
        (f"(a) Disallow: {PATTERN}", body_a, urls_a, False),
        (f"(b) {n_b:,} wildcard rules, {len(body_b):,} bytes ({len(body_b) / 1024:.0f} KiB)", body_b, urls_b, True),
        (f"(c) {issue_rules:,} rules Disallow: /*aaaaaaaa*b<N> (issue #8 item 10)", body_c, urls_c, True),
    ]
    results: dict = {}
    for cname, body, urls, with_parse in cases:
        for k in order:
            if k in libs:
                log(f"{cname}: {labels[k]}")
                results.setdefault(cname, {})[k] = measure_case(libs[k], body, urls, repeat, args.timeout, with_parse)

    # table
    rows = []
    for cname, _body, urls, with_parse in cases:
        measures = (["parse"] if with_parse else []) + [d for d, _ in urls] + (["parse + check all URLs"] if with_parse else [])
        for m in measures:
            label = m if m in ("parse", "parse + check all URLs") else f"check: {m}"
            row = [cname, label]
            for k in order:
                row.append("not installed" if k in missing else fmt(results[cname][k][m], args.timeout))
            rows.append(row)
    head = ["Case", "Measure"] + [labels[k] for k in order]
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    print(f"Pathological inputs; best of {repeat}, milliseconds; {platform.python_implementation()} "
          f"{platform.python_version()}; user agent \"{AGENT}\"")
    print("  ".join(h.ljust(widths[i]) for i, h in enumerate(head)))
    print("-" * (sum(widths) + 2 * (len(widths) - 1)))
    for r in rows:
        print("  ".join(x.ljust(widths[i]) if i < 2 else x.rjust(widths[i]) for i, x in enumerate(r)))
    print("Google C++ has no separate parse: its check figures include reparsing the file.")
    for k, why in missing.items():
        print(f"{labels[k]}: {why}")

    if args.markdown:
        md = ["| " + " | ".join(head) + " |", "|---|---|" + "---:|" * len(order)]
        md += ["| " + " | ".join(r) + " |" for r in rows]
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text("\n".join(md) + "\n")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({
            "python": platform.python_version(), "repeat": repeat, "timeout_s": args.timeout,
            "url_length": url_len, "rules": n_b, "rules_bytes": len(body_b), "missing": missing,
            "results": {c: {k: {m: {"status": s, "value": v} for m, (s, v) in per.items()} for k, per in libs_.items()}
                        for c, libs_ in results.items()},
        }, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
