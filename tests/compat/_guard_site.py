"""The site both guards are tested against (httpx and requests): its robots.txt, an echo page, the bounds.

Every test talks to :class:`tests.servers.http.HTTPServer` on 127.0.0.1 and counts what reached
it, so "refused" means the page was never requested.
"""

from __future__ import annotations

from pathlib import Path

from robotrules import Policy
from tests.servers.http import Exchange, respond

POLICY = Policy(fetch_timeout=5.0)
TIMEOUT = 5.0
RULES = (
    b"# robots.txt for the guard tests\n"  # line 1
    b"User-agent: *\n"  # 2
    b"Allow: /private/open\n"  # 3
    b"Disallow: /private\n"  # 4
    b"Disallow: /*.pdf$\n"  # 5
    b"\n"  # 6
    b"User-agent: FooBot\n"  # 7
    b"Disallow: /foo-only\n"  # 8
)
SRC = str(Path(__file__).resolve().parents[2] / "src")


def echo(exchange: Exchange) -> None:
    """Answer with the request's body, read to its Content-Length (the server itself reads only the head)."""
    body = exchange.request.raw.partition(b"\r\n\r\n")[2]
    want = int(exchange.request.headers.get("content-length", "0"))
    exchange.sock.settimeout(5.0)
    while len(body) < want:
        chunk = exchange.sock.recv(want - len(body))
        if not chunk:
            break
        body += chunk
    respond(200, b"echo: " + body, {"X-Page": "yes"})(exchange)

