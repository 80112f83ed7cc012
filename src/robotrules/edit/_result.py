"""What an edit gives: the new file with its diff (:class:`EditResult`), or why not (:class:`EditRefused`).

Both are shown at the package's face, :mod:`robotrules.edit` (their ``__module__``), where the
error tree and the API reference name them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from robotrules.diff import RobotsDiff
from robotrules.errors import RobotsError

__all__ = ["EditRefused", "EditResult"]


class EditRefused(RobotsError, ValueError):
    """An edit that cannot be made safely, or a request that cannot be carried out; the message
    says why in plain words (for people: no requirement ids)."""


@dataclass(frozen=True, slots=True)
class EditResult:
    """What :func:`edit` made: the new ``body``; ``diff`` from the old file to it (every crawler
    either file names, and ``*``; URLs: ``/`` and one per rule); ``notes`` for people (what was
    skipped, moved or already so); ``blocked``/``allowed`` the tokens as written in the file."""

    body: bytes
    diff: RobotsDiff
    notes: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    allowed: list[str] = field(default_factory=list)
    original: bytes = b""

    @property
    def changed(self) -> bool:
        """Whether the new body differs from the old one (a usage statement changes no verdict)."""
        return self.body != self.original

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: the new text (UTF-8, invalid bytes replaced), whether it changed, the notes, the diff."""
        return {"changed": self.changed, "robots": self.body.decode("utf-8", "replace"), "blocked": list(self.blocked),
                "allowed": list(self.allowed), "notes": list(self.notes), "diff": self.diff.to_dict()}


EditRefused.__module__ = EditResult.__module__ = "robotrules.edit"  # the face that declares them
