"""Fixtures of the batch and audit tests: robots.txt answers served live on 127.0.0.1 AND written
as WARC captures, and audit reports opened in Chromium.

:func:`world` starts one scriptable HTTP server per scenario (a site), routes each scripted
answer on it, and writes the very same answers (status, headers, body) as ``response`` records
of a real WARC file with warcio's ``WARCWriter``; failed captures (nothing listening) become
``metadata`` records with an ``error`` field. So every row the batch path decides from the
archive can be compared with :meth:`robotrules.RobotsClient.check` asking the live site.

The audit tests' sites are :data:`SITES`: :func:`write_answers_warc` writes one gzipped WARC of
answers (for each URL a ``response`` record, or, for an answer given as a string, a
``metadata`` record saying the fetch failed with that error, as crawl archives record a
robots.txt that could not be fetched), and ``warc`` is that WARC of every site.
``opened(report)`` opens a report file in the suite's headless Chromium (``browser``: Debian's,
never downloaded) and records every request, error and dialog.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.chromium import closing_new_pages, shared_window
from tests.cli.conftest import cli_env, robotrules  # noqa: F401 (the console-script fixtures)
from tests.servers.http import REASONS, HTTPServer, free_port, gzip_bytes, respond

pytest.importorskip("warcio", reason="warcio (robotrules[batch]) is not installed")

RULES = b"""\
User-agent: FooBot
Disallow: /private
Allow: /private/open

User-agent: *
Disallow: /tmp
Disallow: /*.pdf$
"""

PATHS = ("/", "/private/x", "/private/open/y", "/tmp/a", "/doc.pdf", "/early", "/late", "/chained", "/b-only")
AGENTS = ("FooBot", "Googlebot/2.1", "*", "Mozilla/5.0 (compatible; FooBot/1.0; +http://foo.example)")
BIG = b"User-agent: *\nDisallow: /early\n" + b"# " + b"x" * 520_000 + b"\nDisallow: /late\n"
HTML = b"<!doctype html><html><head><title>Home</title></head><body><p>Disallow: /tmp</p></body></html>\n"


@dataclass
class Answer:
    """One scripted answer: ``location`` may say ``{base}`` (this site) or ``{dead}`` (a site with
    nothing listening, never captured)."""

    path: str
    status: int
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


SCENARIOS: dict[str, list[Answer]] = {
    "ok": [Answer("/robots.txt", 200, RULES, {"Content-Type": "text/plain"})],
    "gzip": [Answer("/robots.txt", 200, gzip_bytes(RULES), {"Content-Encoding": "gzip"})],
    "chain": [Answer("/robots.txt", 301, b"moved", {"Location": "/a"}),
              Answer("/a", 302, b"moved", {"Location": "{base}/b"}),
              Answer("/b", 200, b"User-agent: *\nDisallow: /b-only\nDisallow: /chained\n")],
    "too-long": [Answer("/robots.txt", 301, b"", {"Location": "/r1"}),
                 *[Answer(f"/r{i}", 301, b"", {"Location": f"/r{i + 1}"}) for i in range(1, 6)],
                 Answer("/r6", 200, b"User-agent: *\nDisallow: /\n")],
    "dead-end": [Answer("/robots.txt", 301, b"", {"Location": "{dead}/robots.txt"})],
    "missing": [Answer("/robots.txt", 404, b"not found")],
    "gone": [Answer("/robots.txt", 410, b"gone")],
    "down": [Answer("/robots.txt", 503, b"try later", {"Retry-After": "120"})],
    "error": [Answer("/robots.txt", 500, b"oops")],
    "html": [Answer("/robots.txt", 200, HTML, {"Content-Type": "text/html"})],
    "big": [Answer("/robots.txt", 200, BIG)],
}
FAILED = "failed"
"""A site with nothing listening: captured as a failed fetch."""


@dataclass
class World:
    """Live sites and their WARC captures: ``bases[name]`` is a site's base URL."""

    bases: dict[str, str]
    warc: Path
    plain_warc: Path
    servers: list[HTTPServer]

    def urls(self, names: list[str] | None = None) -> list[str]:
        """Every test path on every site (or the named ones)."""
        return [self.bases[name] + path for name in (names or list(self.bases)) for path in PATHS]


def write_warc(path: Path, captures: list[tuple[str, int, dict[str, str], bytes]],
               failed: list[tuple[str, str]], *, gz: bool) -> None:
    """A WARC of robots.txt captures (with warcinfo and request records, as crawlers write them)."""
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    with path.open("wb") as handle:
        writer = WARCWriter(handle, gzip=gz)
        writer.write_record(writer.create_warcinfo_record(path.name, {"software": "robotrules tests"}))
        for url, status, headers, body in captures:
            request = StatusAndHeaders("GET /robots.txt HTTP/1.1", [("Host", "x")], is_http_request=True)
            writer.write_record(writer.create_warc_record(url, "request", http_headers=request))
            http = StatusAndHeaders(f"{status} {REASONS.get(status, 'Whatever')}",
                                    [*headers.items(), ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http))
        for url, error in failed:
            fields = f"error: {error}\r\n".encode()
            writer.write_record(writer.create_warc_record(url, "metadata", payload=io.BytesIO(fields),
                                                          warc_content_type="application/warc-fields"))


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    """Every scenario live on its own server, and all of them captured in one WARC.gz (and a plain WARC)."""
    folder = tmp_path_factory.mktemp("warc")
    dead = f"http://127.0.0.1:{free_port()}"
    servers: list[HTTPServer] = []
    bases: dict[str, str] = {}
    captures: list[tuple[str, int, dict[str, str], bytes]] = []
    try:
        for name, answers in SCENARIOS.items():
            server = HTTPServer().start()
            servers.append(server)
            base = server.url("/").rstrip("/")
            bases[name] = base
            for answer in answers:
                headers = {k: v.format(base=base, dead=dead) for k, v in answer.headers.items()}
                server.route(answer.path, respond(answer.status, answer.body, headers))
                captures.append((base + answer.path, answer.status, headers, answer.body))
        failed_base = f"http://127.0.0.1:{free_port()}"
        bases[FAILED] = failed_base
        failed = [(failed_base + "/robots.txt", "connection refused")]
        warc = folder / "robots.warc.gz"
        plain = folder / "robots.warc"
        write_warc(warc, captures, failed, gz=True)
        write_warc(plain, captures, failed, gz=False)
        yield World(bases, warc, plain, servers)
    finally:
        for server in servers:
            server.stop()


# -- the audit tests' sites ----------------------------------------------------------------------

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


def write_answers_warc(path: Path, answers: Mapping[str, tuple[int, Mapping[str, str], bytes] | str]) -> Path:
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
    return write_answers_warc(tmp_path / "captures.warc.gz", answers)


@dataclass
class Opened:
    """A report open in Chromium: its ``page``, and what happened while it was open."""

    page: Any
    requests: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def report_context(browser: Any) -> Iterator[Any]:
    """One browser context (one window, 1200 x 900) for a module's reports, each in its own page."""
    with shared_window(browser, 1200, 900) as context:
        yield context


@pytest.fixture
def opened(report_context: Any) -> Callable[[Path], AbstractContextManager[Opened]]:
    """``with opened(report) as seen``: ``report`` opened from its file in the suite's headless
    Chromium (1200 x 900, a fresh page), its ``details`` closed as written."""

    @contextmanager
    def open_report(report: Path) -> Iterator[Opened]:
        with closing_new_pages(report_context):  # the report's page, and any it opened
            seen = Opened(report_context.new_page())

            def on_request(request: Any) -> None:  # any page of the context: a popup's requests too
                seen.requests.append(request.url)

            report_context.on("request", on_request)
            try:
                seen.page.on("pageerror", lambda error: seen.errors.append(str(error)))
                seen.page.on("console",
                             lambda message: seen.errors.append(message.text) if message.type == "error" else None)
                seen.page.on("dialog", lambda dialog: (seen.dialogs.append(dialog.message), dialog.dismiss()))
                seen.page.goto(report.as_uri())
                yield seen
            finally:
                report_context.remove_listener("request", on_request)

    return open_report
