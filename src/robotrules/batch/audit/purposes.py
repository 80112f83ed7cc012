"""AI training opt-outs, and the audit's rows summed per site and purpose (issue #18, A1-A8).

Two signals say "do not train on this": robots.txt rules that keep AI training crawlers (kind
:data:`TRAINING`) out, and a ``train-ai=n`` preference (``Content-Usage: train-ai=n``, or
``Content-Signal: ai-train=no``). :func:`opt_out` says, for one row of an audit table
(:mod:`robotrules.batch.audit`), which of them the site uses for that crawler (:data:`OPT_OUTS`);
:func:`by_purpose` sums an audit table per site and purpose (the crawlers' kind), the site's
opt-out included, and :func:`opt_out_counts` counts the sites of each outcome. Pure but for the
pandas tables (``robotrules[batch]``); both engines' tables give the same sums.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Literal

from robotrules.answers import FieldType
from robotrules.batch.frames import typed_frame
from robotrules.errors import require

if TYPE_CHECKING:
    import pandas  # type: ignore[import-untyped]

__all__ = ["OPT_OUTS", "PURPOSE_COLUMNS", "PURPOSE_FIELDS", "TRAINING", "OptOut", "by_purpose", "opt_out", "opt_out_counts",
           "site_opt_out"]

OptOut = Literal["robots.txt", "train-ai=n", "both", "neither", "unknown"]

OPT_OUTS: tuple[OptOut, ...] = ("robots.txt", "train-ai=n", "both", "neither", "unknown")
"""How a site opts AI training crawlers out (:func:`opt_out`): by robots.txt rules, by a
``train-ai=n`` preference (Content-Usage or Content-Signal ``ai-train=no``), both, neither, or
unknown (the robots.txt could not be read: a 5xx, a failed fetch, nothing captured)."""

TRAINING = "ai-training"
"""The kind (purpose) of the crawlers whose opt-out the audit works out."""

PURPOSE_FIELDS: tuple[tuple[str, FieldType], ...] = (
    ("site", "string"), ("kind", "string"), ("crawlers", "int32"), ("blocked", "int32"), ("partly", "int32"),
    ("verdict", "string"), ("training_opt_out", "string"),
)
"""The columns of :func:`by_purpose` and their types."""

PURPOSE_COLUMNS = tuple(name for name, _ in PURPOSE_FIELDS)
"""The columns of :func:`by_purpose`: per site and purpose (kind), how many crawlers of that kind
were audited, how many are blocked entirely and partly, the site's verdict for them, and for
AI training crawlers the site's opt-out."""


def opt_out(kind: str, verdict: str, explicit: bool, train_ai: bool | None) -> str:
    """How a site opts an AI training crawler out (one of :data:`OPT_OUTS`; "" for a crawler of
    another kind), from its row: by robots.txt when the crawler is blocked entirely, or partly by
    a group that names it; by ``train-ai=n`` when its preference for "/" is disallow (A2-A4, A7);
    both; neither (a 4xx: no robots.txt); unknown when the file could not be read (F5, F8)."""
    if kind != TRAINING:
        return ""
    if verdict in ("unreachable", "unknown"):
        return "unknown"
    by_rules = verdict == "blocked" or (verdict == "partly" and explicit)
    by_usage = train_ai is False
    if by_rules:
        return "both" if by_usage else "robots.txt"
    return "train-ai=n" if by_usage else "neither"


def by_purpose(frame: pandas.DataFrame) -> pandas.DataFrame:
    """Per site and purpose (kind): the rows of an audit table summed (:data:`PURPOSE_COLUMNS`).

    ``crawlers`` how many of that kind were audited; ``blocked`` and ``partly`` how many the site
    blocks entirely and partly; ``verdict`` the site's for them: ``blocked`` when it blocks every
    one entirely, ``partly`` when it blocks some (entirely or partly), ``allowed`` when none, or
    the site's own (``no-robots``, ``unreachable``, ``unknown``); ``training_opt_out`` for AI
    training crawlers (:data:`TRAINING`): ``robots.txt`` when any is opted out by the rules,
    ``train-ai=n`` when any by its preference, ``both`` when both hold (by one crawler or two),
    else ``neither`` or ``unknown``; "" for other kinds. Rows of agents of no known kind (``*``)
    are left out. Sites in the order of the table, kinds in order of first appearance.
    """
    pd: Any = require("pandas", "batch")
    sums: dict[tuple[str, str], list[Any]] = {}
    outcomes = frame["training_opt_out"].tolist() if "training_opt_out" in frame.columns else itertools.repeat("")
    for site, kind, verdict, outcome in zip(frame["site"].tolist(), frame["kind"].tolist(), frame["verdict"].tolist(),
                                            outcomes, strict=False):
        if not isinstance(kind, str) or not kind:
            continue
        found = sums.get((site, kind))
        if found is None:
            found = sums[(site, kind)] = [0, 0, 0, str(verdict), set()]
        found[0] += 1
        found[1] += verdict == "blocked"
        found[2] += verdict == "partly"
        if isinstance(outcome, str) and outcome:
            found[4].add(outcome)
    rows = []
    for (site, kind), (count, blocked, partly, seen, outcomes) in sums.items():
        verdict = seen  # the site's own verdict when it has no rules (the same for every crawler)
        if seen in ("blocked", "partly", "allowed"):
            verdict = "blocked" if blocked == count else "partly" if blocked or partly else "allowed"
        rows.append((site, kind, count, blocked, partly, verdict, site_opt_out(outcomes) if kind == TRAINING else ""))
    return typed_frame(pd.DataFrame.from_records(rows, columns=list(PURPOSE_COLUMNS)), PURPOSE_FIELDS)


def site_opt_out(outcomes: set[str]) -> str:
    """A site's opt-out from its AI training crawlers' (see :func:`by_purpose`)."""
    by_rules = bool(outcomes & {"robots.txt", "both"})
    by_usage = bool(outcomes & {"train-ai=n", "both"})
    if by_rules or by_usage:
        return "both" if by_rules and by_usage else "robots.txt" if by_rules else "train-ai=n"
    return "neither" if "neither" in outcomes else "unknown"


def opt_out_counts(frame: pandas.DataFrame) -> dict[str, int]:
    """How many sites opt AI training crawlers out in each way of :data:`OPT_OUTS` (per site, as
    :func:`by_purpose` says it); every count 0 when no AI training crawler was audited."""
    counts: dict[str, int] = dict.fromkeys(OPT_OUTS, 0)
    if not len(frame):
        return counts
    table = by_purpose(frame)
    for outcome in table["training_opt_out"][table["kind"] == TRAINING]:
        counts[str(outcome)] += 1
    return counts
