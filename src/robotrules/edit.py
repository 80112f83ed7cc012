"""Edit a robots.txt safely: block or allow crawlers, state an AI-use preference, change nothing else
(G1-G5, P1, P4, N2, A1).

A site owner who wants "block AI training crawlers, keep search" edits a file that works. :func:`edit`
takes its bytes and the changes asked for and returns the new bytes with the verdict diff that shows
what changed (:func:`robotrules.diff.diff`). Sans-I/O: bytes in, bytes out; no files, no network.

The edit is minimal. Lines are split as the parser splits them (P1: CR, LF, CR LF) and every line
that is not edited is kept byte for byte, its line break too: comments, blank lines, and the lines
Google ignores (``Content-Signal``, ``License``, ``Crawl-delay``, N2). New lines use the file's
first line break.

How a crawler (a product token, G3) is blocked or allowed, knowing Google's grouping:

- already as asked (the rules it follows, of its own groups or of ``*``, disallow ``/`` and allow
  nothing, or disallow nothing; ``*`` never counts for a crawler that ignores it, A8): no change;
- named only by groups of its own (G4 merges them): those groups are rewritten in place; a block
  removes their allow lines and adds ``Disallow: /``, an allow removes their disallow lines and adds
  ``Allow: /``;
- named by a group together with other agents (or ``*``): that group keeps its rules for the
  others; the crawler's ``user-agent`` line leaves it (a note explains) and it gets its own group;
- named by no group: it gets its own group.

New groups end with a rule, so a user agent that follows them starts a group of its own (G1), and
they go at the end of the file after a blank line, or, when the file ends with ``user-agent``
lines that no rule follows yet (an open group, which anything appended would join), before that
last group. A group for ``*`` made for a usage statement holds no rule and goes last (refused
when the file ends with such an open group). Crawlers edited opposite ways that share a group with
no other agent are refused: no edit can keep that group for either.

Names Google reads differently: a group names a product token, the leading letters, ``-`` and
``_`` of the name (G3: ``User-agent: AI2Bot`` is a group for ``AI``). A name that is not its own
token is refused with what Google would read; blocking a token that other known crawlers' names
are read as notes them (:func:`robotrules.crawlers.token_of_name`). ``block_purpose`` blocks each
crawler of the registry of that kind by its token, skipping (with a note) those whose name is
not a token.

The proof: before it returns, :func:`edit` parses the new file and checks that every blocked
crawler is disallowed and every allowed one allowed on ``/`` and on every path of the rules of
either file, and that every other crawler (each token either file names, each of the registry,
and ``*`` for the rest) sees exactly the rules and crawl delay it saw before (then its verdicts
are the same for every URL). An edit that fails this is refused (:class:`EditRefused`), never
returned. In ``legacy1994`` (L2) a group applies to every crawler whose name contains its name,
so a note says that the edit reaches them too.

The cost is linear in the file and the names: a group naming thousands of crawlers is read once,
crawlers that choose the same groups are proved once, and the proof and the diff count their
work against one ``budget`` (:mod:`robotrules._budget`), with a ``checkpoint`` inside their loops.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from robotrules._budget import Budget
from robotrules.core import lexer
from robotrules.core.agents import is_global_agent, product_token
from robotrules.core.fields import FieldError, parse_dictionary
from robotrules.core.modes import get_mode
from robotrules.core.robotstxt import RobotsTxt, parse
from robotrules.crawlers import CRAWLERS, KINDS, Crawler, token_of_name
from robotrules.diff import RobotsDiff, compare
from robotrules.errors import RobotsError

__all__ = ["EditRefused", "EditResult", "edit"]

_ALLOW, _DISALLOW, _UA = lexer.ALLOW, lexer.DISALLOW, lexer.USER_AGENT
_LINE = re.compile(rb"[^\r\n]*(?:\r\n|\r|\n)")
_MEMBER_KEY = re.compile(r"[a-z*][a-z0-9_.*-]*")
_NAMES = 10
"""Names a note lists at most (the rest counted): a group may name thousands of crawlers."""


class EditRefused(RobotsError, ValueError):
    """An edit that cannot be made safely, or a request that cannot be carried out; the message
    says why in plain words (for people: no requirement ids)."""


@dataclass(frozen=True, slots=True)
class EditResult:
    """What :func:`edit` made: the new ``body``; ``diff`` from the old file to it (every crawler
    either file names, and ``*``; URLs: ``/`` and one per rule); ``notes`` for people (what was
    skipped, moved or already so); ``blocked``/``allowed`` the tokens as written in the file."""

    body: bytes
    diff: RobotsDiff
    notes: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    allowed: list[str] = field(default_factory=list)
    original: bytes = b""

    @property
    def changed(self) -> bool:
        """Whether the new body differs from the old one (a usage statement changes no verdict)."""
        return self.body != self.original

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready data: the new text (UTF-8, invalid bytes replaced), whether it changed, the notes, the diff."""
        return {"changed": self.changed, "robots": self.body.decode("utf-8", "replace"), "blocked": list(self.blocked),
                "allowed": list(self.allowed), "notes": list(self.notes), "diff": self.diff.to_dict()}


@dataclass
class _Group:
    """One group as the lines hold it (G1): its user-agent lines, rule lines and other lines."""

    agents: list[tuple[int, str]] = field(default_factory=list)  # (line, value)
    rules: list[tuple[int, int, str]] = field(default_factory=list)  # (line, kind, value)
    others: list[tuple[int, str, str]] = field(default_factory=list)  # (line, lower-case key, value)
    _tokens: frozenset[str] | None = None
    _lines: dict[str, list[tuple[int, str]]] | None = None

    def tokens(self, star_with_text: bool) -> frozenset[str]:
        """G2, G3: the tokens the group names ("*" for the global group), read once."""
        if self._tokens is None:
            self._tokens = frozenset("*" if is_global_agent(v, star_with_text=star_with_text) else product_token(v)
                                     for _, v in self.agents)
        return self._tokens

    def lines_of(self, star_with_text: bool) -> dict[str, list[tuple[int, str]]]:
        """Each token the group names ("*" for the global group) -> its user-agent lines (line,
        value), in file order, read once."""
        if self._lines is None:
            self._lines = {}
            for n, value in self.agents:
                token = "*" if is_global_agent(value, star_with_text=star_with_text) else product_token(value)
                self._lines.setdefault(token, []).append((n, value))
        return self._lines


def _lines(body: bytes) -> list[bytes]:
    """P1: the lines with their line breaks, as the parser numbers them (the last may have none)."""
    found = _LINE.findall(body)
    rest = body[sum(map(len, found)):]
    if rest:
        found.append(rest)
    return found


def _groups(body: bytes, mode_name: str) -> list[_Group]:
    """G1: the groups of ``body`` from the lexer's events, as the model builds them."""
    mode = get_mode(mode_name)
    groups: list[_Group] = []
    current: _Group | None = None
    for n, kind, key, value, _ in lexer.lex(body, mode).events:
        if kind <= _ALLOW:
            if current is not None:
                current.rules.append((n, kind, value))
        elif kind == _UA:
            if current is None or current.rules:
                current = _Group()
                groups.append(current)
            current.agents.append((n, value))
        elif kind == lexer.BLANK:
            current = None
        elif kind == lexer.OTHER and current is not None:
            current.others.append((n, key.lower(), value))
    return groups


def _name_token(name: str, registry: Sequence[Crawler]) -> tuple[str, list[str]]:
    """The token of a name given to block or allow, and the known crawlers read as it; refused when
    Google reads the name as another token."""
    given = name.strip()
    token = token_of_name(given)
    if not given or given == "*":
        raise EditRefused(f"{name!r} is not a crawler's name: name one crawler, such as GPTBot")
    if token != given and not (token and given[len(token):].startswith("/")):  # "GPTBot/1.1": a version
        same = [c.name for c in registry if c.token.lower() == token.lower()]
        read = f"as {token!r}" if token else "as no crawler at all"
        also = f" ({', '.join(same)})" if same and token else ""
        raise EditRefused(f"Google reads {given!r} {read}: a group for it would be a group for every crawler read "
                          f"that way{also}; name the crawler by its token, such as {token or 'GPTBot'!r}")
    shared = [c.name for c in registry if c.token.lower() == token.lower() and c.name.lower() != token.lower()]
    return token, shared


def _statement(usage: str) -> str:
    value = usage.strip(" \t")
    if not value or any(c in value for c in "\r\n#"):
        raise EditRefused("a usage statement is one line without '#', such as train-ai=n")
    if value.startswith("/"):
        raise EditRefused("give a usage statement for the whole site, such as train-ai=n (without a path)")
    try:
        parse_dictionary(value.encode("utf-8", "replace"))  # a Dictionary is ASCII: anything else fails
    except FieldError as error:
        raise EditRefused(f"{value!r} is not a usage statement ({error}); write it as train-ai=n, search=y") from None
    return value


def _merge_statement(old: str, new: str) -> str:
    """``new``'s keys set in ``old``'s statement, the rest of ``old`` kept (``old`` replaced when unreadable)."""
    def members(text: str) -> list[tuple[str, str]] | None:
        found = []
        for part in (p.strip(" \t") for p in text.split(",")):
            key = _MEMBER_KEY.match(part)
            if key is None:
                return None
            found.append((key.group(), part))
        return found

    before, after = members(old), members(new)
    if before is None or after is None:
        return new
    merged = dict(before)
    merged.update(after)
    return ", ".join(merged.values())


def _paths(*files: RobotsTxt) -> list[str]:
    """``/`` and one path per rule pattern of the files (wildcards dropped: a path the rule matches)."""
    found = {"/": None}
    for robots in files:
        wildcards = get_mode(robots.mode).wildcards
        for group in robots.groups:
            for rule in group.rules:
                path = rule.pattern.replace("*", "").removesuffix("$") if wildcards else rule.pattern
                if path:
                    found.setdefault(path if path.startswith("/") else "/" + path)
    return list(found)


def _ignores_global(token: str, registry: Sequence[Crawler]) -> bool:
    """A8: whether the crawler of ``token`` obeys only the groups naming it (Google's AdsBot)."""
    return any(c.ignores_global and c.token.lower() == token.lower() for c in registry)


def _already(robots: RobotsTxt, token: str, block: bool, registry: Sequence[Crawler]) -> bool:
    """Whether ``token`` already follows rules that block (disallow ``/``, allow nothing) or allow everything."""
    selected = robots.check("/", token, global_group=not _ignores_global(token, registry)).groups
    rules = [rule for group in selected for rule in group.rules if rule.pattern]
    if block:
        return any(not r.allow and r.pattern == "/" for r in rules) and not any(r.allow for r in rules)
    return not any(not r.allow for r in rules)


class _Plan:
    """Line edits: replacements (b"" deletes a line), lines inserted after a line, groups to add."""

    def __init__(self, lines: list[bytes], newline: bytes) -> None:
        self.lines = lines
        self.newline = newline
        self.replace: dict[int, bytes] = {}
        self.insert: dict[int, list[bytes]] = {}  # before line n (1-based); n = len + 1: at the end
        self.append: list[list[bytes]] = []  # new groups, each ending with a rule
        self.last: list[bytes] | None = None  # a new group without rules: it goes last

    def add_after(self, line: int, text: bytes) -> None:
        """Insert ``text`` as a line after line ``line``."""
        self.insert.setdefault(line + 1, []).append(text)

    def render(self, before: int | None) -> bytes:
        """The new body: ``append`` before line ``before`` (an open last group) or at the end."""
        nl = self.newline
        out: list[bytes] = []
        for n, line in enumerate(self.lines, 1):
            if n == before:
                for group in self.append:
                    out.extend(text + nl for text in group)
                    out.append(nl)
            out.extend(text + nl for text in self.insert.get(n, ()))
            out.append(self.replace.get(n, line))
        tail = self.insert.get(len(self.lines) + 1, [])
        at_end = ([] if before is not None else self.append) + ([self.last] if self.last is not None else [])
        if not tail and not at_end:
            return b"".join(out)
        last = next((n for n in range(len(out) - 1, -1, -1) if out[n]), None)
        if last is not None and not out[last].endswith((b"\n", b"\r")):
            out[last] += nl  # the file did not end with a line break: the new lines need one
        out.extend(text + nl for text in tail)
        for group in at_end:
            last = next((n for n in range(len(out) - 1, -1, -1) if out[n]), None)
            if last is not None and out[last].strip(b" \t\r\n"):
                # a blank line before a new group, for people (Google needs none); with the line break
                # of the line before it, so that a CR there and an LF here never read as one CR LF
                out.append(out[last][len(out[last].rstrip(b"\r\n")):])
            out.extend(text + nl for text in group)
        return b"".join(out)


def _known(names: Iterable[str]) -> str:
    return ", ".join(names)


def edit(
    body: bytes | str,
    *,
    block: Sequence[str] = (),
    block_purpose: Sequence[str] = (),
    allow: Sequence[str] = (),
    usage: str | None = None,
    mode: str = "google",
    registry: Sequence[Crawler] = CRAWLERS,
    checkpoint: Callable[[], None] | None = None,
    budget: int | None = None,
    most: int | None = None,
) -> EditResult:
    """Block ``block`` and the registry's crawlers of each kind in ``block_purpose`` (disallowed on
    every path), allow ``allow`` (allowed on every path), and set ``usage`` (an aipref statement
    such as ``train-ai=n``, A1) in the ``*`` group: see the module for how, and what is proved.

    ``body``: the robots.txt (``str`` is encoded as UTF-8). Raises :class:`EditRefused` for a name
    Google reads as another token, an unknown purpose, a crawler both blocked and allowed, a bad
    statement, or an edit that would change what another crawler reads; ``ValueError`` for an
    unknown mode.
    """
    original = lexer.to_bytes(body)
    star_with_text = get_mode(mode).star_with_text_is_global
    work = Budget(budget, checkpoint)
    notes: list[str] = []
    wanted = _wanted(block, block_purpose, allow, registry, notes)
    statement = _statement(usage) if usage is not None else None
    if not wanted and statement is None:
        raise EditRefused("nothing to do: name crawlers to block or allow, a purpose to block, or a usage statement")

    before = parse(original, mode=mode)
    lines = _lines(original)
    breaks = re.search(rb"\r\n|\r|\n", original)
    plan = _Plan(lines, breaks.group() if breaks else b"\n")
    groups = _groups(original, mode)
    naming: dict[str, list[_Group]] = {}  # token -> the groups that name it, in file order
    for group in groups:
        work.spend(1 + len(group.agents), "reading the groups")
        for named in group.lines_of(star_with_text):
            naming.setdefault(named, []).append(group)
    fresh: dict[bool, list[bytes]] = {True: [], False: []}
    closed: set[int] = set()  # groups (first line) already rewritten
    alike = {blocking: {k for k, (_, b) in wanted.items() if b == blocking} for blocking in (True, False)}
    for key, (token, blocking) in wanted.items():
        if _already(before, token, blocking, registry):
            notes.append(f"{token} is already {'blocked' if blocking else 'allowed'}: nothing to change for it")
            continue
        if get_mode(mode).substring_agent_match:  # L2: a name in a group matches every name containing it
            notes.append(f"in the 1994 standard's reading a group for {token} applies to every crawler whose name "
                         f"contains {token!r} (such as My{token}Clone): they are "
                         f"{'blocked' if blocking else 'allowed'} too")
        same = alike[blocking]
        named_by = naming.get(key, [])
        work.spend(1 + sum(len(g.agents) for g in named_by), "moving crawlers out of shared groups")
        own = [g for g in named_by if g.tokens(star_with_text) <= same]
        _leave_shared(plan, named_by, key, token, bool(own), star_with_text, same, set(wanted), notes)
        if not own:
            fresh[blocking].append(f"User-agent: {token}".encode())
            continue
        drop = _ALLOW if blocking else _DISALLOW
        rule = b"Disallow: /" if blocking else b"Allow: /"
        for group in own:
            if group.agents[0][0] in closed:
                continue
            closed.add(group.agents[0][0])
            present = False
            for n, kind, value in group.rules:
                if kind == drop and value:
                    plan.replace[n] = b""
                elif kind != drop and value.rstrip("*") == "/":
                    present = True
            if not present:
                plan.add_after(group.agents[-1][0], rule)
            notes.append(f"the group at line {group.agents[0][0]} is only for crawlers being "
                         f"{'blocked' if blocking else 'allowed'}: its "
                         f"{'allow lines are removed and it disallows /' if blocking else 'disallow lines are removed and it allows /'}")
    for blocking in (True, False):
        if fresh[blocking]:
            plan.append.append([*fresh[blocking], b"Disallow: /" if blocking else b"Allow: /"])
    # G1: user-agent lines that no rule follows yet, at the end, join whatever group comes next.
    open_group = None
    last = groups[-1].agents[0][0] if groups else 0
    if groups and not groups[-1].rules and not any(n > last for n in plan.insert):
        open_group = groups[-1].agents[0][0]
    if statement is not None:
        _set_usage(plan, groups, statement, star_with_text, open_group is not None)

    new = plan.render(open_group)
    if len(new) > lexer.SIZE_LIMIT:
        raise EditRefused("the edited file would be over 500 KiB, and Google reads only the first 500 KiB")
    blocked = [t for t, b in wanted.values() if b]
    allowed = [t for t, b in wanted.values() if not b]
    after = parse(new, mode=mode)
    _prove(original, new, before, after, blocked, allowed, mode, registry, work)
    result = compare(original, new, work, urls=_paths(before, after), mode=mode, most=most)
    return EditResult(new, result, notes, blocked, allowed, original)


def _wanted(block: Sequence[str], block_purpose: Sequence[str], allow: Sequence[str], registry: Sequence[Crawler],
            notes: list[str]) -> dict[str, tuple[str, bool]]:
    """Lower-case token -> (token as written, block?): the names, then the purposes' crawlers."""
    for given in (block, block_purpose, allow):
        if isinstance(given, str):
            raise TypeError("block, block_purpose and allow are sequences of names, not one str")
    wanted: dict[str, tuple[str, bool]] = {}
    for name, blocking in [*((n, True) for n in block), *((n, False) for n in allow)]:
        token, shared = _name_token(name, registry)
        if wanted.setdefault(token.lower(), (token, blocking))[1] != blocking:
            raise EditRefused(f"{token} is both blocked and allowed: choose one")
        if shared:
            notes.append(f"{token} is also how Google reads {_known(shared)}: "
                         f"{'they are blocked' if blocking else 'they are allowed'} too")
    for purpose in block_purpose:
        if purpose not in KINDS:
            raise EditRefused(f"unknown purpose {purpose!r}: choose one of {', '.join(sorted(KINDS))}")
        kind = [c for c in registry if c.kind == purpose]
        for crawler in kind:
            if not crawler.token_valid:
                continue
            if not wanted.setdefault(crawler.token.lower(), (crawler.token, True))[1]:
                notes.append(f"{crawler.token} is allowed as asked, though it is a crawler for {purpose}")
        skipped = [c.name for c in kind if not c.token_valid]
        if skipped:
            notes.append(f"skipped {_known(skipped)}: Google reads these names as other tokens "
                         f"({_known(sorted({c.token for c in kind if not c.token_valid}))}), so a group for them "
                         "would also apply to other crawlers; block those tokens by name if you mean it")
    return wanted


def _leave_shared(plan: _Plan, groups: list[_Group], key: str, token: str, own: bool, star_with_text: bool,
                  same: set[str], moving: set[str], notes: list[str]) -> None:
    """Take ``token`` out of the ``groups`` naming it that it shares with agents not edited the same
    way; they keep their rules for those agents (G1: the group keeps at least one of its user-agent lines)."""
    for group in groups:
        tokens = group.tokens(star_with_text)
        if key not in tokens or tokens <= same:
            continue  # not named, or a group of its own (with crawlers edited the same way)
        staying = tokens - moving
        if not staying:
            raise EditRefused(f"{token} shares the group at line {group.agents[0][0]} with crawlers edited the "
                                  "other way: give them groups of their own first")
        by_token = group.lines_of(star_with_text)
        shown = sorted(staying)
        written = [("'*'" if t == "*" else token_of_name(by_token[t][0][1])) for t in shown[:_NAMES]]
        more = f" and {len(shown) - _NAMES:,} more" if len(shown) > _NAMES else ""
        notes.append(f"{token} shared the group at line {group.agents[0][0]} with {_known(written)}{more}: that "
                     f"group keeps its rules for {'them' if len(shown) > 1 else 'it'}, and {token} "
                     f"{'keeps' if own else 'gets'} its own group")
        leaving = [n for n, _ in by_token[key]]
        for n in leaving:
            plan.replace[n] = b""
        # G1: a group's lines after its first user-agent line are its own; a Crawl-delay between the
        # line that leaves and the next one would be left outside: the next one's copy takes its place.
        first = group.agents[0][0]
        kept = min(n for t, lines in by_token.items() if t != key for n, _ in lines if plan.replace.get(n) != b"")
        if first in leaving and any(n < kept for n, _, _ in group.others):
            line, copy = plan.lines[first - 1], plan.lines[kept - 1]
            plan.replace[first] = copy.rstrip(b"\r\n") + line[len(line.rstrip(b"\r\n")):]


def _set_usage(plan: _Plan, groups: list[_Group], statement: str, star_with_text: bool, open_end: bool) -> None:
    """A1: the ``*`` group's Content-Usage for the whole site becomes ``statement`` (merged by key)."""
    glob = [g for g in groups if "*" in g.tokens(star_with_text)]
    lines = [(n, value) for g in glob for n, key, value in g.others
             if key == "content-usage" and not value.startswith("/")]
    if lines:
        old = ", ".join(value.split("#", 1)[0].strip(" \t") for _, value in lines)
        merged = _merge_statement(old, statement)
        first = lines[0][0]
        line = plan.lines[first - 1]
        ending = line[len(line.rstrip(b"\r\n")):]
        plan.replace[first] = f"Content-Usage: {merged}".encode() + (ending or b"")
        for n, _ in lines[1:]:
            plan.replace[n] = b""
    elif glob:
        plan.add_after(glob[0].agents[-1][0], f"Content-Usage: {statement}".encode())
    else:
        if open_end:
            raise EditRefused("the file ends with user-agent lines that no rule follows: a new group for '*' "
                              "would join them; add a rule to that last group first")
        plan.last = [b"User-agent: *", f"Content-Usage: {statement}".encode()]


def _prove(old: bytes, new: bytes, before: RobotsTxt, after: RobotsTxt, blocked: list[str], allowed: list[str],
           mode: str, registry: Sequence[Crawler], work: Budget) -> None:
    """Refuse an edit unless the blocked are disallowed and the allowed allowed on every path of
    either file, and every other crawler reads what it read before (rules and crawl delay).

    Crawlers that choose the same groups of the new file get the same verdicts: each such choice
    is proved once, so the cost follows the groups, not the number of names.
    """
    paths = [p for p in _paths(before, after) if p != "/robots.txt"]
    proved: dict[tuple[tuple[int, ...], bool], str | None] = {}  # (groups, allowed?) -> a wrong path

    def wrong_path(token: str, want: bool, global_group: bool) -> str | None:
        groups = after.check("/", token, global_group=global_group).groups
        key = (tuple(g.line for g in groups), want)
        if key not in proved:
            cost = 1 + sum(len(g.rules) for g in groups)
            work.reserve(cost * len(paths), f"proving the edit on {len(paths):,} paths")
            found = None
            for path in paths:
                work.spend(cost, f"proving the edit on {len(paths):,} paths")
                if after.check(path, token, global_group=global_group).allowed != want:
                    found = path
                    break
            proved[key] = found
        return proved[key]

    for token in blocked:
        wrong = wrong_path(token, False, not _ignores_global(token, registry))
        if wrong is not None:
            raise EditRefused(f"could not block {token} safely: it would still be allowed to fetch {wrong}")
    for token in allowed:
        wrong = wrong_path(token, True, True)
        if wrong is not None:
            raise EditRefused(f"could not allow {token} safely: it would still be disallowed from {wrong}")
    named = {t.lower() for t in (*blocked, *allowed)}
    others = {"*"}
    others.update(t for robots in (before, after) for g in robots.groups for t in g.tokens)
    others.update(c.token.lower() for c in registry)
    others -= named | {""}
    found = compare(old, new, work, agents=sorted(others), urls=paths, mode=mode, most=_NAMES)
    delays = (*found.crawl_delays, *found.ignored_crawl_delays)  # what every crawler reads, Google's included
    if found.rules or found.verdicts or found.rules_omitted or found.verdicts_omitted or delays:
        who = sorted({*(c.agent for c in found.rules), *(v.agent for v in found.verdicts),
                      *(d.agent for d in delays)})
        more = " and others" if found.rules_omitted or found.verdicts_omitted else ""
        raise EditRefused(f"this edit would change what other crawlers read ({', '.join(who)}{more}); "
                          "nothing was changed: edit this file by hand")
