"""Crawl-index rows from strangers (issue #33, items 5 and 6): every unusable row is a damaged record.

A ``--cc-index`` row gives a WARC file under ``--warc-prefix`` and a byte range in it. A row whose
offset or length is missing, negative, zero, fractional, text, a list, too large, or whose file
name is absolute, climbs out with ``..``, holds a NUL or leads out of the prefix through a link or
a changed URL is skipped and counted with ``--skip-bad-records`` (named by the index file and its
row), or ends the run with one line (exit 2). A file outside the prefix is never opened: a
sentinel WARC there holds a capture that would decide ``evil.test`` if it were read. Duplicate
rows cost one row each, not one per copy. Real Parquet files (pyarrow), real WARC files
(:mod:`tests.batch.warcs`), the command line (the console script for the main runs).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from robotrules.batch.inputs.ccindex import reading as ccindex
from tests.batch.warcs import Record, write
from tests.cli.conftest import Run, assert_clean_error, console_script  # noqa: F401 (a fixture)
from tests.servers.http import HTTPServer

pa = pytest.importorskip("pyarrow", reason="pyarrow (robotrules[batch]) is not installed")
pq = pytest.importorskip("pyarrow.parquet")
pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")

SITES = 3
EVIL = "http://evil.test/robots.txt"
GOOD = "crawl/good.warc.gz"


class Place:
    """A prefix folder holding :data:`GOOD` (a capture of s0..s2.test, each disallowing /private-n),
    a sentinel WARC outside it (``evil.test`` disallowing everything), and links out of it."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.prefix = root / "prefix"
        (self.prefix / "crawl").mkdir(parents=True)
        self.offsets = write(self.prefix / GOOD, [Record.of(f"http://s{n}.test/robots.txt",
                                                            b"User-agent: *\nDisallow: /private-%d\n" % n)
                                                  for n in range(SITES)])
        self.ends = [*self.offsets[1:], (self.prefix / GOOD).stat().st_size]
        outside = root / "outside"
        outside.mkdir()
        self.sentinel = outside / "secret.warc.gz"
        write(self.sentinel, [Record.of(EVIL, b"User-agent: *\nDisallow: /\n")])
        self.sentinel_length = self.sentinel.stat().st_size
        os.symlink(self.sentinel, self.prefix / "link.warc.gz")
        os.symlink(outside, self.prefix / "dirlink")
        (root / "urls.txt").write_text("".join(f"http://s{n}.test/private-{n}\n" for n in range(SITES))
                                       + "http://evil.test/page\n")

    def good_rows(self) -> list[dict[str, Any]]:
        return [{"url": f"http://s{n}.test/robots.txt", "warc_filename": GOOD, "warc_record_offset": start,
                 "warc_record_length": end - start} for n, (start, end) in enumerate(zip(self.offsets, self.ends,
                                                                                       strict=True))]

    def evil(self, name: str, offset: Any = 0, length: Any = None) -> dict[str, Any]:
        """A row of ``evil.test`` pointing at ``name`` (default: the sentinel's whole length)."""
        return {"url": EVIL, "warc_filename": name, "warc_record_offset": offset,
                "warc_record_length": self.sentinel_length if length is None else length}

    def index(self, rows: list[dict[str, Any]], schema: Any = None, name: str = "index.parquet") -> Path:
        path = self.root / name
        table = pa.Table.from_pylist(rows, schema=schema)
        pq.write_table(table.append_column("url_host_name", pa.array([row["url"].split("/")[2] for row in rows])), path)
        return path


@pytest.fixture
def place(tmp_path: Path) -> Place:
    return Place(tmp_path)


def batch_args(place: Place, index: Path, *more: str) -> tuple[str, ...]:
    return ("batch", "--urls", str(place.root / "urls.txt"), "--cc-index", str(index), "--warc-prefix",
            str(place.prefix), "--output", str(place.root / "out.csv"), *more)


def verdicts(place: Place) -> dict[str, Any]:
    frame = pandas.read_csv(place.root / "out.csv")
    return {url: None if pandas.isna(allowed) else bool(allowed) for url, allowed in zip(frame["url"], frame["allowed"],
                                                                                         strict=True)}


INT_ROWS = [  # (what the row is, its evil.test row given the place, the words of its damage)
    ("a negative length", lambda p: p.evil(GOOD, 0, -1), "the length -1 is negative"),
    ("a zero length", lambda p: p.evil(GOOD, p.offsets[1], 0), "gives the record no bytes"),
    ("a length over the record bound", lambda p: p.evil(GOOD, p.offsets[2], ccindex.MAX_RECORD + 1),
     "bytes of any robots.txt record"),
    ("a missing length", lambda p: {**p.evil(GOOD, 3), "warc_record_length": None}, "the length is missing"),
    ("a negative offset", lambda p: p.evil(GOOD, -5, 100), "the offset -5 is negative"),
    ("an offset past any file", lambda p: p.evil(GOOD, 2**63 - 1, 100), "past the end of any file"),
    ("a missing offset", lambda p: p.evil(GOOD, None, 100), "the offset is missing"),
    ("a name climbing out", lambda p: p.evil("../outside/secret.warc.gz"), "leads outside the WARC prefix"),
    ("an absolute name", lambda p: p.evil(str(p.sentinel)), "is absolute"),
    ("a name with a NUL", lambda p: p.evil("crawl/good\x00.warc.gz"), "control character"),
    ("a percent-encoded climb", lambda p: p.evil("%2e%2e/outside/secret.warc.gz"), "leads outside the WARC prefix"),
    ("a chained file system", lambda p: p.evil(f"x::file://{p.sentinel}"), "is absolute"),
    ("a link out of the prefix", lambda p: p.evil("link.warc.gz"), "leads outside the WARC prefix"),
    ("a folder link out of the prefix", lambda p: p.evil("dirlink/secret.warc.gz"), "leads outside the WARC prefix"),
]


def test_every_unusable_row_is_skipped_counted_and_named_and_nothing_outside_is_read(
        console_script: Run, place: Place) -> None:  # noqa: F811
    """With --skip-bad-records each unusable row (bad numbers, names out of the prefix, links out)
    is one damaged record named by the index file and its row; an offset far past the end of the
    file is a record cut short, named by the WARC file and that byte. The good rows decide their
    sites, and the sentinel outside the prefix decides nothing (evil.test has no capture)."""
    far = 2**62
    rows = [*place.good_rows(), *(make(place) for _, make, _ in INT_ROWS), place.evil(GOOD, far, 100)]
    index = place.index(rows)
    done = console_script(*batch_args(place, index, "--skip-bad-records", "--json"))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    summary = json.loads(done.stdout)
    assert summary["bad_records"] == len(INT_ROWS) + 1
    of_rows = [item for item in summary["skipped"] if item["path"] == str(index)]
    details = sorted((item["detail"] for item in of_rows), key=lambda detail: int(detail.split()[1]))
    for number, ((what, _, words), detail) in enumerate(zip(INT_ROWS, details, strict=True), start=SITES):
        assert detail.startswith(f"row {number} of the index: ") and words in detail, (what, detail)
    [cut] = [item for item in summary["skipped"] if item["path"] != str(index)]
    assert (cut["path"], cut["offset"]) == (str(place.prefix / GOOD), far) and "cut short" in cut["detail"]
    assert all("\n" not in item["detail"] for item in summary["skipped"])
    assert verdicts(place) == {**{f"http://s{n}.test/private-{n}": False for n in range(SITES)},
                               "http://evil.test/page": None}


def test_an_unusable_row_without_skip_ends_the_run_with_one_line_naming_it(console_script: Run, place: Place) -> None:  # noqa: F811
    """Without --skip-bad-records the first unusable row (a negative length, which used to read to
    the end of the file) ends the run: exit 2, one line naming the index file and the row."""
    index = place.index([*place.good_rows(), place.evil(GOOD, 0, -1)])
    done = console_script(*batch_args(place, index))
    line = assert_clean_error(done)
    assert f"{index}: damaged at byte " in line and f"row {SITES} of the index: the length -1 is negative" in line
    assert "--skip-bad-records" in line
    assert not (place.root / "out.csv").exists()


@pytest.mark.parametrize(("column", "kind", "value", "words"), [
    ("warc_record_offset", pa.string(), "0", "the offset '0' is not a whole number"),
    ("warc_record_offset", pa.list_(pa.int64()), [0], "the offset [0] is not a whole number"),
    ("warc_record_offset", pa.float64(), 0.5, "the offset 0.5 is not a whole number"),
    ("warc_record_length", pa.float64(), 120.7, "the length 120.7 is not a whole number"),
    ("warc_record_length", pa.string(), "120", "the length '120' is not a whole number"),
    ("warc_record_length", pa.float64(), float("nan"), "the length nan is not a whole number"),
    ("warc_filename", pa.binary(), b"crawl/good.warc.gz", "not the name of a file"),
], ids=["string offset", "list offset", "fractional offset", "fractional length", "string length", "nan length",
        "binary name"])
def test_a_row_of_the_wrong_type_is_a_damaged_record_not_a_traceback(robotrules: Run, place: Place, column: str,
                                                                    kind: Any, value: Any, words: str) -> None:
    """A string, list or fractional offset or length (never truncated), or a name that is not text,
    is one line without --skip-bad-records (exit 2), and a counted skip with it."""
    fields = {"url": pa.string(), "warc_filename": pa.string(), "warc_record_offset": pa.int64(),
              "warc_record_length": pa.int64()}
    index = place.index([{**place.evil(GOOD), column: value}], schema=pa.schema({**fields, column: kind}))
    line = assert_clean_error(robotrules(*batch_args(place, index)))
    assert "row 0 of the index: " in line and words in line
    done = robotrules(*batch_args(place, index, "--skip-bad-records", "--json"))
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    summary = json.loads(done.stdout)
    assert summary["bad_records"] == 1 and words in summary["skipped"][0]["detail"]
    assert verdicts(place)["http://evil.test/page"] is None


def test_a_whole_float_is_read_as_its_number(robotrules: Run, place: Place) -> None:
    """A column written as floating point (as pandas writes integers beside a missing value) is
    read when each value is a whole number: nothing truncated, nothing refused."""
    rows = [{**row, "warc_record_offset": float(row["warc_record_offset"]),
             "warc_record_length": float(row["warc_record_length"])} for row in place.good_rows()]
    index = place.index(rows)
    done = robotrules(*batch_args(place, index))
    assert done.returncode == 1, done.stderr
    assert verdicts(place) == {**{f"http://s{n}.test/private-{n}": False for n in range(SITES)},
                               "http://evil.test/page": None}


def test_refusing_a_name_outside_the_prefix_says_nothing_of_whether_the_file_exists(robotrules: Run,
                                                                                    place: Place) -> None:
    """A name leading out of the prefix is refused before anything is opened: the message for a
    file that is there and one that is not differ only by the name."""
    lines = []
    for name in ("../outside/secret.warc.gz", "../outside/absent.warc.gz", "dirlink/secret.warc.gz",
                 "dirlink/absent.warc.gz"):
        index = place.index([place.evil(name)], name=f"{name.replace('/', '_')}.parquet")
        line = assert_clean_error(robotrules(*batch_args(place, index)))
        lines.append(line.replace(str(index), "INDEX").replace("secret", "NAME").replace("absent", "NAME"))
    assert lines[0] == lines[1] and lines[2] == lines[3]


def test_two_million_copies_of_a_row_are_one_record_and_few_python_rows(robotrules: Run, place: Place,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """2,000,000 duplicate rows used to cost 1.2 GB before deduplication: the index is read a batch
    at a time and each batch's copies are merged by pyarrow, so only a few rows ever become
    Python values (counted at the one place rows become records); one record, one verdict."""
    count = 2_000_000
    row = place.good_rows()[0]
    made = []
    real = ccindex._record_of
    monkeypatch.setattr(ccindex, "_record_of", lambda *args: made.append(1) or real(*args))
    path = place.root / "copies.parquet"
    pq.write_table(pa.table({name: pa.repeat(pa.scalar(value), count) for name, value in
                             {**row, "url_host_name": "s0.test"}.items()}), path)
    (place.root / "urls.txt").write_text("http://s0.test/private-0\n")
    done = robotrules(*batch_args(place, path, "--json"))
    assert done.returncode == 1, done.stderr
    assert len(made) <= 4 * (count // ccindex._ROWS_AT_ONCE + 1), len(made)  # about one per batch, not per row
    assert verdicts(place) == {"http://s0.test/private-0": False}


def test_names_under_a_url_prefix_never_leave_its_host(robotrules: Run, place: Place) -> None:
    """Under a URL prefix, names that would climb out (also percent-encoded), chain another file
    system, or start past the end of the file are damaged records; the server is asked for the
    good ranges only, and the file past whose end a row starts is not an error of the whole run."""
    from tests.batch.test_cc_index import ranges

    data = (place.prefix / GOOD).read_bytes()
    with HTTPServer() as server:
        server.route("/warcs/" + GOOD, ranges(place.prefix / GOOD))
        rows = [*place.good_rows(), place.evil("../outside/secret.warc.gz"),
                place.evil("%2e%2e/%2e%2e/outside/secret.warc.gz"), place.evil(f"x::file://{place.sentinel}"),
                place.evil("crawl/a?b=../../x"), place.evil(GOOD, len(data) + 100, 50)]
        index = place.index(rows)
        done = robotrules("batch", "--urls", str(place.root / "urls.txt"), "--cc-index", str(index), "--warc-prefix",
                          server.url("/warcs/"), "--output", str(place.root / "out.csv"), "--skip-bad-records", "--json")
        assert done.returncode == 1, done.stderr
        summary = json.loads(done.stdout)
        assert summary["bad_records"] == 5, summary["skipped"]
        assert {request.path for request in server.requests} == {"/warcs/" + GOOD}
    assert verdicts(place)["http://evil.test/page"] is None
    assert verdicts(place)["http://s1.test/private-1"] is False
