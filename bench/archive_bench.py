#!/usr/bin/env python3
"""Archive benchmark (issue #20, section 4): captures per second read from a robots.txt WARC.

    python bench/archive_bench.py [--captures N] [--quick] [--repeat K] [--corpus PATH]
                                  [--readers fastwarc,stream,fast] [--no-audit] [--audit-readers fast,stream]
                                  [--audit-captures N] [--agents A,B] [--memory] [--workdir DIR]
                                  [--json OUT] [--markdown OUT] [--quiet]

1. The shared corpus is written as one ``.warc.gz`` file of ``--captures`` robots.txt captures
   (default 200,000) laid out as Common Crawl's ``robotstxt/`` WARC files are: a ``warcinfo``
   record, then for each fetch a ``request`` record and its ``response`` (``WARC-Payload-Digest``,
   ``WARC-Block-Digest``, ``WARC-IP-Address``, ``WARC-Concurrent-To``; the server's
   ``Content-Encoding`` and ``Content-Length`` kept as ``X-Crawler-*`` over the decoded body, as
   Common Crawl stores them), one gzip member a record. The corpus bodies are used again under
   more host names (``c<k>.<site>``); each host gets the status mix of ``bench/batch_bench.py``
   (mostly 200, redirects within and across hosts, 404, 503, 500, failed fetches as ``metadata``
   records). A capture is a response or a failed fetch: what the archive reader gives out.
2. Measured in one process, in the same run, the readers taking turns (best of ``--repeat``):
   - fastwarc's own iteration (``ArchiveIterator`` over the file, HTTP headers parsed, each
     payload read): the floor, what the C++ reader costs with none of our guarantees;
   - reading the captures, ``robotrules.batch.inputs.warc.captures.read_warc`` (bounded bodies, damage found
     and placed), with each reader of :mod:`robotrules.batch.inputs.warc.reading`: ``warcio`` and ``fast``
     (fastwarc, when it is installed);
   - the whole audit, ``robotrules.batch.audit.sites.audit_rows(path, processes=1)``, for the
     registry's crawlers and ``*`` (the ``robotrules audit`` default) or ``--agents``: reading,
     the fetch policy replayed over the captures, every robots.txt parsed and classified, with
     each reader. ``--audit-captures N`` audits an archive of N captures written the same way
     (the audit of every crawler is far slower than reading). A file larger than the in-memory
     limit of :func:`~robotrules.batch.captures.keeping.archive_of` (128 MiB) has its captures put in a
     temporary index on disk, as ``robotrules audit`` does; ``--memory`` keeps them in memory.
   Decompression is included everywhere (the file is record-level gzip).

Target (issue #20): the reading rate at least 7,600 captures/s on one core (what a Rust crate
reading Common Crawl's robots.txt WARCs reports on a laptop). Reported as met / not met; the
script never fails because a target is missed.
"""

from __future__ import annotations

import argparse
import base64
import gc
import hashlib
import json
import os
import platform
import sys
import tempfile
import time
import uuid
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
TARGET = 7_600.0  # captures/s on one core: the Rust crate's figure (issue #20)
START = datetime(2024, 5, 1, 12, 0, 0, tzinfo=timezone.utc)


def default_corpus() -> Path:
    env = os.environ.get("ROBOTRULES_CORPUS")
    return Path(env) if env else (REPO_ROOT / ".." / "shared" / "corpus").resolve()


def scenario(site: str) -> str:
    """The status mix of ``bench/batch_bench.py``, from the site's name (stable from run to run)."""
    n = int(hashlib.sha1(site.encode()).hexdigest()[:8], 16) % 100
    for bound, kind in ((72, "ok"), (78, "to-www"), (82, "from-http"), (84, "cross-host"), (90, "404"),
                        (93, "503"), (95, "500"), (97, "failed")):
        if n < bound:
            return kind
    return "uncaptured"


def _digest(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode()


class Writer:
    """Common-Crawl-shaped records, one gzip member each (see the module)."""

    def __init__(self, handle: Any) -> None:
        self.handle = handle
        self.count = 0  # captures: responses and failed fetches
        self.records = 0
        self.info = f"<urn:uuid:{uuid.uuid4()}>"
        self.record("warcinfo", None, b"software: robotrules archive_bench\r\nformat: WARC File Format 1.0\r\n",
                    [("Content-Type", "application/warc-fields"), ("WARC-Filename", "robots.warc.gz")], START)

    def record(self, kind: str, uri: str | None, block: bytes, extra: list[tuple[str, str]], when: datetime,
               record_id: str | None = None) -> str:
        record_id = record_id or f"<urn:uuid:{uuid.uuid4()}>"
        self.records += 1
        fields = [("WARC-Type", kind), ("WARC-Date", when.strftime("%Y-%m-%dT%H:%M:%SZ")),
                  ("WARC-Record-ID", record_id), ("Content-Length", str(len(block)))]
        if kind != "warcinfo":
            fields.append(("WARC-Warcinfo-ID", self.info))
        fields += extra
        if uri is not None:
            fields.append(("WARC-Target-URI", uri))
        head = ("WARC/1.0\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields) + "\r\n").encode()
        packer = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        self.handle.write(packer.compress(head) + packer.compress(block) + packer.compress(b"\r\n\r\n") + packer.flush())
        return record_id

    def fetch(self, url: str, status: int, headers: list[tuple[str, str]], body: bytes, when: datetime,
              encoded: bool = False) -> None:
        """A request record and its response."""
        host = url.split("/")[2]
        path = "/" + url.split("/", 3)[3] if url.count("/") > 2 else "/"
        request = (f"GET {path} HTTP/1.1\r\nUser-Agent: CCBot/2.0 (https://commoncrawl.org/faq/)\r\n"
                   "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n"
                   f"Accept-Language: en-US,en;q=0.5\r\nAccept-Encoding: br,gzip\r\nHost: {host}\r\n"
                   "Connection: Keep-Alive\r\n\r\n").encode()
        ip = ".".join(str(byte) for byte in hashlib.md5(host.encode()).digest()[:4])
        request_id = self.record("request", url, request, [("Content-Type", "application/http; msgtype=request"),
                                                           ("WARC-IP-Address", ip)], when)
        http = [("Date", format_datetime(when, usegmt=True)), ("Server", "nginx"), *headers]
        if encoded:  # the body came gzipped: Common Crawl keeps the decoded body, the headers renamed
            http += [("X-Crawler-Content-Encoding", "gzip"), ("X-Crawler-Content-Length", str(len(body) // 3 + 20))]
        http += [("Content-Length", str(len(body))), ("Connection", "keep-alive")]
        reason = {200: "OK", 301: "Moved Permanently", 302: "Found", 404: "Not Found", 500: "Internal Server Error",
                  503: "Service Unavailable"}.get(status, "X")
        block = (f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in http) + "\r\n").encode() + body
        self.record("response", url, block, [("Content-Type", "application/http; msgtype=response"),
                                             ("WARC-Concurrent-To", request_id), ("WARC-IP-Address", ip),
                                             ("WARC-Payload-Digest", _digest(body)), ("WARC-Block-Digest", _digest(block)),
                                             ("WARC-Identified-Payload-Type", "text/plain")], when)
        self.count += 1

    def failed(self, url: str, when: datetime) -> None:
        self.record("metadata", url, b"fetch-error: connect timed out\r\nfetchTimeMs: 10000\r\n",
                    [("Content-Type", "application/warc-fields")], when)
        self.count += 1


def write_archive(corpus: Path, path: Path, captures: int) -> dict[str, Any]:
    """Write ``captures`` captures of the corpus' robots.txt files to ``path`` (see the module)."""
    files = sorted(p for p in (corpus / "robotfiles").iterdir() if p.is_file())
    bodies = {p.name: p.read_bytes() for p in files}
    names = list(bodies)
    mix: dict[str, int] = {}
    sites = 0
    with open(path, "wb") as handle:
        out = Writer(handle)
        copy = 0
        while out.count < captures:
            for name in names:
                if out.count >= captures:
                    break
                site = name if copy == 0 else f"c{copy}.{name}"
                kind = scenario(site)
                if kind == "uncaptured":
                    continue
                mix[kind] = mix.get(kind, 0) + 1
                sites += 1
                when = START + timedelta(seconds=out.count)
                body = bodies[name]
                text = [("Content-Type", "text/plain")]
                home = f"https://{site}/robots.txt"
                encoded = out.count % 3 == 0
                if kind == "ok":
                    out.fetch(home, 200, text, body, when, encoded)
                elif kind == "to-www":
                    out.fetch(home, 301, [("Location", f"https://www.{site}/robots.txt")], b"", when)
                    out.fetch(f"https://www.{site}/robots.txt", 200, text, body, when, encoded)
                elif kind == "from-http":
                    out.fetch(f"http://{site}/robots.txt", 301, [("Location", home)], b"", when)
                    out.fetch(home, 200, text, body, when, encoded)
                elif kind == "cross-host":
                    out.fetch(home, 302, [("Location", f"https://cdn.{site}.example/r")], b"", when)
                    out.fetch(f"https://cdn.{site}.example/r", 301, [("Location", "/robots.txt")], b"", when)
                    out.fetch(f"https://cdn.{site}.example/robots.txt", 200, [], body, when)
                elif kind in ("404", "503", "500"):
                    out.fetch(home, int(kind), [("Content-Type", "text/html")], b"<html><body>error</body></html>", when)
                else:
                    out.failed(home, when)
            copy += 1
    return {"captures": out.count, "records": out.records, "sites": sites, "mix": mix, "bytes": path.stat().st_size}


# --------------------------------------------------------------------------- jobs


def fastwarc_job(path: Path) -> Callable[[], int]:
    """fastwarc's own iteration: every record, HTTP headers parsed, every payload read (the floor)."""
    def run() -> int:
        from fastwarc.warc import ArchiveIterator, WarcRecordType

        wanted = int(WarcRecordType.response) | int(WarcRecordType.metadata)
        captures = 0
        for record in ArchiveIterator(str(path), parse_http=True):
            record.reader.read()
            if int(record.record_type) & wanted:
                captures += 1
        return captures

    return run


def read_job(path: Path, reader: str) -> Callable[[], int]:
    """``read_warc`` with the reader ``reader`` of :mod:`robotrules.batch.inputs.warc.reading`: captures given out."""
    def run() -> int:
        from robotrules.batch.inputs.warc import read_warc
        from robotrules.batch.inputs.warc import reading as warc

        saved, warc.READER = warc.READER, reader
        try:
            return sum(1 for _ in read_warc(str(path)))
        finally:
            warc.READER = saved

    return run


def audit_job(path: Path, reader: str, agents: tuple[str, ...], memory: bool) -> Callable[[], int]:
    """``audit_rows(path, processes=1)``: the captures read (with ``reader``) into an archive, then
    every site audited for ``agents``; returns the rows (sites x agents)."""
    def run() -> int:
        from robotrules.batch.audit import audit_rows
        from robotrules.batch.captures import archive_of
        from robotrules.batch.inputs.warc import reading as warc

        saved, warc.READER = warc.READER, reader
        try:
            if memory:
                with archive_of(str(path), auto_index_above=1 << 62) as archive:
                    return sum(1 for _ in audit_rows(archive, agents, processes=1))
            return sum(1 for _ in audit_rows(path, agents, processes=1))
        finally:
            warc.READER = saved

    return run


@dataclass
class Result:
    name: str
    captures: int
    wall: float
    cpu: float
    count: int
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "captures": self.captures, "counted": self.count, "wall_s": round(self.wall, 3),
                "cpu_s": round(self.cpu, 3), "captures_per_s_wall": round(self.captures / self.wall) if self.wall else 0,
                "captures_per_s_cpu": round(self.captures / self.cpu) if self.cpu else 0, "note": self.note}


def measure(jobs: list[tuple[str, Callable[[], int], str]], captures: int, repeat: int,
            say: Callable[..., None]) -> list[Result]:
    """Each job ``repeat`` times, the jobs taking turns (order rotated each round); the best round
    of each, by CPU time (this process only: on a shared machine the wall clock also counts the
    time other processes had the core)."""
    best: dict[str, Result] = {}
    for round_ in range(repeat):
        order = jobs[round_ % len(jobs):] + jobs[:round_ % len(jobs)]
        for name, job, note in order:
            gc.collect()
            gc.disable()
            try:
                wall, cpu = time.perf_counter(), time.process_time()
                count = job()
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            finally:
                gc.enable()
            result = Result(name, captures, wall, cpu, count, note)
            say(f"  {name}: {count:,} in {wall:.1f} s ({cpu:.1f} s CPU): {captures / cpu:,.0f} captures/s CPU")
            if name not in best or cpu < best[name].cpu:
                best[name] = result
    return [best[name] for name, _, _ in jobs]


# --------------------------------------------------------------------------- report


def report(results: list[Result], meta: dict[str, Any]) -> dict[str, Any]:
    by = {r.name: r for r in results}
    summary: dict[str, Any] = {}
    fast, stream, floor = by.get("read, fast path"), by.get("read, warcio stream"), by.get("fastwarc iteration")
    if fast:
        rate = fast.captures / fast.cpu
        summary["read_rate"] = {"value": round(rate), "target": f">= {TARGET:,.0f} captures/s per core",
                                "met": rate >= TARGET}
    if fast and stream:
        summary["fast_vs_stream"] = {"value": round(stream.cpu / fast.cpu, 2)}
    if fast and floor:
        summary["fast_vs_fastwarc"] = {"value": round(fast.cpu / floor.cpu, 2)}
    for label in ("audit, fast path", "audit, warcio stream"):
        if label in by:
            summary[label] = {"value": round(by[label].captures / by[label].cpu)}
    return {"meta": meta, "results": [r.to_dict() for r in results], "summary": summary}


def markdown(data: dict[str, Any]) -> str:
    lines = ["| Job | Captures | Wall (s) | CPU (s) | Captures/s (CPU) | Captures/s (wall) | Note |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in data["results"]:
        lines.append(f"| {r['name']} | {r['captures']:,} | {r['wall_s']:.1f} | {r['cpu_s']:.1f} | "
                     f"{r['captures_per_s_cpu']:,} | {r['captures_per_s_wall']:,} | {r['note']} |")
    lines.append("")
    s = data["summary"]
    if "read_rate" in s:
        lines.append(f"- reading, fast path: **{s['read_rate']['value']:,} captures/s per core** (target "
                     f"{s['read_rate']['target']}: {'met' if s['read_rate']['met'] else 'NOT met'})")
    if "fast_vs_stream" in s:
        lines.append(f"- fast path / warcio stream: **{s['fast_vs_stream']['value']}x** the captures per CPU second")
    if "fast_vs_fastwarc" in s:
        lines.append(f"- fast path CPU time / fastwarc iteration CPU time: **{s['fast_vs_fastwarc']['value']}x**")
    m = data["meta"]
    lines.append(f"- archive: {m['captures']:,} captures ({m['sites']:,} sites, {m['records']:,} records with the "
                 f"requests and the warcinfo), {m['bytes'] / 2**20:,.1f} MiB gzip; mix {m['mix']}")
    if m.get("audit_agents"):
        lines.append(f"- audit: {m['audit_captures']:,} captures, {m['audit_agents']} agents ({m['audit_agents_from']}), captures "
                     f"{'in memory' if m['audit_memory'] else 'in a temporary index on disk'} (as robotrules audit keeps a "
                     f"file of {m['audit_bytes'] / 2**20:,.1f} MiB)")
    lines.append(f"- {m['cpus']} CPUs, Python {m['python']}, {m['platform']}; core: "
                 f"{'compiled' if m.get('compiled') else 'pure Python'}; warcio {m['warcio']}, fastwarc {m['fastwarc']}; "
                 f"best of {m['repeat']} by CPU time")
    return "\n".join(lines) + "\n"


def _version(name: str) -> str:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--captures", type=int, default=200_000, help="captures in the archive (default 200,000)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 300 captures, a few agents")
    parser.add_argument("--repeat", type=int, default=1, help="timed rounds of the reading jobs (best kept)")
    parser.add_argument("--readers", default="fastwarc,stream,fast",
                        help="reading jobs: fastwarc (the floor), stream (warcio), fast (the default reader)")
    parser.add_argument("--no-audit", action="store_true", help="skip the audits")
    parser.add_argument("--audit-readers", default="fast,stream", help="readers of the audits (fast, stream)")
    parser.add_argument("--agents", default=None,
                        help="audit agents, comma-separated (default: the registry's crawlers and *, as robotrules audit)")
    parser.add_argument("--audit-captures", type=int, default=None,
                        help="captures of the audited archive (default: --captures; the same file when equal)")
    parser.add_argument("--memory", action="store_true", help="audit with the captures in memory, not an index on disk")
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--workdir", type=Path, default=None, help="where the WARC goes (default: a temp dir)")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--markdown", type=Path, default=None)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    if args.quick:
        args.captures = min(args.captures, 300)
        args.agents = args.agents or "googlebot,GPTBot,CCBot,*"
    say = (lambda *a: None) if args.quiet else (lambda *a: print(*a, file=sys.stderr, flush=True))
    if not (args.corpus / "robotfiles").is_dir():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    from robotrules.batch.audit import default_agents

    agents = tuple(a.strip() for a in args.agents.split(",") if a.strip()) if args.agents else default_agents()
    with tempfile.TemporaryDirectory(prefix="archive-bench-") as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        path = workdir / "robots.warc.gz"
        started = time.perf_counter()
        written = write_archive(args.corpus, path, args.captures)
        captures = written["captures"]
        say(f"archive: {path} ({written['bytes'] / 2**20:.1f} MiB, {captures:,} captures) written in "
            f"{time.perf_counter() - started:.0f} s")
        jobs: list[tuple[str, Callable[[], int], str]] = []
        for reader in [r for r in args.readers.split(",") if r]:
            if reader == "fastwarc":
                try:
                    import fastwarc  # noqa: F401
                except ImportError:
                    say("fastwarc is not installed: its floor is skipped")
                    continue
                jobs.append(("fastwarc iteration", fastwarc_job(path),
                             "ArchiveIterator, HTTP parsed, payloads read; no bounds, no damage found"))
            elif reader == "stream":
                jobs.append(("read, warcio stream", read_job(path, "stream"), "read_warc, every record as a stream"))
            elif reader == "fast":
                jobs.append(("read, fast path", read_job(path, "members"), "read_warc, whole gzip members (default)"))
        say(f"reading, {len(jobs)} jobs x {args.repeat} ...")
        results = measure(jobs, captures, args.repeat, say)
        if not args.no_audit:
            audited, audit_count = path, captures
            if args.audit_captures and args.audit_captures != args.captures:
                audited = workdir / "audit.warc.gz"
                audit_count = write_archive(args.corpus, audited, args.audit_captures)["captures"]
                say(f"audit archive: {audited} ({audit_count:,} captures)")
            audit_bytes = audited.stat().st_size
            audits = []
            for reader in [r for r in args.audit_readers.split(",") if r]:
                name = "audit, fast path" if reader == "fast" else "audit, warcio stream"
                audits.append((name, audit_job(audited, "members" if reader == "fast" else "stream", agents, args.memory),
                               f"audit_rows(path, processes=1), {len(agents)} agents; rows counted"))
            say(f"audits, {len(audits)} jobs ...")
            results += measure(audits, audit_count, 1, say)
    import robotrules

    meta = {"captures": captures, "sites": written["sites"], "records": written["records"], "bytes": written["bytes"],
            "mix": written["mix"], "repeat": args.repeat, "cpus": os.cpu_count(), "python": platform.python_version(),
            "platform": platform.platform(), "compiled": robotrules.core.COMPILED, "warcio": _version("warcio"),
            "fastwarc": _version("fastwarc"), "when": datetime.now(timezone.utc).isoformat(timespec="seconds")}
    if not args.no_audit:
        from robotrules.batch.captures import AUTO_INDEX_BYTES

        in_memory = args.memory or audit_bytes <= AUTO_INDEX_BYTES
        meta.update(audit_captures=audit_count, audit_agents=len(agents), audit_memory=in_memory,
                    audit_agents_from="given" if args.agents else "the registry's crawlers and *",
                    audit_bytes=audit_bytes)
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
