"""Fixtures of the audit tests: real WARC files of robots.txt captures, written with warcio.

``write_warc(path, answers)`` writes one gzipped WARC: for each URL a ``response`` record (status,
headers, body) or, for an answer given as a string, a ``metadata`` record saying the fetch failed
with that error (as crawl archives record a robots.txt that could not be fetched).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from pathlib import Path

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
