"""The web tester page (issue #9) in real headless Chromium against the real service.

Each test acts as a site owner does: types a draft, URLs and crawlers, fetches a live file from a
real server on 127.0.0.1, compares, shares a link; and checks what the page shows against the
library (:func:`robotrules.parse`, :func:`robotrules.lint`, :func:`robotrules.diff.diff`) for the
same inputs. Verdicts and deciding lines: R1-R6, G2-G5; lint: P2, P6, R2, N2; live state: F1-F9.
"""

from __future__ import annotations

import base64
import json
import re
import struct
import zlib
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

import robotrules
from robotrules.diff import diff
from tests.page._tester import TesterPage
from tests.servers.http import HTTPServer, redirect, respond

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.browser

TEXT = {"Content-Type": "text/plain; charset=utf-8"}

DRAFT = (
    "User-agent: *\n"
    "Disallow: /private/\n"
    "Allow: /private/press/\n"
    "\n"
    "User-agent: Googlebot\n"
    "Disallow: /drafts/\n"
    "Allow: /drafts/public$\n"
)
URLS = (
    "https://example.com/",
    "https://example.com/private/report.html",
    "https://example.com/private/press/launch.html",
    "/drafts/new-post",
    "/drafts/public",
    "/drafts/public?x=1",
)


def expected_rows(body: str, urls: tuple[str, ...], agents: tuple[str, ...]) -> list[tuple[str, str, bool, int, str]]:
    """What the library says for every URL and agent: (url, agent, allowed, line, line as written)."""
    parsed = robotrules.parse(body)
    rows = []
    for url in urls:
        for agent in agents:
            decision = parsed.check(url, robotrules.user_agent_token(agent))
            rows.append((url, agent, decision.allowed, decision.line, parsed.line_text(decision.line) if decision.line else ""))
    return rows


def shown_rows(tester: TesterPage, page: Page | None = None) -> list[tuple[str, str, bool, int, str]]:
    """What the results table shows, in the same form as :func:`expected_rows`."""
    return [(r.url, r.agent, r.allowed, r.line, r.text) for r in tester.rows(page)]


def test_typed_draft_and_urls_show_the_verdicts_the_parser_gives(tester: TesterPage) -> None:
    """Every URL x agent gets the library's verdict and deciding line, as written (R1-R6, G2-G4)."""
    tester.open()
    tester.set_draft(DRAFT)
    tester.set_urls(*URLS)
    tester.choose_agents("Googlebot", "GPTBot", "*")
    agents = tuple(tester.chosen_agents())
    assert sorted(agents) == sorted(["Googlebot", "GPTBot", "*"])
    assert shown_rows(tester) == expected_rows(DRAFT, URLS, agents)
    allowed = sum(1 for row in tester.rows() if row.allowed)
    summary = tester.page.inner_text("#results-summary")
    assert f"{allowed} allowed" in summary and f"{len(tester.rows()) - allowed} disallowed" in summary
    assert tester.status()[0] != "error"


def test_selecting_a_row_highlights_and_reveals_its_deciding_line(tester: TesterPage) -> None:
    """Clicking (or pressing Enter on) a verdict marks its deciding line in the editor and scrolls
    the editor to it, however far down the file it is (DESIGN 5: every verdict is explainable)."""
    filler = "".join(f"# comment line {n}\n" for n in range(120))
    body = "User-agent: *\nAllow: /\n" + filler + "Disallow: /deep/\n"
    deciding = body.count("\n")  # the last line
    tester.open()
    tester.set_draft(body)
    tester.set_urls("/deep/page", "/shallow")
    tester.choose_agents("Googlebot")
    assert tester.decided_lines() == []

    tester.select_row("/deep/page", "Googlebot")
    assert tester.decided_lines() == [deciding]
    assert {"decide", "decide-disallow"} <= set(tester.editor_line_classes(deciding))
    assert "decide" in (tester.page.get_attribute(f"#gutter .num[data-line='{deciding}']", "class") or "")
    assert "Disallow: /deep/" in tester.page.inner_text("#why")
    line_box = tester.page.locator(f"#backdrop .line[data-line='{deciding}']").bounding_box()
    editor_box = tester.page.locator("#robots").bounding_box()
    assert line_box is not None and editor_box is not None
    assert editor_box["y"] <= line_box["y"] and line_box["y"] + line_box["height"] <= editor_box["y"] + editor_box["height"]
    viewport = tester.page.viewport_size
    assert viewport is not None and line_box["y"] >= 0 and line_box["y"] + line_box["height"] <= viewport["height"]

    # Keyboard: focus the other row and press Enter.
    tester.row_locator("/shallow", "Googlebot").focus()
    tester.page.keyboard.press("Enter")
    assert tester.decided_lines() == [2]
    assert "decide-allow" in tester.editor_line_classes(2)
    assert tester.row_locator("/shallow", "Googlebot").get_attribute("aria-current") == "true"


def test_lint_findings_appear_at_their_lines(tester: TesterPage) -> None:
    """Each finding of robotrules.lint is marked at its line (gutter, underline, inline message)
    and listed; choosing it in the list puts the caret on its line (P2, P6, R2, N2)."""
    body = "User-agent: *\nDisalow: /typo\nDisallow: private\nfoo bar\nAllow: /ok\n"
    tester.open()
    tester.set_draft(body)
    found = robotrules.lint(body)
    assert found, "the draft is meant to have findings"
    listed = tester.page.eval_on_selector_all(
        "#findings .finding", "items => items.map(i => [Number(i.dataset.line), i.dataset.severity, i.dataset.code])")
    assert [tuple(item) for item in listed] == [(d.line, d.severity, d.code) for d in found]
    for d in found:
        classes = tester.editor_line_classes(d.line)
        assert any(c.startswith("sev-") for c in classes), (d, classes)
        gutter_title = tester.page.get_attribute(f"#gutter .num[data-line='{d.line}']", "title") or ""
        assert d.message in gutter_title
    lines_with_findings = {d.line for d in found}
    assert all(not any(c.startswith("sev-") for c in tester.editor_line_classes(n))
               for n in range(1, 6) if n not in lines_with_findings)
    first_on_line_3 = next(d for d in found if d.line == 3)
    assert first_on_line_3.message in tester.page.inner_text("#backdrop .line[data-line='3'] .msg")
    assert tester.page.inner_text("#findings-summary").endswith(".")

    tester.page.locator("#findings .finding[data-line='4'] button").first.click()
    assert tester.page.inner_text("#caret-info").startswith("Line 4,")
    assert "caret" in tester.editor_line_classes(4)


def test_editing_the_draft_retests_at_once(tester: TesterPage) -> None:
    """Typing in the editor re-tests without any button: Disallow -> Allow flips the verdict, and
    the results always match the text finally in the editor (R1, R6)."""
    tester.open()
    tester.set_draft("User-agent: *\nDisallow: /private/\n")
    tester.set_urls("/private/x")
    tester.choose_agents("Googlebot")
    assert shown_rows(tester) == [("/private/x", "Googlebot", False, 2, "Disallow: /private/")]

    start = len("User-agent: *\n")
    tester.page.focus("#robots")
    tester.page.eval_on_selector("#robots", f"t => t.setSelectionRange({start}, {start + len('Disallow')})")
    tester.page.keyboard.type("Allow")
    tester.wait_idle()
    assert tester.draft() == "User-agent: *\nAllow: /private/\n"
    assert shown_rows(tester) == [("/private/x", "Googlebot", True, 2, "Allow: /private/")]

    tester.page.keyboard.press("Control+Z")  # undo: back to Disallow, re-tested again
    tester.wait_idle()
    assert shown_rows(tester) == expected_rows(tester.draft(), ("/private/x",), ("Googlebot",))


def test_read_as_switches_the_parsing_mode(tester: TesterPage) -> None:
    """"Read as" tests the draft in the chosen mode: Google accepts a misspelt "Disalow", RFC 9309
    ignores the line (P6), and the verdicts follow robotrules.parse in each mode."""
    body = "User-agent: *\nDisalow: /x\n"
    tester.open()
    tester.set_draft(body)
    tester.set_urls("/x")
    tester.choose_agents("Googlebot")
    for mode in ("google", "rfc9309"):
        tester.page.select_option("#mode", mode)
        tester.wait_idle()
        decision = robotrules.parse(body, mode=mode).check("/x", "Googlebot")
        [row] = tester.rows()
        assert (row.allowed, row.line) == (decision.allowed, decision.line), mode
    assert tester.rows()[0].allowed  # rfc9309: the misspelt line is ignored


def test_a_whole_user_agent_header_is_matched_on_its_token(tester: TesterPage) -> None:
    """A typed User-Agent header is decided for its product token, and the page says which (G3)."""
    header = "Mozilla/5.0 (compatible; FooBot/1.2; +http://foo.example/bot)"
    body = "User-agent: FooBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"
    tester.open()
    tester.set_draft(body)
    tester.set_urls("/page")
    tester.choose_agents()
    tester.set_user_agent(header)
    token = robotrules.user_agent_token(header)
    assert token == "FooBot"
    [row] = tester.rows()
    assert (row.agent, row.token, row.allowed, row.line) == (header, token, False, 2)
    assert "matched as FooBot" in tester.row_locator("/page", header).inner_text()
    assert "FooBot" in tester.page.inner_text("#ua-token")


def test_fetching_the_live_file_loads_its_body_and_state(tester: TesterPage, site: HTTPServer) -> None:
    """The live robots.txt (after a redirect, F3) is loaded into the editor with its status,
    redirects and cache state, and its verdicts follow at once (F1, F3, C1)."""
    body = "User-agent: *\r\nDisallow: /shop/cart\r\nSitemap: https://example.com/sitemap.xml\r\n"
    site.route("/robots.txt", redirect(301, "/real/robots.txt"))
    site.route("/real/robots.txt", respond(200, body.encode(), TEXT))
    tester.open()
    tester.set_urls("/shop/cart", "/shop/")
    tester.choose_agents("Googlebot")
    with tester.page.expect_response(lambda response: "/v1/robots?" in response.url) as answered:
        tester.fetch_live(site.url("/"))

    assert tester.draft() == body.replace("\r\n", "\n")
    details = dict(zip(
        tester.page.eval_on_selector_all("#live-details dt", "ds => ds.map(d => d.textContent)"),
        tester.page.eval_on_selector_all("#live-details dd", "ds => ds.map(d => d.textContent)"),
        strict=True,
    ))
    assert details["robots.txt"] == site.url("/robots.txt")
    assert details["Status"] == "200"
    assert details["Redirects"] == f"1, ending at {site.url('/real/robots.txt')}"
    assert details["Sitemaps"] == "https://example.com/sitemap.xml"
    assert details["Size"] == f"{len(body.encode())} bytes"
    summary = tester.page.inner_text("#live-summary")  # the service's own sentence: redirects, cache, age
    assert summary == answered.value.json()["summary"] and "fetched just now" in summary
    kind, text = tester.status()
    assert kind == "info" and "Loaded the live file" in text
    assert shown_rows(tester) == expected_rows(body, ("/shop/cart", "/shop/"), ("Googlebot",))
    assert site.hits("/robots.txt") == 1
    assert tester.page.is_hidden("#live-actions")  # the editor holds the live file as it is


def test_a_live_site_without_robots_txt_leaves_the_draft_alone(tester: TesterPage, site: HTTPServer) -> None:
    """A 404 robots.txt means everything is allowed (F4): the page says so and keeps the draft."""
    site.default = respond(404, b"<html>not here</html>", {"Content-Type": "text/html"})
    tester.open()
    tester.set_draft("User-agent: *\nDisallow: /x\n")
    tester.fetch_live(site.url("/"))
    assert tester.draft() == "User-agent: *\nDisallow: /x\n"
    kind, text = tester.status()
    assert kind == "info" and "no rules" in text
    assert "allow all" in tester.page.inner_text("#live-summary")  # the service's sentence says what it means
    assert tester.page.is_hidden("#diff-section")


def test_the_diff_view_shows_an_added_rule_and_a_changed_verdict(tester: TesterPage, site: HTTPServer) -> None:
    """Draft vs live: rule changes and verdict changes are those of robotrules.diff for the same
    files and URLs, and the line diff shows the added line (G2-G5, R1-R6)."""
    live = "User-agent: *\nDisallow: /private/\n"
    site.route("/robots.txt", respond(200, live.encode(), TEXT))
    tester.open()
    tester.set_urls("https://example.com/drafts/x", "https://example.com/ok")
    tester.choose_agents("Googlebot")
    tester.fetch_live(site.url("/"))
    assert tester.page.is_visible("#diff-section")
    assert "reads the same" in tester.page.inner_text("#diff-summary")

    draft = live + "Disallow: /drafts/\n"
    tester.set_draft(draft)
    expected = diff(live, draft, urls=["https://example.com/drafts/x", "https://example.com/ok"])
    rules = tester.page.eval_on_selector_all(
        "#diff-rules tbody tr", "rs => rs.map(r => [r.dataset.change, r.dataset.agent, r.dataset.kind, r.dataset.value])")
    assert [tuple(r) for r in rules] == [(c.change, c.agent, c.kind, c.value) for c in expected.rules]
    assert ("added", "*", "disallow", "/drafts/") in [tuple(r) for r in rules]
    verdicts = tester.page.eval_on_selector_all(
        "#diff-verdicts tbody tr", "rs => rs.map(r => [r.dataset.url, r.dataset.agent, r.dataset.oldAllowed, r.dataset.newAllowed])")
    assert [tuple(v) for v in verdicts] == [(v.url, v.agent, str(v.old_allowed).lower(), str(v.new_allowed).lower())
                                            for v in expected.verdicts]
    assert ("https://example.com/drafts/x", "*", "true", "false") in [tuple(v) for v in verdicts]
    added = tester.page.eval_on_selector_all("#line-diff .dl.add .text", "ls => ls.map(l => l.textContent)")
    assert added == ["Disallow: /drafts/"]
    assert tester.page.is_visible("#live-actions")  # the draft now differs: offer the live file back

    tester.page.click("#live-load")
    tester.wait_idle()
    assert tester.draft() == live
    assert "reads the same" in tester.page.inner_text("#diff-summary")


def test_a_share_link_restores_the_same_state_and_verdicts(tester: TesterPage, site: HTTPServer) -> None:
    """The link carries draft, crawlers, typed header, URLs, live URL and mode in its fragment
    (compressed when long); opening it in a new page shows the same state and verdicts."""
    live = "User-agent: *\nDisallow: /private/\n"
    site.route("/robots.txt", respond(200, live.encode(), TEXT))
    draft = DRAFT + "".join(f"# note {n}: long enough to be worth compressing\n" for n in range(20))
    header = "Mozilla/5.0 (compatible; FooBot/1.2)"
    tester.open()
    tester.fetch_live(site.url("/"))
    tester.set_draft(draft)
    tester.set_urls(*URLS)
    tester.choose_agents("Bingbot", "*")
    tester.set_user_agent(header)
    tester.page.select_option("#mode", "rfc9309")
    tester.wait_idle()
    tester.page.click("#copy-link")
    tester.wait_idle()
    link = tester.page.input_value("#share-link")
    assert link == tester.page.url
    assert link.startswith(tester.base_url + "/#state=z.")  # Chromium has CompressionStream
    packed = link.split("#state=z.", 1)[1]
    saved = json.loads(zlib.decompress(base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))))
    assert saved == {"v": 1, "robots": draft, "agents": saved["agents"], "ua": header, "urls": "\n".join(URLS),
                     "live": site.url("/"), "mode": "rfc9309"}  # the documented form (docs/guides/tester.md)
    assert sorted(saved["agents"]) == ["*", "Bingbot"]
    first = shown_rows(tester)
    assert first and len(first) == len(URLS) * 3

    other = tester.open_link(link)
    assert tester.draft(other) == draft
    assert sorted(tester.chosen_agents(other)) == sorted(["Bingbot", "*"])
    assert other.input_value("#ua") == header
    assert other.input_value("#urls") == "\n".join(URLS)
    assert other.input_value("#live-url") == site.url("/")
    assert other.input_value("#mode") == "rfc9309"
    assert shown_rows(tester, other) == first
    assert other.is_visible("#diff-section")  # the live file was fetched again to compare with
    assert tester.page.inner_text("#diff-summary") == other.inner_text("#diff-summary")


def test_a_plain_share_link_is_read_too(tester: TesterPage) -> None:
    """The uncompressed form, #state=b.<base64url of the JSON state>, is read as documented."""
    state = {"v": 1, "robots": "User-agent: *\nDisallow: /a\n", "agents": ["Googlebot"], "ua": "",
             "urls": "/a\n/b", "live": "", "mode": "google"}
    encoded = base64.urlsafe_b64encode(json.dumps(state).encode()).decode().rstrip("=")
    page = tester.open("#state=b." + encoded)
    assert tester.draft(page) == state["robots"]
    assert shown_rows(tester, page) == [("/a", "Googlebot", False, 2, "Disallow: /a"), ("/b", "Googlebot", True, 0, "")]


def test_a_broken_share_link_is_reported_and_the_example_shown(tester: TesterPage) -> None:
    """A cut or tampered link gives a plain message in the status line, not a broken page."""
    tester.open("#state=z.not-deflate-data")
    kind, text = tester.status()
    assert kind == "error" and "could not be read" in text and "cut short or changed" in text
    assert "User-agent" in tester.draft()
    assert tester.rows()


def test_an_api_error_is_shown_in_the_status_line(tester: TesterPage) -> None:
    """The service's {"error": {"message"}} is shown as written, and cleared once the input is fixed."""
    tester.open()
    tester.set_draft("User-agent: *\nDisallow: /private/\n")
    tester.set_urls("/ok", "not a url")
    kind, text = tester.status()
    assert kind == "error"
    assert "'not a url' is neither an absolute URL" in text
    tester.set_urls("/ok", "/private/x")
    assert tester.status() == ("info", "")
    assert [row.url for row in tester.rows()] == ["/ok", "/ok", "/private/x", "/private/x"]

    tester.fetch_live("mailto:someone@example.com")
    kind, text = tester.status()
    assert kind == "error" and "Could not fetch the live file" in text and "mailto:someone@example.com" in text


def test_a_screenshot_of_the_working_page_is_saved(tester: TesterPage, site: HTTPServer, tmp_path: Path) -> None:
    """Evidence: the page with a live file, an edited draft, findings, verdicts and a diff; its
    text speaks plainly (no requirement ids)."""
    live = "User-agent: *\nDisallow: /private/\n\nUser-agent: GPTBot\nDisallow: /\n"
    site.route("/robots.txt", respond(200, live.encode(), TEXT))
    tester.open()
    tester.set_urls("https://example.com/", "https://example.com/private/a", "https://example.com/blog/post")
    tester.choose_agents("Googlebot", "GPTBot")
    tester.fetch_live(site.url("/"))
    tester.set_draft(live.replace("Disallow: /\n", "Disallow: /\nAllow: /blog/\nDisalow: /tmp\n"))
    tester.select_row("https://example.com/blog/post", "GPTBot")
    shown = tester.page.inner_text("body")
    assert "Allow: /blog/" in shown and "misspelt field name" in shown
    assert not re.search(r"\b[SFCPGRNAL][1-9][0-9]?\b", shown), "the page's text cites a requirement id"
    path = tmp_path / "tester.png"
    tester.page.screenshot(path=str(path), full_page=True)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width >= 1000 and height >= 800
    print(f"screenshot: {path}")


def test_a_large_file_stays_usable_and_reveals_a_deciding_line_far_down(tester: TesterPage) -> None:
    """A file near Google's size limit (F9) draws only the lines in view, yet selecting a verdict
    decided 20,000 lines down shows that line, numbered and highlighted."""
    body = "User-agent: *\n" + "".join(f"Allow: /keep/{n}/\n" for n in range(20_000)) + "Disallow: /last/\n"
    deciding = body.count("\n")
    tester.open()
    tester.paste_draft(body)
    tester.set_urls("/last/page")
    tester.choose_agents("Googlebot")
    assert shown_rows(tester) == [("/last/page", "Googlebot", False, deciding, "Disallow: /last/")]
    assert tester.page.locator("#backdrop .line").count() < 1000
    editor = tester.page.locator("#editor").bounding_box()
    assert editor is not None and editor["height"] < 1000  # the editor scrolls; it does not grow with the file
    tester.select_row("/last/page", "Googlebot")
    line = tester.page.locator(f"#backdrop .line[data-line='{deciding}']")
    assert "decide-disallow" in (line.get_attribute("class") or "")
    assert tester.page.inner_text(f"#gutter .num[data-line='{deciding}']") == str(deciding)
    line_box, editor_box = line.bounding_box(), tester.page.locator("#robots").bounding_box()
    assert line_box is not None and editor_box is not None
    assert editor_box["y"] <= line_box["y"] and line_box["y"] + line_box["height"] <= editor_box["y"] + editor_box["height"]
    gutter_box = tester.page.locator(f"#gutter .num[data-line='{deciding}']").bounding_box()
    assert gutter_box is not None and abs(gutter_box["y"] - line_box["y"]) < 1  # the gutter scrolled with the text


def test_a_draft_with_more_findings_than_an_answer_lists_says_how_many_are_not_listed(tester: TesterPage) -> None:
    """P2: a draft of 520 lines Google ignores has 1,040 findings; the service lists the first
    1,000 and counts the others, and the page says so instead of reporting only what it lists."""
    body = "nonsense line\n" * 520
    tester.open()
    tester.paste_draft(body)  # one input event: Playwright's fill is slow for large text
    total = len(robotrules.lint(body))
    tester.page.wait_for_function("() => document.querySelector('#findings-summary').textContent.includes('not listed')")
    summary = tester.page.inner_text("#findings-summary")
    assert f"{total - 1_000:,} more findings are not listed" in summary
    assert tester.page.locator("#findings .finding").count() == 1_000
