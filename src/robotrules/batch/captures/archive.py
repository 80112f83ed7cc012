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
(:class:`robotrules.batch.captures.disk.SQLiteCaptures`, for capture sets that do not fit in memory).
The store only keeps captures by URL; the replay (:meth:`Archive.entry`) is the same over both.

**Several captures of one URL** (a crawl fetches a robots.txt more than once; Common Crawl does)
are all kept, and replayed as a crawler's cache lived through them (C1, C2): each capture made at
or before the decision time is an attempt, in time order, merged into the entry by the cache's
own rule (:func:`~robotrules.core.policy.merge`). So the capture current at the decision time
decides, a failed refresh after a good copy leaves the good copy deciding (C2), and failures
that run over several captures count from the first (F5, F6). A decision time before the first
capture is judged by the first capture (nothing earlier is known). A redirect target or probe is
answered by that URL's capture nearest in time to the attempt.

**Outcome classes.** :func:`robotrules.outcomes.outcome_of` reads, off the entry, what the
capture current at the decision time was in the classes Common Crawl uses, beside the policy's
verdict.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import TracebackType
from typing import TYPE_CHECKING, Protocol

from robotrules.core.policy import Entry, Failure, Fetch, Policy, Response, begin, merge, restated
from robotrules.core.urls import is_robots_url
from robotrules.outcomes import NOT_ARCHIVED

if TYPE_CHECKING:
    from robotrules.batch.inputs.warc.reading import BadRecord

__all__ = ["NOT_ARCHIVED", "Archive", "Capture", "CaptureStore", "MemoryCaptures", "nearest", "replaces"]


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


def nearest(captures: Sequence[Capture], at: float) -> Capture:
    """Of a URL's captures (oldest first), the one made nearest to ``at``; of two as near, the later."""
    return min(reversed(captures), key=lambda capture: abs((capture.fetched_at or 0.0) - at))


def replaces(fetched_at: float | None, held_at: float | None) -> bool:
    """Whether a capture made at ``fetched_at`` replaces the one held for its URL, made at
    ``held_at``: the latest capture of a URL wins, and of two made at the same time (or both at
    an unknown time, counted as 0) the one read later wins. Every store keeps captures by this rule."""
    return (fetched_at or 0.0) >= (held_at or 0.0)


class CaptureStore(Protocol):
    """Where an :class:`Archive` keeps its captures, by URL. A store keeps and finds; it never judges."""

    def get(self, url: str) -> Capture | None:
        """The latest capture of exactly ``url`` (:func:`replaces`), if any."""
        ...

    def history(self, url: str) -> Sequence[Capture]:
        """Every capture of exactly ``url``, oldest first (of two made at the same time, the one
        read first first); empty when none."""
        ...

    def keep(self, capture: Capture) -> None:
        """Hold ``capture`` beside the other captures of its URL (one identical to a capture held is not kept twice)."""
        ...

    def __contains__(self, url: object) -> bool: ...

    def __len__(self) -> int:
        """How many URLs are held."""
        ...

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
        self._by_url: dict[str, list[Capture]] = {}

    def get(self, url: str) -> Capture | None:
        """The latest capture of exactly ``url`` (:func:`replaces`), if any."""
        held = self._by_url.get(url)
        return held[-1] if held else None

    def history(self, url: str) -> Sequence[Capture]:
        """Every capture of exactly ``url``, oldest first."""
        return tuple(self._by_url.get(url, ()))

    def keep(self, capture: Capture) -> None:
        """Hold ``capture`` beside the other captures of its URL, in time order (:func:`replaces`)."""
        held = self._by_url.setdefault(capture.url, [])
        if capture in held:
            return
        at = len(held)
        while at and not replaces(capture.fetched_at, held[at - 1].fetched_at):
            at -= 1
        held.insert(at, capture)

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
    (:func:`robotrules.batch.captures.keeping.archive_of` chooses one for large capture sets). An archive
    pickles as its store: an index on disk as just its path. ``bad_records`` are the damaged
    records skipped while the captures were read (:func:`~robotrules.batch.captures.keeping.archive_of`
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
        """The entry a crawler's cache would hold for ``robots_url`` at ``now`` from these answers;
        None when the archive holds no capture of ``robots_url`` itself (nothing is known of that site).

        ``now`` defaults to the time of the latest capture (0 when unknown). The captures made at
        or before ``now`` are replayed in time order (see the module), the current one as a fetch
        at ``now``, so the entry is fresh as of then. Rules from a body longer than the size limit
        say in their reason that the rest was ignored (F9).
        """
        captures = self._store.history(robots_url)
        if not captures:
            return None
        policy = policy or Policy()
        when = now if now is not None else (captures[-1].fetched_at or 0.0)
        current = [capture for capture in captures if (capture.fetched_at or 0.0) <= when] or list(captures[:1])
        entry: Entry | None = None
        for number, capture in enumerate(current, 1):
            at = when if number == len(current) else (capture.fetched_at or 0.0)
            attempt = self._attempt(robots_url, capture, at, policy)
            entry = attempt if entry is None else merge(entry, attempt)
        return entry

    def _attempt(self, robots_url: str, first: Capture, at: float, policy: Policy) -> Entry:
        """One fetch of ``robots_url`` at ``at`` answered by the capture ``first`` (and each request
        it leads to by that URL's capture nearest to ``first`` in time): the entry it ends with."""
        near = first.fetched_at or 0.0
        step: Fetch | Entry = begin(robots_url, None, at, policy)
        final = first
        while isinstance(step, Fetch):
            if step.url == robots_url and step.purpose == "robots":
                answer = self._answer_of(first)
            elif step.url in self:
                capture = nearest(self._store.history(step.url), near)
                answer = self._answer_of(capture)
                final = capture if step.purpose == "robots" else final
            else:  # a request the archive holds no answer to (an archive that knows only part may say more)
                answer = self._answer(step.url)
            step = step.apply(answer, at)
        if step.outcome == "rules" and len(final.body) > policy.size_limit:
            step = restated(step, replace(step.why, cut=policy.size_limit))
        return step

    @staticmethod
    def _answer_of(capture: Capture | None) -> Response | Failure:
        """What a request got, by its capture: no capture is a failed request (:data:`NOT_ARCHIVED`)."""
        if capture is None:
            return Failure("other", NOT_ARCHIVED)
        if capture.status == 0:
            return Failure(capture.error or "other", "captured without a response")
        return Response(capture.status, capture.headers, capture.body)

    def _answer(self, url: str) -> Response | Failure:
        """The answer to a request for ``url``: its latest capture (see :meth:`_answer_of`)."""
        return self._answer_of(self.get(url))
