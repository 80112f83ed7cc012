"""Audit sites' robots.txt for a set of crawlers: who is blocked, partly or not at all (issue #11).

For each site (a robots.txt URL) and each agent, :func:`classify_site` says what the policy
means for that agent, as one :data:`VERDICTS` value:

- ``blocked``: the agent may fetch nothing but the robots.txt file itself. Exactly: its group(s)
  hold a disallow rule that matches every path ("/", "*", "/*"), and every allow rule with a
  non-empty pattern is beaten by one disallow rule on every path it matches (a longer disallow
  whose plain prefix covers it, R6), or names only the robots.txt file ("/robots.txt",
  "/robots.txt$"). So ``Disallow: /`` + ``Allow: /$`` (the home page) is ``partly``, and
  ``Disallow: /*`` + ``Allow: /`` (the shorter allow never wins) is ``blocked``.
- ``partly``: not blocked, and at least one disallow rule with a non-empty pattern can decide
  (it is not beaten on every path by an allow rule of the same or a covering pattern: an allow
  wins ties, R6). ``Disallow: /`` + ``Allow: /`` is therefore ``allowed``.
- ``allowed``: no rule disallows anything for the agent: an empty file, an HTML page, a group
  with only ``Allow`` lines or an empty ``Disallow:``, or no group that applies.
- ``no-robots``: the site has no robots.txt by the fetch policy (a 4xx, a redirect leading
  nowhere): everything is allowed (F4).
- ``unreachable``: a 5xx or a network failure: everything is disallowed by the failure rules (F5).
- ``unknown``: nothing is known (no capture of the robots.txt, or it could not be fetched).

A crawler the registry says ignores the ``*`` group (Google's AdsBot, A8) is classified without
it: only groups that name it apply, and its row says so in ``reason``.

Each row also says whether the site opts the crawler's fetches out of AI training, by both
signals (A1-A8): ``train_ai`` is the crawler's ``train-ai`` preference for the site root "/"
(:meth:`RobotsTxt.usage <robotrules.core.robotstxt.RobotsTxt.usage>`: its group's Content-Usage
rules and the Content-Signal ``ai-train`` in scope, A2-A4, A7; null when unknown, and when "/" may
not be crawled, A3), and for an AI training crawler (kind ``ai-training``) ``training_opt_out``
is one of :data:`~robotrules.batch.purposes.OPT_OUTS` (:func:`~robotrules.batch.purposes.opt_out`): ``robots.txt`` (it is blocked entirely, or partly
by a group that names it: a ``*`` group closing a few folders to every crawler says nothing about
AI training), ``train-ai=n``, ``both``, ``neither``, or ``unknown`` (the file could not be read).
:func:`~robotrules.batch.purposes.by_purpose` sums the rows per site and purpose (kind), and
:func:`~robotrules.batch.purposes.opt_out_counts` counts the sites of each outcome.

Precedence is Google's (longest match, allow wins ties; also RFC 9309's). "Beaten on every path"
is decided exactly for rules with a plain prefix; a wildcard rule is only beaten when a plain
prefix rule covers it, so several wildcard disallows that together cover an allow still leave
the verdict ``partly`` (never a false ``blocked``). In ``legacy1994`` mode the same reading is
an approximation (that mode matches differently).

Pure where it decides (:func:`classify`, :func:`classify_site`); :func:`audit` resolves sources
(an :class:`~robotrules.batch.captures.Archive`, a live :class:`~robotrules.client.RobotsClient`,
or site URLs fetched live) and returns a pandas DataFrame (``robotrules[batch]``), classified
here, in worker processes, or on Apache Spark (``engine="spark"``, :mod:`robotrules.spark`, whose
executors run :func:`classify_jobs` and :func:`live_rows`, the local engine's own code).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from robotrules.answers import FieldType, require_token, token_of
from robotrules.batch import engines
from robotrules.batch.captures import Archive
from robotrules.batch.decide import Governing, governing, robots_url_of
from robotrules.batch.purposes import opt_out
from robotrules.core.agents import caller_key
from robotrules.core.extensions import parse_content_signal, parse_content_usage
from robotrules.core.modes import get_mode
from robotrules.core.policy import Entry, Policy
from robotrules.core.robotstxt import Decision, RobotsTxt
from robotrules.core.rules import disallows, is_allow, line_of, priority_of
from robotrules.core.usage import Usage
from robotrules.crawlers import CRAWLERS, Crawler, by_token
from robotrules.errors import require

if TYPE_CHECKING:
    import pandas  # type: ignore[import-untyped]

    from robotrules.client import RobotsClient

__all__ = ["AUDIT_COLUMNS", "AUDIT_FIELDS", "VERDICTS", "AgentPolicy", "Verdict", "archive_sites", "audit",
           "audit_rows", "classify", "classify_site", "default_agents", "site_keys", "typed"]

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
site opts it out (:data:`~robotrules.batch.purposes.OPT_OUTS`), else ""; ``disallow_rules`` how many disallow rules can
decide for the agent; ``rules`` those rules as written, one a line; ``group_rules`` every rule
line (allow and disallow) of the group(s) the agent obeys, as written, in file order, one a line
(what a change of verdict between two crawls is read from: :mod:`robotrules.batch.trends`);
``outcome`` what the latest fetch of the robots.txt got, in Common Crawl's classes
(:data:`robotrules.outcomes.OUTCOMES`: ``forbidden`` for a 403 the policy reads as a full
allow, ``not_robots_txt`` for an HTML page served as robots.txt, ...; "" for a site without a
robots.txt URL)."""

Row = tuple[str, str, str, str, str, int, str, bool, "float | None", int, str, "bool | None", str, int, str, str,
            str, str]

_BARE_HOST = re.compile(r"[A-Za-z0-9.-]+(?::[0-9]+)?(?:/\S*)?")
"""A site given without a scheme ("example.com", "example.com:8080/page"): https is assumed."""

_ROBOTS_ONLY = frozenset({"/robots.txt", "/robots.txt$"})


@dataclass(frozen=True, slots=True)
class AgentPolicy:
    """What one robots.txt says to one agent: the verdict and the facts behind it (``group_rules``:
    every rule line of its group(s), as written, in file order); ``train_ai``
    its ``train-ai`` preference for "/" (A2-A4, A7; None: unknown, or "/" may not be crawled,
    A3); ``ignored_global``: the agent ignores the ``*`` group, which would have applied (A8)."""

    verdict: Verdict
    explicit: bool
    crawl_delay: float | None
    content_signals: str
    disallow_rules: tuple[str, ...]
    train_ai: bool | None = None
    ignored_global: bool = False
    group_rules: tuple[str, ...] = ()


def default_agents(registry: Sequence[Crawler] = CRAWLERS) -> tuple[str, ...]:
    """The agents audited by default: every crawler of ``registry`` by its name (each name once,
    compared case-insensitively), then ``*`` (every other crawler). Several names may share one
    product token ("AI2Bot" is read as "AI"): each is audited, as a group naming it is read."""
    names: dict[str, str] = {}
    for crawler in registry:
        names.setdefault(crawler.name.lower(), crawler.name)
    return (*(name for name in names.values() if name != "*"), "*")


# -- classification (pure) ---------------------------------------------------------------------

def _prefix_of(pattern: str) -> str | None:
    """The plain prefix a pattern matches every path starting with, or None for a pattern with a
    wildcard inside or a final ``$``. ``/`` counts as the empty prefix (every path starts with it)."""
    stripped = pattern.rstrip("*")
    if "*" in stripped or stripped.endswith("$"):
        return None
    return "" if stripped == "/" else stripped


def _lead(pattern: str) -> str:
    """The literal text every path a pattern matches starts with (R4: up to its first ``*``)."""
    head = pattern.split("*", 1)[0]
    return head[:-1] if head == pattern and head.endswith("$") else head


def _beats(winner: tuple[int, str], loser: tuple[int, str]) -> bool:
    """Whether rule ``winner`` decides over ``loser`` on every path ``loser`` matches (R6)."""
    prefix = _prefix_of(winner[1])
    if prefix is None or not _lead(loser[1]).startswith(prefix):
        return False
    return winner[0] > loser[0]  # ranks order by length, then allow over disallow (R6)


def _signals(decision: Decision, usage: Usage) -> str:
    """The Content-Signal lines in scope and the group's Content-Usage rules, as core.usage reads
    them (A1, A5, A7): ``search=yes, ai-train=no; train-ai=n; /blog/ search=y``."""
    signals: dict[str, str] = {}
    for signal in usage.signals:
        signals.update(parse_content_signal(signal.value) or {})
    parts = [", ".join(f"{key}={value}" for key, value in signals.items())]
    for group in decision.groups:
        for ext in group.extensions:
            read = parse_content_usage(ext.value) if ext.field == "content-usage" else None
            if read is not None and read.preferences:
                prefs = ", ".join(f"{key}={value}" for key, value in read.preferences.items())
                parts.append(prefs if read.path == "/" else f"{read.path} {prefs}")
    return "; ".join(part for part in parts if part)


def classify(robots: RobotsTxt, agent: str, *, ignores_global: bool = False) -> AgentPolicy:
    """The verdict of ``robots`` for ``agent`` (matched on its product token), by the definitions
    in this module's docstring, with the crawl delay, content signals, ``train-ai`` preference for
    "/" and deciding disallows. ``ignores_global``: the agent obeys only groups that name it (A8)."""
    token = token_of(agent) or agent
    decision = robots.check("/", token)
    ignored = ignores_global and decision.agent == "*"
    if ignored:
        decision = robots.check("/", token, global_group=False)
    return _policy(robots, token, decision, ignored)


def _policy(robots: RobotsTxt, token: str, decision: Decision, ignored: bool) -> AgentPolicy:
    """:func:`classify` for the groups ``decision`` selected (every fact below depends on them alone)."""
    explicit = decision.agent not in (None, "*")
    rules = [make for group in decision.groups for make in group.ruleset.ranked()]
    allows = [rule for rule in rules if is_allow(rule[0]) and priority_of(rule[0]) > 0]
    live_disallows = [rule for rule in rules if disallows(rule[0]) and not any(_beats(a, rule) for a in allows)]
    texts = robots.line_texts() if rules else []  # the file split once, not once a rule
    lines = tuple(dict.fromkeys(_written(texts, rule) for rule in sorted(live_disallows, key=_line)))
    group = tuple(dict.fromkeys(_written(texts, rule) for rule in sorted(rules, key=_line)))
    verdict: Verdict
    if not live_disallows:
        verdict = "allowed"
    else:
        catch_all = [rule for rule in live_disallows if _prefix_of(rule[1]) == ""]
        opening = [a for a in allows if a[1] not in _ROBOTS_ONLY and not any(_beats(d, a) for d in live_disallows)]
        verdict = "blocked" if catch_all and not opening else "partly"
    usage = robots.usage("/", token, global_group=not ignored)
    delay = None if ignored else robots.crawl_delay(token)
    return AgentPolicy(verdict, explicit, delay, _signals(decision, usage), lines, usage.preference("train-ai"), ignored,
                       group)


def _line(rule: tuple[int, str]) -> int:
    return line_of(rule[0])


def _written(texts: list[str], rule: tuple[int, str]) -> str:
    """A rule as its line is written in ``texts`` (:meth:`RobotsTxt.line_texts`; without a
    comment), or ``disallow: <pattern>`` (``allow:`` for an allow rule) when unknown."""
    line = _line(rule)
    text = texts[line - 1].split("#", 1)[0].strip() if 0 < line <= len(texts) else ""
    return text or f"{'allow' if is_allow(rule[0]) else 'disallow'}: {rule[1]}"


def _verdict_of(gov: Governing) -> Verdict:
    if gov.kind == "allow":
        return "no-robots"
    if gov.kind == "disallow":
        return "unreachable"
    return "unknown"


_FALLBACK = "\x00fallback"
"""The selection key of every token no group of a file names (no product token has a NUL)."""

Who = tuple[str, str, "str | None", str, str, str, bool]
"""An agent as the rows name it: (agent, token, the token as groups are looked up by (None: no
group can name it), operator, purpose, kind, ignores the ``*`` group)."""


def _who(agents: Sequence[str], registry: Sequence[Crawler]) -> list[Who]:
    """Each agent with its crawler's facts, looked up once per job (by name, else by token)."""
    found: list[Who] = []
    for agent in agents:
        token = token_of(agent) or agent
        crawler = by_token(agent, registry) or by_token(token, registry)
        operator, purpose, kind = (crawler.operator, crawler.purpose, crawler.kind) if crawler else ("", "", "")
        if agent == "*":
            purpose = purpose or "Any crawler not named in the file"
        found.append((agent, token, caller_key(token), operator, purpose, kind,
                      bool(crawler is not None and crawler.ignores_global)))
    return found


def classify_site(gov: Governing, agents: Sequence[str], registry: Sequence[Crawler] = CRAWLERS, *,
                  who: Sequence[Who] | None = None) -> list[Row]:
    """One audit row (:data:`AUDIT_COLUMNS`) per agent for the site ``gov`` stands for
    (``who``: the agents' facts from :func:`_who`, when the caller has them already).

    Agents that select the same groups share one classification (every fact of a row depends
    on the groups alone), so a wide audit costs a group selection per agent and a classification
    per distinct group.
    """
    rows: list[Row] = []
    robots = gov.robots
    sitemaps = len(robots.sitemaps) if robots is not None else 0
    site, status, reason = gov.robots_url, gov.status, gov.reason
    # G2: in the modes that select groups by exact token, a token no group names gets the
    # fallback group(s), like every other such token: one selection serves them all.
    named = None if robots is None or get_mode(robots.mode).substring_agent_match else \
        frozenset(token for group in robots.groups for token in group.tokens)
    selected: dict[tuple[str | None, bool], AgentPolicy] = {}  # by (caller key, ignores "*")
    known: dict[tuple[object, ...], AgentPolicy] = {}  # by the groups selected
    for agent, token, caller, operator, purpose, kind, ignores in who if who is not None else _who(agents, registry):
        if robots is None:
            verdict = _verdict_of(gov)
            rows.append((site, agent, operator, purpose, kind, status, verdict, False, None, 0, "", None,
                         opt_out(kind, verdict, False, None), 0, "", "", reason, gov.outcome))
            continue
        selection = _FALLBACK if named is not None and caller not in named else caller
        found = selected.get((selection, ignores)) if named is not None else None
        if found is None:
            decision = robots.check("/", token)
            ignored = ignores and decision.agent == "*"
            if ignored:
                decision = robots.check("/", token, global_group=False)
            key = (decision.agent not in (None, "*"), ignored, *(group.line for group in decision.groups))
            found = known.get(key)
            if found is None:
                found = known[key] = _policy(robots, token, decision, ignored)
            selected[selection, ignores] = found
        why = f"{reason}; {agent} ignores the group 'user-agent: *'" if found.ignored_global else reason
        rows.append((site, agent, operator, purpose, kind, status, found.verdict, found.explicit,
                     found.crawl_delay, sitemaps, found.content_signals, found.train_ai,
                     opt_out(kind, found.verdict, found.explicit, found.train_ai), len(found.disallow_rules),
                     "\n".join(found.disallow_rules), "\n".join(found.group_rules), why, gov.outcome))
    return rows


# -- sources and engines -----------------------------------------------------------------------

Job = tuple[str, "Entry | None", str]
"""One site to classify in a worker: (robots URL, its entry or None, reason when None)."""

NO_ROBOTS_URL = "not an http, https or ftp URL"
"""The reason of a site that has no robots.txt URL (an unknown verdict)."""


def job_of(key: str, entry: Entry | None) -> Job:
    """The job of a site key (:func:`site_key`) and the entry found for it (None: nothing known)."""
    if key.startswith("!"):
        return key[1:], None, NO_ROBOTS_URL
    return key, entry, ""


def classify_jobs(jobs: Sequence[Job], agents: Sequence[str], registry: Sequence[Crawler], policy: Policy,
                  now: float | None, mode: str) -> list[Row]:
    """The audit rows of ``jobs``, each site judged by ``policy`` as of ``now`` (None: its capture)."""
    rows: list[Row] = []
    who = _who(agents, registry)
    for robots_url, entry, reason in jobs:
        if entry is None:
            gov = Governing(robots_url, "unknown", 0, reason or "no capture of this robots.txt",
                            outcome="" if reason else "no_capture")
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
    keys = archive_sites(archive, policy, now) if sites is None else site_keys(sites)
    for key in keys:
        yield job_of(key, None if key.startswith("!") else archive.entry(key, policy, now))


def live_rows(client: RobotsClient, sites: Iterable[str], agents: Sequence[str],
              registry: Sequence[Crawler], threads: int = 16, *, refresh: bool = False) -> Iterator[Row]:
    """Rows for sites fetched live through ``client`` (its cache and store), ``threads`` at a time
    (``refresh``: each fetched again, however fresh the cached copy)."""
    from robotrules.batch.sources import LiveSource

    live = LiveSource(client, threads, refresh=refresh)
    who = _who(agents, registry)
    for chunk in _chunks(site_keys(sites), 64):
        found = live.fetch_all(url for url in chunk if not url.startswith("!"))
        for url in chunk:
            gov = found.get(url) or Governing(url[1:], "unknown", 0, NO_ROBOTS_URL)
            yield from classify_site(gov, agents, registry, who=who)


def site_key(site: str) -> str | None:
    """The robots.txt URL of a site (any URL of it, or a bare host name: then https), "!" and the
    text when it has none, None for a blank one. A robots.txt URL is its own key."""
    if not isinstance(site, str):
        raise TypeError(f"sites must be URLs (str), not {type(site).__name__}")
    text = site.strip()
    if not text:
        return None
    found = robots_url_of(f"https://{text}" if _BARE_HOST.fullmatch(text) else text)
    return found if found is not None else "!" + text


def site_keys(sites: Iterable[str]) -> Iterator[str]:
    """The distinct :func:`site_key` of ``sites``, in order (blank ones skipped)."""
    seen: set[str] = set()
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
        from robotrules.batch.archives import archive_of

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


def audit(
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
    engine: str = "local",
    refresh: bool = False,
    skip_bad_records: bool = False,
) -> pandas.DataFrame:
    """Audit robots.txt policies: one row per site and agent, with the columns :data:`AUDIT_COLUMNS`.

    ``source``: a path (a WARC file, a table of captures or a folder of them; several as a list
    of ``pathlib.Path``), an
    :class:`~robotrules.batch.captures.Archive` (every robots.txt it captured, or
    those of ``sites``; replayed by the fetch policy as of each capture's time, or ``now``), a
    :class:`~robotrules.client.RobotsClient` (the robots.txt of ``sites``, fetched live through
    its cache), or an iterable of site URLs (fetched live by a new client; ``policy`` applies).
    A site is any URL of it, or a bare host name (then https). ``agents``: tokens or User-Agent
    strings (default: the registry's crawlers by name, and ``*``). ``registry``: crawlers that name the
    operator and purpose of an agent (default: the built-in one). ``refresh``: live robots.txt
    files are fetched again, however fresh their cached copies. ``index``: for a path, where to
    keep (and reuse) the index of its captures on disk (see
    :func:`~robotrules.batch.archives.archive_of`). Needs ``robotrules[batch]``.

    A damaged capture file (cut short, a corrupt gzip member) raises
    :class:`~robotrules.batch.sources.DamagedArchive`, naming the file and the byte where the
    damage starts, rather than leaving its sites out; with ``skip_bad_records`` its damaged
    records are skipped and noted in ``frame.attrs["bad_records"]`` (see
    :func:`~robotrules.batch.sources.with_skipped`; :func:`robotrules.batch.report.write_report`
    shows them), for either engine.

    ``engine="spark"`` classifies the sites on Apache Spark (:func:`robotrules.spark.audit`, in a
    local session unless one is running) with the same code and gives the same rows, sorted by
    site (in the order of ``sites`` when given) and agent. It reads capture files in the
    executors (an :class:`~robotrules.batch.captures.Archive` object cannot be used) and fetches
    live sites there, through a client like ``source``'s on the same store (a SQLite file, Redis,
    or memory: see :func:`robotrules.spark.audit`); ``processes`` and ``index`` are the local
    engine's. Needs ``robotrules[spark]``.
    """
    pd: Any = require("pandas", "batch")
    if engine != engines.LOCAL:
        if index is not None:
            raise ValueError(f"index is for the local engine: the {engine!r} engine reads the captures itself")
        job = engines.AuditJob(source, agents, sites, registry, policy, mode, now, refresh, skip_bad_records)
        return typed(engines.get(engine).audit(job))
    paths = capture_paths(source)
    if paths is not None:
        from robotrules.batch.archives import archive_of

        source = archive_of(paths, index=index, skip_bad_records=skip_bad_records)
    rows = list(audit_rows(source, agents, sites=sites, registry=registry, policy=policy, mode=mode, now=now,
                           processes=processes, refresh=refresh))
    from robotrules.batch.sources import with_skipped

    frame = typed(pd.DataFrame.from_records(rows, columns=list(AUDIT_COLUMNS)))
    return with_skipped(frame, source.bad_records if isinstance(source, Archive) else ())


def typed(frame: pandas.DataFrame) -> pandas.DataFrame:
    """An audit table with the column types of :data:`AUDIT_FIELDS` (whichever engine made it):
    integers as int64, ``crawl_delay`` float64 (NaN when none), ``explicit`` bool, ``train_ai`` a
    nullable boolean."""
    for column, kind in AUDIT_FIELDS:
        if kind == "int32":
            frame[column] = frame[column].astype("int64")
        elif kind == "double":
            frame[column] = frame[column].astype("float64")
        elif kind == "bool":
            frame[column] = frame[column].astype("boolean" if column == "train_ai" else bool)
    return frame
