"""CSV cells that no spreadsheet runs as a formula, and read back exactly.

A cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is a formula to a
spreadsheet (``=cmd|' /C calc'!B2``), and the text in our tables comes from strangers (robots.txt
lines, URLs, a user's crawler registry). Such a cell gets a ``'`` in front, as spreadsheets expect
(OWASP's advice on CSV injection); so does one that starts with quotes and then one of those, so
that :func:`csv_value` takes off exactly what :func:`csv_cell` added. Parquet and JSONL keep values
as they are; only CSV is written this way.
"""

from __future__ import annotations

import re

__all__ = ["FORMULA_START", "csv_cell", "csv_value"]

FORMULA_START = "'*[=+\\-@\t\r]"
"""How a cell a spreadsheet would run as a formula starts, after any quotes written before it: a
regular expression that Python's ``re`` and Java's (Spark's ``rlike``) read alike."""

_FORMULA = re.compile(FORMULA_START)


def csv_cell(value: str) -> str:
    """``value`` as a CSV cell no spreadsheet runs as a formula (see the module)."""
    return "'" + value if _FORMULA.match(value) else value


def csv_value(value: str) -> str:
    """A cell :func:`csv_cell` wrote, read back: one leading ``'`` taken off a cell that is then
    (after any more quotes) one a spreadsheet would run as a formula."""
    return value[1:] if value.startswith("'") and _FORMULA.match(value, 1) else value
