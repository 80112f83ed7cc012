"""Decide URL tables against archived robots.txt on Apache Spark: DataFrames in, DataFrames out.

The same decision as the local engine (:func:`robotrules.batch.decide.governing` and
:func:`~robotrules.batch.decide.decide_row`), laid out for a cluster in two stages:

1. **Entries** (one row per robots.txt URL). The robots.txt URLs the URL table needs are joined
   with the captures of exactly those URLs; each robots URL's captures are replayed through the
   fetch policy (:meth:`robotrules.batch.captures.Archive.entry`, F1-F9) in a grouped pandas UDF.
   A redirect may lead to a URL held under another host, so the replay says which URL it needs
   next; that URL's captures are joined in and the replay runs again, for at most as many rounds
   as the policy makes requests (``max_redirects`` + 1, plus the F7 probes). Most robots URLs are
   decided in the first round; only chains go further.
2. **Rows**. URL rows and entry rows are unioned, repartitioned by robots.txt URL (plus an optional
   salt bucket for giant sites) and sorted so that each robots URL's entry comes first; a
   ``mapInArrow`` pass then parses each robots.txt once per partition and decides every row after
   it with :func:`~robotrules.batch.decide.decide_row`. Bodies cross the shuffle once per robots
   URL (per bucket), never once per URL row.

Public names (the ``robotrules batch --engine spark`` command calls :func:`run_job`)::

    session(master="local[*]", *, app_name="robotrules", shuffle_partitions=8, conf=None) -> SparkSession
    captures_frame(spark, robots) -> DataFrame          # url, status, headers (JSON), body, fetched_at, error
    entries(urls_df, captures, *, policy=None) -> DataFrame   # one row per robots URL (ENTRY_FIELDS)
    decide(urls_df, robots, agents=None, *, policy=None, mode="google", now=None, buckets=1) -> DataFrame
    run_job(urls_path, robots_paths, output_path, agents=(), *, policy=None, mode="google",
            now=None, spark=None, master="local[*]", buckets=1) -> int   # rows written

``robots`` is a DataFrame of captures (``url`` or ``robots_url``, ``status``, ``headers``, ``body``,
``fetched_at``, ``error``; see :func:`captures_frame`) or paths of WARC, Parquet, CSV or JSONL
files. WARC files are read in the executors (a DataFrame of paths and ``mapInArrow``), so the
paths must be readable there. ``now`` None judges each robots.txt as of its own capture time.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sys
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from robotrules.batch.captures import Archive, Capture
from robotrules.batch.decide import COLUMNS, Governing, decide_row, governing, robots_url_of
from robotrules.core.policy import Entry, Failure, Policy, Response
from robotrules.errors import require

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame, SparkSession

__all__ = [
    "ENTRY_FIELDS",
    "OUTPUT_SCHEMA",
    "captures_frame",
    "decide",
    "entries",
    "run_job",
    "session",
]

OUTPUT_SCHEMA = (
    "url string, agent string, allowed boolean, line int, rule string, "
    "robots_url string, robots_status int, reason string"
)
"""The Spark schema of :func:`decide`'s output: exactly :data:`robotrules.batch.decide.COLUMNS`."""

ENTRY_FIELDS = (
    "robots_url string, outcome string, status int, reason string, fetched_at double, "
    "expires_at double, body binary, good_status int, good_at double, failures int, "
    "failing_since double, final_url string, redirects int"
)
"""The Spark schema of :func:`entries`: the robots URL and the fields of its policy Entry."""

_CAPTURE_SCHEMA = "url string, status int, headers string, body binary, fetched_at double, error string"
_RESOLVED_SCHEMA = "need string, " + ENTRY_FIELDS
_ENTRY_NAMES = tuple(part.split()[0] for part in ENTRY_FIELDS.split(", "))


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


def captures_frame(spark: SparkSession, robots: DataFrame | str | os.PathLike[str] | Sequence[str | os.PathLike[str]]) -> DataFrame:
    """Captures as a DataFrame of ``url, status, headers, body, fetched_at, error``.

    ``robots`` is a DataFrame (``url`` or ``robots_url``; ``headers`` a map or a JSON object text;
    ``body`` binary or text; the others optional) or paths of files and folders the local engine
    reads (``.warc``, ``.warc.gz``, ``.parquet``, ``.csv``, ``.jsonl``, ...). Files are read in the
    executors, one task per file, by the local engine's own readers
    (:func:`robotrules.batch.sources.read_captures`), so both engines see the same captures; the
    paths must be readable where the tasks run (a shared or local file system).
    """
    sql = _pyspark()
    if isinstance(robots, sql.DataFrame):
        return _normalise(robots)
    from robotrules.batch import sources

    paths = cast("str | os.PathLike[str] | Sequence[str | os.PathLike[str]]", robots)
    given = [os.fspath(paths)] if isinstance(paths, (str, os.PathLike)) else [os.fspath(p) for p in paths]
    if not given:
        raise ValueError("no robots.txt sources given")
    files = [path for each in given for path in sources._files(each)]  # SourceError (a ValueError) for a bad one
    listing = spark.createDataFrame([(p,) for p in files], "path string").repartition(len(files))
    return listing.mapInArrow(_file_batches, _CAPTURE_SCHEMA)


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
    if "fetched_at" not in names:
        fetched: Column = F.lit(None).cast("double")
    elif isinstance(types["fetched_at"], T.TimestampType):
        fetched = F.unix_timestamp(F.col("fetched_at")).cast("double")
    else:
        fetched = F.col("fetched_at").cast("double")
    error = F.coalesce(F.col("error").cast("string"), F.lit("")) if "error" in names else F.lit("")
    return frame.select(
        url.cast("string").alias("url"),
        F.coalesce(F.col("status").cast("int"), F.lit(0)).alias("status"),
        headers.alias("headers"),
        body.alias("body"),
        fetched.alias("fetched_at"),
        error.alias("error"),
    ).where(F.col("url").isNotNull())


def _file_batches(batches: Iterator[Any]) -> Iterator[Any]:
    """mapInArrow: paths in, capture rows out (read where the task runs, by the batch readers)."""
    pa: Any = require("pyarrow", "spark")

    from robotrules.batch.sources import read_captures

    for batch in batches:
        for path in batch.column("path").to_pylist():
            rows: list[Capture] = []
            for capture in read_captures(path):
                rows.append(capture)
                if len(rows) >= 1000:
                    yield _captures_batch(pa, rows)
                    rows = []
            if rows:
                yield _captures_batch(pa, rows)


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


def _capture_of(url: str, status: Any, headers: Any, body: Any, fetched_at: Any, error: Any) -> Capture:
    parsed = json.loads(headers) if headers else {}
    names = {str(k).lower(): str(v) for k, v in (parsed.items() if isinstance(parsed, dict) else ())}
    return Capture(url, int(status or 0), names, bytes(body or b""), _float(fetched_at), str(error or ""))


def _float(value: Any) -> float | None:
    if value is None:
        return None
    number = float(value)
    return None if math.isnan(number) else number


# --------------------------------------------------------------------------- stage 1: entries


class _Need(Exception):
    """The replay asked for a URL whose captures are not joined in yet."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.url = url


class _PartialArchive(Archive):
    """An archive that knows only some captures: a URL it was not told about stops the replay."""

    def __init__(self, captures: Iterable[Capture], missing: set[str]) -> None:
        super().__init__(captures)
        self._missing = missing

    def _answer(self, url: str) -> Response | Failure:
        if url not in self and url not in self._missing:
            raise _Need(url)
        return super()._answer(url)


def _entry_record(robots_url: str, entry: Entry | None, need: str | None) -> dict[str, Any]:
    record: dict[str, Any] = dict.fromkeys(_ENTRY_NAMES)
    record["robots_url"] = robots_url
    record["need"] = need
    if entry is not None:
        for name in _ENTRY_NAMES[1:]:
            record[name] = getattr(entry, name)
    return record


def _resolver(policy: Policy) -> Any:
    """The grouped pandas UDF of stage 1: one robots URL's captures -> its Entry, or the URL it needs."""

    def resolve(frame: Any) -> Any:
        pd: Any = require("pandas", "spark")

        robots_url = str(frame["robots_url"].iloc[0])
        captures, missing = [], set()
        for url, status, headers, body, fetched_at, error, held in zip(
            frame["url"], frame["status"], frame["headers"], frame["body"], frame["fetched_at"],
            frame["error"], frame["held"], strict=True,
        ):
            if held:
                captures.append(_capture_of(url, status, headers, body, fetched_at, error))
            else:
                missing.add(str(url))
        archive = _PartialArchive(captures, missing)
        try:
            record = _entry_record(robots_url, archive.entry(robots_url, policy), None)
        except _Need as need:
            record = _entry_record(robots_url, None, need.url)
        return pd.DataFrame([record], columns=["need", *_ENTRY_NAMES])

    return resolve


def entries(urls_df: DataFrame, captures: DataFrame, *, policy: Policy | None = None) -> DataFrame:
    """One row per robots.txt URL that ``urls_df`` needs and ``captures`` holds: its Entry fields.

    ``urls_df`` needs a ``robots_url`` column (see :func:`decide`); ``captures`` is a
    :func:`captures_frame`. Robots URLs with no capture of their own get no row ("unknown" later).
    Runs one Spark job per redirect round (see the module docstring); rounds are local checkpoints.
    """
    F: Any = require("pyspark.sql.functions", "spark")
    policy = policy or Policy()
    caps = captures.withColumn("held", F.lit(True))
    roots = urls_df.select("robots_url").where(F.col("robots_url") != "").distinct()
    pending = roots.join(caps, roots["robots_url"] == caps["url"], "inner")
    pending = pending.select("robots_url", "url", "status", "headers", "body", "fetched_at", "error", "held")
    resolve = _resolver(policy)
    done: DataFrame | None = None
    rounds = policy.max_redirects + 4  # every request of one attempt: the chain, one over the limit, F7 probes
    for _ in range(rounds):
        out = pending.groupBy("robots_url").applyInPandas(resolve, schema=_RESOLVED_SCHEMA).localCheckpoint()
        resolved = out.where(F.col("need").isNull()).drop("need")
        done = resolved if done is None else done.unionByName(resolved)
        needs = out.where(F.col("need").isNotNull()).select("robots_url", "need")
        if needs.isEmpty():
            break
        found = needs.join(caps.withColumnRenamed("url", "need"), "need", "left")
        found = found.select(
            "robots_url", F.col("need").alias("url"), "status", "headers", "body", "fetched_at", "error",
            F.coalesce(F.col("held"), F.lit(False)).alias("held"),
        )
        pending = pending.join(needs.select("robots_url"), "robots_url", "left_semi").unionByName(found).localCheckpoint()
    assert done is not None
    return done


# --------------------------------------------------------------------------- stage 2: rows


def with_robots_url(urls_df: DataFrame, agents: Sequence[str] | None = None) -> DataFrame:
    """``urls_df`` (``url`` and an optional ``agent``) as ``url, agent, robots_url`` rows.

    Rows without an agent get one row per agent of ``agents`` (default ``"*"``); rows with one
    keep it. ``robots_url`` is "" for a URL with no robots.txt (:func:`robots_url_of`).
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
    rows = urls_df.select(F.col("url").cast("string").alias("url"), F.explode(agent).alias("agent")).where(F.col("url").isNotNull())
    return rows.mapInArrow(_robots_urls, "url string, agent string, robots_url string")


def _robots_urls(batches: Iterator[Any]) -> Iterator[Any]:
    pa: Any = require("pyarrow", "spark")

    for batch in batches:
        urls = batch.column("url").to_pylist()
        found = [robots_url_of(u) or "" for u in urls]
        yield pa.RecordBatch.from_arrays([batch.column("url"), batch.column("agent"), pa.array(found, pa.string())],
                                         names=["url", "agent", "robots_url"])


def _decider(policy: Policy, mode: str, now: float | None) -> Any:
    """The mapInArrow function of stage 2: sorted entry and URL rows -> output rows."""

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        pa: Any = require("pyarrow", "spark")

        schema = pa.schema([("url", pa.string()), ("agent", pa.string()), ("allowed", pa.bool_()),
                            ("line", pa.int32()), ("rule", pa.string()), ("robots_url", pa.string()),
                            ("robots_status", pa.int32()), ("reason", pa.string())])
        key: str | None = None
        gov: Governing | None = None
        for batch in batches:
            cols = {name: batch.column(name).to_pylist() for name in batch.schema.names}
            out: list[tuple[Any, ...]] = []
            for i, kind in enumerate(cols["kind"]):
                robots_url = cols["robots_url"][i]
                if kind == 0:  # an entry row: comes first for its robots URL in this partition
                    fields = {name: _entry_value(name, cols[name][i]) for name in _ENTRY_NAMES[1:]}
                    entry = Entry(url=robots_url, **fields)
                    when = now if now is not None else entry.fetched_at
                    key, gov = robots_url, governing(robots_url, entry, policy, when, mode)
                    continue
                if not robots_url:
                    out.append(decide_row(cols["url"][i], cols["agent"][i], None))
                    continue
                if robots_url != key:  # no entry row: nothing captured of this robots.txt
                    key, gov = robots_url, governing(robots_url, None, policy, 0.0, mode)
                out.append(decide_row(cols["url"][i], cols["agent"][i], gov))
            if out:
                columns = list(zip(*out, strict=True))
                yield pa.RecordBatch.from_arrays([pa.array(c, f.type) for c, f in zip(columns, schema, strict=True)],
                                                 schema=schema)

    return run


def _entry_value(name: str, value: Any) -> Any:
    if name in ("good_at", "failing_since"):
        return _float(value)
    if name in ("fetched_at", "expires_at"):
        return float(value)
    if name in ("status", "good_status", "failures", "redirects"):
        return int(value or 0)
    if name == "body":
        return bytes(value or b"")
    return value if value is not None else ""


def decide(
    urls_df: DataFrame,
    robots: DataFrame | str | os.PathLike[str] | Sequence[str | os.PathLike[str]],
    agents: Sequence[str] | None = None,
    *,
    policy: Policy | None = None,
    mode: str = "google",
    now: float | None = None,
    buckets: int = 1,
) -> DataFrame:
    """Decide every (url, agent) row of ``urls_df`` against the captures ``robots``.

    Returns a DataFrame with exactly :data:`~robotrules.batch.decide.COLUMNS` (in no set order),
    the same rows as the local engine. ``buckets`` > 1 spreads each robots URL's rows over that
    many salt buckets (giant sites no longer land in one task; the entry is copied to each).
    """
    F: Any = require("pyspark.sql.functions", "spark")
    if buckets < 1:
        raise ValueError("buckets must be at least 1")
    policy = policy or Policy()
    spark = urls_df.sparkSession
    caps = captures_frame(spark, robots)
    rows = with_robots_url(urls_df, agents).localCheckpoint()
    table = entries(rows, caps, policy=policy)
    salt = F.pmod(F.xxhash64("url"), F.lit(buckets)).cast("int") if buckets > 1 else F.lit(0)
    url_side = rows.select(
        "robots_url", salt.alias("bucket"), F.lit(1).alias("kind"), "url", "agent",
        *[F.lit(None).cast(_spark_type(name)).alias(name) for name in _ENTRY_NAMES[1:]],
    )
    entry_side = table.select(
        "robots_url", F.explode(F.sequence(F.lit(0), F.lit(buckets - 1))).alias("bucket"), F.lit(0).alias("kind"),
        F.lit(None).cast("string").alias("url"), F.lit(None).cast("string").alias("agent"),
        *_ENTRY_NAMES[1:],
    )
    both = url_side.unionByName(entry_side)
    partitions = int(spark.conf.get("spark.sql.shuffle.partitions") or "200")
    laid = both.repartition(partitions, "robots_url", "bucket").sortWithinPartitions("robots_url", "bucket", "kind")
    return laid.mapInArrow(_decider(policy, mode, now), OUTPUT_SCHEMA)


def _spark_type(name: str) -> str:
    for part in ENTRY_FIELDS.split(", "):
        field_name, kind = part.split()
        if field_name == name:
            return kind
    raise KeyError(name)


# --------------------------------------------------------------------------- job


def read_urls(spark: SparkSession, path: str | os.PathLike[str]) -> DataFrame:
    """A URL table from ``path``: Parquet, CSV (header line), JSONL, or text with one URL a line
    (blank lines and lines starting with "#" skipped, as the local engine reads them)."""
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
    return frame.where(frame["url"].isNotNull() & (frame["url"] != ""))


def write(frame: DataFrame, output_path: str | os.PathLike[str]) -> None:
    """Write ``frame`` in the format of the name's suffix (.parquet, .csv, .jsonl).

    A local path with a suffix gets one file (the tasks' parts are merged there); a path ending in
    "/" or with a scheme (hdfs:, s3a:, ...) gets Spark's folder of part files.
    """
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
    writer_options = {"header": "true"} if fmt == "csv" else {}
    if "://" in text or text.endswith("/"):
        frame.write.mode("overwrite").options(**writer_options).format(fmt).save(text)
        return
    target = Path(text)
    parts = Path(tempfile.mkdtemp(prefix=".robotrules-", dir=target.parent if target.parent.exists() else None))
    try:
        folder = parts / "out"
        frame.coalesce(1).write.options(**writer_options).format(fmt).save(str(folder))
        produced = [p for p in folder.iterdir() if p.name.startswith("part-")]
        if not produced:
            raise RuntimeError("Spark wrote no output file")
        shutil.move(str(produced[0]), target)
    finally:
        shutil.rmtree(parts, ignore_errors=True)


def run_job(
    urls_path: str | os.PathLike[str],
    robots_paths: Sequence[str | os.PathLike[str]],
    output_path: str | os.PathLike[str],
    agents: Sequence[str] = (),
    *,
    policy: Policy | None = None,
    mode: str = "google",
    now: float | None = None,
    spark: SparkSession | None = None,
    master: str = "local[*]",
    buckets: int = 1,
) -> int:
    """Read the URL table and captures, decide every row, write ``output_path``; the row count.

    The Spark half of ``robotrules batch --engine spark``. Starts a local session (:func:`session`)
    unless ``spark`` is given (under ``spark-submit``, pass ``SparkSession.builder.getOrCreate()``).
    Live fetching is not done on Spark: ``robots_paths`` must name captures.
    """
    if not robots_paths:
        raise ValueError("the spark engine decides against captured robots.txt files: give them with --robots")
    spark = spark or session(master)
    urls = read_urls(spark, urls_path)
    result = decide(urls, list(robots_paths), agents or None, policy=policy, mode=mode, now=now, buckets=buckets)
    result = result.localCheckpoint()
    write(result, output_path)
    return int(result.count())


def collect_rows(frame: DataFrame) -> list[tuple[Any, ...]]:
    """The rows of a :func:`decide` result as tuples in :data:`COLUMNS` order, sorted (for tests, small tables)."""
    return sorted((tuple(row[c] for c in COLUMNS) for row in frame.collect()), key=repr)
