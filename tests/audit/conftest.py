"""Fixtures of the audit tests: real WARC files of robots.txt captures, written with warcio.

``write_warc(path, answers)`` writes one gzipped WARC: for each URL a ``response`` record (status,
headers, body) or, for an answer given as a string, a ``metadata`` record saying the fetch failed
with that error (as crawl archives record a robots.txt that could not be fetched).
``opened(report)`` opens a report file in Debian's headless Chromium (skipping when it is not
installed; nothing ever downloads a browser) and records every request, error and dialog.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.servers.http import REASONS

SITES: dict[str, dict[str, tuple[int, dict[str, str], bytes] | str]] = {
    # name -> path -> answer; every site is served at the same paths live and captured in the WARC
    "rules": {"/robots.txt": (200, {"content-type": "text/plain"},
                              (b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: CCBot\nDisallow: /\nAllow: /public/\n\n"
                              b"User-agent: *\nDisallow: /private/\nCrawl-delay: 2\n"
                              b"Content-Signal: search=yes, ai-train=no\n\nSitemap: https://rules.test/sitemap.xml\n"))},
    "chain": {"/robots.txt": (301, {"location": "/step1"}, b""),
              "/step1": (302, {"location": "/step2"}, b""),
              "/step2": (200, {"content-type": "text/plain"}, b"User-agent: *\nDisallow: /\n")},
    "missing": {"/robots.txt": (404, {"content-type": "text/html"}, b"<h1>Not found</h1>")},
    "down": {"/robots.txt": (503, {"content-type": "text/html"}, b"<h1>Busy</h1>")},
    "html": {"/robots.txt": (200, {"content-type": "text/html"},
                             b"<html><body><p>Disallow: nothing here</p><a href='/'>home</a></body></html>")},
    "open": {"/robots.txt": (200, {}, b"User-agent: *\nAllow: /\nDisallow:\n")},
}
"""Sites with a robots.txt answered by a 200 with rules, a chain of two redirects, a 404, a 503, an
HTML page and a file that allows everything."""


def write_warc(path: Path, answers: Mapping[str, tuple[int, Mapping[str, str], bytes] | str]) -> Path:
    """A gzipped WARC of ``answers`` (URL -> (status, headers, body), or an error string)."""
    from warcio.statusandheaders import StatusAndHeaders  # type: ignore[import-untyped]
    from warcio.warcwriter import WARCWriter  # type: ignore[import-untyped]

    with open(path, "wb") as handle:
        writer = WARCWriter(handle, gzip=True)
        for url, answer in answers.items():
            if isinstance(answer, str):
                payload = f"error: {answer}\n".encode()
                record = writer.create_warc_record(url, "metadata", payload=io.BytesIO(payload),
                                                   warc_content_type="application/warc-fields")
            else:
                status, headers, body = answer
                http = StatusAndHeaders(f"{status} {REASONS.get(status, 'Status')}",
                                        [*headers.items(), ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
                record = writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http)
            writer.write_record(record)
    return path


@pytest.fixture
def warc(tmp_path: Path) -> Path:
    """A WARC of :data:`SITES` at ``http://<name>.test``, plus a robots.txt whose fetch failed
    (a DNS error) and a redirect to a target the archive does not hold."""
    answers: dict[str, tuple[int, Mapping[str, str], bytes] | str] = {}
    for name, paths in SITES.items():
        for path, answer in paths.items():
            answers[f"http://{name}.test{path}"] = answer
    answers["http://nodns.test/robots.txt"] = "DNS lookup failed"
    answers["http://away.test/robots.txt"] = (301, {"location": "http://elsewhere.test/robots.txt"}, b"")
    return write_warc(tmp_path / "captures.warc.gz", answers)


CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


@dataclass
class Opened:
    """A report open in Chromium: its ``page``, and what happened while it was open."""

    page: Any
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


@contextmanager
def opened(report: Path) -> Iterator[Opened]:
    """``report`` opened from its file in headless Chromium (1200 x 900), its ``details`` closed as written."""
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium); these tests never download a browser")
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
                                             timeout=30_000)
        try:
            context = browser.new_context(viewport={"width": 1200, "height": 900}, service_workers="block")
            context.set_default_timeout(10_000)
            seen = Opened(context.new_page())
            context.on("request", lambda request: seen.requests.append(request.url))
            seen.page.on("pageerror", lambda error: seen.errors.append(str(error)))
            seen.page.on("console",
                         lambda message: seen.errors.append(message.text) if message.type == "error" else None)
            seen.page.on("dialog", lambda dialog: (seen.dialogs.append(dialog.message), dialog.dismiss()))
            seen.page.goto(report.as_uri())
            yield seen
        finally:
            browser.close()
