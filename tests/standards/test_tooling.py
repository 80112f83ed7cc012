"""The project's own standard, enforced on every run: strict typing and lint. Each runs the tool
as a developer would, from the repository root, with the configuration in ``pyproject.toml``;
both come with the ``test`` extra. (The strict documentation build is tests/docs/test_site_build.py.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow  # mypy over the whole tree takes seconds


def _tool(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=False)


def test_mypy_strict_is_clean() -> None:
    """``mypy --strict`` over src/, the build backend and setup.py reports no error. Its cache is
    not written (``--cache-dir=/dev/null``, as mypy's documentation describes): a fresh clone has
    none to read, and writing one took a fifth of the check's time (19 to 15 CPU-seconds)."""
    done = _tool("mypy", "--strict", "--cache-dir=/dev/null")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_ruff_check_is_clean() -> None:
    """``ruff check`` over the whole repository (src, tests, bench, fuzz, the build backend) is clean."""
    done = _tool("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]

