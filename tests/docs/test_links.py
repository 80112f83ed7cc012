"""Relative links in README.md and docs/ lead to files that exist (on GitHub and on the site).

Links to URLs (``https:``, ``mailto:``) and to anchors of the same page are not files; anchors
into other pages are checked by the strict site build (tests/docs/test_site_build.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ._citations import DOCS, ROOT

PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]

_FENCED = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
_INLINE = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
_HTML = re.compile(r"""\b(?:href|src)=["']([^"']+)["']""")


def links(markdown: str) -> list[str]:
    """Link targets of a Markdown page: inline, reference definitions and HTML, outside code."""
    prose = _CODE_SPAN.sub("", _FENCED.sub("", markdown))
    return _INLINE.findall(prose) + _REFERENCE.findall(prose) + _HTML.findall(prose)


def is_relative_file_link(target: str) -> bool:
    return not (re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target) or target.startswith(("#", "//")))


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_relative_links_point_to_existing_files(page: Path):
    """Each relative link of the page, without its #anchor, names a file or folder of the repository."""
    broken = []
    for target in links(page.read_text(encoding="utf-8")):
        if not is_relative_file_link(target):
            continue
        path = target.split("#", 1)[0].split("?", 1)[0]
        if path and not (page.parent / path).exists():
            broken.append(target)
    assert not broken, f"{page.relative_to(ROOT)}: links to missing files: {broken}"


def test_docs_link_into_the_site_not_out_of_it():
    """Relative links in docs/ stay inside docs/ (the site has no other files); use a GitHub URL instead."""
    outside = []
    for page in DOCS.rglob("*.md"):
        for target in links(page.read_text(encoding="utf-8")):
            path = target.split("#", 1)[0]
            if is_relative_file_link(target) and path:
                resolved = (page.parent / path).resolve()
                if DOCS.resolve() not in resolved.parents:
                    outside.append(f"{page.relative_to(ROOT)}: {target}")
    assert not outside, outside


def test_the_link_finder_sees_inline_reference_and_html_links_but_not_code():
    """The extraction itself: what counts as a link."""
    text = ('[a](x.md) ![i](img/p.png "t") [r][ref]\n\n[ref]: other.md\n<a href="h.md">h</a>\n'
            "`[c](code.md)`\n```\n[d](fenced.md)\n```\n")
    assert links(text) == ["x.md", "img/p.png", "other.md", "h.md"]
