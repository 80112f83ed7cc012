"""Tables in and out: captures as Parquet, CSV and JSONL sources; URL inputs in every format,
with and without an agent column; outputs in every format read back; the DataFrame of decide()."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from robotrules import batch
from robotrules.answers import COLUMNS
from robotrules.errors import SourceError
from tests.batch.conftest import RULES, World

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")
pytest.importorskip("pyarrow", reason="pyarrow (robotrules[batch]) is not installed")

SITE = "https://shop.example"
CAPTURES = [
    {"robots_url": f"{SITE}/robots.txt", "status": 301, "headers": json.dumps({"Location": "/robots-new.txt"}),
     "body": "", "fetched_at": "2024-05-01T10:00:00Z"},
    {"robots_url": f"{SITE}/robots-new.txt", "status": 200, "headers": "{}", "body": RULES.decode(),
     "fetched_at": 1714557600},
    {"robots_url": "https://down.example/robots.txt", "status": 503, "headers": "", "body": "busy"},
    {"robots_url": "https://nothing.example/robots.txt", "status": 0, "headers": "", "body": "",
     "error": "dns lookup failed"},
]
PAIRS = [(f"{SITE}/private/x", "FooBot"), (f"{SITE}/tmp/y", "FooBot"), (f"{SITE}/tmp/y", "*"),
         ("https://down.example/", "*"), ("https://nothing.example/", "*")]
EXPECTED = [False, True, False, False, False]


def write_captures(path: Path) -> Path:
    frame = pandas.DataFrame(CAPTURES)
    name = path.name
    if name.endswith(".parquet"):
        frame["body"] = frame["body"].map(str.encode)  # bytes in Parquet, text elsewhere
        frame["fetched_at"] = [1714557600.0, 1714557600.0, None, None]
        frame.to_parquet(path)
    elif name.endswith(".csv"):
        frame.to_csv(path, index=False)
    else:
        opener = gzip.open if name.endswith(".gz") else open
        with opener(path, "wt", encoding="utf-8") as handle:
            for record in CAPTURES:
                handle.write(json.dumps(dict(record.items())) + "\n")
    return path


@pytest.mark.parametrize("name", ["captures.parquet", "captures.csv", "captures.jsonl", "captures.jsonl.gz"])
def test_tables_of_captures_are_judged_like_warc_captures(tmp_path: Path, name: str) -> None:
    """A table row is a capture: its redirect is followed to the captured target, 503 and failed
    fetches disallow (F3, F5, F8)."""
    path = write_captures(tmp_path / name)
    frame = batch.decide(PAIRS, robots=path, processes=1)
    assert frame["allowed"].tolist() == EXPECTED
    assert frame["rule"].tolist()[:3] == ["Disallow: /private", "", "Disallow: /tmp"]
    assert frame["robots_status"].tolist() == [200, 200, 200, 503, 0]


def test_a_dataframe_of_captures_is_a_source() -> None:
    frame = batch.decide(PAIRS, robots=pandas.DataFrame(CAPTURES), processes=1)
    assert frame["allowed"].tolist() == EXPECTED


def test_a_bad_capture_row_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("robots_url,status\nhttps://a.example/robots.txt,abc\n")
    with pytest.raises(SourceError, match="row 1: the status 'abc' is not a number"):
        batch.decide(["https://a.example/"], robots=path)


def write_urls(path: Path, with_agent: bool) -> Path:
    rows = [{"url": url, **({"agent": agent} if with_agent else {})} for url, agent in PAIRS]
    name = path.name
    if name.endswith(".parquet"):
        pandas.DataFrame(rows).to_parquet(path)
    elif name.endswith(".csv"):
        pandas.DataFrame(rows).to_csv(path, index=False)
    elif name.endswith(".jsonl"):
        path.write_text("".join(json.dumps(row) + "\n" for row in rows))
    else:
        path.write_text("# URLs\n" + "".join(url + "\n\n" for url, _ in PAIRS))
    return path


@pytest.mark.parametrize(("name", "with_agent"), [
    (name, with_agent) for name in ("urls.parquet", "urls.csv", "urls.jsonl", "urls.txt")
    for with_agent in (True, False) if not (name == "urls.txt" and with_agent)  # a plain list has no agent column
])
def test_url_inputs_in_every_format(tmp_path: Path, name: str, with_agent: bool) -> None:
    """A row's agent decides for that row only; rows without one are decided for every agent given."""
    urls = write_urls(tmp_path / name, with_agent)
    captures = write_captures(tmp_path / "captures.csv")
    frame = batch.decide(urls, ["FooBot", "Other"], robots=captures, processes=1)
    if with_agent:
        assert list(zip(frame["url"], frame["agent"], strict=True)) == PAIRS
        assert frame["allowed"].tolist() == EXPECTED
    else:
        assert list(frame["agent"]) == ["FooBot", "Other"] * len(PAIRS)
        assert list(frame["url"]) == [url for url, _ in PAIRS for _agent in (1, 2)]


def test_a_url_table_without_a_url_column_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "urls.csv"
    path.write_text("link\nhttps://a.example/\n")
    with pytest.raises(SourceError, match="no 'url' column"):
        batch.decide(path)


def read_back(path: Path):  # type: ignore[no-untyped-def]
    name = path.name
    if name.endswith(".parquet"):
        return pandas.read_parquet(path)
    if ".csv" in name:
        return pandas.read_csv(path, keep_default_na=False, dtype={"allowed": str})
    return pandas.read_json(path, lines=True, dtype=False)


@pytest.mark.parametrize("name", ["out.parquet", "out.csv", "out.csv.gz", "out.jsonl", "out.jsonl.gz"])
def test_outputs_in_every_format_read_back_with_the_columns_in_order(tmp_path: Path, name: str) -> None:
    urls = write_urls(tmp_path / "urls.jsonl", with_agent=True)
    captures = write_captures(tmp_path / "captures.parquet")
    output = tmp_path / name
    summary = batch.run(urls, output, robots=captures, processes=1, chunk_size=2)
    assert (summary.rows, summary.allowed, summary.disallowed, summary.unknown) == (5, 1, 4, 0)
    frame = read_back(output)
    assert list(frame.columns) == list(COLUMNS)
    assert len(frame) == 5
    allowed = [value if isinstance(value, bool) else str(value).lower() == "true" for value in frame["allowed"]]
    assert allowed == EXPECTED
    assert frame["rule"].tolist()[0] == "Disallow: /private"


def test_unknown_rows_are_missing_values_in_every_output(tmp_path: Path) -> None:
    urls = tmp_path / "urls.txt"
    urls.write_text("https://unknown.example/\n")
    for name in ("u.parquet", "u.csv", "u.jsonl"):
        batch.run(urls, tmp_path / name, robots=write_captures(tmp_path / "c.csv"), processes=1)
    assert pandas.read_parquet(tmp_path / "u.parquet")["allowed"].isna().all()
    assert (tmp_path / "u.csv").read_text().splitlines()[1].split(",")[2] == ""
    assert json.loads((tmp_path / "u.jsonl").read_text())["allowed"] is None


def test_an_unknown_output_suffix_fails_before_any_work(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="cannot tell the output format"):
        batch.run(tmp_path / "missing.txt", tmp_path / "out.xlsx", robots=[])
    assert not (tmp_path / "out.xlsx").exists()


def test_decide_returns_a_dataframe_with_typed_columns(world: World) -> None:
    frame = batch.decide([world.bases["ok"] + "/private/x"], ["FooBot", "*"], robots=world.warc)
    assert list(frame.columns) == list(COLUMNS)
    assert str(frame["allowed"].dtype) == "boolean"
    assert frame["line"].tolist() == [2, 0]
    assert frame.loc[0, "allowed"] is False or not frame.loc[0, "allowed"]
