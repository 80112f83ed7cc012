"""The product token an agent is matched on, memoised, and the one check that an agent names a crawler.

The core keeps comparing agents exactly as the reference does; the surfaces for people match on
the product token (G3), through :func:`token_of`, the one memo of every surface.
"""

from __future__ import annotations

from robotrules.core.agents import user_agent_token

__all__ = ["TOKENS", "require_token", "token_of"]

TOKENS: dict[str, str] = {}
"""The memo of :func:`token_of`: agent -> product token. Others only read it (the sync client's
hot path inlines :func:`token_of` with it); only :func:`token_of` writes it."""

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

