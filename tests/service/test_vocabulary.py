"""GET /v1/vocabulary: the words the web page shows for the codes of the service's answers.

The page keeps no copy of them (tests/page/test_page_modules.py): they come from their Python
homes (the crawler registry's kinds and labels, the usage categories), and the few words that have
no other home are held to the wording of the library's own sentences and of the API's schema.
"""

from __future__ import annotations

import httpx
import pytest

import robotrules
from robotrules.answers import check_offline
from robotrules.core.usage import CATEGORIES
from robotrules.crawlers import KIND_LABELS, OBEYS
from robotrules.service._models import VerdictModel
from robotrules.service._vocabulary import (
    CATEGORY_WORDS,
    PREFERENCE_WORDS,
    USE_WORDS,
    VERDICT_WORDS,
    VOCABULARY,
    VocabularyResponse,
)

from .conftest import REQUIREMENT_ID

USAGE = "User-agent: *\nDisallow: /private/\nContent-Usage: train-ai=n, search=y\n"
"""A file that refuses AI training, welcomes search and says nothing of AI answers (A2-A5)."""


def test_the_vocabulary_is_served_as_json_in_its_documented_shape(api: httpx.Client) -> None:
    """The answer is JSON, the words made once at import, and exactly what its response model says."""
    response = api.get("/v1/vocabulary")
    assert response.status_code == 200 and response.headers["content-type"].startswith("application/json")
    body = response.json()
    assert body == VOCABULARY
    assert VocabularyResponse.model_validate(body).model_dump() == body
    assert not REQUIREMENT_ID.search(response.text)  # words for people cite no requirement
    assert api.post("/v1/vocabulary", json={}).status_code == 405


def test_kinds_and_obeys_are_the_crawler_registrys(api: httpx.Client) -> None:
    """A8: the kinds of crawlers, in the registry's order, with its labels; the values of 'obeys'."""
    body = api.get("/v1/vocabulary").json()
    assert body["kinds"] == [{"kind": kind, "label": label} for kind, label in KIND_LABELS.items()]
    assert body["obeys"] == sorted(OBEYS)


def test_categories_are_the_usage_categories_answered(api: httpx.Client) -> None:
    """A5, A7: the categories of preferences and 'purpose', in order, each with what it covers; every
    category has the page's label and phrase, and no other category has words."""
    body = api.get("/v1/vocabulary").json()
    assert [c["category"] for c in body["categories"]] == list(CATEGORIES)
    assert [c["description"] for c in body["categories"]] == list(CATEGORIES.values())
    assert set(CATEGORY_WORDS) == set(CATEGORIES)
    assert [(c["label"], c["phrase"]) for c in body["categories"]] == [CATEGORY_WORDS[c] for c in CATEGORIES]


def test_verdict_and_preference_words_are_those_of_the_librarys_sentences() -> None:
    """R1, A3-A5: a verdict's sentence starts with the verdict's word; the AI-use sentence says each
    preference with the preference's word, and "not applicable" for a URL that may not be crawled."""
    robots = robotrules.parse(USAGE)
    allowed, disallowed = (check_offline(robots, url, "GPTBot", "draft") for url in ("/page", "/private/page"))
    assert allowed.sentence().startswith(VERDICT_WORDS["true"] + " ")
    assert disallowed.sentence().startswith(VERDICT_WORDS["false"] + " ")
    said = allowed.use_sentence()
    for category, value in (("train-ai", "false"), ("search", "true"), ("ai-input", "null")):
        assert f"{category} {PREFERENCE_WORDS[value]}" in said, (category, said)
    assert disallowed.use_sentence().startswith(PREFERENCE_WORDS["not_applicable"] + ":")


@pytest.mark.parametrize(("field", "words"), [("preferences", PREFERENCE_WORDS), ("use", USE_WORDS)])
def test_value_words_are_those_the_api_schema_documents(field: str, words: dict[str, str]) -> None:
    """A3: the schema says what each JSON value of 'preferences' and 'use' means, in the same words
    the page shows: "false refused" for the answer to a purpose (only false is a refusal)."""
    description = VerdictModel.model_fields[field].description or ""
    for value in ("true", "false", "null"):
        assert f"{value} {words[value]}" in description, (value, description)
    assert words["not_applicable"] in description


def test_openapi_describes_the_vocabulary_with_its_model(api: httpx.Client) -> None:
    """/openapi.json lists GET /v1/vocabulary with the response model the page's types follow."""
    schema = api.get("/openapi.json").json()
    operation = schema["paths"]["/v1/vocabulary"]["get"]
    assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/VocabularyResponse"}
    components = schema["components"]["schemas"]
    assert set(components["VocabularyResponse"]["required"]) == set(VOCABULARY)
    assert set(components["ValueWords"]["required"]) == set(PREFERENCE_WORDS) == set(USE_WORDS)
