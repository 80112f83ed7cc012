"""The import contract: layers import downward only, no module imports itself back through others.

Every ``import`` of robotrules in ``src/`` counts, wherever it stands: at the top, inside a
function, under ``TYPE_CHECKING`` (a circle hidden from the interpreter is still a circle for a
reader; no layer needs an exemption). ``from package import name`` is an import of
``package.name`` when that is a module, else of ``package``. The layers, from the bottom, as the
ranks of :data:`RANKS` (README "How it is built", docs/architecture.md); a module imports only
modules of its own rank or below::

    0  errors, _version             import nothing of robotrules
    1  core, _budget, _cells        errors only (and the standard library: tests/core checks that)
    2  hosts, crawlers, outcomes    the layers below
    3  answers, fetch, cache        the layers below
    4  client, diff                 the layers below
    5  batch, edit                  the layers below; batch never an engine built on it
    6  cli, __main__, service,      the surfaces, and the package's face (``robotrules``):
       compat, spark, robotrules    never imported by anything below them

A module whose name starts with an underscore is private to its package: only modules of that
package import it (the others go through the package's face). A name one package imports from
another is declared in its module's ``__all__``, and no private name (``_X``) crosses. Only
``core/rules.py`` packs and unpacks a rule's rank (its docstring names the two hot paths that
repeat its arithmetic inline). And no source module is longer than 500 lines (one idea
per module).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
PACKAGE = "robotrules"
SURFACES = ("robotrules.cli", "robotrules.__main__", "robotrules.service", "robotrules.compat", "robotrules.spark")
"""The surfaces; ``python -m robotrules`` (``__main__``) is the command line's."""
MOST_LINES = 500

RANKS: dict[str, int] = {
    "robotrules.errors": 0, "robotrules._version": 0,
    "robotrules.core": 1, "robotrules._budget": 1, "robotrules._cells": 1,
    "robotrules.hosts": 2, "robotrules.crawlers": 2, "robotrules.outcomes": 2,
    "robotrules.answers": 3, "robotrules.fetch": 3, "robotrules.cache": 3,
    "robotrules.client": 4, "robotrules.diff": 4,
    "robotrules.batch": 5, "robotrules.edit": 5,
    "robotrules.cli": 6, "robotrules.__main__": 6, "robotrules.service": 6, "robotrules.compat": 6,
    "robotrules.spark": 6, PACKAGE: 6,
}
"""The layer picture as ranks: a package or top-level module (its home) -> its rank. The key
``robotrules`` is the package's face (``__init__``) alone, not everything under it."""

RANK_LAYOUT = frozenset({"LINE_BITS", "LINE_MASK", "ALLOW_BIT", "PRIORITY_SHIFT", "PRIORITY_ONE"})
"""The bit layout of a rule's rank (core/rules.py): whoever imports these does rank arithmetic."""
RANK_HOT_PATHS = frozenset({"robotrules.core.model", "robotrules.core.robotstxt"})
"""The two hot paths core/rules.py names as repeating its arithmetic inline."""


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted((SRC / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> Iterator[tuple[str, int]]:
    """The robotrules modules ``path`` imports, with the line of each import."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == PACKAGE:
                    yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                candidate = f"{node.module}.{alias.name}"
                yield (candidate if candidate in MODULES else node.module), node.lineno


def _names(path: Path) -> Iterator[tuple[str, str, int]]:
    """The names ``path`` imports from robotrules modules (not modules themselves): (module, name, line)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] != PACKAGE:
                continue
            for alias in node.names:
                if f"{node.module}.{alias.name}" not in MODULES:
                    yield node.module, alias.name, node.lineno


def _declared(module: str) -> set[str] | None:
    """The names of ``module``'s ``__all__`` (None: it has none), read from its source."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"), str(MODULES[module]))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets):
            assert node.value is not None
            return set(ast.literal_eval(node.value))
    return None


GRAPH: dict[str, set[str]] = {
    module: {target for target, _ in _imports(path) if target != module} for module, path in MODULES.items()
}


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _home(module: str) -> str | None:
    """The key of :data:`RANKS` that holds ``module`` (the longest; ``robotrules`` only for itself)."""
    homes = [key for key in RANKS if module == key or (key != PACKAGE and _within(module, key))]
    return max(homes, key=len) if homes else None


def _rank(module: str) -> int:
    home = _home(module)
    assert home is not None, f"{module} has no layer in RANKS"
    return RANKS[home]


def _cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(GRAPH.get(node, ())):
            if target not in MODULES:
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(MODULES):
        if module not in index:
            visit(module)
    return found


def test_the_graph_is_read_from_the_sources() -> None:
    """The contract is checked on real imports: the client imports the answers, the CLI the client."""
    assert "robotrules.answers" in GRAPH["robotrules.client._base"]
    assert any(_within(target, "robotrules.client") for module in MODULES if _within(module, "robotrules.cli")
               for target in GRAPH[module])


def test_no_module_imports_itself_back_through_others() -> None:
    """No circle of imports between modules, counting imports under TYPE_CHECKING and inside functions."""
    assert _cycles() == []


def test_errors_imports_nothing_of_robotrules() -> None:
    """The error tree is the bottom layer: every module may raise its errors, it imports none of them."""
    assert sorted(GRAPH["robotrules.errors"]) == []


def test_the_core_imports_only_the_core_and_errors() -> None:
    """The sans-I/O core stands alone (DESIGN: a pure core, thin adapters around it)."""
    wrong = {(module, target) for module in MODULES if _within(module, "robotrules.core")
             for target in GRAPH[module]
             if not (_within(target, "robotrules.core") or target in ("robotrules.errors", PACKAGE))}
    assert not wrong


def test_batch_imports_no_engine_built_on_it_and_no_surface() -> None:
    """Engines register themselves (robotrules.batch.engine.registry): batch knows no Spark, no CLI, no service."""
    wrong = {(module, target) for module in MODULES if _within(module, "robotrules.batch")
             for target in GRAPH[module] if any(_within(target, surface) for surface in SURFACES)}
    assert not wrong


def test_no_lower_layer_imports_a_surface() -> None:
    """The CLI, the service, the drop-ins and the Spark engine are leaves: nothing below imports them."""
    wrong = {(module, target) for module in MODULES
             if not any(_within(module, surface) for surface in SURFACES)
             for target in GRAPH[module] if any(_within(target, surface) for surface in SURFACES)}
    assert not wrong


def test_every_module_has_a_layer() -> None:
    """A new package or top-level module is placed in the picture (RANKS) before it is imported."""
    assert [module for module in MODULES if _home(module) is None] == []
    assert [key for key in RANKS if not any(_home(module) == key for module in MODULES)] == []


def test_no_module_imports_a_higher_layer() -> None:
    """Each layer imports only its own rank and those below (the README's picture, as RANKS)."""
    wrong = {(module, target) for module in MODULES for target in GRAPH[module]
             if _rank(target) > _rank(module)}
    assert not wrong


def test_the_ranks_are_the_documented_picture() -> None:
    """The layers the docs draw agree with RANKS: surfaces on top, errors at the bottom."""
    assert RANKS["robotrules.errors"] == min(RANKS.values())
    assert all(RANKS[_home(surface) or ""] == max(RANKS.values()) for surface in SURFACES)
    assert RANKS["robotrules.core"] < RANKS["robotrules.answers"] < RANKS["robotrules.client"] < RANKS["robotrules.batch"]


def test_names_imported_across_packages_are_declared_in_all() -> None:
    """A name one package takes from another is part of that module's declared face, its ``__all__``."""
    wrong = {(module, f"{source}.{name}", line) for module, path in MODULES.items()
             for source, name, line in _names(path)
             if _home(source) != _home(module) and name not in (_declared(source) or set())}
    assert not wrong


def test_no_private_name_crosses_a_package() -> None:
    """A ``_name`` is its package's own: another package imports a public name (the token memo is
    ``answers.TOKENS``, not ``_TOKENS``)."""
    wrong = {(module, f"{source}.{name}", line) for module, path in MODULES.items()
             for source, name, line in _names(path)
             if _home(source) != _home(module) and name.startswith("_") and not name.startswith("__")}
    assert not wrong


def test_only_core_rules_does_rank_arithmetic() -> None:
    """core/rules.py packs and unpacks a rule's rank; others call its functions (``line_of``,
    ``is_allow``, ``priority_of``, ``disallows``), except the two hot paths its docstring names."""
    users = {module for module, path in MODULES.items()
             for _, name, _ in _names(path) if name in RANK_LAYOUT}
    users |= {module for module, path in MODULES.items()
              for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
              if isinstance(node, ast.Attribute) and node.attr in RANK_LAYOUT}
    assert users - {"robotrules.core.rules"} == RANK_HOT_PATHS


def test_private_modules_are_imported_only_within_their_package() -> None:
    """One privacy convention: ``_name`` modules are their package's own; other packages use its face."""
    wrong = set()
    for module in MODULES:
        for target in GRAPH[module]:
            last = target.rsplit(".", 1)[-1]
            if last.startswith("_") and not last.startswith("__"):
                package = target.rsplit(".", 1)[0]
                if not _within(module, package):
                    wrong.add((module, target))
    assert not wrong


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_source_module_is_over_500_lines(module: str) -> None:
    """One idea per module: a module that grows past 500 lines does two jobs."""
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{module}: {lines} lines"
