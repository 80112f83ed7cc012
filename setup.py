"""Extension modules only; all metadata is in pyproject.toml.

When the build backend (``_build/backend.py``) asks for it, the core modules are compiled with
mypyc. Only ``robotrules.core`` is compiled and only it is type-checked for the build: mypy is
told to skip every other module (``--follow-imports=skip``), so the build is the same whichever
optional extras (httpx, redis, anyio, ...) happen to be importable where it runs, and the
project's own mypy configuration (strict, for CI) is not read.

The backend also says how the core was built (``ROBOTRULES_CORE_BUILD``: compiled, or why it is
pure Python); ``build_py`` writes that into the wheel as ``robotrules/core/_build_info.py``,
which ``robotrules.core.CORE_BUILD`` reads. Source trees and editable installs have no such
module.
"""

import os
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CORE = ["agents", "extensions", "lexer", "lint", "matcher", "model", "modes", "pattern", "robotstxt", "rules", "urls"]
"""The compiled modules: the parser, matcher and linter (``core/policy.py`` stays Python)."""

MYPY_OPTIONS = ["--config-file=", "--follow-imports=skip"]
"""No project mypy config (its strict checks are for CI, not for users' builds); skip non-core modules."""

BUILD_INFO = "robotrules/core/_build_info.py"
"""The generated module, relative to the build directory: one constant, ``BUILD``."""


class BuildPyWithBuildInfo(build_py):  # type: ignore[misc]  # setuptools has no type hints
    """``build_py``, plus the module that records how the backend built the core (when it says)."""

    def run(self) -> None:
        super().run()
        build = os.environ.get("ROBOTRULES_CORE_BUILD")
        if build is None or getattr(self, "editable_mode", False):
            return
        target = Path(self.build_lib) / BUILD_INFO
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f'"""Written by the build backend: how this core was built."""\n\nBUILD = {build!r}\n',
                          encoding="utf-8")


ext_modules = []
if os.environ.get("ROBOTRULES_MYPYC") == "1":
    from mypyc.build import mypycify

    ext_modules = mypycify(MYPY_OPTIONS + [f"src/robotrules/core/{name}.py" for name in CORE], opt_level="3")

setup(ext_modules=ext_modules, cmdclass={"build_py": BuildPyWithBuildInfo})
