"""pandas DataFrames of declared columns: the one conversion from a table's fields (name and
:data:`~robotrules.answers.FieldType`) to pandas' column types, for batch rows and audits alike."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

__all__ = ["typed_frame"]

_PANDAS_TYPES = {"int32": "int64", "double": "float64", "bool": "boolean"}
"""A field's pandas type: integers as int64, doubles as float64 (NaN when missing), booleans
nullable (pandas' ``boolean``); strings stay as they are."""


def typed_frame(frame: Any, fields: Sequence[tuple[str, str]], *, never_null: Collection[str] = ()) -> Any:
    """``frame`` (a pandas DataFrame, whichever engine made it) with the types of ``fields``;
    the boolean columns named in ``never_null`` are plain ``bool`` (they are never missing)."""
    for column, kind in fields:
        wanted = bool if kind == "bool" and column in never_null else _PANDAS_TYPES.get(kind)
        if wanted is not None:
            frame[column] = frame[column].astype(wanted)
    return frame
