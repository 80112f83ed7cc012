"""Test-only oracle: Google's C++ reference parser/matcher (``jwm.robotstxt``).

``check(body, agents, url) -> (allowed, matching_line)`` answers exactly what the reference answers,
with a fresh ``RobotsMatcher`` per query (the matcher keeps state between calls). The body is cut to
the first 512,000 bytes first (SPEC F9): robotrules applies the limit, the reference does not.

A ``str`` body is encoded to UTF-8 with ``surrogatepass`` (as ``robotrules.parse`` does); agents and URLs
are handed over as ``str`` (the binding encodes them to UTF-8). A single agent goes through
``OneAgentAllowedByRobots``, a sequence through ``AllowedByRobots``.

Never import this from ``src/``: the reference is a test-time oracle only.
"""

from __future__ import annotations

from collections.abc import Sequence

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


def allowed(body: bytes | str, agents: str | Sequence[str], url: str) -> bool:
    return check(body, agents, url)[0]
