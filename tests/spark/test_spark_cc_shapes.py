"""Common Crawl's robots.txt captures as they are stored, decided on Spark row for row as the local
engine decides them (issue #20, section 1).

The shapes and the pinned verdicts are those of ``tests/batch/test_cc_shapes.py`` (several
captures of one URL, http and https apart, a redirect chain across records written out of order
ending at rules or at an HTML page, an HTML 200, a 503 then a 200, a 200 then a 404): the WARC
is read in the executors, on both of Spark's paths (the captures shipped to every task, and the
shuffle), as captured and at a later decision time (``now``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from robotrules.batch import Capture
from tests.batch.test_cc_shapes import AGENTS, DAY, EXPECTED, HOUR, TEXT, URLS, T, local_rows, shapes_warc
from tests.spark.test_spark_engine import write_warc

pytestmark = pytest.mark.jvm


@pytest.mark.parametrize("broadcast_limit", [None, 0], ids=["shipped", "shuffled"])
@pytest.mark.parametrize("now", [None, T + HOUR], ids=["as-captured", "an-hour-after"])
def test_spark_decides_common_crawl_shapes_row_for_row_as_the_local_engine(spark: Any, tmp_path: Path,
                                                                            now: float | None,
                                                                            broadcast_limit: int | None) -> None:
    """F1-F5, F3, S1, C1 on Spark: every row of the WARC of Common Crawl shapes equals the local
    engine's row (every column, reasons included), and the verdicts are the pinned ones."""
    from robotrules import spark as rs

    warc = shapes_warc(tmp_path / "robotstxt.warc.gz")
    urls = spark.createDataFrame([(url,) for url in URLS], "url string")
    got = rs.collect_rows(rs.decide(urls, [warc], list(AGENTS), now=now, broadcast_limit=broadcast_limit))
    want = sorted(local_rows(warc, now), key=repr)
    assert got == want
    assert {(row[0], row[1]): (row[2], row[4], row[6]) for row in got} == {
        (url, agent): answer for url, answer in EXPECTED.items() for agent in AGENTS}


def test_spark_replays_every_capture_of_a_url_as_the_local_engine(spark: Any, tmp_path: Path) -> None:
    """C1, C2, F5 on Spark: a decision time between two captures sees the earlier one, and a 503
    an hour after a 200 leaves the 200's rules deciding, as on the local engine."""
    from robotrules import spark as rs

    warc = shapes_warc(tmp_path / "robotstxt.warc.gz")
    urls = spark.createDataFrame([(url,) for url in URLS], "url string")
    got = rs.collect_rows(rs.decide(urls, [warc], list(AGENTS), now=T - DAY + HOUR))
    assert got == sorted(local_rows(warc, T - DAY + HOUR), key=repr)
    refresh = tmp_path / "refresh.warc.gz"
    write_warc(refresh, [Capture("https://c2.example/robots.txt", 200, TEXT, b"User-agent: *\nDisallow: /private\n",
                                 T - HOUR),
                         Capture("https://c2.example/robots.txt", 503, {}, b"busy", T)])
    pages = ["https://c2.example/open", "https://c2.example/private"]
    got = rs.collect_rows(rs.decide(spark.createDataFrame([(url,) for url in pages], "url string"), [refresh],
                                    list(AGENTS)))
    assert got == sorted(local_rows(refresh, None, pages), key=repr)
    assert {(row[0], row[2]) for row in got if row[1] == "*"} == {("https://c2.example/open", True),
                                                                  ("https://c2.example/private", False)}


@pytest.mark.parametrize("broadcast_limit", [None, 0], ids=["shipped", "shuffled"])
def test_spark_rows_carry_each_outcome_class_of_their_robots_txt_as_the_local_engine(spark: Any,
                                                                                     broadcast_limit: int | None) -> None:
    """F2-F5, F3, C2 beside the verdict, on Spark: every class (forbidden, defer, allow_all,
    redirect_unresolved, not_robots_txt, no_rules, with_rules, no_capture, and "" for a row with
    no URL or no robots.txt) is on the ``robots_outcome`` of the rows of the URLs it governs, on
    both of Spark's paths, row for row the local engine's rows (with the preference columns too)."""
    from robotrules import spark as rs
    from robotrules.answers import COLUMNS
    from robotrules.batch.engine import row_columns
    from tests.batch.test_outcomes import BATCH_AGENTS, BATCH_OUTCOMES, BATCH_URLS, CAPTURES, batch_rows
    from tests.spark.test_spark_engine import captures_df

    urls = spark.createDataFrame([(url,) for url in BATCH_URLS], "url string")
    result = rs.decide(urls, captures_df(spark, CAPTURES), list(BATCH_AGENTS), broadcast_limit=broadcast_limit,
                       preferences=True)
    assert tuple(result.columns) == row_columns(preferences=True)  # the class, then the preference columns
    got = rs.collect_rows(result)
    assert got == sorted(batch_rows(preferences=True), key=repr)
    assert {(row[0], row[1]): row[len(COLUMNS) - 1] for row in got} == {
        (url, agent): outcome for url, outcome in BATCH_OUTCOMES.items() for agent in BATCH_AGENTS}
