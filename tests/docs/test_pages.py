"""What the documentation pages state holds: the examples run, the lint table is the linter's.

Code blocks marked ``python`` in docs/ run as written, offline; examples that need the network
are marked ``py`` and are not run here (the README's client example runs against a local server
in tests/client/test_readme_client.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import robotrules
from tests.cli.harness import cli_environment, in_process

from ._citations import DOCS, ROOT

_PYTHON = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)

EXAMPLES = [
    pytest.param(page, index, code, id=f"{page.relative_to(ROOT)}#{index}")
    for page in sorted(DOCS.rglob("*.md"))
    for index, code in enumerate(_PYTHON.findall(page.read_text(encoding="utf-8")), 1)
]


def test_the_docs_have_python_examples():
    """The pages' examples are found (a broken pattern would skip them all)."""
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize(("page", "index", "code"), EXAMPLES)
def test_python_example_runs_as_written(page: Path, index: int, code: str, tmp_path, monkeypatch):
    """Each ``python`` block of docs/ runs, with its assertions, in a fresh namespace."""
    monkeypatch.chdir(tmp_path)
    exec(compile(code, f"{page.relative_to(ROOT)} (example {index})", "exec"), {"__name__": "__docs__"})


def test_lint_codes_table_lists_exactly_the_linters_codes():
    """docs/guides/lint.md has one row per code of robotrules.CODES, with its severity and a last
    column naming the requirement behind it (the messages themselves cite no ids)."""
    page = (DOCS / "guides" / "lint.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z0-9-]+)` \| (error|warning|info) \| (.*) \|$", page, re.MULTILINE)
    documented = {code: severity for code, severity, _ in rows}
    assert len(rows) == len(documented), "a code is listed twice"
    assert documented == {code: severity for code, (severity, _) in robotrules.CODES.items()}
    for code, _, meaning in rows:
        source = meaning.rsplit("|", 1)[-1].strip()
        requirement = r"\[([SFCPGRNAL][0-9]+)\]\(\.\./requirements\.md#\1\)"
        assert re.fullmatch(f"{requirement}|Google's parser|\\[Modes\\]\\(modes\\.md\\)", source), \
            f"{code}: the last column should link the requirement behind it, not {source!r}"
        assert not re.search(r"\b[SFCPGRNAL][0-9]+\b", robotrules.CODES[code][1]), f"{code}: the message cites an id"


@pytest.mark.parametrize("command", ["check", "test", "lint", "diff", "fetch", "robots-url", "serve", "demo", "crawlers", "edit"])
def test_command_line_page_documents_every_option(command: str, tmp_path: Path):
    """docs/guides/cli.md has a section for each command and names each of its long options."""
    pytest.importorskip("click", reason="the command line is the cli extra")
    done = in_process([command, "--help"], cwd=tmp_path, env=cli_environment(tmp_path), timeout=60)
    assert done.returncode == 0, done.stderr
    options = set(re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", done.stdout)) - {"--help"}
    page = (DOCS / "guides" / "cli.md").read_text(encoding="utf-8")
    assert f"## `robotrules {command}`" in page
    section = page.split(f"## `robotrules {command}`", 1)[1].split("\n## ", 1)[0]
    assert sorted(option for option in options if f"`{option}" not in section and f" {option}" not in section) == []
