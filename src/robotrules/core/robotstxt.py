"""The parsed robots.txt and the questions a crawler asks it (G2-G5, R1-R6, N1, N2).

:func:`parse` reads the body once (:func:`~robotrules.core.model.build_model`) and indexes,
per product token, the group naming it or the merged rules of all groups naming it (G4), so a
check is: look the agent up in a dict, extract the path, match. Diagnostics are computed from
``body`` when asked for, never stored. A :class:`RobotsTxt` never changes after ``parse``
returns and may be shared freely between threads, tasks and caches. A check's answer, the
:class:`~robotrules.core.decision.Decision`, and the words that say it are in
:mod:`robotrules.core.decision` (re-exported here).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from robotrules.core import lexer
from robotrules.core.agents import _SEEN_AGENTS, caller_key, legacy_agent_matches, warn_agent, warn_url
from robotrules.core.decision import Decision
from robotrules.core.extensions import (
    ContentUsage,
    RequestRate,
    parse_content_signal,
    parse_content_usage,
    parse_crawl_delay,
    parse_request_rate,
)
from robotrules.core.lint import Diagnostic, lint
from robotrules.core.matcher import EMPTY, RuleSet
from robotrules.core.model import Extension, Group, Merged, build_model
from robotrules.core.modes import Mode, get_mode
from robotrules.core.pattern import rfc_normalise_path
from robotrules.core.rules import ALLOW_BIT, PRIORITY_ONE, line_of, verdict
from robotrules.core.urls import path_params_query
from robotrules.core.usage import NO_LINES, Signal, Usage, UsageIndex, UsageRule, index_usage, indexed_answer

__all__ = ["AgentRules", "Decision", "RobotsTxt", "parse"]

UserAgents = str | Sequence[str]


Selection = tuple[RuleSet, "tuple[Group, ...]", "str | None"]
"""What group selection yields: the merged rules, the groups they come from, the selecting token."""

_NONE: Selection = (EMPTY, (), None)
_AGENT_MEMO = 16
"""How many agent strings :meth:`RobotsTxt.allowed` keeps the selected rules of, per parsed file
(a crawler asks with one or a few; any more are selected on each call)."""
_NO_GROUP = Merged(EMPTY, ())
_NO_ORIGIN = ("https://\0/", 9)
"""What :meth:`RobotsTxt.allowed` remembers of no URL yet: a URL starting with it holds a NUL,
which the fast path refuses, so it is never used."""


@dataclass(frozen=True, slots=True, eq=False)
class RobotsTxt:
    """A parsed robots.txt. Build it with :func:`parse`; immutable and thread-safe.

    ``groups`` in file order; ``extensions`` the non-rule lines outside any group (N2);
    ``size`` the input's length in bytes; ``body`` the bytes that count (the first 512,000).
    URLs passed to :meth:`check` must be percent-encoded as on the wire (the ``google`` mode
    does not normalise them, R3).
    """

    mode: str
    groups: tuple[Group, ...]
    extensions: tuple[Extension, ...]
    size: int
    body: bytes
    _sitemaps: tuple[str, ...]
    _mode: Mode
    _by_token: Mapping[str, Group | Merged]  # G2/G4: token -> its group or merged groups; never written
    _fallback: Group | Merged  # the "*" group(s)
    _plain: bool  # google mode: URLs and agents used as given (the hot path of allowed())
    _by_agent: dict[str, RuleSet]  # allowed()'s memo: agent string as given -> the rules it obeys (bounded)
    _origin: list[tuple[str, int]]  # allowed()'s memo: the last "scheme://host/" read fast and where its path starts
    _usage: dict[int, UsageIndex]  # usage()'s memo: a group's line (0: the lines outside any group) -> its AI-use lines, indexed

    def __reduce__(self) -> tuple[object, tuple[bytes, str, int]]:
        """Pickled as its body, mode and size, and parsed again where it is unpickled (the body is
        all a parse reads; the compiled core's frozen classes accept no attribute writes)."""
        return (_unpickle, (self.body, self.mode, self.size))

    # -- the questions -------------------------------------------------------------------

    def allowed(self, url: str, user_agent: UserAgents) -> bool:
        """Whether ``user_agent`` may fetch ``url`` (an absolute URL or a path starting with "/").

        ``user_agent`` is a product token such as "Googlebot" (:func:`robotrules.user_agent_token`
        gives it from a User-Agent header); another string, or a URL of another form, is decided as
        the reference decides it, with a :class:`~robotrules.core.agents.RobotsInputWarning`.
        """
        if self._plain and type(user_agent) is str and type(url) is str:  # hot path: google mode, one agent
            ruleset = self._by_agent.get(user_agent)
            if ruleset is None:
                ruleset = self._rules_of(user_agent)
            if not ruleset._can_disallow:  # e.g. no rules, or only "disallow:" (R1): every path is allowed
                warn_url(url)
                return True
            # R3: a URL on the origin of the last one read (S1: one file's URLs share one) has its
            # path at the same place, matched there uncopied; any other URL is read by _path_at.
            origin, start = self._origin[0]
            if not (url.startswith(origin) and "#" not in url and "\0" not in url):
                start = self._path_at(url)
            found = ruleset.best(url, start) if start else ruleset.best(path_params_query(url))
            # rules.verdict(found), inlined with its constants: this is the per-URL hot path.
            return found is None or found[0] & ALLOW_BIT != 0 or found[0] < PRIORITY_ONE
        return self.check(url, user_agent).allowed

    def check(self, url: str, user_agent: UserAgents, *, global_group: bool = True) -> Decision:
        """Like :meth:`allowed`, with why: the deciding line and rule, the groups and the path.

        ``global_group=False`` decides for a crawler that ignores the ``*`` group and obeys only
        groups that name it (A8: Google's AdsBot): with no such group, no group applies.
        """
        if not isinstance(url, str):
            raise TypeError(f"url must be str, not {type(url).__name__}")
        warn_url(url)
        path = path_params_query(url)
        ruleset, groups, agent = self._select(user_agent)
        if not global_group and agent == "*":
            ruleset, groups, agent = _NONE
        if self._mode.normalise_percent_encoding:
            path = rfc_normalise_path(path)
            if self._mode.robots_txt_always_allowed and path == "/robots.txt":
                return Decision(True, 0, None, groups, agent, path)
        found = ruleset.best(path)
        if found is None:
            return Decision(True, 0, None, groups, agent, path)
        rule = ruleset.rule(found)
        return Decision(verdict(found), rule.line, rule, groups, agent, path)

    def verdicts(self, url: str, user_agents: Sequence[str]) -> list[tuple[bool, int]]:
        """For each agent of ``user_agents`` (each one crawler, not a union as in :meth:`check`),
        ``(allowed, line)`` as :meth:`check` of ``url`` and that agent gives them.

        For tables of URLs x agents: the path is extracted once, and agents that select the same
        group (G2, G4) share one match; no :class:`Decision` is built. To ask about many URLs with
        the same agents, select their rules once with :meth:`for_agents`.
        """
        return AgentRules(self, user_agents).verdicts(url)

    def for_agents(self, user_agents: Sequence[str]) -> AgentRules:
        """The rules each of ``user_agents`` obeys here, selected once (G2, G4), to decide many URLs
        with :meth:`AgentRules.verdicts`."""
        return AgentRules(self, user_agents)

    def line_text(self, line: int) -> str:
        """Line ``line`` (1-based) of the file as written, without its line break; "" when there is none.

        For explanations that quote the deciding line exactly (case, spacing, comment kept).
        """
        if line < 1:
            return ""
        lines = self._raw_lines()
        if line > len(lines):
            return ""
        return lines[line - 1].encode("latin-1").decode("utf-8", "replace")

    def line_texts(self) -> list[str]:
        """Every line of the file as written (:meth:`line_text` of 1, 2, ...), read in one pass:
        for callers that quote many lines of one file (an audit quotes every rule)."""
        return [line.encode("latin-1").decode("utf-8", "replace") for line in self._raw_lines()]

    def _raw_lines(self) -> list[str]:
        text = lexer.decode(self.body, self._mode)[0]
        return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")  # P1, lines uncut

    def crawl_delay(self, user_agent: UserAgents) -> float | None:
        """N2: seconds from the first valid ``crawl-delay`` in the group(s) for ``user_agent``."""
        for ext in self.group_extensions(user_agent, "crawl-delay"):
            delay = parse_crawl_delay(ext.value)
            if delay is not None:
                return delay
        return None

    def request_rate(self, user_agent: UserAgents) -> RequestRate | None:
        """N2: the first valid ``request-rate`` in the group(s) for ``user_agent``."""
        for ext in self.group_extensions(user_agent, "request-rate"):
            rate = parse_request_rate(ext.value)
            if rate is not None:
                return rate
        return None

    def content_signals(self, user_agent: UserAgents) -> dict[str, str]:
        """A7: the Cloudflare ``Content-Signal`` preferences for ``user_agent``, as
        ``{"search": "yes", "ai-train": "no"}`` (later lines override earlier).

        Kept for compatibility: the lines are those :meth:`usage` reads (the group's, else those
        outside any group; none in ``legacy1994``), read by :func:`robotrules.core.usage.parse_signal`;
        :meth:`usage` gives what they mean for a URL.
        """
        signals: dict[str, str] = {}
        for signal in self.usage_lines(user_agent)[1]:
            signals.update(parse_content_signal(signal.value) or {})
        return signals

    def content_usage(self, user_agent: UserAgents) -> list[ContentUsage]:
        """A1: the IETF aipref ``Content-Usage`` rules of the group(s) for ``user_agent``, in file
        order, each as its path and the categories it states (a statement that is not an RFC 9651
        Dictionary is left out).

        Kept for compatibility: read by :func:`robotrules.core.usage.usage_rule`; :meth:`usage`
        decides which rule applies to a URL (A2-A4).
        """
        usages = (parse_content_usage(ext.value) for ext in self.group_extensions(user_agent, "content-usage"))
        return [usage for usage in usages if usage is not None]

    def usage(self, url: str, user_agent: UserAgents, *, global_group: bool = True) -> Usage:
        """A1-A7: whether ``user_agent`` may crawl ``url`` (exactly :meth:`check` with the same
        ``global_group``) and how its content may be used: the deciding Content-Usage rule(s) of
        the same group(s), combined with the Content-Signal lines of those groups, or else those
        outside any group. In ``legacy1994`` there are no preferences (every category unknown).

        Costs about what :meth:`check` costs, however many such lines the group holds: they are
        parsed, compiled and indexed once per parsed file, when a call first asks for their group."""
        decision = self.check(url, user_agent, global_group=global_group)
        indexes = [self._usage_of(group) for group in decision.groups]
        return indexed_answer(decision.allowed, decision.explain(), decision.path, decision.agent, indexes,
                              self._usage_of(None))

    def usage_lines(self, user_agent: UserAgents, *, global_group: bool = True
                    ) -> tuple[tuple[UsageRule, ...], tuple[Signal, ...]]:
        """A1, A7: what :meth:`usage` reads for ``user_agent``, whatever the URL: the Content-Usage
        rules of its group(s), parsed, and the Content-Signal lines in scope (the groups', else
        those outside any group). For callers that decide many URLs for one agent; both empty
        in ``legacy1994``."""
        _, groups, agent = self._select(user_agent)
        return self._usage_lines(groups if global_group or agent != "*" else ())

    def _usage_lines(self, groups: tuple[Group, ...]) -> tuple[tuple[UsageRule, ...], tuple[Signal, ...]]:
        """The rules of ``groups`` and the signals in scope, from their indexes (none in ``legacy1994``)."""
        indexes = [self._usage_of(group) for group in groups]
        rules = tuple(rule for ix in indexes for rule in ix.rules) if len(indexes) != 1 else indexes[0].rules
        signals = tuple(signal for ix in indexes for signal in ix.signals)
        return rules, signals or self._usage_of(None).signals

    def _usage_of(self, group: Group | None) -> UsageIndex:
        """A1, A7: the AI-use lines of ``group`` (None: those outside any group), parsed and indexed
        when first asked for, then kept (a memo of a pure function of the file, one entry per group
        at most: racing builds are equal and each is stored in one assignment, DESIGN 8)."""
        key = group.line if group is not None else 0  # a group's line is 1 or more
        index = self._usage.get(key)
        if index is not None:
            return index
        if self._mode.substring_agent_match:  # legacy1994 knows neither line
            return NO_LINES
        extensions = group.extensions if group is not None else self.extensions
        index = index_usage(((ext.value, ext.line) for ext in extensions if ext.field == "content-usage"),
                            ((ext.value, ext.line) for ext in extensions if ext.field == "content-signal"),
                            self._mode.normalise_percent_encoding, "group" if group is not None else "file")
        self._usage[key] = index
        return index

    def group_extensions(self, user_agent: UserAgents, field: str | None = None) -> list[Extension]:
        """Non-rule lines of the group(s) that apply to ``user_agent``, in file order.

        Lines outside any group (``self.extensions``) belong to no agent (G1), as for rules.
        """
        groups = self._select(user_agent)[1]
        return [ext for group in groups for ext in group.extensions if field is None or ext.field == field]

    @property
    def sitemaps(self) -> list[str]:
        """N1: every ``sitemap`` URL in file order, whatever group it stands in."""
        return list(self._sitemaps)

    @property
    def host(self) -> str | None:
        """The value of the first ``host`` line (Yandex's preferred host), if any.

        Lines outside any group are looked at first, then the groups' lines in file order (in
        ``google`` and ``rfc9309`` modes lines outside groups all come before the first group).
        """
        for ext in self.extensions + tuple(e for g in self.groups for e in g.extensions):
            if ext.field == "host":
                return ext.value
        return None

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """Lint findings with line numbers and stable codes, in line order (P2, P6, N2).

        Computed from :attr:`body` on each access (parsing for crawling does not pay for it).
        """
        return lint(self.body, self._mode, size=self.size)

    # -- group selection -----------------------------------------------------------------

    def _rules_of(self, user_agent: str) -> RuleSet:
        """G2, G3: the rules one agent string obeys, as :meth:`allowed` selects them (warning once
        when it is no product token), kept for the next call with that string while the memo
        holds fewer than :data:`_AGENT_MEMO` (a memo of a pure function of the file: equal values
        whoever writes them, so it is safe to share)."""
        selected = self._by_token.get(user_agent.lower()) if user_agent.isascii() else None
        if selected is None and user_agent not in _SEEN_AGENTS:  # no group names it: a token? (memoised)
            warn_agent(user_agent)
        ruleset = (selected or self._fallback).ruleset
        if len(self._by_agent) < _AGENT_MEMO:
            self._by_agent[user_agent] = ruleset
        return ruleset

    def _path_at(self, url: str) -> int:
        """R3: where the path of ``url`` starts when it is all of the URL's end ("http(s)://host/...",
        no '?', ';' or '#' in the host, no '#' or NUL anywhere), remembering the URL's origin for
        :meth:`allowed`; else 0 (then the path is extracted), warning for a URL of no known form."""
        if url.startswith(("https://", "http://")):
            after = 8 if url[4] == "s" else 7  # past "scheme://"
            start = url.find("/", after)
            if start > 0 and "#" not in url and "\0" not in url:
                host = url[after:start]
                if "?" not in host and ";" not in host:
                    self._origin[0] = (url[:start + 1], start)  # one store: readers see the old pair or the new
                    return start
            return 0
        warn_url(url)
        return 0

    def _select(self, user_agent: UserAgents) -> Selection:
        """G2/G5: the rules for the caller's agent(s), their groups and the token that selected them."""
        agents = (user_agent,) if isinstance(user_agent, str) else tuple(user_agent)
        for agent in agents:
            if not isinstance(agent, str):
                raise TypeError(f"user_agent must be str or a sequence of str, not {type(agent).__name__}")
        if self._mode.substring_agent_match:
            return self._select_legacy(agents)
        matched: list[tuple[str, Group | Merged]] = []
        for agent in agents:
            key = caller_key(agent)
            selected = self._by_token.get(key) if key is not None else None
            if selected is None and agent not in _SEEN_AGENTS:  # G3: warn once for what is not a token
                warn_agent(agent)
            if selected is not None and all(selected is not m for _, m in matched):
                matched.append((key, selected))  # type: ignore[arg-type]
        if not matched:
            fallback = self._fallback
            return fallback.ruleset, fallback.groups, "*" if fallback.groups else None
        if len(matched) == 1:
            key, selected = matched[0]
            return selected.ruleset, selected.groups, key
        # G5: a crawler acting for several tokens obeys the union of their groups.
        groups = sorted({group.line: group for _, m in matched for group in m.groups}.values(), key=lambda g: g.line)
        return RuleSet.merge(group.ruleset for group in groups), tuple(groups), matched[0][0]

    def _select_legacy(self, agents: tuple[str, ...]) -> Selection:
        """L2: the first record whose agent matches liberally, else the first ``*`` record."""
        default: Group | None = None
        for group in self.groups:
            if group.is_global:
                default = default or group
                continue
            for value in group.agents:
                if any(legacy_agent_matches(value, agent) for agent in agents):
                    return group.ruleset, (group,), value
        if default is not None:
            return default.ruleset, (default,), "*"
        return _NONE


class AgentRules:
    """The rules that each of a fixed list of agents obeys in one robots.txt, selected once
    (G2, G4; each agent one crawler): :meth:`verdicts` then decides a URL for all of them, with
    one path extraction and one match per distinct group. Made by :meth:`RobotsTxt.for_agents`;
    immutable, and it keeps the answers of :meth:`RobotsTxt.check` for each agent.
    """

    __slots__ = ("_agents", "_robots", "_rulesets", "_slots")

    def __init__(self, robots: RobotsTxt, user_agents: Sequence[str]) -> None:
        agents: list[str] = []
        for agent in user_agents:
            if not isinstance(agent, str):
                raise TypeError(f"user_agent must be str, not {type(agent).__name__}")
            agents.append(agent)
        self._robots = robots
        self._agents = tuple(agents)
        self._rulesets: list[RuleSet] = []  # distinct, in order of first use
        self._slots: list[int] = []  # per agent: its ruleset's index
        if not robots._plain:  # other modes decide through check (normalisation, 1994 records)
            return
        for agent in agents:
            key = caller_key(agent)
            selected = robots._by_token.get(key) if key is not None else None
            ruleset = (selected or robots._fallback).ruleset
            for index, known in enumerate(self._rulesets):
                if known is ruleset:
                    self._slots.append(index)
                    break
            else:
                self._slots.append(len(self._rulesets))
                self._rulesets.append(ruleset)

    @property
    def agents(self) -> tuple[str, ...]:
        """The agents, in the order their verdicts are given."""
        return self._agents

    def verdicts(self, url: str) -> list[tuple[bool, int]]:
        """``(allowed, line)`` for ``url``, one per agent in order: the verdict and the deciding
        line (0 when no rule matches) that :meth:`RobotsTxt.check` gives (R1, R6)."""
        if not isinstance(url, str):
            raise TypeError(f"url must be str, not {type(url).__name__}")
        if not self._robots._plain:
            return [(d.allowed, d.line) for d in (self._robots.check(url, agent) for agent in self._agents)]
        path = path_params_query(url)
        results: list[tuple[bool, int]] = []
        for ruleset in self._rulesets:
            found = ruleset.best(path)
            results.append((True, 0) if found is None else (verdict(found), line_of(found[0])))
        if len(results) == 1:
            return results * len(self._slots)
        return [results[index] for index in self._slots]


def parse(body: bytes | str, *, mode: str = "google") -> RobotsTxt:
    """Parse a robots.txt body (P1-P7, F9, G1, N1, N2). Never raises for any content.

    ``mode``: "google" (the reference's decisions, default), "rfc9309" or "legacy1994".
    A ``str`` body is encoded as UTF-8 first; only its first 512,000 bytes count.
    """
    mode_rules = get_mode(mode)
    data = lexer.to_bytes(body)
    model = build_model(data, mode_rules)
    by_token, fallback = selections(model.groups, mode_rules)
    return RobotsTxt(
        mode_rules.name,
        model.groups,
        model.extensions,
        len(data),
        data if len(data) <= lexer.SIZE_LIMIT else data[: lexer.SIZE_LIMIT],  # no copy (compiled slices copy)
        model.sitemaps,
        mode_rules,
        by_token,
        fallback,
        not mode_rules.normalise_percent_encoding and not mode_rules.substring_agent_match,
        {},
        [_NO_ORIGIN],
        {},
    )


def _unpickle(body: bytes, mode: str, size: int) -> RobotsTxt:
    """A pickled :class:`RobotsTxt` again: ``body`` parsed in ``mode``, with its input's ``size``."""
    robots = parse(body, mode=mode)
    return robots if robots.size == size else replace(robots, size=size)


def selections(groups: tuple[Group, ...], mode: Mode) -> tuple[dict[str, Group | Merged], Group | Merged]:
    """G2/G4: per product token, its group (or the merged groups naming it); and the ``*`` fallback.

    In ``legacy1994`` mode records are chosen per call (L2), so the table is empty.
    """
    by_token: dict[str, Group | Merged] = {}
    if mode.substring_agent_match:
        return by_token, _NO_GROUP
    shared: dict[str, list[Group]] = {}  # tokens named by several groups (rare)
    global_groups: list[Group] = []
    for group in groups:
        for token in group.tokens:
            first = by_token.setdefault(token, group)
            if first is not group:
                shared.setdefault(token, [first]).append(group)  # type: ignore[list-item]
        if group.is_global:
            global_groups.append(group)
    for token, named in shared.items():
        by_token[token] = _merged(named)
    if not global_groups:
        return by_token, _NO_GROUP
    return by_token, global_groups[0] if len(global_groups) == 1 else _merged(global_groups)


def _merged(groups: list[Group]) -> Merged:
    return Merged(RuleSet.merge(group.ruleset for group in groups), tuple(groups))
