"""The migration guide (docs/guides/migration.md) is all runnable examples, one or more per library.

tests/docs/test_pages.py runs every ``python`` block of docs/ as written; this pins that the
guide has no example left out of that run (a ``py`` or unmarked block) and covers every library
issue #10 names.
"""

from __future__ import annotations

import re
from pathlib import Path

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guides" / "migration.md"
SECTIONS = ["From urllib.robotparser", "From Protego", "From Scrapy's default", "From reppy", "From robotspy",
            "From plain httpx or requests"]


def test_every_code_block_of_the_migration_guide_is_run() -> None:
    """Each fenced block is ``python`` (run by tests/docs/test_pages.py), never ``py`` or bare."""
    fences = re.findall(r"^```(\w*)$\n.*?^```$", GUIDE.read_text(encoding="utf-8"), re.MULTILINE | re.DOTALL)
    assert fences and set(fences) == {"python"}, fences


def test_each_library_has_its_section_with_a_runnable_example() -> None:
    """urllib.robotparser, Protego, Scrapy's default, reppy, robotspy, httpx/requests: a section each, each with code."""
    page = GUIDE.read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", page, re.MULTILINE)
    assert headings == SECTIONS
    for heading, section in zip(SECTIONS, re.split(r"^## .+$", page, flags=re.MULTILINE)[1:], strict=True):
        assert "```python" in section, f"{heading}: no runnable example"


def test_the_guide_links_the_pages_of_the_other_parts() -> None:
    """The Scrapy and guard guides and the differences table are linked from the guide."""
    page = GUIDE.read_text(encoding="utf-8")
    for target in ("(scrapy.md)", "(guards.md)", "(robotparser.md#differences)"):
        assert target in page, target
