"""The requests adapter that obeys robots.txt (issue #10, part 3), against a real server on 127.0.0.1.

Every test talks to :class:`tests.servers.http.HTTPServer` on loopback and counts what reached
it, so "refused" means the page was never requested. Fetches are bounded by
``Policy(fetch_timeout=5)`` and requests timeouts of 5 s. Adapters here are mostly mounted
without ``session=`` (robots.txt fetched through the adapter itself); robots.txt fetched through
the session, its proxy, auth, adapters and retries: test_requests_session_transport.py.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from typing import Any

import pytest
import requests

from robotrules import MemoryStore, RobotsClient, SQLiteStore
from robotrules.compat.requests import RobotsAdapter, RobotsDisallowedError, robots_session
from robotrules.errors import RobotsDisallowed, RobotsError
from robotrules.fetch import DEFAULT_USER_AGENT
from tests.compat._guard_site import POLICY, SRC, TIMEOUT, echo
from tests.servers.http import free_port, redirect, respond


def mounted(adapter: RobotsAdapter, headers: dict[str, str] | None = None) -> requests.Session:
    """A session with ``adapter`` mounted for http:// and https://."""
    session = requests.Session()
    session.headers.update(headers or {})
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


def guarded(headers: dict[str, str] | None = None, **kwargs: Any) -> requests.Session:
    """A session with a :class:`RobotsAdapter` (policy POLICY unless given a client)."""
    if "client" not in kwargs:
        kwargs.setdefault("policy", POLICY)
    return mounted(RobotsAdapter(**kwargs), headers)


def refused(session: requests.Session, url: str, **kwargs: Any) -> RobotsDisallowedError:
    with pytest.raises(RobotsDisallowedError) as info:
        session.get(url, timeout=TIMEOUT, **kwargs)
    return info.value


# -- allowed requests pass, untouched --------------------------------------------------------------

def test_an_allowed_request_is_sent_as_it_is_and_its_response_is_untouched(server):
    """Method, target, headers and body reach the server as the caller made them; the response comes back as sent."""
    server.route("/private/open/form", echo)
    with guarded(user_agent="FooBot/1.0") as session:
        response = session.post(server.url("/private/open/form?q=1"), data=b"payload", headers={"X-Mine": "kept"},
                                timeout=TIMEOUT)
    assert response.status_code == 200
    assert response.headers["X-Page"] == "yes" and response.content == b"echo: payload"
    sent = server.requests[-1]
    assert (sent.method, sent.target, sent.headers["x-mine"]) == ("POST", "/private/open/form?q=1", "kept")
    assert sent.headers["user-agent"].startswith("python-requests/")


def test_streaming_and_adapter_options_still_work(server):
    """``stream=True`` and HTTPAdapter's own options (``max_retries``) pass through to requests."""
    with guarded(user_agent="BarBot", max_retries=2) as session:
        assert session.get_adapter("http://x").max_retries.total == 2
        with session.get(server.url("/page"), stream=True, timeout=TIMEOUT) as response:
            assert b"".join(response.iter_content(3)) == b"a page\n"


# -- disallowed requests raise, and are never sent -------------------------------------------------

def test_a_disallowed_request_raises_naming_the_robots_url_and_the_deciding_line_and_is_never_sent(server):
    """The error says which robots.txt and which line as written; the page is never requested."""
    with guarded(user_agent="BarBot/2.0") as session:
        exc = refused(session, server.url("/private/x"))
    robots = server.url("/robots.txt")
    assert str(exc) == f"robots.txt at {robots} disallows {server.url('/private/x')} for BarBot (line 4: 'Disallow: /private')"
    assert (exc.url, exc.robots_url, exc.agent, exc.token, exc.line, exc.text) == (
        server.url("/private/x"), robots, "BarBot/2.0", "BarBot", 4, "Disallow: /private")
    assert server.hits("/private/x") == 0


def test_the_error_is_a_robotrules_error_and_a_requests_exception_carrying_the_request(server):
    """Existing ``except requests.RequestException`` clauses catch it; it is no connection error (not retried)."""
    with guarded(user_agent="BarBot") as session, pytest.raises(requests.RequestException) as info:
        session.get(server.url("/private/x"), timeout=TIMEOUT)
    exc = info.value
    assert isinstance(exc, RobotsDisallowed) and isinstance(exc, RobotsError)
    assert not isinstance(exc, requests.ConnectionError)
    assert exc.request is not None and exc.request.url == server.url("/private/x") and exc.response is None
    copy = pickle.loads(pickle.dumps(exc))
    assert type(copy) is RobotsDisallowedError and str(copy) == str(exc) and copy.line == 4


def test_wildcard_and_end_anchor_rules_decide(server):
    """R3-R5: "Disallow: /*.pdf$" refuses /a/b.pdf but not /a/b.pdf?x=1."""
    with guarded(user_agent="BarBot") as session:
        assert refused(session, server.url("/a/b.pdf")).line == 5
        assert session.get(server.url("/a/b.pdf?x=1"), timeout=TIMEOUT).status_code == 200


def test_a_redirect_to_a_disallowed_page_is_refused_at_that_hop(server):
    """requests sends each redirect hop through the adapter: the hop to /private is refused, never sent."""
    server.route("/go", redirect(302, "/private/target"))
    with guarded(user_agent="BarBot") as session:
        exc = refused(session, server.url("/go"))
    assert exc.url == server.url("/private/target")
    assert server.hits("/go") == 1 and server.hits("/private/target") == 0


# -- which agent ----------------------------------------------------------------------------------

@pytest.mark.parametrize("agent", ["FooBot", "FooBot/1.2", "Mozilla/5.0 (compatible; FooBot/2.1; +https://foo.example/bot)"])
def test_the_configured_agent_is_matched_on_its_product_token(server, agent):
    """G3, RFC 9309 2.2.1: a token, a versioned name and a whole header all select "User-agent: FooBot"."""
    with guarded(user_agent=agent) as session:
        exc = refused(session, server.url("/foo-only/x"))
        assert session.get(server.url("/private/x"), timeout=TIMEOUT).status_code == 200  # FooBot's group only (G2)
    assert (exc.token, exc.agent, exc.line) == ("FooBot", agent, 8)


def test_without_a_configured_agent_the_sessions_user_agent_header_is_matched(server):
    """No ``user_agent``: the request's User-Agent header decides (the session's, or one request's own)."""
    with guarded(headers={"User-Agent": "FooBot/3.0"}) as session:
        assert refused(session, server.url("/foo-only/x")).token == "FooBot"
        assert session.get(server.url("/private/x"), timeout=TIMEOUT).status_code == 200
        assert refused(session, server.url("/private/x"), headers={"User-Agent": "BarBot/1.0"}).token == "BarBot"
    with guarded() as session:  # requests' own header: python-requests/<version>, in the "*" group
        assert refused(session, server.url("/private/x")).token == "python-requests"


def test_robots_session_sends_and_matches_one_user_agent(server):
    """robots_session(agent): the pages and the robots.txt request say ``agent``, and robots.txt is matched for it."""
    with robots_session("FooBot/1.0 (+https://foo.example/bot)", policy=POLICY) as session:
        assert session.get(server.url("/private/x"), timeout=TIMEOUT).status_code == 200
        assert refused(session, server.url("/foo-only/x")).line == 8
    assert {r.headers["user-agent"] for r in server.requests} == {"FooBot/1.0 (+https://foo.example/bot)"}
    assert server.paths() == ["/robots.txt", "/private/x"]


def test_robots_txt_requests_say_robotrules_when_no_agent_is_configured(server):
    """Without ``user_agent`` the robots.txt fetch identifies as robotrules (the pages keep their own header)."""
    with guarded() as session:
        session.get(server.url("/page"), timeout=TIMEOUT)
    assert server.requests[0].headers["user-agent"] == DEFAULT_USER_AGENT


def test_bad_configuration_is_a_clear_error():
    """A blank or non-str agent, or client= with store=/policy=, fails at construction with a message."""
    with pytest.raises(ValueError, match="user_agent is blank"):
        RobotsAdapter(user_agent="")
    with pytest.raises(TypeError, match="user_agent must be a str"):
        robots_session(42)  # type: ignore[arg-type]
    with RobotsClient() as mine, pytest.raises(ValueError, match="either client= or store=/policy="):
        RobotsAdapter(client=mine, store=MemoryStore())


def test_pickling_the_adapter_is_a_clear_error():
    """An adapter holds a live robots client; pickling it says what to do instead of breaking later."""
    adapter = RobotsAdapter(user_agent="BarBot")
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(adapter)
    adapter.close()


# -- robots.txt states ----------------------------------------------------------------------------

def test_a_404_robots_txt_allows_everything(server):
    """F4: no robots.txt, no restriction."""
    server.route("/robots.txt", respond(404))
    with guarded(user_agent="BarBot") as session:
        assert session.get(server.url("/private/x"), timeout=TIMEOUT).status_code == 200


def test_a_503_robots_txt_disallows_everything_and_the_message_says_why(server):
    """F5: a server error means full disallow, with no deciding line; the message says it could not be read."""
    server.route("/robots.txt", respond(503))
    with guarded(user_agent="BarBot") as session:
        exc = refused(session, server.url("/public/page"))
    assert exc.line == 0
    assert str(exc).endswith("it could not be read, and until it can everything on the site is disallowed (503: server error)")
    assert server.hits("/public/page") == 0


def test_an_unreachable_robots_txt_disallows_everything():
    """F5, F8: connection refused is an answer (full disallow), not a crash."""
    with guarded(user_agent="BarBot") as session:
        exc = refused(session, f"http://127.0.0.1:{free_port()}/page")
    assert exc.line == 0 and "connect" in exc.reason


def test_redirects_of_robots_txt_are_followed_and_the_final_file_decides(server):
    """F3: /robots.txt redirects three times; the file at the end decides."""
    server.chain(302, 3, respond(200, b"User-agent: *\nDisallow: /moved\n"))
    with guarded(user_agent="BarBot") as session:
        exc = refused(session, server.url("/moved/x"))
        assert session.get(server.url("/private/x"), timeout=TIMEOUT).status_code == 200
    assert (exc.robots_url, exc.line, exc.text) == (server.url("/robots.txt"), 2, "Disallow: /moved")


# -- the cache, what passes unchecked, closing ----------------------------------------------------

def test_robots_txt_is_fetched_once_for_many_requests(server):
    """C1: one fetch, then the cached copy answers every request of the site."""
    with guarded(user_agent="BarBot") as session:
        for n in range(20):
            session.get(server.url(f"/page/{n}"), timeout=TIMEOUT)
            refused(session, server.url(f"/private/{n}"))
    assert server.hits("/robots.txt") == 1 and server.hits() == 21


def test_two_sessions_sharing_a_sqlite_store_fetch_robots_txt_once(server, tmp_path):
    """C3: a second session (another process alike) reads the copy the first one stored."""
    store = SQLiteStore(tmp_path / "robots.sqlite3")
    try:
        with robots_session("BarBot", store=store, policy=POLICY) as one:
            one.get(server.url("/page"), timeout=TIMEOUT)
        with robots_session("BarBot", store=store, policy=POLICY) as two:
            assert refused(two, server.url("/private/x")).line == 4
    finally:
        store.close()
    assert server.hits("/robots.txt") == 1


def test_a_request_for_robots_txt_itself_passes_even_when_it_disallows_everything(server):
    """S3: robots.txt is always fetchable; the adapter does not fetch it first on its own."""
    server.route("/robots.txt", respond(200, b"User-agent: *\nDisallow: /\n"))
    with guarded(user_agent="BarBot") as session:
        assert session.get(server.url("/robots.txt"), timeout=TIMEOUT).content == b"User-agent: *\nDisallow: /\n"
    assert server.hits("/robots.txt") == 1


def test_closing_the_session_closes_the_adapters_own_robots_client_but_not_one_passed_in(server):
    """``Session.close()`` closes each mounted adapter (twice for one adapter on two prefixes: harmless);
    the adapter closes the robots client it made, not one passed as ``client``."""
    adapter = RobotsAdapter(user_agent="BarBot", policy=POLICY)
    with mounted(adapter) as session:
        session.get(server.url("/page"), timeout=TIMEOUT)
    with pytest.raises(RuntimeError, match="closed"):  # its robots client is closed: no more fetches
        adapter.robots.check(server.url("/page", host="localhost"))
    with RobotsClient(policy=POLICY) as mine:
        with mounted(RobotsAdapter(client=mine, user_agent="BarBot")) as session:
            session.get(server.url("/page"), timeout=TIMEOUT)
        assert mine.allowed(server.url("/page", host="localhost"), "BarBot") is True  # fetches: still open
    assert server.hits("/robots.txt") == 3


# -- the optional dependencies --------------------------------------------------------------------

@pytest.mark.parametrize(("blocked", "message"), [
    ("requests", "requests is needed for this: pip install 'robotrules[requests]'"),
    ("httpx", "httpx is needed for this: pip install 'robotrules[requests]'"),
])
def test_without_requests_or_httpx_the_module_names_the_extra_to_install(blocked, message):
    """DESIGN 12: the requests extra brings requests and httpx (the rules the guards share, and robotrules' own
    HTTP client for ``public_addresses_only``, are httpx's)."""
    code = (
        f"import sys; sys.path.insert(0, sys.argv[1]); sys.modules[{blocked!r}] = None\n"
        "from robotrules.errors import MissingExtra\n"
        "try:\n"
        "    import robotrules.compat.requests\n"
        "except MissingExtra as exc:\n"
        "    print(exc)\n"
    )
    out = subprocess.run([sys.executable, "-c", code, SRC], check=False, capture_output=True, text=True, timeout=60,
                         env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == message
