"""Archived robots.txt answers, judged by the same fetch policy as live ones (F1-F9, C1).

A crawl archive (a WARC file of robots.txt captures, or a table of them) holds what a site
answered: a status, headers and a body, or no response at all. :class:`Archive` replays the
policy of :mod:`robotrules.core.policy` over those answers exactly as a live fetch drives it
(:func:`~robotrules.core.policy.begin`, :meth:`~robotrules.core.policy.Fetch.apply`): a captured
503 disallows everything, a 404 allows everything, a redirect is followed to its captured target
while the archive holds it (up to the hop limit), and a body is cut at the size limit (F9): the
readers keep one byte past it, so the reason of a body that went on says that the rest was
ignored. A request the archive does not hold (a redirect target, or the probes behind a 5xx) is
a failed request, as a live fetch that got no answer. Pure: no clock, no I/O.

Where the captures are kept is a :class:`CaptureStore`, chosen when the archive is made: in
memory (:class:`MemoryCaptures`, the default) or in an index on disk
(:class:`robotrules.batch.index.SQLiteCaptures`, for capture sets that do not fit in memory).
The store only keeps captures by URL; the replay (:meth:`Archive.entry`) is the same over both.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import TYPE_CHECKING, Protocol

from robotrules.core.policy import Entry, Failure, Fetch, Policy, Response, begin
from robotrules.core.urls import is_robots_url

if TYPE_CHECKING:
    from robotrules.batch.warc import BadRecord

__all__ = ["NOT_ARCHIVED", "Archive", "Capture", "CaptureStore", "MemoryCaptures", "cut_note", "replaces"]

NOT_ARCHIVED = "not in the archive"
"""The detail of the failure that stands for a request the archive holds no answer to."""


@dataclass(frozen=True, slots=True)
class Capture:
    """One archived answer to a request: ``status`` 0 when the request got no response.

    ``headers`` have lower-case names; ``fetched_at`` is when it was captured (seconds since the
    epoch, None when unknown); ``error`` says why there was no response (a failure kind of F8:
    dns, connect, timeout, reset, protocol, tls or other). The readers of archives keep at most
    the size limit of ``body`` and one byte more (F9): a body longer than the limit went on, and
    the rest was ignored.
    """

    url: str
    status: int
    headers: Mapping[str, str] = field(default_factory=dict)
    body: bytes = b""
    fetched_at: float | None = None
    error: str = ""


def cut_note(limit: int) -> str:
    """What the reason of rules from a body longer than ``limit`` bytes adds (F9)."""
    return f"(only its first {limit:,} bytes count: the rest is ignored)"


def replaces(fetched_at: float | None, held_at: float | None) -> bool:
    """Whether a capture made at ``fetched_at`` replaces the one held for its URL, made at
    ``held_at``: the latest capture of a URL wins, and of two made at the same time (or both at
    an unknown time, counted as 0) the one read later wins. Every store keeps captures by this rule."""
    return (fetched_at or 0.0) >= (held_at or 0.0)


class CaptureStore(Protocol):
    """Where an :class:`Archive` keeps its captures, by URL. A store keeps and finds; it never judges."""

    def get(self, url: str) -> Capture | None:
        """The capture held for exactly ``url``, if any."""
        ...

    def keep(self, capture: Capture) -> None:
        """Hold ``capture`` unless the capture held for its URL is later (:func:`replaces`)."""
        ...

    def __contains__(self, url: object) -> bool: ...

    def __len__(self) -> int: ...

    def urls(self) -> Iterator[str]:
        """Every URL held, in the order first seen."""
        ...

    def close(self) -> None:
        """Release what the store holds open (files, connections); it may not be used after."""
        ...


class MemoryCaptures:
    """Captures in a dict in this process: fast, and as large as the captures (bodies included).
    Worker processes get a copy (shared pages under fork, a pickle under spawn)."""

    __slots__ = ("_by_url",)

    def __init__(self) -> None:
        self._by_url: dict[str, Capture] = {}

    def get(self, url: str) -> Capture | None:
        """The capture held for exactly ``url``, if any."""
        return self._by_url.get(url)

    def keep(self, capture: Capture) -> None:
        """Hold ``capture`` unless the capture held for its URL is later (:func:`replaces`)."""
        held = self._by_url.get(capture.url)
        if held is None or replaces(capture.fetched_at, held.fetched_at):
            self._by_url[capture.url] = capture

    def __contains__(self, url: object) -> bool:
        return url in self._by_url

    def __len__(self) -> int:
        return len(self._by_url)

    def urls(self) -> Iterator[str]:
        """Every URL held, in the order first seen."""
        return iter(self._by_url)

    def close(self) -> None:
        """Nothing to release."""


class Archive:
    """Captures by URL (the latest capture of a URL wins), and the policy replayed over them.

    ``store`` is where the captures are kept: in memory by default, or an index on disk
    (:func:`robotrules.batch.archives.archive_of` chooses one for large capture sets). An archive
    pickles as its store: an index on disk as just its path. ``bad_records`` are the damaged
    records skipped while the captures were read (:func:`~robotrules.batch.archives.archive_of`
    with ``skip_bad_records``): the sites they held are missing from the archive.
    """

    def __init__(self, captures: Iterable[Capture] = (), *, store: CaptureStore | None = None,
                 bad_records: Sequence[BadRecord] = ()) -> None:
        self._store: CaptureStore = store if store is not None else MemoryCaptures()
        self.bad_records: tuple[BadRecord, ...] = tuple(bad_records)
        for capture in captures:
            self.add(capture)

    @property
    def store(self) -> CaptureStore:
        """Where the captures are kept."""
        return self._store

    def add(self, capture: Capture) -> None:
        """Keep ``capture`` unless a later capture of its URL is already held."""
        self._store.keep(capture)

    def __len__(self) -> int:
        return len(self._store)

    def __contains__(self, url: object) -> bool:
        return url in self._store

    def get(self, url: str) -> Capture | None:
        """The capture of exactly ``url``, if held."""
        return self._store.get(url)

    def robots_urls(self) -> Iterator[str]:
        """The captured URLs that are robots.txt URLs (S1), in the order first seen."""
        return (url for url in self._store.urls() if is_robots_url(url))

    def close(self) -> None:
        """Release the store (an index on disk made for this job only is deleted)."""
        self._store.close()

    def __enter__(self) -> Archive:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def entry(self, robots_url: str, policy: Policy | None = None, now: float | None = None) -> Entry | None:
        """The entry a fetch of ``robots_url`` would have made from these answers; None when the
        archive holds no capture of ``robots_url`` itself (nothing is known of that site).

        ``now`` defaults to the capture's time (0 when unknown), so the entry is fresh as of then.
        Rules from a body longer than the size limit say in their reason that the rest was
        ignored (F9).
        """
        first = self.get(robots_url)
        if first is None:
            return None
        when = now if now is not None else (first.fetched_at or 0.0)
        policy = policy or Policy()
        step: Fetch | Entry = begin(robots_url, None, when, policy)
        while isinstance(step, Fetch):
            step = step.apply(self._answer(step.url), when)
        if step.outcome == "rules":
            final = first if step.final_url == robots_url else self.get(step.final_url)
            if final is not None and len(final.body) > policy.size_limit:
                step = replace(step, reason=f"{step.reason} {cut_note(policy.size_limit)}")
        return step

    def _answer(self, url: str) -> Response | Failure:
        capture = self.get(url)
        if capture is None:
            return Failure("other", NOT_ARCHIVED)
        if capture.status == 0:
            return Failure(capture.error or "other", "captured without a response")
        return Response(capture.status, capture.headers, capture.body)
