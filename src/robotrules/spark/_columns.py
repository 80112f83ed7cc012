"""Decided rows as Arrow columns: what the Spark tasks hand back, never row tuples.

A task decides its URL rows a URL at a time, for every agent asked about it at once (the rows
of one URL that follow each other, or a URL without an agent of its own, decided for every
agent of the job), with the rules each tuple of agents obeys selected once per robots.txt
(:meth:`Governing.rules_for <robotrules.answers.Governing.rules_for>`, the core's
:class:`~robotrules.core.robotstxt.AgentRules`). :class:`Columns` keeps only what differs from
row to row (a verdict code, the deciding line, the index of the robots.txt that governs it, the
preference codes) and makes the output batch column by column with Arrow's ``take``; the strings
shared by many rows (the robots URL, the reason, the outcome class, the deciding line as
written) are made once.

Every row is the one :func:`robotrules.batch.engine.rows.decide_url` makes for the same URL, agents
and :class:`~robotrules.answers.Governing`: the verdicts of ``AgentRules``, A8 (a crawler
that ignores the ``*`` group is decided without it, and its reason says so), and the preference
columns of a :class:`~robotrules.batch.engine.rows.PreferenceReader` (A1-A7).
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from functools import lru_cache
from itertools import repeat
from operator import itemgetter
from typing import Any

from robotrules.answers import Governing, token_of
from robotrules.batch.kit import (
    NO_ROBOTS,
    NO_URL,
    PREFERENCE_COLUMNS,
    PreferenceReader,
    governing_columns,
    ignoring_at,
    no_url,
    verdict_of,
)
from robotrules.core.robotstxt import AgentRules

__all__ = ["Columns", "tokens_for"]

_UNKNOWN = 2
_VALUES = (False, True, None)  # by code: 0 disallowed, 1 allowed, 2 nothing known
_CODE = {False: 0, True: 1, None: _UNKNOWN}
_CATEGORIES = len(PREFERENCE_COLUMNS)
_NO_CODES = bytes([_UNKNOWN]) * _CATEGORIES


@lru_cache(maxsize=4096)
def tokens_for(agents: tuple[str, ...]) -> tuple[str, ...]:
    """The product tokens of ``agents`` (G3), one tuple object per tuple of agents (memoised), so
    that rows asking for the same agents share one selection of rules."""
    return tuple(token_of(agent) for agent in agents)


class Columns:
    """The decisions of one batch of rows, kept compact, then made into an Arrow batch.

    :meth:`add` decides one URL for a tuple of agents under a governor (None: the URL has no
    robots.txt); :meth:`batch` makes the output columns, given the ``url`` and ``agent`` columns
    of the rows in the order they were added. Made and used by one task (not thread-safe).
    """

    __slots__ = ("_found", "_index", "_last", "_last_fill", "_last_ignoring", "_last_index", "_last_reader",
                 "_last_rules", "_last_tokens", "_owners", "_prefs", "_readers", "_rows", "govs")

    def __init__(self, preferences: bool = False) -> None:
        self.govs: list[tuple[str, int, str, str]] = []  # by index: (robots URL, status, reason, outcome class)
        self._owners: list[Governing | None] = []  # by index: the Governing (kept alive: ids stay valid)
        self._index: dict[tuple[int, str], int] = {}  # (id(governor), the agent an A8 note names) -> index
        self._readers: dict[int, PreferenceReader] = {}
        self._rows: array[int] = array("i")  # per row: its governor's index
        self._found: list[tuple[int, int]] = []  # per row: (verdict code, line)
        self._prefs: bytearray | None = bytearray() if preferences else None
        self._last: Governing | bool | None = False  # the governor of the last URL added (False: none yet)
        self._last_tokens: tuple[str, ...] = ()
        self._last_index = -1
        self._last_rules: AgentRules | None = None
        self._last_ignoring: tuple[int, ...] = ()
        self._last_reader: PreferenceReader | None = None
        self._last_fill = (_UNKNOWN, 0)

    def __len__(self) -> int:
        return len(self._found)

    def _governor(self, gov: Governing | None, reason: str, note: str = "") -> int:
        key = (id(gov), note or reason)
        index = self._index.get(key)
        if index is None:
            index = self._index[key] = len(self.govs)
            self._owners.append(gov)
            self.govs.append(("", 0, reason, "") if gov is None else (gov.robots_url, gov.status, reason, gov.outcome))
        return index

    def _switch(self, url: str, gov: Governing | None, tokens: tuple[str, ...]) -> None:
        """Make ``gov`` and ``tokens`` those of the URLs that follow (they often share them)."""
        self._last, self._last_tokens = gov, tokens
        if gov is None:  # no robots.txt: an empty URL and a URL of another scheme differ in reason
            self._last = False
            self._last_index = self._governor(None, NO_URL if no_url(url) else NO_ROBOTS)
            self._last_rules, self._last_reader, self._last_fill = None, None, (_UNKNOWN, 0)
            return
        self._last_index = self._governor(gov, gov.reason)
        self._last_rules = gov.rules_for(tokens)
        self._last_ignoring = ignoring_at(tokens) if gov.robots is not None else ()
        code = verdict_of(gov)
        self._last_fill = (_UNKNOWN if code is None else int(code), 0)
        reader = None
        if self._prefs is not None and gov.robots is not None:
            reader = self._readers.get(self._last_index)
            if reader is None:
                reader = self._readers[self._last_index] = PreferenceReader(gov)
        self._last_reader = reader

    def add(self, url: str, agents: Sequence[str], tokens: tuple[str, ...], gov: Governing | None) -> None:
        """Decide ``url`` for each of ``agents`` (their product ``tokens``, from :func:`tokens_for`)
        under ``gov``, as :func:`~robotrules.batch.engine.rows.decide_url` does."""
        if gov is not self._last or tokens is not self._last_tokens:
            self._switch(url, gov, tokens)
        count = len(tokens)
        index = self._last_index
        rules = self._last_rules
        found = self._found
        start = len(found)
        if rules is None:
            found.extend(repeat(self._last_fill, count))
            self._rows.extend(repeat(index, count))
        else:
            found.extend(rules.verdicts(url))  # (allowed, line): True and False are 1 and 0
            self._rows.extend(repeat(index, count))
            ignoring = self._last_ignoring
            if ignoring:
                assert gov is not None and gov.robots is not None
                robots = gov.robots
                for at in ignoring:  # A8: decided without the "*" group, and the row says so
                    if robots.check(url, tokens[at]).agent == "*":
                        decision = robots.check(url, tokens[at], global_group=False)
                        found[start + at] = (decision.allowed, decision.line)
                        note = f"{gov.reason}; {agents[at]} ignores the group 'user-agent: *'"
                        self._rows[start + at] = self._governor(gov, note, note)
        prefs = self._prefs
        if prefs is not None:
            reader = self._last_reader
            if reader is None:
                prefs += _NO_CODES * count
            else:
                for k, token in enumerate(tokens):
                    if not reader.stated(token):
                        prefs += _NO_CODES
                    else:
                        allowed = bool(found[start + k][0])
                        prefs.extend(_CODE[value] for value in reader.preferences(url, token, allowed))

    def batch(self, pa: Any, pc: Any, schema: Any, urls: Any, agents: Any) -> Any:
        """The rows as an Arrow RecordBatch of ``schema`` (:func:`~robotrules.batch.engine.rows.row_fields`),
        with ``urls`` and ``agents`` (Arrow arrays, one value a row, in the order added) as the
        first two columns."""
        size = len(self._found)
        found = self._found
        codes = pa.Array.from_buffers(pa.uint8(), size, [None, pa.py_buffer(bytearray(map(itemgetter(0), found)))])
        line_values = array("i", map(itemgetter(1), found))
        lines = pa.Array.from_buffers(pa.int32(), size, [None, pa.py_buffer(line_values)])
        gov = pa.Array.from_buffers(pa.int32(), size, [None, pa.py_buffer(self._rows)])
        owners = self._owners
        known = sorted({(g, line) for g, line in zip(self._rows, line_values, strict=True) if line})
        if known:
            keys = pc.add(pc.multiply(gov.cast(pa.int64()), 1 << 32), lines.cast(pa.int64()))
            where = pc.index_in(keys, value_set=pa.array([g << 32 | line for g, line in known], pa.int64()))
            texts = [owners[g].texts[line] for g, line in known]  # type: ignore[union-attr]  # lines come from rules
            rule = pa.array(texts, pa.string()).take(where).fill_null("")
        else:
            rule = pa.repeat("", size).cast(pa.string())
        columns: dict[str, Any] = {
            "url": urls, "agent": agents, "allowed": pa.array(_VALUES, pa.bool_()).take(codes),
            "line": lines, "rule": rule,
            **governing_columns(pa, self.govs, gov),
        }
        for f in schema:  # any other column of the robots.txt that governs the row (one value per governor)
            if f.name not in columns and f.name not in PREFERENCE_COLUMNS:
                columns[f.name] = pa.array([getattr(owner, f.name, None) for owner in owners], f.type).take(gov)
        if self._prefs is not None:
            values = pa.array(_VALUES, pa.bool_())
            for index, name in enumerate(PREFERENCE_COLUMNS):
                picked = bytes(self._prefs[index::_CATEGORIES])
                columns[name] = values.take(pa.Array.from_buffers(pa.uint8(), size, [None, pa.py_buffer(picked)]))
        return pa.RecordBatch.from_arrays([columns[f.name].cast(f.type) for f in schema], schema=schema)
