"""Any string as URL or agent gives an answer or a clear error, never a crash (DESIGN 10).

The HTTP client used here refuses every host but 127.0.0.1, so generated URLs never leave the
machine: an off-machine host is a connection failure (F8), which the policy answers.
"""

from __future__ import annotations

import contextlib

import httpx
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from robotrules import InvalidURL, Policy, RobotsClient
from tests.hypo import examples


class LoopbackOnly(httpx.HTTPTransport):
    """Real HTTP to 127.0.0.1; any other host fails as an unreachable one would."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.host != "127.0.0.1":
            raise httpx.ConnectError("test: only 127.0.0.1 is reachable", request=request)
        return super().handle_request(request)


@pytest.fixture(scope="module")
def client():
    from tests.servers.http import HTTPServer, respond

    with HTTPServer() as server, httpx.Client(transport=LoopbackOnly()) as http:
        server.route("/robots.txt", respond(200, b"user-agent: *\ndisallow: /p\nallow: /p/*$\n"))
        with RobotsClient(http_client=http, policy=Policy(fetch_timeout=2.0)) as robots:
            robots.port = server.port  # type: ignore[attr-defined]
            yield robots


texts = st.text(st.characters(codec="utf-8"), max_size=40)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(url=st.one_of(texts, texts.map(lambda t: "http://" + t), texts.map(lambda t: "https://[" + t)), agent=texts)
def test_any_url_and_agent_is_an_answer_or_an_invalid_url(client, url, agent):
    """S1-S5: a bool, or InvalidURL (a ValueError) for strings no robots.txt governs."""
    assume("ftp" not in url.lower())  # ftplib would try the host for real
    with contextlib.suppress(InvalidURL):
        assert client.allowed(url, agent) in (True, False)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(path=texts, agent=texts)
def test_any_path_on_a_live_site_is_decided_like_the_parsed_file(client, path, agent):
    """The client's answer equals the parser's for the same body (one matcher, DESIGN 4)."""
    import robotrules

    url = f"http://127.0.0.1:{client.port}/{path}"
    rt = robotrules.parse(b"user-agent: *\ndisallow: /p\nallow: /p/*$\n")
    assert client.allowed(url, agent) == rt.allowed(url, agent)
    assert client.check(url, agent).line == rt.check(url, agent).line


def test_wrong_types_are_type_errors(client):
    with pytest.raises(TypeError):
        client.allowed(b"http://127.0.0.1/", "bot")  # type: ignore[arg-type]
