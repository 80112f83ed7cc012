"""Captures in a Spark DataFrame are read as the same rows in a table file are (issue #17).

The same captures as ``tests/batch/test_capture_rows.py``, given to the Spark engine as a Spark
DataFrame made from what pandas reads of the CSV (float statuses, missing cells, a base64 body),
give exactly the local engine's rows from the CSV file (F2-F8).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from robotrules import batch
from tests.batch.test_capture_rows import URLS, _csv

pytestmark = pytest.mark.jvm

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")


def test_spark_reads_a_dataframe_of_captures_as_the_local_engine_reads_the_file(spark: Any, tmp_path: Path) -> None:
    """Issue #17: one reading of capture rows for files, pandas and Spark DataFrames."""
    from robotrules import spark as rs

    csv_path = _csv(tmp_path / "captures.csv")
    local = batch.decide(URLS, ["FooBot"], robots=[csv_path], processes=1)
    want = sorted((tuple(None if pandas.isna(v) else v for v in row) for row in local.itertuples(index=False)),
                  key=repr)
    frame = pandas.read_csv(csv_path, dtype={"body": "string", "body_encoding": "string", "error": "string"})
    captures = spark.createDataFrame(frame.astype(object).where(frame.notna(), None))
    urls = spark.createDataFrame([(url,) for url in URLS], "url string")
    got = rs.collect_rows(rs.decide(urls, captures, ["FooBot"]))
    assert got == want
