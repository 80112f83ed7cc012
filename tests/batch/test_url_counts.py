"""The rows of a URL input are counted before a run, so its progress bar has a total, a
percentage and a time left (``count_urls``): as many as ``read_urls`` gives, for every input
whose size is known without decoding it."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from robotrules.batch.inputs.tables import count_urls, read_urls

URLS = ["https://a.test/1", "https://b.test/2?q=#x", "http://c.test/"]


def _written(path: Path, kind: str) -> Path:
    if kind == "txt":
        path.write_text("# URLs to decide\n\n" + "\n".join(URLS) + "\n   \n# end\n", encoding="utf-8")
    elif kind == "csv":
        path.write_text("url,note\n" + "\n".join(f"{url},x" for url in URLS) + "\n\n", encoding="utf-8")
    elif kind == "jsonl":
        path.write_text("\n".join(json.dumps({"url": url}) for url in URLS) + "\n\n", encoding="utf-8")
    else:
        pandas = pytest.importorskip("pandas")
        pytest.importorskip("pyarrow")
        pandas.DataFrame({"url": URLS}).to_parquet(path)
    return path


@pytest.mark.parametrize("kind", ["txt", "csv", "jsonl", "parquet"])
def test_the_count_is_the_rows_read(tmp_path: Path, kind: str) -> None:
    """Blank lines and a list's comments are not rows; a CSV header is not a row."""
    path = _written(tmp_path / f"urls.{kind}", kind)
    found = count_urls(str(path))
    assert found is not None
    assert found[0] == len(list(read_urls(str(path)))) == len(URLS)


def test_rows_that_may_name_their_own_agent_say_so(tmp_path: Path) -> None:
    """A table with an agent column (or any JSON Lines object) may decide a row for its own agent."""
    plain = tmp_path / "plain.csv"
    plain.write_text("url\nhttps://a.test/\n", encoding="utf-8")
    own = tmp_path / "own.csv"
    own.write_text("url,agent\nhttps://a.test/,GPTBot\n", encoding="utf-8")
    assert count_urls(str(plain)) == (1, False)
    assert count_urls(str(own)) == (1, True)
    assert count_urls(str(_written(tmp_path / "urls.txt", "txt"))) == (len(URLS), False)


def test_inputs_whose_rows_cannot_be_counted_cheaply_have_no_count(tmp_path: Path) -> None:
    """Compressed files, standard input, a missing file and a Parquet table without a url column."""
    packed = tmp_path / "urls.csv.gz"
    with gzip.open(packed, "wt", encoding="utf-8") as handle:
        handle.write("url\nhttps://a.test/\n")
    assert count_urls(str(packed)) is None
    assert count_urls("-") is None
    assert count_urls(str(tmp_path / "missing.txt")) is None
    pandas = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    pandas.DataFrame({"link": URLS}).to_parquet(tmp_path / "other.parquet")
    assert count_urls(str(tmp_path / "other.parquet")) is None
