"""``GET /v1/vocabulary``: the words the web page shows for what the service's answers hold as codes.

The answers carry codes (a crawler's ``kind``, ``obeys``, a usage category, ``allowed``,
``use``, the keys of ``preferences``); the page turns them into words, and takes those words from
here, once, when it loads, instead of keeping copies of its own::

    kinds        what a crawler is for, in the registry's order, with its label
                 (robotrules.crawlers.KIND_LABELS): the picker's groups, the edit panel's purposes
    obeys        whether an operator says its crawler obeys robots.txt (robotrules.crawlers.OBEYS)
    categories   the usage categories answered, in order, with what each covers
                 (robotrules.core.usage.CATEGORIES), and the page's label and phrase for each
    verdict      a crawl verdict (``allowed``) in a word: true, false
    preference   a preference (``preferences``) in a word: true, false, null, and "not applicable"
                 for a URL that may not be crawled
    use          the answer to a purpose asked about (``use``) in a word: false is a refusal

The codes, the labels of the kinds, what each category covers and the words of a verdict and of
a preference are imported from their homes (:mod:`robotrules.crawlers`,
:mod:`robotrules.core.usage`, :mod:`robotrules.core.decision`). The page's labels of the
categories, "not applicable" and "refused" have no other home in Python: they are kept here, and
``tests/service/test_vocabulary.py`` holds them to the library's own sentences
(:meth:`robotrules.answers.Verdict.use_sentence`) and to the API's schema.
Sentences the answers already carry (``explanation``, ``use_explanation``, a live file's
``summary``, lint messages, edit notes) the page shows as they are.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import BaseModel, Field

from robotrules.core.decision import verdict_word
from robotrules.core.usage import CATEGORIES, Category, preference_word
from robotrules.crawlers import KIND_LABELS, OBEYS, CrawlerKind, Obeys
from robotrules.service._errors import JSON

__all__ = ["CATEGORY_WORDS", "NOT_APPLICABLE", "PREFERENCE_WORDS", "USE_WORDS", "VERDICT_WORDS", "VOCABULARY",
           "VocabularyResponse", "router"]

CATEGORY_WORDS: dict[Category, tuple[str, str]] = dict(zip(CATEGORIES, (
    ("AI training", "AI training"),
    ("Search", "search"),
    ("AI answers", "AI answers"),
), strict=True))
"""Each usage category of :data:`robotrules.core.usage.CATEGORIES`, in its order, as the page
names it: a label that starts a line ("Search: allowed") and a phrase within a sentence ("used
for search")."""

NOT_APPLICABLE = "not applicable"
"""A preference, or the answer to a purpose, for a URL that may not be crawled: none applies."""

VERDICT_WORDS: dict[str, str] = {"true": verdict_word(True), "false": verdict_word(False)}
"""A crawl verdict in a word, by its JSON value (:func:`robotrules.core.decision.verdict_word`)."""

PREFERENCE_WORDS: dict[str, str] = {"true": preference_word(True), "false": preference_word(False),
                                    "null": preference_word(None), "not_applicable": NOT_APPLICABLE}
"""A usage preference in a word, by its JSON value (:func:`robotrules.core.usage.preference_word`);
``not_applicable`` when the URL may not be crawled, so that no preference applies to it."""

USE_WORDS: dict[str, str] = {**PREFERENCE_WORDS, "false": "refused"}
"""The answer to a purpose asked about, by its JSON value: a refusal is ``false`` and nothing
else (an unknown preference is not one), as the schema of ``use`` says."""


class KindWords(BaseModel):
    """One kind of crawler: its code (a crawler's ``kind``) and its label."""

    kind: CrawlerKind = Field(examples=["ai-training"])
    label: str = Field(examples=["AI training"])


class CategoryWords(BaseModel):
    """One usage category: its code (a key of ``preferences``, a ``purpose``), how the page names it,
    and what it covers."""

    category: Category = Field(examples=["train-ai"])
    label: str = Field(description="the name that starts a line", examples=["AI training"])
    phrase: str = Field(description="the name within a sentence", examples=["AI training"])
    description: str = Field(description="what the category covers")


class VerdictWords(BaseModel):
    """A yes-or-no answer in words, by its JSON value."""

    true: str
    false: str


class ValueWords(VerdictWords):
    """A yes, no or unknown answer in words, by its JSON value, and the word for "not applicable"
    (the URL may not be crawled)."""

    null: str
    not_applicable: str


class VocabularyResponse(BaseModel):
    """The words of the service's codes, for the web page (see the module)."""

    kinds: list[KindWords] = Field(description="what crawlers are for, in the order listings show them")
    obeys: list[Obeys] = Field(description="the values of a crawler's 'obeys'")
    categories: list[CategoryWords] = Field(description="the usage categories, in the order answers list them")
    verdict: VerdictWords = Field(description="a crawl verdict ('allowed') in a word")
    preference: ValueWords = Field(description="a preference (a value of 'preferences') in a word")
    use: ValueWords = Field(description="the answer to a purpose asked about ('use') in a word")


def _vocabulary() -> dict[str, Any]:
    """The answer, checked against its model (a word missing or a code unknown fails at import)."""
    return VocabularyResponse.model_validate({
        "kinds": [{"kind": kind, "label": label} for kind, label in KIND_LABELS.items()],
        "obeys": sorted(OBEYS),
        "categories": [{"category": category, "label": label, "phrase": phrase, "description": CATEGORIES[category]}
                       for category, (label, phrase) in CATEGORY_WORDS.items()],
        "verdict": VERDICT_WORDS,
        "preference": PREFERENCE_WORDS,
        "use": USE_WORDS,
    }).model_dump()


VOCABULARY: dict[str, Any] = _vocabulary()
"""The answer of ``GET /v1/vocabulary``, made once."""

router = APIRouter()


@router.get("/v1/vocabulary", response_model=VocabularyResponse, tags=["registry"],
            summary="The words of the answers' codes, for the web page")
async def vocabulary() -> Response:
    """Answered on the event loop from memory: the same words until the service is upgraded."""
    return JSON(VOCABULARY)
