"""What governs a robots.txt URL: its rules, or a full allow or disallow, and why (F2-F6);
a client's copy of it with its cache fields; its JSON form; its cause in plain words."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from robotrules.core.policy import Entry, StandingKind
from robotrules.core.reasons import AS_404, Reason, from_sentence
from robotrules.core.refresh import Had
from robotrules.core.robotstxt import AgentRules, RobotsTxt

__all__ = ["CacheState", "Governing", "Kind", "LineTexts", "RobotsState", "StoreState", "state_dict"]

Kind = Literal[StandingKind, "unknown"]
"""What governs: the rules of a body (F2), everything allowed (F4, F6), everything disallowed
(F5, F8) (the policy's :data:`~robotrules.core.policy.StandingKind`), or nothing known (no
capture of the robots.txt). The one home of the surfaces: the service's models and every other
surface import it."""

CacheState = Had
"""Where a client's copy came from: its cache, a fetch for this call, or a fetch made meanwhile
by another caller or process (the refresh machine's :data:`~robotrules.core.refresh.Had`)."""

StoreState = Literal["ok", "down", "probing"]
"""The store's circuit breaker: "ok" (calls go through), "down" (bypassed after repeated
failures, until the cool-down ends), "probing" (the cool-down is over: the next store call is
a probe, and its success brings the store back)."""


_UNSTATED = Reason("unknown", detail="not stated")
"""The default of :attr:`Governing.why`: made from a sentence alone."""


class LineTexts(dict[int, str]):
    """Lines of a robots.txt as written, by number (0: ""), each read from its body when first asked for."""

    __slots__ = ("robots",)

    def __init__(self, robots: RobotsTxt | None) -> None:
        super().__init__({0: ""})
        self.robots = robots

    def __missing__(self, line: int) -> str:
        text = self[line] = self.robots.line_text(line) if self.robots is not None else ""
        return text

    def __reduce__(self) -> Any:
        return (LineTexts, (self.robots,), None, None, iter(self.items()))


class _Memo(dict[tuple[str, ...], AgentRules]):
    """A cache that does not travel: it pickles as an empty one (made again where it is used)."""

    def __reduce__(self) -> Any:
        return (_Memo, ())


@dataclass(frozen=True, slots=True)
class Governing:
    """What decides the URLs of one robots.txt (see the module): ``robots`` (its rules, when
    ``kind`` is "rules") or a full allow or disallow, the HTTP ``status`` behind it (0: a network
    failure or nothing known) and the ``reason``, a sentence for people; ``outcome`` what the
    latest fetch got, in Common Crawl's classes (:data:`robotrules.outcomes.OUTCOMES`; "" when not
    worked out). ``why`` is the reason as data (:class:`~robotrules.core.reasons.Reason`: the
    standing's, :attr:`robotrules.core.policy.Standing.why`): read its code, never the sentence.
    Made without one (by code that knows only the sentence), it is read from ``reason`` by
    :func:`~robotrules.core.reasons.from_sentence`.

    Two memos of values derived from ``robots`` (never of anything else) are made on first use:
    :attr:`texts`, the deciding lines as written, and :meth:`rules_for`, the rules a tuple of
    tokens obey; writing one twice writes the same value, so a Governing is safe to share.
    """

    robots_url: str
    kind: Kind
    status: int
    reason: str
    robots: RobotsTxt | None = field(default=None, repr=False)
    outcome: str = ""
    why: Reason = field(default=_UNSTATED, kw_only=True)
    _texts: LineTexts | None = field(default=None, init=False, compare=False, repr=False)
    _rules: _Memo | None = field(default=None, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.why is _UNSTATED:  # made from a sentence alone: it says why
            object.__setattr__(self, "why", from_sentence(self.reason, self.status))

    @property
    def texts(self) -> LineTexts:
        """Deciding lines as written, by number (0: ""), read from the body once each."""
        texts = self._texts
        if texts is None:
            texts = LineTexts(self.robots)
            object.__setattr__(self, "_texts", texts)
        return texts

    def rules_for(self, tokens: tuple[str, ...]) -> AgentRules | None:
        """The rules ``tokens`` obey in :attr:`robots`, selected once per tuple of tokens (None: no rules)."""
        if self.robots is None:
            return None
        memo = self._rules
        if memo is None:
            memo = _Memo()
            object.__setattr__(self, "_rules", memo)
        rules = memo.get(tokens)
        if rules is None:
            rules = memo[tokens] = self.robots.for_agents(tokens)
        return rules

    @property
    def verdict(self) -> bool | None:
        """The verdict on every URL when no rules decide: True (full allow), False (full
        disallow), None (nothing known); meaningless when ``kind`` is "rules"."""
        return None if self.kind == "unknown" else self.kind == "allow"


@dataclass(frozen=True, slots=True)
class RobotsState(Governing):
    """What governs a robots.txt URL now, and why, as a client holds it (DESIGN 5).

    ``kind``: "rules" (``robots`` decides), "allow" or "disallow" (everything, F4-F6).
    ``status`` is the HTTP status behind it (0: network failure); ``age`` the seconds since the
    deciding copy was fetched; ``cache`` "hit" (from cache), "miss" (fetched for this call) or
    "shared" (fetched meanwhile by another caller or process); ``failures`` the current
    streak of failed refreshes (C2). ``entry`` is the stored record. ``store`` is the client's
    store breaker when the answer was given (:data:`StoreState`).
    """

    age: float = field(default=0.0, kw_only=True)
    cache: CacheState = field(default="miss", kw_only=True)
    failures: int = field(default=0, kw_only=True)
    entry: Entry = field(kw_only=True, repr=False)
    store: StoreState = field(default="ok", kw_only=True)

    def __str__(self) -> str:
        """One line for people: the robots.txt URL, what it means, why, and the cache state."""
        return f"{self.robots_url}: {self.describe()}"

    def cause(self) -> str:
        """What happened, in a few plain words: "could not fetch robots.txt (connection refused)"."""
        entry, why = self.entry, self.why
        if entry.outcome == "error" or self.failures:
            return f"could not fetch robots.txt ({_failure(entry)})"
        if self.kind != "allow":
            return f"its rules decide ({self.status})" if self.kind == "rules" else "nothing known of it"
        if why.code == "missing-pages-5xx":  # F7
            return f"robots.txt answers {self.status}, as do pages that cannot exist"
        if why.code == "redirect-loop":  # F3
            return f"robots.txt redirects in a loop (back to {why.detail})"
        if why.code in AS_404:  # F3: a redirect leading nowhere
            return f"robots.txt redirects nowhere usable ({why.sentence('event')})"
        return f"no robots.txt ({self.status})"

    def happened(self) -> str:
        """:meth:`cause`, then what Google makes of it: F4, F5, F8 (disallow all), C2, F6."""
        failing = self.entry.outcome == "error" or self.failures
        meaning = ""
        if self.kind == "disallow":
            meaning = ": Google treats an unreachable robots.txt as disallow all"
        elif self.kind == "rules" and failing:
            meaning = f": the last good copy ({self.status}) still decides, as Google keeps it while a site fails"
        elif self.kind == "allow" and failing:
            meaning = (" for too long: Google then treats it as missing, allow all" if self.entry.good_at is None
                       else f": the last answer ({self.status}, no robots.txt) still decides, allow all")
        elif self.kind == "allow":
            meaning = (": Google treats it as missing, allow all" if self.why.code in AS_404
                       else ": Google treats a missing robots.txt as allow all")
        return self.cause() + meaning

    def describe(self) -> str:
        """:meth:`happened`, where redirects ended, the cache state and age ("cached 5 min ago"),
        and for a failure when it is tried again."""
        parts, entry, failing = [self.happened()], self.entry, self.entry.outcome == "error"
        if entry.redirects and entry.final_url and entry.final_url != self.robots_url:
            parts.append(f"after {entry.redirects} redirect{'s' if entry.redirects != 1 else ''} to {entry.final_url}")
        done = "tried" if failing else "fetched"
        parts.append({"hit": f"cached {_age(self.age)} ago", "shared": f"{done} {_age(self.age)} ago by another caller"}
                     .get(self.cache, f"{done} just now"))
        if self.failures > 1:
            parts.append(f"{self.failures} failed fetches in a row")
        if failing:
            wait = entry.expires_at - (entry.good_at if entry.good_at is not None else entry.fetched_at) - self.age
            parts.append(f"next try in {_age(wait)}" if wait > 0 else "next try at the next request")
        return "; ".join(parts)


_NETWORK = {"dns": "the host name could not be resolved", "connect": "could not connect", "timeout": "timed out",
            "reset": "the connection was reset", "tls": "the secure (TLS) connection failed"}


def _failure(entry: Entry) -> str:
    """A failed attempt in a few words: "connection refused", "server error 503", "429 too many requests"."""
    status, why = entry.status, entry.why
    if status:
        return "429 too many requests" if status == 429 else f"{'server error' if status >= 500 else 'HTTP status'} {status}"
    if why.code != "network":
        return entry.reason
    return "connection refused" if "refused" in why.detail.lower() else _NETWORK.get(why.failure, entry.reason)


def _age(seconds: float) -> str:
    """A duration for people: 42 s, 5 min, 3 h, 2 days (never negative)."""
    seconds = max(0.0, seconds)
    for limit, unit, size in ((120, "s", 1), (7200, "min", 60), (172800, "h", 3600)):
        if seconds < limit:
            return f"{seconds / size:.0f} {unit}"
    return f"{seconds / 86400:.0f} days"


def state_dict(state: RobotsState) -> dict[str, Any]:
    """The JSON form of a live robots.txt's state: URL, redirects, status, why, cache and age."""
    entry = state.entry
    return {
        "robots_url": state.robots_url,
        "final_url": entry.final_url or None,
        "redirects": entry.redirects,
        "kind": state.kind,
        "status": state.status,
        "reason": state.reason,
        "cache": state.cache,
        "age": round(state.age, 3),
        "failures": state.failures,
        "fetched_at": entry.fetched_at,
        "expires_at": entry.expires_at,
        "store": state.store,
        "summary": state.describe(),
    }
