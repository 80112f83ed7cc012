"""Tables as inputs: tables of robots.txt captures (Parquet, CSV, JSON Lines) and tables or
lists of URLs to decide, streamed."""

from __future__ import annotations

from robotrules.batch.inputs.tables.captures import capture_of_row, read_table_captures
from robotrules.batch.inputs.tables.rows import table_rows
from robotrules.batch.inputs.tables.urls import count_urls, read_items, read_urls

__all__ = [
    "capture_of_row",
    "count_urls",
    "read_items",
    "read_table_captures",
    "read_urls",
    "table_rows",
]
