"""Empty or null ``url`` cells keep their rows, decided "invalid URL" (issue #16-L2).

Dropping them made the output's rows stop lining up with the input's. Every input format is read
by the command line or the library, and the rows are compared position by position.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from robotrules import batch
from robotrules.batch.engine import NO_URL
from tests.batch.warcs import Record, write
from tests.cli.conftest import Run

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")

URLS = ["https://a.test/private", None, "https://a.test/open", "", "   ", "https://a.test/private/x"]
"""The input column: URLs, a null, an empty cell, a blank one."""
WANT = [False, None, True, None, None, False]


@pytest.fixture
def warc(tmp_path: Path) -> Path:
    path = tmp_path / "robots.warc.gz"
    write(path, [Record.of("https://a.test/robots.txt", b"User-agent: *\nDisallow: /private\n")])
    return path


def write_input(tmp_path: Path, suffix: str) -> Path:
    path = tmp_path / f"urls.{suffix}"
    if suffix == "parquet":
        pandas.DataFrame({"url": URLS, "id": range(len(URLS))}).to_parquet(path)
    elif suffix == "csv":
        path.write_text("url,id\n" + "".join(f"{url or ''},{n}\n" for n, url in enumerate(URLS)))
    else:
        path.write_text("".join(json.dumps({"url": url, "id": n}) + "\n" for n, url in enumerate(URLS)))
    return path


@pytest.mark.parametrize("suffix", ["parquet", "csv", "jsonl"])
def test_empty_and_null_url_cells_keep_their_rows_as_invalid_urls(robotrules: Run, tmp_path: Path, warc: Path,
                                                                  suffix: str) -> None:
    """#16-L2, S1: one output row per input row and agent, in order; a row without a URL has an empty
    url, no verdict and the reason "invalid URL"."""
    urls = write_input(tmp_path, suffix)
    done = robotrules("batch", "--urls", str(urls), "-a", "FooBot", "-a", "*", "--robots", str(warc),
                      "--output", "out.parquet")
    assert done.returncode == 1, done.stderr
    assert f"{len(URLS) * 2} rows:" in done.stdout
    frame = pandas.read_parquet(tmp_path / "out.parquet")
    assert frame["url"].tolist() == [(url or "").strip() for url in URLS for _ in range(2)]
    assert [None if pandas.isna(v) else bool(v) for v in frame["allowed"]] == [w for w in WANT for _ in range(2)]
    empty = frame[frame["url"] == ""]
    assert len(empty) == 6
    assert set(empty["reason"]) == {NO_URL} and set(empty["robots_url"]) == {""}
    assert NO_URL.startswith("invalid URL")


def test_a_dataframe_with_missing_urls_keeps_those_rows(warc: Path) -> None:
    """#16-L2, S1: None and NaN in a DataFrame's url column are rows without a URL, not the text 'None' or 'nan'."""
    frame = batch.decide(pandas.DataFrame({"url": ["https://a.test/private", None, float("nan")],
                                           "agent": ["FooBot", "BarBot", None]}), robots=str(warc), processes=1)
    assert frame["url"].tolist() == ["https://a.test/private", "", ""]
    assert frame["agent"].tolist() == ["FooBot", "BarBot", "*"]
    assert frame["reason"].tolist()[1:] == [NO_URL, NO_URL]
    assert frame["allowed"].isna().tolist() == [False, True, True]


def test_worker_processes_keep_the_rows_without_urls_too(warc: Path) -> None:
    """#16-L2, S1: the rows are the same when chunks are decided in worker processes."""
    items = [url or "" for url in URLS] * 3
    here = [row for block in batch.rows(items, ["*"], str(warc), processes=1, chunk_size=4) for row in block]
    there = [row for block in batch.rows(items, ["*"], str(warc), processes=2, chunk_size=4) for row in block]
    assert there == here and len(here) == len(items)
    assert [row[7] for row in here if not row[0].strip()] == [NO_URL] * 9
