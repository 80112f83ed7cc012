"""Extension modules only; all metadata is in pyproject.toml.

When the build backend (``_build/backend.py``) asks for it, the core modules are compiled with
mypyc. Only ``robotrules.core`` is compiled and only it is type-checked for the build: mypy is
told to skip every other module (``--follow-imports=skip``), so the build is the same whichever
optional extras (httpx, redis, anyio, ...) happen to be importable where it runs, and the
project's own mypy configuration (strict, for CI) is not read.
"""

import os

from setuptools import setup

CORE = ["agents", "extensions", "lexer", "lint", "matcher", "model", "modes", "pattern", "robotstxt", "rules", "urls"]
"""The compiled modules: the parser, matcher and linter (``core/policy.py`` stays Python)."""

MYPY_OPTIONS = ["--config-file=", "--follow-imports=skip"]
"""No project mypy config (its strict checks are for CI, not for users' builds); skip non-core modules."""

ext_modules = []
if os.environ.get("ROBOTRULES_MYPYC") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(MYPY_OPTIONS + [f"src/robotrules/core/{name}.py" for name in CORE], opt_level="3")

setup(ext_modules=ext_modules)
