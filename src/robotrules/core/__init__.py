"""The pure core: bytes, URLs and agents in; parsed files, decisions and diagnostics out.

Standard library only; no sockets, files, clocks or databases (a test enforces it). Regular
wheels run the parser, matcher and linter compiled by mypyc (the list is in ``setup.py``;
``policy.py`` stays Python); ``COMPILED`` says which, and ``CORE_BUILD`` says it in words, with
the reason when the core is pure Python (``robotrules --version`` shows it):

- ``"compiled core"``;
- ``"pure-Python core: the compiled core could not be built: <reason>"``: the install fell back
  (no C compiler, no Python headers, a mypyc error);
- ``"pure-Python core: ROBOTRULES_PURE=1 at build"``: a pure build on purpose;
- ``"pure-Python core: source tree or editable install"``: run from the source, never built.

The build backend records how it built the core in a small module of the wheel
(``_build_info``); source trees and editable installs have none.
"""

import importlib

from robotrules.core import lexer as _lexer

COMPILED: bool = not _lexer.__file__.endswith(".py")
"""True when the parser, matcher and linter run as mypyc-compiled extension modules, False for the Python source."""


def _core_build() -> str:
    if COMPILED:
        return "compiled core"
    try:
        recorded = getattr(importlib.import_module("robotrules.core._build_info"), "BUILD", None)
    except ImportError:
        recorded = None
    if not isinstance(recorded, str) or not recorded:
        return "pure-Python core: source tree or editable install"
    if recorded == "compiled":  # built compiled, but the compiled modules are not the ones imported
        return "pure-Python core: the compiled modules of this install were not found"
    return f"pure-Python core: {recorded}"


CORE_BUILD: str = _core_build()
"""Which core runs, in words, and why it is pure Python when it is (the list above)."""
