"""The pure core: bytes, URLs and agents in; parsed files, decisions and diagnostics out.

Standard library only; no sockets, files, clocks or databases (a test enforces it). Regular
wheels run these modules compiled by mypyc (see ``_build/backend.py``); ``COMPILED`` says which.
"""

from robotrules.core import lexer as _lexer

COMPILED: bool = not _lexer.__file__.endswith(".py")
"""True when the core runs as mypyc-compiled extension modules, False for the Python source."""
