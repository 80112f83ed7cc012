"""Readable reports of disagreements between robotrules and the reference (shared by the differential tests)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

MAX_SHOWN = 20
MAX_BODY_REPR = 600


@dataclass(frozen=True, slots=True)
class Disagreement:
    where: str  # case id, "corpus:site", ...
    body: bytes | str
    agents: str | Sequence[str]
    url: str
    expected: tuple[bool, int]  # the reference's (allowed, matching_line)
    got: Any  # robotrules' (allowed, line) or "ExceptionName: message"


def short_repr(body: bytes | str, limit: int = MAX_BODY_REPR) -> str:
    r = repr(body)
    if len(r) <= limit:
        return r
    return f"{r[: limit // 2]} ...<{len(body)} bytes>... {r[-limit // 2 :]}"


def robotrules_answer(rt: Any, url: str, agents: str | Sequence[str]) -> Any:
    """``(allowed, line)`` of robotrules, or the exception it raised as text (never raises).

    For one agent, :meth:`allowed` (the crawler's hot path, with its own path extraction and the
    origin it remembers from the URL before) must say what :meth:`check` says, or that is reported.
    """
    try:
        d = rt.check(url, agents)
        if isinstance(agents, str) and rt.allowed(url, agents) != d.allowed:
            return f"allowed() says {not d.allowed}, check() says {d.allowed} (line {d.line})"
        return (d.allowed, d.line)
    except Exception as e:  # a raising check is a disagreement to report
        return f"{type(e).__name__}: {e}"


def format_report(title: str, found: Sequence[Disagreement], total: int, reproduce: str, shown: int = MAX_SHOWN) -> str:
    lines = [f"{title}: {len(found)} of {total} comparisons disagree with the reference", reproduce, ""]
    for d in found[:shown]:
        lines += [
            f"- {d.where}",
            f"    body     = {short_repr(d.body)}",
            f"    agents   = {d.agents!r}",
            f"    url      = {d.url!r}",
            f"    expected = {d.expected}  (reference: allowed, matching_line)",
            f"    got      = {d.got}",
        ]
    if len(found) > shown:
        lines.append(f"... and {len(found) - shown} more")
    return "\n".join(lines)
