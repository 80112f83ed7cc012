"""``robotrules crawlers`` lists, searches and exports the registry (A8), through the installed
console script as a real process."""

from __future__ import annotations

import csv
import io
import json

from robotrules.crawlers import CRAWLERS

from .conftest import REQUIREMENT_ID, TRACEBACK


def test_a_search_lists_matching_crawlers_with_purpose_operator_and_robots_txt_stance(console_script):
    done = console_script("crawlers", "anthropic")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("ClaudeBot ") and "AI training; Anthropic; obeys robots.txt" in line for line in lines)
    assert not REQUIREMENT_ID.search(done.stdout + done.stderr)


def test_names_that_are_not_product_tokens_show_the_token_google_reads(console_script):
    """G3: 'AI2Bot' is read as 'AI'; the footer says how many such names were listed."""
    done = console_script("crawlers", "ai2bot")
    assert "AI2Bot" in done.stdout and "(read as 'AI')" in done.stdout
    assert "not a product token" in done.stderr and "ai.robots.txt (2026-08-22 snapshot, MIT licence)" in done.stderr


def test_kind_and_obeys_filter_and_json_exports_every_field(console_script):
    done = console_script("crawlers", "--kind", "ai-assistant", "--obeys", "no", "--json")
    rows = json.loads(done.stdout)["crawlers"]
    assert rows and all(r["kind"] == "ai-assistant" and r["obeys"] == "no" for r in rows)
    assert {"Perplexity-User", "Google-NotebookLM"} <= {r["name"] for r in rows}
    assert set(rows[0]) == {"name", "token", "token_valid", "operator", "purpose", "kind", "source", "obeys",
                            "ignores_global", "origin"}


def test_a_csv_export_extends_or_replaces_the_registry_through_registry(console_script, tmp_path):
    """An exported file is a registry: --registry adds it (a known name replaced in place),
    --replace uses it alone."""
    exported = console_script("crawlers", "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(exported.stdout)))
    assert len(rows) == len(CRAWLERS)
    (tmp_path / "mine.csv").write_text("name,operator,purpose,kind,source,ignores_global\n"
                                       "ExampleBot/2.0,Example,Tests,seo,https://example.com/bot,true\n")
    extended = json.loads(console_script("crawlers", "--registry", "mine.csv", "--json").stdout)["crawlers"]
    assert len(extended) == len(CRAWLERS) + 1
    assert extended[-1] == {"name": "ExampleBot/2.0", "token": "ExampleBot", "token_valid": False,
                                 "operator": "Example", "purpose": "Tests", "kind": "seo",
                                 "source": "https://example.com/bot", "obeys": "unknown", "ignores_global": True,
                                 "origin": "file"}
    replaced = console_script("crawlers", "--registry", "mine.csv", "--replace")
    assert replaced.stdout.startswith("ExampleBot/2.0") and len(replaced.stdout.splitlines()) == 1


def test_a_bad_registry_file_or_option_is_one_line_and_exit_2(console_script, tmp_path):
    (tmp_path / "bad.json").write_text('[{"token": "X", "operator": "o", "purpose": "p", "kind": "robot", '
                                       '"source": "https://x"}]')
    for args in (("--registry", "bad.json"), ("--registry", "missing.csv"), ("--replace",),
                 ("--json", "--format", "csv"), ("--kind", "spaceship")):
        done = console_script("crawlers", *args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert TRACEBACK not in done.stderr and done.stderr.startswith("robotrules: error:"), done.stderr
        assert not REQUIREMENT_ID.search(done.stderr), done.stderr


def test_nothing_matching_is_said_plainly_with_exit_0(console_script):
    done = console_script("crawlers", "no such crawler anywhere")
    assert done.returncode == 0 and done.stdout.strip() == "no crawler matches 'no such crawler anywhere'"
