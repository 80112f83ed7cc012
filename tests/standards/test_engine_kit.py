"""The engine contract: what an engine may import from the batch package is declared once, and pinned.

An engine (robotrules' Spark engine) reuses the local engine's code to give the same rows, audits
and errors; :mod:`robotrules.batch.kit` is the one door it goes through. These tests read the
engine's sources (every import counts: at the top, inside a function, under ``TYPE_CHECKING``),
so a change to what the engine needs of the batch package shows up here, without a JVM.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from robotrules.batch import kit

SPARK = Path(__file__).resolve().parents[2] / "src" / "robotrules" / "spark"

KIT = [
    "AUDIT_COLUMNS",
    "AUDIT_FIELDS",
    "DEFAULT_CACHE",
    "NO_ROBOTS",
    "NO_URL",
    "PREFERENCE_COLUMNS",
    "Archive",
    "ArchiveSource",
    "AuditJob",
    "BadRecord",
    "Capture",
    "DamagedArchive",
    "LiveSource",
    "PreferenceReader",
    "RunJob",
    "SiteKey",
    "SourceError",
    "Summary",
    "capture_of_row",
    "capture_paths",
    "checked_agents",
    "classify_jobs",
    "governing",
    "governing_columns",
    "ignoring_at",
    "job_of",
    "live_rows",
    "no_url",
    "read_captures",
    "redirected_away",
    "register",
    "robots_url_of",
    "row_columns",
    "row_fields",
    "site_key",
    "site_keys",
    "source_files",
    "verdict_of",
    "with_skipped",
]
"""The kit, as declared: changing it is changing the engine contract, on purpose."""


def _batch_imports() -> Iterator[tuple[str, str, str, int]]:
    """Every (file, module, name, line) of an import of the batch package in the Spark engine
    (name "" for ``import robotrules.batch...``)."""
    for path in sorted(SPARK.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name == "robotrules.batch" or alias.name.startswith("robotrules.batch."):
                        yield path.name, alias.name, "", node.lineno
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and (
                    node.module == "robotrules.batch" or node.module.startswith("robotrules.batch.")):
                for alias in node.names:
                    yield path.name, node.module, alias.name, node.lineno


def test_the_kit_is_exactly_the_declared_names() -> None:
    """The kit's ``__all__`` is the declared list (sorted: constants, classes, functions), and each
    name is there to import."""
    assert kit.__all__ == KIT
    assert [name for name in KIT if not hasattr(kit, name)] == []


def test_the_spark_engine_imports_nothing_of_batch_outside_the_kit() -> None:
    """Every import of the batch package in robotrules.spark is of a kit name, from the kit."""
    found = list(_batch_imports())
    assert found, "the Spark engine's imports were not read"
    wrong = [(file, module, name, line) for file, module, name, line in found
             if module != "robotrules.batch.kit" or name not in KIT]
    assert wrong == []


def test_every_kit_name_is_used_by_an_engine() -> None:
    """The kit is no wider than what the engine uses: a name it no longer imports leaves the kit."""
    used = {name for _, _, name, _ in _batch_imports()}
    assert sorted(set(KIT) - used) == []


def test_the_kit_is_not_imported_by_the_batch_package() -> None:
    """The kit is the engines' door, not the batch package's wiring: nothing in batch imports it
    (so it may import all of batch, the registry included, without a circle)."""
    batch = SPARK.parent / "batch"
    wrong = []
    for path in sorted(batch.glob("*.py")):
        if path.name == "kit.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and (node.module == "robotrules.batch.kit" or (
                    node.module == "robotrules.batch" and any(alias.name == "kit" for alias in node.names))):
                wrong.append((path.name, node.lineno))
    assert wrong == []
