"""Common Crawl's robots.txt captures as they are stored, decided row for row (issue #20, section 1).

Common Crawl keeps every robots.txt fetch of a crawl in ``robotstxt/`` WARC files: the same
robots.txt fetched several times, http and https separately, each redirect and its target as
records of their own (in no set order, the target sometimes an HTML page), HTML error pages
served with a 200, a 503 one day and a 200 the next. :data:`CAPTURES` is one WARC of exactly
those shapes; :data:`EXPECTED` is what the fetch policy says of each page on them (F1-F9, C1),
pinned here for the local engine (``tests/spark/test_spark_cc_shapes.py`` pins the same
rows on Spark).

The decision time: :class:`~robotrules.batch.engine.sources.ArchiveSource` (and ``robotrules.spark.decide``)
take ``now``; None judges each robots.txt as of its own capture. Of several captures of one URL
the latest is the one current at any time after it (captures.replaces), whatever the order of
the records in the file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from robotrules.batch import Capture
from robotrules.batch.captures import archive_of
from robotrules.batch.engine import ArchiveSource, decide_rows, robots_url_of
from robotrules.core.policy import Policy

pytest.importorskip("warcio", reason="warcio (robotrules[batch]) is not installed")

from tests.spark.test_spark_engine import write_warc  # the WARC writer with WARC-Date

T = 1_714_564_800.0  # 2024-05-01T12:00:00Z
HOUR = 3600.0
DAY = 24 * HOUR
TEXT = {"content-type": "text/plain"}
HTML_HOME = (b"<!DOCTYPE html>\n<html><head><title>Home</title></head>\n<body>\n<p>Welcome to our shop</p>\n"
             b"Disallow: /shop\n</body></html>\n")
"""A home page that a robots.txt redirect ends at; its one line that reads as a rule is in no group."""
HTML_404 = (b"<!DOCTYPE html>\n<html><head><title>Page not found</title></head>\n"
            b"<body><h1>Sorry, this page does not exist</h1><p>User-agent: the page you asked for</p></body></html>\n")
"""An error page served with a 200 where robots.txt should be (a "soft 404")."""

CAPTURES: list[Capture] = [
    # several captures of one robots.txt URL in the crawl, written out of time order
    Capture("https://dup.example/robots.txt", 200, TEXT, b"User-agent: *\nDisallow: /latest\n", T),
    Capture("https://dup.example/robots.txt", 200, TEXT, b"User-agent: *\nDisallow: /first\n", T - 2 * DAY),
    Capture("https://dup.example/robots.txt", 200, TEXT, b"User-agent: *\nDisallow: /second\n", T - DAY),
    # http and https captured separately: each governs its own scheme (S1)
    Capture("http://both.example/robots.txt", 200, TEXT, b"User-agent: *\nDisallow: /plain\n", T),
    Capture("https://both.example/robots.txt", 200, TEXT, b"User-agent: *\nDisallow: /secure\n", T),
    # a chain of redirects across hosts, a record each, written from its end back to its start
    Capture("https://cdn.other.example/robots/chain.txt", 200, TEXT, b"User-agent: *\nDisallow: /chained\n", T),
    Capture("https://www.chain.example/robots.txt", 301, {"location": "https://cdn.other.example/robots/chain.txt"},
            b"", T),
    Capture("https://chain.example/robots.txt", 302, {"location": "https://www.chain.example/robots.txt"}, b"", T),
    Capture("http://chain.example/robots.txt", 301, {"location": "https://chain.example/robots.txt"}, b"", T),
    # a redirect to the site's HTML home page, written before the redirect
    Capture("https://home.example/", 200, {"content-type": "text/html"}, HTML_HOME, T),
    Capture("https://home.example/robots.txt", 301, {"location": "/"}, b"", T),
    # an HTML error page served with a 200
    Capture("https://soft404.example/robots.txt", 200, {"content-type": "text/html"}, HTML_404, T),
    # a 503, then a 200 an hour later
    Capture("https://flaky.example/robots.txt", 503, {"retry-after": "120"}, b"busy", T - HOUR),
    Capture("https://flaky.example/robots.txt", 200, TEXT, b"User-agent: *\nDisallow: /private\n", T),
    # a 200, then a 404 an hour later
    Capture("https://gone.example/robots.txt", 200, TEXT, b"User-agent: *\nDisallow: /\n", T - HOUR),
    Capture("https://gone.example/robots.txt", 404, {"content-type": "text/html"}, b"<h1>Not found</h1>", T),
]

EXPECTED: dict[str, tuple[bool | None, str, int]] = {
    # page -> (allowed, deciding rule, robots_status) for agent "*"
    "https://dup.example/latest": (False, "Disallow: /latest", 200),
    "https://dup.example/first": (True, "", 200),
    "https://dup.example/second": (True, "", 200),
    "http://both.example/plain": (False, "Disallow: /plain", 200),
    "http://both.example/secure": (True, "", 200),
    "https://both.example/secure": (False, "Disallow: /secure", 200),
    "https://both.example/plain": (True, "", 200),
    "http://chain.example/chained": (False, "Disallow: /chained", 200),
    "https://chain.example/chained": (False, "Disallow: /chained", 200),
    "https://www.chain.example/chained": (False, "Disallow: /chained", 200),
    "http://chain.example/elsewhere": (True, "", 200),
    "https://home.example/shop": (True, "", 200),
    "https://soft404.example/anything": (True, "", 200),
    "https://flaky.example/private": (False, "Disallow: /private", 200),
    "https://flaky.example/": (True, "", 200),
    "https://gone.example/": (True, "", 404),
    "https://gone.example/private": (True, "", 404),
    "https://unseen.example/": (None, "", 0),
}
URLS = list(EXPECTED)
AGENTS = ("*", "FooBot/1.0")


def shapes_warc(path: Path) -> Path:
    """:data:`CAPTURES` as one gzipped WARC, one record each, in list order."""
    write_warc(path, CAPTURES)
    return path


def local_rows(warc: Path, now: float | None, urls: list[str] = URLS,
               index: Path | None = None) -> list[tuple[object, ...]]:
    """The local engine's rows of ``urls`` for :data:`AGENTS`, judged as of ``now`` (the captures
    in memory, or in an index on disk at ``index``)."""
    source = ArchiveSource(archive_of(str(warc), index=index), Policy(), "google", now)
    return [row for chunk in decide_rows(urls, AGENTS, source, processes=1) for row in chunk]


@pytest.fixture(scope="module")
def warc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shapes_warc(tmp_path_factory.mktemp("cc") / "robotstxt.warc.gz")


@pytest.mark.parametrize("now", [None, T + HOUR, T + 10 * DAY], ids=["as-captured", "an-hour-after", "ten-days-after"])
def test_common_crawl_shapes_decide_every_row_as_the_fetch_policy_says(warc: Path, now: float | None) -> None:
    """F1-F5, F3 (a chain across records, in any order), S1 (http and https apart), C1 (the
    latest of several captures is current): every row of every shape, for every agent, as
    captured and at later decision times."""
    rows = local_rows(warc, now)
    got = {(row[0], row[1]): (row[2], row[4], row[6]) for row in rows}
    want = {(url, agent): answer for url, answer in EXPECTED.items() for agent in AGENTS}
    assert got == want
    robots = {row[0]: row[5] for row in rows}
    assert robots == {url: robots_url_of(url) for url in URLS}  # each row names the robots.txt URL of its own scheme


def test_the_latest_of_several_captures_decides_whatever_the_file_order(tmp_path: Path) -> None:
    """C1: the capture current at the decision time is the latest; records written newest
    first, oldest first or shuffled give the same rows."""
    dup = [c for c in CAPTURES if c.url == "https://dup.example/robots.txt"]
    urls = [u for u in URLS if "dup.example" in u]
    orders = [dup, sorted(dup, key=lambda c: c.fetched_at or 0.0), sorted(dup, key=lambda c: -(c.fetched_at or 0.0))]
    seen = []
    for number, order in enumerate(orders):
        path = tmp_path / f"dup{number}.warc.gz"
        write_warc(path, order)
        seen.append(local_rows(path, None, urls))
    assert seen[0] == seen[1] == seen[2]
    assert [(row[0], row[2]) for row in seen[0] if row[1] == "*"] == [
        ("https://dup.example/latest", False), ("https://dup.example/first", True), ("https://dup.example/second", True)]


def test_a_redirect_chain_across_records_ends_at_the_target_rules(warc: Path) -> None:
    """F3: 301, 302, 301 across three hosts, written target first: the rows are the target's
    rules, with the target's status, and say that they came through redirects."""
    rows = {row[0]: row for row in local_rows(warc, None, ["http://chain.example/chained"]) if row[1] == "*"}
    row = rows["http://chain.example/chained"]
    assert (row[2], row[3], row[4], row[5], row[6]) == (False, 2, "Disallow: /chained",
                                                       "http://chain.example/robots.txt", 200)


def test_an_html_body_is_judged_as_any_body_and_allows_what_no_rule_disallows(warc: Path) -> None:
    """F2, P6: an HTML page with a 200 (the robots.txt itself, or a redirect's target) is parsed
    as any body: its lines that are no rule of a group decide nothing, so every page is allowed."""
    rows = local_rows(warc, None, ["https://soft404.example/anything", "https://home.example/shop"])
    assert {(row[0], row[2], row[3], row[6]) for row in rows} == {
        ("https://soft404.example/anything", True, 0, 200), ("https://home.example/shop", True, 0, 200)}


def test_a_503_then_a_200_is_decided_by_the_200_and_a_200_then_a_404_by_the_404(warc: Path) -> None:
    """F4, F5, C1: the later answer is current: the 200's rules after a 503 (not the full
    disallow of the 503), the 404's full allow after a 200 (not the 200's ``Disallow: /``)."""
    rows = {row[0]: row for row in local_rows(warc, None, ["https://flaky.example/", "https://gone.example/private"])
            if row[1] == "*"}
    assert (rows["https://flaky.example/"][2], rows["https://flaky.example/"][6]) == (True, 200)
    assert (rows["https://gone.example/private"][2], rows["https://gone.example/private"][6]) == (True, 404)
    assert "404" in rows["https://gone.example/private"][7]


def test_a_decision_time_between_two_captures_is_decided_by_the_earlier_one(warc: Path) -> None:
    """C1: at a time between two captures, the one current then is the earlier (the later one
    was not fetched yet)."""
    rows = {row[0]: row[2] for row in local_rows(warc, T - DAY + HOUR, ["https://dup.example/second"]) if row[1] == "*"}
    assert rows == {"https://dup.example/second": False}


def test_a_200_then_a_503_keeps_the_good_copy(tmp_path: Path) -> None:
    """C2, F5: a failed refresh (a 503 an hour after a 200) leaves the good copy deciding."""
    path = tmp_path / "refresh.warc.gz"
    write_warc(path, [Capture("https://c2.example/robots.txt", 200, TEXT, b"User-agent: *\nDisallow: /private\n", T - HOUR),
                      Capture("https://c2.example/robots.txt", 503, {}, b"busy", T)])
    rows = {row[0]: row[2] for row in local_rows(path, None, ["https://c2.example/open"]) if row[1] == "*"}
    assert rows == {"https://c2.example/open": True}


@pytest.mark.parametrize("now", [None, T - DAY + HOUR, T - 2 * DAY - HOUR], ids=["latest", "between", "before-all"])
def test_an_index_on_disk_keeps_every_capture_and_decides_as_memory_does(warc: Path, tmp_path: Path,
                                                                          now: float | None) -> None:
    """C1, C2: an archive over an index on disk keeps every capture of a URL, as one in memory
    does, so each decision time sees the capture current then (before the first: the first)."""
    assert local_rows(warc, now, index=tmp_path / "captures.sqlite3") == local_rows(warc, now)
