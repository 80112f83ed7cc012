"""CSV tables of batch and audit runs carry text from strangers (URLs, agents of a URL table,
crawler names and operators from a user's registry, crawl labels): a cell a spreadsheet would run
as a formula (``=``, ``+``, ``-``, ``@``, a tab or a carriage return first) is written with a
``'`` before it, as OWASP's CSV-injection guidance says; Parquet keeps every value exact, and a
batch CSV read back as a URL list loses exactly the one added quote (issue #33, item 7)."""

from __future__ import annotations

import csv
import gzip
import io
import json
from pathlib import Path

import pytest

from robotrules._cells import csv_cell, csv_value
from tests.cli.conftest import Run, cli_env, console_script, robotrules

__all__ = ["cli_env", "console_script", "robotrules"]

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")
pytest.importorskip("pyarrow", reason="pyarrow (robotrules[batch]) is not installed")

ROBOTS = "User-agent: *\nDisallow: /=cmd\n"
CALC = "=cmd|' /C calc'!B2"
URLS = [(CALC, "FooBot"), ("@SUM(1+1)", "FooBot"), ("+1", "FooBot"), ("-2", "FooBot"), ("'=quoted", "FooBot"),
        ("https://site.test/=cmd", "=HYPERLINK(1)"), ("https://site.test/a", "-Bot"), ("https://site.test/b", "FooBot")]
"""URL-table rows whose URL or agent a spreadsheet would run (and a quote before one), and plain
ones (a URL list's cells are stripped of blanks: a leading tab is tested on its own, below)."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _captures(folder: Path) -> Path:
    path = folder / "captures.jsonl"
    path.write_text(json.dumps({"robots_url": "https://site.test/robots.txt", "status": 200, "headers": "{}",
                                "body": ROBOTS}) + "\n")
    return path


def _url_table(folder: Path) -> Path:
    """The URL list as JSON Lines: read exactly (a CSV list's quotes are taken off, as from a batch's output)."""
    path = folder / "urls.jsonl"
    path.write_text("".join(json.dumps({"url": url, "agent": agent}) + "\n" for url, agent in URLS), encoding="utf-8")
    return path


def _registry(folder: Path) -> Path:
    path = folder / "crawlers.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["name", "operator", "purpose", "kind", "source"])
        writer.writerow(["EvilBot", CALC, "@SUM(A1)", "search", "https://evil.test/bot"])
    return path


def _csv_rows(path: Path) -> list[dict[str, str]]:
    data = gzip.decompress(path.read_bytes()) if path.name.endswith(".gz") else path.read_bytes()
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"), newline="")))


def _assert_escaped_as_exact(csv_rows: list[dict[str, str]], exact: list[dict[str, object]]) -> None:
    """Every text cell of the CSV rows is the exact (Parquet) value with a ``'`` before it when a
    spreadsheet would run it, and as it is otherwise; no CSV cell starts a formula."""
    assert len(csv_rows) == len(exact)
    for written, value in zip(csv_rows, exact, strict=True):
        for name, cell in written.items():
            assert not cell.startswith(FORMULA_STARTS), (name, cell)
            if isinstance(value[name], str):
                assert cell == csv_cell(str(value[name])), (name, cell, value[name])


def test_batch_csv_cells_a_spreadsheet_would_run_get_a_quote_and_parquet_keeps_them_exact(
        console_script: Run, tmp_path: Path) -> None:
    """``robotrules batch --output x.csv``: URLs and agents starting ``=``, ``@``, ``+`` or ``-``
    get one leading ``'`` (a cell already quoted one more), other cells are unchanged;
    ``--output x.parquet`` holds the values exactly."""
    captures, urls = _captures(tmp_path), _url_table(tmp_path)
    for output in ("out.csv", "out.parquet"):
        done = console_script("batch", "--urls", str(urls), "--robots", str(captures), "-a", "FooBot",
                              "--output", output)
        assert done.returncode == 1, done.stderr  # some URLs are disallowed or invalid
    exact = pandas.read_parquet(tmp_path / "out.parquet").to_dict("records")
    assert [(row["url"], row["agent"]) for row in exact] == URLS
    written = _csv_rows(tmp_path / "out.csv")
    _assert_escaped_as_exact(written, exact)
    assert [row["url"] for row in written[:5]] == ["'" + CALC, "'@SUM(1+1)", "'+1", "'-2", "''=quoted"]
    assert [row["agent"] for row in written[5:7]] == ["'=HYPERLINK(1)", "'-Bot"]
    assert written[5]["url"] == "https://site.test/=cmd" and written[5]["rule"] == "Disallow: /=cmd"


@pytest.mark.jvm
def test_the_spark_engine_writes_csv_cells_as_the_local_engine_does(robotrules: Run, spark: object,
                                                                    tmp_path: Path) -> None:
    """``robotrules batch --engine spark --output x.csv``: Spark writes the CSV itself, and gives
    the cells a spreadsheet would run the same leading ``'`` as the local engine."""
    captures, urls = _captures(tmp_path), _url_table(tmp_path)
    common = ("batch", "--urls", str(urls), "--robots", str(captures), "-a", "FooBot")
    local = robotrules(*common, "--output", str(tmp_path / "local.csv"))
    on_spark = robotrules(*common, "--output", str(tmp_path / "spark.csv"), "--engine", "spark", timeout=300)
    assert on_spark.returncode == local.returncode == 1, on_spark.stderr[-2000:]
    written = _csv_rows(tmp_path / "spark.csv")
    assert {"'" + CALC, "'@SUM(1+1)", "'+1", "'-2", "''=quoted"} <= {row["url"] for row in written}
    assert all(not cell.startswith(FORMULA_STARTS) for row in written for cell in row.values())
    assert sorted(map(sorted, (row.items() for row in written))) == sorted(
        map(sorted, (row.items() for row in _csv_rows(tmp_path / "local.csv"))))


def test_a_batch_csv_read_back_as_a_url_list_loses_exactly_the_added_quote(console_script: Run,
                                                                           tmp_path: Path) -> None:
    """A batch's CSV output given again as ``--urls`` reads back the URLs and agents decided,
    exactly: one ``'`` taken off a cell it was added to, and a quote the value had kept."""
    captures, urls = _captures(tmp_path), _url_table(tmp_path)
    done = console_script("batch", "--urls", str(urls), "--robots", str(captures), "-a", "FooBot",
                          "--output", "first.csv")
    assert done.returncode == 1, done.stderr  # some URLs are disallowed or invalid
    done = console_script("batch", "--urls", "first.csv", "--robots", str(captures), "-a", "FooBot",
                          "--output", "again.jsonl")
    assert done.returncode == 1, done.stderr
    lines = (tmp_path / "again.jsonl").read_text(encoding="utf-8").splitlines()
    assert [(row["url"], row["agent"]) for row in map(json.loads, lines)] == URLS


@pytest.mark.parametrize("output", ["audit.csv", "audit.csv.gz"])
def test_audit_csv_cells_from_a_registry_get_a_quote_and_parquet_keeps_them_exact(
        console_script: Run, tmp_path: Path, output: str) -> None:
    """``robotrules audit --registry --output x.csv`` (and ``.csv.gz``): a crawler's operator and
    purpose starting ``=`` or ``@`` get one leading ``'``; the Parquet table holds them exactly."""
    captures, registry = _captures(tmp_path), _registry(tmp_path)
    for path in (output, "audit.parquet"):
        done = console_script("audit", "--robots", str(captures), "--registry", str(registry), "-a", "EvilBot",
                              "--output", path)
        assert done.returncode == 0, done.stderr
    exact = pandas.read_parquet(tmp_path / "audit.parquet").to_dict("records")
    assert (exact[0]["operator"], exact[0]["purpose"]) == (CALC, "@SUM(A1)")
    written = _csv_rows(tmp_path / output)
    _assert_escaped_as_exact(written, exact)
    assert (written[0]["operator"], written[0]["purpose"]) == ("'" + CALC, "'@SUM(A1)")


def test_audit_over_time_csv_tables_quote_a_crawl_label_a_spreadsheet_would_run(console_script: Run,
                                                                                tmp_path: Path) -> None:
    """``audit --crawl``: the combined, trends and changes CSV tables all write a crawl label
    starting with ``+`` or ``@`` with a ``'`` before it."""
    captures = _captures(tmp_path)
    done = console_script("audit", "--crawl", f"+one={captures}", "--crawl", f"@two={captures}", "-a", "FooBot",
                          "--output", "over.csv")
    assert done.returncode == 0, done.stderr
    for name, column in (("over.csv", "crawl"), ("over.trends.csv", "crawl")):
        assert {row[column] for row in _csv_rows(tmp_path / name)} == {"'+one", "'@two"}, name
    changes = _csv_rows(tmp_path / "over.changes.csv")
    assert all(not cell.startswith(FORMULA_STARTS) for row in changes for cell in row.values())


@pytest.mark.parametrize("value", ["", "plain", CALC, "@x", "+x", "-x", "\tx", "\rx", "'", "'=x", "''-x", "'plain",
                                   "x=y", " =x"])
def test_a_quoted_cell_reads_back_as_the_value_exactly(value: str) -> None:
    """One rule for every CSV the project writes (the batch and audit tables, the crawler export):
    a cell a spreadsheet would run gets a quote, and reading it back gives the value exactly."""
    cell = csv_cell(value)
    assert not cell.startswith(FORMULA_STARTS)
    assert csv_value(cell) == value
