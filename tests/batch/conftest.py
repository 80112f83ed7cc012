"""Fixtures of the batch tests: robots.txt answers served live on 127.0.0.1 AND written as WARC captures.

:func:`world` starts one scriptable HTTP server per scenario (a site), routes each scripted
answer on it, and writes the very same answers (status, headers, body) as ``response`` records
of a real WARC file with warcio's ``WARCWriter``; failed captures (nothing listening) become
``metadata`` records with an ``error`` field. So every row the batch path decides from the
archive can be compared with :meth:`robotrules.RobotsClient.check` asking the live site.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

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
