"""The purpose question of /v1/check and /v1/test: "may this content be used for X?" (A1-A8).

A request may name one usage category (``purpose``: ``train-ai``, ``search`` or ``ai-input``).
Each verdict then carries the answer beside the crawl verdict, as ``robotrules check --purpose``
gives it::

    purpose          the category asked about, echoed
    use              true: allowed; false: refused; null: unknown (no line states it), or not
                     applicable because the URL may not be crawled (A3)
    use_lines        the Content-Usage and Content-Signal lines that give that category its value
                     (the first 100; ``use_lines_omitted`` counts the rest)
    use_explanation  the answer in words, with those lines as written
                     (:meth:`~robotrules.answers.Verdict.use_sentence`, as the command line says it)
    crawler_kind     what the registry says the crawler is for (A8: search, ai-training, ...),
                     null for a crawler it does not know

``use`` is exactly :meth:`robotrules.answers.Verdict.preference`; a refusal is ``use: false``
and nothing else (an unknown preference is not a refusal), as the command line's exit code says.
"""

from __future__ import annotations

from typing import Any

from robotrules.answers import LISTED_LINES, Verdict, crawler_of

__all__ = ["answer", "purpose_fields"]


def purpose_fields(verdict: Verdict, purpose: str) -> dict[str, Any]:
    """The answer to ``purpose`` for ``verdict`` (see the module): purpose, use, use_lines, use_explanation."""
    crawler = crawler_of(verdict.agent, verdict.token)
    lines = verdict.use_lines(purpose)
    return {"purpose": purpose, "use": verdict.preference(purpose), "use_lines": lines[:LISTED_LINES],
            "use_lines_omitted": max(0, len(lines) - LISTED_LINES),
            "use_explanation": verdict.use_sentence([purpose]),
            "crawler_kind": crawler.kind if crawler is not None else None}


def answer(verdict: Verdict, purpose: str | None) -> dict[str, Any]:
    """The verdict's JSON form, with the answer to ``purpose`` when one is asked."""
    found = verdict.to_dict()
    if purpose is not None:
        found.update(purpose_fields(verdict, purpose))
    return found
