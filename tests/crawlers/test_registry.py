"""The crawler registry (robotrules.crawlers, A8): operator-documented entries and the community
list ai.robots.txt, each with the token Google reads; lookups, search and JSON/CSV files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from robotrules import RobotsInputWarning, crawlers, parse, user_agent_token
from robotrules.crawlers import (
    COMMUNITY,
    CRAWLERS,
    DOCUMENTED,
    IGNORES_GLOBAL,
    KINDS,
    OBEYS,
    SNAPSHOT,
    Crawler,
    by_token,
    dumps,
    from_ai_robots_txt,
    load,
    merge,
    search,
)

REQUIRED = ["Googlebot", "Google-Extended", "Googlebot-Image", "Bingbot", "Applebot", "Applebot-Extended",
            "DuckDuckBot", "YandexBot", "Baiduspider", "GPTBot", "ChatGPT-User", "OAI-SearchBot", "ClaudeBot",
            "Claude-User", "Claude-SearchBot", "PerplexityBot", "Perplexity-User", "CCBot", "Google-CloudVertexBot",
            "Meta-ExternalAgent", "Amazonbot", "Diffbot", "FacebookBot", "archive.org_bot", "YouBot"]


def test_the_registry_lists_the_common_search_and_ai_crawlers() -> None:
    names = [crawler.name for crawler in CRAWLERS]
    assert set(REQUIRED) <= set(names)
    assert len({name.lower() for name in names}) == len(names)  # one entry per name, as Google compares


def test_every_entry_has_a_kind_an_operator_and_a_source_url() -> None:
    for crawler in CRAWLERS:
        assert crawler.kind in KINDS and crawler.obeys in OBEYS, crawler
        assert crawler.source.startswith(("https://", "http://")), crawler
        assert crawler.operator and crawler.purpose, crawler


def test_every_token_is_what_google_reads_from_the_name() -> None:
    """G3: the token is the leading run of letters, '-' and '_' of the name, as a robots.txt
    ``user-agent`` line is read, and the token a User-Agent header of that name gives."""
    for crawler in CRAWLERS:
        assert crawler.token and crawler.name.startswith(crawler.token), crawler
        assert user_agent_token(crawler.name) == crawler.token, crawler
        assert crawler.token_valid == (crawler.name == crawler.token)


def test_a_group_naming_a_crawler_applies_to_the_token_the_registry_gives() -> None:
    """G3, A8: 'User-agent: AI2Bot' is a group for 'AI', the registry's token for AI2Bot; the name
    itself, not being a product token, selects nothing (the reference compares it whole), and the
    core says so (RobotsInputWarning, with the token to pass)."""
    crawler = by_token("AI2Bot")
    assert crawler is not None and (crawler.token, crawler.token_valid) == ("AI", False)
    robots = parse("User-agent: AI2Bot\nDisallow: /\n")
    assert not robots.allowed("https://example.com/a", crawler.token)
    with pytest.warns(RobotsInputWarning, match="pass its product token 'AI'"):
        assert robots.allowed("https://example.com/a", crawler.name)


def test_the_registry_holds_every_agent_of_the_ai_robots_txt_snapshot() -> None:
    """A8: all 166 agents of the August 2026 snapshot, 21 of them flagged as not product tokens;
    names compared case-insensitively, so the list's case variants are one entry each."""
    snapshot = json.loads((Path(crawlers.__file__).parent / "ai-robots-txt.json").read_text(encoding="utf-8"))
    names = list(snapshot["agents"])
    assert len(names) == len(COMMUNITY) == SNAPSHOT.agents == 166
    assert (SNAPSHOT.date, SNAPSHOT.licence) == ("2026-08-22", "MIT")
    assert "MIT License" in (Path(crawlers.__file__).parent / "ai-robots-txt.LICENSE").read_text()
    known = {crawler.name.lower() for crawler in CRAWLERS}
    assert {name.lower() for name in names} <= known
    flagged = sorted(c.name for c in COMMUNITY if not c.token_valid)
    assert len(flagged) == 21 and "Brightbot 1.0" in flagged and by_token("Brightbot 1.0").token == "Brightbot"  # type: ignore[union-attr]


def test_community_entries_read_the_lists_fields() -> None:
    """A8: obeys from the list's "respect" (yes / no / unclear), the operator without its Markdown
    link, the documented link as source, a purpose kind from the function."""
    [ai2] = [c for c in COMMUNITY if c.name == "AI2Bot"]
    assert (ai2.operator, ai2.obeys, ai2.kind, ai2.source) == ("Ai2", "yes", "ai-training", "https://allenai.org/crawler")
    [bytespider] = [c for c in COMMUNITY if c.name == "Bytespider"]
    assert (bytespider.obeys, bytespider.kind) == ("no", "ai-training")
    [addsearch] = [c for c in COMMUNITY if c.name == "AddSearchBot"]
    assert (addsearch.obeys, addsearch.operator, addsearch.kind) == ("unknown", "unknown", "ai-search")
    assert "knownagents" not in addsearch.purpose  # the list's pointer to a third-party page is dropped
    assert all(c.origin == "ai.robots.txt" for c in COMMUNITY)


def test_operator_documented_entries_come_first_and_win_over_the_list() -> None:
    """The list's "meta-externalagent" and "Meta-ExternalAgent" are the documented entry."""
    assert CRAWLERS[: len(DOCUMENTED)] == DOCUMENTED
    meta = [c for c in CRAWLERS if c.name.lower() == "meta-externalagent"]
    assert meta == [by_token("Meta-ExternalAgent")] and meta[0].origin == "robotrules"


def test_google_special_case_crawlers_ignore_the_global_group() -> None:
    """A8: AdsBot obeys only groups that name it (Google's special-case crawlers page)."""
    assert {"adsbot-google", "adsbot-google-mobile", "apis-google"} <= IGNORES_GLOBAL
    assert not by_token("Googlebot").ignores_global  # type: ignore[union-attr]
    assert by_token("Google-NotebookLM").obeys == "no"  # type: ignore[union-attr]  # a user-triggered fetcher


def test_lookup_by_token_ignores_case() -> None:
    """G3: tokens compare case-insensitively; a name is found first, then a token."""
    assert by_token("gptbot") is by_token("GPTBOT") is by_token("GPTBot")
    assert by_token("GPTBot").operator == "OpenAI"  # type: ignore[union-attr]
    assert by_token("NoSuchBot") is None
    assert by_token("ai2bot-dolma").name == "Ai2Bot-Dolma"  # type: ignore[union-attr]
    assert by_token("ai").name == "AI2Bot"  # type: ignore[union-attr]  # the first whose token it is


def test_search_looks_in_names_operators_purposes_and_kinds() -> None:
    assert {c.name for c in search("anthropic")} >= {"ClaudeBot", "Claude-User", "Claude-SearchBot", "anthropic-ai"}
    assert all(c.kind == "seo" or "seo" in c.purpose.lower() or "seo" in c.name.lower() for c in search("SEO"))
    assert search("") == CRAWLERS and search("no such crawler anywhere") == ()


def test_the_registry_is_plain_data() -> None:
    """Reused by batch audits: importing it pulls in no service, network or parser code."""
    for path in Path(crawlers.__file__).parent.glob("*.py"):
        source = path.read_text()
        assert "fastapi" not in source and "robotrules.service" not in source and "httpx" not in source, path
        assert "robotrules.core" not in source, path
    with pytest.raises(AttributeError):
        CRAWLERS[0].token = "x"  # type: ignore[misc]


def test_load_reads_crawlers_from_json(tmp_path: Path) -> None:
    path = tmp_path / "extra.json"
    rows = [{"token": "ExampleBot", "operator": "Example", "purpose": "Tests", "kind": "other",
             "source": "https://example.com/bot"}]
    path.write_text(json.dumps({"crawlers": rows}))
    assert load(path) == (Crawler("ExampleBot", "Example", "Tests", "other", "https://example.com/bot",
                                  origin="file"),)
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
    ('[{"operator": "o", "purpose": "p", "kind": "seo", "source": "https://x"}]', ".json", "missing field token"),
    ('[{"token": "X", "operator": "o", "purpose": "p", "kind": "seo", "source": "https://x", "obeys": "maybe"}]',
     ".json", "obeys"),
    ('[{"name": "2Bot", "operator": "o", "purpose": "p", "kind": "seo", "source": "https://x"}]', ".json",
     "no product token"),
    ('[{"token": "X", "operator": "o", "purpose": "p", "kind": "seo", "source": "https://x", "x": 1}]', ".json",
     "unknown field x"),
    ('[{"token": "X", "operator": "o", "purpose": "p", "kind": "seo", "source": "ftp://x"}]', ".json", "http(s) URL"),
    ('{"token": "X"}', ".json", "expected a list"),
    ("[1,", ".json", "not valid JSON"),
    ("token,operator,purpose,kind,source\nX,o,p,seo,https://x,extra\n", ".csv", "more values"),
    ("token,operator\nX,o\n", ".csv", "missing fields"),
    ("token,operator,purpose,kind,source,ignores_global\nX,o,p,seo,https://x,sometimes\n", ".csv", "ignores_global"),
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
    assert merged.index(mine) == CRAWLERS.index(by_token("GPTBot"))  # replaced in its place


def test_a_name_that_is_not_a_product_token_keeps_its_name_and_gets_googles_token() -> None:
    """G3: Crawler("Brightbot 1.0", ...) is named so and read as 'Brightbot'; a token that does
    not come from the name is refused."""
    crawler = Crawler("Brightbot 1.0", "Bright Data", "Training", "ai-training", "https://example.com")
    assert (crawler.name, crawler.token, crawler.token_valid) == ("Brightbot 1.0", "Brightbot", False)
    with pytest.raises(ValueError, match="not the token of its name"):
        Crawler("OtherBot", "o", "p", "seo", "https://x", name="Brightbot 1.0")


@pytest.mark.parametrize("form", ["json", "csv"])
def test_an_exported_registry_reads_back_the_same(tmp_path: Path, form: str) -> None:
    """What ``robotrules crawlers --format json|csv`` writes, --registry reads: every field kept."""
    path = tmp_path / f"registry.{form}"
    path.write_text(dumps(CRAWLERS, form), encoding="utf-8")
    assert load(path) == CRAWLERS


def test_a_newer_robots_json_of_the_list_loads_as_it_is_published(tmp_path: Path) -> None:
    """A registry file may be ai.robots.txt's robots.json itself, so the list can be refreshed
    without a release."""
    path = tmp_path / "robots.json"
    path.write_text(json.dumps({"NewBot/3.1": {"operator": "[New](https://new.example/bot)", "respect": "No",
                                               "function": "AI Search Crawlers", "frequency": "daily",
                                               "description": "A new one."}}))
    [crawler] = load(path)
    assert (crawler.name, crawler.token, crawler.obeys, crawler.kind, crawler.source, crawler.origin) == (
        "NewBot/3.1", "NewBot", "no", "ai-search", "https://new.example/bot", "ai.robots.txt")
    assert from_ai_robots_txt(json.loads(path.read_text())) == (crawler,)


def test_an_export_with_formula_like_or_hidden_characters_reads_back_the_same(tmp_path: Path) -> None:
    """CSV cells a spreadsheet would run get a leading quote, JSON writes C1 and bidi controls as
    escapes; both read back to the same entries."""
    odd = (Crawler("Evil\x1b]0;t\x07\u009b\u202e", "=cmd|' /C calc'!B2", "@x", "other", "https://x.example/",
                   origin="file"),
           Crawler("-Dash", "'+quoted", "p", "other", "https://x.example/", origin="file"))
    for form in ("csv", "json"):
        path = tmp_path / f"odd.{form}"
        path.write_text(dumps(odd, form), encoding="utf-8")
        assert load(path) == odd
    assert "\u009b" not in dumps(odd, "json") and "\\u009b\\u202e" in dumps(odd, "json")
    assert "'=cmd|" in dumps(odd, "csv") and "''+quoted" in dumps(odd, "csv") and "\n'-Dash," in dumps(odd, "csv")
    tabbed = Crawler("TabBot", "\t=x", "\rp", "other", "https://x.example/")  # made in Python: not stripped
    assert "'\t=x" in dumps([tabbed], "csv") and "'\rp" in dumps([tabbed], "csv")
