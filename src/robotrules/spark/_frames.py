"""Spark sessions and the frames every job reads and writes: captures, URL tables, outputs.

Files are read where Spark tasks run, by the local engine's own readers
(:func:`robotrules.batch.inputs.files.read_captures`), so both engines see the same captures.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from robotrules._cells import FORMULA_START
from robotrules.batch.kit import (
    BadRecord,
    Capture,
    DamagedArchive,
    SourceError,
    capture_of_row,
    read_captures,
    robots_url_of,
    source_files,
)
from robotrules.errors import require

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame, SparkSession

__all__ = ["bad_records_accumulator", "captures_frame", "damage_of", "read_urls", "session", "sorted_records",
           "source_error_of", "with_robots_url", "write", "write_observed"]

_CAPTURE_SCHEMA = "url string, status int, headers string, body binary, fetched_at double, error string"


def _pyspark() -> Any:
    return require("pyspark.sql", "spark")


# --------------------------------------------------------------------------- session


def session(
    master: str = "local[*]",
    *,
    app_name: str = "robotrules",
    shuffle_partitions: int = 8,
    conf: Mapping[str, str] | None = None,
) -> SparkSession:
    """A SparkSession for ``master`` whose Python workers run this interpreter, with quiet logs.

    Local mode needs only Java (17 or later for pyspark 4). ``conf`` adds or overrides settings.
    On a cluster, prefer ``spark-submit`` and ``SparkSession.builder`` (see docs/guides/spark.md).
    """
    sql = _pyspark()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    builder = (
        sql.SparkSession.builder.master(master)
        .appName(app_name)
        .config("spark.pyspark.python", sys.executable)
        .config("spark.pyspark.driver.python", sys.executable)
        .config("spark.sql.shuffle.partitions", str(shuffle_partitions))
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.adaptive.enabled", "false")  # keep the partitioning by robots URL as asked
    )
    for key, value in (conf or {}).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- captures


class _BadRecords:
    """The accumulator parameter (pyspark's ``AccumulatorParam`` protocol) of damaged records met
    by the tasks, as a set: a file read again (a retried task, a frame used twice) adds nothing new."""

    def zero(self, value: frozenset[BadRecord]) -> frozenset[BadRecord]:
        return frozenset()

    def addInPlace(self, value1: frozenset[BadRecord], value2: frozenset[BadRecord]) -> frozenset[BadRecord]:
        return frozenset(value1) | frozenset(value2)


def bad_records_accumulator(spark: SparkSession) -> Any:
    """A Spark accumulator of the damaged records the tasks skip (its ``value``: a frozenset of
    :class:`~robotrules.batch.inputs.warc.reading.BadRecord`), for ``skipped=`` of :func:`captures_frame`."""
    param: Any = _BadRecords()  # pyspark's AccumulatorParam protocol, duck-typed (no pyspark import at module level)
    return spark.sparkContext.accumulator(frozenset(), param)


_DAMAGE = re.compile(r"DamagedArchive: (?P<path>.+?): damaged at byte (?P<offset>[0-9]+): (?P<detail>[^\n]*)")


def damage_of(exc: BaseException) -> DamagedArchive | None:
    """The :class:`~robotrules.errors.DamagedArchive` a task raised, from the error Spark
    raised for it on the driver (None when it was something else)."""
    if isinstance(exc, DamagedArchive):
        return exc
    found = _DAMAGE.search(str(exc))
    if found is None:
        return None
    return DamagedArchive(BadRecord(found["path"], int(found["offset"]), found["detail"].strip()))


_SOURCE_ERROR = re.compile(r"^robotrules\.errors\.SourceError: (?P<message>[^\n]*)$", re.MULTILINE)


def source_error_of(exc: BaseException) -> SourceError | None:
    """The :class:`~robotrules.errors.SourceError` a task raised (a source that cannot be
    used: a bad row in a table of captures, a file the executors cannot read), from the error
    Spark raised for it on the driver, with the message the local engine gives for the same
    input; None when the task failed otherwise. Spark carries a task's error as the text of its
    traceback, so it is found there, as :func:`damage_of` finds a damaged archive."""
    if isinstance(exc, SourceError):
        return exc
    found = list(_SOURCE_ERROR.finditer(str(exc)))
    return SourceError(found[-1]["message"].strip()) if found else None


_TASK_LOGGERS = ("org.apache.spark.executor.Executor", "org.apache.spark.scheduler.TaskSetManager")
"""The JVM's loggers that print a failed task's error again (the Java trace with the worker's
Python traceback in it) besides the exception the driver raises for it."""


@contextlib.contextmanager
def quiet_task_failures(spark: SparkSession) -> Iterator[None]:
    """Within the block, a failed task is reported once: by the exception the job raises on the
    driver (which carries its whole error), not also by the executor's log on stderr. The two
    loggers that repeat it (:data:`_TASK_LOGGERS`) are turned off, and put back afterwards to
    their level (inherited again when they inherited it). Nothing is changed where the JVM's
    logging cannot be reached (Spark Connect, another logging backend)."""
    try:
        jvm: Any = spark.sparkContext._jvm
        log4j = jvm.org.apache.logging.log4j
        configurator = log4j.core.config.Configurator
        root = log4j.LogManager.getRootLogger().getLevel()
        before = {name: log4j.LogManager.getLogger(name).getLevel() for name in _TASK_LOGGERS}
        for name in _TASK_LOGGERS:
            configurator.setLevel(name, log4j.Level.OFF)
    except Exception:  # no JVM to reach: the logs stay as they are
        yield
        return
    try:
        yield
    finally:
        with contextlib.suppress(Exception):
            for name, level in before.items():
                configurator.setLevel(name, None if level.equals(root) else level)


def sorted_records(records: Iterable[BadRecord]) -> tuple[BadRecord, ...]:
    """Damaged records in file order."""
    return tuple(sorted(records, key=lambda bad: (bad.path, bad.offset)))


def captures_frame(spark: SparkSession, robots: DataFrame | str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
                   *, skipped: Any = None) -> DataFrame:
    """Captures as a DataFrame of ``url, status, headers, body, fetched_at, error``.

    ``robots`` is a DataFrame (``url`` or ``robots_url``; ``headers`` a map or a JSON object text;
    ``body`` binary or text; the others optional) or paths of files and folders the local engine
    reads (``.warc``, ``.warc.gz``, ``.parquet``, ``.csv``, ``.jsonl``, ...). Files are read in the
    executors, one task per file, by the local engine's own readers
    (:func:`robotrules.batch.inputs.files.read_captures`), so both engines see the same captures; the
    paths must be readable where the tasks run (a shared or local file system). A damaged record
    fails the job with :class:`~robotrules.errors.DamagedArchive` (:func:`damage_of` finds
    it in Spark's error); with ``skipped`` (a :func:`bad_records_accumulator`) it is skipped and
    added there, and the rest of the file is read.
    """
    sql = _pyspark()
    if isinstance(robots, sql.DataFrame):
        return _normalise(robots)
    paths = cast("str | os.PathLike[str] | Sequence[str | os.PathLike[str]]", robots)
    given = [os.fspath(paths)] if isinstance(paths, (str, os.PathLike)) else [os.fspath(p) for p in paths]
    if not given:
        raise ValueError("no robots.txt sources given")
    files = source_files(given)  # SourceError (a ValueError) for a bad one
    # One task per file, partition i reading file i: collected, the captures come file by file in
    # the order given, as the local engine reads them (of two captures of a URL made at the same
    # time, the one read later wins).
    listing = spark.createDataFrame(spark.sparkContext.parallelize([(p,) for p in files], len(files)), "path string")
    return listing.mapInArrow(_file_reader(skipped), _CAPTURE_SCHEMA)


def _normalise(frame: DataFrame) -> DataFrame:
    """The capture columns of ``frame``, typed; missing optional columns get their defaults."""
    F: Any = require("pyspark.sql.functions", "spark")
    T: Any = require("pyspark.sql.types", "spark")
    names = set(frame.columns)
    if "url" in names:
        url = F.col("url")
    elif "robots_url" in names:
        url = F.col("robots_url")
    else:
        raise ValueError("the captures need a url (or robots_url) column")
    if "status" not in names:
        raise ValueError("the captures need a status column")
    types = {f.name: f.dataType for f in frame.schema.fields}
    if "headers" not in names:
        headers: Column = F.lit("{}")
    elif isinstance(types["headers"], (T.MapType, T.StructType)):
        headers = F.to_json(F.col("headers"))
    else:
        headers = F.coalesce(F.col("headers").cast("string"), F.lit("{}"))
    if "body" not in names:
        body: Column = F.lit(b"").cast("binary")
    elif isinstance(types["body"], T.BinaryType):
        body = F.coalesce(F.col("body"), F.lit(b"").cast("binary"))
    else:
        body = F.coalesce(F.encode(F.col("body").cast("string"), "UTF-8"), F.lit(b"").cast("binary"))
    if "body_encoding" in names:  # base64 text, as in a table file (capture_of_row)
        base64 = F.lower(F.trim(F.col("body_encoding").cast("string"))) == F.lit("base64")
        body = F.when(base64, F.coalesce(F.unbase64(F.col("body").cast("string")), F.lit(b"").cast("binary"))) \
            .otherwise(body)
    if "fetched_at" not in names:
        fetched: Column = F.lit(None).cast("double")
    elif isinstance(types["fetched_at"], T.TimestampType):
        fetched = F.unix_timestamp(F.col("fetched_at")).cast("double")
    else:
        fetched = F.col("fetched_at").cast("double")
    error = F.coalesce(F.col("error").cast("string"), F.lit("")) if "error" in names else F.lit("")
    return frame.select(
        url.cast("string").alias("url"),
        F.coalesce(F.col("status").cast("double").cast("int"), F.lit(0)).alias("status"),  # "503.0" too
        headers.alias("headers"),
        body.alias("body"),
        fetched.alias("fetched_at"),
        error.alias("error"),
    ).where(F.col("url").isNotNull())


def _file_reader(skipped: Any) -> Any:
    """mapInArrow: paths in, capture rows out (read where the task runs, by the batch readers);
    damaged records raise, or with ``skipped`` (an accumulator) are added to it."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        pa: Any = require("pyarrow", "spark")

        for batch in batches:
            for path in batch.column("path").to_pylist():
                bad: list[BadRecord] | None = [] if skipped is not None else None
                rows: list[Capture] = []
                for capture in read_captures(path, bad_records=bad):
                    rows.append(capture)
                    if len(rows) >= 1000:
                        yield _captures_batch(pa, rows)
                        rows = []
                if rows:
                    yield _captures_batch(pa, rows)
                if bad:
                    skipped.add(frozenset(bad))

    return run


def _captures_batch(pa: Any, rows: list[Capture]) -> Any:
    return pa.RecordBatch.from_pydict(
        {
            "url": [c.url for c in rows],
            "status": [c.status for c in rows],
            "headers": [json.dumps(dict(c.headers)) for c in rows],
            "body": [c.body for c in rows],
            "fetched_at": [c.fetched_at for c in rows],
            "error": [c.error for c in rows],
        },
        schema=pa.schema([("url", pa.string()), ("status", pa.int32()), ("headers", pa.string()),
                          ("body", pa.binary()), ("fetched_at", pa.float64()), ("error", pa.string())]),
    )


def capture_of(url: str, status: Any, headers: Any, body: Any, fetched_at: Any, error: Any) -> Capture:
    """A capture from the values of one row of a :func:`captures_frame` (headers as JSON text),
    read as a table file's rows are (:func:`robotrules.batch.inputs.tables.captures.capture_of_row`)."""
    return capture_of_row({"url": url, "status": status, "headers": headers, "body": body,
                           "fetched_at": as_float(fetched_at), "error": error}, f"captures of {url}")


def as_float(value: Any) -> float | None:
    """A nullable double as Spark hands it to Python (None or NaN: missing)."""
    if value is None:
        return None
    number = float(value)
    return None if math.isnan(number) else number


# --------------------------------------------------------------------------- URL tables and outputs


def with_robots_url(urls_df: DataFrame, agents: Sequence[str] | None = None) -> DataFrame:
    """``urls_df`` (``url`` and an optional ``agent``) as ``url, agent, robots_url`` rows.

    Rows without an agent get one row per agent of ``agents`` (default ``"*"``); rows with one
    keep it. ``robots_url`` is "" for a URL with no robots.txt (:func:`robots_url_of`). A row
    without a URL (null, empty or blank) is kept with ``url`` "" (decided as an invalid URL, as
    the local engine does), so the output has a row for every input row.
    """
    F: Any = require("pyspark.sql.functions", "spark")
    if "url" not in urls_df.columns:
        raise ValueError("the URL table needs a url column")
    default = list(agents) if agents else ["*"]
    fill = F.array(*[F.lit(a) for a in default])
    if "agent" in urls_df.columns:
        agent = F.when((F.col("agent").isNull()) | (F.trim(F.col("agent")) == ""), fill).otherwise(F.array(F.col("agent").cast("string")))
    else:
        agent = fill
    rows = urls_df.select(F.col("url").cast("string").alias("url"), F.explode(agent).alias("agent"))
    return rows.mapInArrow(_robots_urls, "url string, agent string, robots_url string")


def _robots_urls(batches: Iterator[Any]) -> Iterator[Any]:
    pa: Any = require("pyarrow", "spark")

    for batch in batches:
        urls = ["" if u is None or not u.strip() else u for u in batch.column("url").to_pylist()]
        found = [(robots_url_of(u) or "") if u else "" for u in urls]
        yield pa.RecordBatch.from_arrays([pa.array(urls, pa.string()), batch.column("agent"), pa.array(found, pa.string())],
                                         names=["url", "agent", "robots_url"])




def read_urls(spark: SparkSession, path: str | os.PathLike[str]) -> DataFrame:
    """A URL table from ``path``: Parquet, CSV (header line), JSONL, or text with one URL a line
    (blank lines and lines starting with "#" skipped, as the local engine reads them). A table's
    rows without a URL (a null or empty cell) are kept, as the local engine keeps them."""
    text = os.fspath(path)
    lower = text.lower().rstrip("/")
    if not os.path.exists(text) and "://" not in text:
        raise ValueError(f"cannot read the URL list {text}: no such file")
    if lower.endswith(".parquet"):
        frame = spark.read.parquet(text)
    elif lower.endswith((".csv", ".csv.gz")):
        frame = spark.read.option("header", "true").option("multiLine", "true").option("escape", '"').csv(text)
    elif lower.endswith((".jsonl", ".jsonl.gz", ".ndjson", ".ndjson.gz", ".json")):
        frame = spark.read.json(text)
    else:
        F: Any = require("pyspark.sql.functions", "spark")
        lines = spark.read.text(text)
        return lines.select(F.trim(F.col("value")).alias("url")).where((F.col("url") != "") & ~F.col("url").startswith("#"))
    if "url" not in frame.columns:
        raise ValueError(f"{text} has no url column (found: {', '.join(frame.columns) or 'none'})")
    return frame


def write(frame: DataFrame, output_path: str | os.PathLike[str]) -> None:
    """Write ``frame`` in the format of the name's suffix (.parquet, .csv, .jsonl).

    A local path with a suffix gets one file (the tasks' parts are merged there); a path ending in
    "/" or with a scheme (hdfs:, s3a:, ...) gets Spark's folder of part files.
    """
    write_observed(frame, output_path, {})


def write_observed(frame: DataFrame, output_path: str | os.PathLike[str], metrics: Mapping[str, Column]) -> dict[str, Any]:
    """:func:`write`, and ``metrics`` (aggregate columns by name, such as ``count(lit(1))``) as
    Spark computed them over the rows while it wrote them (a Spark ``Observation``): the frame is
    computed once, and what was written is never read back to count it. Each task's share counts
    once, however often a task is retried. The tasks write their parts in parallel; for a local
    file, the parts are then merged here, in partition order (Parquet row group by row group, CSV
    and JSON Lines as text)."""
    text = os.fspath(output_path)
    lower = text.lower().rstrip("/")
    if lower.endswith(".parquet"):
        fmt = "parquet"
    elif lower.endswith(".csv"):
        fmt = "csv"
    elif lower.endswith((".jsonl", ".json", ".ndjson")):
        fmt = "json"
    else:
        raise ValueError(f"cannot tell the output format of {text}: use .parquet, .csv or .jsonl")
    observation: Any = None
    if metrics:
        observation = _pyspark().Observation()
        frame = frame.observe(observation, *[column.alias(name) for name, column in metrics.items()])
    writer_options = {"header": "true"} if fmt == "csv" else {}
    if fmt == "csv":
        frame = _spreadsheet_safe(frame)
    if "://" in text or text.endswith("/"):
        frame.write.mode("overwrite").options(**writer_options).format(fmt).save(text)
    else:
        target = Path(text)
        parts = Path(tempfile.mkdtemp(prefix=".robotrules-", dir=target.parent if target.parent.exists() else None))
        try:
            folder = parts / "out"
            frame.write.options(**writer_options).format(fmt).save(str(folder))
            produced = sorted(p for p in folder.iterdir() if p.name.startswith("part-"))
            if not produced:
                raise RuntimeError("Spark wrote no output file")
            merged = parts / "merged"
            _merge(fmt, produced, merged)
            shutil.move(str(merged), target)
        finally:
            shutil.rmtree(parts, ignore_errors=True)
    return dict(observation.get) if observation is not None else {}


def _spreadsheet_safe(frame: DataFrame) -> DataFrame:
    """``frame`` with each text cell a spreadsheet would run as a formula given a leading ``'``, as
    :func:`robotrules._cells.csv_cell` gives it to the local engine's CSV (after the metrics
    observed the values as they are)."""
    F: Any = require("pyspark.sql.functions", "spark")
    types: Any = require("pyspark.sql.types", "spark")
    columns = []
    for field in frame.schema.fields:
        column = F.col(field.name)
        if isinstance(field.dataType, types.StringType):
            column = F.when(column.rlike("^" + FORMULA_START), F.concat(F.lit("'"), column)).otherwise(column)
        columns.append(column.alias(field.name))
    return frame.select(*columns)


def _merge(fmt: str, produced: list[Path], target: Path) -> None:
    """Spark's part files of one output as one file at ``target``."""
    if fmt == "parquet":
        pq: Any = require("pyarrow.parquet", "spark")

        with pq.ParquetWriter(str(target), pq.read_schema(str(produced[0]))) as writer:
            for part in produced:
                source = pq.ParquetFile(str(part))
                for group in range(source.num_row_groups):
                    writer.write_table(source.read_row_group(group))
        return
    with target.open("wb") as out:
        for number, part in enumerate(produced):
            with part.open("rb") as handle:
                if fmt == "csv" and number:
                    handle.readline()  # every part starts with the header line: keep the first only
                shutil.copyfileobj(handle, out, 1 << 20)
