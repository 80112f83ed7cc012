"""CPython's own ``test_robotparser``, run against ``robotrules.compat.RobotFileParser`` (issue #10).

The test cases are CPython's, imported from ``test.test_robotparser`` (not retyped): for every
``BaseRobotTest`` case found there, a subclass here runs CPython's test methods as written, with
our class put in place of ``urllib.robotparser.RobotFileParser`` while each test runs. The only
adaptation is :data:`CONTRADICTIONS`: the expectations that contradict Google's rules move from
``good`` to ``bad`` or back, each with its reason (:data:`REASONS`). The same list is the table of
docs/guides/robotparser.md, and :func:`test_each_contradiction_is_real` runs both parsers on it,
so the table cannot go stale. The network cases run against servers on 127.0.0.1: CPython's own
403 server for ``PasswordProtectedSiteTestCase``, and a copy of pythontest.net's
``/elsewhere/robots.txt`` for ``NetworkTestCase``.
"""

from __future__ import annotations

import io
import re
import unittest
import urllib.error
import urllib.robotparser
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

import pytest

from robotrules import Policy
from robotrules.compat import RobotFileParser
from tests.servers.http import HTTPServer, respond

cpython: Any = pytest.importorskip(
    "test.test_robotparser",
    reason="CPython's test suite (the 'test' package) is not installed with this Python",
)

DOCS = Path(__file__).resolve().parents[2] / "docs" / "guides" / "robotparser.md"

REASONS = {
    "percent": "R3: Google's parser compares the URL's percent-escapes as given (it only upper-cases the "
               "hex digits written in a rule); the standard library decodes and re-encodes both sides, so "
               "%7e, %7E and ~ are one character to it",
    "token": "G2, G3: the agent's product token must equal a group's token; the standard library takes "
             "the first group whose name is a substring of the agent",
    "merge": "G4: every group for the same agent applies, merged, '*' included; the standard library "
             "obeys the first '*' group only",
    "longest": "R6: the most specific (longest) matching rule wins; the standard library obeys the first "
               "matching rule in file order",
    "status": "F4: a 401 or 403 for robots.txt means there is none: full allow; the standard library "
              "disallows everything",
}
"""Why Google's rules contradict an expectation of CPython's tests, by kind."""


class Contradiction(NamedTuple):
    """An expectation of CPython's ``case`` that Google's rules contradict: ``agent`` (None: the
    case's own) fetching ``url``, which CPython expects ``stdlib`` and robotrules answers the opposite."""

    case: str
    agent: str | None
    url: str
    stdlib: bool
    why: str


CONTRADICTIONS = [
    Contradiction("CrawlDelayAndRequestRateTest", None, "/a%3cd.html", False, "percent"),
    Contradiction("CrawlDelayAndRequestRateTest", None, "/a%2fb.html", False, "percent"),
    Contradiction("CrawlDelayAndRequestRateTest", None, "/~joe/index.html", False, "percent"),
    Contradiction("DifferentAgentTest", None, "/a%3cd.html", False, "percent"),
    Contradiction("DifferentAgentTest", None, "/a%2fb.html", False, "percent"),
    Contradiction("DifferentAgentTest", None, "/~joe/index.html", False, "percent"),
    Contradiction("InvalidRequestRateTest", None, "/a%3cd.html", False, "percent"),
    Contradiction("UserAgentGoogleMobileTest", None, "/something.jpg", False, "token"),
    Contradiction("UseFirstUserAgentWildcardTest", None, "/another/path", True, "merge"),
    Contradiction("NetworkTestCase", "Nutch", "/brian/", False, "longest"),
    Contradiction("PasswordProtectedSiteTestCase", "*", "/robots.txt", False, "status"),
]
"""Every expectation of CPython's test_robotparser that robotrules answers the other way, and why."""

PYTHONTEST_ROBOTS = b"""\
# Used by NetworkTestCase in Lib/test/test_robotparser.py

User-agent: Nutch
Disallow: /
Allow: /brian/

User-agent: *
Disallow: /webstats/
"""
"""www/elsewhere/robots.txt of github.com/python/pythontestdotnet: what NetworkTestCase reads."""


def _agent_url(case: type, item: str | tuple[str, str]) -> tuple[str, str]:
    return item if isinstance(item, tuple) else (case.agent, item)  # type: ignore[attr-defined]


def _flipped(name: str, case: type, item: str | tuple[str, str]) -> bool:
    agent, url = _agent_url(case, item)
    return any(c.case == name and (c.agent or case.agent) == agent and c.url == url  # type: ignore[attr-defined]
               for c in CONTRADICTIONS)


class _Ours(unittest.TestCase):
    """CPython's test code runs with robotrules' class in place of the standard library's."""

    def setUp(self) -> None:
        standard = urllib.robotparser.RobotFileParser
        urllib.robotparser.RobotFileParser = RobotFileParser  # type: ignore[misc, assignment]
        self.addCleanup(setattr, urllib.robotparser, "RobotFileParser", standard)
        super().setUp()


def _cases() -> dict[str, Any]:
    """CPython's BaseRobotTest cases (every one it defines, however many a version has)."""
    return {name: obj for name, obj in vars(cpython).items()
            if isinstance(obj, type) and issubclass(obj, cpython.BaseRobotTest) and issubclass(obj, unittest.TestCase)}


def _adapt(name: str, case: type) -> type:
    """``case`` with our class and the contradicting expectations moved (the rest as CPython has it)."""
    good, bad = list(case.good), list(case.bad)  # type: ignore[attr-defined]
    namespace = {
        "good": [u for u in good if not _flipped(name, case, u)] + [u for u in bad if _flipped(name, case, u)],
        "bad": [u for u in bad if not _flipped(name, case, u)] + [u for u in good if _flipped(name, case, u)],
        "__module__": __name__,
        "__qualname__": name,
        "__doc__": f"CPython's {name}, run against robotrules.compat.RobotFileParser.",
    }
    return type(name, (_Ours, case), namespace)


CASES = _cases()
for _name, _case in CASES.items():
    globals()[_name] = _adapt(_name, _case)
del _name, _case


class PasswordProtectedSiteTestCase(_Ours, cpython.PasswordProtectedSiteTestCase):  # type: ignore[misc]
    """CPython's server answering 403 for every path, read by our class (F4: a contradiction)."""

    def testPasswordProtectedSite(self) -> None:
        """F4: a 403 means there is no robots.txt, so everything is allowed; CPython expects
        everything disallowed, which the standard library answers against the same server."""
        url = f"http://{cpython.socket_helper.HOST}:{self.server.server_address[1]}"
        ours = RobotFileParser(policy=Policy(fetch_timeout=5.0))
        ours.set_url(url)
        ours.read()
        assert ours.can_fetch("*", url + "/robots.txt") is True
        assert ours.allow_all and not ours.disallow_all
        assert ours.state is not None and ours.state.status == 403


class NetworkTestCase(_Ours, cpython.NetworkTestCase):  # type: ignore[misc]
    """CPython's NetworkTestCase against a copy of pythontest.net served on 127.0.0.1."""

    server: ClassVar[HTTPServer]

    @classmethod
    def setUpClass(cls) -> None:
        cls.server = HTTPServer().start()
        cls.server.route("/elsewhere/robots.txt", respond(200, PYTHONTEST_ROBOTS))
        cls.base_url = cls.server.url("/")
        cls.robots_txt = f"{cls.base_url}elsewhere/robots.txt"
        cls.parser = RobotFileParser(cls.robots_txt, policy=Policy(fetch_timeout=5.0))
        cls.parser.read()

    @classmethod
    def tearDownClass(cls) -> None:
        cls.server.stop()

    def test_can_fetch(self) -> None:
        """CPython's assertions, with Nutch on /brian/ allowed (R6: "Allow: /brian/" is longer
        than "Disallow: /"; the standard library obeys the first matching line)."""
        assert self.parser.can_fetch("*", self.url("elsewhere"))
        assert not self.parser.can_fetch("Nutch", self.base_url)
        assert self.parser.can_fetch("Nutch", self.url("brian"))  # CPython: assertFalse
        assert not self.parser.can_fetch("Nutch", self.url("webstats"))
        assert not self.parser.can_fetch("*", self.url("webstats"))
        assert self.parser.can_fetch("*", self.base_url)

    def test_read_exactly_the_url_given(self) -> None:
        """Like the standard library, read() fetches the URL given, here not at /robots.txt."""
        assert self.server.hits("/elsewhere/robots.txt") == 1
        assert self.server.hits("/robots.txt") == 0


# -- the table itself -----------------------------------------------------------------------


def test_every_cpython_case_is_run_here() -> None:
    """Each BaseRobotTest case of CPython's module has its adapted twin in this module."""
    assert len(CASES) >= 15
    standard = urllib.robotparser.RobotFileParser
    for name, case in CASES.items():
        ours = globals()[name]
        assert issubclass(ours, case) and issubclass(ours, _Ours)
        test = ours("test_site_maps")
        test.setUp()  # CPython's setUp builds the parser: ours, while the test runs
        assert type(test.parser) is RobotFileParser
        test.doCleanups()
        assert urllib.robotparser.RobotFileParser is standard


@pytest.mark.parametrize("contradiction", CONTRADICTIONS, ids=lambda c: f"{c.case}-{c.url}")
def test_each_contradiction_is_real(contradiction: Contradiction) -> None:
    """The standard library answers what CPython's test expects, robotrules the opposite; the
    row names a URL the case really lists (so the table is neither stale nor too wide)."""
    if contradiction.case == "PasswordProtectedSiteTestCase":
        with HTTPServer() as server:
            server.default = respond(403, b"Forbidden access\n")
            standard = urllib.robotparser.RobotFileParser(server.url("/"))
            standard.read()
            ours = RobotFileParser(server.url("/"), policy=Policy(fetch_timeout=5.0))
            ours.read()
        url = server.url(contradiction.url)
        assert standard.can_fetch(contradiction.agent or "*", url) is contradiction.stdlib
        assert ours.can_fetch(contradiction.agent or "*", url) is not contradiction.stdlib
        return
    if contradiction.case == "NetworkTestCase":
        body, agent = PYTHONTEST_ROBOTS.decode(), contradiction.agent or "*"
    else:
        case = CASES[contradiction.case]
        agent = contradiction.agent or case.agent
        listed = [_agent_url(case, u) for u in (case.good if contradiction.stdlib else case.bad)]
        assert (agent, contradiction.url) in listed, "the row names no expectation of the case"
        body = case.robots_txt
    lines = io.StringIO(body).readlines()
    standard = urllib.robotparser.RobotFileParser()
    standard.parse(lines)
    ours = RobotFileParser()
    ours.parse(lines)
    assert standard.can_fetch(agent, contradiction.url) is contradiction.stdlib
    assert ours.can_fetch(agent, contradiction.url) is not contradiction.stdlib


def test_the_documented_table_lists_every_contradiction() -> None:
    """docs/guides/robotparser.md has one row per contradiction: CPython's case, the URL, and
    the requirement behind it (the same reasons as :data:`REASONS`)."""
    page = DOCS.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| (.*?) \| `([^`]*)` \| (allowed|disallowed) \| (allowed|disallowed) \| (.*) \|$",
                      page, re.MULTILINE)
    documented = {(case, url) for case, _, url, _, _, _ in rows}
    assert documented == {(c.case, c.url) for c in CONTRADICTIONS}
    for case, _, url, standard, ours, why in rows:
        (row,) = [c for c in CONTRADICTIONS if (c.case, c.url) == (case, url)]
        assert standard == ("allowed" if row.stdlib else "disallowed")
        assert ours == ("disallowed" if row.stdlib else "allowed")
        requirement = REASONS[row.why].split(":", 1)[0].split(", ")[0]
        assert f"[{requirement}]" in why, f"{case} {url}: the row should cite {requirement}"


def test_contradicting_expectations_would_fail_unadapted() -> None:
    """Without the adaptation, CPython's good/bad lists fail exactly on the table's rows: the
    table is all that differs (the adapted cases above pass on everything else)."""
    failing = set()
    for name, case in CASES.items():
        lines = io.StringIO(case.robots_txt).readlines()
        ours = RobotFileParser()
        ours.parse(lines)
        for expected, urls in ((True, case.good), (False, case.bad)):
            for item in urls:
                agent, url = _agent_url(case, item)
                if ours.can_fetch(agent, url) is not expected:
                    failing.add((name, url))
    listed = {(c.case, c.url) for c in CONTRADICTIONS if c.case in CASES}
    assert failing == listed, ("this Python's test_robotparser differs from the table: list each new contradiction, "
                               f"with its reason, here and in docs/guides/robotparser.md: {sorted(failing ^ listed)}")


def test_the_network_case_fails_unadapted_only_on_its_row() -> None:
    """CPython's NetworkTestCase.test_can_fetch, run as written against our class and the copy
    of pythontest.net, fails on Nutch and /brian/ (the table's row), at that assertion."""
    with HTTPServer() as server:
        server.route("/elsewhere/robots.txt", respond(200, PYTHONTEST_ROBOTS))
        parser = RobotFileParser(server.url("/elsewhere/robots.txt"), policy=Policy(fetch_timeout=5.0))
        parser.read()
    case = cpython.NetworkTestCase("test_can_fetch")
    case.base_url = server.url("/")
    case.parser = parser
    with pytest.raises(AssertionError, match="is not false"):
        cpython.NetworkTestCase.test_can_fetch(case)
    assert not parser.can_fetch("Nutch", server.url("/")) and parser.can_fetch("Nutch", server.url("/brian/"))


def test_standard_library_raises_on_a_network_failure_where_ours_answers() -> None:
    """F8 (not in CPython's tests, listed in the docs): the standard library's read() raises on a
    refused connection; ours disallows everything and says why."""
    from tests.servers.http import free_port

    url = f"http://127.0.0.1:{free_port()}/robots.txt"
    with pytest.raises(urllib.error.URLError):
        urllib.robotparser.RobotFileParser(url).read()
    ours = RobotFileParser(url, policy=Policy(fetch_timeout=5.0))
    ours.read()
    assert ours.disallow_all and ours.can_fetch("*", "/") is False
