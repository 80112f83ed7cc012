"""RobotRulesParser, Scrapy's ROBOTSTXT_PARSER backend (issue #10, part 2): its answers, and real
crawls of a site on 127.0.0.1 with Scrapy's own RobotsTxtMiddleware around it.

The backend only sees a body: for a 200 and a redirect chain (Scrapy follows it) it decides as
robotrules does; for a 404 or a 503 Scrapy parses the error page's body, with any backend, so
the status rules (F4, F5) are the middleware's (``test_scrapy_middleware.py``).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import robotrules
from tests.compat.scrapy_site import OTHER_ROBOTS, PAGES, ROBOTS, allowed_paths, crawl, serve_site
from tests.servers.http import HTTPServer, respond

scrapy = pytest.importorskip("scrapy", reason="the Scrapy integration needs scrapy (the scrapy extra)")

from scrapy.http import Request  # noqa: E402
from scrapy.utils.test import get_crawler  # noqa: E402

from robotrules.compat.scrapy import RobotRulesParser  # noqa: E402
from robotrules.compat.scrapy.parser import robots_agent  # noqa: E402

SCRAPY_AGENT = f"Scrapy/{scrapy.__version__} (+https://scrapy.org)"
PARSER = "robotrules.compat.scrapy.RobotRulesParser"
PROTEGO = "scrapy.robotstxt.ProtegoRobotParser"  # Scrapy's default backend
TEXT = {"Content-Type": "text/plain"}
AGENTS = ["FooBot", "FooBot/1.0", "Mozilla/5.0 (compatible; BarBot/2.1; +http://bar.example/bot)", "BazBot/3 (+x)",
          SCRAPY_AGENT, "*", ""]


@pytest.fixture
def site() -> Iterator[HTTPServer]:
    with HTTPServer() as server:
        serve_site(server)
        yield server


# -- the backend's answers -------------------------------------------------------------------

@pytest.mark.parametrize("agent", AGENTS)
def test_parser_answers_as_robotrules_on_the_product_token(agent: str):
    """G3, R1-R5: allowed(url, agent) is robotrules' verdict for the agent's product token,
    whether Scrapy passes a token, a versioned name or a whole User-Agent header, str or bytes."""
    parser = RobotRulesParser.from_crawler(get_crawler(), ROBOTS)
    robots = robotrules.parse(ROBOTS)
    token = robotrules.user_agent_token(agent)
    for path in PAGES:
        url = f"http://127.0.0.1:8080{path}"
        expected = robots.allowed(url, token)
        assert parser.allowed(url, agent) is expected, (path, agent)
        assert parser.allowed(url.encode(), agent.encode("latin-1")) is expected, (path, agent)


def test_parser_reports_the_crawl_delay_of_the_agents_group():
    """N2: crawl_delay(user_agent) (Scrapy >= 2.18 asks backends for it) is the group's value."""
    parser = RobotRulesParser.from_crawler(get_crawler(), ROBOTS)
    assert parser.crawl_delay(SCRAPY_AGENT) == 0.05  # the "*" group
    assert parser.crawl_delay("FooBot/1.0") is None


def test_parser_reads_the_mode_setting():
    """ROBOTRULES_MODE picks the parsing mode (P6: "dissallow" is a typo Google accepts, RFC 9309
    does not); a mode that does not exist fails at start, with the setting's name."""
    body = b"User-agent: *\nDissallow: /private/\n"
    google = RobotRulesParser.from_crawler(get_crawler(), body)
    rfc = RobotRulesParser.from_crawler(get_crawler(settings_dict={"ROBOTRULES_MODE": "rfc9309"}), body)
    assert not google.allowed("http://127.0.0.1/private/", SCRAPY_AGENT)
    assert rfc.allowed("http://127.0.0.1/private/", SCRAPY_AGENT)
    with pytest.raises(ValueError, match="ROBOTRULES_MODE must be one of google, rfc9309, legacy1994"):
        RobotRulesParser.from_crawler(get_crawler(settings_dict={"ROBOTRULES_MODE": "nonsense"}), body)


def test_parser_never_fails_on_a_body_that_is_not_a_robots_txt():
    """DESIGN 10: an HTML error page, binary garbage or an empty body parse; they allow everything."""
    for body in (b"", b"<html><h1>Service Unavailable</h1></html>", bytes(range(256)) * 4, b"\xef\xbb\xbf"):
        parser = RobotRulesParser(body)
        assert parser.allowed("http://127.0.0.1/private/", SCRAPY_AGENT)


@pytest.mark.parametrize(
    ("robotstxt_user_agent", "header", "user_agent", "expected"),
    [
        ("FooBot/1.0", b"BarBot/2", "BazBot/3", "FooBot/1.0"),
        (None, b"BarBot/2", "BazBot/3", "BarBot/2"),
        (None, None, "BazBot/3", "BazBot/3"),
        ("", b"", "BazBot/3", "BazBot/3"),
        (None, None, None, ""),
    ],
)
def test_agent_fallbacks_are_scrapys(robotstxt_user_agent, header, user_agent, expected):
    """ROBOTSTXT_USER_AGENT, else the request's User-Agent header, else USER_AGENT: the agent
    Scrapy's RobotsTxtMiddleware passes to its backend, worked out the same way."""
    request = Request("http://127.0.0.1/", headers={"User-Agent": header} if header is not None else None)
    assert robots_agent(request, robotstxt_user_agent, user_agent) == expected


# -- real crawls with Scrapy's own middleware around the backend ---------------------------

def test_crawl_with_the_backend_fetches_exactly_the_pages_robots_txt_allows(site: HTTPServer):
    """A 200 robots.txt with allows, disallows and wildcards: the pages fetched are exactly those
    robotrules allows for Scrapy's agent (R1-R5)."""
    site.route("/robots.txt", respond(200, ROBOTS, TEXT))
    result = crawl(site.url("/"), {"ROBOTSTXT_PARSER": PARSER})
    expected = allowed_paths(ROBOTS, SCRAPY_AGENT)
    assert result.fetched == expected
    assert {path for path in site.paths() if path in PAGES} == expected
    assert result.stat("robotstxt/forbidden") == len(PAGES) - len(expected)


def test_crawl_with_the_backend_honours_robotstxt_user_agent(site: HTTPServer):
    """G3: ROBOTSTXT_USER_AGENT (a versioned name) selects its group by product token."""
    site.route("/robots.txt", respond(200, ROBOTS, TEXT))
    result = crawl(site.url("/"), {"ROBOTSTXT_PARSER": PARSER, "ROBOTSTXT_USER_AGENT": "FooBot/1.0"})
    assert result.fetched == allowed_paths(ROBOTS, "FooBot")


def test_crawl_with_the_backend_uses_the_body_at_the_end_of_a_redirect_chain(site: HTTPServer):
    """F3 as Scrapy does it: its RedirectMiddleware follows the chain; the final body decides."""
    site.chain([301, 302], 3, respond(200, OTHER_ROBOTS, TEXT))
    result = crawl(site.url("/"), {"ROBOTSTXT_PARSER": PARSER})
    assert result.fetched == allowed_paths(OTHER_ROBOTS, SCRAPY_AGENT)


@pytest.mark.parametrize("backend", [PARSER, PROTEGO], ids=["robotrules", "protego"])
def test_with_scrapys_middleware_a_404_page_body_is_parsed(site: HTTPServer, backend: str):
    """Scrapy's middleware parses a 404's body: an ordinary error page allows everything (the same
    outcome as F4 for the middleware); the status itself is never looked at."""
    site.route("/robots.txt", respond(404, b"<html><h1>Not Found</h1></html>", {"Content-Type": "text/html"}))
    result = crawl(site.url("/"), {"ROBOTSTXT_PARSER": backend})
    assert result.fetched == set(PAGES)
    assert result.stat("robotstxt/response_status_count/404") == 1


@pytest.mark.parametrize("backend", [PARSER, PROTEGO], ids=["robotrules", "protego"])
def test_with_scrapys_middleware_a_503_lets_everything_through(site: HTTPServer, backend: str):
    """Scrapy's middleware parses a 503's error page too, so every page is fetched while robots.txt
    is down, with any backend; RobotsPolicyMiddleware fetches none (F5: full disallow)."""
    site.route("/robots.txt", respond(503, b"<html><h1>Service Unavailable</h1></html>"))
    result = crawl(site.url("/"), {"ROBOTSTXT_PARSER": backend, "RETRY_ENABLED": False})
    assert result.fetched == set(PAGES)
    assert result.stat("robotstxt/response_status_count/503") == 1
