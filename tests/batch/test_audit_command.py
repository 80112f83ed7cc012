"""``robotrules audit`` as a person runs it (in process: ``tests/cli/harness.py``): tables, the report,
errors in one line."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.batch.conftest import SITES
from tests.cli.harness import in_process
from tests.servers.http import HTTPServer, respond

pytest.importorskip("pandas", reason="the audit table needs pandas (robotrules[batch])")

REQUIREMENT_ID = re.compile(r"\b[SFCPGRNL][0-9]{1,2}\b")


def robotrules(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "ROBOTRULES_CACHE": str(cwd / "cache.sqlite3"), "NO_COLOR": "1"}
    return in_process(args, cwd=cwd, env=env, timeout=120)


@pytest.mark.parametrize("suffix", ["parquet", "csv", "jsonl"])
def test_audit_of_a_warc_writes_the_table_and_the_report(warc: Path, tmp_path: Path, suffix: str) -> None:
    """Every captured robots.txt is audited for the agents given; the table's format comes from its name."""
    import pandas  # type: ignore[import-untyped]

    done = robotrules("audit", "--robots", str(warc), "-a", "GPTBot", "-a", "*", "--output", f"out.{suffix}",
                      "--report", "report.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "audited 8 sites for 2 crawlers" in done.stdout and "report.html" in done.stdout
    read = {"parquet": pandas.read_parquet, "csv": pandas.read_csv,
            "jsonl": lambda p: pandas.read_json(p, lines=True)}[suffix]
    frame = read(tmp_path / f"out.{suffix}")
    assert len(frame) == 16
    verdicts = {(row.site, row.agent): row.verdict for row in frame.itertuples(index=False)}
    assert verdicts["http://rules.test/robots.txt", "GPTBot"] == "blocked"
    assert verdicts["http://missing.test/robots.txt", "*"] == "no-robots"
    assert verdicts["http://down.test/robots.txt", "GPTBot"] == "unreachable"
    assert (tmp_path / "report.html").read_text(encoding="utf-8").count("<svg") == 5  # 2 of the purpose view


def test_audit_defaults_to_the_registry_and_takes_more_crawlers_from_a_file(warc: Path, tmp_path: Path) -> None:
    """Without --agent every registry crawler and '*' is audited; --registry adds crawlers from a JSON file."""
    from robotrules.crawlers import CRAWLERS

    extra = tmp_path / "more.json"
    extra.write_text(json.dumps([{"token": "ExampleBot", "operator": "Example Ltd", "purpose": "Example index",
                                  "kind": "search", "source": "https://example.com/bot"}]))
    done = robotrules("audit", "--robots", str(warc), "--sites", str(_sites(tmp_path, ["rules.test"])),
                      "--registry", str(extra), "--output", "out.jsonl", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["sites"] == 1 and summary["agents"] == len(CRAWLERS) + 2
    rows = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert rows[-1]["agent"] == "*" and rows[-2] == {**rows[-2], "agent": "ExampleBot", "operator": "Example Ltd"}


def test_audit_of_live_sites_fetches_through_the_cache(tmp_path: Path) -> None:
    """Without --robots the sites' robots.txt files are fetched live (a real server on 127.0.0.1)."""
    with HTTPServer() as server:
        answer = SITES["rules"]["/robots.txt"]
        assert not isinstance(answer, str)
        server.route("/robots.txt", respond(200, answer[2]))
        done = robotrules("audit", "--sites", str(_sites(tmp_path, [server.url("/")])), "-a", "CCBot",
                          "--output", "live.csv", "--timeout", "10", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "1 partly" in done.stdout
    assert server.hits("/robots.txt") == 1


def test_audit_refresh_fetches_the_cached_robots_txt_again(tmp_path: Path) -> None:
    """C2: --refresh fetches a robots.txt the cache holds fresh again, and the new copy decides."""
    with HTTPServer() as server:
        server.route("/robots.txt", respond(200, b"User-agent: CCBot\nDisallow: /\n"))
        sites = str(_sites(tmp_path, [server.url("/")]))
        first = robotrules("audit", "--sites", sites, "-a", "CCBot", "--output", "a.csv", cwd=tmp_path)
        server.route("/robots.txt", respond(200, b"User-agent: *\nAllow: /\n"))
        cached = robotrules("audit", "--sites", sites, "-a", "CCBot", "--output", "b.csv", cwd=tmp_path)
        assert server.hits("/robots.txt") == 1
        fresh = robotrules("audit", "--sites", sites, "-a", "CCBot", "--output", "c.csv", "--refresh", cwd=tmp_path)
        assert server.hits("/robots.txt") == 2
    assert first.returncode == cached.returncode == fresh.returncode == 0, fresh.stderr
    assert "1 blocked" in cached.stdout and "1 allowed" in fresh.stdout


@pytest.mark.parametrize(("args", "words"), [
    (["--output", "x.csv"], "give the robots.txt captures"),
    (["--robots", "nothere.warc.gz", "--output", "x.csv"], "nothere.warc.gz"),
    (["--robots", "{warc}", "--output", "x.xlsx"], "output format"),
    (["--robots", "{warc}", "--output", "x.csv", "--report", "r.pdf"], "must end in .html"),
    (["--robots", "{warc}", "--output", "x.csv", "-a", "  "], "names no crawler"),
    (["--robots", "{warc}", "--output", "x.csv", "--registry", "bad.csv"], "registry"),
    (["--robots", "{warc}", "--output", "x.csv", "--engine", "spark", "--index", "i.sqlite3"], "local engine"),
    (["--robots", "{warc}", "--output", "nofolder/x.csv"], "does not exist"),
    (["--robots", "{warc}", "--output", "x.csv", "--no-cache"], "live fetching"),
])
def test_bad_input_is_one_line_and_exit_code_2(warc: Path, tmp_path: Path, args: list[str], words: str) -> None:
    """A usage or input error is one plain line (and a hint), exit code 2, never a traceback."""
    (tmp_path / "bad.csv").write_text("token,operator\nX,Y\n")
    done = robotrules("audit", *(arg.replace("{warc}", str(warc)) for arg in args), cwd=tmp_path)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert words in done.stderr
    assert "Traceback" not in done.stderr and not REQUIREMENT_ID.search(done.stderr)
    assert len(done.stderr.strip().splitlines()) <= 2


def _sites(folder: Path, sites: list[str]) -> Path:
    path = folder / "sites.txt"
    path.write_text("".join(f"{site}\n" for site in sites))
    return path
