"""What a batch run decided, for people and as data: the :class:`Summary` and the note on
damaged records skipped that every summary line of the package ends with (F9)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from robotrules.batch.inputs.warc.reading import BadRecord

__all__ = ["Summary", "skipped_note"]


@dataclass(frozen=True, slots=True)
class Summary:
    """What a run decided: row counts, the seconds it took, where the rows went, and the damaged
    records of the archives that were skipped (``skip_bad_records``)."""

    rows: int
    allowed: int
    disallowed: int
    unknown: int
    elapsed: float
    output: str = ""
    engine: str = "local"
    skipped: tuple[BadRecord, ...] = ()

    @property
    def rows_per_second(self) -> float:
        """Rows decided per second of the whole run (reading and writing included)."""
        return self.rows / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def bad_records(self) -> int:
        """How many damaged records of the archives were skipped."""
        return len(self.skipped)

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-ready data."""
        return {"rows": self.rows, "allowed": self.allowed, "disallowed": self.disallowed,
                "unknown": self.unknown, "elapsed": round(self.elapsed, 3),
                "rows_per_second": round(self.rows_per_second, 1), "output": self.output, "engine": self.engine,
                "bad_records": self.bad_records,
                "skipped": [{"path": bad.path, "offset": bad.offset, "detail": bad.detail} for bad in self.skipped]}

    def __str__(self) -> str:
        return (f"{self.rows:,} rows: {self.allowed:,} allowed, {self.disallowed:,} disallowed, "
                f"{self.unknown:,} unknown in {self.elapsed:.2f}s ({self.rows_per_second:,.0f} rows/s)"
                + skipped_note(self.skipped))


def skipped_note(skipped: Sequence[BadRecord]) -> str:
    """"; N damaged records skipped (the first: FILE at byte N)" for a summary line ("" for none)."""
    if not skipped:
        return ""
    first = skipped[0]
    where = f"{first.path} at byte {first.offset}"
    count = len(skipped)
    return (f"; {count:,} damaged record{'s' if count != 1 else ''} of the archives skipped "
            f"({'the first: ' if count > 1 else ''}{where})")
