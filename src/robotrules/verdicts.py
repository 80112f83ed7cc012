"""Deprecated: the verdict for people now lives in :mod:`robotrules.answers`, with the rest of the answer.

``from robotrules.verdicts import Verdict`` (and ``check_offline``, ``from_result``,
``sentence``, ``state_dict``) still works, with a ``DeprecationWarning``; import them from
:mod:`robotrules.answers` instead.
"""

from __future__ import annotations

import warnings
from typing import Any

from robotrules import answers

__all__: list[str] = []  # nothing new is meant to be imported from here

_MOVED = frozenset({"Verdict", "check_offline", "from_result", "sentence", "state_dict"})


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        warnings.warn(f"robotrules.verdicts.{name} moved to robotrules.answers.{name}", DeprecationWarning,
                      stacklevel=2)
        return getattr(answers, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
