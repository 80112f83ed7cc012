"""The size limit over real HTTP: 512,000 bytes count, the rest is not even read (F9).

The server counts the bytes it managed to hand to the kernel; with a small send buffer that is
close to what the client read, so "sent < limit + 4 MiB" of a 50 MiB or endless body shows that
the client stopped reading (and closed the connection) soon after the limit.
"""

from __future__ import annotations

import tracemalloc

import pytest

from robotrules.core.policy import Policy, standing
from tests.servers.http import (
    HTTPServer,
    deflate_bytes,
    gzip_bomb,
    gzip_bytes,
    pattern,
    raw,
    respond,
    stream,
)

from .conftest import NOW, TEST_POLICY, Run

LIMIT = 512_000
MiB = 1024 * 1024
ROBOTS = b"User-agent: *\nDisallow: /private\n"
TEXT = b"".join(b"Disallow: /path/%07d\n" % i for i in range(60_000))  # ~1.4 MB of robots.txt lines


def test_limit_is_googles_500_kib() -> None:
    """F9: Google's limit is 500 KiB, 512,000 bytes; the default policy uses it."""
    assert Policy().size_limit == LIMIT


@pytest.mark.parametrize("framing", ["content-length", "close-delimited", "chunked"])
def test_body_over_the_limit_is_cut_and_the_rest_is_not_read(fetch: Run, server: HTTPServer, framing: str) -> None:
    """F9: a 50 MiB (or endless) body: the first 512,000 bytes count, and the client stops reading right after."""
    handler = {
        "content-length": stream(50 * MiB, sndbuf=65536),
        "close-delimited": stream(None, content_length=False, sndbuf=65536),
        "chunked": stream(None, chunk_encoding=True, sndbuf=65536),
    }[framing]
    entry = fetch(server.route("/robots.txt", handler))
    assert (entry.outcome, entry.status) == ("rules", 200)
    assert entry.body == pattern(LIMIT)
    server.wait_done(10)
    (exchange,) = server.exchanges
    assert exchange.error is not None, "the server sent everything: the client read the whole body"
    assert "Reset" in exchange.error or "Broken pipe" in exchange.error, exchange.error  # the client hung up
    assert exchange.sent < LIMIT + 4 * MiB


@pytest.mark.parametrize(("size", "kept"), [(LIMIT - 1, LIMIT - 1), (LIMIT, LIMIT), (LIMIT + 1, LIMIT)])
def test_limit_boundary_is_exact(fetch: Run, server: HTTPServer, size: int, kept: int) -> None:
    """F9: content after the limit is ignored; content up to it is all kept."""
    entry = fetch(server.route("/robots.txt", stream(size)))
    assert entry.outcome == "rules"
    assert entry.body == pattern(kept)


def test_a_smaller_configured_limit_is_honoured(fetch: Run, server: HTTPServer) -> None:
    """F9: the limit applies per crawler: Policy(size_limit=...) cuts there."""
    entry = fetch(server.route("/robots.txt", respond(200, TEXT)), policy=Policy(fetch_timeout=5.0, size_limit=1000))
    assert entry.body == TEXT[:1000]


def test_big_body_cut_inside_a_line_keeps_the_partial_bytes(fetch: Run, server: HTTPServer) -> None:
    """F9: the cut is at byte 512,000 exactly, even inside a line (the parser decides what a partial line means)."""
    entry = fetch(server.route("/robots.txt", respond(200, TEXT)))
    assert len(TEXT) > LIMIT and TEXT[LIMIT - 1 : LIMIT] != b"\n"
    assert entry.body == TEXT[:LIMIT]


def test_body_of_an_error_page_is_not_kept(fetch: Run, server: HTTPServer) -> None:
    """F4, F9: a 404's body (however big) is not a robots.txt: full allow, nothing kept."""
    entry = fetch(server.route("/robots.txt", stream(50 * MiB, status=404, sndbuf=65536)))
    assert (entry.outcome, entry.status, entry.body) == ("allow", 404, b"")
    assert standing(entry, NOW, TEST_POLICY).kind == "allow"


# -- compressed bodies ------------------------------------------------------------------------
@pytest.mark.parametrize("coding", ["gzip", "x-gzip", "GZIP", "deflate"])
def test_compressed_body_is_decoded(fetch: Run, server: HTTPServer, coding: str) -> None:
    """F2: gzip and deflate (zlib) bodies are decoded before parsing."""
    data = deflate_bytes(ROBOTS) if coding == "deflate" else gzip_bytes(ROBOTS)
    entry = fetch(server.route("/robots.txt", respond(200, data, {"Content-Encoding": coding})))
    assert (entry.outcome, entry.body) == ("rules", ROBOTS)
    assert "gzip" in server.requests[0].headers["accept-encoding"]


def test_gzip_inside_chunked_transfer_is_decoded(fetch: Run, server: HTTPServer) -> None:
    """F2: transfer coding (chunked) and content coding (gzip) together."""
    data = gzip_bytes(ROBOTS)
    pieces = [data[i : i + 7] for i in range(0, len(data), 7)]
    head = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    body = b"".join(b"%x\r\n%s\r\n" % (len(p), p) for p in pieces) + b"0\r\n\r\n"
    entry = fetch(server.route("/robots.txt", raw(head + body)))
    assert (entry.outcome, entry.body) == ("rules", ROBOTS)


def test_bare_deflate_body_is_decoded(fetch: Run, server: HTTPServer) -> None:
    """F2: Content-Encoding: deflate sent as a raw deflate stream (no zlib header) is still readable."""
    data = deflate_bytes(ROBOTS, raw_deflate=True)
    entry = fetch(server.route("/robots.txt", respond(200, data, {"Content-Encoding": "deflate"})))
    assert (entry.outcome, entry.body) == ("rules", ROBOTS)


@pytest.mark.parametrize("cut", ["inside the deflate data", "inside the gzip trailer"])
def test_truncated_gzip_stream_is_a_protocol_failure(fetch: Run, server: HTTPServer, cut: str) -> None:
    """F8: a gzip stream that ends early (even with correct HTTP framing) is incomplete data: an error."""
    data = gzip_bytes(TEXT[:40_000])
    data = data[: len(data) // 2] if cut == "inside the deflate data" else data[:-4]
    entry = fetch(server.route("/robots.txt", respond(200, data, {"Content-Encoding": "gzip"})))
    assert (entry.outcome, entry.status) == ("error", 0)
    assert (entry.why.code, entry.why.failure) == ("network", "protocol")


def test_gzip_body_over_the_limit_once_decoded_is_cut_after_decoding(fetch: Run, server: HTTPServer) -> None:
    """F9: the limit counts decoded bytes: a small gzip body that decodes past 512,000 keeps the first 512,000."""
    data = gzip_bytes(TEXT)
    assert len(data) < LIMIT < len(TEXT)
    entry = fetch(server.route("/robots.txt", respond(200, data, {"Content-Encoding": "gzip"})))
    assert entry.body == TEXT[:LIMIT]


def test_gzip_bomb_is_decoded_in_bounded_memory_and_time(fetch: Run, server: HTTPServer) -> None:
    """F9: 200 MiB of zeros in a ~200 KB gzip body: 512,000 zeros come out, memory stays small."""
    bomb = gzip_bomb(200 * MiB)
    assert len(bomb) < 1 * MiB
    url = server.route("/robots.txt", respond(200, bomb, {"Content-Encoding": "gzip"}))
    tracemalloc.start()
    try:
        entry = fetch(url)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (entry.outcome, entry.body) == ("rules", bytes(LIMIT))
    assert peak < 64 * MiB, f"peak traced memory {peak / MiB:.1f} MiB"


def test_gzip_bomb_on_an_error_page_is_not_decoded_past_the_limit(fetch: Run, server: HTTPServer) -> None:
    """F9, F5: a 503 carrying a gzip bomb stays a cheap 503 error."""
    entry = fetch(server.route("/robots.txt", respond(503, gzip_bomb(200 * MiB), {"Content-Encoding": "gzip"})))
    assert (entry.outcome, entry.status) == ("error", 503)


@pytest.mark.parametrize("kind", ["zlib-wrapped", "bare"])
def test_deflate_body_in_one_byte_chunks_is_decoded(fetch: Run, server: HTTPServer, kind: str) -> None:
    """F2, F8: Content-Encoding: deflate arriving one byte per chunk is decoded; the zlib header is not judged on one byte.

    Chunked framing with 1-byte chunks makes every read of the body a single byte, whatever
    the timing, so the first segment is one byte.
    """
    data = deflate_bytes(TEXT[:5000], raw_deflate=kind == "bare")
    head = b"HTTP/1.1 200 OK\r\nContent-Encoding: deflate\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    body = b"".join(b"1\r\n%s\r\n" % data[i : i + 1] for i in range(len(data))) + b"0\r\n\r\n"
    entry = fetch(server.route("/robots.txt", raw(head + body)))
    assert (entry.outcome, entry.status, entry.body) == ("rules", 200, TEXT[:5000])


@pytest.mark.parametrize("kind", ["zlib-wrapped", "bare"])
def test_deflate_detection_does_not_depend_on_how_the_stream_is_split(kind: str) -> None:
    """F2: the body decoder gives the same bytes for every split of a deflate stream into reads (first read of 1 byte included)."""
    from robotrules.fetch.body import BodyReader

    data = deflate_bytes(ROBOTS * 3, raw_deflate=kind == "bare")
    for cut in range(len(data) + 1):
        reader = BodyReader("deflate", LIMIT)
        for piece in (data[:cut], data[cut : cut + 1], data[cut + 1 :]):
            if piece:
                reader.feed(piece)
        assert reader.finish() == ROBOTS * 3, f"split at {cut}"
    one_by_one = BodyReader("deflate", LIMIT)
    for i in range(len(data)):
        one_by_one.feed(data[i : i + 1])
    assert one_by_one.finish() == ROBOTS * 3
