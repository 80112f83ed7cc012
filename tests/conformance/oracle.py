"""Test-only oracle: Google's C++ reference parser/matcher (``jwm.robotstxt``).

``check(body, agents, url) -> (allowed, matching_line)`` answers exactly what the reference answers,
with a fresh ``RobotsMatcher`` per query (the matcher keeps state between calls). The body is cut to
the first 512,000 bytes first (SPEC F9): robotrules applies the limit, the reference does not.

A ``str`` body is encoded to UTF-8 with ``surrogatepass`` (as ``robotrules.parse`` does); agents and URLs
are handed over as ``str`` (the binding encodes them to UTF-8). A single agent goes through
``OneAgentAllowedByRobots``, a sequence through ``AllowedByRobots``.

``check_all(body, queries)`` answers many queries on one file as ``check`` answers each, in fewer
calls: the reference re-parses the file on every call, and for an agent the file names in no group
of its own (``ever_seen_specific_agent()`` false after any one call: whether a user-agent line
names the agent does not depend on the URL) its answer, line included, is the global group's,
the same for every such agent. One call per URL then answers all of them; the corpus test makes a
fifth of the calls. ``tests/conformance/test_oracle_shortcut.py`` pins that it gives ``check``'s
answers.

Never import this from ``src/``: the reference is a test-time oracle only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from jwm.robotstxt import googlebot

MAX_BODY_BYTES = 512_000  # SPEC F9: Google's limit (500 KiB)

_Matcher = googlebot.RobotsMatcher


def body_bytes(body: bytes | str) -> bytes:
    """The bytes the reference is given: UTF-8 (surrogatepass) for ``str``, cut to 512,000 bytes."""
    if isinstance(body, str):
        body = body.encode("utf-8", "surrogatepass")
    return bytes(body[:MAX_BODY_BYTES])


def check(body: bytes | str, agents: str | Sequence[str], url: str) -> tuple[bool, int]:
    """Return ``(allowed, matching_line)`` of the reference for one query."""
    data = body_bytes(body)
    m = _Matcher()
    if isinstance(agents, str):
        allowed = m.OneAgentAllowedByRobots(data, agents, url)
    else:
        allowed = m.AllowedByRobots(data, list(agents), url)
    return bool(allowed), int(m.matching_line())


def _ask(data: bytes, agents: str | Sequence[str], url: str) -> tuple[tuple[bool, int], bool]:
    """One call: the answer, and whether the file has a group of the agents' own."""
    m = _Matcher()
    if isinstance(agents, str):
        allowed = m.OneAgentAllowedByRobots(data, agents, url)
    else:
        allowed = m.AllowedByRobots(data, list(agents), url)
    return (bool(allowed), int(m.matching_line())), bool(m.ever_seen_specific_agent())


_GLOBAL = object()
"""The key shared by every agent the file names in no group of its own."""


def check_all(body: bytes | str, queries: Iterable[tuple[str | Sequence[str], str]]) -> list[tuple[bool, int]]:
    """``[check(body, agents, url) for agents, url in queries]``, with one call per URL for all the
    agents that only the global group can decide (see the module docstring)."""
    data = body_bytes(body)
    own: dict[object, bool] = {}  # agents -> whether the file has a group of their own
    known: dict[tuple[object, str], tuple[bool, int]] = {}
    found: list[tuple[bool, int]] = []
    for agents, url in queries:
        key: object = agents if isinstance(agents, str) else tuple(agents)
        answer = known.get((key if own.get(key, True) else _GLOBAL, url))
        if answer is None:
            answer, specific = _ask(data, agents, url)
            own[key] = specific
            known[(key if specific else _GLOBAL, url)] = answer
        found.append(answer)
    return found


def allowed(body: bytes | str, agents: str | Sequence[str], url: str) -> bool:
    return check(body, agents, url)[0]
