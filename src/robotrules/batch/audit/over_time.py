"""Opt-outs over time: audits of several crawls combined into trends and changes (issue #20).

One audit per crawl, exactly as :func:`robotrules.batch.audit.workflow.audit` makes it (either engine),
each labelled (a crawl id such as ``CC-MAIN-2024-10``, or a date); then a pure step over those
tables (pandas) makes:

- :func:`trends`: per crawl and crawler, and per crawl and purpose (the crawlers' kind), how many
  sites were audited, how many block entirely and partly, the shares, and how many opt AI
  training crawlers out by robots.txt, by ``train-ai=n``, by both (:data:`TREND_COLUMNS`; the
  purpose rows sum the sites as :func:`~robotrules.batch.audit.purposes.by_purpose` does);
- :func:`changes`: the sites whose robots.txt started or stopped blocking a crawler between two
  consecutive crawls, or started or stopped saying ``train-ai=n``, with the deciding disallow
  rules before and after and the rule lines of the crawler's group(s) removed and added
  (:data:`CHANGE_COLUMNS`, :data:`CHANGES`).

A site is in a crawl when that crawl's audit has rows for it, with a verdict other than
``unknown`` (in an archive's audit: its robots.txt was not captured). A site missing from a crawl
is "not captured" there: a site that blocked a crawler and is missing from the next crawl is listed
as ``not captured`` (never as ``stopped blocking``), and when it comes back as ``captured again``
(``newly captured`` when no earlier crawl had it), if it blocks then. A robots.txt that could not
be read (verdict ``unreachable``: a server error or a failed fetch) is ``unreadable`` likewise. Changes from or to
a state in which nothing is blocked on the known side are left out (a site that never blocked
and is missing from one crawl is no change).

Both results depend on the rows alone, never on their order: the Spark engine's tables (sorted
by site) and the local engine's (in archive order) give the same trends and changes. Crawls keep
the order given (the order of first appearance in the ``crawl`` column); trends follow the
agents' order, changes are sorted by crawl, site and agent. Needs ``robotrules[batch]``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from robotrules.answers import FieldType
from robotrules.batch.audit.purposes import TRAINING, by_purpose
from robotrules.batch.frames import typed_frame
from robotrules.errors import require

if TYPE_CHECKING:

    import pandas  # type: ignore[import-untyped]


__all__ = ["CHANGES", "CHANGE_COLUMNS", "CRAWL", "TREND_COLUMNS", "TREND_FIELDS", "OverTime", "changes",
           "crawls_of", "labelled", "trends"]

CRAWL = "crawl"
"""The column that labels each row of a combined audit table with its crawl (first column)."""

TREND_FIELDS: tuple[tuple[str, FieldType], ...] = (
    ("crawl", "string"), ("level", "string"), ("agent", "string"), ("kind", "string"), ("sites", "int32"),
    ("blocked", "int32"), ("partly", "int32"), ("blocked_share", "double"), ("partly_share", "double"),
    ("robots_txt", "int32"), ("train_ai_n", "int32"), ("both", "int32"),
)
"""The columns of :func:`trends` and their types (:data:`TREND_COLUMNS` says what each holds)."""

TREND_COLUMNS: tuple[str, ...] = tuple(name for name, _ in TREND_FIELDS)
"""The columns of :func:`trends`. ``level`` is ``crawler`` (a row per crawl and agent: ``agent``
and its ``kind``) or ``purpose`` (a row per crawl and kind, ``agent`` empty). ``sites``: the
sites audited in that crawl; ``blocked``, ``partly``: the sites that block the crawler entirely,
partly (for a purpose: every one of its crawlers entirely; some of them, entirely or partly, as
:func:`~robotrules.batch.audit.purposes.by_purpose` says); ``blocked_share``, ``partly_share``: those
counts over ``sites`` (0.0 when no site); ``robots_txt``, ``train_ai_n``, ``both``: for AI
training crawlers, the sites that opt them out by robots.txt only, by ``train-ai=n`` only, by
both (:data:`~robotrules.batch.audit.purposes.OPT_OUTS`); 0 for other kinds."""

CHANGE_COLUMNS: tuple[str, ...] = ("site", "agent", "kind", "from_crawl", "to_crawl", "change", "train_ai_change",
                                   "verdict_before", "verdict_after", "rules_before", "rules_after", "lines_removed",
                                   "lines_added")
"""The columns of :func:`changes`: a row per site, agent and pair of consecutive crawls in which
what the site says to the agent changed. ``change`` is one of :data:`CHANGES` or "" (only the
``train-ai`` preference changed); ``train_ai_change`` is ``started train-ai=n``, ``stopped
train-ai=n`` or ""; ``verdict_before`` and ``verdict_after`` the audit's verdicts (``not
captured`` when the site is missing from that crawl); ``rules_before`` and ``rules_after`` the
deciding disallow rules (the audit's ``rules``); ``lines_removed`` and ``lines_added`` the rule
lines of the agent's group(s) (the audit's ``group_rules``) only before, only after, one a line
(both empty when either side is not captured or unreadable: nothing to compare)."""

CHANGES: tuple[str, ...] = ("started blocking entirely", "started blocking partly", "partly to entirely",
                            "entirely to partly", "stopped blocking", "not captured", "captured again",
                            "newly captured", "unreadable", "readable again")
"""What happened between two crawls to a site's blocking of a crawler: blocking entirely or
partly from nothing blocked; from partly to entirely and back; nothing blocked any more; the site
that blocked is missing from the later crawl (``not captured``) or its robots.txt could not be
read (``unreadable``); it is back, blocking (``captured again``, ``newly captured`` when no
earlier crawl had it, ``readable again``)."""

MISSING = "not captured"
_STATE = {"blocked": "entirely", "partly": "partly", "allowed": "none", "no-robots": "none",
          "unreachable": "unreadable", "unknown": MISSING}
_BLOCKING = frozenset({"entirely", "partly"})
_KNOWN_CHANGE = {("none", "entirely"): "started blocking entirely", ("none", "partly"): "started blocking partly",
                 ("partly", "entirely"): "partly to entirely", ("entirely", "partly"): "entirely to partly",
                 ("entirely", "none"): "stopped blocking", ("partly", "none"): "stopped blocking"}


@dataclass(frozen=True)
class OverTime:
    """The audit of several crawls: ``audits`` every crawl's rows with a ``crawl`` column first,
    ``trends`` (:func:`trends`) and ``changes`` (:func:`changes`)."""

    audits: pandas.DataFrame
    trends: pandas.DataFrame
    changes: pandas.DataFrame


def labelled(tables: Mapping[str, pandas.DataFrame] | Iterable[tuple[str, pandas.DataFrame]]) -> pandas.DataFrame:
    """The audit tables of several crawls as one, each row labelled by its crawl in a first
    ``crawl`` column, crawls in the order given (noted in ``attrs["crawls"]``: a label sorting
    before an earlier one keeps its place; a table of no rows adds none). ValueError for a label
    given twice or empty."""
    pd: Any = require("pandas", "batch")
    pairs = list(tables.items()) if isinstance(tables, Mapping) else list(tables)
    labels = [label for label, _ in pairs]
    for label in labels:
        if not isinstance(label, str) or not label.strip():
            raise ValueError(f"a crawl label must be a non-empty string, not {label!r}")
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise ValueError(f"crawl label{'s' if len(twice) > 1 else ''} given twice: {', '.join(twice)}")
    frames = [frame.drop(columns=[CRAWL], errors="ignore").assign(**{CRAWL: label}) for label, frame in pairs]
    if not frames:
        raise ValueError("no crawls to combine")
    combined = pd.concat(frames, ignore_index=True)
    combined = combined[[CRAWL, *(column for column in combined.columns if column != CRAWL)]]
    combined.attrs["crawls"] = labels
    return combined


def crawls_of(audits: pandas.DataFrame) -> list[str]:
    """The crawls of a combined table that have rows, in order: as labelled (``attrs["crawls"]``,
    kept by pandas through filters and copies), then any other by first appearance."""
    seen = list(dict.fromkeys(str(label) for label in audits[CRAWL].tolist()))
    given = [str(label) for label in audits.attrs.get("crawls") or () if str(label) in seen]
    return [*given, *(label for label in seen if label not in given)]


def _agent_order(audits: pandas.DataFrame) -> list[str]:
    return list(dict.fromkeys(str(agent) for agent in audits["agent"].tolist()))


def trends(audits: pandas.DataFrame) -> pandas.DataFrame:
    """Per crawl, each crawler's and each purpose's sites blocking and opting out (:data:`TREND_COLUMNS`).

    ``audits``: audit tables with a ``crawl`` column (:func:`labelled`). Rows: for each crawl in
    order, a ``crawler`` row per agent (in the order audited), then a ``purpose`` row per kind
    (in order of first appearance; agents of no kind, such as ``*``, have none). A crawl with no
    site has ``crawler`` rows for no agent.
    """
    pd: Any = require("pandas", "batch")
    agents = _agent_order(audits)
    kind_of = dict(zip(audits["agent"].astype(str).tolist(), _text(audits["kind"]), strict=True))
    rows: list[tuple[Any, ...]] = []
    for crawl in crawls_of(audits):
        mine = audits[audits[CRAWL] == crawl]
        counted = {agent: [0, 0, 0] for agent in agents}
        opted = {agent: {"robots.txt": 0, "train-ai=n": 0, "both": 0} for agent in agents}
        present: set[str] = set()
        outcomes = _text(mine["training_opt_out"]) if "training_opt_out" in mine.columns else [""] * len(mine)
        for agent, verdict, outcome in zip(mine["agent"].astype(str).tolist(), mine["verdict"].tolist(), outcomes,
                                           strict=True):
            found = counted[agent]
            present.add(agent)
            found[0] += 1
            found[1] += verdict == "blocked"
            found[2] += verdict == "partly"
            if outcome in opted[agent]:
                opted[agent][outcome] += 1
        for agent in agents:
            if agent not in present:
                continue
            sites, blocked, partly = counted[agent]
            outs = opted[agent]
            rows.append((crawl, "crawler", agent, kind_of.get(agent, ""), sites, blocked, partly, _share(blocked, sites),
                         _share(partly, sites), outs["robots.txt"], outs["train-ai=n"], outs["both"]))
        if len(mine):
            purposes = by_purpose(mine)
            sites = int(mine["site"].nunique())
            for kind in dict.fromkeys(purposes["kind"].tolist()):
                of_kind = purposes[purposes["kind"] == kind]
                verdicts = of_kind["verdict"].tolist()
                blocked, partly = verdicts.count("blocked"), verdicts.count("partly")
                outs = of_kind["training_opt_out"].tolist() if kind == TRAINING else []
                rows.append((crawl, "purpose", "", str(kind), sites, blocked, partly, _share(blocked, sites),
                             _share(partly, sites), outs.count("robots.txt"), outs.count("train-ai=n"),
                             outs.count("both")))
    return typed_frame(pd.DataFrame.from_records(rows, columns=list(TREND_COLUMNS)), TREND_FIELDS)


def _share(count: int, total: int) -> float:
    return count / total if total else 0.0


def _text(column: Any) -> list[str]:
    """A column's values as text: missing values (None, NaN, NA) as ""."""
    return ["" if value is None or value != value else str(value)  # noqa: PLR0124 (NaN is not itself)
            for value in column.astype(object).where(column.notna(), None).tolist()]


Fact = tuple[str, "bool | None", str, str, str]
"""What a crawl's row says to an agent: (verdict, train_ai, rules, group_rules, kind)."""


def changes(audits: pandas.DataFrame) -> pandas.DataFrame:
    """The changes between consecutive crawls (:data:`CHANGE_COLUMNS`), sorted by the pair of
    crawls (in order), site and agent (in the order audited); see the module for what is a change."""
    pd: Any = require("pandas", "batch")
    crawls = crawls_of(audits)
    agents = _agent_order(audits)
    order = {agent: place for place, agent in enumerate(agents)}
    facts: dict[str, dict[tuple[str, str], Fact]] = {crawl: {} for crawl in crawls}
    train = audits["train_ai"].astype(object).where(audits["train_ai"].notna(), None).tolist() \
        if "train_ai" in audits.columns else [None] * len(audits)
    group = _text(audits["group_rules"]) if "group_rules" in audits.columns else [""] * len(audits)
    for crawl, site, agent, verdict, train_ai, rules, lines, kind in zip(
            audits[CRAWL].astype(str).tolist(), audits["site"].astype(str).tolist(),
            audits["agent"].astype(str).tolist(), audits["verdict"].astype(str).tolist(), train,
            _text(audits["rules"]), group, _text(audits["kind"]), strict=True):
        facts[crawl][(site, agent)] = (verdict, None if train_ai is None else bool(train_ai), rules, lines, kind)
    rows: list[tuple[Any, ...]] = []
    seen: set[str] = set()
    for before, after in itertools.pairwise(crawls):
        seen.update(site for (site, _), fact in facts[before].items() if _STATE.get(fact[0], MISSING) != MISSING)
        old, new = facts[before], facts[after]
        found: list[tuple[Any, ...]] = []
        for key in set(old) | set(new):
            row = _change(key, before, after, old.get(key), new.get(key), key[0] in seen)
            if row is not None:
                found.append(row)
        found.sort(key=lambda row: (row[0], order.get(row[1], len(order)), row[1]))
        rows.extend(found)
    return pd.DataFrame.from_records(rows, columns=list(CHANGE_COLUMNS))


def _change(key: tuple[str, str], before: str, after: str, old: Fact | None, new: Fact | None,
            seen: bool) -> tuple[Any, ...] | None:
    """The row of :func:`changes` for one site and agent between two crawls, or None: no change."""
    was = _STATE.get(old[0], MISSING) if old is not None else MISSING
    now = _STATE.get(new[0], MISSING) if new is not None else MISSING
    change = _KNOWN_CHANGE.get((was, now), "")
    if not change and was != now:
        if was in _BLOCKING:
            change = now if now == MISSING else "unreadable" if now == "unreadable" else ""
        elif now in _BLOCKING:
            change = {"unreadable": "readable again"}.get(was, "captured again" if seen else "newly captured")
    train_change = ""
    if old is not None and new is not None and not {was, now} & {"entirely", "unreadable", MISSING}:
        refused_before, refused_after = old[1] is False, new[1] is False
        if refused_before != refused_after:
            train_change = "started train-ai=n" if refused_after else "stopped train-ai=n"
    if not change and not train_change:
        return None
    read = old is not None and new is not None and not {was, now} & {"unreadable", MISSING}
    old_lines = old[3].split("\n") if read and old is not None and old[3] else []
    new_lines = new[3].split("\n") if read and new is not None and new[3] else []
    kind = (new or old or ("", None, "", "", ""))[4]
    return (key[0], key[1], kind, before, after, change, train_change,
            old[0] if old is not None else MISSING, new[0] if new is not None else MISSING,
            old[2] if old is not None else "", new[2] if new is not None else "",
            "\n".join(line for line in old_lines if line not in new_lines),
            "\n".join(line for line in new_lines if line not in old_lines))
