"""The sources an engine decides from, each answering "what governs this robots.txt URL"
(:class:`~robotrules.answers.Governing`): an archive judged by the fetch policy as of each
capture (:class:`ArchiveSource`, picklable for worker processes), or live files fetched through
a client and its store (:class:`LiveSource`)."""

from __future__ import annotations

from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from robotrules.answers import Governing
from robotrules.batch.captures.archive import Archive
from robotrules.batch.engine.rows import governing
from robotrules.core.policy import Policy
from robotrules.core.reasons import Reason
from robotrules.errors import BlockedAddress, InvalidURL
from robotrules.outcomes import outcome_of

if TYPE_CHECKING:
    from robotrules.client import RobotsClient

__all__ = ["ArchiveSource", "LiveSource"]


@dataclass(frozen=True, slots=True)
class ArchiveSource:
    """An archive judged by ``policy`` in ``mode``: picklable, so each worker process judges its
    own rows. ``now`` None judges each robots.txt as of its capture (as a crawler did then)."""

    archive: Archive
    policy: Policy = field(default_factory=Policy)
    mode: str = "google"
    now: float | None = None

    def governing(self, robots_url: str) -> Governing:
        """What decides the URLs of ``robots_url`` (kind "unknown" when it was never captured)."""
        entry = self.archive.entry(robots_url, self.policy, self.now)
        when = self.now if self.now is not None else (entry.fetched_at if entry is not None else 0.0)
        return governing(robots_url, entry, self.policy, when, self.mode)


class LiveSource:
    """Live robots.txt files through ``client`` and its store: fetched in the calling process,
    ``threads`` at a time, then handed to the engine as :class:`Governing` objects. With
    ``refresh``, each robots.txt is fetched again the first time this source is asked for it,
    however fresh the cached copy (C2 still applies to a failed fetch), and the new copy serves the
    rest of the job."""

    def __init__(self, client: RobotsClient, threads: int = 16, *, refresh: bool = False) -> None:
        from robotrules.client import JobRobots

        self.client = client
        self.threads = max(1, threads)
        self.refresh = refresh
        self._robots = JobRobots(client, refresh=refresh)

    def governing(self, robots_url: str) -> Governing:
        """What decides ``robots_url``'s URLs now, as :meth:`RobotsClient.check` sees it."""
        try:
            state = self._robots.robots(robots_url)
        except (InvalidURL, BlockedAddress) as exc:
            return Governing(robots_url, "unknown", 0, str(exc), outcome="no_capture",
                             why=Reason("url-refused", detail=str(exc)))
        return Governing(robots_url, state.kind, state.status, state.reason, state.robots, outcome_of(state.entry),
                         why=state.why)

    def fetch_all(self, robots_urls: Iterable[str]) -> dict[str, Governing]:
        """:meth:`governing` of each URL, fetched concurrently."""
        wanted = list(dict.fromkeys(robots_urls))
        if len(wanted) <= 1 or self.threads == 1:
            return {url: self.governing(url) for url in wanted}
        with ThreadPoolExecutor(min(self.threads, len(wanted))) as pool:
            return dict(zip(wanted, pool.map(self.governing, wanted), strict=True))
