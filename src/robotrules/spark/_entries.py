"""Stage 1 of the archive jobs: one policy Entry per robots.txt URL, replayed from its captures.

Each robots URL's captures are replayed through the fetch policy
(:meth:`robotrules.batch.captures.archive.Archive.entry`, F1-F9) in a grouped pandas UDF. A redirect may
lead to a URL held under another host, so the replay says which URL it needs next; that URL's
captures are joined in and the replay runs again, for at most as many rounds as the policy makes
requests (``max_redirects`` + 1, plus the F7 probes). Most robots URLs are decided in the first
round; only chains go further.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from robotrules.batch.kit import Archive, Capture
from robotrules.core.policy import Entry, Failure, Policy, Response
from robotrules.core.reasons import from_fields
from robotrules.errors import require
from robotrules.spark._frames import as_float, capture_of

if TYPE_CHECKING:
    from pyspark.sql import DataFrame

__all__ = ["ENTRY_FIELDS", "ENTRY_NAMES", "entries", "entry_of"]

ENTRY_FIELDS = (
    "robots_url string, outcome string, status int, reason string, fetched_at double, "
    "expires_at double, body binary, good_status int, good_at double, failures int, "
    "failing_since double, final_url string, redirects int, why string"
)
"""The Spark schema of :func:`entries`: the robots URL and the fields of its policy Entry
(``why``, its reason as data, as the JSON of :meth:`~robotrules.core.reasons.Reason.to_fields`)."""

ENTRY_NAMES = tuple(part.split()[0] for part in ENTRY_FIELDS.split(", "))
"""The column names of :data:`ENTRY_FIELDS`, ``robots_url`` first."""

_RESOLVED_SCHEMA = "need string, " + ENTRY_FIELDS


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
    record: dict[str, Any] = dict.fromkeys(ENTRY_NAMES)
    record["robots_url"] = robots_url
    record["need"] = need
    if entry is not None:
        for name in ENTRY_NAMES[1:]:
            record[name] = getattr(entry, name)
        record["why"] = json.dumps(entry.why.to_fields())
    return record


def _resolver(policy: Policy, now: float | None) -> Any:
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
                captures.append(capture_of(url, status, headers, body, fetched_at, error))
            else:
                missing.add(str(url))
        archive = _PartialArchive(captures, missing)
        try:
            record = _entry_record(robots_url, archive.entry(robots_url, policy, now), None)
        except _Need as need:
            record = _entry_record(robots_url, None, need.url)
        return pd.DataFrame([record], columns=["need", *ENTRY_NAMES])

    return resolve


def entries(urls_df: DataFrame, captures: DataFrame, *, policy: Policy | None = None,
            now: float | None = None) -> DataFrame:
    """One row per robots.txt URL that ``urls_df`` needs and ``captures`` holds: its Entry fields.

    ``urls_df`` needs a ``robots_url`` column ("" rows are skipped); ``captures`` is a
    :func:`~robotrules.spark.captures_frame`. Robots URLs with no capture of their own get no row
    ("unknown" later). ``now`` None replays each robots.txt as of its capture time, as
    :meth:`~robotrules.batch.captures.archive.Archive.entry` does. Runs one Spark job per redirect round
    (see the module docstring); rounds are local checkpoints.
    """
    F: Any = require("pyspark.sql.functions", "spark")
    policy = policy or Policy()
    caps = captures.withColumn("held", F.lit(True))
    roots = urls_df.select("robots_url").where(F.col("robots_url") != "").distinct()
    pending = roots.join(caps, roots["robots_url"] == caps["url"], "inner")
    pending = pending.select("robots_url", "url", "status", "headers", "body", "fetched_at", "error", "held")
    resolve = _resolver(policy, now)
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


def _entry_value(name: str, value: Any) -> Any:
    if name in ("good_at", "failing_since"):
        return as_float(value)
    if name in ("fetched_at", "expires_at"):
        return float(value)
    if name in ("status", "good_status", "failures", "redirects"):
        return int(value or 0)
    if name == "body":
        return bytes(value or b"")
    if name == "why":
        return from_fields(json.loads(value))
    return value if value is not None else ""


def entry_of(robots_url: str, values: Mapping[str, Any]) -> Entry | None:
    """The Entry of one :data:`ENTRY_FIELDS` row (``values`` by column name); None when the row
    has no entry (``outcome`` null: a left join found no capture of the robots URL)."""
    if values.get("outcome") is None:
        return None
    return Entry(url=robots_url, **{name: _entry_value(name, values[name]) for name in ENTRY_NAMES[1:]})
