"""WARC files of robots.txt captures, read with a bounded memory and damage placed (F9)."""

from __future__ import annotations

from robotrules.batch.inputs.warc.captures import Bodies, read_warc
from robotrules.batch.inputs.warc.reading import KEEP, BadRecord, NotAnArchive, records

__all__ = [
    "KEEP",
    "BadRecord",
    "Bodies",
    "NotAnArchive",
    "read_warc",
    "records",
]
