"""The Spark engine gives the local engine's rows for the archives and tables of issue #16.

Rows without a URL are kept (#16-L2), bodies over the size limit are kept to the limit and flagged
(#16-M4, F9), and a damaged archive stops the job with the damaged record, or is skipped and counted
with the same records skipped (#16-M5), on either engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from robotrules import batch
from robotrules.batch import BadRecord, DamagedArchive, audit
from robotrules.batch.engine import NO_URL
from robotrules.batch.inputs import skipped_of
from tests.batch.warcs import FILLER, Record, bomb_body, gzipped, write

pytestmark = pytest.mark.jvm

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")

URLS = ["https://s0.test/private-0", None, "https://s1.test/x", "", "  ", "https://s6.test/private-6",
        "https://big.test/early", "https://big.test/late"]


def rules(n: int) -> bytes:
    return b"User-agent: *\nDisallow: /private-%d\n" % n + b"# padding\n" * 40


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    """A whole .warc.gz (eight sites and one body of 4 MiB), the same cut inside the seventh
    record, and where that record starts."""
    folder = tmp_path_factory.mktemp("issue16")
    big = gzipped(bomb_body(b"User-agent: *\nDisallow: /early\n# ", 4, b"\nDisallow: /late\n"))
    records = [Record.of("https://big.test/robots.txt", big, headers=[("Content-Encoding", "gzip")])]
    records += [Record.of(f"https://s{n}.test/robots.txt", rules(n)) for n in range(8)]
    whole = folder / "whole.warc.gz"
    offsets = write(whole, records)
    cut = folder / "cut.warc.gz"
    cut.write_bytes(whole.read_bytes()[: (offsets[7] + offsets[8]) // 2])
    assert len(FILLER) * 4 > 512_000
    return whole, cut, offsets[7]


@pytest.fixture(scope="module")
def urls(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("urls") / "urls.parquet"
    pandas.DataFrame({"url": URLS}).to_parquet(path)
    return path


def rows_of(path: Path) -> list[tuple[Any, ...]]:
    frame = pandas.read_parquet(path)
    return sorted((tuple(None if pandas.isna(v) else v for v in row) for row in frame.itertuples(index=False)),
                  key=repr)


def test_spark_keeps_rows_without_urls_and_flags_cut_bodies_as_the_local_engine_does(
        spark: Any, archives: tuple[Path, Path, int], urls: Path, tmp_path: Path) -> None:
    """#16-L2, #16-M4, F9: the same rows from both engines: every input row (null, empty and blank urls
    as "invalid URL" rows), and a 4 MiB body decided by its first 512,000 bytes, flagged."""
    from robotrules import spark as rs

    whole, _, _ = archives
    local = batch.run(urls, tmp_path / "local.parquet", ["FooBot", "*"], str(whole))
    assert rs.run_job(urls, [whole], tmp_path / "spark.parquet", ["FooBot", "*"], spark=spark) == local.rows
    got = rows_of(tmp_path / "spark.parquet")
    assert got == rows_of(tmp_path / "local.parquet")
    assert len(got) == len(URLS) * 2
    assert sum(1 for row in got if row[7] == NO_URL and row[0] == "") == 6
    flagged = {row[0]: row for row in got if row[0].startswith("https://big.test/")}
    assert (flagged["https://big.test/early"][2], flagged["https://big.test/late"][2]) == (False, True)
    assert flagged["https://big.test/early"][7].endswith("(only its first 512,000 bytes count: the rest is ignored)")


def test_spark_stops_at_a_damaged_archive_or_skips_the_records_the_local_engine_skips(
        spark: Any, archives: tuple[Path, Path, int], urls: Path, tmp_path: Path) -> None:
    """#16-M5: run_job raises the local engine's DamagedArchive (same file, same byte) and writes
    nothing; given a list, it skips the same records and gives the same rows."""
    from robotrules import spark as rs

    _, cut, offset = archives
    with pytest.raises(DamagedArchive) as raised:
        rs.run_job(urls, [cut], tmp_path / "spark.parquet", ["*"], spark=spark)
    assert (raised.value.path, raised.value.offset) == (str(cut), offset)
    assert not (tmp_path / "spark.parquet").exists()
    skipped: list[BadRecord] = []
    rs.run_job(urls, [cut], tmp_path / "spark.parquet", ["*"], spark=spark, bad_records=skipped)
    local = batch.run(urls, tmp_path / "local.parquet", ["*"], str(cut), skip_bad_records=True)
    assert skipped == list(local.skipped) and [bad.offset for bad in skipped] == [offset]
    assert rows_of(tmp_path / "spark.parquet") == rows_of(tmp_path / "local.parquet")


def test_spark_audit_of_a_damaged_archive_is_the_local_audit(spark: Any, archives: tuple[Path, Path, int]) -> None:
    """#16-M5: audit.table(engine="spark") raises DamagedArchive as the local audit does; with
    skip_bad_records the tables and the damaged records noted are the same."""
    _, cut, offset = archives
    with pytest.raises(DamagedArchive) as raised:
        audit.table([cut], ["*"], engine="spark")
    assert raised.value.offset == offset
    local = audit.table(cut, ["*"], skip_bad_records=True, processes=1)
    on_spark = audit.table([cut], ["*"], engine="spark", skip_bad_records=True)
    pandas.testing.assert_frame_equal(on_spark, local.sort_values("site", kind="stable").reset_index(drop=True))
    assert skipped_of(on_spark) == skipped_of(local) == [BadRecord(str(cut), offset, skipped_of(local)[0].detail)]
