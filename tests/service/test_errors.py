"""Bad requests get a 4xx with one JSON shape, ``{"error": {"code", "message"}}``, in plain words;
never a 500 or a traceback."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import pytest

from tests.servers.http import HTTPServer

from .conftest import Start, error_of


@pytest.mark.parametrize("url", ["example.com/page", "/just/a/path", "http://", "mailto:someone@example.com",
                                 "http://exa mple.com/", "http://[::1/"])
def test_a_url_without_a_robots_txt_is_a_400(api: httpx.Client, url: str) -> None:
    """S1: a URL with no scheme and host has no robots.txt: 400 invalid_url, naming the URL."""
    message = error_of(api.get("/v1/check", params={"url": url}), 400, "invalid_url")
    assert url[:10] in message


@pytest.mark.parametrize("url", ["ws://example.com/", "gopher://example.com/x", "file:///etc/passwd"])
def test_a_scheme_without_robots_txt_fetching_is_a_400(api: httpx.Client, url: str) -> None:
    """S5: only http, https and ftp robots.txt files are fetched; others are 400 (file: has no host at all)."""
    response = api.get("/v1/check", params={"url": url})
    assert response.status_code == 400
    assert response.json()["error"]["code"] in {"unsupported_scheme", "invalid_url"}
    if url.startswith("ws:"):
        assert "only http, https and ftp" in error_of(response, 400, "unsupported_scheme")


def test_a_bad_url_in_a_batch_names_its_position(api: httpx.Client, site: HTTPServer) -> None:
    """The batch is refused as a whole (nothing fetched), and the message says which URL is bad."""
    message = error_of(api.post("/v1/check", json={"urls": [site.url("/"), "nope"]}), 400, "invalid_url")
    assert message.startswith("urls[1]: ")
    assert site.hits() == 0


def test_the_robots_endpoint_refuses_bad_urls_too(api: httpx.Client) -> None:
    error_of(api.get("/v1/robots", params={"url": "not a url"}), 400, "invalid_url")
    error_of(api.post("/v1/diff", json={"old_url": "ftp:/nohost", "new": ""}), 400, "invalid_url")


@pytest.mark.parametrize(("path", "needed"), [("/v1/check", "url"), ("/v1/robots", "url")])
def test_a_missing_query_parameter_is_a_422_naming_it(api: httpx.Client, path: str, needed: str) -> None:
    message = error_of(api.get(path), 422, "invalid_request")
    assert f"parameter '{needed}' is required" in message


@pytest.mark.parametrize(("path", "body", "named"), [
    ("/v1/check", {"urls": "https://example.com/"}, "urls"),
    ("/v1/check", {"urls": [1, 2]}, "urls[0]"),
    ("/v1/check", {"urls": ["https://example.com/"], "agents": "Googlebot"}, "agents"),
    ("/v1/check", {"urls": []}, "urls"),
    ("/v1/check", {}, "urls"),
    ("/v1/check", {"urls": ["https://example.com/"], "agent": ["x"]}, "agent"),
    ("/v1/lint", {"robots": 42}, "robots"),
    ("/v1/lint", {"robots": None}, "robots"),
    ("/v1/test", {"robots": "", "urls": [None]}, "urls[0]"),
    ("/v1/diff", {"old": [], "new": ""}, "old"),
    ("/v1/diff", {"old": "", "new": "", "mode": 3}, "mode"),
])
def test_wrong_json_types_are_a_422_naming_the_field(api: httpx.Client, path: str, body: object, named: str) -> None:
    """Fields are typed strictly (no silent coercion) and unknown fields are refused: the message names the field."""
    message = error_of(api.post(path, json=body), 422, "invalid_request")
    assert f"'{named}'" in message


def test_json_that_is_not_an_object_is_a_422(api: httpx.Client) -> None:
    """#16-L3: JSON that was read, of the wrong shape (an array, a string), is a 422."""
    error_of(api.post("/v1/lint", json=["robots"]), 422, "invalid_request")
    error_of(api.post("/v1/lint", json="robots"), 422, "invalid_request")


def test_a_body_not_sent_as_json_or_missing_is_a_400(api: httpx.Client) -> None:
    """#16-L3: a body that cannot be read as JSON at all (another media type, none) is a 400."""
    message = error_of(api.post("/v1/lint", content=b'{"robots": "x"}', headers={"content-type": "text/plain"}),
                       400, "invalid_json")
    assert "application/json" in message
    assert "JSON body" in error_of(api.post("/v1/lint"), 400, "invalid_json")


def test_malformed_json_is_a_400(api: httpx.Client) -> None:
    """#16-L3: malformed JSON is a 400, as a body that is not UTF-8 is: one convention for unreadable bodies."""
    response = api.post("/v1/lint", content=b'{"robots": ', headers={"content-type": "application/json"})
    assert "not valid JSON" in error_of(response, 400, "invalid_json")


def test_a_body_that_is_not_utf8_is_a_400(api: httpx.Client) -> None:
    response = api.post("/v1/lint", content=b'{"robots": "\xff\xfe"}', headers={"content-type": "application/json"})
    assert "UTF-8" in error_of(response, 400, "invalid_json")


def test_too_many_urls_or_agents_is_a_422_with_the_limit(start: Start, site: HTTPServer) -> None:
    """max_urls and max_agents bound a request; nothing is fetched for a refused one."""
    api = start(max_urls=3, max_agents=2)
    urls = [site.url(f"/{n}") for n in range(4)]
    assert "at most 3" in error_of(api.post("/v1/check", json={"urls": urls}), 422, "too_many_urls")
    assert "at most 2" in error_of(api.post("/v1/check", json={"urls": urls[:1], "agents": ["a", "b", "c"]}), 422,
                                   "too_many_agents")
    error_of(api.get("/v1/check", params=[("url", urls[0])] + [("agent", a) for a in "abc"]), 422, "too_many_agents")
    error_of(api.post("/v1/test", json={"robots": "", "urls": ["/"] * 4}), 422, "too_many_urls")
    error_of(api.post("/v1/diff", json={"old": "", "new": "", "urls": ["/"] * 4}), 422, "too_many_urls")
    assert site.hits() == 0


def test_an_agent_without_a_product_token_is_a_422(api: httpx.Client, site: HTTPServer) -> None:
    """G3: an agent with no letters has no token any group could name."""
    message = error_of(api.get("/v1/check", params={"url": site.url("/"), "agent": "/1.0"}), 422, "invalid_request")
    assert "product token" in message


def test_a_body_over_the_limit_is_a_413_when_content_length_says_so(start: Start) -> None:
    api = start(max_body=1000)
    response = api.post("/v1/lint", json={"robots": "x" * 2000})
    assert "1,000 bytes" in error_of(response, 413, "body_too_large")
    assert api.post("/v1/lint", json={"robots": "x" * 900}).status_code == 200


def test_a_body_over_the_limit_is_a_413_without_content_length(start: Start) -> None:
    """Chunked upload, no Content-Length: the bytes are counted as they arrive."""
    api = start(max_body=1000)

    def chunks() -> Iterator[bytes]:
        yield b'{"robots": "'
        for _ in range(20):
            yield b"x" * 100
        yield b'"}'

    response = api.post("/v1/lint", content=chunks(), headers={"content-type": "application/json"})
    assert "content-length" not in response.request.headers
    error_of(response, 413, "body_too_large")


def test_a_lying_content_length_cannot_smuggle_a_large_body(start: Start) -> None:
    """A Content-Length under the limit followed by more bytes: the server reads only what was announced."""
    api = start(max_body=1000)
    host, port = api.base_url.host, api.base_url.port
    body = b'{"robots": "' + b"x" * 5000 + b'"}'
    with socket.create_connection((host, port), timeout=5) as sock:
        sock.sendall(b"POST /v1/lint HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 20\r\n\r\n" + body)
        reply = sock.recv(65536)
    assert reply.split(b"\r\n", 1)[0] in (b"HTTP/1.1 422 Unprocessable Entity", b"HTTP/1.1 400 Bad Request")


def test_an_unknown_path_is_a_json_404(api: httpx.Client) -> None:
    assert "/v1/nothing" in error_of(api.get("/v1/nothing"), 404, "not_found")
    error_of(api.post("/v1/nothing", json={}), 404, "not_found")


def test_a_wrong_method_is_a_json_405(api: httpx.Client) -> None:
    message = error_of(api.get("/v1/lint"), 405, "method_not_allowed")
    assert "POST" in message
