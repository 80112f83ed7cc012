"""PEP 517 backend: setuptools, plus a mypyc-compiled core in regular wheels.

``pip install .`` (or building a wheel) compiles ``robotrules.core`` with mypyc: the same
Python source, run as C (about 1.5x faster; README "Benchmarks"). Editable installs
(``pip install -e .``) stay pure Python, so edits to the source take effect at once.
``ROBOTRULES_PURE=1`` builds a pure-Python wheel. The compiled modules need nothing at run
time beyond the standard library.
"""

from __future__ import annotations

import os

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F401,F403 - the rest of the backend interface

MYPYC_REQUIREMENT = "mypy>=1.11"


def _compile() -> bool:
    return os.environ.get("ROBOTRULES_PURE", "") not in ("1", "true", "yes")


def get_requires_for_build_wheel(config_settings=None):  # type: ignore[no-untyped-def]
    requires = _setuptools.get_requires_for_build_wheel(config_settings)
    return requires + [MYPYC_REQUIREMENT] if _compile() else requires


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):  # type: ignore[no-untyped-def]
    if _compile():
        os.environ["ROBOTRULES_MYPYC"] = "1"  # read by setup.py
    try:
        return _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    finally:
        os.environ.pop("ROBOTRULES_MYPYC", None)
