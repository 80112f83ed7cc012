"""ftp:// robots.txt over a real FTP server with anonymous login (S5, F4, F5, F8, F9).

Google-specific (S5): FTP replies are mapped onto HTTP classes: the file received is a 200, a
permanent refusal (5yz) a 404, a transient one (4yz) a 503, connection trouble a failure.
"""

from __future__ import annotations

import pytest

from robotrules.core.policy import standing
from tests.servers.ftp import FTPServer
from tests.servers.http import free_port

from .conftest import DAY, NOW, TEST_POLICY, Run

pytestmark = pytest.mark.google_only

ROBOTS = b"User-agent: *\r\nDisallow: /pub/private/\r\n"


def test_ftp_robots_txt_present_gives_rules(fetch: Run, ftp_server: FTPServer) -> None:
    """S5, F2: an ftp:// robots.txt is fetched with anonymous FTP; its bytes (CRLF kept, binary mode) are the body."""
    url = ftp_server.put("robots.txt", ROBOTS)
    entry = fetch(url, user_agent="TestBot/1.0")
    assert (entry.outcome, entry.status, entry.body, entry.final_url) == ("rules", 200, ROBOTS, url)
    assert (entry.expires_at, entry.good_at) == (NOW + DAY, NOW)
    assert standing(entry, NOW, TEST_POLICY)[:2] == ("rules", ROBOTS)
    assert ftp_server.passwords == ["TestBot/1.0"]  # the anonymous password is the crawler's identity
    assert ftp_server.retrievals() == 1


def test_ftp_robots_txt_missing_is_full_allow(fetch: Run, ftp_server: FTPServer) -> None:
    """S5, F4: no robots.txt on the FTP server (550) is a 404: full allow."""
    entry = fetch(ftp_server.url("/robots.txt"))
    assert (entry.outcome, entry.status, entry.body) == ("allow", 404, b"")
    assert standing(entry, NOW, TEST_POLICY).kind == "allow"


def test_ftp_server_not_running_is_an_error(fetch: Run) -> None:
    """S5, F8: nothing listening on the FTP port: a failed request, full disallow."""
    entry = fetch(f"ftp://127.0.0.1:{free_port()}/robots.txt")
    assert (entry.outcome, entry.status, entry.failures) == ("error", 0, 1)
    assert (entry.why.code, entry.why.failure) == ("network", "connect"), entry.reason
    assert entry.expires_at == NOW + TEST_POLICY.retry_after_error
    assert standing(entry, NOW, TEST_POLICY).kind == "disallow"


def test_ftp_file_over_the_limit_is_cut(fetch: Run, ftp_server: FTPServer) -> None:
    """S5, F9: only the first 512,000 bytes of an ftp:// robots.txt count."""
    data = b"".join(b"Disallow: /pub/%07d\n" % i for i in range(60_000))
    assert len(data) > 512_000
    entry = fetch(ftp_server.put("robots.txt", data))
    assert (entry.outcome, entry.body) == ("rules", data[:512_000])


def test_ftp_empty_robots_txt_is_empty_rules(fetch: Run, ftp_server: FTPServer) -> None:
    """S5, F2: an empty file is a robots.txt with no rules (not a missing one)."""
    entry = fetch(ftp_server.put("robots.txt", b""))
    assert (entry.outcome, entry.status, entry.body) == ("rules", 200, b"")


def test_ftp_transient_refusal_is_a_503(fetch: Run, ftp_server: FTPServer) -> None:
    """S5, F5: a 4yz reply (transient: "try later") maps to 503: an error retried soon."""
    ftp_server.put("robots.txt", ROBOTS)
    ftp_server.retr_reply = "450 Busy, try later"
    entry = fetch(ftp_server.url())
    assert (entry.outcome, entry.status) == ("error", 503)
    assert entry.expires_at == NOW + TEST_POLICY.retry_after_503


def test_ftp_permanent_refusal_is_a_404(fetch: Run, ftp_server: FTPServer) -> None:
    """S5, F4: a 5yz reply (permanent: access denied) maps to 404: no robots.txt can be read, full allow."""
    ftp_server.put("robots.txt", ROBOTS)
    ftp_server.retr_reply = "553 Access denied"
    entry = fetch(ftp_server.url())
    assert (entry.outcome, entry.status) == ("allow", 404)


def test_ftp_failed_refresh_keeps_the_good_copy(fetch: Run, ftp_server: FTPServer) -> None:
    """S5, C2: a transient FTP refusal on refresh keeps the cached ftp:// rules deciding."""
    url = ftp_server.put("robots.txt", ROBOTS)
    good = fetch(url)
    ftp_server.retr_reply = "421 Service not available"
    failed = fetch(url, good, force=True)
    assert (failed.outcome, failed.status, failed.body, failed.failures) == ("error", 503, ROBOTS, 1)
    assert standing(failed, NOW, TEST_POLICY).kind == "rules"


def test_ftp_server_that_never_greets_times_out(fetch: Run) -> None:
    """S5, F8: a server that accepts the connection and never sends its greeting: a timeout at the deadline."""
    from robotrules.core.policy import Policy
    from tests.servers.http import HTTPServer

    with HTTPServer() as silent:  # waits for an HTTP request that an FTP client never sends
        entry = fetch(f"ftp://127.0.0.1:{silent.port}/robots.txt", policy=Policy(fetch_timeout=0.6))
    assert (entry.outcome, entry.status) == ("error", 0)
    assert (entry.why.code, entry.why.failure) == ("network", "timeout"), entry.reason
