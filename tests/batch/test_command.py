"""``robotrules batch`` as a person runs it (in process: ``tests/cli/harness.py``): outputs, summary,
exit codes, and bad input as one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.batch.conftest import World
from tests.cli.conftest import Run, assert_clean_error
from tests.servers.http import HTTPServer, respond

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")


def urls_file(tmp_path: Path, world: World, names: list[str], paths: tuple[str, ...] = ("/", "/tmp/a")) -> Path:
    path = tmp_path / "urls.txt"
    path.write_text("".join(world.bases[name] + p + "\n" for name in names for p in paths))
    return path


def test_batch_writes_the_rows_and_a_summary(robotrules: Run, world: World, tmp_path: Path) -> None:
    urls = urls_file(tmp_path, world, ["ok", "missing", "down"])
    done = robotrules("batch", "--urls", str(urls), "-a", "FooBot", "-a", "*", "--robots", str(world.warc),
                      "--output", "out.parquet", "--processes", "2")
    assert done.returncode == 1, done.stderr  # the 503 site disallows
    assert "12 rows: 7 allowed, 5 disallowed, 0 unknown" in done.stdout
    frame = pandas.read_parquet(tmp_path / "out.parquet")
    assert len(frame) == 12
    assert frame["agent"].tolist()[:2] == ["FooBot", "*"]


def test_batch_exits_0_when_everything_is_allowed(robotrules: Run, world: World, tmp_path: Path) -> None:
    urls = urls_file(tmp_path, world, ["missing", "html"])
    done = robotrules("batch", "--urls", str(urls), "--robots", str(world.warc), "--output", "out.csv", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert (summary["rows"], summary["allowed"], summary["disallowed"]) == (4, 4, 0)
    written = pandas.read_csv(tmp_path / "out.csv", keep_default_na=False)
    assert list(written.columns) == ["url", "agent", "allowed", "line", "rule", "robots_url", "robots_status", "reason",
                                     "robots_outcome"]
    assert set(zip(written["robots_status"], written["robots_outcome"], strict=True)) == {(404, "allow_all"),
                                                                                         (200, "not_robots_txt")}


def test_batch_reads_urls_from_standard_input(robotrules: Run, world: World) -> None:
    done = robotrules("batch", "--urls", "-", "--robots", str(world.warc), "--output", "out.jsonl",
                      stdin=world.bases["ok"] + "/tmp/x\n")
    assert done.returncode == 1, done.stderr
    assert "1 rows: 0 allowed, 1 disallowed" in done.stdout


def test_batch_fetches_live_through_the_cache_without_robots(robotrules: Run, tmp_path: Path) -> None:
    with HTTPServer() as server:
        server.route("/robots.txt", respond(200, b"User-agent: *\nDisallow: /no\n"))
        (tmp_path / "urls.txt").write_text(server.url("/no/1") + "\n" + server.url("/yes") + "\n")
        done = robotrules("batch", "--urls", "urls.txt", "--output", "live.jsonl")
        again = robotrules("batch", "--urls", "urls.txt", "--output", "live2.jsonl")
        assert server.hits("/robots.txt") == 1  # the second run used the shared cache
    assert done.returncode == again.returncode == 1, done.stderr
    rows = [json.loads(line) for line in (tmp_path / "live.jsonl").read_text().splitlines()]
    assert [row["allowed"] for row in rows] == [False, True]


def test_batch_refresh_fetches_each_robots_txt_again_once_and_decides_by_the_new_copy(robotrules: Run,
                                                                                     tmp_path: Path) -> None:
    """C2: --refresh fetches a fresh cached robots.txt again, once per job however many URLs of
    the site there are; without it the cached copy (now out of date) decides."""
    with HTTPServer() as server:
        server.route("/robots.txt", respond(200, b"User-agent: *\nDisallow: /no\n"))
        (tmp_path / "urls.txt").write_text("".join(server.url(f"/no/{n}") + "\n" for n in range(30)))
        first = robotrules("batch", "--urls", "urls.txt", "--output", "first.jsonl")
        server.route("/robots.txt", respond(200, b"User-agent: *\nAllow: /\n"))
        cached = robotrules("batch", "--urls", "urls.txt", "--output", "cached.jsonl")
        assert server.hits("/robots.txt") == 1
        fresh = robotrules("batch", "--urls", "urls.txt", "--output", "fresh.jsonl", "--refresh")
        assert server.hits("/robots.txt") == 2
    assert first.returncode == cached.returncode == 1 and fresh.returncode == 0, fresh.stderr
    rows = [json.loads(line) for line in (tmp_path / "fresh.jsonl").read_text().splitlines()]
    assert len(rows) == 30 and all(row["allowed"] for row in rows)


@pytest.mark.parametrize(("args", "words"), [
    (("--urls", "missing.txt", "--output", "o.csv"), "no such file"),
    (("--urls", "urls.txt", "--output", "o.xlsx"), "cannot tell the output format"),
    (("--urls", "urls.txt", "--robots", "captures.zip", "--output", "o.csv"), "not a robots.txt source"),
    (("--urls", "urls.txt", "--robots", "absent.warc.gz", "--output", "o.csv"), "no such file"),
    (("--urls", "empty.txt", "--robots", "{warc}", "--output", "o.csv"), "no URLs to decide"),
    (("--urls", "urls.txt", "--robots", "{warc}", "--output", "o.csv", "--processes", "0"), "at least 1"),
    (("--urls", "urls.txt", "--robots", "{warc}", "--output", "o.csv", "--no-cache"), "live fetching"),
    (("--urls", "bad.csv", "--robots", "{warc}", "--output", "o.csv"), "no 'url' column"),
    (("--urls", "urls.txt", "--robots", "notwarc.warc", "--output", "o.csv"), "not a readable WARC"),
])
def test_bad_input_is_one_line_and_exit_2(robotrules: Run, world: World, tmp_path: Path, args: tuple[str, ...],
                                          words: str) -> None:
    (tmp_path / "urls.txt").write_text("https://a.example/\n")
    (tmp_path / "empty.txt").write_text("# nothing\n")
    (tmp_path / "bad.csv").write_text("link\nhttps://a.example/\n")
    (tmp_path / "notwarc.warc").write_text("hello, not a WARC\n")
    done = robotrules("batch", *(arg.format(warc=world.warc) for arg in args))
    line = assert_clean_error(done)
    assert words in line
    assert not (tmp_path / "o.csv").exists() or (words == "no URLs to decide" and not (tmp_path / "o.csv").exists())


@pytest.mark.jvm
def test_the_spark_engine_writes_the_same_rows_as_the_local_engine(robotrules: Run, world: World, spark: Any,
                                                                   tmp_path: Path) -> None:
    """``--engine spark`` works from the command line (pyspark in local mode, on the running session)."""
    urls = urls_file(tmp_path, world, ["ok", "chain", "down", "big"], ("/", "/tmp/a", "/late", "/chained"))
    common = ("--urls", str(urls), "-a", "FooBot", "-a", "*", "--robots", str(world.warc))
    local = robotrules("batch", *common, "--output", "local.csv")
    # An absolute output path: the running session's JVM resolves relative paths against its own
    # working directory, not this run's (a subprocess started its JVM in tmp_path).
    on_spark = robotrules("batch", *common, "--output", str(tmp_path / "spark.csv"), "--engine", "spark", timeout=300)
    assert on_spark.returncode == local.returncode == 1, on_spark.stderr[-2000:]
    read = [pandas.read_csv(tmp_path / name, keep_default_na=False, dtype=str) for name in ("local.csv", "spark.csv")]
    rows = [sorted(map(tuple, frame.itertuples(index=False))) for frame in read]
    assert rows[0] == rows[1]
