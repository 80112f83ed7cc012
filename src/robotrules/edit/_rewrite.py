"""The edit itself (see :mod:`robotrules.edit`): each crawler's groups rewritten in place, or the
crawler taken out of groups it shares and given its own; new groups placed where no open group
can swallow them; the ``*`` group's usage statement set; then proved and diffed."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from robotrules._budget import Budget
from robotrules.core import lexer
from robotrules.core.modes import get_mode
from robotrules.core.robotstxt import parse
from robotrules.crawlers import CRAWLERS, Crawler, token_of_name
from robotrules.diff import compare
from robotrules.edit._asked import NAMES, known, merge_statement, statement_of, wanted_of
from robotrules.edit._lines import ALLOW, DISALLOW, Group, Plan, groups_of, lines_of
from robotrules.edit._proof import already, paths_of, prove
from robotrules.edit._result import EditRefused, EditResult

__all__ = ["edit"]


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
    wanted = wanted_of(block, block_purpose, allow, registry, notes)
    statement = statement_of(usage) if usage is not None else None
    if not wanted and statement is None:
        raise EditRefused("nothing to do: name crawlers to block or allow, a purpose to block, or a usage statement")

    before = parse(original, mode=mode)
    lines = lines_of(original)
    breaks = re.search(rb"\r\n|\r|\n", original)
    plan = Plan(lines, breaks.group() if breaks else b"\n")
    groups = groups_of(original, mode)
    naming: dict[str, list[Group]] = {}  # token -> the groups that name it, in file order
    for group in groups:
        work.spend(1 + len(group.agents), "reading the groups")
        for named in group.lines_of(star_with_text):
            naming.setdefault(named, []).append(group)
    fresh: dict[bool, list[bytes]] = {True: [], False: []}
    closed: set[int] = set()  # groups (first line) already rewritten
    alike = {blocking: {k for k, (_, b) in wanted.items() if b == blocking} for blocking in (True, False)}
    for key, (token, blocking) in wanted.items():
        if already(before, token, blocking, registry):
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
        drop = ALLOW if blocking else DISALLOW
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
    prove(original, new, before, after, blocked, allowed, mode, registry, work)
    result = compare(original, new, work, urls=paths_of(before, after), mode=mode, most=most)
    return EditResult(new, result, notes, blocked, allowed, original)


def _leave_shared(plan: Plan, groups: list[Group], key: str, token: str, own: bool, star_with_text: bool,
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
        written = [("'*'" if t == "*" else token_of_name(by_token[t][0][1])) for t in shown[:NAMES]]
        more = f" and {len(shown) - NAMES:,} more" if len(shown) > NAMES else ""
        notes.append(f"{token} shared the group at line {group.agents[0][0]} with {known(written)}{more}: that "
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


def _set_usage(plan: Plan, groups: list[Group], statement: str, star_with_text: bool, open_end: bool) -> None:
    """A1: the ``*`` group's Content-Usage for the whole site becomes ``statement`` (merged by key)."""
    glob = [g for g in groups if "*" in g.tokens(star_with_text)]
    lines = [(n, value) for g in glob for n, key, value in g.others
             if key == "content-usage" and not value.startswith("/")]
    if lines:
        old = ", ".join(value.split("#", 1)[0].strip(" \t") for _, value in lines)
        merged = merge_statement(old, statement)
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
