"""Work on robots.txt texts a request carries (drafts): verdicts, lint findings, diffs.

Each function takes a ``checkpoint`` and calls it between pieces of work; the service runs them
in a worker thread under the work gate and passes ``anyio.from_thread.check_cancelled``, so a
request whose client left or whose deadline passed stops its work within a few checks instead
of running on (issue #16-M2). Called directly, ``checkpoint`` may be ``lambda: None``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from robotrules.answers import check_offline
from robotrules.core.lint import lint
from robotrules.core.robotstxt import parse
from robotrules.diff import diff
from robotrules.edit import edit
from robotrules.service import _models as models
from robotrules.service._purpose import answer

__all__ = ["Checkpoint", "compare", "diagnostics", "edited", "findings", "text", "verdicts"]

Checkpoint = Callable[[], None]

_EVERY = 64  # checks between two checkpoints: a few milliseconds even on a hostile file


def text(raw: str) -> bytes:
    """A robots.txt given as JSON text, as the bytes a server would send (UTF-8; a lone surrogate replaced)."""
    return raw.encode("utf-8", "replace")


def diagnostics(body: bytes, mode: str) -> list[dict[str, Any]]:
    """The lint findings of ``body`` as the service's JSON."""
    return [models.diagnostic_json(d) for d in lint(body, mode)]


def verdicts(body: bytes, urls: Sequence[str], agents: Sequence[str], mode: str, purpose: str | None,
             checkpoint: Checkpoint) -> dict[str, Any]:
    """/v1/test: every URL for every agent against the draft ``body`` (each with the answer to
    ``purpose`` when one is asked), and its lint findings."""
    draft = parse(body, mode=mode)
    results: list[dict[str, Any]] = []
    for url in urls:
        for agent in agents:
            if len(results) % _EVERY == 0:
                checkpoint()
            results.append(answer(check_offline(draft, url, agent, "draft"), purpose))
    checkpoint()
    return {"results": results, "diagnostics": diagnostics(body, mode)}


def findings(body: bytes, mode: str, checkpoint: Checkpoint) -> dict[str, Any]:
    """/v1/lint: the findings of ``body``, each with its fix when it is obvious, and their counts."""
    checkpoint()
    found = diagnostics(body, mode)
    return {"diagnostics": found,
            "errors": sum(1 for d in found if d["severity"] == "error"),
            "warnings": sum(1 for d in found if d["severity"] == "warning")}


def compare(old: bytes, new: bytes, agents: Sequence[str], urls: Sequence[str], mode: str, origin: str,
            checkpoint: Checkpoint) -> dict[str, Any]:
    """/v1/diff: what changes from ``old`` to ``new`` (:func:`robotrules.diff.diff`), as JSON;
    ``origin``: the site of a side given by URL ("" for two drafts: rules are probed as paths)."""
    return diff(old, new, agents=agents, urls=urls, mode=mode, origin=origin, checkpoint=checkpoint).to_dict()


def edited(body: bytes, block: Sequence[str], block_purpose: Sequence[str], allow: Sequence[str], usage: str | None,
           mode: str, checkpoint: Checkpoint) -> dict[str, Any]:
    """/v1/edit: ``body`` with the crawlers blocked or allowed and the usage statement set
    (:func:`robotrules.edit.edit`, which may refuse: ``EditRefused``), with its diff, as JSON."""
    checkpoint()
    found = edit(body, block=block, block_purpose=block_purpose, allow=allow, usage=usage, mode=mode).to_dict()
    checkpoint()
    return found
