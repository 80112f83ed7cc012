"""POST /v1/test, /v1/lint, /v1/diff and GET /v1/agents: the page's tools, without fetching anything
(except a diff side given as a URL)."""

from __future__ import annotations

import httpx
import pytest

from robotrules import crawlers
from tests.servers.http import HTTPServer, respond

from .conftest import error_of

DRAFT = "User-agent: *\nDisallow: /private\nDisalow: /typo\n\nUser-agent: Googlebot\nAllow: /\n"


def test_draft_verdicts_come_from_the_draft_with_its_lint_findings(api: httpx.Client) -> None:
    """Verdicts against the text sent (source 'draft', no live state) and the linter's findings on it."""
    response = api.post("/v1/test", json={"robots": DRAFT, "urls": ["/private/x", "https://example.com/ok"],
                                          "agents": ["Bingbot/2.0", "Googlebot"]})
    assert response.status_code == 200, response.text
    body = response.json()
    results = body["results"]
    assert [(r["url"], r["agent"], r["token"], r["allowed"], r["line"]) for r in results] == [
        ("/private/x", "Bingbot/2.0", "Bingbot", False, 2),
        ("/private/x", "Googlebot", "Googlebot", True, 6),
        ("https://example.com/ok", "Bingbot/2.0", "Bingbot", True, None),
        ("https://example.com/ok", "Googlebot", "Googlebot", True, 6),
    ]
    assert {r["source"] for r in results} == {"draft"} and {r["robots"] for r in results} == {None}
    assert results[0]["text"] == "Disallow: /private" and "by line 2" in results[0]["explanation"]
    [finding] = body["diagnostics"]
    assert (finding["line"], finding["code"], finding["severity"]) == (3, "field-typo", "warning")
    assert finding["column"] >= 1


def test_draft_agents_default_to_star_and_modes_are_checked(api: httpx.Client) -> None:
    """No agents: '*'. The mode must be one of the parser's modes (a clear 422 otherwise)."""
    body = api.post("/v1/test", json={"robots": DRAFT, "urls": ["/private"], "mode": "rfc9309"}).json()
    assert [(r["agent"], r["allowed"]) for r in body["results"]] == [("*", False)]
    message = error_of(api.post("/v1/test", json={"robots": DRAFT, "urls": ["/"], "mode": "bing"}), 422,
                       "invalid_request")
    assert "mode" in message


@pytest.mark.parametrize("url", ["private", "example.com/private", "", "?q"])
def test_draft_urls_must_be_absolute_or_paths(api: httpx.Client, url: str) -> None:
    """A draft URL is an absolute URL or a path starting with '/': anything else would be read as '/', silently."""
    message = error_of(api.post("/v1/test", json={"robots": DRAFT, "urls": ["/ok", url]}), 422, "invalid_path")
    assert "urls[1]" in message and "path starting with '/'" in message


def test_lint_lists_findings_with_line_column_and_counts(api: httpx.Client) -> None:
    """Diagnostics with line, column, severity, code and message; errors and warnings counted."""
    response = api.post("/v1/lint", json={"robots": "User-agent: *\nDisalow: /x\nnonsense\n"})
    assert response.status_code == 200
    body = response.json()
    assert [(d["line"], d["code"], d["severity"]) for d in body["diagnostics"]] == [
        (2, "field-typo", "warning"), (3, "invalid-line", "error")]
    assert all(set(d) == {"line", "column", "severity", "code", "message", "fix"} for d in body["diagnostics"])
    assert (body["errors"], body["warnings"]) == (1, 1)


def test_lint_findings_carry_their_obvious_fix_and_count_columns_from_one(api: httpx.Client) -> None:
    """Issue #19 items 8, 9: ``fix`` is the line as it should be written (null without an obvious
    one); columns are 1-based as in the CLI (1 for a whole line); a finding about the whole file
    has null line and column."""
    robots = "\ufeffUser-agent: *\nDisallow: admin/\nContent-Signals: ai-train=no\nDisallow:\n"
    body = api.post("/v1/lint", json={"robots": robots}).json()
    found = {d["code"]: (d["line"], d["column"], d["fix"]) for d in body["diagnostics"]}
    assert found["path-without-slash"] == (2, 11, "Disallow: /admin/")
    assert found["signal-misspelt"] == (3, 1, "Content-Signal: ai-train=no")
    assert found["empty-rule"] == (4, 1, None)
    big = api.post("/v1/lint", json={"robots": "User-agent: *\n" + "#" * 520_000}).json()
    assert [(d["line"], d["column"]) for d in big["diagnostics"] if d["code"] == "size-limit"] == [(None, None)]
    draft = api.post("/v1/test", json={"robots": robots, "urls": ["/admin/x"]}).json()
    assert {(d["line"], d["column"]) for d in draft["diagnostics"]} >= {(2, 11), (4, 1)}


def test_lint_of_a_clean_file_finds_nothing(api: httpx.Client) -> None:
    body = api.post("/v1/lint", json={"robots": "User-agent: *\nDisallow: /private\n", "mode": "google"}).json()
    assert body == {"diagnostics": [], "diagnostics_omitted": 0, "errors": 0, "warnings": 0}


def test_diff_of_two_texts_reports_rule_and_verdict_changes(api: httpx.Client) -> None:
    """What changes for which crawler, as Google applies the files: rules added/removed, verdicts flipped."""
    old = "User-agent: *\nDisallow: /a\n"
    new = "User-agent: *\nDisallow: /b\n"
    response = api.post("/v1/diff", json={"old": old, "new": new, "urls": ["/a/page"]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["changed"] is True and body["agents"] == ["*"]
    assert {(r["change"], r["value"]) for r in body["rules"]} == {("added", "/b"), ("removed", "/a")}
    flipped = {(v["url"], v["old_allowed"], v["new_allowed"]) for v in body["verdicts"]}
    assert ("/a/page", False, True) in flipped and ("/b", True, False) in flipped  # paths: no made-up host
    assert body["old_robots"] is None and body["new_robots"] is None


def test_diff_of_equivalent_files_finds_no_change(api: httpx.Client) -> None:
    """Reordering, case and spacing change nothing a crawler does."""
    body = api.post("/v1/diff", json={"old": "User-agent: *\nDisallow: /a\nDisallow: /b\n",
                                      "new": "user-agent:*\ndisallow:/b\ndisallow: /a\n",
                                      "agents": ["Googlebot/2.1"]}).json()
    assert body["changed"] is False and body["agents"] == ["Googlebot"]


def test_diff_takes_a_side_from_the_live_robots_txt(api: httpx.Client, site: HTTPServer) -> None:
    """``new_url``: the live robots.txt governing that URL is the new side; its state comes with the diff."""
    body = api.post("/v1/diff", json={"old": "User-agent: *\nDisallow: /private\nAllow: /private/open\n",
                                      "new_url": site.url("/robots.txt"), "agents": ["Googlebot"]}).json()
    assert body["changed"] is True
    assert ("added", "Googlebot", "/nogoogle") in {(r["change"], r["agent"], r["value"]) for r in body["rules"]}
    assert body["old_robots"] is None and body["new_robots"]["robots_url"] == site.url("/robots.txt")


def test_diff_of_an_unreachable_live_robots_txt_compares_full_disallow(api: httpx.Client) -> None:
    """F5: a robots.txt answering 5xx means 'everything disallowed', and that is what is compared."""
    with HTTPServer() as site:
        site.route("/robots.txt", respond(500))
        body = api.post("/v1/diff", json={"old_url": site.url("/"), "new": "User-agent: *\nDisallow:\n",
                                          "urls": ["/page"]}).json()
    assert body["old_robots"]["kind"] == "disallow" and body["old_robots"]["status"] == 500
    assert ("/page", False, True) in {(v["url"], v["old_allowed"], v["new_allowed"]) for v in body["verdicts"]}


@pytest.mark.parametrize("fields", [{}, {"old": "a", "old_url": "https://example.com/robots.txt", "new": "b"},
                                    {"new": "b"}])
def test_diff_needs_each_side_exactly_once(api: httpx.Client, fields: dict[str, str]) -> None:
    """Each side is text or a URL: neither or both is a clear 422."""
    message = error_of(api.post("/v1/diff", json={"new": "x", **fields} if "new" not in fields else fields), 422,
                       "invalid_request")
    assert "old" in message


def test_agents_lists_the_crawler_registry(api: httpx.Client) -> None:
    """The page's agent picker: every registry entry with its operator's documentation URL."""
    body = api.get("/v1/agents").json()
    assert [a["token"] for a in body["agents"]] == [c.token for c in crawlers.CRAWLERS]
    googlebot = next(a for a in body["agents"] if a["token"] == "Googlebot")
    assert googlebot == crawlers.by_token("googlebot").to_dict()  # type: ignore[union-attr]


def test_diff_agents_are_matched_on_their_product_token(api: httpx.Client) -> None:
    """G3: 'Googlebot/2.1' compares the Googlebot group; an agent with no token is a clear 422, not ignored."""
    body = api.post("/v1/diff", json={"old": "User-agent: Googlebot\nDisallow: /a\n", "new": "",
                                      "agents": ["Googlebot/2.1"]}).json()
    assert body["agents"] == ["Googlebot"] and body["changed"] is True
    message = error_of(api.post("/v1/diff", json={"old": "", "new": "", "agents": ["/1.0"]}), 422, "invalid_request")
    assert "product token" in message


def test_agents_entries_say_what_each_crawler_is_and_how_it_treats_robots_txt(api: httpx.Client) -> None:
    """A8: each entry has the name as written, the token Google reads from it (and whether they
    differ), operator, purpose, kind, source, whether it obeys robots.txt, whether it ignores the
    '*' group and where the entry comes from: exactly the fields /openapi.json documents."""
    from robotrules.service._models import AgentsResponse, CrawlerModel

    body = api.get("/v1/agents").json()
    AgentsResponse.model_validate(body)
    agents = body["agents"]
    assert agents == [c.to_dict() for c in crawlers.CRAWLERS]
    assert all(set(a) == set(CrawlerModel.model_fields) for a in agents)
    assert all(a["token_valid"] == (a["name"] == a["token"]) for a in agents)
    assert any(not a["token_valid"] for a in agents) and any(a["ignores_global"] for a in agents)
    assert {a["obeys"] for a in agents} == {"yes", "no", "unknown"}
