"""The crawler registry (robotrules.crawlers): documented crawlers only, lookups by token, and
extension from JSON or CSV files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from robotrules import crawlers, user_agent_token
from robotrules.crawlers import CRAWLERS, KINDS, Crawler, by_token, load, merge

REQUIRED = ["Googlebot", "Google-Extended", "Googlebot-Image", "Bingbot", "Applebot", "Applebot-Extended",
            "DuckDuckBot", "YandexBot", "Baiduspider", "GPTBot", "ChatGPT-User", "OAI-SearchBot", "ClaudeBot",
            "Claude-User", "Claude-SearchBot", "PerplexityBot", "Perplexity-User", "CCBot", "Google-CloudVertexBot",
            "Meta-ExternalAgent", "Amazonbot", "Diffbot", "FacebookBot", "archive.org_bot", "YouBot"]


def test_the_registry_lists_the_common_search_and_ai_crawlers() -> None:
    tokens = [crawler.token for crawler in CRAWLERS]
    assert set(REQUIRED) <= set(tokens)
    assert len({token.lower() for token in tokens}) == len(tokens)  # one entry per token


def test_every_entry_has_a_kind_and_an_operator_documentation_url() -> None:
    for crawler in CRAWLERS:
        assert crawler.kind in KINDS, crawler
        assert crawler.source.startswith("https://"), crawler
        assert crawler.operator and crawler.purpose, crawler


def test_every_token_is_one_a_robots_txt_group_can_name() -> None:
    """G3: the product token of each registry token is a prefix of it (archive.org_bot reads as 'archive')."""
    for crawler in CRAWLERS:
        token = user_agent_token(crawler.token)
        assert token and crawler.token.startswith(token), crawler


def test_lookup_by_token_ignores_case() -> None:
    """G3: tokens compare case-insensitively."""
    assert by_token("gptbot") is by_token("GPTBOT") is by_token("GPTBot")
    assert by_token("GPTBot").operator == "OpenAI"  # type: ignore[union-attr]
    assert by_token("NoSuchBot") is None


def test_the_registry_is_plain_data() -> None:
    """Reused by batch audits: importing it pulls in no service or network code."""
    source = Path(crawlers.__file__).read_text()
    assert "import fastapi" not in source and "robotrules.service" not in source and "httpx" not in source
    with pytest.raises(AttributeError):
        CRAWLERS[0].token = "x"  # type: ignore[misc]


def test_load_reads_crawlers_from_json(tmp_path: Path) -> None:
    path = tmp_path / "extra.json"
    rows = [{"token": "ExampleBot", "operator": "Example", "purpose": "Tests", "kind": "other",
             "source": "https://example.com/bot"}]
    path.write_text(json.dumps({"crawlers": rows}))
    assert load(path) == (Crawler("ExampleBot", "Example", "Tests", "other", "https://example.com/bot"),)
    path.write_text(json.dumps(rows))
    assert load(str(path))[0].token == "ExampleBot"


def test_load_reads_crawlers_from_csv(tmp_path: Path) -> None:
    path = tmp_path / "extra.csv"
    path.write_text("token,operator,purpose,kind,source\n"
                    'ExampleBot,Example,"Tests, with a comma",seo,https://example.com/bot\n', encoding="utf-8")
    [crawler] = load(path)
    assert (crawler.token, crawler.purpose, crawler.kind) == ("ExampleBot", "Tests, with a comma", "seo")


@pytest.mark.parametrize(("text", "suffix", "complaint"), [
    ('[{"token": "X", "operator": "o", "purpose": "p", "kind": "robot", "source": "https://x"}]', ".json", "kind"),
    ('[{"token": "X", "operator": "o", "purpose": "p", "kind": "seo"}]', ".json", "missing field source"),
    ('[{"token": "X", "operator": "o", "purpose": "p", "kind": "seo", "source": "https://x", "x": 1}]', ".json",
     "unknown field x"),
    ('[{"token": "X", "operator": "o", "purpose": "p", "kind": "seo", "source": "ftp://x"}]', ".json", "http(s) URL"),
    ('[{"token": "A Bot", "operator": "o", "purpose": "p", "kind": "seo", "source": "https://x"}]', ".json",
     "product token"),
    ('{"token": "X"}', ".json", "expected a list"),
    ("[1,", ".json", "not valid JSON"),
    ("token,operator,purpose,kind,source\nX,o,p,seo,https://x,extra\n", ".csv", "more values"),
    ("token,operator\nX,o\n", ".csv", "missing fields"),
    ("", ".csv", "empty CSV"),
])
def test_load_names_the_file_and_row_of_anything_malformed(tmp_path: Path, text: str, suffix: str,
                                                             complaint: str) -> None:
    path = tmp_path / f"bad{suffix}"
    path.write_text(text)
    with pytest.raises(ValueError, match="bad") as caught:
        load(path)
    assert complaint in str(caught.value)


def test_merge_extends_the_registry_and_later_entries_replace_earlier_ones() -> None:
    mine = Crawler("gptbot", "OpenAI", "My own description", "ai-training", "https://example.com/gptbot")
    extra = Crawler("ExampleBot", "Example", "Tests", "other", "https://example.com/bot")
    merged = merge(CRAWLERS, [mine, extra])
    assert len(merged) == len(CRAWLERS) + 1
    assert by_token("GPTBot", merged) is mine and by_token("examplebot", merged) is extra
