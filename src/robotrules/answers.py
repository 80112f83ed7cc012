"""The answer, in one place: what governs a robots.txt URL, and a verdict in each of its forms.

Every surface builds its answers from here, so a verdict reads the same everywhere: the client,
the command line, the service and its page, the batch and Spark engines, the drop-ins::

    Governing       what decides the URLs of one robots.txt: its rules, or a full allow or
                    disallow (F2-F6), the HTTP status behind it and why; "unknown" when nothing
                    is known of it (an archive without a capture)
    RobotsState     a Governing as a client holds it, with its cache fields: the stored entry,
                    hit / miss / shared, the copy's age, the failed refreshes, the store's state
    CheckResult     one URL and agent answered by a client (a Decision when rules decided)
    Verdict         one URL and agent for people: the agent as given, the product token matched,
                    the deciding line as written, where the file came from; one sentence
                    (explain) and one JSON form (to_dict)
    COLUMNS, Row    the batch row, with the one declaration of its types (FIELDS) that the
                    Arrow and Spark schemas are derived from
    token_of        the product token of an agent (memoised: the one memo of every surface)
    require_token   the one check that an agent names a crawler

The core keeps comparing agents exactly as the reference does; the surfaces for people match on
the product token (G3), through :func:`token_of`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from robotrules.core.agents import user_agent_token
from robotrules.core.policy import Entry
from robotrules.core.robotstxt import AgentRules, Decision, RobotsTxt
from robotrules.core.usage import CATEGORIES, Usage

__all__ = [
    "COLUMNS",
    "FIELDS",
    "LISTED_LINES",
    "TOKENS",
    "CacheState",
    "CheckResult",
    "FieldType",
    "Governing",
    "Kind",
    "LineTexts",
    "RobotsState",
    "Row",
    "StoreState",
    "Verdict",
    "answer",
    "arrow_schema",
    "check_offline",
    "crawler_note",
    "crawler_of",
    "from_result",
    "ignores_global",
    "json_ready",
    "require_token",
    "sentence",
    "spark_schema",
    "state_dict",
    "token_of",
]

Kind = Literal["rules", "allow", "disallow", "unknown"]
"""What governs: the rules of a body (F2), everything allowed (F4, F6), everything disallowed
(F5, F8), or nothing known (no capture of the robots.txt)."""

CacheState = Literal["hit", "miss", "shared"]
"""Where a client's copy came from: its cache, a fetch for this call, or a fetch made meanwhile
by another caller or process."""

StoreState = Literal["ok", "down", "probing"]
"""The store's circuit breaker: "ok" (calls go through), "down" (bypassed after repeated
failures, until the cool-down ends), "probing" (the cool-down is over: the next store call is
a probe, and its success brings the store back)."""


# -- agents ------------------------------------------------------------------------------------

TOKENS: dict[str, str] = {}
"""The memo of :func:`token_of`: agent -> product token. Others only read it (the sync client's
hot path inlines :func:`token_of` with it); only :func:`token_of` writes it."""
LISTED_LINES = 100
"""Preference lines one verdict's JSON lists at most (``preference_lines``; the rest counted in
``preference_lines_omitted``): a hostile file may tie thousands of Content-Usage lines."""

_TOKENS_MOST = 4096  # agents remembered; past it the memo starts over
_AGENT_MOST = 1024  # characters: a longer agent (a pasted header gone wrong) is never remembered


def token_of(agent: str) -> str:
    """The product token ``agent`` is matched on (RFC 9309 2.2.1, G3): a token, a versioned name
    or a whole User-Agent header gives its first product token (``*`` stays ``*``; "" when it
    names none). Memoised, bounded; safe from any thread. ``TypeError`` for a non-str."""
    token = TOKENS.get(agent)
    if token is None:
        if not isinstance(agent, str):
            raise TypeError(f"user_agent must be str or a sequence of str, not {type(agent).__name__}")
        token = user_agent_token(agent)
        if len(agent) <= _AGENT_MOST:
            if len(TOKENS) >= _TOKENS_MOST:
                TOKENS.clear()
            TOKENS[agent] = token
    return token


def require_token(agent: str) -> str:
    """The product token of ``agent``; ``ValueError`` in plain words when it names no crawler (no
    letter, ``-`` or ``_``), so no group could name it. ``*`` is a crawler name here (every other)."""
    token = token_of(agent)
    if not token:
        raise ValueError(f"{agent[:80]!r} names no crawler: a product token is made of letters, '-' and '_' "
                         "(Googlebot, FooBot/1.2, or a whole User-Agent header)")
    return token


# -- what governs -------------------------------------------------------------------------------

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
    failure or nothing known) and the ``reason``; ``outcome`` what the latest fetch got, in
    Common Crawl's classes (:data:`robotrules.outcomes.OUTCOMES`; "" when not worked out).

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
    _texts: LineTexts | None = field(default=None, init=False, compare=False, repr=False)
    _rules: _Memo | None = field(default=None, init=False, compare=False, repr=False)

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
        entry, why = self.entry, self.reason.partition(": treated as 404")[0]
        if entry.outcome == "error" or self.failures:
            return f"could not fetch robots.txt ({_failure(entry)})"
        if self.kind != "allow":
            return f"its rules decide ({self.status})" if self.kind == "rules" else "nothing known of it"
        if "5xx for missing pages" in why:  # F7
            return f"robots.txt answers {self.status}, as do pages that cannot exist"
        if why != self.reason:  # F3: a redirect leading nowhere
            loop = why.startswith("redirect loop back to ")
            return f"robots.txt redirects {'in a loop (back to ' + why[22:] + ')' if loop else 'nowhere usable (' + why + ')'}"
        return f"no robots.txt ({self.status})"

    def happened(self) -> str:
        """:meth:`cause`, then what Google makes of it: F4, F5, F8 (disallow all), C2, F6."""
        failing = self.entry.outcome == "error" or self.failures
        meaning = {"disallow": ": Google treats an unreachable robots.txt as disallow all",
                   "rules": f": the last good copy ({self.status}) still decides, as Google keeps it while a site fails"
                   if failing else "",
                   "allow": (" for too long: Google then treats it as missing, allow all" if self.entry.good_at is None
                             else f": the last answer ({self.status}, no robots.txt) still decides, allow all")
                   if failing else ": Google treats it as missing, allow all" if "treated as 404" in self.reason
                   else ": Google treats a missing robots.txt as allow all"}
        return self.cause() + meaning.get(self.kind, "")

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
    status, (kind, _, detail) = entry.status, entry.reason.partition(" error")
    if status:
        return "429 too many requests" if status == 429 else f"{'server error' if status >= 500 else 'HTTP status'} {status}"
    return "connection refused" if "refused" in detail.lower() else _NETWORK.get(kind, entry.reason)


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


# -- one URL, one agent --------------------------------------------------------------------------

_GROUPS: dict[str | None, str] = {None: "no group applies", "*": "group 'user-agent: *'"}


def sentence(allowed: bool, token: str, line: int, text: str, group: str | None, path: str, source: str,
             full: str | None = None, ignored_global: bool = False, why: str = "") -> str:
    """The verdict as a sentence: who, which line as written (or why no line), which group;
    ``ignored_global``: the crawler ignored the file's ``*`` group (A8). For a ``full`` allow or
    disallow (no rules decide, F4-F6), ``why`` says what happened (:meth:`RobotsState.cause`):
    never as if the site had said so when it could not be fetched."""
    verdict = "allowed" if allowed else "disallowed"
    who = f" for {token}" if token else ""
    if full is not None:
        return f"{verdict}{who}: {why}" if why else f"{verdict}{who}: no rules apply, everything {verdict} at {source}"
    if ignored_global:
        where = f"no group names {token or 'it'}, and it ignores the group 'user-agent: *'"
    else:
        where = _GROUPS.get(group, f"group for {group!r}")
    if not line:
        return f"{verdict}{who}: no rule matches {path!r} ({where})"
    return f"{verdict}{who} by line {line}: {text!r} ({where})"


@dataclass(frozen=True, slots=True)
class CheckResult:
    """The answer for one URL and agent: ``allowed``, the deciding ``line`` (0: none) and why.

    ``decision`` is the matcher's :class:`~robotrules.core.robotstxt.Decision` when rules decided,
    None for a full allow or disallow; ``state`` says which robots.txt, fetched when, and how.
    """

    allowed: bool
    line: int
    decision: Decision | None
    state: RobotsState
    agent: str = ""
    """The product token the answer was matched on (RFC 9309 2.2.1), taken from what the caller
    passed: a token, a versioned name or a whole User-Agent header (several joined by ", ")."""

    @property
    def text(self) -> str:
        """The deciding line as written in the file ("" when no rule decided)."""
        return self.state.texts[self.line] if self.state.robots is not None and self.line else ""

    def explain(self) -> str:
        """One line for people: verdict, deciding line as written, and the robots.txt's state."""
        d, s = self.decision, self.state
        if d is None:
            head = sentence(self.allowed, self.agent, 0, "", None, "", s.robots_url, s.kind, why=s.cause())
        else:
            head = sentence(self.allowed, self.agent, self.line, self.text, d.agent, d.path, s.robots_url)
        return f"{head} [{s}]"


@dataclass(frozen=True, slots=True)
class Verdict:
    """One URL decided for one agent, with why, for people (DESIGN 5).

    ``agent`` as given, ``token`` the product token matched on; ``line`` the deciding line's
    number (0: none), ``text`` that line as written, ``kind`` "allow"/"disallow" (None: no rule);
    ``group`` the group that applied ("*", a token, None: none); ``path`` what was matched;
    ``source`` the robots.txt URL or the draft's name; ``state`` the live file's state (None for
    a draft); ``full`` "allow"/"disallow" when the whole site is decided without rules (F3-F6);
    ``usage`` the AI-use preferences for the URL (A1-A8; None when no rules decide);
    ``ignored_global`` True when the crawler ignores the ``*`` group (A8: Google's AdsBot) and
    that group would otherwise have applied.
    """

    url: str
    agent: str
    token: str
    allowed: bool
    line: int
    text: str
    kind: str | None
    group: str | None
    path: str
    source: str
    state: RobotsState | None = None
    full: str | None = None
    usage: Usage | None = None
    ignored_global: bool = False

    def preference(self, category: str) -> bool | None:
        """A3, A5: True (allowed), False (disallowed) or None (unknown, or the URL may not be crawled)."""
        return self.usage.preference(category) if self.usage is not None else None

    def preferences(self) -> dict[str, bool | None]:
        """Every usage category with its :meth:`preference` (all None when no rules decide)."""
        return {category: self.preference(category) for category in CATEGORIES}

    def preference_lines(self) -> list[int]:
        """The Content-Usage and Content-Signal lines that decide the preferences, in line order."""
        if self.usage is None or not self.allowed:
            return []
        return sorted({r.line for r in self.usage.rules} | {s.line for s in self.usage.signals})

    def use_lines(self, category: str) -> list[int]:
        """The Content-Usage and Content-Signal lines that give ``category`` its value (none when
        the URL may not be crawled, A3)."""
        usage = self.usage
        if usage is None or not self.allowed:
            return []
        found = {r.line for r in usage.rules if r.statement.preference(category) is not None}
        found |= {s.line for s in usage.signals if s.statement.preference(category) is not None}
        return sorted(found)

    def use_sentence(self, categories: Sequence[str] | None = None) -> str:
        """The AI-use preferences in words, each with the line that states it: "train-ai
        disallowed by line 4 'content-usage: train-ai=n'; search unknown" for ``categories``
        (default: all), or "not applicable: the URL may not be crawled" (A3). The one wording of
        the CLI and the service."""
        if not self.allowed:
            return "not applicable: the URL may not be crawled"
        parts = []
        for category in categories if categories is not None else list(CATEGORIES):
            value = self.preference(category)
            word = "unknown" if value is None else "allowed" if value else "disallowed"
            parts.append(f"{category} {word}{self.usage.source(category) if self.usage is not None else ''}")
        return "; ".join(parts)

    def sentence(self) -> str:
        """The verdict in one sentence: verdict, token, deciding line as written, group."""
        return sentence(self.allowed, self.token, self.line, self.text, self.group, self.path, self.source, self.full,
                        self.ignored_global, self.state.cause() if self.state is not None else "")

    def explain(self) -> str:
        """One line for people: :meth:`sentence`, and the live file's state."""
        head = self.sentence()
        return f"{head} [{self.state}]" if self.state is not None else head

    def to_dict(self) -> dict[str, Any]:
        """The JSON form shared by ``--json`` output and the service: ``line`` is null when no
        rule decides (the Python API's 0), as in every JSON the project writes; at most
        :data:`LISTED_LINES` preference lines, the rest counted (a file may tie thousands)."""
        lines = self.preference_lines()
        return {
            "url": self.url,
            "agent": self.agent,
            "token": self.token,
            "allowed": self.allowed,
            "line": self.line or None,
            "text": self.text or None,
            "kind": self.kind,
            "group": self.group,
            "path": self.path,
            "source": self.source,
            "full": self.full,
            "ignored_global": self.ignored_global,
            "robots": state_dict(self.state) if self.state is not None else None,
            "explanation": self.explain(),
            "preferences": self.preferences(),
            "preference_lines": lines[:LISTED_LINES],
            "preference_lines_omitted": max(0, len(lines) - LISTED_LINES),
        }


def json_ready(data: Any) -> Any:
    """``data`` in the project's one JSON convention: a line number (a ``line`` or ``..._line``
    key) of 0, the Python API's "no line", is ``null``. For JSON forms built elsewhere (the
    diff's, the CLI's documents) before they are written."""
    if isinstance(data, dict):
        return {key: None if _no_line(key, value) else json_ready(value) for key, value in data.items()}
    if isinstance(data, list):
        return [json_ready(item) for item in data]
    return data


def _no_line(key: Any, value: Any) -> bool:
    return type(value) is int and value == 0 and isinstance(key, str) and (key == "line" or key.endswith("_line"))


def answer(state: RobotsState, url: str, tokens: str | tuple[str, ...]) -> CheckResult:
    """The answer for ``url`` under ``state`` for ``tokens`` (product tokens already: one, or several
    for G5), as a client's ``check`` gives it: the rules decide, else the state's full allow or disallow."""
    shown = tokens if isinstance(tokens, str) else ", ".join(tokens)
    if state.robots is not None:
        decision = state.robots.check(url, tokens)
        return CheckResult(decision.allowed, decision.line, decision, state, shown)
    return CheckResult(state.kind == "allow", 0, None, state, shown)


def from_result(result: CheckResult, url: str, agent: str) -> Verdict:
    """The verdict of a live check (:meth:`RobotsClient.check`) of ``url`` for ``agent``."""
    state = result.state
    decision = result.decision
    if decision is None or state.robots is None:
        return Verdict(url, agent, result.agent, result.allowed, 0, "", None, None, "", state.robots_url, state,
                       full="allow" if result.allowed else "disallow")
    if decision.agent == "*" and ignores_global(result.agent):
        return _decide(state.robots, url, agent, result.agent, state.robots_url, state)
    rule = decision.rule
    return Verdict(url, agent, result.agent, result.allowed, result.line, result.text,
                   rule.kind if rule is not None else None, decision.agent, decision.path, state.robots_url, state,
                   usage=state.robots.usage(url, token_of(agent)))


def check_offline(robots: RobotsTxt, url: str, agent: str, source: str) -> Verdict:
    """Decide ``url`` for ``agent`` against a draft or a file read from disk (no status rules apply)."""
    return _decide(robots, url, agent, token_of(agent), source, None)


def _decide(robots: RobotsTxt, url: str, agent: str, token: str, source: str, state: RobotsState | None) -> Verdict:
    """The verdict of ``robots`` for ``token``; a crawler that ignores the ``*`` group (A8) is
    decided without it, and the verdict says so."""
    decision = robots.check(url, token)
    ignored = decision.agent == "*" and ignores_global(token)
    if ignored:
        decision = robots.check(url, token, global_group=False)
    rule = decision.rule
    usage = robots.usage(url, token, global_group=not ignored)
    return Verdict(url, agent, token, decision.allowed, decision.line, robots.line_text(decision.line),
                   rule.kind if rule is not None else None, decision.agent, decision.path, source, state,
                   usage=usage, ignored_global=ignored)


def _registry() -> Any:
    """:mod:`robotrules.crawlers`, imported on first use (reading it costs milliseconds that
    ``import robotrules`` should not pay)."""
    import robotrules.crawlers

    return robotrules.crawlers


@cache
def _ignoring() -> frozenset[str]:
    ignoring: frozenset[str] = _registry().IGNORES_GLOBAL
    return ignoring


def ignores_global(token: str) -> bool:
    """A8: whether the registry says the crawler of ``token`` ignores the ``*`` group (Google's
    AdsBot, APIs-Google). Asked for every row of a batch: the set is looked up once."""
    return token.lower() in _ignoring()


def crawler_of(agent: str, token: str) -> Any:
    """A8: the registry's crawler for ``agent`` (by name, else by its ``token``), or None."""
    crawlers = _registry()
    return crawlers.by_token(agent) or crawlers.by_token(token)


def crawler_note(agent: str, token: str) -> str:
    """What the registry says a crawler is for, in words ("GPTBot: AI training, OpenAI"), or ""."""
    crawler = crawler_of(agent, token)
    if crawler is None:
        return ""
    operator = "" if crawler.operator == "unknown" else f", {crawler.operator}"
    return f"{crawler.name}: {_registry().KIND_LABELS[crawler.kind]}{operator}"


# -- the batch row ------------------------------------------------------------------------------

FieldType = Literal["string", "bool", "int32", "double"]
"""The types of the batch and audit tables' columns (nullable, as Arrow and Spark types are)."""

FIELDS: tuple[tuple[str, FieldType], ...] = (
    ("url", "string"),
    ("agent", "string"),
    ("allowed", "bool"),
    ("line", "int32"),
    ("rule", "string"),
    ("robots_url", "string"),
    ("robots_status", "int32"),
    ("reason", "string"),
    ("robots_outcome", "string"),
)
"""The batch output's columns and their types, declared once: every engine, table format and
schema (:func:`arrow_schema`, :func:`spark_schema`) follows it. ``allowed`` may be null.
``robots_outcome`` is :attr:`Governing.outcome` of the robots.txt that governs the row: what its
latest fetch (or capture) got, in Common Crawl's classes (:data:`robotrules.outcomes.OUTCOMES`),
beside the policy's verdict (F2-F8)."""

COLUMNS: tuple[str, ...] = tuple(name for name, _ in FIELDS)
"""The columns of every batch output, in order."""

Row = tuple[str, str, "bool | None", int, str, str, int, str, str]
"""One output row, in the order of :data:`COLUMNS`. ``allowed`` is None when nothing is known of
the site (no capture of its robots.txt), the URL has no robots.txt (not http, https or ftp), or
the row has no URL (an empty or missing cell: the row is kept, so that rows line up with the input).
``robots_outcome`` is "no_capture" when nothing is known of the site (never captured, no source
for it, or a robots.txt URL the client refused), and "" for a row with no URL or a URL with no
robots.txt: there is no robots.txt to have fetched, so no class applies (as ``robots_url`` is "")."""

_ARROW_TYPES = {"string": "string", "bool": "bool_", "int32": "int32", "double": "float64"}
_SPARK_TYPES = {"string": "string", "bool": "boolean", "int32": "int", "double": "double"}


def arrow_schema(pyarrow: Any, fields: Sequence[tuple[str, str]] = FIELDS) -> Any:
    """The Arrow schema of ``fields`` (default :data:`FIELDS`; name and :data:`FieldType`), made
    with the ``pyarrow`` module given (an optional extra)."""
    return pyarrow.schema([(name, getattr(pyarrow, _ARROW_TYPES[kind])()) for name, kind in fields])


def spark_schema(fields: Sequence[tuple[str, str]] = FIELDS) -> str:
    """The Spark DDL schema of ``fields`` (default :data:`FIELDS`): ``"url string, agent string, ..."``."""
    return ", ".join(f"{name} {_SPARK_TYPES[kind]}" for name, kind in fields)
