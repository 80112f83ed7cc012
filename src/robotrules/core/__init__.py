"""The pure core: bytes, URLs and agents in; parsed files, decisions and diagnostics out.

Standard library only; no sockets, files, clocks or databases (a test enforces it). Regular
wheels run the parser, matcher and linter compiled by mypyc (the list is in ``setup.py``;
``policy.py`` stays Python); ``COMPILED`` says which.
"""

from robotrules.core import lexer as _lexer

COMPILED: bool = not _lexer.__file__.endswith(".py")
"""True when the parser, matcher and linter run as mypyc-compiled extension modules, False for the Python source."""
