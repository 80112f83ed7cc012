"""The Spark engine's two paths give the local engine's table, row for row (issue #20, section 3).

Small capture sets are sent to every task and the URL rows are decided where they are (the fast
path, :mod:`robotrules.spark._shipped`); larger ones take the shuffle path (URL rows moved to
their robots.txt, salt buckets for giant sites), forced here with ``broadcast_limit=0``. Both are
checked on one mixed archive of the shapes crawl archives hold (F1-F9, C1): several captures of
one robots.txt (the latest decides), http and https captured apart (S1, S2), a redirect chain
across hosts written out of order (F3), an HTML page served with 200 (F2), a 503 then a 200 (F5
then F2), a 200 then a 404 (F4), a failed fetch (F8), a site never captured, and URLs with no
robots.txt at all.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from robotrules import batch
from robotrules.answers import COLUMNS
from robotrules.batch import Capture, audit
from robotrules.batch.engine import ArchiveSource, decide_row, governing, robots_url_of
from robotrules.core.policy import Policy
from tests.batch.usage_sites import PREFERENCE_AGENTS, PREFERENCE_CAPTURES, PREFERENCE_URLS
from tests.spark.test_spark_engine import HTML, T, write_warc

pytestmark = pytest.mark.jvm

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")
pytest.importorskip("warcio", reason="reading WARC files needs warcio (robotrules[batch])")

RULES = b"User-agent: *\nDisallow: /private\nAllow: /private/open\n\nUser-agent: FooBot\nDisallow: /\n"

FIRST_FILE = [
    # the target of a chain across hosts, written before the records that lead to it
    Capture("https://to.test/robots.txt", 200, {"content-type": "text/plain"}, b"User-agent: *\nDisallow: /moved\n", T),
    # several captures of one robots.txt: the latest decides, whatever the order they were written in
    Capture("https://multi.test/robots.txt", 200, {}, b"User-agent: *\nDisallow: /second\n", T - 100),
    Capture("https://multi.test/robots.txt", 200, {}, b"User-agent: *\nDisallow: /third\n", T),
    Capture("https://multi.test/robots.txt", 200, {}, b"User-agent: *\nDisallow: /first\n", T - 200),
    # http and https are two robots.txt files
    Capture("http://both.test/robots.txt", 200, {}, b"User-agent: *\nDisallow: /http-only\n", T),
    Capture("https://both.test/robots.txt", 200, {}, RULES, T),
    # a 503, then a 200: the 200 decides
    Capture("https://flaky.test/robots.txt", 503, {"retry-after": "60"}, b"busy", T - 100),
    Capture("https://flaky.test/robots.txt", 200, {}, b"User-agent: *\nDisallow: /flaky\n", T),
    # a 200, then a 404: everything is allowed
    Capture("https://gone.test/robots.txt", 200, {}, b"User-agent: *\nDisallow: /\n", T - 100),
]
SECOND_FILE = [
    Capture("https://gone.test/robots.txt", 404, {}, b"not found", T),
    Capture("https://via.test/robots.txt", 302, {"location": "https://to.test/robots.txt"}, b"", T),
    Capture("https://from.test/robots.txt", 301, {"location": "https://via.test/robots.txt"}, b"", T),
    Capture("http://from.test/robots.txt", 301, {"location": "https://from.test/robots.txt"}, b"", T),
    Capture("https://html.test/robots.txt", 200, {"content-type": "text/html"}, HTML, T),
    Capture("https://down.test/robots.txt", 503, {}, b"", T),
]
# Read later, at the same time: this capture of multi.test wins over the one of the first file.
TIE = [Capture("https://multi.test/robots.txt", 200, {}, b"User-agent: *\nDisallow: /tie\n", T)]

PAGES = ["/", "/private/x", "/private/open/y", "/moved/a", "/second/b", "/third/c", "/first/d", "/tie/e",
         "/http-only/f", "/flaky/g", "/x?q=1"]
HOSTS = ["https://multi.test", "http://both.test", "https://both.test", "https://flaky.test", "https://gone.test",
         "https://from.test", "http://from.test", "https://via.test", "https://html.test", "https://down.test",
         "https://never.test"]
URLS = [host + page for host in HOSTS for page in PAGES] + ["mailto:someone@example.com", "not a url"]
AGENTS = ["*", "FooBot/1.0", "Googlebot/2.1"]


def items() -> list[tuple[str | None, str | None]]:
    """URL rows: most without an agent (decided for every agent of the job), some with their
    own, some URLs asked about by several rows in a row (each with its own agent), and rows
    without a URL."""
    rows: list[tuple[str | None, str | None]] = []
    for i, url in enumerate(URLS):
        if i % 3 == 0:
            rows.extend((url, agent) for agent in ("FooBot", "*", "GPTBot"))
        elif i % 3 == 1:
            rows.append((url, AGENTS[i % len(AGENTS)]))
        else:
            rows.append((url, None))
    return [*rows, (None, None), ("", "FooBot"), ("  ", None)]


@pytest.fixture(scope="module")
def warcs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("mixed")
    paths = [folder / "first.warc.gz", folder / "second.warc", folder / "tie.warc.gz"]
    for path, captures in zip(paths, (FIRST_FILE, SECOND_FILE, TIE), strict=True):
        write_warc(path, captures)
    return paths


def _plain(row: Any) -> tuple[Any, ...]:
    return tuple(None if v is None or v is pandas.NA or (isinstance(v, float) and v != v) else v for v in row)


def local_rows(paths: list[Path], agents: list[str], **options: Any) -> list[tuple[Any, ...]]:
    """The local engine's table for :func:`items` (as it reads them from a table: a blank cell is
    no URL, ""), sorted."""
    wanted: list[Any] = []
    for url, agent in items():
        text = "" if url is None or not url.strip() else url
        wanted.append(text if agent is None else (text, agent))
    frame = batch.decide(wanted, agents, [str(p) for p in paths], processes=1, **options)
    return sorted((_plain(row) for row in frame.itertuples(index=False)), key=repr)


def urls_frame(spark: Any, partitions: int = 3) -> Any:
    return spark.createDataFrame(items(), "url string, agent string").repartition(partitions)


def test_the_fast_path_gives_the_local_engines_table_on_a_mixed_archive(spark: Any, warcs: list[Path]) -> None:
    """F1-F9, C1 on the fast path: every row (several captures per URL and a tie broken by file
    order, http and https, a chain across hosts written out of order, an HTML 200, a 503 then a
    200, a 200 then a 404, rows without a URL or an agent) is the local engine's."""
    from robotrules import spark as rs

    result = rs.decide(urls_frame(spark), warcs, AGENTS)
    assert tuple(result.columns) == COLUMNS
    got = rs.collect_rows(result)
    assert got == local_rows(warcs, AGENTS)
    verdicts: dict[str, set[bool | None]] = {}  # by URL, the verdicts of its rows (these files name no agent)
    for row in got:
        verdicts.setdefault(row[0], set()).add(row[2])
    assert verdicts["https://multi.test/tie/e"] == {False}  # the capture read last, at the same time
    assert verdicts["https://multi.test/third/c"] == {True}
    assert verdicts["https://flaky.test/flaky/g"] == {False}  # the 200 after the 503
    assert verdicts["https://gone.test/"] == {True}  # the 404 after the 200
    assert verdicts["http://from.test/moved/a"] == {False}  # http -> https -> via -> to.test
    assert verdicts["http://both.test/http-only/f"] == {False}
    assert verdicts["https://never.test/"] == {None}  # never captured: unknown
    by_key = {(row[0], row[1]): row for row in got}
    assert by_key["https://both.test/http-only/f", "*"][2] is True


def test_the_shuffle_path_with_salt_buckets_gives_the_local_engines_table(spark: Any, warcs: list[Path]) -> None:
    """The path of capture sets too large to send to every task (``broadcast_limit=0``), with
    each robots URL's rows spread over three buckets, gives the same rows as the local engine
    (the tie of two captures at the same time is left out: only the fast path reads the
    captures in file order)."""
    from robotrules import spark as rs

    paths = warcs[:2]
    got = rs.collect_rows(rs.decide(urls_frame(spark), paths, AGENTS, buckets=3, broadcast_limit=0))
    assert got == local_rows(paths, AGENTS)


def test_both_paths_give_the_local_preference_columns(spark: Any) -> None:
    """A1-A7: the preference columns are the local engine's on the fast and the shuffle path."""
    from robotrules import spark as rs

    captures = spark.createDataFrame(
        [(c.url, c.status, json.dumps(dict(c.headers)), c.body, c.fetched_at, c.error) for c in PREFERENCE_CAPTURES],
        "url string, status int, headers string, body binary, fetched_at double, error string")
    pairs = [(url, PREFERENCE_AGENTS[i % 3] if i % 2 else None) for i, url in enumerate(PREFERENCE_URLS)]
    urls = spark.createDataFrame(pairs, "url string, agent string")
    local = batch.decide([url if agent is None else (url, agent) for url, agent in pairs], ["*", "FooBot/1.0"],
                         PREFERENCE_CAPTURES, preferences=True, processes=1)
    want = sorted((_plain(row) for row in local.itertuples(index=False)), key=repr)
    for limit in (None, 0):
        got = rs.collect_rows(rs.decide(urls, captures, ["*", "FooBot/1.0"], preferences=True, broadcast_limit=limit))
        assert got == want, limit


def test_a_crawler_that_ignores_the_star_group_is_decided_without_it_on_both_paths(spark: Any) -> None:
    """A8: AdsBot-Google obeys only groups that name it; both paths decide its rows as the shared
    decision (:func:`robotrules.batch.engine.rows.decide_row`) does, and the reason says so."""
    from robotrules import spark as rs

    captures = [Capture("https://ads.test/robots.txt", 200, {}, b"User-agent: *\nDisallow: /x\n", T),
                Capture("https://named.test/robots.txt", 200, {}, b"User-agent: AdsBot-Google\nDisallow: /y\n", T)]
    frame = spark.createDataFrame(
        [(c.url, c.status, json.dumps(dict(c.headers)), c.body, c.fetched_at, c.error) for c in captures],
        "url string, status int, headers string, body binary, fetched_at double, error string")
    pairs = [("https://ads.test/x/1", None), ("https://named.test/y/2", None), ("https://ads.test/x/3", "*")]
    agents = ["AdsBot-Google", "*"]
    policy = Policy()
    source = ArchiveSource(batch.Archive(captures), policy)
    want = sorted((decide_row(url, agent, source.governing(robots_url_of(url) or ""))
                   for url, own in pairs for agent in ([own] if own else agents)), key=repr)
    urls = spark.createDataFrame(pairs, "url string, agent string")
    for limit in (None, 0):
        got = rs.collect_rows(rs.decide(urls, frame, agents, broadcast_limit=limit))
        assert got == want, limit
    ads = {row[0]: row for row in want if row[1] == "AdsBot-Google"}
    assert ads["https://ads.test/x/1"][2] is True and ads["https://ads.test/x/1"][7].endswith(
        "AdsBot-Google ignores the group 'user-agent: *'")
    assert ads["https://named.test/y/2"][2] is False


def test_a_giant_sites_rows_are_decided_by_several_tasks_on_both_paths(spark: Any) -> None:
    """One site with most of the rows never lands on one task: the fast path decides rows where
    they were read (four partitions here), the shuffle path spreads them over salt buckets."""
    from robotrules import spark as rs

    F: Any = pytest.importorskip("pyspark.sql.functions")
    captures = [Capture("https://giant.test/robots.txt", 200, {}, b"User-agent: *\nDisallow: /odd\n", T)]
    frame = spark.createDataFrame(
        [(c.url, c.status, json.dumps(dict(c.headers)), c.body, c.fetched_at, c.error) for c in captures],
        "url string, status int, headers string, body binary, fetched_at double, error string")
    urls = spark.createDataFrame([(f"https://giant.test/{'odd' if n % 2 else 'even'}/{n}",) for n in range(4000)],
                                 "url string").repartition(4)
    for limit, buckets in ((None, 1), (0, 4)):
        result = rs.decide(urls, frame, ["*"], buckets=buckets, broadcast_limit=limit)
        tasks = result.select(F.spark_partition_id().alias("task")).distinct().count()
        assert tasks >= 2, (limit, buckets)
        counts = {row["allowed"]: row["count"] for row in result.groupBy("allowed").count().collect()}
        assert counts == {True: 2000, False: 2000}


def test_the_spark_audit_gives_the_local_table_on_both_paths(spark: Any, warcs: list[Path]) -> None:
    """The audit of the mixed archive (every captured site, and the sites of a list) is the local
    audit's on the fast path and on the shuffle path; a robots.txt that is only the end of
    others' redirects (to.test) is no site of its own (F3)."""
    from robotrules import spark as rs

    paths = warcs[:2]
    agents = ["GPTBot", "FooBot", "*"]
    local = audit.table([Path(p) for p in paths], agents, processes=1)
    want = local.sort_values(["site", "agent"], kind="stable").reset_index(drop=True)
    assert "https://to.test/robots.txt" not in set(want["site"])
    sites = ["https://multi.test/", "http://from.test/a", "https://never.test/", "not a url", "https://html.test/"]
    local_sites = audit.table([Path(p) for p in paths], agents, sites=sites, processes=1)
    want_sites = local_sites.sort_values(["site", "agent"], kind="stable").reset_index(drop=True)
    from robotrules.batch.audit import typed

    for limit in (None, 0):
        for given, expected in ((None, want), (sites, want_sites)):
            frame = rs.audit(spark, [str(p) for p in paths], agents, sites=given, broadcast_limit=limit).toPandas()
            frame = typed(frame).sort_values(["site", "agent"], kind="stable").reset_index(drop=True)
            pandas.testing.assert_frame_equal(frame, expected, check_dtype=False, obj=f"limit={limit}, sites={given}")


def test_governing_is_judged_as_the_local_engine_judges_it(warcs: list[Path]) -> None:
    """The shipped archive judges a robots URL exactly as the local engine's source: the latest
    capture, as of its own capture time (C1)."""
    from robotrules.batch.captures import archive_of
    from robotrules.spark._shipped import Worker

    archive = archive_of([str(p) for p in warcs])
    worker = Worker(ArchiveSource(archive, Policy()))
    gov, origin = worker.locate("https://multi.test/tie/e")
    assert origin == "https://multi.test"
    entry = archive.entry("https://multi.test/robots.txt")
    assert entry is not None
    want = governing("https://multi.test/robots.txt", entry, Policy(), entry.fetched_at)
    assert gov is not None and gov.robots is not None and want.robots is not None
    assert (gov.kind, gov.status, gov.reason, gov.robots.body) == (want.kind, want.status, want.reason, want.robots.body)
    assert b"/tie" in gov.robots.body
    assert worker.locate("https://multi.test/other")[0] is gov  # judged once, then kept
    assert worker.locate("mailto:someone@example.com") == (None, "")
