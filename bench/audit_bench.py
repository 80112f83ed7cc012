#!/usr/bin/env python3
"""Audit benchmark on real robots.txt files: ``robotrules audit`` as a user starts it.

    python bench/audit_bench.py [--captures N ...] [--base REV] [--python PY] [--processes P]
                                [--format parquet|csv|jsonl] [--repeat K] [--corpus PATH]
                                [--workdir DIR] [--json OUT] [--markdown OUT]

A WARC file of ``N`` robots.txt captures is written whose bodies are the corpus's real files
(each answered 200 under its own host name, the corpus cycled when ``N`` is larger than it).
Then ``robotrules audit --robots FILE --output OUT`` runs in a child process for the registry's
crawlers (the command's default agents), one process (``--processes``), and each run reports:
wall seconds, captures per second, the child's peak resident memory (``wait4``'s ``ru_maxrss``),
the rows written and the bytes a row on disk.

``--base REV`` runs the same command from another revision of the project in the same run
(``git worktree``, imported from its ``src`` with this interpreter), so before and after share
the machine's load; ``--python`` runs both with another interpreter (a virtual environment
with the compiled core, say). Several ``--captures`` sizes run smallest first; a run that
fails (killed for memory, say) is reported as such and the larger sizes of that revision are
skipped. ``--repeat K`` runs each size K times, the revisions taking turns, and keeps each
one's fastest run (its peak memory is the largest of its runs): on a shared machine, a change
of load then hits both alike.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def default_corpus() -> Path:
    given = os.environ.get("ROBOTRULES_CORPUS")
    return Path(given) if given else ROOT.parent / "shared" / "corpus"


def write_captures(corpus: Path, count: int, path: Path) -> int:
    """A WARC.gz of ``count`` 200 captures with the corpus's real bodies; the bytes of the bodies."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    files = sorted((corpus / "robotfiles").iterdir())
    total = 0
    with open(path, "wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        for number in range(count):
            source = files[number % len(files)]
            body = source.read_bytes()
            total += len(body)
            host = f"s{number // len(files)}.{source.name}"
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))],
                                    protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                f"https://{host}/robots.txt", "response", payload=io.BytesIO(body), http_headers=http,
                warc_headers_dict={"WARC-Date": "2026-11-01T00:00:00Z"}))
    return total


@dataclass
class Run:
    revision: str
    captures: int
    ok: bool
    seconds: float
    peak_rss_mib: float
    rows: int
    output_bytes: int
    note: str = ""

    @property
    def captures_per_second(self) -> float:
        return self.captures / self.seconds if self.ok and self.seconds else 0.0

    @property
    def bytes_per_row(self) -> float:
        return self.output_bytes / self.rows if self.rows else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "captures_per_second": round(self.captures_per_second, 1),
                "bytes_per_row": round(self.bytes_per_row, 1)}


def audit_once(python: str, src: Path, warc: Path, output: Path, processes: int) -> tuple[bool, float, float, str]:
    """Run the audit command in a child process: (ok, seconds, peak RSS MiB, its last error line)."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    command = [python, "-m", "robotrules", "audit", "--robots", str(warc), "--output", str(output),
               "--processes", str(processes), "--json", "--no-progress"]
    started = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    err = child.stderr.read().decode("utf-8", "replace").strip().splitlines() if child.stderr else []
    child.returncode = os.waitstatus_to_exitcode(status)
    return child.returncode == 0, seconds, usage.ru_maxrss / 1024, (err[-1] if err else f"exit {child.returncode}")


def rows_of(path: Path) -> int:
    if path.suffix == ".parquet":
        import pyarrow.parquet as pq

        return int(pq.ParquetFile(path).metadata.num_rows)
    with open(path, "rb") as handle:
        lines = sum(1 for _ in handle)
    return lines - 1 if path.suffix == ".csv" else lines


def worktree(revision: str, where: Path) -> Path:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-f", str(where), revision],
                   check=True, capture_output=True)
    return where / "src"


def markdown(data: dict[str, Any]) -> str:
    lines = [f"# Audit of real robots.txt files ({data['meta']['python']})", "",
             f"`{data['meta']['command']}`", "",
             "| revision | captures | ok | seconds | captures/s | peak RSS MiB | rows | bytes/row | note |",
             "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for run in data["runs"]:
        lines.append(f"| {run['revision']} | {run['captures']:,} | {'yes' if run['ok'] else 'no'} | "
                     f"{run['seconds']:.1f} | {run['captures_per_second']:,.1f} | {run['peak_rss_mib']:,.0f} | "
                     f"{run['rows']:,} | {run['bytes_per_row']:.1f} | {run['note']} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--captures", type=int, nargs="+", default=[2000])
    parser.add_argument("--base", default=None, help="a git revision to run beside the working tree")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--format", choices=("parquet", "csv", "jsonl"), default="parquet")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--corpus", type=Path, default=default_corpus())
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--markdown", type=Path, default=None)
    args = parser.parse_args()

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="audit-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    revisions = [("working tree", ROOT / "src")]
    if args.base:
        revisions.insert(0, (args.base, worktree(args.base, workdir / "base")))
    runs: list[Run] = []
    failed: set[str] = set()
    for count in sorted(args.captures):
        warc = workdir / f"captures-{count}.warc.gz"
        if not warc.exists():
            write_captures(args.corpus, count, warc)
        best: dict[str, Run] = {}
        for _ in range(max(1, args.repeat)):
            for name, src in revisions:
                if name in failed:
                    continue
                output = workdir / f"audit-{count}-{len(runs)}.{args.format}"
                ok, seconds, peak, note = audit_once(args.python, src, warc, output, args.processes)
                rows = rows_of(output) if ok else 0
                size = output.stat().st_size if ok else 0
                run = Run(name, count, ok, seconds, peak, rows, size, "" if ok else note)
                print(json.dumps(run.to_dict()), flush=True)
                output.unlink(missing_ok=True)
                if not ok:
                    failed.add(name)
                    best[name] = run
                    continue
                held = best.get(name)
                if held is None or seconds < held.seconds:
                    best[name] = Run(name, count, ok, seconds, max(peak, held.peak_rss_mib if held else 0), rows, size)
                else:
                    held.peak_rss_mib = max(held.peak_rss_mib, peak)
        runs.extend(best.values())
    data = {"meta": {"python": sys.version.split()[0], "processes": args.processes, "format": args.format,
                     "repeat": args.repeat,
                     "command": " ".join(sys.argv)},
            "runs": [run.to_dict() for run in runs]}
    if args.json:
        args.json.write_text(json.dumps(data, indent=1) + "\n")
    if args.markdown:
        args.markdown.write_text(markdown(data))
    if args.base:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(workdir / "base")],
                       capture_output=True, check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
