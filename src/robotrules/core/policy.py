"""The fetch and cache policy: what to fetch, what a response means, and for how long (F1-F9, C1-C4).

Pure: no sockets, no clock. Responses and the current time ``now`` (seconds since the epoch)
are passed in; what comes out is the next request to make or a cache :class:`Entry`. The I/O
drivers (``robotrules.fetch``) only carry bytes between this module and the network.

This module is the only place that reads time against an entry: whether a cached entry is
fresh (:func:`fresh`), when a full disallow flips to full allow (:func:`flips_at`, F6), how old
the deciding copy is (:func:`age`), and until when what an entry means holds
(:attr:`Standing.until`). Callers keep those numbers; they never recompute them.

One attempt to (re)fetch a robots.txt is a :class:`Fetch` walked through these states::

    begin(robots_url, cached, now, force=False)
        |-- not force and fresh(cached, now) -------------------------> the cached Entry (C1)
        v
    Fetch(purpose="robots") --GET--> apply(Response | Failure, now)
        |-- 2xx ---------------------------------------------------> Entry "rules", body cut at F9 (F2)
        |-- 3xx with Location, hop <= max_redirects, no loop -------> Fetch(next URL) (F3)
        |-- 3xx past the limit, a loop, no usable Location --------> Entry "allow", as a 404 (F3, F4)
        |-- 4xx (429 only with all_4xx_alike) ----------------------> Entry "allow" (F4)
        |-- 5xx, 429, Failure, status outside 100-599 --------------> Entry "error" (F5, F8)
        '-- 5xx with detect_misconfigured_5xx ---> Fetch(purpose="probe-missing") --> Fetch("probe-home")
                 probe 5xx and home 2xx: the site answers 5xx for missing pages -> Entry "allow" (F7)
                 anything else -------------------------------------------------> Entry "error"

Every entry and standing says why as data, a :class:`~robotrules.core.reasons.Reason` (``why``: a
code and its details), beside the sentence people read (``reason``, rendered from it by
:func:`robotrules.core.reasons.render`); programs compare codes, never sentences.

An "error" entry keeps the previous entry's last good copy (C2) and counts the failure streak;
:func:`standing` turns an entry and ``now`` into what decides: the good copy while failing,
else full disallow, and after ``unreachable_after`` seconds of failure with no good copy, full
allow (F6); with it, until when that standing holds::

    fresh(entry, now)        now < entry.expires_at: use it, no fetch (C1, C4; F5 back-off for errors)
    flips_at(entry, policy)  None with a good copy (it decides however long, C2); else
                             failing_since + unreachable_after: full disallow while now <= it,
                             full allow once now > it (F6)
    age(entry, now)          now - good_at for a good copy, else 0
    standing(...).until      expires_at, or for a full disallow the first instant after the
                             flip if sooner: the standing holds while now < until

Lifetimes: good answers live ``default_ttl`` (24 h), or their ``Cache-Control: max-age``
clamped to [``min_ttl``, ``max_ttl``] (C1, C4); failures are retried with a doubling
back-off, sooner for 503 (F5), honouring ``Retry-After`` within the same bounds.
"""

from __future__ import annotations

import calendar
import hashlib
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from email.utils import parsedate_tz
from typing import Literal, NamedTuple
from urllib.parse import urljoin, urlsplit

from robotrules.core.lexer import SIZE_LIMIT
from robotrules.core.reasons import Reason, from_sentence

__all__ = [
    "FETCHABLE_SCHEMES",
    "SIZE_LIMIT",
    "Entry",
    "Failure",
    "Fetch",
    "Outcome",
    "Policy",
    "Response",
    "Standing",
    "StandingKind",
    "age",
    "begin",
    "flips_at",
    "fresh",
    "merge",
    "restated",
    "standing",
]

Outcome = Literal["rules", "allow", "error"]
"""What one completed attempt found: a body to parse (F2), no robots.txt (F4), or an error (F5, F8)."""

Purpose = Literal["robots", "probe-missing", "probe-home"]

StandingKind = Literal["rules", "allow", "disallow"]
"""What decides at a moment (:attr:`Standing.kind`): the rules of a body (F2), everything allowed
(F4, F6) or everything disallowed (F5, F8). ``robotrules.answers.Kind`` adds "unknown"."""

FETCHABLE_SCHEMES = frozenset({"http", "https", "ftp"})
"""S5: the schemes the fetchers speak (lower case): the client refuses a URL of another scheme
(``UnsupportedScheme``) and a redirect elsewhere ends the chain (F3)."""

DAY = 86_400.0

_UNSTATED = Reason("unknown", detail="not stated")
"""The default of :attr:`Entry.why`: the entry says why in its sentence alone (made as older versions did)."""


@dataclass(frozen=True, slots=True)
class Policy:
    """The knobs of the fetch and cache rules, with Google's values as defaults.

    Times are seconds. ``all_4xx_alike`` restores the seeds' rule that every 4xx, 429 included,
    means full allow (F4); by default 429 is a server error, as Google treats it today.
    ``detect_misconfigured_5xx`` turns on F7 (two extra requests after a robots.txt 5xx).
    ``public_addresses_only`` makes the drivers resolve every host (first request and each
    redirect hop) and refuse loopback, private, link-local and other non-public addresses
    (:mod:`robotrules.fetch.addresses`): off for the library, for services to turn on.
    """

    max_redirects: int = 5  # F3: hops followed; one more is treated as a 404
    size_limit: int = SIZE_LIMIT  # F9: bytes of body that count
    default_ttl: float = DAY  # C1
    min_ttl: float = 60.0  # C4: bounds for Cache-Control: max-age
    max_ttl: float = 7 * DAY
    retry_after_error: float = 300.0  # F5: first retry after a 5xx or network failure, doubling
    retry_after_503: float = 60.0  # F5: 503 is retried sooner
    max_retry_interval: float = 3600.0  # F5: cap of the doubling back-off and of Retry-After
    unreachable_after: float = 30 * DAY  # F6
    all_4xx_alike: bool = False  # F4 as the seeds say: 429 is a 4xx like any other
    detect_misconfigured_5xx: bool = False  # F7, opt-in
    fetch_timeout: float = 30.0  # whole attempt, redirects included; drivers enforce it
    public_addresses_only: bool = False  # drivers connect only to public addresses, every hop (robotrules.fetch.addresses)

    def __post_init__(self) -> None:
        if self.max_redirects < 0 or self.size_limit < 0:
            raise ValueError("max_redirects and size_limit must be >= 0")
        if not 0 <= self.min_ttl <= self.max_ttl:
            raise ValueError("need 0 <= min_ttl <= max_ttl")
        if min(self.default_ttl, self.retry_after_error, self.retry_after_503, self.fetch_timeout) <= 0:
            raise ValueError("default_ttl, retry intervals and fetch_timeout must be > 0")

    def ttl(self, headers: Mapping[str, str]) -> float:
        """C1, C4: how long a good answer lives: ``max-age`` within the bounds, else 24 h.

        ``no-store`` and ``no-cache`` mean the shortest allowed lifetime; a malformed
        ``max-age`` is ignored.
        """
        directives = _cache_control(headers.get("cache-control", ""))
        if "no-store" in directives or "no-cache" in directives:
            return self.min_ttl
        max_age = directives.get("max-age")
        if max_age is None or not (max_age.isascii() and max_age.isdigit()):
            return self.default_ttl
        return min(max(float(max_age), self.min_ttl), self.max_ttl)

    def retry_delay(self, failures: int, status: int, headers: Mapping[str, str], now: float) -> float:
        """F5: when to try again after ``failures`` consecutive failures (>= 1).

        Doubling from ``retry_after_503`` for 503 (and 429) or ``retry_after_error`` otherwise,
        capped at ``max_retry_interval``; a ``Retry-After`` header wins within [min_ttl, cap].
        """
        cap = self.max_retry_interval
        after = _retry_after(headers.get("retry-after", ""), now)
        if after is not None:
            return min(max(after, self.min_ttl), cap)
        base = self.retry_after_503 if status in (503, 429) else self.retry_after_error
        return min(base * 2.0 ** min(failures - 1, 40), max(cap, base))


def _cache_control(value: str) -> dict[str, str]:
    """Directives of a Cache-Control header, names lower-cased, quotes stripped."""
    out: dict[str, str] = {}
    for part in value.split(","):
        name, _, arg = part.strip().partition("=")
        if name:
            out.setdefault(name.strip().lower(), arg.strip().strip('"'))
    return out


def _retry_after(value: str, now: float) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or an HTTP date), None if absent or invalid."""
    value = value.strip()
    if not value:
        return None
    if value.isascii() and value.isdigit():
        return float(value)
    try:
        parts = parsedate_tz(value)
        if parts is None:
            return None
        offset = parts[9] or 0  # "-0000" (no offset given) is UTC by RFC 5322, not the machine's zone
        return calendar.timegm(parts[:9]) - offset - now
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


class Response(NamedTuple):
    """An HTTP (or FTP, mapped to 200/404) answer: ``headers`` with lower-case names."""

    status: int
    headers: Mapping[str, str]
    body: bytes = b""


class Failure(NamedTuple):
    """F8: no usable response. ``kind`` is one of dns, connect, timeout, reset, protocol, tls, other.

    Also ``redirect``: a redirect whose ``Location`` the transport could not resolve; that one is
    not a failure of the site but a redirect leading nowhere, treated as a 404 (F3).
    """

    kind: str
    detail: str = ""


@dataclass(frozen=True, slots=True)
class Entry:
    """What the cache keeps for one robots.txt URL (C3: shared by all agents). Never decides alone.

    ``outcome``/``status``/``reason`` describe the latest attempt (``status`` 0 for a network
    failure). The last good copy (C2) is ``good_status`` (2xx: ``body`` holds it; 4xx or an
    equivalent: no robots.txt) received at ``good_at``; ``good_at`` is None when there is none.
    ``failures`` counts consecutive failed attempts since ``failing_since``. ``final_url`` is
    where the good copy's redirects ended and ``redirects`` how many hops led there (F3), so
    an explanation can show them.

    ``why`` is the latest attempt's reason as data (a :class:`~robotrules.core.reasons.Reason`;
    its ``decides`` is always "attempt"), ``reason`` the sentence people read, rendered from it when
    the entry was made. An entry made without ``why`` (read from a store that an older version
    wrote, built by code that knows only the sentence) gets it from ``reason`` by
    :func:`~robotrules.core.reasons.from_sentence`, the one fallback, when it is made.
    """

    url: str
    outcome: Outcome
    status: int
    reason: str
    fetched_at: float
    expires_at: float
    body: bytes = b""
    good_status: int = 0
    good_at: float | None = None
    failures: int = 0
    failing_since: float | None = None
    final_url: str = ""
    redirects: int = 0
    why: Reason = field(default=_UNSTATED)

    def __post_init__(self) -> None:
        if self.why is _UNSTATED:  # made as older versions made entries: the sentence says why
            reason = self.reason if isinstance(self.reason, str) else ""  # stores validate the types after
            status = self.status if type(self.status) is int else 0
            object.__setattr__(self, "why", from_sentence(reason, status, standing=False))


class Standing(NamedTuple):
    """What decides for a robots.txt at some moment: rules from ``body``, full allow or full disallow.

    ``age`` is how old the deciding copy is (seconds; 0 for a decision made without one): see
    :func:`age`. ``until``: the standing (everything here but ``age``) holds while
    ``now < until``; at ``until`` the entry is due for a refetch (``expires_at``, C1) or, for a
    full disallow, the F6 flip to full allow has happened, whichever comes first. ``why`` is
    ``reason`` as data: the entry's :attr:`Entry.why`, saying what decides meanwhile (``decides``).
    """

    kind: StandingKind
    body: bytes
    status: int
    reason: str
    age: float
    until: float
    why: Reason


def fresh(entry: Entry, now: float) -> bool:
    """C1, C4, F5: whether ``entry`` may be used at ``now`` without fetching: ``now < expires_at``.

    The one freshness test: :func:`begin` uses it for stored entries, and clients keep
    :attr:`Standing.until` (never later than ``expires_at``) for their parsed copies.
    """
    return now < entry.expires_at


def flips_at(entry: Entry, policy: Policy) -> float | None:
    """F6: the last moment a failing robots.txt without a good copy is full disallow.

    After it (``now > flips_at``) the site has been unreachable for more than
    ``unreachable_after`` seconds and nothing is cached: full allow. None when a good copy
    decides, since it does however long the outage (C2, F6). The outage starts at
    ``failing_since`` (``fetched_at`` for an entry recorded without it).
    """
    if entry.good_at is not None:
        return None
    since = entry.failing_since if entry.failing_since is not None else entry.fetched_at
    return since + policy.unreachable_after


def age(entry: Entry, now: float) -> float:
    """How old the deciding copy is at ``now``: seconds since ``good_at``, 0 with no good copy.

    A full disallow or the F6 full allow is decided without a copy, so its age is 0; a clock
    that went backwards gives 0, never a negative age.
    """
    return max(0.0, now - entry.good_at) if entry.good_at is not None else 0.0


def standing(entry: Entry, now: float, policy: Policy) -> Standing:
    """F2-F6, C2: what ``entry`` means at ``now``, and until when (:attr:`Standing.until`).

    A good copy decides while refreshes fail, however long (C2, F6); with none, a failing
    robots.txt is full disallow (F5) until it has failed for ``unreachable_after`` (F6).

    The sentence repeats the entry's own (``reason``, as it was stored) and adds what decides
    meanwhile, by :func:`~robotrules.core.reasons.render`.
    """
    flip = flips_at(entry, policy)
    if flip is None:
        why = entry.why
        if entry.failures:
            why = replace(why, decides="good-copy", good_status=entry.good_status)
        said = _said(entry, why)
        if 200 <= entry.good_status < 300:
            return Standing("rules", entry.body, entry.good_status, said, age(entry, now), entry.expires_at, why)
        return Standing("allow", b"", entry.good_status, said, age(entry, now), entry.expires_at, why)
    if now > flip:
        why = replace(entry.why, decides="unreachable", days=policy.unreachable_after / DAY)
        return Standing("allow", b"", entry.status, _said(entry, why), 0.0, entry.expires_at, why)
    until = min(entry.expires_at, math.nextafter(flip, math.inf))  # the first instant with now > flip
    why = replace(entry.why, decides="disallow")
    return Standing("disallow", b"", entry.status, _said(entry, why), 0.0, until, why)


def _said(entry: Entry, why: Reason) -> str:
    """The sentence of a standing: the entry's own words, then what decides meanwhile."""
    return entry.reason if why.decides == "attempt" else why.sentence(said=entry.reason)


def merge(stored: Entry | None, new: Entry) -> Entry:
    """C2, C3: what a store keeps when ``new`` is written over ``stored``: never a lost good copy.

    Stores apply this atomically on every ``put`` (several processes and machines write one
    key, and a slow writer may finish last). The rule, field by field:

    - the good copy (``body``, ``good_status``, ``good_at``, ``final_url``, ``redirects``: what
      the last good answer said, where its redirects ended and after how many hops) comes from whichever entry holds the newer
      one, by ``good_at``; a copy beats none, and on a tie ``new`` wins;
    - the latest attempt (``outcome``, ``status``, ``reason``, ``why``, ``fetched_at``,
      ``expires_at``, ``failures``, ``failing_since``) comes from the newer attempt, by
      ``fetched_at``; on a tie ``new`` wins. With neither holding a good copy, the whole entry is
      the newer attempt.

    So a failure written after a success keeps the success's copy, which goes on deciding in
    :func:`standing` (C2: ``good_at`` is set), with the failure's back-off as ``expires_at`` and
    its streak; and a success that finishes after a newer failure still installs its copy.
    A good answer made here has ``good_at == fetched_at``, so a good attempt that wins always
    brings its own copy (only entries from machines whose clocks disagree can mix an attempt
    and another entry's copy; :func:`standing` lets the copy decide either way). ``stored`` for
    another URL (it cannot be this key's) counts as absent. Pure: the same two entries always
    give the same result.
    """
    if stored is None or stored.url != new.url:
        return new
    attempt = new if new.fetched_at >= stored.fetched_at else stored
    if new.good_at is None and stored.good_at is None:
        return attempt
    if stored.good_at is None:
        good = new
    elif new.good_at is None:
        good = stored
    else:
        good = new if new.good_at >= stored.good_at else stored
    if good is attempt:
        return attempt
    return replace(attempt, body=good.body, good_status=good.good_status, good_at=good.good_at, final_url=good.final_url,
                   redirects=good.redirects)


@dataclass(frozen=True, slots=True)
class Fetch:
    """One attempt in progress: GET ``url`` for ``purpose``, then :meth:`apply` what happened.

    ``chain`` holds the URLs requested so far for the robots.txt (redirects, F3); ``status`` the
    robots.txt's own 5xx while the F7 probes run. Immutable: each step returns a new object.
    """

    robots_url: str
    policy: Policy
    cached: Entry | None
    url: str
    purpose: Purpose = "robots"
    chain: tuple[str, ...] = ()
    status: int = 0
    headers: Mapping[str, str] = field(default_factory=dict)

    @property
    def limit(self) -> int:
        """Bytes of body worth reading for this request (F9; probes need the status only)."""
        return self.policy.size_limit if self.purpose == "robots" else 0

    def apply(self, result: Response | Failure, now: float) -> Fetch | Entry:
        """The next request, or the entry this attempt ends with (see the module docstring)."""
        if self.purpose != "robots":
            return self._apply_probe(result, now)
        if isinstance(result, Failure) and result.kind == "redirect":  # the transport could not resolve Location
            return self._good("allow", Reason("redirect-unusable", 0, detail=result.detail), {}, b"", now)
        if isinstance(result, Failure):
            return self._error(Reason("network", 0, failure=result.kind, detail=result.detail), {}, now)
        status, headers, body = result
        if 200 <= status < 300:
            return self._good("rules", Reason("rules", status), headers, body[: self.policy.size_limit], now)
        if 300 <= status < 400:
            return self._redirect(status, headers, now)
        if status == 429 and not self.policy.all_4xx_alike:
            return self._error(Reason("rate-limited", status), headers, now)
        if 400 <= status < 500:
            return self._good("allow", Reason("no-robots-txt", status), headers, b"", now)
        if 500 <= status < 600 and self.policy.detect_misconfigured_5xx:
            return replace(self, url=_probe_url(self.url), purpose="probe-missing", status=status, headers=headers)
        if 500 <= status < 600:
            return self._error(Reason("server-error", status), headers, now)
        return self._error(Reason("invalid-status", status), headers, now)

    def _redirect(self, status: int, headers: Mapping[str, str], now: float) -> Fetch | Entry:
        """F3: follow ``Location`` up to ``max_redirects`` hops; a loop or the limit is a 404."""
        location = headers.get("location", "").strip()
        try:
            target = urljoin(self.url, location) if location else ""
            scheme = urlsplit(target).scheme.lower()
            urlsplit(target).port  # noqa: B018 - raises ValueError for a malformed port
        except ValueError:
            target, scheme = "", "invalid"
        chain = self.chain or (self.url,)
        why: Reason | None = None
        if scheme == "invalid":
            why = Reason("redirect-bad-location", status)
        elif not target:
            why = Reason("redirect-no-location", status)
        elif scheme not in FETCHABLE_SCHEMES:
            why = Reason("redirect-bad-scheme", status)
        elif target in chain:
            why = Reason("redirect-loop", status, detail=target)
        elif len(chain) > self.policy.max_redirects:
            why = Reason("redirect-limit", status, limit=self.policy.max_redirects)
        if why is not None:
            return self._good("allow", why, headers, b"", now)
        return replace(self, url=target, chain=(*chain, target))

    def _apply_probe(self, result: Response | Failure, now: float) -> Fetch | Entry:
        """F7: a 5xx for a path that cannot exist, with the home page answering 2xx, is a 404."""
        ok = isinstance(result, Response)
        code = result.status if isinstance(result, Response) else 0
        if self.purpose == "probe-missing" and ok and 500 <= code < 600:
            return replace(self, url=urljoin(self.url, "/"), purpose="probe-home")
        if self.purpose == "probe-home" and ok and 200 <= code < 300:
            return self._good("allow", Reason("missing-pages-5xx", self.status), self.headers, b"", now)
        return self._error(Reason("server-error", self.status), self.headers, now)

    def _good(self, outcome: Outcome, why: Reason, headers: Mapping[str, str], body: bytes, now: float) -> Entry:
        """C1, C4: a good answer replaces the cached copy and lives for its TTL."""
        status = why.status
        return Entry(
            url=self.robots_url, outcome=outcome, status=status, reason=why.sentence(), fetched_at=now,
            expires_at=now + self.policy.ttl(headers), body=body, good_status=status, good_at=now,
            final_url=self.url, redirects=max(0, len(self.chain) - 1), why=why,
        )

    def _error(self, why: Reason, headers: Mapping[str, str], now: float) -> Entry:
        """C2, F5, F8: a failure keeps the last good copy and backs off; the streak carries over."""
        old = self.cached
        status = why.status
        failures = (old.failures if old is not None else 0) + 1
        since = old.failing_since if old is not None and old.failures and old.failing_since is not None else now
        delay = self.policy.retry_delay(failures, status, headers, now)
        return Entry(
            url=self.robots_url, outcome="error", status=status, reason=why.sentence(), fetched_at=now,
            expires_at=now + delay, body=old.body if old is not None else b"",
            good_status=old.good_status if old is not None else 0,
            good_at=old.good_at if old is not None else None, failures=failures, failing_since=since,
            final_url=old.final_url if old is not None else "",
            redirects=old.redirects if old is not None else 0, why=why,
        )


def _probe_url(url: str) -> str:
    """F7: a path on the same origin that cannot exist (stable per origin, so a cache sees one URL)."""
    token = hashlib.sha256(url.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return urljoin(url, f"/robotrules-probe-{token}-does-not-exist")


def begin(robots_url: str, cached: Entry | None, now: float, policy: Policy, *, force: bool = False) -> Fetch | Entry:
    """C1: the cached entry while it is :func:`fresh`, else a :class:`Fetch` of ``robots_url`` (F1).

    ``force`` (an explicit refresh) fetches whatever the cache holds; the attempt still carries
    ``cached``, so a failure keeps its good copy (C2).
    """
    if cached is not None and not force and fresh(cached, now):
        return cached
    return Fetch(robots_url, policy, cached, robots_url, chain=(robots_url,))


def restated(entry: Entry, why: Reason) -> Entry:
    """``entry`` with the reason ``why`` (an attempt's: ``decides`` "attempt") and the sentence
    rendered from it, nothing else changed: for a driver that knows more than the response said,
    such as an archive that kept one byte past the size limit (``replace(entry.why, cut=limit)``, F9)."""
    return replace(entry, why=why, reason=why.sentence())
