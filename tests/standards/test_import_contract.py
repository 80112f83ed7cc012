"""The import contract: layers import downward only, no module imports itself back through others.

Every ``import`` of robotrules in ``src/`` counts, wherever it stands: at the top, inside a
function, under ``TYPE_CHECKING`` (a circle hidden from the interpreter is still a circle for a
reader). ``from package import name`` is an import of ``package.name`` when that is a module, else
of ``package``. The layers, from the bottom (DESIGN's picture, docs/architecture.md)::

    errors                      imports nothing of robotrules
    core                        errors only (and the standard library: tests/core checks that)
    answers, hosts, crawlers,   the layers below
    outcomes
    fetch, cache, client, diff  the layers below
    batch                       the layers below; never an engine built on it, nor a surface
    cli, service, compat, spark the surfaces: never imported by anything below them

A module whose name starts with an underscore is private to its package: only modules of that
package import it (the others go through the package's face). And no source module is longer
than about 600 lines (one idea per module).
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
MOST_LINES = 600


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


GRAPH: dict[str, set[str]] = {
    module: {target for target, _ in _imports(path) if target != module} for module, path in MODULES.items()
}


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


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
    """Engines register themselves (robotrules.batch.engines): batch knows no Spark, no CLI, no service."""
    wrong = {(module, target) for module in MODULES if _within(module, "robotrules.batch")
             for target in GRAPH[module] if any(_within(target, surface) for surface in SURFACES)}
    assert not wrong


def test_no_lower_layer_imports_a_surface() -> None:
    """The CLI, the service, the drop-ins and the Spark engine are leaves: nothing below imports them."""
    wrong = {(module, target) for module in MODULES
             if not any(_within(module, surface) for surface in SURFACES)
             for target in GRAPH[module] if any(_within(target, surface) for surface in SURFACES)}
    assert not wrong


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
def test_no_source_module_is_over_600_lines(module: str) -> None:
    """One idea per module: a module that grows past about 600 lines does two jobs (issue #17)."""
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MOST_LINES, f"{module}: {lines} lines"
