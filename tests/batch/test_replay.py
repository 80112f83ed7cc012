"""Archive replay equals live fetching: every batch row from real WARC captures is the answer
:meth:`RobotsClient.check` gives for the same URL and agent against the same answers served live
(F1-F9: 200, redirect chains, a chain past the hop limit, a chain to a target never captured,
404, 410, 503, 500, an HTML page, a body over the size limit, a failed fetch)."""

from __future__ import annotations

from pathlib import Path

import pytest

from robotrules import MemoryStore, RobotsClient, batch
from robotrules.core.policy import Policy
from tests.batch.conftest import AGENTS, FAILED, World

FIELDS = ("allowed", "line", "rule", "robots_url", "robots_status")


def live_rows(world: World, urls: list[str]) -> dict[tuple[str, str], dict[str, object]]:
    """What the single-URL API answers live for each URL and agent."""
    client = RobotsClient(MemoryStore(), policy=Policy(fetch_timeout=5.0))
    found: dict[tuple[str, str], dict[str, object]] = {}
    try:
        for url in urls:
            for agent in AGENTS:
                result = client.check(url, agent)
                found[url, agent] = {"allowed": result.allowed, "line": result.line, "rule": result.text,
                                     "robots_url": result.state.robots_url, "robots_status": result.state.status,
                                     "kind": result.state.kind, "reason": result.state.reason}
    finally:
        client.close()
    return found


@pytest.fixture(scope="module")
def live(world: World) -> dict[tuple[str, str], dict[str, object]]:
    return live_rows(world, world.urls())


@pytest.mark.parametrize("compressed", [True, False], ids=["warc.gz", "warc"])
def test_every_row_from_warc_captures_equals_the_live_check(world: World, live: dict, compressed: bool) -> None:
    """F1-F9: the archive is judged exactly as a live fetch of the same answers."""
    frame = batch.decide(world.urls(), AGENTS, robots=world.warc if compressed else world.plain_warc, processes=1)
    assert len(frame) == len(world.urls()) * len(AGENTS)
    mismatches = []
    for row in frame.to_dict("records"):
        want = live[row["url"], row["agent"]]
        got = {name: (None if row[name] is None else row[name]) for name in FIELDS}
        got["allowed"] = bool(got["allowed"])
        if got != {name: want[name] for name in FIELDS}:
            mismatches.append((row["url"], row["agent"], got, {name: want[name] for name in FIELDS}))
    assert not mismatches, mismatches[:5]


def test_reasons_match_the_live_check_where_the_answer_was_captured(world: World, live: dict) -> None:
    """The reason column says what the client says, for every site whose every answer the archive
    holds; for a body over the size limit it adds that the rest was ignored (#16-M4, F9: the archive
    holds one byte past the limit, so it can tell; a live fetch stops reading at the limit)."""
    names = [name for name in world.bases if name not in {"dead-end", FAILED}]
    frame = batch.decide(world.urls(names), ["FooBot"], robots=world.warc, processes=1)
    for row in frame.to_dict("records"):
        want = live[row["url"], "FooBot"]["reason"]
        if row["url"].startswith(world.bases["big"] + "/"):
            want += " (only its first 512,000 bytes count: the rest is ignored)"
        assert row["reason"] == want, row


def test_captured_statuses_decide_as_the_policy_says(world: World) -> None:
    """F2-F9 in the archive's own terms: rules, redirects followed, 404 allows, 5xx disallows,
    HTML allows, rules past the size limit ignored, a failed fetch disallows."""
    cases = {
        ("ok", "/private/x", "FooBot"): (False, "Disallow: /private"),
        ("ok", "/private/open/y", "FooBot"): (True, "Allow: /private/open"),
        ("gzip", "/tmp/a", "Googlebot/2.1"): (False, "Disallow: /tmp"),
        ("chain", "/chained", "FooBot"): (False, "Disallow: /chained"),
        ("too-long", "/", "FooBot"): (True, ""),
        ("dead-end", "/", "FooBot"): (False, ""),
        ("missing", "/tmp/a", "*"): (True, ""),
        ("gone", "/tmp/a", "*"): (True, ""),
        ("down", "/", "*"): (False, ""),
        ("error", "/", "*"): (False, ""),
        ("html", "/tmp/a", "*"): (True, ""),
        ("big", "/early", "*"): (False, "Disallow: /early"),
        ("big", "/late", "*"): (True, ""),
        (FAILED, "/", "*"): (False, ""),
    }
    pairs = [(world.bases[site] + path, agent) for site, path, agent in cases]
    frame = batch.decide(pairs, robots=world.warc, processes=1)
    got = {(site, path, agent): (bool(row["allowed"]), row["rule"])
           for (site, path, agent), row in zip(cases, frame.to_dict("records"), strict=True)}
    assert got == cases
    statuses = dict(zip(cases, frame["robots_status"], strict=True))
    assert statuses["down", "/", "*"] == 503
    assert statuses["missing", "/tmp/a", "*"] == 404


def test_a_site_the_archive_never_captured_is_unknown(world: World) -> None:
    """No capture of a robots.txt: nothing is known, allowed is missing (not guessed)."""
    frame = batch.decide(["http://never-captured.example/x", "mailto:someone@example.com"], robots=world.warc)
    assert frame["allowed"].isna().tolist() == [True, True]
    assert frame["robots_url"].tolist() == ["http://never-captured.example/robots.txt", ""]
    assert "no capture" in frame["reason"][0]


def test_archive_lists_captures_of_every_record_kind(world: World) -> None:
    """response records become captures, metadata errors failed captures; request and warcinfo are skipped."""
    captures = list(batch.read_captures(str(world.warc)))
    urls = {capture.url for capture in captures}
    assert world.bases[FAILED] + "/robots.txt" in urls
    failed = next(c for c in captures if c.url == world.bases[FAILED] + "/robots.txt")
    assert (failed.status, failed.error) == (0, "connect")
    assert all(capture.status in {0, 200, 301, 302, 404, 410, 500, 503} for capture in captures)
    assert sum(1 for c in captures if c.url.endswith("/robots.txt")) == len(world.bases)


def test_a_revisit_record_takes_the_body_of_the_response_it_refers_to(tmp_path: Path) -> None:
    """A crawl that saw the same robots.txt again writes a revisit record: it is a capture of the
    body it refers to, found by payload digest or else by the target URI it names."""
    import base64
    import hashlib
    import io

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    body = b"User-agent: *\nDisallow: /old\n"
    digest = "sha1:" + base64.b32encode(hashlib.sha1(body).digest()).decode()
    path = tmp_path / "revisits.warc.gz"
    with path.open("wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        http = StatusAndHeaders("200 OK", [("Content-Type", "text/plain")], protocol="HTTP/1.1")
        writer.write_record(writer.create_warc_record("https://a.example/robots.txt", "response",
                                                      payload=io.BytesIO(body), http_headers=http))
        for target in ("https://b.example/robots.txt", "https://c.example/robots.txt"):
            revisit = writer.create_revisit_record(
                target, digest if target.startswith("https://b") else "sha1:NOTHINGHELDHERE",
                "https://a.example/robots.txt", "2024-01-01T00:00:00Z",
                http_headers=StatusAndHeaders("200 OK", [], protocol="HTTP/1.1"))
            writer.write_record(revisit)
    frame = batch.decide(["https://b.example/old", "https://c.example/old"], robots=path)
    assert frame["allowed"].tolist() == [False, False]
    assert frame["rule"].tolist() == ["Disallow: /old", "Disallow: /old"]


LIVE_OUTCOMES = {"ok": "with_rules", "gzip": "with_rules", "chain": "with_rules", "too-long": "redirect_unresolved",
                 "dead-end": "defer", "missing": "allow_all", "gone": "allow_all", "down": "defer", "error": "defer",
                 "html": "not_robots_txt", "big": "with_rules", FAILED: "defer"}
"""Each live site's class of its robots.txt fetch, as a live batch row says it."""


def test_live_batch_rows_carry_the_class_of_the_live_fetch_as_the_archive_of_the_same_answers(world: World) -> None:
    """F1-F9, beside the verdict: a live batch row's ``robots_outcome`` is the class of what the
    fetch got (a 404 and a 410 allow_all, a 503, a 500 and a refused connection defer, an HTML
    200 not_robots_txt, a chain past the hop limit redirect_unresolved); the WARC of the same
    answers gives every row the same class, but for a redirect to a host where nothing listens:
    live the fetch of its target failed (defer, F8), the archive holds no answer for the target
    (redirect_unresolved)."""
    urls = world.urls()
    client = RobotsClient(MemoryStore(), policy=Policy(fetch_timeout=5.0))
    try:
        live = batch.decide(urls, ["FooBot", "*"], client=client, processes=1)
    finally:
        client.close()
    site_of = {base: name for name, base in world.bases.items()}
    got = {(site_of["/".join(url.split("/")[:3])], outcome)  # scheme://host:port: the site's base
           for url, outcome in zip(live["url"], live["robots_outcome"], strict=True)}
    assert got == set(LIVE_OUTCOMES.items())
    archived = batch.decide(urls, ["FooBot", "*"], robots=world.warc, processes=1)
    differ = {url for url, a, b in zip(live["url"], live["robots_outcome"], archived["robots_outcome"], strict=True)
              if a != b}
    assert differ == {url for url in urls if url.startswith(world.bases["dead-end"] + "/")}
    assert set(archived.loc[archived["url"].isin(differ), "robots_outcome"]) == {"redirect_unresolved"}
