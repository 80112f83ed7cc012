#!/usr/bin/env python3
"""Batch benchmark (issue #11): deciding millions of (url, agent) rows against a crawl archive.

    python bench/batch_bench.py [--rows N] [--peer-rows M] [--quick] [--no-spark] [--corpus PATH]
                                [--spark-master local[2]] [--spark-inputs urls,pairs] [--spark-shuffle]
                                [--audit-sites N] [--no-audit] [--workdir DIR] [--json OUT]
                                [--markdown OUT] [--quiet]

1. The shared corpus is written as a WARC file of robots.txt captures with the mix a crawl
   archive has: mostly 200, redirects (http->https on the site, to www., and chains that cross
   hosts), 404, 503 and 500, failed fetches (metadata records with an error), sites never
   captured; the real bodies include HTML error pages served with 200.
2. Rows: the corpus links x a set of agents, scaled up synthetically to ``--rows`` (default 10
   million, rounded up to whole URLs) by cycling with a ``?r=<n>`` query per round; generated
   lazily, never held at once. The engines get the URLs and the agents (as the CLI's
   ``--urls`` and ``--agent`` give them); the peer loops get the same rows as (url, agent) pairs.
3. Measured in one run, on the same stream of rows:
   - the local engine (``robotrules.batch.rows``, reading the WARC itself) with 1 and 2 processes,
     the decided rows counted as the CLI counts them (allowed, disallowed, unknown);
   - the whole CLI job in one process (``robotrules.batch.run``: a text file of URLs in, a Parquet
     file of rows out; the URL file is written before the clock starts);
   - Spark in local mode (``--spark-master``, default ``local[2]``: two cores, as the local engine's
     two processes), ``robotrules.spark.decide`` with the output discarded by the ``noop`` writer
     (session start-up reported apart): the same input as the local engine, a Parquet file of the
     URLs and the agents of the job ("urls"), and the same rows as (url, agent) pairs ("pairs");
     with ``--spark-shuffle``, also the shuffle path that large archives take (``broadcast_limit=0``);
   - protego doing the same job: ``Protego.parse`` once per robots.txt body, ``can_fetch`` per row;
   - robotrules' bare in-memory loops, with the same per-row lookup as the protego loop and no
     batch machinery: ``parse`` once per robots.txt, then ``RobotsTxt.allowed`` per row, or
     ``RobotsTxt.verdicts`` per URL (every agent's verdict and line: the engine's own floor).
   Peers and the bare loops run on the first ``--peer-rows`` rows (default 1 million) of the same
   stream; rows per second are compared. Peak memory is the RSS of the whole process tree
   (workers, the JVM) sampled every 50 ms during each phase.
4. Audits, side by side in the same run (``--no-audit`` skips them): the archive of the rows
   (or, with ``--audit-sites N`` above the corpus' count, the corpus bodies written again under
   more host names, each with its scenario), audited for the registry's crawlers (``robotrules
   audit``'s default agents) by the local engine with 1 and 2 processes and by Spark; rows are
   sites x agents.
5. ``--rounds K``: the engine jobs (local, Spark) and the audits run K times, taking turns, and
   each keeps its best run: on a shared machine, a change of load then hits every engine alike.
   Spark's session start and one small warm-up job (its Python workers started) are timed apart.

Targets (issue #11): local engine (1 process) >= 5x protego's rows/s; its time per row <= 3x the
bare verdicts loop's. Issue #20: Spark (two cores) at least half the rows/s of the local engine
with two processes, for rows and for audits. Reported as met / not met; the script never fails
because a target is missed.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import itertools
import json
import os
import platform
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
AGENTS = ("googlebot", "GPTBot", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "*")
CAPTURED_AT = 1_700_000_000.0
TARGETS = {"vs_protego": (">=", 5.0), "overhead_vs_bare": ("<=", 3.0), "spark_vs_local": (">=", 0.5),
           "spark_audit_vs_local": (">=", 0.5)}


def default_corpus() -> Path:
    env = os.environ.get("ROBOTRULES_CORPUS")
    return Path(env) if env else (REPO_ROOT / ".." / "shared" / "corpus").resolve()


# --------------------------------------------------------------------------- archive


def scenario(site: str) -> str:
    """A stable status mix from the site's name: what a crawl archive holds."""
    n = int(hashlib.sha1(site.encode()).hexdigest()[:8], 16) % 100
    if n < 72:
        return "ok"
    if n < 78:
        return "to-www"  # 301 to https://www.<site>/robots.txt
    if n < 82:
        return "from-http"  # the link is http://, robots.txt 301 -> https://
    if n < 84:
        return "cross-host"  # 302 -> another host -> 301 -> its /robots.txt
    if n < 90:
        return "404"
    if n < 93:
        return "503"
    if n < 95:
        return "500"
    if n < 97:
        return "failed"  # no response: a metadata record with an error
    return "uncaptured"


def write_archive(corpus: Path, sites: list[str], path: Path, copies: int = 1) -> dict[str, int]:
    """Write the robots.txt captures of ``sites`` to a WARC.gz file; the count of each scenario.
    ``copies`` > 1 writes each site's file again under more host names (``c<k>.<site>``), each
    with its own scenario (for audits of more sites than the corpus has)."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    date = datetime.fromtimestamp(CAPTURED_AT, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    counts: dict[str, int] = {}
    with open(path, "wb") as stream:
        writer = WARCWriter(stream, gzip=True)

        def response(url: str, status: int, headers: list[tuple[str, str]], body: bytes = b"") -> None:
            http = StatusAndHeaders(f"{status} X", [*headers, ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http,
                                                          warc_headers_dict={"WARC-Date": date}))

        hosts = [(site if k == 0 else f"c{k}.{site}", site) for k in range(copies) for site in sites]
        for site, name in hosts:
            kind = scenario(site)
            counts[kind] = counts.get(kind, 0) + 1
            body = (corpus / "robotfiles" / name).read_bytes()
            home = f"https://{site}/robots.txt"
            if kind == "ok":
                response(home, 200, [("Content-Type", "text/plain")], body)
            elif kind == "to-www":
                response(home, 301, [("Location", f"https://www.{site}/robots.txt")])
                response(f"https://www.{site}/robots.txt", 200, [("Content-Type", "text/plain")], body)
            elif kind == "from-http":
                response(f"http://{site}/robots.txt", 301, [("Location", home)])
                response(home, 200, [("Content-Type", "text/plain")], body)
            elif kind == "cross-host":
                response(home, 302, [("Location", f"https://cdn.{site}.example/r")])
                response(f"https://cdn.{site}.example/r", 301, [("Location", "/robots.txt")])
                response(f"https://cdn.{site}.example/robots.txt", 200, [], body)
            elif kind in ("404", "503", "500"):
                response(home, int(kind), [("Content-Type", "text/html")], b"<html><body>error</body></html>")
            elif kind == "failed":
                record = writer.create_warc_record(home, "metadata", payload=io.BytesIO(b"fetch-error: connect timed out\r\n"),
                                                   warc_content_type="application/warc-fields",
                                                   warc_headers_dict={"WARC-Date": date})
                writer.write_record(record)
    return counts


def load_sites(corpus: Path, limit: int | None) -> tuple[list[str], list[list[str]]]:
    """Sites with a robots.txt and links, and their links (the "from-http" sites' links become http://)."""
    names = sorted(p.name for p in (corpus / "links").iterdir() if (corpus / "robotfiles" / p.name).is_file())
    sites, links = [], []
    for site in names[:limit] if limit else names:
        found = [line.strip() for line in (corpus / "links" / site).read_text(errors="replace").splitlines() if line.strip()]
        if not found:
            continue
        if scenario(site) == "from-http":
            found = ["http://" + u.split("://", 1)[1] if u.startswith("https://") else u for u in found]
        sites.append(site)
        links.append(found)
    return sites, links


def url_stream(links: list[list[str]], total: int) -> Iterator[str]:
    """The URLs of ``total`` rows (``total`` / len(AGENTS), rounded up): every link, site by site,
    then again with ``?r=<round>`` (``&r=`` when the link has a query), and so on. Lazy."""
    flat = [u for site in links for u in site]
    wanted = -(-total // len(AGENTS))
    for rnd in itertools.count():
        for link in flat:
            if wanted <= 0:
                return
            yield f"{link}{'&' if '?' in link else '?'}r={rnd}" if rnd else link
            wanted -= 1


def row_stream(links: list[list[str]], total: int) -> Iterator[tuple[str, str]]:
    """The same rows as (url, agent) pairs: each URL of :func:`url_stream` with every agent."""
    for url in url_stream(links, total):
        for agent in AGENTS:
            yield url, agent


# --------------------------------------------------------------------------- memory


class TreeRSS:
    """Peak resident memory of this process and all its descendants, sampled in a thread; with
    ``skip_java``, without a JVM and its children (an idle Spark session kept for later jobs)."""

    def __init__(self, interval: float = 0.05, skip_java: bool = False) -> None:
        self.interval = interval
        self.skip_java = skip_java
        self.peak = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def now(self) -> int:
        children: dict[int, list[int]] = {}
        rss: dict[int, int] = {}
        java: set[int] = set()
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    name, rest = handle.read().split("(", 1)[1].rsplit(")", 1)
                fields = rest.split()
                children.setdefault(int(fields[1]), []).append(int(entry))
                rss[int(entry)] = int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
                if name == "java":
                    java.add(int(entry))
            except (OSError, IndexError, ValueError):
                continue
        total, todo = 0, [os.getpid()]
        while todo:
            pid = todo.pop()
            if self.skip_java and pid in java:
                continue
            total += rss.get(pid, 0)
            todo.extend(children.get(pid, ()))
        return total

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.now())
            self._stop.wait(self.interval)

    def __enter__(self) -> TreeRSS:
        self.peak = self.now()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, self.now())


@dataclass
class Result:
    name: str
    rows: int
    seconds: float
    peak_rss: int
    note: str = ""

    @property
    def rows_per_second(self) -> float:
        return self.rows / self.seconds if self.seconds else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "rows": self.rows, "seconds": round(self.seconds, 3),
                "rows_per_second": round(self.rows_per_second), "peak_rss_mib": round(self.peak_rss / 2**20, 1),
                "note": self.note}


def timed(name: str, job: Callable[[], int], note: str = "") -> Result:
    with TreeRSS(skip_java=not name.startswith("spark")) as mem:
        start = time.perf_counter()
        rows = job()
        seconds = time.perf_counter() - start
    return Result(name, rows, seconds, mem.peak, note)


# --------------------------------------------------------------------------- jobs


def local_job(warc: Path, links: list[list[str]], total: int, processes: int) -> Callable[[], int]:
    def run() -> int:
        from robotrules import batch
        from robotrules.batch.engine import Counts

        counts = Counts()
        for chunk in batch.rows(url_stream(links, total), AGENTS, [str(warc)], processes=processes):
            counts.add(chunk)
        return counts.rows

    return run


def file_job(warc: Path, links: list[list[str]], total: int, workdir: Path) -> Callable[[], int]:
    """The CLI's job: URLs from a text file, rows to a Parquet file (the URL file is written first)."""
    urls = workdir / "urls.txt"
    with open(urls, "w", encoding="utf-8") as handle:
        handle.writelines(url + "\n" for url in url_stream(links, total))

    def run() -> int:
        from robotrules import batch

        return batch.run(urls, workdir / "rows.parquet", AGENTS, [str(warc)], processes=1).rows

    return run


def bodies_by_robots_url(warc: Path) -> dict[str, bytes]:
    """For the peer loops: each robots URL's final 200 body after its captured redirects (what a
    crawler would have parsed), decided by robotrules' archive so every loop parses the same files."""
    from robotrules.batch.captures import keeping as archives
    from robotrules.batch.engine import governing

    archive = archives.archive_of(str(warc))
    from robotrules.core.policy import Policy

    out: dict[str, bytes] = {}
    for url in list(archive.robots_urls()):
        entry = archive.entry(url)
        if entry is not None:
            gov = governing(url, entry, Policy(), entry.fetched_at)
            out[url] = entry.body if gov.kind == "rules" else (b"" if gov.kind == "allow" else b"User-agent: *\nDisallow: /\n")
    return out


def _origin_key(url: str) -> str:
    """The peer loops' lookup of a URL's robots.txt: scheme://host/robots.txt by string slicing."""
    start = url.find("://")
    end = url.find("/", start + 3)
    return (url if end < 0 else url[:end]) + "/robots.txt"


def protego_job(bodies: dict[str, bytes], links: list[list[str]], total: int) -> Callable[[], int]:
    def run() -> int:
        from protego import Protego

        parsed: dict[str, Any] = {}
        count = 0
        for url, agent in row_stream(links, total):
            key = _origin_key(url)
            robots = parsed.get(key)
            if robots is None:
                robots = parsed[key] = Protego.parse(bodies.get(key, b"").decode("utf-8", "replace"))
            robots.can_fetch(url, agent)
            count += 1
        return count

    return run


def bare_job(bodies: dict[str, bytes], links: list[list[str]], total: int) -> Callable[[], int]:
    """robotrules' simplest loop: ``RobotsTxt.allowed`` once per (url, agent) row."""
    def run() -> int:
        import robotrules

        parsed: dict[str, Any] = {}
        tokens = {agent: robotrules.user_agent_token(agent) for agent in AGENTS}  # as the engines match them
        count = 0
        for url, agent in row_stream(links, total):
            key = _origin_key(url)
            robots = parsed.get(key)
            if robots is None:
                robots = parsed[key] = robotrules.parse(bodies.get(key, b""))
            robots.allowed(url, tokens[agent])
            count += 1
        return count

    return run


def verdicts_job(bodies: dict[str, bytes], links: list[list[str]], total: int) -> Callable[[], int]:
    """robotrules' fastest in-memory loop, the floor of the engine's cost: ``RobotsTxt.verdicts``
    once per URL for all its agents (each agent's verdict and deciding line)."""
    def run() -> int:
        import robotrules
        from robotrules.core.agents import user_agent_token

        tokens = [user_agent_token(agent) for agent in AGENTS]
        parsed: dict[str, Any] = {}
        count = 0
        for url in url_stream(links, total):
            key = _origin_key(url)
            robots = parsed.get(key)
            if robots is None:
                robots = parsed[key] = robotrules.parse(bodies.get(key, b""))
            count += len(robots.verdicts(url, tokens))
        return count

    return run


def spark_session(master: str) -> tuple[Any, float]:
    """A local Spark session on ``master`` (its start-up time apart)."""
    from robotrules import spark as rs

    start = time.perf_counter()
    cores = os.cpu_count() or 1
    if master.startswith("local[") and master[6:-1].isdigit():
        cores = int(master[6:-1])
    spark = rs.session(master, shuffle_partitions=max(2, 2 * cores), conf={"spark.driver.memory": "4g"})
    return spark, time.perf_counter() - start


def spark_inputs(links: list[list[str]], total: int, workdir: Path) -> dict[str, Path]:
    """The URL tables of the Spark jobs, as Parquet (written before any clock starts): "urls", the
    URLs alone (decided for every agent of the job, as the local engine gets them), and "pairs",
    the same rows as (url, agent) pairs."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    paths = {"urls": workdir / "urls.parquet", "pairs": workdir / "pairs.parquet"}
    with pq.ParquetWriter(paths["urls"], pa.schema([("url", pa.string())])) as writer:
        stream = url_stream(links, total)
        while block := list(itertools.islice(stream, 100_000)):
            writer.write_table(pa.table({"url": pa.array(block, pa.string())}))
    schema = pa.schema([("url", pa.string()), ("agent", pa.string())])
    with pq.ParquetWriter(paths["pairs"], schema) as writer:
        pairs = row_stream(links, total)
        while block2 := list(itertools.islice(pairs, 400_000)):
            writer.write_table(pa.Table.from_arrays([pa.array([u for u, _ in block2]), pa.array([a for _, a in block2])],
                                                    schema=schema))
    return paths


def spark_job(spark: Any, warc: Path, table: Path, total: int, *, agents: bool,
              broadcast_limit: int | None = None) -> Callable[[], int]:
    """``robotrules.spark.decide`` of ``table`` against the WARC, the output discarded (``noop``)."""
    def run() -> int:
        from robotrules import spark as rs

        frame = rs.decide(spark.read.parquet(str(table)), [str(warc)], list(AGENTS) if agents else None,
                          broadcast_limit=broadcast_limit)
        frame.write.format("noop").mode("overwrite").save()
        return total

    return run


def spark_warm_up(spark: Any, warc: Path) -> float:
    """One small job before any clock starts (the Python workers started, robotrules imported in
    them, the JVM's first compilations): its seconds."""
    from robotrules import spark as rs

    start = time.perf_counter()
    urls = spark.createDataFrame([(f"https://example.com/{n}",) for n in range(1000)], "url string")
    rs.decide(urls, [str(warc)], list(AGENTS)).write.format("noop").mode("overwrite").save()
    return time.perf_counter() - start


def best_of(jobs: list[tuple[str, Callable[[], int], str]], rounds: int,
            say: Callable[..., None]) -> list[Result]:
    """Each job's best run of ``rounds``, the jobs taking turns in every round (so that a change in
    the load of a shared machine hits them all alike)."""
    best: dict[str, Result] = {}
    for number in range(rounds):
        for name, job, note in jobs:
            say(f"{name} (round {number + 1} of {rounds}) ...")
            result = timed(name, job, note)
            held = best.get(name)
            if held is None or result.seconds < held.seconds:
                best[name] = result
    return [best[name] for name, _, _ in jobs]


def local_audit_job(warc: Path, agents: tuple[str, ...], processes: int) -> Callable[[], int]:
    def run() -> int:
        from robotrules.batch.audit import audit_rows

        return sum(1 for _ in audit_rows(warc, agents, processes=processes))

    return run


def spark_audit_job(spark: Any, warc: Path, agents: tuple[str, ...]) -> Callable[[], int]:
    def run() -> int:
        from robotrules import spark as rs

        return int(rs.audit(spark, [str(warc)], list(agents)).count())

    return run


# --------------------------------------------------------------------------- report


def report(results: list[Result], meta: dict[str, Any]) -> dict[str, Any]:
    by = {r.name: r for r in results}
    local1, protego = by.get("local, 1 process"), by.get("protego loop")
    bare = by.get("bare verdicts loop") or by.get("bare check loop")
    summary: dict[str, Any] = {}
    if local1 and protego:
        ratio = local1.rows_per_second / protego.rows_per_second
        summary["vs_protego"] = {"value": round(ratio, 2), "target": ">= 5", "met": ratio >= 5.0}
    for name, key in (("local, 2 processes", "vs_protego_2_processes"), ("local, 1 process, file to Parquet",
                                                                          "vs_protego_file_job")):
        if by.get(name) and protego:
            summary[key] = {"value": round(by[name].rows_per_second / protego.rows_per_second, 2)}
    if local1 and bare:
        ratio = bare.rows_per_second / local1.rows_per_second
        summary["overhead_vs_bare"] = {"value": round(ratio, 2), "target": "<= 3", "met": ratio <= 3.0,
                                       "bare": bare.name}
    local2, spark = by.get("local, 2 processes"), next((r for r in results if r.name.startswith("spark ")
                                                         and "urls" in r.name), None)
    if local2 and spark:
        ratio = spark.rows_per_second / local2.rows_per_second
        summary["spark_vs_local"] = {"value": round(ratio, 2), "target": ">= 0.5", "met": ratio >= 0.5,
                                     "spark": spark.name}
    for r in results:
        if r.name.startswith("spark ") and r is not spark and not r.name.startswith("spark audit") and local2:
            summary[f"spark_vs_local: {r.name}"] = {"value": round(r.rows_per_second / local2.rows_per_second, 2),
                                                    "spark": r.name}
    audit2 = by.get("audit, local, 2 processes")
    spark_audit = next((r for r in results if r.name.startswith("spark audit")), None)
    if audit2 and spark_audit:
        ratio = spark_audit.rows_per_second / audit2.rows_per_second
        summary["spark_audit_vs_local"] = {"value": round(ratio, 2), "target": ">= 0.5", "met": ratio >= 0.5,
                                           "spark": spark_audit.name}
    return {"meta": meta, "results": [r.to_dict() for r in results], "summary": summary}


def markdown(data: dict[str, Any]) -> str:
    lines = ["| Job | Rows | Seconds | Rows/s | Peak RSS (MiB) | Note |", "| --- | ---: | ---: | ---: | ---: | --- |"]
    for r in data["results"]:
        lines.append(f"| {r['name']} | {r['rows']:,} | {r['seconds']:.1f} | {r['rows_per_second']:,} | "
                     f"{r['peak_rss_mib']:,} | {r['note']} |")
    lines.append("")
    labels = {"vs_protego_2_processes": "local (2 processes) rows/s / protego rows/s",
              "vs_protego_file_job": "whole job to Parquet (1 process) rows/s / protego rows/s"}
    for key, s in data["summary"].items():
        if key in labels:
            lines.append(f"- {labels[key]}: **{s['value']}**")
            continue
        if key == "vs_protego":
            label = "local (1 process) rows/s / protego rows/s"
        elif key == "overhead_vs_bare":
            label = f"{s.get('bare', 'bare loop')} rows/s / local (1 process) rows/s"
        elif key.startswith("spark_vs_local"):
            label = f"{s['spark']} rows/s / local (2 processes) rows/s"
        else:
            label = f"{s['spark']} rows/s / audit, local (2 processes) rows/s"
        if "target" not in s:
            lines.append(f"- {label}: **{s['value']}**")
            continue
        lines.append(f"- {label}: **{s['value']}** (target {s['target']}: {'met' if s['met'] else 'NOT met'})")
    m = data["meta"]
    lines.append(f"- {m['sites']} sites, {m['links']:,} links x {len(AGENTS)} agents; archive mix: {m['mix']}; "
                 f"{m['cpus']} CPUs, Python {m['python']}, {m['platform']}; core: "
                 f"{'compiled' if m.get('compiled') else 'pure Python'}")
    if m.get("audit_sites"):
        lines.append(f"- audits: {m['audit_sites']:,} sites x {m['audit_agents']} agents (the registry's crawlers "
                     f"and *); archive mix: {m['audit_mix']}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=10_000_000, help="rows for the engines (default 10 million)")
    parser.add_argument("--peer-rows", type=int, default=1_000_000, help="rows for protego and the bare loop")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 50,000 rows, 20,000 for the peers")
    parser.add_argument("--limit", type=int, default=None, help="only the first N sites (by name)")
    parser.add_argument("--no-spark", action="store_true", help="skip the Spark engine")
    parser.add_argument("--spark-master", default="local[2]", help="the Spark master (default local[2])")
    parser.add_argument("--spark-inputs", default="urls,pairs",
                        help="Spark URL tables: urls (URLs + the job's agents), pairs ((url, agent) rows)")
    parser.add_argument("--spark-shuffle", action="store_true",
                        help="also time Spark's shuffle path (broadcast_limit=0), on the urls table")
    parser.add_argument("--audit-sites", type=int, default=0,
                        help="sites of the audit archive (default: the corpus sites, in the archive of the rows)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="runs of each engine job, taking turns; the best is kept (default 1)")
    parser.add_argument("--no-audit", action="store_true", help="skip the audits")
    parser.add_argument("--no-file", action="store_true", help="skip the whole-job run (URL file to Parquet)")
    parser.add_argument("--processes", default="1,2", help="local engine process counts (default 1,2)")
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--workdir", type=Path, default=None, help="where the WARC and Parquet go (default: a temp dir)")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--markdown", type=Path, default=None)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.rows, args.peer_rows = min(args.rows, 50_000), min(args.peer_rows, 20_000)
    args.rows, args.peer_rows = (-(-n // len(AGENTS)) * len(AGENTS) for n in (args.rows, args.peer_rows))  # whole URLs
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    if not (args.corpus / "robotfiles").is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="batch-bench-") as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        sites, links = load_sites(args.corpus, args.limit)
        warc = workdir / "robots.warc.gz"
        mix = write_archive(args.corpus, sites, warc)
        say(f"archive: {warc} ({warc.stat().st_size / 2**20:.1f} MiB), {len(sites)} sites, mix {mix}")
        results: list[Result] = []
        # The peers first, so that no job before them leaves memory behind that slows them down.
        bodies = bodies_by_robots_url(warc)
        try:
            import protego  # noqa: F401

            say(f"protego loop, {args.peer_rows:,} rows ...")
            results.append(timed("protego loop", protego_job(bodies, links, args.peer_rows), "parse once per robots.txt"))
        except ImportError:
            say("protego is not installed: skipped")
        say(f"bare check loops, {args.peer_rows:,} rows ...")
        results.append(timed("bare check loop", bare_job(bodies, links, args.peer_rows),
                             "robotrules.parse + allowed() per row"))
        results.append(timed("bare verdicts loop", verdicts_job(bodies, links, args.peer_rows),
                             "robotrules.parse + verdicts() per URL"))
        processes = [int(p) for p in args.processes.split(",") if p]
        engines: list[tuple[str, Callable[[], int], str]] = [
            (f"local, {n} process{'es' if n > 1 else ''}", local_job(warc, links, args.rows, n),
             "reads the WARC, judges each robots.txt by the fetch policy") for n in processes]
        spark: Any = None
        if not args.no_spark:
            try:
                import pyspark  # noqa: F401
            except ImportError:
                say("pyspark is not installed: Spark skipped")
            else:
                spark, startup = spark_session(args.spark_master)
                tables = spark_inputs(links, args.rows, workdir)
                warm = spark_warm_up(spark, warc)
                note = f"session start {startup:.1f} s and a warm-up job {warm:.1f} s not included"
                for kind in [k for k in args.spark_inputs.split(",") if k]:
                    engines.append((f"spark {args.spark_master}, {kind}",
                                    spark_job(spark, warc, tables[kind], args.rows, agents=kind == "urls"), note))
                if args.spark_shuffle:
                    engines.append((f"spark {args.spark_master}, urls, shuffle path",
                                    spark_job(spark, warc, tables["urls"], args.rows, agents=True, broadcast_limit=0),
                                    "broadcast_limit=0: the path of archives too large to send to every task"))
        try:
            results.extend(best_of(engines, args.rounds, say))
            if not args.no_file:
                say(f"local engine, whole job to Parquet, {args.rows:,} rows ...")
                job = file_job(warc, links, args.rows, workdir)
                results.append(timed("local, 1 process, file to Parquet", job, "URL file in, Parquet rows out"))
            audit_meta: dict[str, Any] = {}
            if not args.no_audit:
                from robotrules.batch.audit import default_agents

                copies = max(1, -(-args.audit_sites // len(sites)))
                audit_warc = warc
                audit_mix = mix
                if copies > 1:
                    audit_warc = workdir / "audit.warc.gz"
                    audit_mix = write_archive(args.corpus, sites, audit_warc, copies)
                names = default_agents()
                count = sum(audit_mix.values())
                audit_meta = {"audit_sites": count, "audit_agents": len(names), "audit_mix": audit_mix}
                say(f"audit archive: {audit_warc} ({audit_warc.stat().st_size / 2**20:.1f} MiB), {count:,} sites")
                audits: list[tuple[str, Callable[[], int], str]] = [
                    (f"audit, local, {n} process{'es' if n > 1 else ''}", local_audit_job(audit_warc, names, n),
                     "robotrules.batch.audit.sites.audit_rows") for n in processes]
                if spark is not None:
                    audits.append((f"spark audit, {args.spark_master}", spark_audit_job(spark, audit_warc, names),
                                   "robotrules.spark.audit, rows counted"))
                results.extend(best_of(audits, args.rounds, say))
        finally:
            if spark is not None:
                spark.stop()
    import robotrules

    meta = {"rows": args.rows, "peer_rows": args.peer_rows, "sites": len(sites), "links": sum(map(len, links)),
            "agents": list(AGENTS), "mix": mix, "cpus": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform(), "compiled": robotrules.core.COMPILED,
            "when": datetime.now(timezone.utc).isoformat(timespec="seconds"), "spark_master": args.spark_master,
            **audit_meta}
    data = report(results, meta)
    text = markdown(data)
    print(text)
    if args.json:
        args.json.write_text(json.dumps(data, indent=2) + "\n")
    if args.markdown:
        args.markdown.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
