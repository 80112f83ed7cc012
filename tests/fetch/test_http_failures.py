"""Network failures and incomplete data over real sockets: all are server errors (F5, F6, F8).

Each failure must end in an ``error`` entry with status 0, the failure kind at the head of the
reason, a back-off lifetime, and full disallow while no good copy exists. Slow cases use a 0.6 s
deadline (``Policy(fetch_timeout=0.6)``) and assert that the fetch ends soon after it.
"""

from __future__ import annotations

import pytest

from robotrules.core.policy import Policy, standing
from tests.servers.http import (
    Exchange,
    HTTPServer,
    chunked,
    close_silently,
    delayed,
    free_port,
    gzip_bytes,
    hang,
    raw,
    redirect,
    reset,
    respond,
    trickle,
    trickle_headers,
)

from .conftest import DAY, NOW, TEST_POLICY, FakeClock, Run

FAST = Policy(fetch_timeout=0.6)


def assert_failure(entry: object, *kinds: str) -> None:
    """F8: an error entry, status 0, reason naming one of ``kinds``, retried after the error back-off."""
    from robotrules.core.policy import Entry

    assert isinstance(entry, Entry)
    assert (entry.outcome, entry.status, entry.body) == ("error", 0, b"")
    assert entry.why.code == "network" and entry.why.failure in kinds, entry.reason
    assert (entry.failures, entry.failing_since, entry.good_at) == (1, NOW, None)
    assert entry.expires_at == NOW + TEST_POLICY.retry_after_error
    assert standing(entry, NOW, TEST_POLICY).kind == "disallow"


def test_connection_refused_is_a_connect_failure(fetch: Run) -> None:
    """F8: nothing listening on the port: a failed request, handled as a server error."""
    entry = fetch(f"http://127.0.0.1:{free_port()}/robots.txt")
    assert_failure(entry, "connect")


def test_unresolvable_host_is_a_dns_failure(fetch: Run) -> None:
    """F8: a DNS failure (the reserved .invalid TLD never resolves) is handled as a server error."""
    entry = fetch("http://robotrules-test.invalid/robots.txt", policy=Policy(fetch_timeout=3.0))
    assert (entry.why.code, entry.why.failure) in {("network", "dns"), ("network", "timeout")}, entry.reason
    assert (entry.outcome, entry.status) == ("error", 0)


def test_tls_handshake_failure_is_a_tls_failure(fetch: Run, server: HTTPServer) -> None:
    """F8: https:// to a server that does not speak TLS: the handshake fails, handled as a server error."""
    server.greeting = b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"
    entry = fetch(f"https://127.0.0.1:{server.port}/robots.txt")
    assert_failure(entry, "tls")


def test_reset_before_the_response_is_a_reset_failure(fetch: Run, server: HTTPServer) -> None:
    """F8: a connection reset (RST) after the request, before any byte of response."""
    assert_failure(fetch(server.route("/robots.txt", reset())), "reset")


@pytest.mark.parametrize("sent", [
    b"HTTP/1.1 200 OK\r\n",  # inside the header block
    b"HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\nUser-agent: *\nDisallow: /a\n",  # inside the body
])
def test_reset_during_the_response_is_a_failure(fetch: Run, server: HTTPServer, sent: bytes) -> None:
    """F8: a reset in the middle of the response: incomplete data, handled as a server error."""
    assert_failure(fetch(server.route("/robots.txt", reset(sent))), "reset", "protocol")


def test_close_without_any_response_is_a_protocol_failure(fetch: Run, server: HTTPServer) -> None:
    """F8: the server reads the request and closes the connection without answering: an invalid response."""
    assert_failure(fetch(server.route("/robots.txt", close_silently())), "protocol")


def test_close_inside_the_headers_is_a_protocol_failure(fetch: Run, server: HTTPServer) -> None:
    """F8: a header block cut by the connection closing is incomplete data."""
    assert_failure(fetch(server.route("/robots.txt", raw(b"HTTP/1.1 200 OK\r\nContent-Len"))), "protocol")


def test_hung_connection_without_headers_times_out(fetch: Run, server: HTTPServer) -> None:
    """F8: a server that accepts the request and never answers: a timeout (the handler hangs until the server stops)."""
    entry = fetch(server.route("/robots.txt", hang()), policy=FAST)
    assert_failure(entry, "timeout")


def test_trickling_body_past_the_deadline_times_out(fetch: Run, server: HTTPServer) -> None:
    """F8: a body sent a byte at a time, each byte in time but the whole far too slow: a timeout."""
    body = b"User-agent: *\nDisallow: /\n" * 10
    entry = fetch(server.route("/robots.txt", trickle(body, interval=0.05)), policy=FAST)
    assert_failure(entry, "timeout")  # the whole trickle takes 13 s: reading it all would be a success


def test_trickling_headers_past_the_deadline_times_out(fetch: Run, server: HTTPServer, request: pytest.FixtureRequest) -> None:
    """F8: headers trickled a byte at a time (slowloris) must not outlast the fetch deadline.

    The server gives up after 1.6 s by closing the connection: a client still waiting then would
    see a protocol failure, so "timeout" shows it hung up at its own 0.6 s deadline.
    """
    entry = fetch(server.route("/robots.txt", trickle_headers(interval=0.05, give_up_after=1.6)), policy=FAST)
    assert_failure(entry, "timeout")


def test_body_stalling_after_late_headers_times_out_at_the_deadline(
    fetch: Run, server: HTTPServer, request: pytest.FixtureRequest
) -> None:
    """F8: headers arriving late (0.55 s of a 0.6 s budget), then the body 0.4 s later: past the deadline.

    A client that restarted its read timeout after the headers would get the whole body (a
    success); one that keeps the attempt's deadline has hung up before it comes.
    """
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 13\r\nConnection: close\r\n\r\n"

    def late_head_later_body(exchange: Exchange) -> None:
        exchange.send(head)
        exchange.wait(0.4)
        exchange.send(b"User-agent: *")

    entry = fetch(server.route("/robots.txt", delayed(0.55, late_head_later_body)), policy=FAST)
    assert_failure(entry, "timeout")


def test_deadline_covers_the_whole_redirect_chain(fetch: Run, server: HTTPServer) -> None:
    """F3, F8: fetch_timeout bounds the attempt, redirects included: 5 hops of 0.25 s each do not fit in 0.6 s."""
    for n in range(5):
        server.route(f"/slow/{n}", delayed(0.25, redirect(302, f"/slow/{n + 1}")))
    server.route("/slow/5", respond(200, b"User-agent: *\nDisallow:\n"))
    entry = fetch(server.url("/slow/0"), policy=FAST)
    assert_failure(entry, "timeout")
    assert server.hits() <= 3


def test_truncated_body_is_a_protocol_failure(fetch: Run, server: HTTPServer) -> None:
    """F8: Content-Length larger than what arrives before the connection closes: incomplete data."""
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n"
    entry = fetch(server.route("/robots.txt", raw(head + b"User-agent: *\nDisallow: /\n")))
    assert_failure(entry, "protocol")


@pytest.mark.parametrize(("chunks", "why"), [
    (b"zz\r\nabc\r\n0\r\n\r\n", "chunk size not hex"),
    (b"1f\r\nUser-agent: *\nDisallow: /\n\r\n0\r\n\r\n", "chunk shorter than its size"),
    (b"3\r\nabcXX0\r\n\r\n", "no CRLF after the chunk data"),
    (b"100\r\nUser-agent: *\n", "stream cut inside a chunk"),
    (b"5\r\nhello\r\n", "stream cut before the last chunk"),
])
def test_broken_chunked_encoding_is_a_protocol_failure(fetch: Run, server: HTTPServer, chunks: bytes, why: str) -> None:
    """F8: HTTP chunking errors are handled as server errors."""
    entry = fetch(server.route("/robots.txt", chunked([chunks], raw_chunks=True, tail=b"")))
    assert_failure(entry, "protocol")


def test_well_formed_chunked_body_is_reassembled(fetch: Run, server: HTTPServer) -> None:
    """F2: the control case: valid chunks (with an extension and a trailer) make the body."""
    head = b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    body = b"e;ext=1\r\nUser-agent: *\n\r\n" + b"c\r\nDisallow: /\n\r\n" + b"0\r\nX-Trailer: y\r\n\r\n"
    entry = fetch(server.route("/robots.txt", raw(head + body)))
    assert (entry.outcome, entry.body) == ("rules", b"User-agent: *\nDisallow: /\n")


def test_corrupt_gzip_body_is_a_protocol_failure(fetch: Run, server: HTTPServer) -> None:
    """F8: a body that says gzip and is not: an invalid response."""
    bad = gzip_bytes(b"User-agent: *\nDisallow: /\n")[:10] + b"not deflate data at all" * 10
    entry = fetch(server.route("/robots.txt", respond(200, bad, {"Content-Encoding": "gzip"})))
    assert_failure(entry, "protocol")


@pytest.mark.parametrize("coding", ["br", "zstd", "compress", "rot13"])
def test_unrequested_content_encoding_is_a_protocol_failure(fetch: Run, server: HTTPServer, coding: str) -> None:
    """F8: a coding the fetcher did not offer (it offers gzip and deflate) cannot be read: an invalid response."""
    entry = fetch(server.route("/robots.txt", respond(200, b"\x0b\x02\x80garbage", {"Content-Encoding": coding})))
    assert_failure(entry, "protocol")


def test_failure_streak_backs_off_and_keeps_its_start(fetch: Run, server: HTTPServer, clock: FakeClock) -> None:
    """F5, F8: consecutive failures double the retry interval; failing_since keeps the first failure's time."""
    url = server.route("/robots.txt", reset())
    first = fetch(url)
    clock.advance(first.expires_at - NOW)
    second = fetch(url, first)
    assert (second.outcome, second.failures, second.failing_since) == ("error", 2, NOW)
    assert second.expires_at == clock.now + 2 * TEST_POLICY.retry_after_error
    assert server.hits() == 2


def test_failing_with_no_cached_copy_is_full_allow_after_30_days(fetch: Run, server: HTTPServer) -> None:
    """F5, F6: no good copy: full disallow while failing, full allow once unreachable for more than 30 days."""
    entry = fetch(server.route("/robots.txt", reset()))
    assert entry.outcome == "error"
    assert standing(entry, NOW + 29 * DAY, TEST_POLICY).kind == "disallow"
    late = standing(entry, NOW + 31 * DAY, TEST_POLICY)
    assert (late.kind, late.why.decides) == ("allow", "unreachable")
