"""A truncated or corrupt archive is never read in silence (issue #16-M5).

A .warc.gz cut in half used to give "no capture" for the sites it lost, with exit 0. Now the
first damaged record stops the job with one line naming the file and the byte where the damage
starts (exit 2), or, with ``--skip-bad-records`` (``skip_bad_records=True``), the damaged records
are skipped, the rest is read, and they are counted in the summary. Real WARC files, written
with warcio or byte by byte, then cut or corrupted; the command line for messages.
"""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import pytest

from robotrules import batch
from robotrules.batch import BadRecord, DamagedArchive, archive_of, read_captures
from robotrules.batch.inputs.warc import read_warc
from robotrules.errors import SourceError
from tests.batch.warcs import Record, write
from tests.cli.conftest import Run, assert_clean_error

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")

SITES = 10


def rules(n: int) -> bytes:
    return b"User-agent: *\nDisallow: /private-%d\n" % n + b"# padding\n" * 40


def sites_warc(path: Path, *, gz: bool = True) -> list[int]:
    """A WARC of :data:`SITES` robots.txt captures (site n disallows /private-n); each record's offset."""
    return write(path, [Record.of(f"http://s{n}.test/robots.txt", rules(n)) for n in range(SITES)], gz=gz)


def cut(path: Path, size: int, name: str = "cut.warc.gz") -> Path:
    target = path.with_name(name)
    target.write_bytes(path.read_bytes()[:size])
    return target


def urls(tmp_path: Path) -> Path:
    path = tmp_path / "urls.txt"
    path.write_text("".join(f"http://s{n}.test/private-{n}\n" for n in range(SITES)))
    return path


@pytest.fixture
def half(tmp_path: Path) -> tuple[Path, list[int]]:
    """A .warc.gz cut in half (inside the sixth record), and where each record started."""
    whole = tmp_path / "whole.warc.gz"
    offsets = sites_warc(whole)
    return cut(whole, (offsets[5] + offsets[6]) // 2), offsets


def test_a_warc_gz_cut_in_half_is_one_line_naming_the_file_and_the_byte(robotrules: Run, tmp_path: Path,
                                                                         half: tuple[Path, list[int]]) -> None:
    """#16-M5: batch exits 2 with one line: the file, the byte where the lost record starts; no rows written."""
    path, offsets = half
    done = robotrules("batch", "--urls", str(urls(tmp_path)), "--robots", str(path), "--output", "out.csv")
    line = assert_clean_error(done)
    assert f"{path}: damaged at byte {offsets[5]}: " in line and "cut short" in line
    assert "--skip-bad-records" in line
    assert not (tmp_path / "out.csv").exists()


def test_skip_bad_records_reads_the_rest_and_counts_them_in_the_summary(robotrules: Run, tmp_path: Path,
                                                                         half: tuple[Path, list[int]]) -> None:
    """#16-M5: with --skip-bad-records the sites before the damage are decided, the lost ones are
    unknown, and the summary (text and JSON) counts the damaged record and says where it is."""
    path, offsets = half
    done = robotrules("batch", "--urls", str(urls(tmp_path)), "--robots", str(path), "--output", "out.csv",
                      "--skip-bad-records")
    assert done.returncode == 1, done.stderr
    assert f"1 damaged record of the archives skipped ({path} at byte {offsets[5]})" in done.stdout
    frame = pandas.read_csv(tmp_path / "out.csv")
    assert frame["allowed"].tolist()[:5] == [False] * 5
    assert frame["allowed"].isna().tolist() == [False] * 5 + [True] * 5
    again = robotrules("batch", "--urls", str(urls(tmp_path)), "--robots", str(path), "--output", "out.jsonl",
                       "--skip-bad-records", "--json")
    summary = json.loads(again.stdout)
    assert summary["bad_records"] == 1
    assert summary["skipped"] == [{"path": str(path), "offset": offsets[5], "detail": summary["skipped"][0]["detail"]}]


def test_the_library_raises_damaged_archive_or_skips_and_counts(tmp_path: Path, half: tuple[Path, list[int]]) -> None:
    """#16-M5: decide() and run() raise DamagedArchive (a SourceError) with the file and offset;
    skip_bad_records=True gives the rows of what was read and the damaged records."""
    path, offsets = half
    with pytest.raises(DamagedArchive) as raised:
        batch.decide(["http://s0.test/x"], robots=str(path))
    assert isinstance(raised.value, SourceError)
    assert (raised.value.path, raised.value.offset) == (str(path), offsets[5])
    frame = batch.decide([f"http://s{n}.test/private-{n}" for n in range(SITES)], robots=str(path),
                         skip_bad_records=True, processes=1)
    assert frame["allowed"].isna().sum() == 5
    assert [item["offset"] for item in frame.attrs["bad_records"]] == [offsets[5]]
    summary = batch.run(urls(tmp_path), tmp_path / "out.parquet", robots=str(path), skip_bad_records=True)
    assert summary.bad_records == 1 and summary.skipped[0].offset == offsets[5]
    assert "1 damaged record of the archives skipped" in str(summary)


@pytest.mark.parametrize("gz", [True, False], ids=["warc.gz", "warc"])
def test_a_file_cut_anywhere_but_between_records_is_damaged(tmp_path: Path, gz: bool) -> None:
    """#16-M5: cut at every 5th byte, a file either raises DamagedArchive or, cut exactly where a
    record ends, holds the records before the cut: never fewer records in silence."""
    whole = tmp_path / ("whole.warc.gz" if gz else "whole.warc")
    offsets = sites_warc(whole, gz=gz)
    ends = {*offsets[1:], whole.stat().st_size}
    silent = []
    damaged: list[tuple[int, int]] = []
    for size in range(offsets[1] // 2, whole.stat().st_size, 5):
        path = cut(whole, size, "cut.warc.gz" if gz else "cut.warc")
        try:
            found = list(read_warc(str(path)))
        except DamagedArchive as exc:
            damaged.append((size, exc.offset))
            continue
        whole_records = sum(1 for start in [*offsets[1:], whole.stat().st_size] if start <= size)
        if len(found) != whole_records or not any(size - 4 <= end <= size for end in ends):
            silent.append((size, len(found)))
    assert not silent
    assert damaged and all(offset in offsets and offset <= size for size, offset in damaged)


def test_a_corrupt_gzip_member_is_damaged_and_skipping_reads_the_records_after_it(tmp_path: Path) -> None:
    """#16-M5: bytes overwritten inside one gzip member: DamagedArchive at that member; skipping it,
    every other record is read (the reader finds the next member) and one bad record is counted."""
    whole = tmp_path / "whole.warc.gz"
    offsets = sites_warc(whole)
    data = bytearray(whole.read_bytes())
    middle = (offsets[3] + offsets[4]) // 2
    data[middle:middle + 16] = b"\xff" * 16
    broken = tmp_path / "broken.warc.gz"
    broken.write_bytes(bytes(data))
    with pytest.raises(DamagedArchive) as raised:
        list(read_captures(str(broken)))
    assert raised.value.offset == offsets[3]
    bad: list[BadRecord] = []
    found = [capture.url for capture in read_captures(str(broken), bad_records=bad)]
    assert found == [f"http://s{n}.test/robots.txt" for n in range(SITES) if n != 3]
    assert [(record.path, record.offset) for record in bad] == [(str(broken), offsets[3])]


def test_a_wrong_content_length_in_a_plain_warc_is_damaged(tmp_path: Path) -> None:
    """#16-M5: a record whose Content-Length is too short is not followed by its blank lines: damaged."""
    whole = tmp_path / "whole.warc"
    offsets = sites_warc(whole, gz=False)
    data = whole.read_bytes()
    at = data.index(b"Content-Length: ", offsets[2])
    end = data.index(b"\r\n", at)
    length = int(data[at + 16:end])
    broken = tmp_path / "broken.warc"
    broken.write_bytes(data[:at + 16] + str(length - 30).encode() + data[end:])
    with pytest.raises(DamagedArchive, match="Content-Length is wrong") as raised:
        list(read_captures(str(broken)))
    assert raised.value.offset == offsets[2]
    bad: list[BadRecord] = []
    assert len(list(read_captures(str(broken), bad_records=bad))) == SITES - 1 and len(bad) == 1


def test_an_index_remembers_the_damaged_records_it_skipped(tmp_path: Path, half: tuple[Path, list[int]]) -> None:
    """#16-M5: an index built with skip_bad_records lists them; reused by a job that does not skip,
    it raises DamagedArchive as reading the file would; reused by one that skips, it counts them."""
    path, offsets = half
    index = tmp_path / "captures.sqlite3"
    with pytest.raises(DamagedArchive):
        archive_of(str(path), index=index)
    assert not index.exists()
    built = archive_of(str(path), index=index, skip_bad_records=True)
    assert len(built) == 5 and [bad.offset for bad in built.bad_records] == [offsets[5]]
    with pytest.raises(DamagedArchive) as raised:
        archive_of(str(path), index=index)
    assert raised.value.offset == offsets[5]
    reused = archive_of(str(path), index=index, skip_bad_records=True)
    assert reused.bad_records == built.bad_records


def test_a_compressed_table_of_captures_cut_short_is_damaged_not_a_traceback(robotrules: Run,
                                                                              tmp_path: Path) -> None:
    """#16-M5: a .csv.gz of captures cut short is a one-line error; skipping, the rows before the cut count."""
    text = "robots_url,status,body\n" + "".join(f"http://s{n}.test/robots.txt,200,\"{rules(n).decode()}\"\n"
                                                for n in range(200))
    data = io.BytesIO()
    with gzip.GzipFile(fileobj=data, mode="wb") as packer:
        packer.write(text.encode())
    table = tmp_path / "captures.csv.gz"
    table.write_bytes(data.getvalue()[: len(data.getvalue()) * 2 // 3])
    (tmp_path / "urls.txt").write_text("http://s0.test/private-0\n")
    done = robotrules("batch", "--urls", "urls.txt", "--robots", str(table), "--output", "out.csv")
    assert f"{table}: damaged at byte" in assert_clean_error(done)
    skipped = robotrules("batch", "--urls", "urls.txt", "--robots", str(table), "--output", "out.csv",
                         "--skip-bad-records")
    assert skipped.returncode == 1 and "1 damaged record" in skipped.stdout, skipped.stderr


def test_skip_bad_records_needs_archives(robotrules: Run, tmp_path: Path) -> None:
    """--skip-bad-records is about the --robots archives: without them it is a usage error."""
    (tmp_path / "urls.txt").write_text("https://a.example/\n")
    done = robotrules("batch", "--urls", "urls.txt", "--output", "o.csv", "--skip-bad-records")
    assert "--skip-bad-records is for the archives of --robots" in assert_clean_error(done)


def test_a_file_that_is_not_a_warc_is_still_not_a_readable_warc(tmp_path: Path) -> None:
    """A file that is no WARC at all is not "damaged": it is a SourceError of its own, even when skipping."""
    path = tmp_path / "notes.warc"
    path.write_text("hello, not a WARC\n")
    with pytest.raises(SourceError, match="not a readable WARC file") as raised:
        list(read_captures(str(path), bad_records=[]))
    assert not isinstance(raised.value, DamagedArchive)
