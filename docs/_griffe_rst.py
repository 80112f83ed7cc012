"""Griffe extension for the API reference: reStructuredText bits of the docstrings, as Markdown.

The docstrings are written for people reading the source: prose with ``literals`` (already valid
Markdown code spans), Sphinx roles such as :class:`RobotsTxt` and literal blocks introduced by
``::``. mkdocstrings renders Markdown, where a role would show as ":class:" text. This extension
rewrites, in the docstrings only (never the source):

- a role (``:class:``, ``:func:``, ``:meth:``, ``:attr:``, ``:mod:``, ``:data:``, ``:exc:``,
  ``:obj:``) into a code span of its target; ``~pkg.mod.Name`` shows as ``Name``, as in Sphinx;
- a paragraph ending in ``::`` into one ending in ``:`` (the indented block after it is already
  a Markdown code block).

Loaded by mkdocs.yml (``extensions: [docs/_griffe_rst.py]``); excluded from the site's pages.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|attr|mod|data|exc|obj|const):`(~?)([^`]+)`")
_LITERAL_BLOCK = re.compile(r"(?<=\S)::[ \t]*$", re.MULTILINE)


def _role(match: re.Match[str]) -> str:
    short, target = match.group(1), match.group(2).strip()
    if short:
        target = target.rsplit(".", 1)[-1]
    return f"`{target}`"


def rst_to_markdown(text: str) -> str:
    """The docstring ``text`` with roles as code spans and ``::`` paragraph ends as ``:``."""
    return _LITERAL_BLOCK.sub(":", _ROLE.sub(_role, text))


class RstRoles(griffe.Extension):
    """Rewrite every docstring of the loaded package once it is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Every object below the package (griffe does not pass the package itself here)."""
        _rewrite(obj)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        """The package's own docstring."""
        _rewrite(pkg)


def _rewrite(obj: griffe.Object) -> None:
    if obj.docstring is not None:
        obj.docstring.value = rst_to_markdown(obj.docstring.value)
