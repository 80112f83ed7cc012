"""An audit's summary counted as its rows stream past: sites, crawlers, verdicts and the sites'
AI training opt-outs, the same figures :func:`~robotrules.batch.audit.purposes.opt_out_counts`
and a table's counts give, without holding the table (A1-A8)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from robotrules.batch.audit.columns import AUDIT_COLUMNS, Row
from robotrules.batch.audit.purposes import OPT_OUTS, TRAINING, site_opt_out

__all__ = ["Tally"]

assert AUDIT_COLUMNS[:7:2] == ("site", "operator", "kind", "verdict") and AUDIT_COLUMNS[1] == "agent" \
    and AUDIT_COLUMNS[12] == "training_opt_out", "the positions Tally.add reads"


class Tally:
    """Counts of audit rows added in any number of chunks (:meth:`add`)."""

    def __init__(self) -> None:
        self.rows = 0
        self.verdicts: Counter[str] = Counter()
        self._sites: set[str] = set()
        self._agents: dict[str, None] = {}
        self._training: dict[str, set[str]] = {}  # per site, its AI training crawlers' opt-outs

    def add(self, rows: Iterable[Row]) -> None:
        """Count ``rows`` (tuples in the order of :data:`AUDIT_COLUMNS`)."""
        for row in rows:
            self.rows += 1
            site = row[0]
            self._sites.add(site)
            self._agents[row[1]] = None
            self.verdicts[row[6]] += 1
            if row[4] == TRAINING:
                outcome = row[12]
                found = self._training.setdefault(site, set())
                if outcome:
                    found.add(outcome)

    @property
    def sites(self) -> int:
        """How many distinct sites were counted."""
        return len(self._sites)

    @property
    def agents(self) -> int:
        """How many distinct agents were counted."""
        return len(self._agents)

    def opt_outs(self) -> dict[str, int]:
        """How many sites opt AI training crawlers out in each way of :data:`OPT_OUTS`."""
        counts: dict[str, int] = dict.fromkeys(OPT_OUTS, 0)
        for outcomes in self._training.values():
            counts[site_opt_out(outcomes)] += 1
        return counts
