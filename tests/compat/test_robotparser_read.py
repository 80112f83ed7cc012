"""``RobotFileParser.read()`` applies Google's fetch and cache policy, against a real server on 127.0.0.1.

Statuses (F2-F5), redirects (F3), outages (F5, F6, F8), the good copy kept through failures
(C2), caching and sharing (C1, C3), the request's User-Agent, and bad URLs. Each test counts the
requests that reached the server; time moves on a hand-moved clock (DESIGN 3), never by sleeping.
Every fetch is bounded by ``Policy(fetch_timeout=5)``.
"""

from __future__ import annotations

import urllib.robotparser
from collections.abc import Iterator

import pytest

from robotrules import BlockedAddress, InvalidURL, MemoryStore, Policy, RobotsClient, UnsupportedScheme
from robotrules.compat import RobotFileParser
from tests.servers.clock import FakeClock
from tests.servers.http import HTTPServer, free_port, respond

T0 = 1_700_000_000.0
DAY = 86_400.0
POLICY = Policy(fetch_timeout=5.0)
RULES = b"User-agent: *\nDisallow: /private\nAllow: /private/open\n\nUser-agent: FooBot\nDisallow: /\n"


@pytest.fixture
def server() -> Iterator[HTTPServer]:
    with HTTPServer() as srv:
        yield srv


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(T0)


def reader(url: str, clock: FakeClock, **kwargs: object) -> RobotFileParser:
    return RobotFileParser(url, policy=POLICY, clock=clock, **kwargs)  # type: ignore[arg-type]


def flags(rp: RobotFileParser) -> tuple[bool, bool]:
    """``(allow_all, disallow_all)``: what a status decided, if anything (both False: the rules decide)."""
    return rp.allow_all, rp.disallow_all


def test_f2_read_200_lets_the_rules_decide_and_mtime_is_the_fetch_time(server: HTTPServer, clock: FakeClock) -> None:
    """F2: a 200 body decides; mtime() is when that copy was fetched (the parser's clock)."""
    url = server.route("/robots.txt", respond(200, RULES))
    rp = reader(url, clock)
    rp.read()
    assert not rp.allow_all and not rp.disallow_all
    assert rp.mtime() == T0
    assert rp.can_fetch("*", server.url("/private/x")) is False
    assert rp.can_fetch("*", server.url("/private/open/x")) is True  # R6: the longer allow wins
    assert rp.can_fetch("FooBot", "/public") is False
    assert rp.state is not None and rp.state.status == 200 and rp.state.cache == "miss"


def test_f3_read_follows_a_chain_of_redirects(server: HTTPServer, clock: FakeClock) -> None:
    """F3: five redirect hops are followed; the rules at the end decide."""
    start = server.chain(301, 5, respond(200, b"User-agent: *\nDisallow: /moved\n"))
    rp = reader(start, clock)
    rp.read()
    assert rp.can_fetch("bot", "/moved/page") is False and rp.can_fetch("bot", "/other") is True
    assert rp.state is not None and rp.state.entry.redirects == 5


def test_f3_more_than_five_redirects_is_as_a_404(server: HTTPServer, clock: FakeClock) -> None:
    """F3: a sixth hop is not followed: as if there were no robots.txt, everything allowed."""
    start = server.chain(302, 6, respond(200, b"User-agent: *\nDisallow: /\n"))
    rp = reader(start, clock)
    rp.read()
    assert rp.allow_all and rp.can_fetch("bot", "/anything") is True


def test_f4_read_404_allows_all_and_mtime_stays_zero(server: HTTPServer, clock: FakeClock) -> None:
    """F4: no robots.txt, full allow; mtime() is 0, as the standard library has it after a 404."""
    rp = reader(server.url("/robots.txt"), clock)
    rp.read()
    assert rp.allow_all and not rp.disallow_all
    assert rp.mtime() == 0
    assert rp.can_fetch("bot", "/x") is True
    assert rp.crawl_delay("bot") is None and rp.request_rate("bot") is None and rp.site_maps() is None


@pytest.mark.parametrize("status", [401, 403])
def test_f4_read_401_or_403_allows_all_where_the_standard_library_disallows(server: HTTPServer, clock: FakeClock,
                                                                           status: int) -> None:
    """F4: 401 and 403 are 4xx like any other: no robots.txt, full allow. The standard library,
    against the same server, disallows everything (a documented difference)."""
    url = server.route("/robots.txt", respond(status, b"go away\n"))
    rp = reader(url, clock)
    rp.read()
    assert rp.allow_all and rp.can_fetch("bot", "/x") is True
    standard = urllib.robotparser.RobotFileParser(url)
    standard.read()
    assert getattr(standard, "disallow_all") is True and standard.can_fetch("bot", "/x") is False  # noqa: B009  (not in typeshed)


def test_f5_read_503_disallows_all_without_raising(server: HTTPServer, clock: FakeClock) -> None:
    """F5: a server error is a full disallow, not an exception; the state says why."""
    url = server.route("/robots.txt", respond(503, b"busy\n"))
    rp = reader(url, clock)
    rp.read()
    assert rp.disallow_all and not rp.allow_all
    assert rp.can_fetch("bot", "/") is False and rp.mtime() == 0
    assert rp.state is not None and rp.state.status == 503
    assert "disallowed" in rp.explain("bot", "/") and "503" in rp.explain("bot", "/")


def test_f5_a_later_read_recovers_once_the_back_off_is_over(server: HTTPServer, clock: FakeClock) -> None:
    """F5: after a 503 the next request waits for the back-off (a read() meanwhile asks no one);
    once it is over, read() fetches again and the recovered file decides."""
    url = server.route("/robots.txt", respond(503))
    rp = reader(url, clock)
    rp.read()
    server.route("/robots.txt", respond(200, RULES))
    rp.read()
    assert server.hits("/robots.txt") == 1 and flags(rp) == (False, True)  # within the back-off: no request
    clock.advance(POLICY.retry_after_503 + 1)
    rp.read()
    assert server.hits("/robots.txt") == 2
    assert flags(rp) == (False, False) and rp.can_fetch("bot", "/public") is True and rp.can_fetch("bot", "/private") is False


def test_read_force_fetches_now_whatever_the_cache_holds(server: HTTPServer, clock: FakeClock) -> None:
    """read(force=True) asks the server at once, back-off or fresh copy notwithstanding."""
    url = server.route("/robots.txt", respond(503))
    rp = reader(url, clock)
    rp.read()
    server.route("/robots.txt", respond(200, RULES))
    rp.read(force=True)
    assert server.hits("/robots.txt") == 2 and rp.can_fetch("bot", "/public") is True


def test_c1_read_uses_the_cached_copy_while_it_is_fresh(server: HTTPServer, clock: FakeClock) -> None:
    """C1: within 24 hours a read() uses the copy it has; after, it fetches again."""
    url = server.route("/robots.txt", respond(200, RULES))
    rp = reader(url, clock)
    rp.read()
    clock.advance(DAY - 1)
    rp.read()
    assert server.hits("/robots.txt") == 1 and rp.mtime() == T0
    clock.advance(2)
    rp.read()
    assert server.hits("/robots.txt") == 2 and rp.mtime() == T0 + DAY + 1


def test_c2_a_good_copy_keeps_deciding_through_a_failed_refresh(server: HTTPServer, clock: FakeClock) -> None:
    """C2: a 503 on refresh keeps the last good copy; mtime() stays the time of that copy."""
    url = server.route("/robots.txt", respond(200, RULES))
    rp = reader(url, clock)
    rp.read()
    server.route("/robots.txt", respond(503))
    clock.advance(DAY + 1)
    rp.read()
    assert server.hits("/robots.txt") == 2
    assert not rp.disallow_all and rp.can_fetch("bot", "/private") is False and rp.can_fetch("bot", "/public") is True
    assert rp.mtime() == T0
    assert rp.state is not None and rp.state.failures == 1


def test_f6_unreachable_for_over_30_days_without_a_copy_allows_all(server: HTTPServer, clock: FakeClock) -> None:
    """F6: a robots.txt failing for more than 30 days, with nothing cached, no longer disallows."""
    url = server.route("/robots.txt", respond(503))
    rp = reader(url, clock)
    rp.read()
    assert flags(rp) == (False, True)
    clock.advance(31 * DAY)
    rp.read()
    assert flags(rp) == (True, False) and rp.can_fetch("bot", "/x") is True


def test_f8_a_network_failure_disallows_all_without_raising(clock: FakeClock) -> None:
    """F8: nothing listening is a failure like a 5xx: full disallow, no exception, status 0."""
    rp = reader(f"http://127.0.0.1:{free_port()}/robots.txt", clock)
    rp.read()
    assert rp.disallow_all and rp.can_fetch("bot", "/") is False
    assert rp.state is not None and rp.state.status == 0


def test_read_sends_the_configured_user_agent_header(server: HTTPServer, clock: FakeClock) -> None:
    """``user_agent`` is the User-Agent of the robots.txt request, sent as given."""
    header = "Mozilla/5.0 (compatible; FooBot/1.2; +http://foo.example/bot)"
    url = server.route("/robots.txt", respond(200, RULES))
    rp = reader(url, clock, user_agent=header)
    rp.read()
    assert server.requests[-1].headers["user-agent"] == header
    assert rp.can_fetch(header, "/public") is False  # G3: the header's token, FooBot, has its group


@pytest.mark.parametrize("agent", ["FooBot", "foobot", "FooBot/1.2", "Mozilla/5.0 (compatible; FooBot/1.2; +http://foo.example/bot)"])
def test_g3_can_fetch_after_read_matches_a_token_versioned_name_or_header(server: HTTPServer, clock: FakeClock,
                                                                          agent: str) -> None:
    """G3: however the agent is passed, its product token selects the FooBot group."""
    url = server.route("/robots.txt", respond(200, RULES))
    rp = reader(url, clock)
    rp.read()
    assert rp.can_fetch(agent, "/public") is False
    assert rp.can_fetch("FooBotNews", "/public") is True  # another token: the '*' group


def test_c3_parsers_sharing_a_client_fetch_once(server: HTTPServer, clock: FakeClock) -> None:
    """C3: parsers given one RobotsClient share its cache: one request for both."""
    url = server.route("/robots.txt", respond(200, RULES))
    with RobotsClient(clock=clock, policy=POLICY) as client:
        first, second = RobotFileParser(url, client=client), RobotFileParser(url, client=client)
        first.read()
        second.read()
        assert second.state is not None and second.state.cache == "hit"
    assert server.hits("/robots.txt") == 1
    assert second.can_fetch("bot", "/private") is False


def test_c3_parsers_sharing_a_store_fetch_once(server: HTTPServer, clock: FakeClock) -> None:
    """C3: parsers given one store share the copy it holds."""
    url = server.route("/robots.txt", respond(200, RULES))
    store = MemoryStore()
    reader(url, clock, store=store).read()
    other = reader(url, clock, store=store)
    other.read()
    assert server.hits("/robots.txt") == 1 and other.can_fetch("bot", "/private") is False


def test_a_good_read_clears_a_full_allow_or_disallow_of_an_earlier_one(server: HTTPServer, clock: FakeClock) -> None:
    """The standard library keeps ``disallow_all`` or ``allow_all`` once set; here each read() says what holds now."""
    url = server.route("/robots.txt", respond(404))
    rp = reader(url, clock)
    rp.read()
    assert flags(rp) == (True, False)
    server.route("/robots.txt", respond(200, RULES))
    rp.read(force=True)
    assert flags(rp) == (False, False) and rp.can_fetch("bot", "/private") is False


def test_read_without_a_url_is_a_clear_value_error() -> None:
    """No URL set: InvalidURL (a ValueError, as the standard library raises), saying what to do."""
    with pytest.raises(InvalidURL, match="set_url"):
        RobotFileParser().read()
    with pytest.raises(ValueError, match="absolute URL"):
        RobotFileParser("robots.txt").read()


def test_read_of_a_local_file_url_points_to_parse() -> None:
    """A file: URL cannot be fetched (S5): UnsupportedScheme, suggesting parse()."""
    with pytest.raises(UnsupportedScheme, match="parse"):
        RobotFileParser("file:///etc/robots.txt").read()


def test_read_refuses_a_loopback_address_when_the_policy_says_public_only(server: HTTPServer) -> None:
    """With Policy(public_addresses_only=True) a robots.txt on 127.0.0.1 is refused before any request."""
    url = server.route("/robots.txt", respond(200, RULES))
    rp = RobotFileParser(url, policy=Policy(fetch_timeout=5.0, public_addresses_only=True))
    with pytest.raises(BlockedAddress):
        rp.read()
    assert server.hits() == 0 and rp.can_fetch("bot", "/") is False
