"""The build backend's compiler probe (``_build/backend.py``): it tells, before pip fetches mypy,
whether a C extension can be built here, and says why not in the words the install records."""

from __future__ import annotations

import importlib.util
import os
import shutil
from types import ModuleType

import pytest

from tests.install.test_install_as_user import ROOT

pytestmark = pytest.mark.skipif(os.name != "posix", reason="the probe runs on POSIX systems only")


def _backend() -> ModuleType:
    spec = importlib.util.spec_from_file_location("robotrules_build_backend", ROOT / "_build" / "backend.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def backend(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.delenv("ROBOTRULES_PURE", raising=False)
    return _backend()


def test_a_working_compiler_passes_the_probe_and_the_build_asks_for_mypy(backend: ModuleType,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        pytest.fail("no C compiler on PATH: the full run needs one (.ci/run installs gcc)")
    monkeypatch.setenv("CC", compiler)
    assert backend._no_compiler() is None
    assert backend.MYPYC_REQUIREMENT in backend.get_requires_for_build_wheel()


@pytest.mark.parametrize(("cc", "why"), [
    ("false", "false could not compile a test file against Python's headers: exit code 1"),
    ("/nonexistent/cc", "no C compiler: /nonexistent/cc was not found"),
])
def test_without_a_working_compiler_the_build_says_why_and_asks_for_no_mypy(backend: ModuleType,
                                                                          monkeypatch: pytest.MonkeyPatch,
                                                                          cc: str, why: str) -> None:
    monkeypatch.setenv("CC", cc)
    assert backend._no_compiler() == why
    assert backend.MYPYC_REQUIREMENT not in backend.get_requires_for_build_wheel()


def test_robotrules_pure_asks_for_no_mypy_whatever_the_compiler(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROBOTRULES_PURE", "1")
    monkeypatch.setenv("CC", shutil.which("cc") or "cc")
    backend = _backend()
    assert backend.MYPYC_REQUIREMENT not in backend.get_requires_for_build_wheel()
