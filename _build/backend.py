"""PEP 517 backend: setuptools, plus a mypyc-compiled core in regular wheels.

``pip install .`` (or building a wheel, also from the sdist) compiles ``robotrules.core`` with
mypyc: the same Python source, run as C. Editable installs (``pip install -e .``) stay pure
Python, so edits to the source take effect at once. ``ROBOTRULES_PURE=1`` builds a pure-Python
wheel. When the compiled build fails for any reason (no C compiler, no Python headers, a mypyc
error), the wheel is built again as pure Python and one warning line says so: an install never
fails for want of the compiled core. Before asking for mypy the backend compiles a two-line C
file against the Python headers (:func:`_no_compiler`): without a working compiler or headers
it builds the pure-Python wheel at once, and pip neither fetches mypy nor runs mypyc for
nothing. The compiled modules need only the standard library at run time;
``robotrules.core.COMPILED`` says which core a wheel holds.

pip hides a build's output, so the wheel also records how its core was built: the backend passes
it to ``setup.py`` in ``ROBOTRULES_CORE_BUILD`` ("compiled", "ROBOTRULES_PURE=1 at build", or
"the compiled core could not be built: <reason>"), which writes it into the wheel; and
``robotrules.core.CORE_BUILD`` and ``robotrules --version`` say it.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403 - the rest of the backend interface

MYPYC_REQUIREMENT = "mypy>=1.11"
FALLBACK_WARNING = "robotrules: the compiled core could not be built ({reason}); installing the pure-Python core"
BUILD_VARIABLE = "ROBOTRULES_CORE_BUILD"
"""How the core of the wheel being built was built, for ``setup.py`` to record in the wheel."""


def _pure() -> bool:
    """``ROBOTRULES_PURE=1``: the pure-Python wheel is asked for."""
    return os.environ.get("ROBOTRULES_PURE", "").lower() in ("1", "true", "yes")


def _compile() -> bool:
    return not _pure() and _no_compiler() is None


PROBE = "#include <Python.h>\nint robotrules_probe(void) { return Py_IsInitialized(); }\n"


def _no_compiler() -> str | None:
    """Why no C extension can be built here (None: a probe compiled), on POSIX systems.

    The probe compiles :data:`PROBE` with the compiler setuptools would use (``CC``, else the
    one Python was built with) and Python's headers. Elsewhere (MSVC on Windows) the build is
    tried, as before, and falls back if it fails."""
    if os.name != "posix":
        return None
    command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    with tempfile.TemporaryDirectory(prefix="robotrules-probe-") as scratch:
        source = os.path.join(scratch, "probe.c")
        with open(source, "w", encoding="ascii") as file:
            file.write(PROBE)
        try:
            done = subprocess.run([*command, "-I", sysconfig.get_paths()["include"], "-c", source, "-o",
                                   os.path.join(scratch, "probe.o")], capture_output=True, text=True, timeout=60,
                                  check=False)
        except FileNotFoundError:
            return f"no C compiler: {command[0]} was not found"
        except (OSError, subprocess.SubprocessError) as error:
            return f"{command[0]} could not be run: {error}"
    if done.returncode != 0:
        detail = (done.stderr.strip().splitlines() or [f"exit code {done.returncode}"])[-1][:160]
        return f"{command[0]} could not compile a test file against Python's headers: {detail}"
    return None


def _reason(error: BaseException) -> str:
    """One line on why the compiled build failed (mypy and the compiler printed the details above)."""
    if isinstance(error, SystemExit) and not isinstance(error.code, str):
        return "mypyc or the C compiler failed, see above"
    lines = str(error).strip().splitlines()
    return lines[-1][:200] if lines else type(error).__name__


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    requires: list[str] = _setuptools.get_requires_for_build_wheel(config_settings)
    return [*requires, MYPYC_REQUIREMENT] if _compile() else requires


def build_wheel(
    wheel_directory: str, config_settings: dict[str, Any] | None = None, metadata_directory: str | None = None
) -> str:
    build = "ROBOTRULES_PURE=1 at build"
    try:
        if not _pure():
            reason = _no_compiler()
            if reason is None:
                os.environ["ROBOTRULES_MYPYC"] = "1"  # read by setup.py
                os.environ[BUILD_VARIABLE] = "compiled"
                try:
                    return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))
                except (Exception, SystemExit) as error:  # distutils reports compiler failures as SystemExit
                    reason = _reason(error)
                    shutil.rmtree("build", ignore_errors=True)  # setuptools' scratch space: no half-compiled modules
                finally:
                    os.environ.pop("ROBOTRULES_MYPYC", None)
            print(FALLBACK_WARNING.format(reason=reason), file=sys.stderr, flush=True)
            build = f"the compiled core could not be built: {reason.removesuffix(', see above')}"
        os.environ[BUILD_VARIABLE] = build
        return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))
    finally:
        os.environ.pop(BUILD_VARIABLE, None)
