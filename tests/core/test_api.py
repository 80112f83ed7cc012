"""The public surface other tools rely on (DESIGN "Public names") and the core's purity."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

import robotrules

CORE = Path(robotrules.__file__).parent / "core"

EXPECTED_ALL = [
    "CODES", "MODES",
    "AddressPolicy", "AsyncFetcher", "AsyncRobotsClient", "BlockedAddress", "CheckResult", "ContentUsage", "Decision",
    "Diagnostic", "Extension", "Fetcher", "Group", "InvalidURL", "MemoryStore", "MissingExtra", "Policy", "RedisStore",
    "RequestRate", "RobotsClient", "RobotsDisallowed", "RobotsError", "RobotsInputWarning", "RobotsState", "RobotsTxt", "Rule", "SQLiteStore",
    "Statement", "Store", "StoreError", "UnsupportedScheme", "Usage",
    "combine", "lint", "parse", "parse_statement", "robots_scope", "robots_url", "same_scope", "user_agent_token",
]
"""Constants, then classes, then functions, each sorted (ruff's RUF022 keeps the source in this order)."""


def test_public_names_are_pinned_and_sorted():
    """DESIGN: __all__ is sorted (constants, classes, functions) and changes only on purpose."""
    assert robotrules.__all__ == EXPECTED_ALL
    kinds = [0 if name.isupper() else 1 if name[0].isupper() else 2 for name in robotrules.__all__]
    assert kinds == sorted(kinds)
    for kind in (0, 1, 2):
        names = [name for name, k in zip(robotrules.__all__, kinds, strict=True) if k == kind]
        assert names == sorted(names)
    for name in robotrules.__all__:
        assert hasattr(robotrules, name), name


MOVED = {"COMPILED": "robotrules.core", "SIZE_LIMIT": "robotrules.core.policy", "AgentRules": "robotrules.core.robotstxt",
         "Entry": "robotrules.core.policy", "Scope": "robotrules.core.urls", "is_robots_url": "robotrules.core.urls",
         "path_params_query": "robotrules.core.urls"}


@pytest.mark.parametrize(("name", "home"), sorted(MOVED.items()))
def test_names_moved_off_the_face_still_import_with_a_deprecation_warning(name, home):
    """Issue #17: the face was trimmed to the contract; a name users may import today still works,
    warning where it lives now, and is the very object of its home."""
    import importlib

    with pytest.warns(DeprecationWarning, match=home.replace(".", r"\.")):
        value = getattr(robotrules, name)
    assert value is getattr(importlib.import_module(home), name)
    assert name not in robotrules.__all__


FORBIDDEN = {"socket", "ssl", "http", "ftplib", "sqlite3", "time", "datetime", "asyncio", "threading",
             "subprocess", "os", "io", "urllib.request", "random"}


@pytest.mark.parametrize("module", sorted(p.name for p in CORE.glob("*.py")))
def test_core_imports_only_the_standard_library_and_no_io(module):
    """DESIGN: core/ is stdlib only, with no sockets, files, clocks or databases."""
    tree = ast.parse((CORE / module).read_text())
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        for name in names:
            top = name.split(".")[0]
            if top == "robotrules":
                assert name.startswith("robotrules.core"), f"{module} imports {name}"
                continue
            assert top in sys.stdlib_module_names or top == "__future__", f"{module} imports {name}"
            assert name not in FORBIDDEN and top not in FORBIDDEN, f"{module} imports {name} (I/O or clock)"


def _core_imports(module: str) -> set[str]:
    """The robotrules.core modules that core/<module>.py imports, TYPE_CHECKING imports included."""
    tree = ast.parse((CORE / module).read_text())
    return {node.module for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("robotrules.core.")}


def test_the_matcher_does_not_import_the_model_and_rules_import_no_core_module():
    """Issue #7: the model builds on the matcher, never the other way round (not even for
    types); rules.py, the one definition of the rank (R6), depends on no other core module."""
    assert "robotrules.core.model" not in _core_imports("matcher.py")
    assert _core_imports("rules.py") == set()


def test_decision_is_exported_from_the_module_that_makes_it():
    """DESIGN "Public names": robotrules.Decision is what check() returns, defined in robotstxt."""
    from robotrules.core.robotstxt import Decision

    assert robotrules.Decision is Decision
    assert type(robotrules.parse(b"").check("/", "a")) is Decision


def test_unknown_mode_is_a_clear_value_error():
    with pytest.raises(ValueError, match="expected one of google, legacy1994, rfc9309"):
        robotrules.parse(b"", mode="strict")


def test_body_of_the_wrong_type_is_a_type_error():
    """A clear TypeError naming the types (the compiled core words it as mypyc does)."""
    with pytest.raises(TypeError, match=r"bytes or str|union\[bytes, str\] object expected"):
        robotrules.parse(123)  # type: ignore[arg-type]


def test_agent_of_the_wrong_type_is_a_type_error():
    rt = robotrules.parse(b"user-agent: *\ndisallow: /\n")
    with pytest.raises(TypeError, match=r"user_agent must be str|str object expected; got bytes"):
        rt.check("/x", [b"googlebot"])  # type: ignore[list-item]


def test_parsed_objects_are_immutable():
    """DESIGN 8: nothing a reader can reach changes after parse()."""
    rt = robotrules.parse(b"user-agent: *\ndisallow: /a\n")
    with pytest.raises(AttributeError):
        rt.mode = "rfc9309"  # type: ignore[misc]
    group = rt.groups[0]
    with pytest.raises(AttributeError):
        group.line = 3  # type: ignore[misc]
    rt.sitemaps.append("x")  # a copy
    assert rt.sitemaps == []
