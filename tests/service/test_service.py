"""The service's own surfaces: /metrics counters move with requests, /healthz, /openapi.json, GET /."""

from __future__ import annotations

import os
import re

import httpx
import pytest

import robotrules
from robotrules.service import STATIC_DIR
from tests.servers.http import HTTPServer, respond

from .conftest import Start


def _samples(api: httpx.Client) -> dict[str, float]:
    """The metrics' samples, ``name{labels}`` -> value (label order as exposed)."""
    response = api.get("/metrics")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/plain")
    found = {}
    for line in response.text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            found[name] = float(value)
    return found


def _moved(before: dict[str, float], after: dict[str, float], name: str) -> float:
    return after.get(name, 0.0) - before.get(name, 0.0)


def test_metrics_count_requests_decisions_cache_results_and_fetches(api: httpx.Client, site: HTTPServer) -> None:
    before = _samples(api)
    api.get("/v1/check", params={"url": site.url("/private"), "agent": "x"})  # miss, disallowed
    api.get("/v1/check", params={"url": site.url("/open")})  # hit, allowed
    api.get("/v1/check", params={"url": "nope"})  # 400
    after = _samples(api)
    assert _moved(before, after, 'robotrules_http_requests_total{endpoint="/v1/check",method="GET",status="200"}') == 2
    assert _moved(before, after, 'robotrules_http_requests_total{endpoint="/v1/check",method="GET",status="400"}') == 1
    assert _moved(before, after, 'robotrules_decisions_total{verdict="allowed"}') == 1
    assert _moved(before, after, 'robotrules_decisions_total{verdict="disallowed"}') == 1
    assert _moved(before, after, 'robotrules_cache_results_total{result="miss"}') == 1
    assert _moved(before, after, 'robotrules_cache_results_total{result="hit"}') == 1
    assert _moved(before, after, 'robotrules_robots_fetches_total{outcome="rules",status_class="2xx"}') == 1
    assert _moved(before, after, 'robotrules_http_request_duration_seconds_count{endpoint="/v1/check"}') == 3


def test_a_request_is_counted_by_the_time_its_answer_arrives(api: httpx.Client) -> None:
    """Each answer, from the lean path or the app, is counted before its body goes out: the next /metrics sees it."""
    name = 'robotrules_http_requests_total{endpoint="/v1/check",method="GET",status="400"}'
    for n in range(30):
        api.get("/v1/check", params={"url": "nope"})
        assert _samples(api)[name] == n + 1


def test_metrics_count_fetches_by_outcome_and_status_class(api: httpx.Client) -> None:
    """A 404 robots.txt is a fetch meaning 'allow' (4xx), a 503 one meaning 'disallow' (5xx), no response 'network'."""
    with HTTPServer() as missing, HTTPServer() as failing:
        failing.route("/robots.txt", respond(503))
        api.post("/v1/check", json={"urls": [missing.url("/"), failing.url("/"), "http://nowhere.invalid/"]})
    after = _samples(api)
    assert after['robotrules_robots_fetches_total{outcome="allow",status_class="4xx"}'] == 1
    assert after['robotrules_robots_fetches_total{outcome="disallow",status_class="5xx"}'] == 1
    assert after['robotrules_robots_fetches_total{outcome="disallow",status_class="network"}'] == 1


def test_metrics_label_unknown_paths_and_oversized_bodies_without_growing_labels(start: Start) -> None:
    """Labels are route templates: any unknown path is 'unmatched'; a refused body keeps its endpoint."""
    api = start(max_body=100)
    for n in range(3):
        api.get(f"/no/such/{n}")
    api.post("/v1/lint", json={"robots": "x" * 200})
    after = _samples(api)
    assert after['robotrules_http_requests_total{endpoint="unmatched",method="GET",status="404"}'] == 3
    assert after['robotrules_http_requests_total{endpoint="/v1/lint",method="POST",status="413"}'] == 1
    assert not any("/no/such" in name for name in after)


def test_healthz_reports_the_version_and_the_store(api: httpx.Client) -> None:
    assert api.get("/healthz").json() == {"status": "ok", "version": robotrules.__version__, "store": "ok"}


ENDPOINTS = {("/v1/check", "get"), ("/v1/check", "post"), ("/v1/robots", "get"), ("/v1/test", "post"),
             ("/v1/lint", "post"), ("/v1/diff", "post"), ("/v1/edit", "post"), ("/v1/agents", "get"),
             ("/v1/vocabulary", "get"), ("/healthz", "get"), ("/metrics", "get")}


def test_openapi_lists_every_endpoint_with_request_and_response_schemas(api: httpx.Client) -> None:
    """/openapi.json describes every endpoint: its parameters or JSON body, its 200 and its error bodies."""
    schema = api.get("/openapi.json").json()
    assert schema["openapi"].startswith("3.")
    operations = {(path, method): op for path, item in schema["paths"].items() for method, op in item.items()}
    assert set(operations) == ENDPOINTS
    components = schema["components"]["schemas"]
    assert "HTTPValidationError" not in components  # FastAPI's own 422 body is replaced by ours
    for (path, method), op in operations.items():
        ok = op["responses"]["200"]["content"]
        assert ok, (path, method)
        if method == "post":
            body = op["requestBody"]["content"]["application/json"]["schema"]
            assert body["$ref"].startswith("#/components/schemas/")
        for status, response in op["responses"].items():
            if status != "200":
                assert response["content"]["application/json"]["schema"] == {"$ref": "#/components/schemas/ErrorBody"}
    assert {"400", "403", "413", "422"} <= set(operations[("/v1/check", "post")]["responses"])
    refs = set(re.findall(r'"#/components/schemas/([^"]+)"', api.get("/openapi.json").text))
    assert refs <= set(components)


def test_openapi_schemas_are_valid_json_schema(api: httpx.Client) -> None:
    jsonschema_rs = pytest.importorskip("jsonschema_rs")
    schema = api.get("/openapi.json").json()
    for name, component in schema["components"]["schemas"].items():
        document = {**component, "components": schema["components"]}
        jsonschema_rs.validator_for(document)  # raises on a schema that is not valid
        assert name


def test_the_page_is_served_at_the_root(api: httpx.Client) -> None:
    """The web tester page ships with the package (package data) and answers GET and HEAD at /."""
    assert os.path.isfile(os.path.join(STATIC_DIR, "index.html"))
    response = api.get("/")
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert "<textarea" in response.text
    assert api.head("/").status_code == 200
    assert api.get("/static/app.js").status_code == 200


def test_the_default_store_is_the_sqlite_cache_file(start: Start, site: HTTPServer, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Without a store the app keeps its cache in the SQLite file the command line shares ($ROBOTRULES_CACHE)."""
    path = tmp_path / "robots.sqlite3"
    monkeypatch.setenv("ROBOTRULES_CACHE", str(path))
    api = start(store=None)
    assert api.get("/v1/check", params={"url": site.url("/private")}).json()["results"][0]["allowed"] is False
    entry = robotrules.SQLiteStore(str(path)).get(site.url("/robots.txt"))
    assert entry is not None and entry.status == 200


def test_from_env_configures_the_app_for_uvicorn_factories(site: HTTPServer, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``uvicorn --factory robotrules.service:from_env``: cache file, private-address switch and timeout from the environment."""
    from robotrules.service import from_env

    from ._serve import serving

    monkeypatch.setenv("ROBOTRULES_CACHE", str(tmp_path / "cache.sqlite3"))
    monkeypatch.setenv("ROBOTRULES_ALLOW_PRIVATE", "1")
    monkeypatch.setenv("ROBOTRULES_USER_AGENT", "ServiceTest/1.0")
    with serving(from_env()) as base, httpx.Client(base_url=base, timeout=10) as api:
        assert api.get("/v1/check", params={"url": site.url("/")}).status_code == 200
    assert site.requests[-1].headers["user-agent"] == "ServiceTest/1.0"
    monkeypatch.delenv("ROBOTRULES_ALLOW_PRIVATE")
    monkeypatch.setenv("ROBOTRULES_CACHE", str(tmp_path / "other.sqlite3"))  # nothing cached: it must fetch
    with serving(from_env()) as base, httpx.Client(base_url=base, timeout=10) as api:
        assert api.get("/v1/check", params={"url": site.url("/")}).status_code == 403
