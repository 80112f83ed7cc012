"""A registry of well-known crawlers: who runs them, what for, and where the operator says so.

The web page's agent picker, the service's ``GET /v1/agents`` and (later) batch audits read it.
Each :class:`Crawler` is the product token a robots.txt names it by (RFC 9309 2.2.1, G3), its
operator, a short purpose, a ``kind`` (:data:`KINDS`) and ``source``: the operator's public page
that documents the token. Only crawlers whose operator documents them are listed; a crawler
known only from server logs or third-party lists is left out rather than described from hearsay.

Plain data, standard library only: no service, network or parser imports. :func:`load` extends
the registry from a JSON or CSV file (the same five fields); :func:`by_token` looks a token up
case-insensitively, as Google compares tokens (G3).
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["CRAWLERS", "FIELDS", "KINDS", "Crawler", "by_token", "load", "merge"]

KINDS = frozenset({"search", "ai-training", "ai-assistant", "ai-search", "archive", "seo", "other"})
"""What a crawler's fetches are for: a search index, AI model training, fetches on behalf of a
user of an AI assistant, an AI search index, a web archive, SEO tools, anything else."""

FIELDS = ("token", "operator", "purpose", "kind", "source")
"""The fields of a crawler, in order: the columns of a CSV file and the keys of a JSON object."""


@dataclass(frozen=True, slots=True)
class Crawler:
    """One crawler: ``token`` as a robots.txt names it, who runs it, why, and where that is documented.

    ``kind`` is one of :data:`KINDS`; ``source`` an ``http(s)`` URL of the operator's documentation.
    """

    token: str
    operator: str
    purpose: str
    kind: str
    source: str

    def __post_init__(self) -> None:
        for name in FIELDS:
            value = getattr(self, name)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"crawler field {name!r} must be a non-empty string, not {value!r}")
        if self.kind not in KINDS:
            raise ValueError(f"crawler {self.token!r}: kind must be one of {', '.join(sorted(KINDS))}, not {self.kind!r}")
        if not self.source.startswith(("https://", "http://")):
            raise ValueError(f"crawler {self.token!r}: source must be an http(s) URL, not {self.source!r}")
        if any(c.isspace() or c in "/:" for c in self.token):
            raise ValueError(f"crawler token must be a product token (no spaces, '/' or ':'), not {self.token!r}")

    def to_dict(self) -> dict[str, str]:
        """The JSON form: the five fields."""
        return asdict(self)


_GOOGLE_COMMON = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers"
_GOOGLE_SPECIAL = "https://developers.google.com/crawling/docs/crawlers-fetchers/google-special-case-crawlers"
_APPLE = "https://support.apple.com/en-us/119829"
_OPENAI = "https://platform.openai.com/docs/bots"
_ANTHROPIC = ("https://support.anthropic.com/en/articles/"
              "8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler")
_PERPLEXITY = "https://docs.perplexity.ai/guides/bots"
_META = "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers/"

CRAWLERS: tuple[Crawler, ...] = (
    # search engines
    Crawler("Googlebot", "Google", "Crawls pages for Google Search", "search",
            "https://developers.google.com/search/docs/crawling-indexing/googlebot"),
    Crawler("Googlebot-Image", "Google", "Crawls images for Google Images and other products that show images",
            "search", _GOOGLE_COMMON),
    Crawler("Bingbot", "Microsoft", "Crawls pages for Bing search", "search",
            "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0"),
    Crawler("Applebot", "Apple", "Crawls pages for Siri, Spotlight and Safari search", "search", _APPLE),
    Crawler("DuckDuckBot", "DuckDuckGo", "Crawls pages for DuckDuckGo search results", "search",
            "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot"),
    Crawler("YandexBot", "Yandex", "Crawls pages for Yandex search", "search",
            "https://yandex.com/support/webmaster/robot-workings/check-yandex-robots.html"),
    Crawler("Baiduspider", "Baidu", "Crawls pages for Baidu search", "search",
            "https://www.baidu.com/search/spider.html"),
    Crawler("YouBot", "You.com", "Crawls pages for the You.com search engine", "search",
            "https://docs.you.com/youbot"),
    Crawler("Diffbot", "Diffbot", "Crawls pages for the Diffbot Knowledge Graph and web search (not AI training)",
            "search", "https://docs.diffbot.com/docs/does-crawl-respect-robotstxt"),
    # AI training and product-use controls
    Crawler("Google-Extended", "Google",
            "Not a separate crawler: a token that controls whether Googlebot's crawls may train Gemini "
            "and ground its answers", "ai-training", _GOOGLE_COMMON),
    Crawler("Google-CloudVertexBot", "Google",
            "Crawls sites at their owners' request to build Vertex AI Agents", "ai-training", _GOOGLE_SPECIAL),
    Crawler("Applebot-Extended", "Apple",
            "Not a separate crawler: a token that controls whether Applebot's crawls may train Apple's "
            "generative models", "ai-training", _APPLE),
    Crawler("GPTBot", "OpenAI", "Crawls content that may be used to train OpenAI's generative AI models",
            "ai-training", _OPENAI),
    Crawler("ClaudeBot", "Anthropic", "Collects web content that may be used to train Anthropic's AI models",
            "ai-training", _ANTHROPIC),
    Crawler("CCBot", "Common Crawl", "Crawls pages for the Common Crawl open web archive, widely used to train AI models",
            "ai-training", "https://commoncrawl.org/ccbot"),
    Crawler("Meta-ExternalAgent", "Meta", "Crawls pages to train AI models and improve Meta's products",
            "ai-training", _META),
    Crawler("FacebookBot", "Meta", "Crawls public pages to improve language models for Meta's speech recognition",
            "ai-training", "https://developers.facebook.com/docs/sharing/bot/"),
    Crawler("Amazonbot", "Amazon", "Crawls pages to improve Amazon's products and services, including Alexa answers",
            "ai-training", "https://developer.amazon.com/amazonbot"),
    # AI search indexes
    Crawler("OAI-SearchBot", "OpenAI", "Crawls pages to show them in ChatGPT search results", "ai-search", _OPENAI),
    Crawler("Claude-SearchBot", "Anthropic", "Crawls pages to improve the search results Claude gives its users",
            "ai-search", _ANTHROPIC),
    Crawler("PerplexityBot", "Perplexity", "Crawls pages to show and link them in Perplexity search results",
            "ai-search", _PERPLEXITY),
    # fetches on behalf of a user of an AI assistant
    Crawler("ChatGPT-User", "OpenAI", "Fetches a page when a ChatGPT user's request needs it", "ai-assistant", _OPENAI),
    Crawler("Claude-User", "Anthropic", "Fetches a page when a Claude user's question needs it", "ai-assistant",
            _ANTHROPIC),
    Crawler("Perplexity-User", "Perplexity", "Fetches a page when a Perplexity user's question needs it",
            "ai-assistant", _PERPLEXITY),
    # archives
    Crawler("archive.org_bot", "Internet Archive", "Crawls pages to preserve them in the Wayback Machine", "archive",
            "https://archive.org/details/archive.org_bot"),
)
"""The built-in registry, grouped by kind. Extend it with :func:`load` and :func:`merge`."""


def _rows(data: Any, where: str) -> list[Mapping[str, Any]]:
    if isinstance(data, Mapping) and isinstance(data.get("crawlers", data.get("agents")), list):
        data = data.get("crawlers", data.get("agents"))
    if not isinstance(data, list) or not all(isinstance(row, Mapping) for row in data):
        raise ValueError(f"{where}: expected a list of crawler objects (or {{\"crawlers\": [...]}})")
    return data


def _crawler(row: Mapping[str, Any], where: str) -> Crawler:
    missing = [name for name in FIELDS if name not in row]
    if missing:
        raise ValueError(f"{where}: missing field{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    unknown = sorted(set(row) - set(FIELDS))
    if unknown:
        raise ValueError(f"{where}: unknown field{'s' if len(unknown) > 1 else ''} {', '.join(map(str, unknown))}")
    try:
        return Crawler(*(row[name].strip() if isinstance(row[name], str) else row[name] for name in FIELDS))
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def load(path: str | os.PathLike[str]) -> tuple[Crawler, ...]:
    """Read crawlers from a ``.json`` file (a list of objects, or ``{"crawlers": [...]}``) or a
    ``.csv`` file (a header row naming the five :data:`FIELDS`, then one crawler a row).

    ``ValueError`` names the file and row of anything malformed (a missing or unknown field, an
    unknown ``kind``, a ``source`` that is not an http(s) URL); ``OSError`` if it cannot be read.
    Returns only what the file holds: :func:`merge` it with :data:`CRAWLERS` to extend the registry.
    """
    name = os.fspath(path)
    with open(name, encoding="utf-8-sig", newline="") as handle:
        text = handle.read()
    if name.lower().endswith(".csv"):
        reader = csv.DictReader(io.StringIO(text))
        if reader.fieldnames is None:
            raise ValueError(f"{name}: empty CSV file (expected a header row: {','.join(FIELDS)})")
        rows: list[Mapping[str, Any]] = []
        for row in reader:
            if None in row:
                raise ValueError(f"{name} line {reader.line_num}: more values than header columns")
            rows.append(row)
        start, unit = 2, "line"
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{name}: not valid JSON: {exc}") from None
        rows = _rows(data, name)
        start, unit = 0, "item"
    return tuple(_crawler(row, f"{name} {unit} {n}") for n, row in enumerate(rows, start))


def merge(*registries: Iterable[Crawler]) -> tuple[Crawler, ...]:
    """One registry from several: later entries replace earlier ones with the same token (case-insensitive)."""
    found: dict[str, Crawler] = {}
    for registry in registries:
        for crawler in registry:
            found.pop(crawler.token.lower(), None)
            found[crawler.token.lower()] = crawler
    return tuple(found.values())


def by_token(token: str, registry: Sequence[Crawler] = CRAWLERS) -> Crawler | None:
    """The crawler named ``token`` (compared case-insensitively, as Google compares tokens), or None."""
    wanted = token.lower()
    return next((crawler for crawler in registry if crawler.token.lower() == wanted), None)
