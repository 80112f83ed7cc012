"""The batch row: its columns and their types, declared once, and the Arrow and Spark schemas
derived from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

__all__ = ["COLUMNS", "FIELDS", "FieldType", "Row", "arrow_schema", "spark_schema"]

FieldType = Literal["string", "bool", "int32", "double"]
"""The types of the batch and audit tables' columns (nullable, as Arrow and Spark types are)."""

FIELDS: tuple[tuple[str, FieldType], ...] = (
    ("url", "string"),
    ("agent", "string"),
    ("allowed", "bool"),
    ("line", "int32"),
    ("rule", "string"),
    ("robots_url", "string"),
    ("robots_status", "int32"),
    ("reason", "string"),
    ("robots_outcome", "string"),
)
"""The batch output's columns and their types, declared once: every engine, table format and
schema (:func:`arrow_schema`, :func:`spark_schema`) follows it. ``allowed`` may be null.
``robots_outcome`` is :attr:`Governing.outcome` of the robots.txt that governs the row: what its
latest fetch (or capture) got, in Common Crawl's classes (:data:`robotrules.outcomes.OUTCOMES`),
beside the policy's verdict (F2-F8)."""

COLUMNS: tuple[str, ...] = tuple(name for name, _ in FIELDS)
"""The columns of every batch output, in order."""

Row = tuple[str, str, "bool | None", int, str, str, int, str, str]
"""One output row, in the order of :data:`COLUMNS`. ``allowed`` is None when nothing is known of
the site (no capture of its robots.txt), the URL has no robots.txt (not http, https or ftp), or
the row has no URL (an empty or missing cell: the row is kept, so that rows line up with the input).
``robots_outcome`` is "no_capture" when nothing is known of the site (never captured, no source
for it, or a robots.txt URL the client refused), and "" for a row with no URL or a URL with no
robots.txt: there is no robots.txt to have fetched, so no class applies (as ``robots_url`` is "")."""

_ARROW_TYPES = {"string": "string", "bool": "bool_", "int32": "int32", "double": "float64"}
_SPARK_TYPES = {"string": "string", "bool": "boolean", "int32": "int", "double": "double"}


def arrow_schema(pyarrow: Any, fields: Sequence[tuple[str, str]] = FIELDS) -> Any:
    """The Arrow schema of ``fields`` (default :data:`FIELDS`; name and :data:`FieldType`), made
    with the ``pyarrow`` module given (an optional extra)."""
    return pyarrow.schema([(name, getattr(pyarrow, _ARROW_TYPES[kind])()) for name, kind in fields])


def spark_schema(fields: Sequence[tuple[str, str]] = FIELDS) -> str:
    """The Spark DDL schema of ``fields`` (default :data:`FIELDS`): ``"url string, agent string, ..."``."""
    return ", ".join(f"{name} {_SPARK_TYPES[kind]}" for name, kind in fields)
