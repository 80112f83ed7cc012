"""End to end: audits of a real WARC file of robots.txt captures, and of the same answers served live.

The WARC holds answers of every kind a crawl archive has (a 200 with rules, a chain of redirects,
a 404, a 503, an HTML page, a failed fetch, a redirect to a target it did not capture). Each site is
also served by a real HTTP server on 127.0.0.1 with the same answers at the same paths: the audit
of the archive, the live audit and the single-URL API (RobotsClient.check) must all agree.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from robotrules import MemoryStore, RobotsClient
from robotrules.batch import audit
from robotrules.batch.audit import AUDIT_COLUMNS
from robotrules.batch.captures import archive_of
from robotrules.crawlers import Crawler, load, merge
from tests.batch.conftest import SITES
from tests.servers.http import HTTPServer, respond

pytest.importorskip("pandas", reason="the audit table needs pandas (robotrules[batch])")
pytest.importorskip("warcio", reason="reading WARC files needs warcio (robotrules[batch])")

AGENTS = ["GPTBot", "CCBot", "Googlebot", "*"]

EXPECTED = {
    # site -> agent -> (status, verdict)
    "rules": {"GPTBot": (200, "blocked"), "CCBot": (200, "partly"), "Googlebot": (200, "partly"), "*": (200, "partly")},
    "chain": dict.fromkeys(AGENTS, (200, "blocked")),
    "missing": dict.fromkeys(AGENTS, (404, "no-robots")),
    "down": dict.fromkeys(AGENTS, (503, "unreachable")),
    "html": dict.fromkeys(AGENTS, (200, "allowed")),
    "open": dict.fromkeys(AGENTS, (200, "allowed")),
}

PROBES = ["/", "/index.html", "/private/x", "/public/page", "/step1x", "/robots.txt"]


def _table(frame: object) -> dict[str, dict[str, tuple[int, str]]]:
    out: dict[str, dict[str, tuple[int, str]]] = {}
    for row in frame.itertuples(index=False):  # type: ignore[attr-defined]
        name = row.site.split("//", 1)[-1].split(".test", 1)[0]
        out.setdefault(name, {})[row.agent] = (row.status, row.verdict)
    return out


def test_an_archive_audit_classifies_every_kind_of_capture(warc: Path) -> None:
    """F1-F5: rules, a redirect chain followed to its captured target, 404 (full allow), 503 and a
    failed fetch (full disallow), an HTML body (no rules), an uncaptured redirect target (a failed
    request) and a site never captured (unknown), each with the facts of its file."""
    archive = archive_of(str(warc))
    frame = audit.table(archive, AGENTS, sites=[f"http://{name}.test/some/page" for name in SITES]
                  + ["http://nodns.test/", "http://away.test/robots.txt", "http://never.test/", "mailto:x@y.test"])
    assert list(frame.columns) == list(AUDIT_COLUMNS)
    table = _table(frame)
    for name, expected in EXPECTED.items():
        assert table[name] == expected, name
    assert table["nodns"] == dict.fromkeys(AGENTS, (0, "unreachable"))
    assert {verdict for _, verdict in table["away"].values()} == {"unreachable"}
    assert table["never"] == dict.fromkeys(AGENTS, (0, "unknown"))
    rules = frame[frame.site == "http://rules.test/robots.txt"].set_index("agent")
    assert rules.loc["GPTBot", "explicit"] and not rules.loc["Googlebot", "explicit"]
    assert rules.loc["Googlebot", "crawl_delay"] == 2.0 and rules.loc["Googlebot", "sitemaps"] == 1
    assert rules.loc["Googlebot", "content_signals"] == "search=yes, ai-train=no"
    assert rules.loc["CCBot", "rules"] == "Disallow: /" and rules.loc["Googlebot", "rules"] == "Disallow: /private/"
    bad = frame[frame.site == "mailto:x@y.test"]
    assert set(bad.verdict) == {"unknown"} and "not an http" in bad.reason.iloc[0]


def test_an_archive_audit_without_sites_covers_every_captured_robots_txt(warc: Path) -> None:
    """Every robots.txt URL the archive captured is a site (redirect targets that are not robots.txt are not)."""
    frame = audit.table(archive_of(str(warc)), ["*"])
    sites = set(frame.site)
    assert sites == {f"http://{name}.test/robots.txt" for name in [*SITES, "nodns", "away"]}


def test_the_local_engine_gives_the_same_rows_with_worker_processes(warc: Path) -> None:
    """The process pool changes nothing but speed: same rows, same order."""
    archive = archive_of(str(warc))
    sites = [f"http://s{n}.test/" for n in range(5)] + [f"http://{name}.test/" for name in SITES] * 1
    one = audit.table(archive, AGENTS, sites=sites, processes=1)
    two = audit.table(archive, AGENTS, sites=sites, processes=2)
    assert one.equals(two)


@pytest.fixture
def live_sites() -> Iterator[dict[str, HTTPServer]]:
    """One real server on 127.0.0.1 per site of SITES, answering the same paths the same way."""
    servers: dict[str, HTTPServer] = {}
    try:
        for name, paths in SITES.items():
            server = HTTPServer().__enter__()
            servers[name] = server
            for path, answer in paths.items():
                assert not isinstance(answer, str)
                status, headers, body = answer
                if "location" in headers:
                    from tests.servers.http import redirect

                    server.route(path, redirect(status, headers["location"]))
                else:
                    server.route(path, respond(status, body, headers=headers))
            server.default = respond(503) if name == "down" else respond(404)
        yield servers
    finally:
        for server in servers.values():
            server.__exit__(None, None, None)


def test_live_audit_and_single_url_checks_agree_with_the_archive(warc: Path, live_sites: dict[str, HTTPServer]) -> None:
    """The same answers captured or live give the same verdicts, and every single-URL check agrees."""
    client = RobotsClient(MemoryStore())
    try:
        urls = {name: server.url("/") for name, server in live_sites.items()}
        frame = audit.table(client, AGENTS, sites=list(urls.values()))
        by_site = {row.site: row for row in frame.itertuples(index=False) if row.agent == "*"}
        assert len(by_site) == len(SITES)
        archived = _table(audit.table(archive_of(str(warc)), AGENTS))
        for name, url in urls.items():
            live = {row.agent: (row.status, row.verdict) for row in frame.itertuples(index=False)
                    if row.site == client.robots_url(url)}
            assert live == archived[name] == EXPECTED[name], name
            for agent, (_, verdict) in live.items():
                allowed = [client.check(url.rstrip("/") + path, agent if agent != "*" else "SomeBot").allowed
                           for path in PROBES if path != "/robots.txt"]
                if verdict in ("blocked", "unreachable"):
                    assert not any(allowed), (name, agent)
                elif verdict in ("allowed", "no-robots"):
                    assert all(allowed), (name, agent)
                else:
                    assert any(allowed) and not all(allowed), (name, agent)
    finally:
        client.close()


def test_a_registry_extended_from_a_file_names_new_agents(warc: Path, tmp_path: Path) -> None:
    """Crawlers loaded from a CSV file give their operator and purpose; a token already known is replaced."""
    extra = tmp_path / "crawlers.csv"
    extra.write_text("token,operator,purpose,kind,source\n"
                     "ExampleBot,Example Ltd,Crawls for the example index,search,https://example.com/bot\n"
                     "GPTBot,OpenAI (local note),Training crawler,ai-training,https://platform.openai.com/docs/bots\n")
    registry = merge(load(extra))
    assert isinstance(registry[0], Crawler)
    frame = audit.table(archive_of(str(warc)), ["ExampleBot/2.0", "GPTBot"], sites=["http://rules.test/"],
                  registry=merge(__import__("robotrules.crawlers").crawlers.CRAWLERS, registry))
    rows = frame.set_index("agent")
    assert rows.loc["ExampleBot/2.0", "operator"] == "Example Ltd"
    assert rows.loc["ExampleBot/2.0", "verdict"] == "partly"
    assert rows.loc["GPTBot", "operator"] == "OpenAI (local note)"


def test_bad_agents_and_sites_are_clear_errors() -> None:
    """An agent that names no crawler, or sites given as one string, is a ValueError or TypeError, not a crash later."""
    from robotrules.batch.captures import Archive

    with pytest.raises(ValueError, match="names no crawler"):
        audit.table(Archive(), ["  "], sites=["http://a.test/"])
    with pytest.raises(TypeError, match="list of URLs"):
        audit.table("http://a.test/", ["*"])


def test_a_path_is_read_as_captures(warc: Path) -> None:
    """audit.table(path) reads the WARC file (or table, or folder) itself."""
    assert audit.table(warc, ["*"]).equals(audit.table(archive_of(str(warc)), ["*"]))
