"""The purpose question of the API: "may this content be used for X?" beside each verdict (A1-A8).

``/v1/check`` (GET and POST) and ``/v1/test`` take an optional ``purpose`` (train-ai, search,
ai-input); each result then echoes it and answers in ``use`` (true allowed, false refused, null
unknown or not applicable), with the deciding lines (``use_lines``) and the answer in words
(``use_explanation``), exactly as ``robotrules check/test --purpose`` answers. Live files come
from a real site on 127.0.0.1; the service runs on its own port.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args

import httpx
import pytest

from robotrules.core.usage import CATEGORIES
from robotrules.service import _models as models
from tests.servers.http import HTTPServer, respond
from tests.usage_drafts import ATTACH_EXAMPLE

from .conftest import error_of

BODY = ATTACH_EXAMPLE

PURPOSE_KEYS = {"purpose", "use", "use_lines", "use_lines_omitted", "use_explanation", "crawler_kind"}

# (path, purpose, use, use_lines, use_explanation): every kind of answer.
ANSWERS = [
    ("/test", "train-ai", False, [4], "train-ai disallowed by line 4 'content-usage: train-ai=n'"),
    ("/ai-ok/test", "train-ai", True, [5], "train-ai allowed by line 5 'content-usage: /ai-ok/ train-ai=y'"),
    ("/test", "search", True, [2], "search allowed by line 2 'content-signal: search=yes'"),
    ("/test", "ai-input", None, [], "ai-input unknown"),
    ("/never/test", "train-ai", None, [], "not applicable: the URL may not be crawled"),
]


@pytest.fixture
def usage_site() -> Any:
    """A site whose robots.txt is :data:`BODY`."""
    with HTTPServer() as server:
        server.route("/robots.txt", respond(200, BODY.encode()))
        yield server


@pytest.mark.parametrize(("path", "purpose", "use", "lines", "words"), ANSWERS)
def test_get_check_answers_the_purpose_asked_about(api: httpx.Client, usage_site: HTTPServer, path: str,
                                                   purpose: str, use: bool | None, lines: list[int],
                                                   words: str) -> None:
    """A2-A4, A7: allowed, refused, unknown (no line states it) and not applicable (the URL may not
    be crawled, A3: null, not a refusal), each with the lines that decide it."""
    response = api.get("/v1/check", params={"url": usage_site.url(path), "agent": "GPTBot/1.1", "purpose": purpose})
    assert response.status_code == 200, response.text
    [verdict] = response.json()["results"]
    assert (verdict["purpose"], verdict["use"], verdict["use_lines"], verdict["use_explanation"]) == (
        purpose, use, lines, words)
    assert verdict["use"] is verdict["preferences"][purpose]  # the same answer as the preferences give
    assert set(verdict["use_lines"]) <= set(verdict["preference_lines"])


def test_post_check_answers_the_purpose_for_every_url_and_agent(api: httpx.Client, usage_site: HTTPServer) -> None:
    """A3, A8: one answer per URL and agent, in request order; a disallowed URL is not applicable."""
    urls = [usage_site.url(p) for p in ("/test", "/ai-ok/test", "/never/test")]
    response = api.post("/v1/check", json={"urls": urls, "agents": ["GPTBot", "ClaudeBot"], "purpose": "train-ai"})
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert [(r["url"], r["agent"], r["allowed"], r["use"]) for r in results] == [
        (urls[0], "GPTBot", True, False), (urls[0], "ClaudeBot", True, False),
        (urls[1], "GPTBot", True, True), (urls[1], "ClaudeBot", True, True),
        (urls[2], "GPTBot", False, None), (urls[2], "ClaudeBot", False, None),
    ]
    assert {r["purpose"] for r in results} == {"train-ai"}


def test_without_a_purpose_the_results_are_unchanged(api: httpx.Client, usage_site: HTTPServer) -> None:
    """A purpose only adds its five fields; every other field is the same as without one; the
    crawler's purpose is named (A8: GPTBot is an AI training crawler)."""
    url = usage_site.url("/test")
    [plain] = api.get("/v1/check", params={"url": url, "agent": "GPTBot"}).json()["results"]
    [asked] = api.get("/v1/check", params={"url": url, "agent": "GPTBot", "purpose": "train-ai"}).json()["results"]
    assert not PURPOSE_KEYS & set(plain)
    assert set(asked) == set(plain) | PURPOSE_KEYS
    assert asked["crawler_kind"] == "ai-training"
    for key in plain:
        if key not in ("robots", "explanation"):  # the cache state and age move between two requests
            assert asked[key] == plain[key], key


def test_a_site_without_rules_answers_unknown_not_refused(api: httpx.Client) -> None:
    """F4, A3: a missing robots.txt allows everything and states no preference: unknown, not a refusal."""
    with HTTPServer() as site:
        [verdict] = api.get("/v1/check", params={"url": site.url("/page"), "purpose": "train-ai"}).json()["results"]
    assert (verdict["allowed"], verdict["full"], verdict["use"], verdict["use_lines"]) == (True, "allow", None, [])
    assert verdict["use_explanation"] == "train-ai unknown"


@pytest.mark.parametrize(("path", "purpose", "use", "lines", "words"), ANSWERS)
def test_draft_test_answers_the_purpose_as_the_command_line_does(api: httpx.Client, tmp_path: Path, path: str,
                                                                 purpose: str, use: bool | None, lines: list[int],
                                                                 words: str) -> None:
    """A1-A8: /v1/test gives the same answer as ``robotrules test --purpose`` for the same file and
    URL: the exit code is 1 exactly when the URL is disallowed or the use refused (an unknown or
    not-applicable preference is no refusal), and its "AI use:" line says what use_explanation says."""
    from tests.cli.harness import cli_environment, in_process

    response = api.post("/v1/test", json={"robots": BODY, "urls": [path], "agents": ["GPTBot"], "purpose": purpose})
    assert response.status_code == 200, response.text
    [verdict] = response.json()["results"]
    assert (verdict["use"], verdict["use_lines"], verdict["use_explanation"]) == (use, lines, words)

    (tmp_path / "robots.txt").write_text(BODY)
    done = in_process(("test", "robots.txt", "-a", "GPTBot", "--purpose", purpose, path), cwd=tmp_path,
                      env=cli_environment(tmp_path), stdin=None, timeout=20.0)
    assert done.returncode == (1 if not verdict["allowed"] or verdict["use"] is False else 0), done.stdout
    assert f"AI use: {verdict['use_explanation']} (GPTBot: AI training, OpenAI)" in done.stdout


def test_draft_test_in_legacy_mode_states_no_preference(api: httpx.Client) -> None:
    """The 1994 standard has no Content-Usage: every use is unknown there, never refused."""
    body = api.post("/v1/test", json={"robots": BODY, "urls": ["/test"], "mode": "legacy1994",
                                      "purpose": "train-ai"}).json()
    [verdict] = body["results"]
    assert (verdict["allowed"], verdict["use"], verdict["use_lines"]) == (True, None, [])


@pytest.mark.parametrize("purpose", ["ai-train", "Train-AI", "", "training"])
def test_an_unknown_purpose_in_the_query_is_a_plain_422(api: httpx.Client, site: HTTPServer, purpose: str) -> None:
    """Only the three categories are questions the service answers; anything else is refused in
    plain words naming the parameter and the choices (A5, A7: ai-train is Content-Signal's key, not a purpose)."""
    message = error_of(api.get("/v1/check", params={"url": site.url("/"), "purpose": purpose}), 422, "invalid_request")
    assert "purpose" in message and "'train-ai'" in message and "'ai-input'" in message


@pytest.mark.parametrize(("endpoint", "extra"), [
    ("/v1/check", {"urls": ["https://example.com/"]}),
    ("/v1/test", {"robots": BODY, "urls": ["/"]}),
])
@pytest.mark.parametrize("purpose", ["ai-train", 1, ["train-ai"]])
def test_an_unknown_purpose_in_a_body_is_a_plain_422(api: httpx.Client, endpoint: str, extra: dict[str, Any],
                                                     purpose: Any) -> None:
    """A bad purpose refuses the request before anything is fetched or decided."""
    message = error_of(api.post(endpoint, json={**extra, "purpose": purpose}), 422, "invalid_request")
    assert message.startswith("Field 'purpose': ") and "'train-ai', 'search' or 'ai-input'" in message


def test_the_schema_describes_the_purpose_and_the_answer(api: httpx.Client) -> None:
    """The OpenAPI description names the three purposes wherever a request may ask, and the answer's fields."""
    assert get_args(models.Purpose) == tuple(CATEGORIES)
    schema = api.get("/openapi.json").json()
    [query] = [p for p in schema["paths"]["/v1/check"]["get"]["parameters"] if p["name"] == "purpose"]
    assert query["required"] is False

    def choices(prop: dict[str, Any]) -> list[str]:
        return next(option["enum"] for option in prop["anyOf"] if "enum" in option)

    assert choices(query["schema"]) == list(CATEGORIES)
    components = schema["components"]["schemas"]
    for request in ("CheckRequest", "TestRequest"):
        assert choices(components[request]["properties"]["purpose"]) == list(CATEGORIES)
        assert "purpose" not in components[request].get("required", [])
    verdict = components["VerdictModel"]
    assert set(verdict["properties"]) >= PURPOSE_KEYS
    assert not PURPOSE_KEYS & set(verdict["required"])  # only present when a purpose is asked
    assert {"preferences", "preference_lines"} <= set(verdict["required"])
