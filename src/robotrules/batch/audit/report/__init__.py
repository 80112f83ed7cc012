"""The audit as one self-contained HTML page: plots and tables a person can read."""

from __future__ import annotations

from robotrules.batch.audit.report.page import render_report, write_report

__all__ = [
    "render_report",
    "write_report",
]
