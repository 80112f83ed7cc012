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


def test_a_registry_nested_or_with_values_too_deep_or_long_to_read_is_one_line_and_exit_2(console_script, tmp_path):
    """A hostile registry file (200,000 nested arrays; a 200,000-character CSV value) is an input
    error like any malformed one: one line naming the file, exit 2, no traceback."""
    (tmp_path / "deep.json").write_text("[" * 200_000 + "]" * 200_000)
    (tmp_path / "long.csv").write_text("name,operator,purpose,kind,source\n"
                                       f"LongBot,{'x' * 200_000},p,other,https://example.com/\n")
    for name, complaint in (("deep.json", "nested too deeply"), ("long.csv", "line 2: a value longer than")):
        done = console_script("crawlers", "--registry", name)
        assert done.returncode == 2, (name, done.stderr[:300])
        assert TRACEBACK not in done.stderr
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("robotrules: error:"), done.stderr[:300]
        assert name in done.stderr and complaint in done.stderr, done.stderr


def test_a_csv_export_never_holds_a_cell_a_spreadsheet_runs_as_a_formula(console_script, tmp_path):
    """A registry entry starting with =, +, -, @, a tab or a carriage return is exported with a
    single quote before it (OWASP's CSV-injection advice), and reads back as it was."""
    starts = ["=cmd|' /C calc'!B2", "+1", "-2", "@SUM(A1)", "\tx", "\rx", "'=already quoted"]
    rows = [{"name": f"Bot{n}", "operator": start, "purpose": start, "kind": "other", "source": "https://x.example/"}
            for n, start in enumerate(starts)]
    rows.append({"name": "-DashBot", "operator": "plain", "purpose": "p", "kind": "other",
                 "source": "https://x.example/"})
    (tmp_path / "mine.json").write_text(json.dumps(rows))
    exported = console_script("crawlers", "--registry", "mine.json", "--replace", "--format", "csv")
    assert exported.returncode == 0, exported.stderr
    cells = [cell for row in csv.reader(io.StringIO(exported.stdout)) for cell in row]
    assert not [cell for cell in cells if cell[:1] in {"=", "+", "-", "@", "\t", "\r"}], cells
    assert "'=cmd|' /C calc'!B2" in cells and "'-DashBot" in cells and "''=already quoted" in cells
    (tmp_path / "back.csv").write_text(exported.stdout)
    back = json.loads(console_script("crawlers", "--registry", "back.csv", "--replace", "--json").stdout)["crawlers"]
    assert [(row["name"], row["operator"]) for row in back] == (
        [(f"Bot{n}", start.strip()) for n, start in enumerate(starts)] + [("-DashBot", "plain")])


def test_names_differing_only_in_case_are_one_crawler_with_or_without_replace(console_script, tmp_path):
    """Registry names compare without case, as Google compares product tokens: Dup, dup and DUP
    in one file are one entry, the last, whether the file extends the registry or replaces it
    (as a file's entry replaces a built-in one of the same name), and a note says so."""
    (tmp_path / "dup.csv").write_text("name,operator,purpose,kind,source\n"
                                      + "".join(f"{name},op {name},p,other,https://x.example/\n"
                                                for name in ("Dup", "dup", "DUP")))
    for extra in ((), ("--replace",)):
        done = console_script("crawlers", "dup", "--registry", "dup.csv", *extra, "--json")
        assert done.returncode == 0, done.stderr
        assert [(r["name"], r["operator"]) for r in json.loads(done.stdout)["crawlers"]] == [("DUP", "op DUP")]
        assert "names one crawler 3 times ('Dup', 'dup', 'DUP'" in done.stderr
        assert TRACEBACK not in done.stderr and not REQUIREMENT_ID.search(done.stderr)
