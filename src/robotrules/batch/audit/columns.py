"""The audit table: its verdicts, its columns and their types, declared once for every engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from robotrules.answers import FieldType
from robotrules.batch.frames import typed_frame

if TYPE_CHECKING:
    import pandas  # type: ignore[import-untyped]


__all__ = ["AUDIT_COLUMNS", "AUDIT_FIELDS", "VERDICTS", "Row", "Verdict", "typed"]


Verdict = Literal["blocked", "partly", "allowed", "no-robots", "unreachable", "unknown"]


VERDICTS: tuple[Verdict, ...] = ("blocked", "partly", "allowed", "no-robots", "unreachable", "unknown")
"""Every verdict, from most to least restrictive for rules, then the policy's outcomes."""


AUDIT_FIELDS: tuple[tuple[str, FieldType], ...] = (
    ("site", "string"), ("agent", "string"), ("operator", "string"), ("purpose", "string"), ("kind", "string"),
    ("status", "int32"), ("verdict", "string"), ("explicit", "bool"), ("crawl_delay", "double"),
    ("sitemaps", "int32"), ("content_signals", "string"), ("train_ai", "bool"), ("training_opt_out", "string"),
    ("disallow_rules", "int32"), ("rules", "string"), ("group_rules", "string"), ("reason", "string"),
    ("outcome", "string"),
)
"""The columns of an audit table and their types, declared once: the local table
(:func:`typed`) and the Spark schema (:data:`robotrules.spark.AUDIT_SCHEMA`) follow it.
``crawl_delay`` and ``train_ai`` may be null."""


AUDIT_COLUMNS: tuple[str, ...] = tuple(name for name, _ in AUDIT_FIELDS)
"""The columns of an audit table, in order. ``site`` is the robots.txt URL; ``status`` its HTTP
status (0 without a response); ``explicit`` whether a group names the agent (else the ``*``
group, or none, applies); ``sitemaps`` how many sitemap lines the file has;
``content_signals`` the agent's Content-Signal and Content-Usage preferences as read (A1-A7:
``search=yes, ai-train=no; train-ai=n; /blog/ search=y``); ``train_ai`` its ``train-ai``
preference for "/" (True, False, None); ``training_opt_out`` for an AI training crawler, how the
site opts it out (:data:`~robotrules.batch.audit.purposes.OPT_OUTS`), else ""; ``disallow_rules`` how many disallow rules can
decide for the agent; ``rules`` those rules as written, one a line; ``group_rules`` every rule
line (allow and disallow) of the group(s) the agent obeys, as written, in file order, one a line
(what a change of verdict between two crawls is read from: :mod:`robotrules.batch.audit.over_time`);
``outcome`` what the latest fetch of the robots.txt got, in Common Crawl's classes
(:data:`robotrules.outcomes.OUTCOMES`: ``forbidden`` for a 403 the policy reads as a full
allow, ``not_robots_txt`` for an HTML page served as robots.txt, ...; "" for a site without a
robots.txt URL)."""


Row = tuple[str, str, str, str, str, int, str, bool, "float | None", int, str, "bool | None", str, int, str, str,
            str, str]


def typed(frame: pandas.DataFrame) -> pandas.DataFrame:
    """An audit table with the column types of :data:`AUDIT_FIELDS` (whichever engine made it):
    integers as int64, ``crawl_delay`` float64 (NaN when none), ``explicit`` bool, ``train_ai`` a
    nullable boolean."""
    return typed_frame(frame, AUDIT_FIELDS, never_null=("explicit",))
