"""The community list ai.robots.txt (``robots.json``, MIT licence) read into registry entries (A8).

The list says, per agent name, its operator, whether it respects robots.txt, its function and a
description, in free text and Markdown. This module reads that shape: the operator without its
Markdown link, ``obeys`` from the "respect" field (yes / no / unknown), the link the list gives
as ``source`` (else the list itself), and a ``kind`` from the function, by the list's own
categories or, for free-text functions, by the table below. The snapshot shipped with
robotrules (``ai-robots-txt.json``, with its licence in ``ai-robots-txt.LICENSE``) records the
commit and date it was taken from; a newer ``robots.json`` can be loaded the same way
(:func:`robotrules.crawlers.load`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from robotrules.crawlers._model import Crawler

LIST_URL = "https://github.com/ai-robots-txt/ai.robots.txt"

_CATEGORIES = {
    "ai assistants": "ai-assistant",
    "ai agents": "ai-assistant",
    "ai coding agents": "ai-assistant",
    "ai search crawlers": "ai-search",
    "ai data providers": "ai-search",
    "ai data scrapers": "ai-training",
    "ai data scraper": "ai-training",
    "undocumented ai agents": "other",
}
"""The list's own categories of function, and what they are for in :data:`~robotrules.crawlers.KINDS`
terms (data providers index the web for AI answers and search APIs)."""

_FREE_TEXT: dict[str, str] = {
    **dict.fromkeys(
        ("AI2Bot", "Ai2Bot-Dolma", "anthropic-ai", "Applebot-Extended", "Brightbot 1.0", "Bytespider", "CCBot",
         "ClaudeBot", "Cotoyogi", "DeepSeekBot", "FacebookBot", "Factset_spyderbot", "FriendlyCrawler",
         "Google-CloudVertexBot", "Google-Extended", "GPTBot", "ICC-Crawler", "img2dataset", "ISSCyberRiskCrawler",
         "LAIONDownloader", "meta-externalagent", "Poseidon Research Crawler", "SBIntuitionsBot", "TikTokSpider",
         "Timpibot", "VelenPublicWebCrawler", "YandexAdditional", "YandexAdditionalBot", "Amazonbot"),
        "ai-training"),
    **dict.fromkeys(
        ("amazon-kendra", "Andibot", "Anomura", "Claude-SearchBot", "Cloudflare-AutoRAG", "OAI-SearchBot",
         "PerplexityBot", "bedrockbot"), "ai-search"),
    **dict.fromkeys(
        ("atlassian-bot", "BuddyBot", "cohere-ai", "Google-Firebase", "iaskspider/2.0", "MistralAI-User/1.0"),
        "ai-assistant"),
    **dict.fromkeys(("PetalBot", "YouBot"), "search"),
    **dict.fromkeys(("SemrushBot-OCOB", "SemrushBot-SWA"), "seo"),
}
"""Agents whose function the list states in free text, by name: what that text says they are
for. Anything else in free text is "other" (data resellers, translation, link previews, ...)."""

_LINK = re.compile(r"\[([^\]]*)\]\((https?://[^)\s]+)\)")
_URL = re.compile(r"https?://[^\s)\]]+")
_UNCLEAR = ("unclear", "unknown", "no information")


@dataclass(frozen=True, slots=True)
class Snapshot:
    """Where the shipped copy of the list comes from: repository, commit, date, licence, size."""

    repository: str
    commit: str
    date: str
    licence: str
    agents: int


def _plain(text: str) -> str:
    """Markdown links as their text, whitespace collapsed."""
    return " ".join(_LINK.sub(r"\1", text).split())


def _obeys(respect: str) -> str:
    said = _plain(respect).lower()
    if said.startswith("yes"):
        return "yes"
    if said.startswith("no") and not said.startswith("no information"):
        return "no"
    return "unknown"


def _source(entry: Mapping[str, Any]) -> str:
    """The first link the list gives for the agent's robots.txt behaviour or its operator."""
    for field in ("respect", "operator"):
        found = _LINK.search(str(entry.get(field, ""))) or _URL.search(str(entry.get(field, "")))
        if found is not None:
            return found.group(2) if found.re is _LINK else found.group()
    return LIST_URL


def _kind(name: str, function: str) -> str:
    category = _CATEGORIES.get(function.strip().rstrip(".").lower())
    return category or _FREE_TEXT.get(name, "other")


def _purpose(entry: Mapping[str, Any]) -> str:
    """The description without the list's pointers to a third-party page; else the function."""
    for field in ("description", "function"):
        text = _plain(str(entry.get(field) or ""))
        text = re.sub(r"\s*More info can be found at \S+$", "", text).strip()
        if text and not text.lower().startswith(("description unavailable", "unclear", "no information")):
            return text
    return "Not described"


def _operator(entry: Mapping[str, Any]) -> str:
    text = _plain(str(entry.get("operator", "")))
    return "unknown" if not text or text.lower().startswith(_UNCLEAR) else text


def is_ai_robots_txt(data: Any) -> bool:
    """Whether ``data`` has the shape of the list's ``robots.json``: agent names to objects with
    "operator", "respect" and "function" (or the shipped snapshot's wrapper around one)."""
    if isinstance(data, Mapping) and isinstance(data.get("agents"), Mapping):
        data = data["agents"]
    return (isinstance(data, Mapping) and bool(data)
            and all(isinstance(v, Mapping) and {"operator", "respect", "function"} <= set(v) for v in data.values()))


def from_ai_robots_txt(data: Mapping[str, Any]) -> tuple[Crawler, ...]:
    """Registry entries for every agent of an ai.robots.txt ``robots.json`` (or the shipped
    snapshot's wrapper), in the list's order; ``origin`` "ai.robots.txt". A name that is not a
    product token keeps its name and gets the token Google reads from it (``token_valid`` False);
    a name with no token at all (none start so today) raises ValueError."""
    agents = data["agents"] if isinstance(data.get("agents"), Mapping) else data
    return tuple(
        Crawler(name, _operator(entry), _purpose(entry), _kind(name, str(entry.get("function", ""))),
                _source(entry), name=name, obeys=_obeys(str(entry.get("respect", ""))), origin="ai.robots.txt")
        for name, entry in agents.items())


def _shipped() -> dict[str, Any]:
    text = resources.files("robotrules.crawlers").joinpath("ai-robots-txt.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


_DATA = _shipped()

COMMUNITY: tuple[Crawler, ...] = from_ai_robots_txt(_DATA)
"""Every agent of the shipped ai.robots.txt snapshot, as registry entries."""

SNAPSHOT = Snapshot(_DATA["repository"], _DATA["commit"], _DATA["date"], "MIT", len(COMMUNITY))
"""Where :data:`COMMUNITY` comes from."""
