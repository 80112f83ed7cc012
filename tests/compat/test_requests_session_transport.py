"""robots.txt fetched through the user's ``requests.Session`` (issue #22, item 1), against real servers on 127.0.0.1.

The site is :class:`tests.servers.http.HTTPServer` (the ``server`` fixture: the guard tests'
robots.txt, every other path a page). The proxy is a small threaded HTTP forward proxy written
here: it takes absolute-URI GETs, records each request line and its headers, and forwards the
request to the site. Sessions have ``trust_env = False`` (or a controlled environment), so no
proxy of the machine running the tests interferes. Every wait is bounded: the robots client's
``fetch_timeout`` (5 s, 1 s where a hang is the point), requests' timeouts, the proxy's upstream
timeout, and the servers stop within seconds.
"""

from __future__ import annotations

import base64
import datetime
import http.client
import http.server
import ipaddress
import itertools
import ssl
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from robotrules import Policy, RobotsClient
from robotrules.compat.requests import RobotsAdapter, RobotsDisallowedError, robots_session
from robotrules.errors import BlockedAddress
from tests.compat._guard_site import POLICY, RULES, TIMEOUT
from tests.servers.http import (
    Exchange,
    Handler,
    close_silently,
    free_port,
    gzip_bytes,
    hang,
    redirect,
    respond,
    stream,
)

# -- the recording forward proxy ------------------------------------------------------------------

_HOP_BY_HOP = {"connection", "proxy-connection", "proxy-authorization", "keep-alive", "te", "trailer",
               "transfer-encoding", "upgrade"}


@dataclass
class Seen:
    """One request as the proxy received it: the request line and the headers (lower-case names)."""

    line: str
    headers: dict[str, str]


class _Handler(http.server.BaseHTTPRequestHandler):
    """The test servers' handlers: one whole answer per connection, no log."""

    def answer(self, status: int, body: bytes, headers: Any = (), reason: str | None = None) -> None:
        self.send_response(status, reason)
        for name, value in headers:
            if name.lower() not in _HOP_BY_HOP | {"content-length"}:
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


class _ProxyHandler(_Handler):
    server: _ProxyServer

    def do_GET(self) -> None:
        self.server.seen.append(Seen(self.requestline, {k.lower(): v for k, v in self.headers.items()}))
        target = urlsplit(self.path)
        if target.scheme != "http" or not target.hostname:
            self.send_error(400, "a forward proxy takes absolute http:// URIs")
            return
        upstream = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=5)
        headers = {k: v for k, v in self.headers.items() if k.lower() not in _HOP_BY_HOP}
        try:
            upstream.request("GET", target.path + (f"?{target.query}" if target.query else ""), headers=headers)
            reply = upstream.getresponse()
            body = reply.read()  # the test sites send small bodies
            status, reason, answer = reply.status, reply.reason, reply.getheaders()
        except OSError as exc:
            self.send_error(502, f"upstream: {exc}")
            return
        finally:
            upstream.close()
        self.answer(status, body, answer, reason)


class _ProxyServer(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _ProxyHandler)
        self.seen: list[Seen] = []

    def url(self, userinfo: str = "") -> str:
        return f"http://{userinfo + '@' if userinfo else ''}127.0.0.1:{self.server_address[1]}"

    def lines(self) -> list[str]:
        return [s.line for s in self.seen]


@pytest.fixture
def proxy() -> Iterator[_ProxyServer]:
    """A recording HTTP forward proxy on 127.0.0.1."""
    server = _ProxyServer()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


# -- an HTTPS site that wants a client certificate ------------------------------------------------------

def _certificates(folder: Path) -> dict[str, str]:
    """A test CA, a server certificate for 127.0.0.1 and a client certificate, as PEM files in ``folder``."""
    pytest.importorskip("cryptography", reason="cryptography makes the test certificates")
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.timezone.utc)

    def name(common: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])

    def builder(subject: str, issuer: x509.Name, key: Any) -> x509.CertificateBuilder:
        return (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(issuer).public_key(key.public_key())
                .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
                .not_valid_after(now + datetime.timedelta(days=1))
                .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False))

    usage = {"digital_signature": True, "content_commitment": False, "key_encipherment": False,
             "data_encipherment": False, "key_agreement": False, "encipher_only": False, "decipher_only": False}
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (builder("robotrules test CA", name("robotrules test CA"), ca_key)
          .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
          .add_extension(x509.KeyUsage(key_cert_sign=True, crl_sign=True, **usage), critical=True)
          .sign(ca_key, hashes.SHA256()))
    files: dict[str, str] = {}

    def write(label: str, data: bytes) -> None:
        files[label] = str(folder / f"{label}.pem")
        Path(files[label]).write_bytes(data)

    write("ca", ca.public_bytes(serialization.Encoding.PEM))
    for label, purpose in (("server", ExtendedKeyUsageOID.SERVER_AUTH), ("client", ExtendedKeyUsageOID.CLIENT_AUTH)):
        key = ec.generate_private_key(ec.SECP256R1())
        leaf = (builder(f"robotrules test {label}", ca.subject, key)
                .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
                .add_extension(x509.KeyUsage(key_cert_sign=False, crl_sign=False, **usage), critical=True)
                .add_extension(x509.ExtendedKeyUsage([purpose]), critical=False)
                .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False))
        if label == "server":
            leaf = leaf.add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                                      critical=False)
        write(label, leaf.sign(ca_key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM))
        write(f"{label}-key", key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                serialization.NoEncryption()))
    return files


class _TLSHandler(_Handler):
    server: _TLSSite
    timeout = 5

    def setup(self) -> None:
        self.request.settimeout(5)
        self.request.do_handshake()  # here, in the connection's thread: a failed one ends only this connection
        super().setup()

    def do_GET(self) -> None:
        self.server.paths.append(self.path)
        self.answer(200, RULES if self.path == "/robots.txt" else b"a page\n")


class _TLSSite(http.server.ThreadingHTTPServer):
    """An HTTPS site on 127.0.0.1 that requires a client certificate signed by the test CA."""

    daemon_threads = True

    def __init__(self, files: dict[str, str]) -> None:
        super().__init__(("127.0.0.1", 0), _TLSHandler)
        self.context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        self.context.load_cert_chain(files["server"], files["server-key"])
        self.context.verify_mode = ssl.CERT_REQUIRED
        self.context.load_verify_locations(files["ca"])
        self.paths: list[str] = []

    def get_request(self) -> tuple[Any, Any]:
        sock, address = self.socket.accept()
        return self.context.wrap_socket(sock, server_side=True, do_handshake_on_connect=False), address

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a refused handshake is what some tests are about

    def url(self, path: str) -> str:
        return f"https://127.0.0.1:{self.server_address[1]}{path}"


@pytest.fixture
def tls_site(tmp_path: Path) -> Iterator[tuple[_TLSSite, dict[str, str]]]:
    """The HTTPS site and the PEM files (ca, client, client-key)."""
    files = _certificates(tmp_path)
    site = _TLSSite(files)
    thread = threading.Thread(target=site.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    thread.start()
    try:
        yield site, files
    finally:
        site.shutdown()
        site.server_close()
        thread.join(5)


# -- helpers -----------------------------------------------------------------------------------------

def bound(mounted_on: requests.Session, /, **kwargs: Any) -> RobotsAdapter:
    """A RobotsAdapter mounted on ``mounted_on`` for http:// and https://, bound to it unless ``session`` or
    ``client`` is given (policy POLICY unless given)."""
    if "client" not in kwargs:
        kwargs.setdefault("policy", POLICY)
        kwargs.setdefault("session", mounted_on)
    adapter = RobotsAdapter(**kwargs)
    mounted_on.mount("http://", adapter)
    mounted_on.mount("https://", adapter)
    return adapter


def plain_session(proxy_url: str | None = None) -> requests.Session:
    """A session that ignores the environment, with ``proxy_url`` (if any) for http://."""
    session = requests.Session()
    session.trust_env = False
    if proxy_url is not None:
        session.proxies = {"http": proxy_url}
    return session


def refused(session: requests.Session, url: str, **kwargs: Any) -> RobotsDisallowedError:
    with pytest.raises(RobotsDisallowedError) as info:
        session.get(url, timeout=TIMEOUT, **kwargs)
    return info.value


def basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def flaky(failures: int, failing: Handler, then: Handler) -> Handler:
    """``failing`` for the first ``failures`` requests, then ``then``."""
    calls = itertools.count()

    def handler(exchange: Exchange) -> None:
        (failing if next(calls) < failures else then)(exchange)

    return handler


class Recorder(HTTPAdapter):
    """A plain HTTPAdapter that records the settings of each request it sends."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.sent: list[dict[str, Any]] = []

    def send(self, request: requests.PreparedRequest, stream: bool = False, timeout: Any = None, verify: Any = True,
             cert: Any = None, proxies: Any = None) -> requests.Response:
        self.sent.append({"url": request.url, "stream": stream, "timeout": timeout, "verify": verify, "cert": cert,
                          "proxies": proxies, "headers": dict(request.headers)})
        return super().send(request, stream=stream, timeout=timeout, verify=verify, cert=cert, proxies=proxies)


# -- the session's proxy, auth and headers ------------------------------------------------------------

def test_robots_txt_goes_through_the_sessions_proxy_with_its_auth_and_headers(server, proxy):
    """F1, issue #22: the robots.txt GET is sent as the session sends a page: through its proxy (with the
    proxy's credentials), with its auth and headers; the User-Agent is the crawler's; the URL is exactly
    /robots.txt (the session's params are not added, S1). The refused page never reaches the proxy."""
    session = plain_session(proxy.url("scout:tiger"))
    session.auth = ("user", "pw")
    session.headers["X-Team"] = "crawl"
    session.params = {"key": "k1"}
    with session:
        bound(session, user_agent="FooBot/1.0")
        assert session.get(server.url("/page"), timeout=TIMEOUT).status_code == 200
        assert refused(session, server.url("/foo-only/x")).line == 8
    assert proxy.lines() == [f"GET {server.url('/robots.txt')} HTTP/1.1", f"GET {server.url('/page')}?key=k1 HTTP/1.1"]
    robots = proxy.seen[0].headers
    assert robots["proxy-authorization"] == basic("scout", "tiger")
    assert robots["authorization"] == basic("user", "pw")
    assert (robots["x-team"], robots["user-agent"], robots["accept-encoding"]) == ("crawl", "FooBot/1.0", "gzip, deflate")
    assert server.paths() == ["/robots.txt", "/page?key=k1"]  # the site got both from the proxy, nothing else


def test_robots_session_fetches_robots_txt_through_the_proxy_set_on_it_later(server, proxy):
    """F1: robots_session() binds its adapter to the session it returns; settings made on the session
    afterwards (proxies) apply to robots.txt, which says the crawler's name."""
    with robots_session("FooBot/1.0", policy=POLICY) as session:
        session.trust_env = False
        session.proxies = {"http": proxy.url()}
        assert session.get(server.url("/page"), timeout=TIMEOUT).status_code == 200
        assert refused(session, server.url("/foo-only/x")).line == 8
        assert session.get_adapter("http://x").session is session
    assert proxy.lines() == [f"GET {server.url('/robots.txt')} HTTP/1.1", f"GET {server.url('/page')} HTTP/1.1"]
    assert proxy.seen[0].headers["user-agent"] == "FooBot/1.0"


@pytest.mark.parametrize("trust_env", [True, False])
def test_environment_proxies_apply_to_robots_txt_exactly_when_the_session_trusts_the_environment(
        server, proxy, monkeypatch, trust_env):
    """F1: with ``trust_env`` the robots.txt request takes the environment's proxy, as the page does;
    without it, neither does."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    monkeypatch.setenv("http_proxy", proxy.url())
    with robots_session("FooBot/1.0", policy=POLICY) as session:
        session.trust_env = trust_env
        assert session.get(server.url("/page"), timeout=TIMEOUT).status_code == 200
    expected = [f"GET {server.url('/robots.txt')} HTTP/1.1", f"GET {server.url('/page')} HTTP/1.1"]
    assert proxy.lines() == (expected if trust_env else [])
    assert server.paths() == ["/robots.txt", "/page"]


def test_the_adapter_mounted_for_robots_txt_sends_it_with_the_sessions_verify_cert_and_proxies(server, proxy, tmp_path):
    """F1: robots.txt goes to the adapter the session has mounted for its URL (the most specific prefix),
    with the session's ``verify``, ``cert`` and ``proxies``, streamed, and with a timeout within the
    fetch deadline; the pages go on through the RobotsAdapter."""
    ca, cert, key = (tmp_path / name for name in ("ca.pem", "client.pem", "client.key"))
    for path in (ca, cert, key):
        path.write_text("not used over http\n")
    session = plain_session(proxy.url())
    session.verify = str(ca)
    session.cert = (str(cert), str(key))
    recorder = Recorder()
    with session:
        bound(session, user_agent="FooBot/1.0")
        session.mount(server.url("/robots.txt"), recorder)
        assert session.get(server.url("/page"), timeout=TIMEOUT).status_code == 200
        assert refused(session, server.url("/foo-only/x")).line == 8
    [sent] = recorder.sent
    assert (sent["url"], sent["verify"], sent["cert"], sent["stream"]) == (server.url("/robots.txt"), str(ca),
                                                                          (str(cert), str(key)), True)
    assert sent["proxies"]["http"] == proxy.url()
    connect, read = sent["timeout"]
    assert 0 < connect <= POLICY.fetch_timeout and 0 < read <= POLICY.fetch_timeout
    assert proxy.lines() == [f"GET {server.url('/robots.txt')} HTTP/1.1", f"GET {server.url('/page')} HTTP/1.1"]


def test_robots_txt_over_https_is_verified_with_the_sessions_ca_bundle_and_sends_its_client_certificate(tls_site):
    """F1: ``session.verify`` (a private CA) verifies the site's certificate and ``session.cert`` answers its
    demand for a client certificate, for robots.txt as for the page: without either, no TLS session
    could be made, and the rules would not decide."""
    site, files = tls_site
    with plain_session() as session:
        session.verify = files["ca"]
        session.cert = (files["client"], files["client-key"])
        bound(session, user_agent="BarBot")
        assert refused(session, site.url("/private/x")).line == 4
        assert session.get(site.url("/page"), timeout=TIMEOUT).status_code == 200
    assert site.paths == ["/robots.txt", "/page"]


def test_a_certificate_the_session_does_not_trust_is_a_tls_failure_and_a_full_disallow(tls_site):
    """F5, F8: with requests' default CA bundle the private CA is unknown: robots.txt cannot be fetched (a
    TLS error), so everything is disallowed and nothing reaches the site."""
    site, files = tls_site
    with plain_session() as session:
        session.cert = (files["client"], files["client-key"])
        bound(session, user_agent="BarBot")
        exc = refused(session, site.url("/page"))
    assert exc.line == 0 and "tls error" in exc.reason
    assert site.paths == []


@pytest.mark.parametrize(("failing", "retries"), [
    (close_silently(), 2),
    (respond(503), Retry(total=2, status_forcelist=[503], backoff_factor=0)),
], ids=["connection-closed", "503-in-status-forcelist"])
def test_the_mounted_adapters_retries_apply_to_robots_txt(server, failing, retries):
    """F5, F8: the adapter's ``max_retries`` retry a robots.txt request as they retry a page: the first
    answer fails, the retry gets the file, and its rules decide."""
    server.route("/robots.txt", flaky(1, failing, respond(200, RULES)))
    with plain_session() as session:
        bound(session, user_agent="BarBot", max_retries=retries)
        assert refused(session, server.url("/private/x")).line == 4
    assert server.hits("/robots.txt") == 2


def test_without_retries_a_closed_connection_is_a_reset_and_a_full_disallow(server):
    """F5, F8: with requests' default (no retries) the same closed connection is a failure: full disallow."""
    server.route("/robots.txt", flaky(1, close_silently(), respond(200, RULES)))
    with plain_session() as session:
        bound(session, user_agent="BarBot")
        exc = refused(session, server.url("/public/page"))
    assert exc.line == 0 and "reset error" in exc.reason
    assert server.hits("/robots.txt") == 1 and server.hits("/public/page") == 0


# -- redirects, status codes, failures -----------------------------------------------------------------

def test_a_redirect_chain_for_robots_txt_is_followed_by_the_policy_hop_by_hop_through_the_session(server, proxy):
    """F3: requests does not follow the redirects; the policy does, each hop a request of its own through
    the proxy, and the file at the end decides."""
    server.chain(302, 3, respond(200, b"User-agent: *\nDisallow: /moved\n"))
    with plain_session(proxy.url()) as session:
        bound(session, user_agent="BarBot")
        exc = refused(session, server.url("/moved/x"))
        assert session.get(server.url("/private/x"), timeout=TIMEOUT).status_code == 200
    assert (exc.robots_url, exc.line, exc.text) == (server.url("/robots.txt"), 2, "Disallow: /moved")
    hops = ["/robots.txt", "/hop/2", "/hop/1", "/hop/0"]
    assert proxy.lines() == [f"GET {server.url(p)} HTTP/1.1" for p in [*hops, "/private/x"]]


def test_past_five_redirects_the_policy_stops_where_requests_would_go_on(server):
    """F3, F4: six redirects: the policy requests robots.txt and five hops, then treats it as a 404 (full
    allow); the file at the end of the chain is never requested (requests alone would follow 30)."""
    server.chain(301, 6, respond(200, b"User-agent: *\nDisallow: /final\n"))
    with plain_session() as session:
        adapter = bound(session, user_agent="BarBot")
        assert session.get(server.url("/final/x"), timeout=TIMEOUT).status_code == 200
        assert "more than 5 redirects" in adapter.robots.check(server.url("/final/x")).state.reason
    assert server.paths() == ["/robots.txt", "/hop/5", "/hop/4", "/hop/3", "/hop/2", "/hop/1", "/final/x"]


def test_the_robots_clients_own_requests_pass_the_adapter_unchecked(server):
    """S3: a redirect hop of robots.txt into a path its rules disallow is fetched all the same (and
    checking it would ask for the very robots.txt being fetched)."""
    server.route("/robots.txt", redirect(302, "/private/rules.txt"))
    server.route("/private/rules.txt", respond(200, RULES))
    with plain_session() as session:
        bound(session, user_agent="BarBot")
        assert refused(session, server.url("/private/x")).line == 4
    assert server.paths() == ["/robots.txt", "/private/rules.txt"]


def test_a_redirect_to_a_scheme_the_session_has_no_adapter_for_leads_nowhere(server):
    """F3, S5: robots.txt redirected to ftp:// on a session with no ftp adapter: the hop cannot be sent
    through the session, so it is a redirect that cannot be followed (a 404, full allow), not a
    connection made around the session's proxy."""
    server.route("/robots.txt", redirect(301, f"ftp://127.0.0.1:{free_port()}/robots.txt"))
    with plain_session() as session:
        adapter = bound(session, user_agent="BarBot")
        assert session.get(server.url("/private/x"), timeout=TIMEOUT).status_code == 200
        assert "No connection adapters" in adapter.robots.check(server.url("/private/x")).state.reason


def test_a_redirect_to_another_host_does_not_carry_the_sessions_auth(server):
    """F3: as requests does on a redirect, the session's credentials stay with the host they were given
    for: the hop to another host is sent without them."""
    server.route("/robots.txt", redirect(301, server.url("/elsewhere/robots.txt", host="localhost")))
    server.route("/elsewhere/robots.txt", respond(200, RULES))
    with plain_session() as session:
        session.auth = ("user", "pw")
        bound(session, user_agent="BarBot")
        assert refused(session, server.url("/private/x")).line == 4
    first, hop = server.requests[:2]
    assert (first.path, hop.path) == ("/robots.txt", "/elsewhere/robots.txt")
    assert first.headers["authorization"] == basic("user", "pw") and "authorization" not in hop.headers


def test_a_5xx_robots_txt_through_the_proxy_disallows_everything(server, proxy):
    """F5: a 503 that came through the proxy is a server error: full disallow, no deciding line."""
    server.route("/robots.txt", respond(503))
    with plain_session(proxy.url()) as session:
        bound(session, user_agent="BarBot")
        exc = refused(session, server.url("/public/page"))
    assert exc.line == 0 and "503" in exc.reason
    assert proxy.lines() == [f"GET {server.url('/robots.txt')} HTTP/1.1"]


@pytest.mark.parametrize(("status", "allowed"), [(404, True), (503, False)])
def test_a_raise_for_status_hook_on_the_session_does_not_hide_the_robots_txt_status(server, status, allowed):
    """F4, F5: the session's response hooks run for robots.txt too; one that raises for 4xx/5xx does not
    hide the status: a 404 is still a full allow, a 503 still a full disallow."""
    server.route("/robots.txt", respond(status))
    with plain_session() as session:
        session.hooks["response"].append(lambda response, *args, **kwargs: response.raise_for_status())
        bound(session, user_agent="BarBot")
        if allowed:
            assert session.get(server.url("/private/x"), timeout=TIMEOUT).status_code == 200
        else:
            exc = refused(session, server.url("/public/page"))
            assert exc.line == 0 and f"{status}: server error" in exc.reason


@pytest.mark.parametrize("through_proxy", [False, True], ids=["site-refuses", "proxy-refuses"])
def test_a_refused_connection_is_a_connect_failure_and_a_full_disallow(server, through_proxy):
    """F5, F8: nothing listening (at the site, or at the session's proxy) is a connect error: full disallow."""
    closed = f"http://127.0.0.1:{free_port()}"
    with plain_session(closed if through_proxy else None) as session:
        bound(session, user_agent="BarBot")
        exc = refused(session, server.url("/page") if through_proxy else f"{closed}/page")
    assert exc.line == 0 and "connect error" in exc.reason and "refused" in exc.reason.lower()
    assert server.hits() == 0


def test_a_hung_robots_txt_is_a_timeout_within_the_fetch_deadline(server):
    """F8: an answer that never comes is a timeout once ``policy.fetch_timeout`` has passed: full disallow."""
    server.route("/robots.txt", hang())
    with plain_session() as session:
        bound(session, user_agent="BarBot", policy=Policy(fetch_timeout=1.0))
        exc = refused(session, server.url("/page"))  # the handler never answers: only the deadline ends this
    assert exc.line == 0 and "timeout error" in exc.reason


def test_the_body_is_read_up_to_the_size_limit_and_an_endless_one_ends_there(server):
    """F9: the body is streamed and reading stops at the size limit: a rule past it does not count, and
    an endless body is cut there rather than read until the deadline."""
    block = b"User-agent: *\nDisallow: /a\n" + b"#" * 100 + b"\nDisallow: /b\n"
    server.route("/robots.txt", stream(None, block=block))
    with plain_session() as session:
        bound(session, user_agent="BarBot", policy=Policy(fetch_timeout=5.0, size_limit=64))
        # read to the deadline instead, the endless body would be a timeout: a full disallow, line 0
        assert refused(session, server.url("/a/x")).line == 2
        assert session.get(server.url("/b/x"), timeout=TIMEOUT).status_code == 200


def test_a_gzip_robots_txt_is_decoded(server):
    """F2, P1: a gzip-encoded answer (asked for with Accept-Encoding: gzip, deflate) is decoded before parsing."""
    server.route("/robots.txt", respond(200, gzip_bytes(RULES), {"Content-Encoding": "gzip"}))
    with plain_session() as session:
        bound(session, user_agent="BarBot")
        assert refused(session, server.url("/private/x")).line == 4
    assert server.requests[0].headers["accept-encoding"] == "gzip, deflate"


# -- the other shapes: no session, a client of one's own, the address policy --------------------------

def test_an_adapter_without_a_session_fetches_through_itself_with_the_requests_proxies(server, proxy):
    """F1: mounted without ``session=``, the adapter fetches robots.txt itself with the proxies requests
    resolved for the request being checked; the session's auth and headers are not sent then (requests
    does not tell an adapter its session)."""
    session = plain_session(proxy.url())
    session.auth = ("user", "pw")
    session.headers["X-Team"] = "crawl"
    with session:
        adapter = bound(session, user_agent="FooBot/1.0", session=None)
        assert adapter.session is None
        assert session.get(server.url("/page"), timeout=TIMEOUT).status_code == 200
    assert proxy.lines() == [f"GET {server.url('/robots.txt')} HTTP/1.1", f"GET {server.url('/page')} HTTP/1.1"]
    robots = proxy.seen[0].headers
    assert robots["user-agent"] == "FooBot/1.0" and "authorization" not in robots and "x-team" not in robots


def test_a_client_passed_in_fetches_robots_txt_as_it_is_configured(server, proxy):
    """A ``client=`` of one's own is used as given: it fetches robots.txt with its own HTTP client (here
    directly), while the pages go through the session's proxy."""
    with RobotsClient(policy=POLICY) as mine, plain_session(proxy.url()) as session:
        adapter = bound(session, client=mine, user_agent="BarBot")
        assert adapter.session is None and adapter.robots is mine
        assert session.get(server.url("/page"), timeout=TIMEOUT).status_code == 200
    assert proxy.lines() == [f"GET {server.url('/page')} HTTP/1.1"]
    assert server.paths() == ["/robots.txt", "/page"]


def test_with_public_addresses_only_nothing_goes_through_the_session_to_a_loopback_site(server, proxy):
    """The address policy cannot check a session's connections, so robots.txt is fetched by robotrules'
    own HTTP client; a site on a loopback address is refused before anything is sent, proxy or not."""
    with plain_session(proxy.url()) as session:
        bound(session, user_agent="BarBot", policy=Policy(public_addresses_only=True, fetch_timeout=5.0))
        with pytest.raises(BlockedAddress):
            session.get(server.url("/page"), timeout=TIMEOUT)
    assert proxy.lines() == [] and server.hits() == 0


def test_bad_session_arguments_are_clear_errors():
    """``session=`` must be a requests.Session, and is not combined with ``client=`` (which fetches as it is)."""
    with pytest.raises(TypeError, match=r"session must be a requests\.Session"):
        RobotsAdapter(session="https://example.com")  # type: ignore[arg-type]
    with RobotsClient() as mine, requests.Session() as session, pytest.raises(ValueError, match=r"client=.*or session="):
        RobotsAdapter(client=mine, session=session)
    with RobotsClient() as mine, robots_session("BarBot", client=mine) as session:
        assert session.get_adapter("https://x").session is None  # robots_session(client=...) keeps the client


def test_a_closed_adapter_fetches_no_more(server):
    """Closing the session closes the adapter's own robots client: a later check needing a fetch is an error."""
    with plain_session() as session:
        adapter = bound(session, user_agent="BarBot")
        session.get(server.url("/page"), timeout=TIMEOUT)
    with pytest.raises(RuntimeError, match="closed"):
        adapter.robots.check(server.url("/page", host="localhost"))
    assert server.hits("/robots.txt") == 1
