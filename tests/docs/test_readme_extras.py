"""The README's table of extras names every extra of pyproject.toml, and only those.

A user chooses what to install from that table; an extra missing from it (``requests``,
``scrapy`` and ``docs`` once were) is a part nobody finds.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11 or later (tomllib)")

ROOT = Path(__file__).resolve().parents[2]


def _extras() -> set[str]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return set(tomllib.load(file)["project"]["optional-dependencies"])


def _readme_table() -> set[str]:
    """The first cells of the README's table whose header is ``| extra | brings | for |``."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    table = text.split("| extra | brings | for |", 1)[1].split("\n\n", 1)[0]
    return set(re.findall(r"^\| `([\w-]+)` \|", table, re.M))


def test_the_readme_names_every_extra_of_pyproject():
    """Every ``[project.optional-dependencies]`` entry has its row in the README's table of extras."""
    extras = _extras()
    assert {"http", "cli", "requests", "scrapy", "docs"} <= extras
    assert _extras() - _readme_table() == set(), "extras the README's table leaves out"


def test_the_readme_names_no_extra_that_does_not_exist():
    """A row of the table is an extra pip can install."""
    assert _readme_table() - _extras() == set()
