"""A chunk of decided rows in compact columns: what a worker process of the local engine sends back.

A pickled row tuple costs about half a microsecond to write and as much to read, as much as
deciding it; a :class:`Block` crosses between processes as a few bytes a row (the verdict, the
line) plus, once per chunk, the robots.txt files that governed it and their deciding lines.
The URLs and agents are not sent back: the calling process has them. Rows (tuples in
:data:`~robotrules.answers.COLUMNS` order, then the preference columns when the job asks
for them: a code a category a row) are made when the block is read, and a consumer that only
counts (:meth:`Block.counts`) never makes them.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from itertools import repeat
from operator import itemgetter
from typing import Any, cast, overload

from robotrules.answers import Governing, Row
from robotrules.batch.engine.rows import NO_ROBOTS, PREFERENCE_COLUMNS, Item, PreferenceReader, ignoring_at, verdict_of
from robotrules.core.robotstxt import AgentRules
from robotrules.errors import require

__all__ = ["Block", "BlockBuilder"]

_UNKNOWN = 2
_VALUES = (False, True, None)  # by verdict code: 0 disallowed, 1 allowed, 2 nothing known
_CATEGORIES = len(PREFERENCE_COLUMNS)
_CODE = {False: 0, True: 1, None: _UNKNOWN}  # a preference as a code (the verdict codes' values)
_NO_CODES = bytes([_UNKNOWN]) * _CATEGORIES


class Block(Sequence[Row]):
    """The rows of one chunk of items: a sequence of row tuples, made when first read."""

    __slots__ = ("_rows", "agents", "allowed", "gov_of", "govs", "items", "lines", "notes", "prefs", "texts")

    def __init__(self, agents: tuple[str, ...], govs: list[tuple[str, int, str, str]], gov_of: array[int],
                 allowed: bytearray, lines: array[int], texts: dict[tuple[int, int], str],
                 prefs: bytearray | None = None, notes: dict[int, str] | None = None) -> None:
        self.agents = agents
        self.govs = govs
        """(robots URL, status, reason, outcome class) of each robots.txt that governed rows of the chunk."""
        self.gov_of = gov_of
        """Per item: its governor's index in :attr:`govs` (a URL with no robots.txt has one too)."""
        self.allowed = allowed
        """Per row: 0 disallowed, 1 allowed, 2 nothing known."""
        self.lines = lines
        """Per row: the deciding line, 0 when none."""
        self.texts = texts
        """(governor index, line) -> the line as written."""
        self.prefs = prefs
        """Per row and category, in that order: the preference code (as :attr:`allowed`); None
        when the job has no preference columns."""
        self.notes = notes or {}
        """Row -> its own reason, where it is not its governor's: a crawler that ignores the
        ``*`` group (A8) and was decided without it says so."""
        self.items: list[Item] = []
        self._rows: list[Row] | None = None

    def __getstate__(self) -> tuple[object, ...]:
        return (self.agents, self.govs, self.gov_of, self.allowed, self.lines, self.texts, self.prefs, self.notes)

    def __setstate__(self, state: tuple[object, ...]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    def __len__(self) -> int:
        return len(self.allowed)

    @overload
    def __getitem__(self, index: int) -> Row: ...
    @overload
    def __getitem__(self, index: slice) -> list[Row]: ...
    def __getitem__(self, index: int | slice) -> Row | list[Row]:
        return self.rows()[index]

    def __iter__(self) -> Iterator[Row]:
        return iter(self.rows())

    def counts(self) -> tuple[int, int, int]:
        """(allowed, disallowed, unknown) rows, without making the rows."""
        allowed = self.allowed
        return allowed.count(1), allowed.count(0), allowed.count(_UNKNOWN)

    def rows(self) -> list[Row]:
        """The row tuples, in input order (made once)."""
        if self._rows is not None:
            return self._rows
        rows: list[Row] = []
        append = rows.append
        allowed, lines, texts, govs, agents, notes = self.allowed, self.lines, self.texts, self.govs, self.agents, self.notes
        k = 0
        for item, g in zip(self.items, self.gov_of, strict=True):
            if type(item) is str:
                url, names = item, agents
            else:
                url, names = item[0], (item[1],)
            where, status, reason, outcome = govs[g]
            for agent in names:
                line = lines[k]
                append((url, agent, _VALUES[allowed[k]], line, texts[g, line] if line else "", where, status,
                        notes.get(k, reason) if notes else reason, outcome))
                k += 1
        prefs = self.prefs
        if prefs is not None:  # rows with the preference columns, after those of Row
            rows = [cast("Row", (*row, *(_VALUES[code] for code in prefs[k * _CATEGORIES:(k + 1) * _CATEGORIES])))
                    for k, row in enumerate(rows)]
        self._rows = rows
        return rows

    def to_arrow(self, schema: Any) -> Any:
        """The rows as a pyarrow Table of ``schema`` (the columns of COLUMNS, then the preference
        columns when the block has them), built column by column from the compact form (no row tuples)."""
        pa: Any = require("pyarrow", "batch")
        pc: Any = require("pyarrow.compute", "batch")
        items, agents, size = self.items, self.agents, len(self)
        if all(type(item) is str for item in items):
            per = len(agents)
            row = pa.array(range(size), pa.int64())
            item_of = pc.divide(row, per) if per else row
            urls = pa.array(items, pa.string()).take(item_of)
            agent_col = pa.array(agents, pa.string()).take(pc.subtract(row, pc.multiply(item_of, per)))
        else:
            item_index: list[int] = []
            names: list[str] = []
            for i, item in enumerate(items):
                own = agents if type(item) is str else (item[1],)
                item_index.extend([i] * len(own))
                names.extend(own)
            item_of = pa.array(item_index, pa.int64())
            urls = pa.array([item if type(item) is str else item[0] for item in items], pa.string()).take(item_of)
            agent_col = pa.array(names, pa.string())
        gov = pa.array(self.gov_of, pa.int64()).take(item_of)
        codes = pa.Array.from_buffers(pa.uint8(), size, [None, pa.py_buffer(bytes(self.allowed))])
        lines = pa.Array.from_buffers(pa.int64(), size, [None, pa.py_buffer(self.lines)])
        keys = pc.add(pc.multiply(gov, 1 << 32), lines)  # (governor, line) as one integer
        known = sorted(self.texts)
        found = pc.index_in(keys, value_set=pa.array([g << 32 | line for g, line in known], pa.int64()))
        texts = pa.array([self.texts[key] for key in known], pa.string()).take(found).fill_null("")
        columns = {
            "url": urls, "agent": agent_col, "allowed": pa.array(_VALUES, pa.bool_()).take(codes),
            "line": lines, "rule": texts,
            **governing_columns(pa, self.govs, gov),
        }
        if self.notes:  # A8: the few rows decided without the "*" group say so
            reasons = columns["reason"].to_pylist()
            for row, note in self.notes.items():
                reasons[row] = note
            columns["reason"] = pa.array(reasons, pa.string())
        if self.prefs is not None:
            values = pa.array(_VALUES, pa.bool_())
            for index, name in enumerate(PREFERENCE_COLUMNS):
                codes = pa.Array.from_buffers(pa.uint8(), size, [None, pa.py_buffer(bytes(self.prefs[index::_CATEGORIES]))])
                columns[name] = values.take(codes)
        return pa.Table.from_arrays([columns[f.name].cast(f.type) for f in schema], schema=schema)


def governing_columns(pa: Any, govs: Sequence[tuple[str, int, str, str]], gov: Any) -> dict[str, Any]:
    """The columns every row takes from the robots.txt that governs it (robots_url, robots_status,
    reason, robots_outcome), from each governor's ``(url, status, reason, outcome)`` in ``govs``
    and each row's governor index in ``gov`` (an Arrow array): one home for both engines."""
    return {
        "robots_url": pa.array([g[0] for g in govs], pa.string()).take(gov),
        "robots_status": pa.array([g[1] for g in govs], pa.int32()).take(gov),
        "reason": pa.array([g[2] for g in govs], pa.string()).take(gov),
        "robots_outcome": pa.array([g[3] for g in govs], pa.string()).take(gov),
    }


class BlockBuilder:
    """Collects the decisions of one chunk into a :class:`Block` (in the process that decides).

    Per URL it only appends (its governor, its agents' verdicts as :meth:`RobotsTxt.verdicts`
    gives them); the columns and the deciding lines' texts are made once, by :meth:`block`.
    """

    def __init__(self, agents: tuple[str, ...], preferences: bool = False) -> None:
        self.agents = agents
        self._prefs: bytearray | None = bytearray() if preferences else None
        self._readers: dict[int, PreferenceReader] = {}  # by governor index
        self._last_reader: PreferenceReader | None = None
        self._index: dict[int, int] = {}  # id(Governing), or id(None) -> index in govs
        self._governors: list[Governing | None] = []  # by index (and kept alive: ids stay valid)
        self.govs: list[tuple[str, int, str, str]] = []
        self.gov_of: array[int] = array("i")
        self._gov_rows: array[int] = array("i")
        self._found: list[tuple[int, int]] = []  # per row: (verdict code, line)
        self._notes: dict[int, str] = {}  # per row, where its reason is its own (A8)
        # The governor and tokens of the last URL added (False: none yet), its index and rules.
        self._last: Governing | bool | None = False
        self._last_tokens: tuple[str, ...] = ()
        self._last_index = -1
        self._last_rules: AgentRules | None = None
        self._last_fill = (_UNKNOWN, 0)  # each row's (code, line) when there are no rules to match

    def add(self, url: str, tokens: tuple[str, ...], gov: Governing | None, names: tuple[str, ...] | None = None) -> None:
        """Decide ``url`` for each of ``tokens`` (product tokens of ``names``, the agents as given;
        default the job's agents) under ``gov`` (None: no robots.txt). A crawler that ignores the
        ``*`` group (A8) is decided without it, as :func:`~robotrules.batch.engine.rows.decide_url` does."""
        if gov is not self._last or tokens is not self._last_tokens:
            self._switch(gov, tokens)
        g = self._last_index
        self.gov_of.append(g)
        self._gov_rows.extend(repeat(g, len(tokens)))
        rules = self._last_rules
        found = self._found
        if rules is not None:
            found.extend(rules.verdicts(url))  # (allowed, line): True and False are 1 and 0
            ignoring = ignoring_at(tokens)
            if ignoring:
                self._without_global(url, tokens, names or self.agents, ignoring)
        else:
            found.extend(repeat(self._last_fill, len(tokens)))
        prefs = self._prefs
        if prefs is not None:
            reader = self._last_reader
            start = len(found) - len(tokens)
            for k, token in enumerate(tokens):
                if reader is None or not reader.stated(token):
                    prefs += _NO_CODES
                else:
                    allowed = bool(found[start + k][0])
                    prefs.extend(_CODE[value] for value in reader.preferences(url, token, allowed))

    def _without_global(self, url: str, tokens: tuple[str, ...], names: tuple[str, ...],
                        ignoring: tuple[int, ...]) -> None:
        """A8: the rows of the tokens at ``ignoring`` (just added), decided again without the
        ``*`` group where it decided them, each with its own reason."""
        gov = cast("Governing", self._last)
        robots = cast("Any", gov.robots)
        start = len(self._found) - len(tokens)
        for at in ignoring:
            decision = robots.check(url, tokens[at])
            if decision.agent == "*":
                decision = robots.check(url, tokens[at], global_group=False)
                self._found[start + at] = (int(decision.allowed), decision.line)
                self._notes[start + at] = f"{gov.reason}; {names[at]} ignores the group 'user-agent: *'"

    def _switch(self, gov: Governing | None, tokens: tuple[str, ...]) -> None:
        """Make ``gov`` and ``tokens`` those of the URLs that follow (they often share them)."""
        index = self._index.get(id(gov))
        if index is None:
            index = self._index[id(gov)] = len(self.govs)
            self._governors.append(gov)
            self.govs.append(("", 0, NO_ROBOTS, "") if gov is None
                             else (gov.robots_url, gov.status, gov.reason, gov.outcome))
        self._last, self._last_tokens, self._last_index = gov, tokens, index
        self._last_rules = None if gov is None else gov.rules_for(tokens)
        if self._prefs is not None:
            reader = None
            if gov is not None and gov.robots is not None:
                reader = self._readers.get(index)
                if reader is None:
                    reader = self._readers[index] = PreferenceReader(gov)
            self._last_reader = reader
        code = None if gov is None else verdict_of(gov)
        self._last_fill = (_UNKNOWN if code is None else int(code), 0)

    def block(self, items: list[Item]) -> Block:
        """The block of the decisions added (``items``: the chunk they were added for)."""
        found = self._found
        allowed = bytearray(map(itemgetter(0), found))
        lines = array("q", map(itemgetter(1), found))
        texts: dict[tuple[int, int], str] = {}
        for g, line in set(zip(self._gov_rows, lines, strict=True)):
            if line:
                texts[g, line] = self._governors[g].texts[line]  # type: ignore[union-attr]  # lines come from rules
        block = Block(self.agents, self.govs, self.gov_of, allowed, lines, texts, self._prefs, self._notes)
        block.items = items
        return block
