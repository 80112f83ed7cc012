"""What the full run needs from outside the repository, and what happens when it is missing.

Some tests need a Redis server, Java for Spark, Chromium, the robots.txt corpus, or the power to
make file permissions bind. Where one is missing, :func:`unavailable` skips the test, saying
why, on a developer's machine; in CI (the ``CI`` environment variable set) it fails the test
instead: a CI run is the full run, and nothing in it may quietly not run. ``.ci/run`` installs
or finds everything these tests need (see the README's "The two commands").
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NoReturn

import pytest


def in_ci() -> bool:
    """Whether this is a CI run (``CI`` set to anything but empty, 0 or false)."""
    return os.environ.get("CI", "").lower() not in ("", "0", "false", "no")


def unavailable(reason: str) -> NoReturn:
    """Skip (a developer's machine) or fail (CI) because something the test needs is missing."""
    if in_ci():
        pytest.fail(f"CI runs everything, but {reason}", pytrace=False)
    pytest.skip(reason)


def corpus_dir() -> Path:
    """The robots.txt corpus (not in the repository): ``$ROBOTRULES_CORPUS``, else ``../shared/corpus``
    beside the repository. Tests that need it skip, naming this path, when it has no ``robotfiles``."""
    env = os.environ.get("ROBOTRULES_CORPUS")
    return Path(env) if env else Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
