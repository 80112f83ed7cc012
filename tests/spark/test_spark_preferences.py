"""The Spark engine gives the local engine's values for the AI-use columns of issue #18: the batch
rows' preference columns (A1-A7) and the audit's train-ai preference and AI training opt-out
(A1-A8), on the same captures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from robotrules import batch
from robotrules.answers import COLUMNS, spark_schema
from robotrules.batch import audit
from robotrules.batch.audit import by_purpose
from robotrules.batch.engine import PREFERENCE_COLUMNS, row_columns
from tests.batch.usage_sites import (
    AUDIT_AGENTS,
    PINNED,
    PREFERENCE_AGENTS,
    PREFERENCE_CAPTURES,
    PREFERENCE_URLS,
    opt_out_warc,
)

pytestmark = pytest.mark.jvm

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")
pytest.importorskip("warcio", reason="reading WARC files needs warcio (robotrules[batch])")


def _plain(row: Any) -> tuple[Any, ...]:
    """A row's cells as Python values (pandas' NA and NaN as None)."""
    return tuple(None if v is None or v is pandas.NA or (isinstance(v, float) and v != v) else v for v in row)


def _items() -> list[tuple[str, str | None]]:
    """Every URL, half of them with their own agent (the others get every agent of the call)."""
    return [(url, PREFERENCE_AGENTS[i % 3] if i % 2 else None) for i, url in enumerate(PREFERENCE_URLS)]


def test_spark_preference_columns_equal_the_local_engines(spark: Any) -> None:
    """A1-A7 on Spark: the same rows, preference columns included, as the local engine gives for
    the same captures and URLs (rows with their own agent too)."""
    from robotrules import spark as rs

    captures = spark.createDataFrame(
        [(c.url, c.status, json.dumps(dict(c.headers)), c.body, c.fetched_at, c.error) for c in PREFERENCE_CAPTURES],
        "url string, status int, headers string, body binary, fetched_at double, error string")
    urls = spark.createDataFrame(_items(), "url string, agent string")
    result = rs.decide(urls, captures, ["*", "FooBot/1.0"], preferences=True)
    assert tuple(result.columns) == row_columns(preferences=True)
    assert result.schema.simpleString().endswith("train_ai:boolean,search:boolean,ai_input:boolean>")
    got = rs.collect_rows(result)
    local = batch.decide([url if agent is None else (url, agent) for url, agent in _items()], ["*", "FooBot/1.0"],
                         PREFERENCE_CAPTURES, preferences=True, processes=1)
    assert got == sorted((_plain(row) for row in local.itertuples(index=False)), key=repr)
    by_key = {(row[0], row[1]): row[len(COLUMNS):] for row in got}
    assert by_key["https://pref.test/mixed/a", "*"] == PINNED["https://pref.test/mixed/a", "*"]
    assert by_key["https://top.test/", "FooBot/1.0"] == PINNED["https://top.test/", "FooBot/1.0"]
    assert tuple(rs.decide(urls, captures, ["*"]).columns) == COLUMNS  # without them: today's columns
    assert spark_schema() == rs.OUTPUT_SCHEMA  # and today's schema, exactly
    assert spark_schema() + ", train_ai boolean, search boolean, ai_input boolean" == rs.PREFERENCES_SCHEMA


def test_batch_run_on_spark_writes_the_local_preference_columns(spark: Any, tmp_path: Path) -> None:
    """``batch.run(engine="spark", preferences=True)`` (what ``robotrules batch --engine spark
    --preferences`` runs) writes the local engine's table, its preference columns nullable booleans."""
    from tests.batch.conftest import write_answers_warc

    warc = write_answers_warc(tmp_path / "prefs.warc.gz",
                              {c.url: (c.status, dict(c.headers), c.body) for c in PREFERENCE_CAPTURES})
    urls = tmp_path / "urls.txt"
    urls.write_text("".join(url + "\n" for url in PREFERENCE_URLS if url))
    local = batch.run(urls, tmp_path / "local.parquet", PREFERENCE_AGENTS, str(warc), processes=1, preferences=True)
    on_spark = batch.run(urls, tmp_path / "spark.parquet", PREFERENCE_AGENTS, [str(warc)], engine="spark",
                         preferences=True)
    assert (on_spark.rows, on_spark.allowed, on_spark.disallowed) == (local.rows, local.allowed, local.disallowed)
    import pyarrow.parquet as pq

    schema = pq.read_schema(tmp_path / "spark.parquet")
    assert schema.names == list(row_columns(preferences=True))
    assert all(str(schema.field(name).type) == "bool" for name in PREFERENCE_COLUMNS)

    def rows(path: Path) -> list[tuple[Any, ...]]:
        frame = pandas.read_parquet(path)
        return sorted((_plain(row) for row in frame.itertuples(index=False)), key=repr)

    assert rows(tmp_path / "spark.parquet") == rows(tmp_path / "local.parquet")


def test_spark_audit_gives_the_local_train_ai_and_opt_out_columns(spark: Any, tmp_path: Path) -> None:
    """A1-A8 on Spark: for sites opting out by robots.txt, train-ai=n (Content-Usage and
    Content-Signal), both and neither, the audit table (train_ai and training_opt_out included,
    with the same types) and its sums per site and purpose are the local engine's."""
    warc = opt_out_warc(tmp_path)
    local = audit.table(warc, AUDIT_AGENTS, processes=1)
    on_spark = audit.table([warc], AUDIT_AGENTS, engine="spark")
    by_site = local.assign(order=local["agent"].map(AUDIT_AGENTS.index)).sort_values(["site", "order"], kind="stable")
    pandas.testing.assert_frame_equal(on_spark, by_site.drop(columns="order").reset_index(drop=True))
    assert set(on_spark["training_opt_out"]) == {"robots.txt", "train-ai=n", "neither", "unknown", ""}
    mine, theirs = by_purpose(local), by_purpose(on_spark)
    key = ["site", "kind"]
    pandas.testing.assert_frame_equal(theirs.sort_values(key).reset_index(drop=True),
                                      mine.sort_values(key).reset_index(drop=True))
    assert set(theirs["training_opt_out"]) == {"robots.txt", "train-ai=n", "both", "neither", "unknown", ""}
