"""Extension modules only; all metadata is in pyproject.toml.

When the build backend (``_build/backend.py``) asks for it, the core modules are compiled with
mypyc. Modules whose tests observe Python-level calls stay interpreted: none at present.
"""

import os

from setuptools import setup

ext_modules = []
if os.environ.get("ROBOTRULES_MYPYC") == "1":
    from mypyc.build import mypycify

    CORE = ["agents", "extensions", "lexer", "lint", "matcher", "model", "modes", "pattern", "robotstxt", "rules", "urls"]
    ext_modules = mypycify([f"src/robotrules/core/{name}.py" for name in CORE], opt_level="3")

setup(ext_modules=ext_modules)
