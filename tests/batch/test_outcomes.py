"""Common Crawl's outcome classes of a robots.txt capture, beside the fetch policy's verdict
(issue #20): every class from real replays of captures through the policy (F1-F9, C1, C2), on
the audit table of both engines."""

from __future__ import annotations

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
    from robotrules.batch.decide import governing

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
