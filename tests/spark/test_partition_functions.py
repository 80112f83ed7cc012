"""The Spark engine's per-partition functions are plain Python over Arrow batches: no JVM needed.

What ``mapInArrow`` calls on each partition is called here directly, with pyarrow RecordBatches
built by the test, and its output batches are checked against the local engine's rows for the
same input: the fast path (:func:`robotrules.spark._shipped.url_decider`, the captures shipped to
every task), the shuffle path (:func:`robotrules.spark._rows._decider`, each robots.txt's entry
row sorted before the URL rows it governs, as Spark lays the partition out), the robots URL of
each row (:func:`robotrules.spark._frames._robots_urls`) and the audit of shipped captures. So a
change to the batch internals these functions use (:mod:`robotrules.batch.kit`) fails in the
quick loop, not only where a JVM runs. The archive holds the shapes that decide differently
(F2-F5, F8 and F3's redirects across hosts, S1's schemes, A8's crawlers that ignore ``*``), and
the preference columns are checked too (A1-A7).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Sequence
from types import SimpleNamespace
from typing import Any

import pytest

from robotrules import batch
from robotrules.batch import Archive, Capture
from robotrules.batch.audit import audit_rows, site_keys
from robotrules.batch.engine import ArchiveSource, row_columns, row_fields
from robotrules.core.policy import Policy
from robotrules.crawlers import CRAWLERS
from robotrules.spark._audit import AUDIT_SCHEMA, _shipped_auditor
from robotrules.spark._entries import ENTRY_FIELDS, ENTRY_NAMES, _entry_record
from robotrules.spark._frames import _robots_urls
from robotrules.spark._rows import _decider, archive_judge
from robotrules.spark._shipped import Shipped, url_decider
from tests.batch.usage_sites import PREFERENCE_AGENTS, PREFERENCE_CAPTURES, PREFERENCE_URLS

pa = pytest.importorskip("pyarrow", reason="pyarrow (robotrules[batch]) is not installed")

T = 1_700_000_000.0
RULES = b"User-agent: *\nDisallow: /private\nAllow: /private/open\n\nUser-agent: FooBot\nDisallow: /\n"
CAPTURES = [
    Capture("https://rules.test/robots.txt", 200, {}, RULES, T),
    Capture("http://rules.test/robots.txt", 200, {}, b"User-agent: *\nDisallow: /http-only\n", T),  # S1
    Capture("https://from.test/robots.txt", 301, {"location": "https://to.test/robots.txt"}, b"", T),  # F3
    Capture("https://to.test/robots.txt", 200, {}, b"User-agent: *\nDisallow: /moved\n", T),
    Capture("https://html.test/robots.txt", 200, {"content-type": "text/html"}, b"<html>Disallow: /</html>", T),
    Capture("https://gone.test/robots.txt", 404, {}, b"", T),  # F4
    Capture("https://down.test/robots.txt", 503, {}, b"", T),  # F5
    Capture("https://lost.test/robots.txt", 0, {}, b"", T, "dns"),  # F8
    *PREFERENCE_CAPTURES,
]
HOSTS = ["https://rules.test", "http://rules.test", "https://from.test", "https://html.test", "https://gone.test",
         "https://down.test", "https://lost.test", "https://never.test"]
URLS = [host + page for host in HOSTS for page in ("/", "/private/x", "/private/open/y", "/moved/a", "/http-only")]
URLS += [*PREFERENCE_URLS, "mailto:someone@example.com", "not a url"]
AGENTS = ("*", "FooBot/1.0", "AdsBot-Google", *PREFERENCE_AGENTS[1:])  # AdsBot ignores the * group (A8)


def items() -> list[tuple[str, str | None]]:
    """URL rows: most without an agent (decided for every agent of the job), some with their own,
    one URL asked about by several rows in a row, and rows without a URL."""
    rows: list[tuple[str, str | None]] = []
    for i, url in enumerate(URLS):
        if i % 4 == 0:
            rows.extend((url, agent) for agent in ("FooBot", "*", "GPTBot"))
        else:
            rows.append((url, "AdsBot-Google" if i % 4 == 1 else None))
    return [*rows, ("", None), ("", "FooBot")]


def local_rows(rows: Sequence[tuple[str, str | None]], preferences: bool) -> list[tuple[Any, ...]]:
    """The local engine's rows for ``rows`` (in this process), in input order."""
    given = [(url, agent) if agent else url for url, agent in rows]
    return [tuple(row) for block in batch.rows(given, AGENTS, Archive(CAPTURES), processes=1,
                                                preferences=preferences) for row in block]


def as_rows(batches: Iterator[Any], preferences: bool) -> list[tuple[Any, ...]]:
    """The output batches' rows as tuples in the batch columns' order, after checking the schema."""
    names = list(row_columns(preferences))
    found: list[tuple[Any, ...]] = []
    for out in batches:
        assert out.schema.names == names
        found.extend(tuple(row[name] for name in names) for row in out.to_pylist())
    return found


def url_batch(rows: Sequence[tuple[str, str | None]]) -> Any:
    return pa.RecordBatch.from_arrays([pa.array([u for u, _ in rows], pa.string()),
                                       pa.array([a for _, a in rows], pa.string())], names=["url", "agent"])


@pytest.mark.parametrize("preferences", [False, True], ids=["verdicts", "preferences"])
def test_the_fast_path_decides_an_arrow_batch_as_the_local_engine_does(preferences: bool) -> None:
    """url_decider (the shipped captures' mapInArrow function) gives the local engine's rows, in
    input order, over two batches of one partition; a URL cell that is null or blank is a row
    with url "" (no URL), as on the local engine."""
    given = items()
    shipped = Shipped("test", ArchiveSource(Archive(CAPTURES), Policy(), "google", None))
    run = url_decider(SimpleNamespace(value=shipped), AGENTS, preferences)
    with_blanks = [*given[:-2], (None, None), ("  ", "FooBot")]
    half = len(with_blanks) // 2
    found = as_rows(run(iter([url_batch(with_blanks[:half]), url_batch(with_blanks[half:])])), preferences)
    assert found == local_rows(given, preferences)


def laid_out(rows: Sequence[tuple[str, str | None]], policy: Policy) -> Any:
    """The shuffle path's partition as Spark lays it out: each URL row with its robots URL (found
    by the per-partition function of with_robots_url), each captured robots URL's entry row, all
    sorted by robots URL with the entry first (one salt bucket)."""
    expanded = [(url, agent) for url, own in rows for agent in ((own,) if own else AGENTS)]
    with_robots = next(_robots_urls(iter([url_batch(expanded)]))).to_pylist()
    archive = Archive(CAPTURES)
    wanted = sorted({row["robots_url"] for row in with_robots if row["robots_url"]})
    entries = [_entry_record(robots_url, archive.entry(robots_url, policy, None), None)
               for robots_url in wanted if robots_url in archive]
    laid = [{**entry, "bucket": 0, "side": 0, "url": None, "agent": None} for entry in entries]
    laid += [{**dict.fromkeys(ENTRY_NAMES), **row, "bucket": 0, "side": 1} for row in with_robots]
    laid.sort(key=lambda row: (row["robots_url"], row["side"]))
    kinds = {"string": pa.string(), "int": pa.int32(), "double": pa.float64(), "binary": pa.binary()}
    fields = [(name, kinds[kind]) for name, kind in (part.split() for part in ENTRY_FIELDS.split(", "))]
    schema = pa.schema([fields[0], ("bucket", pa.int32()), ("side", pa.int32()), ("url", pa.string()),
                        ("agent", pa.string()), *fields[1:]])
    return pa.Table.from_pylist(laid, schema=schema)


@pytest.mark.parametrize("preferences", [False, True], ids=["verdicts", "preferences"])
def test_the_shuffle_path_decides_a_sorted_partition_as_the_local_engine_does(preferences: bool) -> None:
    """_decider (the shuffle path's mapInArrow function) gives the local engine's rows from entry
    rows replayed over the captures and URL rows sorted after them, the partition cut into small
    batches (an entry row whose URL rows start in the next batch is carried over)."""
    policy = Policy()
    table = laid_out(items(), policy)
    run = _decider(archive_judge(policy, "google", None), list(ENTRY_NAMES[1:]), policy, "google", preferences)
    found = as_rows(iter(run(iter(table.to_batches(max_chunksize=7)))), preferences)
    assert sorted(found, key=repr) == sorted(local_rows(items(), preferences), key=repr)


def test_the_shipped_audit_classifies_a_batch_of_sites_as_the_local_audit_does() -> None:
    """_shipped_auditor (the audit's mapInArrow function over shipped captures) gives the local
    audit's rows for a batch of site keys, with the audit table's columns."""
    sites = [host + "/" for host in HOSTS] + ["mailto:x@y.test"]
    agents = ("*", "GPTBot", "AdsBot-Google")
    shipped = Shipped("audit", ArchiveSource(Archive(CAPTURES), Policy(), "google", None))
    run = _shipped_auditor(SimpleNamespace(value=shipped), agents, CRAWLERS, False)
    found = list(site_keys(sites))
    keys = pa.RecordBatch.from_arrays([pa.array([key.site for key in found], pa.string()),
                                       pa.array([key.robots_url for key in found], pa.string())],
                                      names=["key", "robots_url"])
    outs = list(run(iter([keys])))
    names = [part.split()[0] for part in AUDIT_SCHEMA.split(", ")]  # a DDL string: no pyspark needed
    assert all(out.schema.names == names for out in outs)
    found = [tuple(row.values()) for out in outs for row in out.to_pylist()]
    assert found == [tuple(row) for row in audit_rows(Archive(CAPTURES), agents, sites=sites, processes=1)]


def test_the_output_schema_is_the_batch_row_fields() -> None:
    """The Arrow schema the functions write is the batch package's row: its columns, in order, of
    their declared types."""
    shipped = Shipped("schema", ArchiveSource(Archive(CAPTURES), Policy(), "google", None))
    run = url_decider(SimpleNamespace(value=shipped), ("*",), True)
    out = next(run(iter([url_batch([("https://rules.test/", None)])])))
    assert [(field.name, str(field.type)) for field in out.schema] == list(row_fields(preferences=True))


def test_the_modules_of_the_per_partition_functions_import_no_pyspark() -> None:
    """The engine's modules can be imported, and their per-partition functions run, without pyspark
    loaded (it is imported only where a DataFrame is made), so these tests need no JVM."""
    code = ("import sys; import robotrules.spark, robotrules.spark._rows, robotrules.spark._shipped, "
            "robotrules.spark._audit, robotrules.spark._live, robotrules.spark._frames; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pyspark'))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
