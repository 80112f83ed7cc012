"""Registries as files, and lookups: read (JSON, CSV, ai.robots.txt's robots.json), write (JSON,
CSV), merge, find by name or token, search.

A registry file may come from anyone, and an export is opened in spreadsheets: a CSV cell that
would start with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return (which a spreadsheet runs
as a formula) is written with a ``'`` before it, as OWASP's CSV-injection guidance says, and
:func:`load` takes that ``'`` off again (:func:`robotrules._cells.csv_cell`, :func:`robotrules._cells.csv_value`); a JSON export writes
C1 controls and invisible or direction-changing characters as ``\\uXXXX`` escapes (JSON already
escapes the other controls). A file nested or with values beyond what can be read is a
``ValueError`` naming it, like any other malformed file.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from robotrules._cells import csv_cell, csv_value
from robotrules.crawlers._builtin import CRAWLERS
from robotrules.crawlers._community import from_ai_robots_txt, is_ai_robots_txt
from robotrules.crawlers._model import FIELDS, Crawler

_REQUIRED = ("operator", "purpose", "kind", "source")
_TRUE = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False, "": False}

_HIDDEN_IN_JSON = re.compile("[\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069"
                             "\ufeff\ufffe\uffff\ud800-\udfff]")
"""What a JSON export writes as ``\\uXXXX`` beyond what ``json.dumps`` escapes: DEL, C1 controls
(the 8-bit CSI and OSC among them), invisible and direction-changing characters, lone surrogates."""


def _rows(data: Any, where: str) -> list[Mapping[str, Any]]:
    if isinstance(data, Mapping) and isinstance(data.get("crawlers", data.get("agents")), list):
        data = data.get("crawlers", data.get("agents"))
    if not isinstance(data, list) or not all(isinstance(row, Mapping) for row in data):
        raise ValueError(f"{where}: expected a list of crawler objects (or {{\"crawlers\": [...]}}), "
                         "or ai.robots.txt's robots.json")
    return data


def _crawler(row: Mapping[str, Any], where: str) -> Crawler:
    missing = [name for name in _REQUIRED if name not in row]
    if "token" not in row and "name" not in row:
        missing.insert(0, "token")
    if missing:
        raise ValueError(f"{where}: missing field{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    unknown = sorted(set(row) - set(FIELDS) - {"token_valid"})
    if unknown:
        raise ValueError(f"{where}: unknown field{'s' if len(unknown) > 1 else ''} {', '.join(map(str, unknown))}")
    values: dict[str, Any] = {key: value.strip() if isinstance(value, str) else value for key, value in row.items()}
    values.pop("token_valid", None)
    flag = values.get("ignores_global", False)
    if isinstance(flag, str):
        if flag.lower() not in _TRUE:
            raise ValueError(f"{where}: ignores_global must be true or false, not {flag!r}")
        values["ignores_global"] = _TRUE[flag.lower()]
    values.setdefault("token", values.get("name", ""))
    values["origin"] = values.get("origin") or "file"
    values["obeys"] = values.get("obeys") or "unknown"
    try:
        return Crawler(**values)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: {exc}") from None


def load(path: str | os.PathLike[str]) -> tuple[Crawler, ...]:
    """Read crawlers from a ``.json`` file (a list of objects, ``{"crawlers": [...]}``, or
    ai.robots.txt's ``robots.json`` as it is published) or a ``.csv`` file (a header row naming
    :data:`~robotrules.crawlers.FIELDS`, then one crawler a row).

    A row needs ``operator``, ``purpose``, ``kind``, ``source`` and ``name`` or ``token``;
    ``obeys`` (default "unknown"), ``ignores_global`` (default false) and ``origin`` (default
    "file") are optional. ``ValueError`` names the file and row of anything malformed (a missing
    or unknown field, an unknown ``kind``, a ``source`` that is not an http(s) URL); ``OSError``
    if it cannot be read. Returns only what the file holds: :func:`merge` it with
    :data:`~robotrules.crawlers.CRAWLERS` to extend the registry.
    """
    name = os.fspath(path)
    with open(name, encoding="utf-8-sig", newline="") as handle:
        text = handle.read()
    if name.lower().endswith(".csv"):
        rows, start, unit = _csv_rows(text, name), 2, "line"
    else:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{name}: not valid JSON: {exc}") from None
        except RecursionError:
            raise ValueError(f"{name}: not a registry: its JSON is nested too deeply to read") from None
        except ValueError as exc:  # a number too long to read, say
            raise ValueError(f"{name}: not valid JSON: {exc}") from None
        if is_ai_robots_txt(data):
            try:
                return from_ai_robots_txt(data)
            except ValueError as exc:
                raise ValueError(f"{name}: {exc}") from None
        rows = _rows(data, name)
        start, unit = 0, "item"
    return tuple(_crawler(row, f"{name} {unit} {n}") for n, row in enumerate(rows, start))


def _csv_rows(text: str, name: str) -> list[Mapping[str, Any]]:
    """The rows of a CSV registry, each cell as :func:`robotrules._cells.csv_value` reads it; ``ValueError`` naming
    the file and line of anything that is not a row of the header's columns."""
    reader = csv.DictReader(io.StringIO(text))
    rows: list[Mapping[str, Any]] = []
    try:
        if reader.fieldnames is None:
            raise ValueError(f"{name}: empty CSV file (expected a header row: {','.join(FIELDS)})")
        for row in reader:
            if None in row:
                raise ValueError(f"{name} line {reader.line_num}: more values than header columns")
            rows.append({key: csv_value(value) for key, value in row.items()
                         if value != "" or key in _REQUIRED})
    except csv.Error as exc:
        limit = csv.field_size_limit()
        why = f"a value longer than {limit:,} characters" if "field limit" in str(exc) else f"not CSV ({exc})"
        raise ValueError(f"{name} line {reader.line_num + 1}: {why}") from None
    return rows


def dumps(registry: Iterable[Crawler], form: str) -> str:
    """``registry`` as a ``"json"`` document (``{"crawlers": [...]}``) or ``"csv"`` table that
    :func:`load` reads back to the same entries; safe to open (see the module: no cell a
    spreadsheet runs as a formula, no hidden or direction-changing character as it is)."""
    rows = [crawler.to_dict() for crawler in registry]
    if form == "json":
        text = json.dumps({"crawlers": rows}, indent=2, ensure_ascii=False) + "\n"
        return _HIDDEN_IN_JSON.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
    if form != "csv":
        raise ValueError(f"form must be 'json' or 'csv', not {form!r}")
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(FIELDS), extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: csv_cell(value) if isinstance(value, str) else value
                      for key, value in {**row, "ignores_global": "true" if row["ignores_global"] else "false"}.items()}
                     for row in rows)
    return out.getvalue()


def merge(*registries: Iterable[Crawler]) -> tuple[Crawler, ...]:
    """One registry from several: a later entry replaces an earlier one with the same name
    (case-insensitive) in its place; new names are added at the end."""
    found: dict[str, Crawler] = {}
    for registry in registries:
        for crawler in registry:
            found[crawler.name.lower()] = crawler
    return tuple(found.values())


def by_token(token: str, registry: Sequence[Crawler] = CRAWLERS) -> Crawler | None:
    """The crawler named ``token`` (compared case-insensitively, as Google compares tokens), else
    the first whose product token it is ("AI" finds AI2Bot), or None."""
    wanted = token.strip().lower()
    named = next((crawler for crawler in registry if crawler.name.lower() == wanted), None)
    return named or next((crawler for crawler in registry if crawler.token.lower() == wanted), None)


def search(query: str, registry: Sequence[Crawler] = CRAWLERS) -> tuple[Crawler, ...]:
    """The crawlers whose name, token, operator, purpose, kind or origin contains ``query``
    (case-insensitive), in registry order; every crawler for an empty query."""
    wanted = query.strip().lower()
    return tuple(crawler for crawler in registry
                 if not wanted or any(wanted in str(value).lower() for value in
                                      (crawler.name, crawler.token, crawler.operator, crawler.purpose, crawler.kind,
                                       crawler.origin)))
