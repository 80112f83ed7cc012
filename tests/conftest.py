"""Suite-wide guard: a run that is meant to test the compiled core must really import it."""

from __future__ import annotations

import os

import robotrules


def pytest_report_header() -> str:
    build = "mypyc-compiled" if robotrules.COMPILED else "pure Python"
    return f"robotrules core: {build} ({os.path.dirname(robotrules.__file__)})"


def pytest_sessionstart(session) -> None:  # type: ignore[no-untyped-def]
    if os.environ.get("ROBOTRULES_EXPECT_COMPILED") == "1" and not robotrules.COMPILED:
        raise RuntimeError("ROBOTRULES_EXPECT_COMPILED=1 but the pure-Python core was imported")
