"""POST /v1/edit: a robots.txt with crawlers blocked or allowed and a usage statement set, with the
diff that shows what changed, against a running service (G1-G5, N2, A1)."""

from __future__ import annotations

import httpx

from .conftest import error_of

SITE = "# shop\nUser-agent: *\nDisallow: /cart\nContent-Signal: search=yes\n"


def test_an_edit_returns_the_new_text_and_its_diff(api: httpx.Client) -> None:
    """Every line not edited is kept; the diff shows the blocked crawler losing '/' and '*' unchanged."""
    response = api.post("/v1/edit", json={"robots": SITE, "block": ["GPTBot"], "usage": "train-ai=n"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["changed"] is True and body["blocked"] == ["GPTBot"]
    assert body["robots"] == ("# shop\nUser-agent: *\nContent-Usage: train-ai=n\nDisallow: /cart\n"
                              "Content-Signal: search=yes\n\nUser-agent: GPTBot\nDisallow: /\n")
    flips = [(v["agent"].lower(), v["url"], v["old_allowed"], v["new_allowed"]) for v in body["diff"]["verdicts"]]
    assert flips == [("gptbot", "/", True, False)]
    assert all(change["agent"].lower() == "gptbot" for change in body["diff"]["rules"])


def test_a_purpose_blocks_its_crawlers_and_notes_the_names_skipped(api: httpx.Client) -> None:
    body = api.post("/v1/edit", json={"robots": SITE, "block_purpose": ["ai-training"]}).json()
    assert "User-agent: GPTBot\n" in body["robots"] and "AI2Bot" not in body["robots"]
    assert any(note.startswith("skipped AI2Bot") for note in body["notes"])


def test_a_refused_edit_is_a_422_with_a_plain_message(api: httpx.Client) -> None:
    message = error_of(api.post("/v1/edit", json={"robots": SITE, "block": ["AI2Bot"]}), 422, "edit_refused")
    assert "Google reads 'AI2Bot' as 'AI'" in message


def test_an_unknown_purpose_or_field_is_a_422(api: httpx.Client) -> None:
    error_of(api.post("/v1/edit", json={"robots": SITE, "block_purpose": ["ai"]}), 422, "invalid_request")
    error_of(api.post("/v1/edit", json={"robots": SITE, "blocks": ["GPTBot"]}), 422, "invalid_request")
