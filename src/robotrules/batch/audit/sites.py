"""The sites of an audit and their rows: site keys, the sites of an archive, live sites,
and the rows classified here or in worker processes.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TYPE_CHECKING, NamedTuple, TypeVar, cast

from robotrules.answers import Governing, require_token
from robotrules.batch.audit.columns import Row
from robotrules.batch.audit.verdicts import _who, classify_site, default_agents
from robotrules.batch.captures.archive import Archive
from robotrules.batch.engine.rows import NO_CAPTURE, governing, robots_url_of
from robotrules.core.policy import Entry, Policy
from robotrules.core.reasons import Reason
from robotrules.crawlers import CRAWLERS, Crawler

if TYPE_CHECKING:

    from robotrules.client import RobotsClient

__all__ = ["NO_ROBOTS_URL", "Job", "SiteKey", "archive_sites", "audit_rows", "capture_paths", "checked_agents", "classify_jobs", "job_of", "live_rows", "redirected_away", "site_key", "site_keys"]


_BARE_HOST = re.compile(r"[A-Za-z0-9.-]+(?::[0-9]+)?(?:/\S*)?")
"""A site given without a scheme ("example.com", "example.com:8080/page"): https is assumed."""


Job = tuple[str, "Entry | None", str]
"""One site to classify in a worker: (robots URL, its entry or None, reason when None)."""


NO_ROBOTS_URL = "not an http, https or ftp URL"
"""The reason of a site that has no robots.txt URL (an unknown verdict)."""

NO_ROBOTS_URL_REASON = Reason("no-robots-url")
"""What :data:`NO_ROBOTS_URL` says, as data: the code the audit's own words stand for."""


class SiteKey(NamedTuple):
    """A site as an audit reads it (:func:`site_key`): ``site`` names it in the rows (its
    robots.txt URL, or the text as given when it has none) and ``robots_url`` is that URL, ""
    when the site has none (not an http, https or ftp URL: an unknown verdict)."""

    site: str
    robots_url: str


def job_of(key: SiteKey, entry: Entry | None) -> Job:
    """The job of a site key (:func:`site_key`) and the entry found for it (None: nothing known)."""
    if not key.robots_url:
        return key.site, None, NO_ROBOTS_URL
    return key.robots_url, entry, ""


def classify_jobs(jobs: Sequence[Job], agents: Sequence[str], registry: Sequence[Crawler], policy: Policy,
                  now: float | None, mode: str) -> list[Row]:
    """The audit rows of ``jobs``, each site judged by ``policy`` as of ``now`` (None: its capture)."""
    rows: list[Row] = []
    who = _who(agents, registry)
    for robots_url, entry, reason in jobs:
        if entry is None:
            gov = Governing(robots_url, "unknown", 0, reason or NO_CAPTURE.sentence(),
                            outcome="" if reason else "no_capture", why=NO_ROBOTS_URL_REASON if reason else NO_CAPTURE)
        else:
            gov = governing(robots_url, entry, policy, now if now is not None else entry.fetched_at, mode)
        rows.extend(classify_site(gov, agents, registry, who=who))
    return rows


def archive_sites(archive: Archive, policy: Policy | None = None, now: float | None = None) -> Iterator[str]:
    """The sites of an archive, as robots.txt URLs in the order first seen: every captured one
    except those where another captured robots.txt's redirects end (F3: a crawler fetched that
    target to read the first site's file, so it is not one more site). A target counts as a site
    still when its own redirects lead elsewhere (a loop keeps its members). The rule of
    :func:`redirected_away`, which the Spark engine applies to the same entries."""
    policy = policy or Policy()
    urls = list(archive.robots_urls())
    entries = {url: archive.entry(url, policy, now) for url in urls}
    finals = {url: entry.final_url if entry is not None else "" for url, entry in entries.items()}
    gone = redirected_away(finals)
    return (url for url in urls if url not in gone)


def redirected_away(finals: Mapping[str, str]) -> set[str]:
    """The robots.txt URLs that are only the end of another's redirects: ``finals`` maps each
    captured robots.txt URL to where its redirects ended ("" or itself: none); a URL is left out
    when some other URL's redirects end at it and its own end nowhere else."""
    return {final for url, final in finals.items()
            if final and final != url and final in finals and finals[final] in ("", final)}


def _jobs_from_archive(archive: Archive, sites: Iterable[str] | None, policy: Policy,
                       now: float | None) -> Iterator[Job]:
    keys = (SiteKey(url, url) for url in archive_sites(archive, policy, now)) if sites is None else site_keys(sites)
    for key in keys:
        yield job_of(key, archive.entry(key.robots_url, policy, now) if key.robots_url else None)


def live_rows(client: RobotsClient, sites: Iterable[str], agents: Sequence[str],
              registry: Sequence[Crawler], threads: int = 16, *, refresh: bool = False) -> Iterator[Row]:
    """Rows for sites fetched live through ``client`` (its cache and store), ``threads`` at a time
    (``refresh``: each fetched again, however fresh the cached copy)."""
    from robotrules.batch.engine.sources import LiveSource

    live = LiveSource(client, threads, refresh=refresh)
    who = _who(agents, registry)
    for chunk in _chunks(site_keys(sites), 64):
        found = live.fetch_all(key.robots_url for key in chunk if key.robots_url)
        for key in chunk:
            gov = found[key.robots_url] if key.robots_url else Governing(key.site, "unknown", 0, NO_ROBOTS_URL,
                                                                         why=NO_ROBOTS_URL_REASON)
            yield from classify_site(gov, agents, registry, who=who)


def site_key(site: str) -> SiteKey | None:
    """The key of a site (any URL of it, or a bare host name: then https): its robots.txt URL, or
    the text and no URL when it has none; None for a blank one. A robots.txt URL is its own key."""
    if not isinstance(site, str):
        raise TypeError(f"sites must be URLs (str), not {type(site).__name__}")
    text = site.strip()
    if not text:
        return None
    found = robots_url_of(f"https://{text}" if _BARE_HOST.fullmatch(text) else text)
    return SiteKey(found, found) if found is not None else SiteKey(text, "")


def site_keys(sites: Iterable[str]) -> Iterator[SiteKey]:
    """The distinct :func:`site_key` of ``sites``, in order (blank ones skipped)."""
    seen: set[SiteKey] = set()
    for site in sites:
        key = site_key(site)
        if key is not None and key not in seen:
            seen.add(key)
            yield key


def checked_agents(agents: Sequence[str] | None, registry: Sequence[Crawler]) -> tuple[str, ...]:
    """``agents`` as a tuple (default: :func:`default_agents` of ``registry``); ValueError for one
    that names no crawler."""
    names = tuple(agents) if agents else default_agents(registry)
    for agent in names:
        if not isinstance(agent, str):
            raise ValueError(f"{agent!r} names no crawler")
        require_token(agent)  # the one agent check of every surface
    return names


def audit_rows(
    source: Archive | RobotsClient | Iterable[str] | str | os.PathLike[str] | Sequence[os.PathLike[str]],
    agents: Sequence[str] | None = None,
    *,
    sites: Iterable[str] | None = None,
    registry: Sequence[Crawler] | None = None,
    policy: Policy | None = None,
    mode: str = "google",
    now: float | None = None,
    processes: int | None = None,
    index: str | os.PathLike[str] | None = None,
    refresh: bool = False,
    skip_bad_records: bool = False,
) -> Iterator[Row]:
    """The audit rows, streamed in site order; see :func:`audit` for the arguments.

    ``processes``: worker processes for the local engine (default: all cores when there are
    more than a few hundred sites; 1 decides in this process).
    """
    registry = tuple(registry) if registry is not None else CRAWLERS
    agents = checked_agents(agents, registry)
    jobs: Iterable[Job]
    paths = capture_paths(source)
    if paths is not None:
        from robotrules.batch.captures.keeping import archive_of

        # WARC files, tables of captures or folders of them
        source = archive_of(paths, index=index, skip_bad_records=skip_bad_records)
    if isinstance(source, Archive):
        policy = policy or Policy()
        jobs = _jobs_from_archive(source, sites, policy, now)
    else:
        from robotrules.client import RobotsClient

        if isinstance(source, RobotsClient):
            yield from live_rows(source, sites if sites is not None else (), agents, registry, refresh=refresh)
            return
        if isinstance(source, (str, bytes)):
            raise TypeError("give the sites as a list of URLs, not one string")
        yield from live_rows(RobotsClient(policy=policy), cast("Iterable[str]", source), agents, registry,
                             refresh=refresh)
        return
    yield from _run(jobs, agents, registry, policy, now, mode, processes)


def capture_paths(source: object) -> list[str] | None:
    """The capture files ``source`` names: a path (a str that is not a URL, or an ``os.PathLike``),
    or a list or tuple of ``os.PathLike`` paths (a list of str is sites); None for anything else."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "://" not in source):
        return [os.fspath(source)]
    if isinstance(source, (list, tuple)) and source and all(isinstance(item, os.PathLike) for item in source):
        return [os.fspath(item) for item in source]
    return None


_T = TypeVar("_T")


def _chunks(jobs: Iterable[_T], size: int) -> Iterator[list[_T]]:
    chunk: list[_T] = []
    for job in jobs:
        chunk.append(job)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _run(jobs: Iterable[Job], agents: Sequence[str], registry: Sequence[Crawler], policy: Policy,
         now: float | None, mode: str, processes: int | None, size: int = 256) -> Iterator[Row]:
    """Classify ``jobs`` here, or in worker processes when there are several chunks of them;
    at most two chunks a worker are in flight (bounded memory), and rows keep the jobs' order."""
    workers = processes if processes is not None else (os.cpu_count() or 1)
    chunks = _chunks(jobs, size)
    head = list(itertools.islice(chunks, 2))
    if workers <= 1 or (len(head) < 2 and processes is None):
        for chunk in itertools.chain(head, chunks):
            yield from classify_jobs(chunk, agents, registry, policy, now, mode)
        return
    context = multiprocessing.get_context("spawn")  # no fork of a process that may run threads
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: deque[Future[list[Row]]] = deque()
        for chunk in itertools.chain(head, chunks):
            pending.append(pool.submit(classify_jobs, chunk, agents, registry, policy, now, mode))
            while len(pending) > 2 * workers:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()
