"""Work on robots.txt texts a request carries (drafts): verdicts, lint findings, diffs.

Each function takes a ``checkpoint`` and calls it between pieces of work; the service runs them
in a worker thread under the work gate and passes ``anyio.from_thread.check_cancelled``, so a
request whose client left or whose deadline passed stops its work within a few checks instead
of running on (issue #16-M2). Diffs and edits call it inside their loops too, every few thousand
steps of work (:mod:`robotrules._budget`), and stop past ``budget`` steps
(:class:`~robotrules.errors.TooMuchWork`). Called directly, ``checkpoint`` may be ``lambda: None``.

Answers are bounded: at most ``most`` rule changes, verdict changes and lint findings are listed,
the rest counted (``rules_omitted``, ``verdicts_omitted``, ``diagnostics_omitted``).
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

_EVERY = 8  # checks between two checkpoints: a check of a hostile file may take a few milliseconds


def text(raw: str) -> bytes:
    """A robots.txt given as JSON text, as the bytes a server would send (UTF-8; a lone surrogate replaced)."""
    return raw.encode("utf-8", "replace")


def diagnostics(body: bytes, mode: str, most: int | None = None) -> list[dict[str, Any]]:
    """The first ``most`` lint findings of ``body`` (None: all) as the service's JSON."""
    return [models.diagnostic_json(d) for d in lint(body, mode)[:most]]


def _listed(body: bytes, mode: str, most: int) -> dict[str, Any]:
    """The lint findings of ``body``: the first ``most`` listed, how many are not, and the counts by severity."""
    found = lint(body, mode)
    return {"diagnostics": [models.diagnostic_json(d) for d in found[:most]],
            "diagnostics_omitted": max(0, len(found) - most),
            "errors": sum(1 for d in found if d.severity == "error"),
            "warnings": sum(1 for d in found if d.severity == "warning")}


def verdicts(body: bytes, urls: Sequence[str], agents: Sequence[str], mode: str, purpose: str | None,
             most: int, checkpoint: Checkpoint) -> dict[str, Any]:
    """/v1/test: every URL for every agent against the draft ``body`` (each with the answer to
    ``purpose`` when one is asked), and its first ``most`` lint findings."""
    draft = parse(body, mode=mode)
    results: list[dict[str, Any]] = []
    for url in urls:
        for agent in agents:
            if len(results) % _EVERY == 0:
                checkpoint()
            results.append(answer(check_offline(draft, url, agent, "draft"), purpose))
    checkpoint()
    listed = _listed(body, mode, most)
    return {"results": results, "diagnostics": listed["diagnostics"],
            "diagnostics_omitted": listed["diagnostics_omitted"]}


def findings(body: bytes, mode: str, most: int, checkpoint: Checkpoint) -> dict[str, Any]:
    """/v1/lint: the findings of ``body``, each with its fix when it is obvious (the first
    ``most``), and their counts."""
    checkpoint()
    return _listed(body, mode, most)


def compare(old: bytes, new: bytes, agents: Sequence[str], urls: Sequence[str], mode: str, origin: str,
            budget: int, most: int, checkpoint: Checkpoint) -> dict[str, Any]:
    """/v1/diff: what changes from ``old`` to ``new`` (:func:`robotrules.diff.diff`, within
    ``budget`` steps, ``most`` changes of each kind listed), as JSON; ``origin``: the site of a
    side given by URL ("" for two drafts: rules are probed as paths)."""
    return diff(old, new, agents=agents, urls=urls, mode=mode, origin=origin, checkpoint=checkpoint, budget=budget,
                most=most).to_dict()


def edited(body: bytes, block: Sequence[str], block_purpose: Sequence[str], allow: Sequence[str], usage: str | None,
           mode: str, budget: int, most: int, checkpoint: Checkpoint) -> dict[str, Any]:
    """/v1/edit: ``body`` with the crawlers blocked or allowed and the usage statement set
    (:func:`robotrules.edit.edit`, which may refuse: ``EditRefused``; within ``budget`` steps,
    ``most`` changes of each kind listed), with its diff, as JSON."""
    checkpoint()
    found = edit(body, block=block, block_purpose=block_purpose, allow=allow, usage=usage, mode=mode,
                 checkpoint=checkpoint, budget=budget, most=most).to_dict()
    checkpoint()
    return found
