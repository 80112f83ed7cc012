"""What the crawler registry says of an agent, looked up for answers: whether it ignores the ``*``
group (A8), its crawler, and a note for people. The registry is imported on first use."""

from __future__ import annotations

from functools import cache
from typing import Any

__all__ = ["crawler_note", "crawler_of", "ignores_global"]


def _registry() -> Any:
    """:mod:`robotrules.crawlers`, imported on first use (reading it costs milliseconds that
    ``import robotrules`` should not pay)."""
    import robotrules.crawlers

    return robotrules.crawlers


@cache
def _ignoring() -> frozenset[str]:
    ignoring: frozenset[str] = _registry().IGNORES_GLOBAL
    return ignoring


def ignores_global(token: str) -> bool:
    """A8: whether the registry says the crawler of ``token`` ignores the ``*`` group (Google's
    AdsBot, APIs-Google). Asked for every row of a batch: the set is looked up once."""
    return token.lower() in _ignoring()


def crawler_of(agent: str, token: str) -> Any:
    """A8: the registry's crawler for ``agent`` (by name, else by its ``token``), or None."""
    crawlers = _registry()
    return crawlers.by_token(agent) or crawlers.by_token(token)


def crawler_note(agent: str, token: str) -> str:
    """What the registry says a crawler is for, in words ("GPTBot: AI training, OpenAI"), or ""."""
    crawler = crawler_of(agent, token)
    if crawler is None:
        return ""
    operator = "" if crawler.operator == "unknown" else f", {crawler.operator}"
    return f"{crawler.name}: {_registry().KIND_LABELS[crawler.kind]}{operator}"
