"""A8 on the local engine: a crawler that ignores the ``*`` group (AdsBot-Google) is decided
without it, row for row as :func:`robotrules.batch.engine.rows.decide_row` (and Spark) decide it,
with the reason saying so, in rows, in Arrow tables and through worker processes."""

from __future__ import annotations

import pytest

from robotrules.batch import Capture
from robotrules.batch.captures import Archive
from robotrules.batch.engine import ArchiveSource, decide_row, decide_rows, robots_url_of
from robotrules.core.policy import Policy

T = 1_714_564_800.0
TEXT = {"content-type": "text/plain"}
ARCHIVE = [
    Capture("https://star.example/robots.txt", 200, TEXT, b"User-agent: *\nDisallow: /\n", T),
    Capture("https://named.example/robots.txt", 200, TEXT,
            b"User-agent: *\nDisallow: /\n\nUser-agent: AdsBot-Google\nDisallow: /ads-free\n", T),
]
URLS = ["https://star.example/page", "https://named.example/page", "https://named.example/ads-free/x"]
AGENTS = ("AdsBot-Google", "*", "AdsBot-Google-Mobile")


def source() -> ArchiveSource:
    return ArchiveSource(Archive(ARCHIVE), Policy(), "google", None)


def expected(items: list[object]) -> list[tuple[object, ...]]:
    src = source()
    rows = []
    for item in items:
        url, agents = (item, AGENTS) if isinstance(item, str) else (item[0], (item[1],))
        gov = src.governing(robots_url_of(url) or "")
        rows.extend(decide_row(url, agent, gov) for agent in agents)
    return rows


@pytest.mark.parametrize("processes", [1, 2])
def test_the_local_engine_decides_a_crawler_ignoring_the_star_group_without_it(processes: int) -> None:
    """A8: ``User-agent: * / Disallow: /`` does not block AdsBot-Google on the local engine
    either; a group naming it does; ``*`` stays blocked. Pairs (url, agent) too."""
    items: list[object] = [*URLS, ("https://star.example/p2", "AdsBot-Google"), ("https://star.example/p3", "*")]
    rows = [row for chunk in decide_rows(items, AGENTS, source(), processes=processes) for row in chunk]
    assert rows == expected(items)
    ads = {row[0]: row for row in rows if row[1] == "AdsBot-Google"}
    assert ads["https://star.example/page"][2] is True
    assert ads["https://star.example/page"][7].endswith("AdsBot-Google ignores the group 'user-agent: *'")
    assert ads["https://named.example/ads-free/x"][2] is False
    assert {row[2] for row in rows if row[1] == "*"} == {False}


def test_arrow_tables_of_the_local_engine_carry_the_a8_reason() -> None:
    """The columnar output (Parquet, CSV) gives the same rows as the tuples."""
    pa = pytest.importorskip("pyarrow")
    from robotrules.answers import arrow_schema

    (block,) = list(decide_rows(URLS, AGENTS, source(), processes=1))
    table = block.to_arrow(arrow_schema(pa))
    assert [tuple(row.values()) for row in table.to_pylist()] == [tuple(row) for row in block.rows()]
