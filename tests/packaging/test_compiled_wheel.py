"""The mypyc-compiled core of a regular wheel decides exactly as the Python source does.

Builds the wheel as ``pip install .`` would (``_build/backend.py`` compiles the core), unpacks
it, and runs the conformance, spec, core and property suites against it in a subprocess. The
differential suites compare it with Google's reference, so the compiled build is held to the
same 100% agreement. Skipped where mypy is missing (it comes with the ``test`` extra).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(os.environ.get("ROBOTRULES_EXPECT_COMPILED") == "1", reason="already the compiled run")
def test_compiled_wheel_passes_the_suites(tmp_path):
    pytest.importorskip("mypyc", reason="mypy (with mypyc) is needed to build the compiled core")
    source = tmp_path / "source"  # a clean copy: no stale build/ state, nothing written to the tree
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(
        ".git", ".venv", "build", "*.egg-info", "__pycache__", ".hypothesis", ".pytest_cache", "*.so"))
    wheels = tmp_path / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(wheels), str(source)],
        capture_output=True, text=True, timeout=900, env={k: v for k, v in os.environ.items() if k != "ROBOTRULES_PURE"},
    )
    assert build.returncode == 0, build.stdout[-3000:] + build.stderr[-3000:]
    (wheel,) = wheels.glob("robotrules-*.whl")
    unpacked = tmp_path / "site"
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(unpacked)
    assert list((unpacked / "robotrules" / "core").glob("matcher.*.so")), "the wheel holds no compiled core"
    env = dict(os.environ, PYTHONPATH=str(unpacked), ROBOTRULES_EXPECT_COMPILED="1",
               ROBOTRULES_CORPUS_STRIDE=os.environ.get("ROBOTRULES_CORPUS_STRIDE", "3"))
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/conformance", "tests/spec",
         "tests/core", "tests/properties"],
        cwd=ROOT, capture_output=True, text=True, timeout=1200, env=env,
    )
    tail = run.stdout[-4000:] + run.stderr[-2000:]
    assert run.returncode == 0, tail  # tests/conftest.py fails the run if the core is not the compiled one
    assert " passed" in tail
