"""The project's own standard, enforced on every run: strict typing, lint, a documentation site
that builds without a warning. Each runs the tool as a developer would, from the repository root,
with the configuration in ``pyproject.toml`` and ``mkdocs.yml``; all three come with the ``test`` extra."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _tool(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *map(str, args)], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=False)


def test_mypy_strict_is_clean() -> None:
    """``mypy --strict`` over src/, the build backend and setup.py reports no error."""
    done = _tool("mypy", "--strict")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_ruff_check_is_clean() -> None:
    """``ruff check`` over the whole repository (src, tests, bench, fuzz, the build backend) is clean."""
    done = _tool("ruff", "check", "--no-cache", ".")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_the_documentation_site_builds_strictly(tmp_path: Path) -> None:
    """``mkdocs build --strict``: every page, link and docstring of the API reference renders
    without a warning."""
    done = _tool("mkdocs", "build", "--strict", "--site-dir", tmp_path / "site")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-6000:]
    assert (tmp_path / "site" / "index.html").is_file()
