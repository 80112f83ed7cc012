"""What an edit is asked: crawlers' names read as the tokens Google reads (G3), purposes as the
registry's crawlers of that kind (A8), and a usage statement checked and merged by key (A1, A5)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from robotrules.core.fields import FieldError, parse_dictionary
from robotrules.crawlers import KINDS, Crawler, token_of_name
from robotrules.edit._result import EditRefused

__all__ = ["NAMES", "known", "merge_statement", "name_token", "statement_of", "wanted_of"]

_MEMBER_KEY = re.compile(r"[a-z*][a-z0-9_.*-]*")
NAMES = 10
"""Names a note lists at most (the rest counted): a group may name thousands of crawlers."""


def name_token(name: str, registry: Sequence[Crawler]) -> tuple[str, list[str]]:
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


def statement_of(usage: str) -> str:
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


def merge_statement(old: str, new: str) -> str:
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


def known(names: Iterable[str]) -> str:
    return ", ".join(names)


def wanted_of(block: Sequence[str], block_purpose: Sequence[str], allow: Sequence[str], registry: Sequence[Crawler],
            notes: list[str]) -> dict[str, tuple[str, bool]]:
    """Lower-case token -> (token as written, block?): the names, then the purposes' crawlers."""
    for given in (block, block_purpose, allow):
        if isinstance(given, str):
            raise TypeError("block, block_purpose and allow are sequences of names, not one str")
    wanted: dict[str, tuple[str, bool]] = {}
    for name, blocking in [*((n, True) for n in block), *((n, False) for n in allow)]:
        token, shared = name_token(name, registry)
        if wanted.setdefault(token.lower(), (token, blocking))[1] != blocking:
            raise EditRefused(f"{token} is both blocked and allowed: choose one")
        if shared:
            notes.append(f"{token} is also how Google reads {known(shared)}: "
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
            notes.append(f"skipped {known(skipped)}: Google reads these names as other tokens "
                         f"({known(sorted({c.token for c in kind if not c.token_valid}))}), so a group for them "
                         "would also apply to other crawlers; block those tokens by name if you mean it")
    return wanted
