"""Instructions per check, counted by valgrind's callgrind: a figure that repeats on a busy machine.

Timings on a shared 2-core machine move by 15% from run to run, more than a change to the check
path saves. callgrind counts the instructions the interpreter runs instead, and counts the same
for the same build and inputs whatever else the machine does. This script runs its own workload
twice under callgrind, with and without the counted loop, and prints the difference divided by
the checks: the instructions of one ``RobotsTxt.allowed`` call (R3 path, G2 selection, R6 match)
on a usual file. Compare two trees by running it with each one's interpreter.

    python bench/check_instructions.py              # needs valgrind (Debian: apt-get install valgrind)
    python bench/check_instructions.py --checks 40000
    python bench/check_instructions.py --corpus      # a check of every corpus link (each site's file parsed once)
    python bench/check_instructions.py --parse       # a parse of every corpus file

With ``--corpus`` or ``--parse`` the workload is the robots.txt corpus (``$ROBOTRULES_CORPUS``, else
``../shared/corpus``, as ``corpus_bench.py`` finds it): instructions per check over every link,
in file order, or per parse of the whole corpus.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

BODY = (b"User-agent: *\nDisallow: /wp-admin/\nAllow: /wp-admin/admin-ajax.php\nDisallow: /search\n"
        b"Disallow: /cart\nDisallow: /*?replytocom\nSitemap: https://www.example.com/sitemap.xml\n")
"""A usual file: a WordPress block with its one allowance, two literal rules and one wildcard."""

URLS = ("https://www.example.com/blog/2024/05/some-post-title/", "https://www.example.com/search?q=x",
        "https://www.example.com/wp-admin/x", "https://www.example.com/")
"""A path no rule matches, two that literal rules disallow (one with a query), and the root; the
wildcard rule is tried for each."""

AGENT = "Googlebot"


def workload(checks: int, counted: bool) -> None:
    """Parse once and warm up (both runs); with ``counted``, ``checks`` more checks."""
    import robotrules

    allowed = robotrules.parse(BODY).allowed
    urls = URLS * (checks // len(URLS))
    for url in urls:
        allowed(url, AGENT)
    if counted:
        for url in urls:
            allowed(url, AGENT)


def load_corpus() -> Any:
    """The robots.txt corpus, read by ``corpus_bench.py`` (loaded from its file: bench/ is no package)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_corpus_bench", Path(__file__).with_name("corpus_bench.py"))
    assert spec is not None and spec.loader is not None
    corpus_bench = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = corpus_bench  # dataclasses look their module up there
    spec.loader.exec_module(corpus_bench)
    return corpus_bench.load_corpus(corpus_bench.default_corpus())


def corpus_workload(kind: str, counted: bool) -> int:
    """The corpus workloads: load the corpus and (``check``) parse each site's file and check its
    links once; when ``counted``, check every link again, or (``parse``) parse every file once.
    Returns how many checks or parses were counted."""
    import robotrules

    corpus = load_corpus()
    if kind == "parse":
        if counted:
            for body in corpus.raw:
                robotrules.parse(body)
        return len(corpus.raw)
    sites = [(robotrules.parse(corpus.raw[index]).allowed, links)
             for index, links in zip(corpus.site_index, corpus.links, strict=True)]
    for allowed, links in sites:
        for url in links:
            allowed(url, "googlebot")
    if counted:
        for allowed, links in sites:
            for url in links:
                allowed(url, "googlebot")
    return corpus.n_links


def instructions(checks: int, counted: bool, workload_name: str = "usual") -> int:
    """The instructions callgrind counts for one run of this script's workload."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, __file__,
             "--inner", "counted" if counted else "base", "--checks", str(checks), "--workload", workload_name],
            capture_output=True, text=True, check=False)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"check_instructions: valgrind failed: {done.stderr.strip()[-500:]}")
    return int(found.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checks", type=int, default=20_000, help="checks counted (default 20,000)")
    parser.add_argument("--corpus", action="store_const", dest="workload", const="check",
                        help="count a check of every corpus link instead")
    parser.add_argument("--parse", action="store_const", dest="workload", const="parse",
                        help="count a parse of every corpus file instead")
    parser.add_argument("--inner", choices=("base", "counted"), help=argparse.SUPPRESS)
    parser.add_argument("--workload", default="usual", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    workload_name = args.workload or "usual"
    if args.inner is not None:
        if workload_name == "usual":
            workload(args.checks, args.inner == "counted")
        else:
            corpus_workload(workload_name, args.inner == "counted")
        return 0
    if shutil.which("valgrind") is None:
        print("check_instructions: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    import robotrules

    core = "compiled" if robotrules.core.COMPILED else "pure Python"
    head = f"robotrules {robotrules.__version__} ({core} core), Python {sys.version.split()[0]}: "
    if workload_name != "usual":
        corpus = load_corpus()
        count = len(corpus.raw) if workload_name == "parse" else corpus.n_links
        spent = instructions(0, True, workload_name) - instructions(0, False, workload_name)
        if workload_name == "parse":
            print(f"{head}{spent / 1e6:,.1f} M instructions per parse of the whole corpus ({count:,} files)")
        else:
            print(f"{head}{spent / count:,.0f} instructions per check ({count:,} corpus links, each once)")
        return 0
    checks = args.checks - args.checks % len(URLS)
    per_check = (instructions(checks, True) - instructions(checks, False)) / checks
    print(f"{head}{per_check:,.0f} instructions per check ({checks:,} checks counted by callgrind)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
