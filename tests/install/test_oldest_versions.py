"""The oldest versions ``pyproject.toml`` allows install, and the drop-ins and engines pass on them.

CI installs the newest release of every dependency, so a floor such as ``scrapy>=2.11`` is a
promise nothing else checks. This test builds one fresh environment as a user does (``pip
install`` of a clean copy of the source with pip's isolated build; the pure-Python core,
``ROBOTRULES_PURE=1``, as the other pure install of tests/install: the suites here test the
dependencies, not the compiled core) with the extras the suites need, under a constraints file
that pins every ``>=`` floor of the runtime requirements exactly. ``pip freeze`` then shows
that the floors are what was installed, and the drop-in suites (tests/compat) and the engines'
suites (the clients and fetchers over httpx, the local batch engine, the Spark engine) run
inside it.

One source of truth: the pins are read from ``pyproject.toml`` (:func:`floors`), never copied.
:data:`TRANSITIVE` pins what the floors need of packages robotrules does not declare, each with
its reason. The test-only packages (pytest, hypothesis, pyftpdlib) are the newest releases:
only the runtime floors are pinned. A floor that cannot be installed, or whose suites fail,
is a wrong floor: raise it in ``pyproject.toml`` to the oldest release that passes.

Slow (one environment, about 450 MB of wheels on a cold pip cache, pyspark's two thirds of it): marked
``packaging``. Needs network access to the package index, or its cache.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.install.test_install_as_user import ROOT, Venv, _clean_copy, _user_env

tomllib = pytest.importorskip("tomllib", reason="reading pyproject.toml needs Python 3.11 or later (tomllib)")

pytestmark = pytest.mark.packaging

NOT_RUNTIME = frozenset({"test", "docs", "bench", "fuzz"})
"""Extras of tools for working on robotrules, not of what its users run: their floors are not pinned."""

EXTRAS = ("http", "cli", "requests", "scrapy", "audit", "spark", "redis")
"""The extras installed: what the suites below import (``audit`` is ``batch`` and matplotlib).

``spark``: pyspark is published as an sdist only (pyspark 3.5.0: 302 MB, built into a 317 MB
wheel in about 80 s on a cold pip cache; pip keeps the wheel in its cache after that), and the
Spark tests below take about a minute on a local JVM. The floor stays tested rather than raised
to what CI installs: pyspark 4.3 needs Python 3.11, and robotrules supports 3.10."""

SUITES = (
    "tests/compat",  # the drop-ins: Scrapy (and Twisted), requests, httpx, urllib.robotparser
    # the clients and fetchers over httpx and anyio, and the Redis store
    "tests/client/test_client.py",
    "tests/fetch/test_fetchers.py", "tests/fetch/test_http_clients.py", "tests/fetch/test_http_limits.py",
    "tests/fetch/test_http_failures.py", "tests/fetch/test_addresses.py",
    # the local batch engine: pandas and pyarrow tables, warcio captures, rich's bar, click, matplotlib
    "tests/batch/test_engine.py", "tests/batch/test_tables.py", "tests/batch/test_preferences.py",
    "tests/batch/test_archive_index.py", "tests/batch/test_replay.py", "tests/batch/test_bounded_bodies.py",
    "tests/batch/test_progress.py", "tests/batch/test_audit_command.py",
    # the Spark engine: its rows equal the local engine's (a JVM start is most of its cost: one test)
    "tests/spark/test_spark_engine.py::test_spark_rows_equal_the_in_process_decision_for_every_status_redirect_and_agent",
)
"""The drop-ins' suites whole, and of the engines' suites the files that exercise the
dependencies' APIs (the rest test robotrules' own logic, which the versions do not change; the
fleet of processes, the command's Spark run and the second Spark job cost time and test no
dependency more). The
audit report in Chromium is left out by marker (:data:`MARKERS`)."""

MARKERS = "not packaging and not browser and not slow"
"""The audit report in Chromium (``browser``) needs Playwright, which this environment leaves out;
``slow`` tests measure memory and time, not the dependencies."""

TEST_ONLY = ("pytest>=8", "hypothesis>=6.100", "pyftpdlib>=1.5", "jwm.robotstxt>=1.0.8")
"""What the suites need beside robotrules and its extras: the newest releases, not pinned."""

TRANSITIVE = {
    "numpy": ("<2", ("pandas 2.0, pyarrow 14 and matplotlib 3.8 were built against NumPy 1's ABI and declare "
                     "no upper bound: NumPy 2 makes them fail at import")),
    "w3lib": ("<2.5", ("Scrapy 2.11 imports w3lib.url._safe_chars, which w3lib 2.5 removed, and declares "
                       "no upper bound")),
}
"""Pins of packages robotrules does not declare, that its floors need to install or import:
name -> (specifier, why). (Twisted needs none: Scrapy 2.11 itself asks for Twisted < 23.8.)"""


def _load_pyproject() -> dict[str, object]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        project: dict[str, object] = tomllib.load(file)["project"]
    return project


def _runtime_requirements(project: dict[str, object], extras: tuple[str, ...] | None = None) -> list[Requirement]:
    """The requirements of a bare install plus those of ``extras`` (None: every runtime extra),
    without those whose environment marker excludes this platform."""
    groups: dict[str, list[str]] = project["optional-dependencies"]  # type: ignore[assignment]
    chosen = [name for name in groups if name not in NOT_RUNTIME] if extras is None else list(extras)
    lines = list(project["dependencies"]) + [line for name in chosen for line in groups[name]]  # type: ignore[call-overload]
    environment = dict(default_environment())
    return [req for req in map(Requirement, lines) if req.marker is None or req.marker.evaluate(environment)]


def floors(project: dict[str, object], extras: tuple[str, ...] | None = None) -> dict[str, Version]:
    """Each runtime requirement's ``>=`` floor, by canonical name: what the constraints pin.

    Every runtime requirement states one floor (a floor nobody states is one nobody tests), and
    a package named by several extras has the same floor in each (one install cannot pin two)."""
    found: dict[str, Version] = {}
    for req in _runtime_requirements(project, extras):
        lows = [Version(spec.version) for spec in req.specifier if spec.operator == ">="]
        assert len(lows) == 1, f"{req}: a runtime requirement states exactly one '>=' floor"
        name = canonicalize_name(req.name)
        assert found.setdefault(name, lows[0]) == lows[0], f"{name}: two floors, {found[name]} and {lows[0]}"
    return found


def constraints(project: dict[str, object]) -> str:
    """The constraints file: every runtime floor pinned with ``==``, then :data:`TRANSITIVE`."""
    lines = [f"{name}=={floor}" for name, floor in sorted(floors(project).items())]
    lines += [f"{name}{spec}  # {why}" for name, (spec, why) in TRANSITIVE.items()]
    return "\n".join(lines) + "\n"


def _frozen(venv: Venv) -> dict[str, Version]:
    """What ``pip freeze`` says is installed: canonical name -> version."""
    done = venv.pip("freeze", "--all")
    pairs = (line.split("==", 1) for line in done.stdout.splitlines() if "==" in line and " @ " not in line)
    return {canonicalize_name(name): Version(version) for name, version in pairs}


def test_the_constraints_pin_every_runtime_floor_and_no_tool() -> None:
    """The constraints are pyproject's floors: a bare install's and every runtime extra's, one
    pin each, and none of the test tools'."""
    project = _load_pyproject()
    pinned = constraints(project).splitlines()
    assert "idna==3.7" in pinned and "scrapy==2.11" in pinned and "httpx==0.27" in pinned, pinned
    assert not [line for line in pinned if line.startswith(("pytest==", "hypothesis==", "mypy=="))], pinned
    assert len({line.split("==")[0] for line in pinned}) == len(pinned), "one pin per package"


def test_the_drop_ins_and_engines_pass_at_the_oldest_declared_versions(tmp_path: Path) -> None:
    """One environment with every floor of the installed extras pinned exactly: ``pip freeze``
    shows those floors installed, robotrules is imported from the environment (not the source
    tree), and the compat, client, fetch, batch and Spark suites pass there."""
    project = _load_pyproject()
    pinned = tmp_path / "oldest-constraints.txt"
    pinned.write_text(constraints(project), encoding="utf-8")
    source = _clean_copy(tmp_path / "robotrules")
    venv = Venv(tmp_path / "venv")
    install = _user_env(ROBOTRULES_PURE="1")
    venv.pip("install", "--constraint", pinned, f"{source}[{','.join(EXTRAS)}]", *TEST_ONLY, env=install)

    installed = _frozen(venv)
    expected = floors(project, EXTRAS)
    wrong = {name: f"{installed.get(name)} installed, floor {floor}" for name, floor in expected.items()
             if installed.get(name) != floor}
    assert not wrong, wrong
    for name, (spec, _why) in TRANSITIVE.items():
        assert name not in installed or installed[name] in SpecifierSet(spec), (name, installed[name])

    where = subprocess.run([str(venv.python), "-c", "import robotrules; print(robotrules.__file__)"], cwd=ROOT,
                           env=_user_env(), capture_output=True, text=True, timeout=120, check=True)
    assert where.stdout.startswith(str(venv.path)), where.stdout

    env = _user_env(HYPOTHESIS_PROFILE="quick")
    done = subprocess.run([str(venv.python), "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "-x", "-q",
                           "-m", MARKERS, *SUITES],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=1500, check=False)
    tail = done.stdout[-6000:] + done.stderr[-2000:]
    assert done.returncode == 0, tail
    assert " passed" in tail, tail
