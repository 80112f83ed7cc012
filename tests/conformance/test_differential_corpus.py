"""Real-world differential test: every (robots.txt, link) pair of the shared corpus, several agents.

The shared corpus (see its README) holds 1,613 robots.txt files as served in 2019
(some invalid UTF-8, some HTML error pages) and, for 1,265 sites, links crawled from the site. Located via
``ROBOTRULES_CORPUS`` or ``../shared/corpus`` from the repository root; the tests skip when it is absent.
robotrules (google mode) must give the reference's allowed AND matching line (SPEC P1-P7, G1-G5, R1-R6, F9).
The work is spread over the CPUs (``ROBOTRULES_DIFF_JOBS`` overrides; 1 runs in-process). The reference
re-parses the file for every query; the links test asks ~667k questions in ~150k reference calls
(:func:`oracle.check_all` asks once per URL for all the agents only the global group decides);
``ROBOTRULES_CORPUS_STRIDE=k`` checks every k-th link only (default 1: all).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import re
from pathlib import Path

import pytest

import robotrules

from . import generate, oracle
from .report import Disagreement, format_report, robotrules_answer

pytestmark = [pytest.mark.oracle, pytest.mark.google_only, pytest.mark.slow]  # the corpus: seconds

FULL_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
LINK_AGENTS: tuple[str | list[str], ...] = (
    "googlebot",
    "Googlebot-Image",
    "bingbot",
    "GPTBot",
    FULL_UA,
    ["googlebot-news", "googlebot"],
)
FILE_AGENTS: tuple[str | list[str], ...] = ("googlebot", "bingbot", ["googlebot-news", "googlebot"])
PATHS_PER_FILE = 8  # "/" and paths made from the file's own rules
STRIDE = max(1, int(os.environ.get("ROBOTRULES_CORPUS_STRIDE", "1")))


def _corpus_dir() -> Path:
    env = os.environ.get("ROBOTRULES_CORPUS")
    if env:
        return Path(env)
    repo = Path(__file__).resolve().parents[2]
    return repo.parent / "shared" / "corpus"


CORPUS = _corpus_dir()
ROBOTFILES = CORPUS / "robotfiles"
LINKS = CORPUS / "links"

needs_corpus = pytest.mark.skipif(
    not ROBOTFILES.is_dir(),
    reason=f"robots.txt corpus not found at {CORPUS} (set ROBOTRULES_CORPUS to its directory)",
)

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_RULE = re.compile(rb"^[ \t]*(?:dis)?allow[ \t]*:?[ \t]*([^\s#]+)", re.IGNORECASE | re.MULTILINE)


def line_text(body: bytes, n: int) -> bytes | None:
    """Line ``n`` (1-based, counted like the reference: CR, LF, CRLF) of the body; None for 0."""
    if n <= 0:
        return None
    lines = _LINE_BREAK.split(body[: oracle.MAX_BODY_BYTES], maxsplit=n)
    return lines[n - 1][:200] if n <= len(lines) else None


def _describe(site: str, body: bytes, expected: tuple[bool, int], got: object) -> str:
    text = f"<robotfiles/{site}: {len(body)} bytes; reference line {expected[1]}: {line_text(body, expected[1])!r}"
    if isinstance(got, tuple):
        text += f"; robotrules line {got[1]}: {line_text(body, got[1])!r}"
    return text + ">"


def _read_links(site: str) -> list[str]:
    raw = (LINKS / site).read_bytes().decode("utf-8", "replace")
    return [u for u in raw.split("\n") if u.strip()][::STRIDE]


def _compare_all(site: str, body: bytes, queries: list[tuple[str | list[str], str]]) -> tuple[int, list[Disagreement]]:
    found: list[Disagreement] = []
    err = None
    try:
        rt = robotrules.parse(body)  # once per site
    except Exception as e:  # parse must never raise (P3)
        rt, err = None, f"parse raised {type(e).__name__}: {e}"
    for (agents, url), expected in zip(queries, oracle.check_all(body, queries), strict=True):
        got = err if rt is None else robotrules_answer(rt, url, agents)
        if got != expected:
            found.append(Disagreement(f"corpus:{site}", _describe(site, body, expected, got), agents, url, expected, got))
    return len(queries), found


def _links_job(site: str) -> tuple[int, list[Disagreement]]:
    body = (ROBOTFILES / site).read_bytes()
    queries = [(agents, url) for url in _read_links(site) for agents in LINK_AGENTS]
    return _compare_all(site, body, queries)


def _file_paths(site: str, body: bytes) -> list[str]:
    """'/' plus paths built from the file's own allow/disallow values (so rules are hit)."""
    rng = random.Random(site)
    values = [m.group(1).decode("utf-8", "surrogateescape") for m in _RULE.finditer(body[: oracle.MAX_BODY_BYTES])]
    paths = ["/"]
    if values:
        step = max(1, len(values) // (PATHS_PER_FILE - 1))
        for v in values[::step][: PATHS_PER_FILE - 1]:
            paths.append(generate.instantiate(rng, generate.PROFILE_SETTINGS["mixed"], v))
    return paths


def _file_job(site: str) -> tuple[int, list[Disagreement]]:
    body = (ROBOTFILES / site).read_bytes()
    queries = [(agents, path) for path in _file_paths(site, body) for agents in FILE_AGENTS]
    return _compare_all(site, body, queries)


def _cost(site: str) -> int:
    links = LINKS / site
    return (ROBOTFILES / site).stat().st_size * (links.stat().st_size if links.exists() else 1)


def _run(job, sites: list[str]) -> tuple[int, list[Disagreement]]:
    sites = sorted(sites, key=_cost, reverse=True)  # big ones first: better balance
    jobs = int(os.environ.get("ROBOTRULES_DIFF_JOBS", "0")) or (os.cpu_count() or 1)
    total, found = 0, []
    if jobs > 1 and "fork" in multiprocessing.get_all_start_methods():
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = list(pool.imap_unordered(job, sites, chunksize=4))
    else:
        results = [job(s) for s in sites]
    for n, f in results:
        total += n
        found += f
    found.sort(key=lambda d: d.where)
    return total, found


@needs_corpus
def test_corpus_links_agree_with_reference_for_six_agents():
    """Every (file, link) pair, 5 agents + one agent list: allowed and matching line as the reference (G2, G5, R1-R6)."""
    sites = [s for s in sorted(os.listdir(LINKS)) if (ROBOTFILES / s).is_file()]
    missing = len(os.listdir(LINKS)) - len(sites)
    total, found = _run(_links_job, sites)
    print(
        f"\ncorpus links: {len(sites)} sites ({missing} without a robots file skipped), {total} comparisons "
        f"({len(LINK_AGENTS)} agents, link stride {STRIDE}), {len(found)} disagreements"
    )
    assert total > 0
    assert not found, format_report(
        "corpus links", found, total, f"Corpus: {CORPUS}. Agents: {LINK_AGENTS!r}"
    )


@needs_corpus
def test_every_corpus_file_parses_and_agrees_on_root_and_rule_paths():
    """Every corpus robots.txt (with or without links) parses without raising (P2, P3) and agrees with the
    reference on '/' and on paths made from its own rules, for 3 agents (G2, R1-R6)."""
    sites = sorted(os.listdir(ROBOTFILES))
    total, found = _run(_file_job, sites)
    print(f"\ncorpus files: {len(sites)} files, {total} comparisons, {len(found)} disagreements")
    assert total >= len(sites)
    assert not found, format_report(
        "corpus files", found, total, f"Corpus: {CORPUS}. Agents: {FILE_AGENTS!r}; paths: '/' + derived from rules"
    )
