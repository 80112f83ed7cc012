"""Common Crawl's outcome classes of a robots.txt capture, beside the fetch policy's verdict
(issue #20): every class from real replays of captures through the policy (F1-F9, C1, C2), on
the audit table and on every batch row (``robots_outcome``; the same rows on Spark:
``tests/spark/test_spark_cc_shapes.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from robotrules.batch import Capture
from robotrules.batch.captures import Archive
from robotrules.core.policy import Policy
from robotrules.outcomes import OUTCOMES, not_robots_txt, outcome_of

T = 1_714_564_800.0
TEXT = {"content-type": "text/plain"}
HTML = b"<!DOCTYPE html>\n<html><head><title>Oops</title></head><body><p>Disallow: /</p></body></html>\n"

CAPTURES = [
    Capture("https://rules.example/robots.txt", 200, TEXT, b"User-agent: *\nDisallow: /private\n", T),
    Capture("https://empty.example/robots.txt", 200, TEXT, b"# nothing to say\nSitemap: https://empty.example/s.xml\n", T),
    Capture("https://agents-only.example/robots.txt", 200, TEXT, b"User-agent: *\n", T),
    Capture("https://html.example/robots.txt", 200, {"content-type": "text/html"}, HTML, T),
    Capture("https://prose.example/robots.txt", 200, TEXT, b"Sorry, we are closed\nCome back later\n", T),
    Capture("https://forbidden.example/robots.txt", 403, {}, b"", T),
    Capture("https://unauthorized.example/robots.txt", 401, {}, b"", T),
    Capture("https://missing.example/robots.txt", 404, {}, b"", T),
    Capture("https://gone.example/robots.txt", 410, {}, b"", T),
    Capture("https://teapot.example/robots.txt", 418, {}, b"", T),
    Capture("https://busy.example/robots.txt", 503, {}, b"", T),
    Capture("https://limited.example/robots.txt", 429, {}, b"", T),
    Capture("https://silent.example/robots.txt", 0, {}, b"", T, "timeout"),
    Capture("https://away.example/robots.txt", 301, {"location": "https://elsewhere.example/robots.txt"}, b"", T),
    Capture("https://loop.example/robots.txt", 302, {"location": "https://loop.example/robots.txt"}, b"", T),
    Capture("https://nowhere.example/robots.txt", 301, {}, b"", T),
    Capture("https://moved.example/robots.txt", 301, {"location": "https://moved.example/new.txt"}, b"", T),
    Capture("https://moved.example/new.txt", 200, TEXT, b"User-agent: *\nDisallow: /\n", T + 1),
    Capture("https://to-html.example/robots.txt", 301, {"location": "/"}, b"", T),
    Capture("https://to-html.example/", 200, {"content-type": "text/html"}, HTML, T + 1),
    # a good copy, then a 503: the policy keeps the good copy (C2), the class is the 503's
    Capture("https://flaky.example/robots.txt", 200, TEXT, b"User-agent: *\nDisallow: /x\n", T - 3600),
    Capture("https://flaky.example/robots.txt", 503, {}, b"", T),
]

EXPECTED = {
    "https://rules.example/robots.txt": ("with_rules", "rules"),
    "https://empty.example/robots.txt": ("no_rules", "rules"),
    "https://agents-only.example/robots.txt": ("no_rules", "rules"),
    "https://html.example/robots.txt": ("not_robots_txt", "rules"),
    "https://prose.example/robots.txt": ("not_robots_txt", "rules"),
    "https://forbidden.example/robots.txt": ("forbidden", "allow"),
    "https://unauthorized.example/robots.txt": ("forbidden", "allow"),
    "https://missing.example/robots.txt": ("allow_all", "allow"),
    "https://gone.example/robots.txt": ("allow_all", "allow"),
    "https://teapot.example/robots.txt": ("allow_all", "allow"),
    "https://busy.example/robots.txt": ("defer", "disallow"),
    "https://limited.example/robots.txt": ("defer", "disallow"),
    "https://silent.example/robots.txt": ("defer", "disallow"),
    "https://away.example/robots.txt": ("redirect_unresolved", "disallow"),
    "https://loop.example/robots.txt": ("redirect_unresolved", "allow"),
    "https://nowhere.example/robots.txt": ("redirect_unresolved", "allow"),
    "https://moved.example/robots.txt": ("with_rules", "rules"),
    "https://to-html.example/robots.txt": ("not_robots_txt", "rules"),
    "https://flaky.example/robots.txt": ("defer", "rules"),
    "https://never.example/robots.txt": ("no_capture", "unknown"),
}


def test_every_shape_of_capture_gets_its_common_crawl_class_beside_the_policys_reading() -> None:
    """F2-F5, F3 (a redirect followed, one to a target not archived, a loop, one without a
    Location), C2 (a 503 after a 200: the class is the 503's while the good copy decides): the
    class of each capture and what the policy makes of it."""
    from robotrules.batch.engine import governing

    archive = Archive(CAPTURES)
    got = {}
    for robots_url in EXPECTED:
        entry = archive.entry(robots_url, Policy())
        gov = governing(robots_url, entry, Policy(), T, "google")
        assert gov.outcome == outcome_of(entry)
        got[robots_url] = (gov.outcome, gov.kind)
    assert got == EXPECTED
    assert {outcome for outcome, _ in EXPECTED.values()} == set(OUTCOMES)


@pytest.mark.parametrize(("body", "expected"), [
    (b"<!doctype html><html><body>404</body></html>", True),
    (b"\xef\xbb\xbf  \n<HTML>\n<p>User-agent: *</p>", True),
    (b"<?xml version='1.0'?><error/>", True),
    (b"Page not found\n", True),
    (b"\x1f\x8b\x08\x00binary", True),
    (b"", False),
    (b"# only a comment\n\n", False),
    (b"User-agent: *\nDisallow:\n", False),
    (b"Sitemap: https://a.example/s.xml\n", False),
    (b"Crawl-delay: 10\n", False),
    (b"user-agent:*\ndisallow:/x\n<br>\n", False),
])
def test_a_body_is_not_a_robots_txt_when_it_is_markup_or_nothing_in_it_parses(body: bytes, expected: bool) -> None:
    """P1-P6: markup at the start, or lines of which a robots.txt parser recognises none; a
    robots.txt with some stray markup further down is still one."""
    assert not_robots_txt(body) is expected


def test_the_audit_table_gives_each_site_its_class(tmp_path: Path) -> None:
    """The audit's ``outcome`` column: one class per site, the same on every agent's row."""
    from robotrules.batch.audit import audit_rows

    rows = audit_rows(Archive(CAPTURES), ["GPTBot", "*"])
    classes = {row[0]: row[-1] for row in rows}
    assert classes["https://forbidden.example/robots.txt"] == "forbidden"
    assert classes["https://html.example/robots.txt"] == "not_robots_txt"
    assert classes["https://flaky.example/robots.txt"] == "defer"
    assert all(row[-1] == classes[row[0]] for row in rows)


# -- the class on every batch row ---------------------------------------------------------------

NO_ROBOTS_URLS = ["", "mailto:someone@example.com", "not a url"]
"""Rows with no robots.txt to have fetched (no URL, another scheme, no URL at all): class ""."""


def page_of(robots_url: str) -> str:
    """A page governed by ``robots_url`` (the site's /robots.txt)."""
    return robots_url.removesuffix("robots.txt") + "page"


BATCH_URLS = [page_of(robots_url) for robots_url in EXPECTED] + NO_ROBOTS_URLS
BATCH_OUTCOMES = {**{page_of(robots_url): outcome for robots_url, (outcome, _) in EXPECTED.items()},
                  **dict.fromkeys(NO_ROBOTS_URLS, "")}
"""Each URL of :data:`BATCH_URLS` and the ``robots_outcome`` of its rows."""
BATCH_AGENTS = ("*", "GPTBot", "AdsBot-Google")


def batch_rows(processes: int = 1, chunk_size: int = 10_000, preferences: bool = False) -> list[tuple[object, ...]]:
    """The local engine's rows of :data:`BATCH_URLS` for :data:`BATCH_AGENTS` over :data:`CAPTURES`,
    each robots.txt judged as of its capture."""
    from robotrules.batch.engine import ArchiveSource, decide_rows

    source = ArchiveSource(Archive(CAPTURES), Policy(), "google", None)
    return [tuple(row) for block in decide_rows(BATCH_URLS, BATCH_AGENTS, source, processes=processes,
                                                chunk_size=chunk_size, preferences=preferences) for row in block]


@pytest.mark.parametrize(("processes", "chunk_size"), [(1, 10_000), (2, 4)], ids=["in-process", "worker-blocks"])
def test_every_batch_row_carries_the_class_of_the_robots_txt_that_governs_it(processes: int, chunk_size: int) -> None:
    """F2-F5, F3, C2 beside the verdict: each row's ``robots_outcome`` (the last batch column) is
    the class of its robots.txt's latest capture: forbidden (401, 403), defer (429, 5xx, no
    response), allow_all (404, 410, 418), redirect_unresolved, not_robots_txt (an HTML 200),
    no_rules, with_rules and no_capture (never captured), every agent's row alike, and "" for a
    row with no URL or with no robots.txt (S5: not http, https or ftp). The rows decided in worker
    processes, chunk by chunk, are those decided in process."""
    from robotrules.answers import COLUMNS

    assert COLUMNS[-1] == "robots_outcome"
    rows = batch_rows(processes, chunk_size)
    assert len(rows) == len(BATCH_URLS) * len(BATCH_AGENTS)
    assert {(row[0], row[1]): row[-1] for row in rows} == {
        (url, agent): outcome for url, outcome in BATCH_OUTCOMES.items() for agent in BATCH_AGENTS}
    assert set(BATCH_OUTCOMES.values()) == {*OUTCOMES, ""}
    by_url = {row[0]: row for row in rows if row[1] == "*"}
    assert by_url[page_of("https://forbidden.example/robots.txt")][2] is True  # F4: a 403 allows, its class says forbidden
    assert by_url[page_of("https://html.example/robots.txt")][2] is True  # F2: an HTML page allows, not_robots_txt
    assert by_url[page_of("https://never.example/robots.txt")][2] is None  # nothing known: unknown, no_capture
    if processes > 1:
        assert rows == batch_rows()


def test_the_batch_class_is_the_outcome_of_the_robots_txt_entry_and_the_audit_class() -> None:
    """One class per robots.txt on every table: a batch row's ``robots_outcome`` is what
    :func:`outcome_of` says of its robots.txt's entry, and the audit row's ``outcome`` of the site."""
    from robotrules.batch.audit import audit_rows
    from robotrules.batch.engine import governing

    archive = Archive(CAPTURES)
    rows = {row[0]: row for row in batch_rows() if row[1] == "*"}
    audited = {row[0]: row[-1] for row in audit_rows(archive, ["*"])}  # every captured site
    assert set(audited) == set(EXPECTED) - {"https://never.example/robots.txt"}
    for robots_url in EXPECTED:
        entry = archive.entry(robots_url, Policy())
        gov = governing(robots_url, entry, Policy(), entry.fetched_at if entry is not None else 0.0)
        assert rows[page_of(robots_url)][-1] == gov.outcome == outcome_of(entry)
        assert audited.get(robots_url, "no_capture") == gov.outcome


def test_the_class_comes_before_the_preference_columns_and_in_every_output_format(tmp_path: Path) -> None:
    """With ``--preferences`` the class stays the last of the batch columns, before the preference
    columns (A1-A7), with the same values; Parquet (written from the worker's compact block), CSV
    and JSON Lines hold the same classes, "" included."""
    pandas = pytest.importorskip("pandas")
    from robotrules import batch
    from robotrules.answers import COLUMNS
    from robotrules.batch.engine import row_columns

    plain = batch_rows()
    with_prefs = batch_rows(preferences=True)
    assert [row[:len(COLUMNS)] for row in with_prefs] == plain
    assert row_columns(preferences=True)[len(COLUMNS) - 1] == "robots_outcome"
    urls = tmp_path / "urls.jsonl"
    urls.write_text("".join(json.dumps({"url": url}) + "\n" for url in BATCH_URLS))
    want = [(row[0], row[1], row[-1]) for row in plain]
    for name in ("out.parquet", "out.csv", "out.jsonl"):
        batch.run(str(urls), str(tmp_path / name), list(BATCH_AGENTS), Archive(CAPTURES), processes=1)
        frame = (pandas.read_parquet(tmp_path / name) if name.endswith(".parquet")
                 else pandas.read_csv(tmp_path / name, keep_default_na=False) if name.endswith(".csv")
                 else pandas.read_json(tmp_path / name, lines=True, dtype=False))
        assert list(frame.columns) == list(COLUMNS)
        assert list(zip(frame["url"], frame["agent"], frame["robots_outcome"], strict=True)) == want, name
