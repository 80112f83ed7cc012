"""Shared helpers for the SPEC tables: case rows as data, and the test-time oracle.

A row is ``(mode, body, agent, url, expected, why)``. ``case()`` expands one row into one
``pytest.param`` per mode; its id is ``<SPEC id>-<what>-<mode>``. Rows whose behaviour is
specific to Google's reference parser (not RFC 9309) carry the ``google_only`` marker.

Every ``google``-mode row is also checked against Google's C++ reference (``jwm.robotstxt``)
by an ``oracle``-marked test in the same module, so the literal expectations in the tables
cannot drift from the reference. The oracle is used here, in tests, never at run time.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

ALLOW = True
DISALLOW = False

GOOGLE = ("google",)
RFC = ("rfc9309",)
LEGACY = ("legacy1994",)
BOTH = ("google", "rfc9309")  # behaviour shared by Google's reference and RFC 9309

LIMIT = 512_000  # F9: Google's 500 KiB

U = "http://example.com"


def case(
    id: str,
    body: str | bytes,
    agent: str | Sequence[str],
    url: str,
    expected: bool,
    why: str,
    *,
    modes: Sequence[str] = BOTH,
    google_only: bool = False,
) -> list:
    marks = [pytest.mark.google_only] if google_only else []
    return [
        pytest.param(mode, body, agent, url, expected, why, id=f"{id}-{mode}", marks=marks)
        for mode in modes
    ]


def flatten(*groups: list) -> list:
    return [p for group in groups for p in group]


def google_rows(params: list) -> list:
    """The google-mode rows of a table, for the oracle cross-check."""
    return [p for p in params if p.values[0] == "google"]


def oracle_body(body: str | bytes) -> bytes:
    """What the reference must see: UTF-8 bytes cut at the F9 limit (robotrules applies it, the
    reference does not)."""
    if isinstance(body, str):
        body = body.encode("utf-8", errors="surrogatepass")
    return body[:LIMIT]


def oracle_allowed(body: str | bytes, agent: str | Sequence[str], url: str) -> bool:
    googlebot = pytest.importorskip("jwm.robotstxt.googlebot")
    m = googlebot.RobotsMatcher()  # a new matcher per query (it keeps state)
    if isinstance(agent, str):
        return bool(m.OneAgentAllowedByRobots(oracle_body(body), agent, url))
    return bool(m.AllowedByRobots(oracle_body(body), list(agent), url))


def oracle_sitemaps(body: str | bytes) -> list[str]:
    """Sitemap values in file order, as the reference's parser reports them."""
    googlebot = pytest.importorskip("jwm.robotstxt.googlebot")

    class Collect(googlebot.RobotsParseHandler):
        def __init__(self) -> None:
            super().__init__()
            self.sitemaps: list[str] = []

        def HandleRobotsStart(self) -> None: ...
        def HandleRobotsEnd(self) -> None: ...
        def HandleUserAgent(self, line, value) -> None: ...
        def HandleAllow(self, line, value) -> None: ...
        def HandleDisallow(self, line, value) -> None: ...
        def HandleUnknownAction(self, line, action, value) -> None: ...
        def ReportLineMetadata(self, line, meta) -> None: ...

        def HandleSitemap(self, line, value) -> None:
            self.sitemaps.append(value)

    handler = Collect()
    googlebot.ParseRobotsTxt(oracle_body(body), handler)
    return handler.sitemaps


def pad_to(prefix: str, size: int) -> str:
    """``prefix`` followed by one ASCII comment line so that the result is exactly ``size``
    UTF-8 bytes long (used to place a line right at the F9 limit)."""
    room = size - len(prefix.encode("utf-8")) - 2  # "#" and "\n"
    assert room >= 0
    return prefix + "#" + "a" * room + "\n"
