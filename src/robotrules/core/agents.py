"""User agents: product tokens on both sides of the comparison (G2, G3, G5, L2).

The file side: a ``user-agent`` value counts by its product token, the leading run of
letters, ``-`` and ``_`` (``googlebot/1.2`` and ``googlebot*`` mean ``googlebot``, G3).
The caller side: in ``google`` mode the caller's string is compared whole, ASCII
case-insensitively, with that token, exactly as the reference compares it; so callers pass a
token such as ``Googlebot``, and :func:`user_agent_token` turns a full User-Agent header into one.
"""

from __future__ import annotations

import re
import sys
import warnings

from robotrules.core.lexer import WS

__all__ = [
    "RobotsInputWarning",
    "caller_key",
    "is_global_agent",
    "legacy_agent_matches",
    "product_token",
    "user_agent_token",
    "warn_agent",
    "warn_url",
]

_TOKEN_RE = re.compile(r"[A-Za-z_-]*")


def product_token(value: str) -> str:
    """G3: the product token of a file's user-agent value, lower-cased ("" when it has none)."""
    if value.isascii() and value.isalpha():  # the usual "Googlebot": all of it
        return value.lower()
    return _TOKEN_RE.match(value).group().lower()  # type: ignore[union-attr]  # always matches


def is_global_agent(value: str, star_with_text: bool) -> bool:
    """G2: whether a file's user-agent value names the ``*`` group.

    Google-specific (``star_with_text``): "* followed by whitespace and more" is still global.
    """
    if value == "*":
        return True
    return star_with_text and len(value) > 1 and value[0] == "*" and value[1] in WS


def caller_key(agent: str) -> str | None:
    """The form of a caller's agent that is compared with file tokens; None if it can never match.

    The reference compares ASCII case-insensitively, so a non-ASCII agent equals no token.
    """
    if agent.isascii():
        return agent.lower()
    return None


def legacy_agent_matches(record_value: str, caller: str) -> bool:
    """L2 (1994): a liberal, case-insensitive substring match of names without version.

    Either name containing the other counts ("GoogleBot" matches a record "googlebot/2.1" and
    a caller "Googlebot-News" matches a record "googlebot"), as old crawlers did.
    """
    record = record_value.split("/", 1)[0].strip().lower()
    name = caller.split("/", 1)[0].strip().lower()
    if not record or not name:
        return False
    return record in name or name in record


# Product names in User-Agent headers that identify browsers, engines and platforms, not crawlers.
_GENERIC = frozenset(
    {
        "mozilla", "applewebkit", "khtml", "like", "gecko", "chrome", "chromium", "safari", "firefox",
        "version", "mobile", "compatible", "windows", "linux", "android", "iphone", "ipad", "macintosh",
        "x11", "u", "wow64", "win64", "x64", "opera", "edg", "edge", "trident", "msie", "cpu", "os",
        "mac", "intel", "nt", "rv", "wv", "build", "ubuntu", "k",
    }
)
_PRODUCT_RE = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.!-]*")


def user_agent_token(header: str) -> str:
    """The crawler's product token in a full User-Agent header, to pass as ``user_agent``.

    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" -> "Googlebot";
    "Googlebot-Image/1.0" -> "Googlebot-Image"; "FooBot/1.2" -> "FooBot"; "*" -> "*". The first
    product or comment item that is not a browser, engine or platform name wins; URLs and
    version numbers are skipped. When nothing but generic names appear, the first product name
    is returned ("" for an empty header). The result is cut to the characters a product token
    may hold (letters, ``-``, ``_``: RFC 9309 2.2.1, G3), as a file's user-agent value is cut,
    so "MJ12bot" gives "MJ", the token under which a file's "User-agent: MJ12bot" is read.
    """
    if header.strip() == "*":
        return "*"
    return _TOKEN_RE.match(_header_name(header)).group()  # type: ignore[union-attr]  # always matches


def _header_name(header: str) -> str:
    """The crawler's name in a User-Agent header, before it is cut to a product token."""
    first = ""
    for item in re.split(r"[\s;()]+", header):
        if not item or item.startswith(("+", "http:", "https:")) or "@" in item:
            continue
        m = _PRODUCT_RE.match(item)
        if m is None:
            continue
        name = m.group().split("/", 1)[0].rstrip(".!")
        if not name or name[0].isdigit():
            continue
        if not first:
            first = name
        if name.lower() not in _GENERIC:
            return name
    return first


class RobotsInputWarning(UserWarning):
    """What a program passed to :meth:`RobotsTxt.check` or :meth:`RobotsTxt.allowed` is
    probably not what it meant (G2, G3, R3): a user agent that is not a product token (such as
    "Googlebot/2.1" or a whole User-Agent header, which no group can name, so the verdict is that of
    the ``*`` group or "no group applies"), or a URL that is neither absolute nor a path starting
    with "/". The verdict stays the reference's; the warning names what to pass instead.
    Turn it into an error with ``warnings.simplefilter("error", RobotsInputWarning)``."""


_VALID_AGENT_RE = re.compile(r"[A-Za-z_-]*|\*")  # "" too: no token to suggest
_SEEN_AGENTS: dict[str, bool] = {}  # agent -> whether it is a product token; bounded below
_SEEN_LIMIT = 4096
_CORE_DIR = __file__[: max(__file__.rfind("/"), __file__.rfind("\\")) + 1]


def warn_agent(agent: str) -> None:
    """G2, G3: warn (:class:`RobotsInputWarning`), once per distinct string, when ``agent`` is not
    a product token (letters, "-" and "_"; or "*"), naming the token to pass instead.

    Memoised, so callers may call it for every agent they have no group for: after the first
    call for a string it is one dict lookup. The memo holds at most a few thousand strings.
    """
    if agent in _SEEN_AGENTS:
        return
    if len(_SEEN_AGENTS) >= _SEEN_LIMIT:
        _SEEN_AGENTS.clear()
    valid = _VALID_AGENT_RE.fullmatch(agent) is not None
    _SEEN_AGENTS[agent] = valid
    if valid:
        return
    token = user_agent_token(agent)
    if token:
        advice = f"pass its product token {token!r} (robotrules.user_agent_token({agent[:80]!r}) gives it)"
    else:
        advice = "pass the crawler's product token (letters, '-' and '_'), such as 'Googlebot'"
    _warn(f"user agent {agent[:80]!r} is not a product token, so no robots.txt group can name it and only "
          f"the '*' group can apply; {advice}")


def warn_url(url: str) -> None:
    """R3: warn (:class:`RobotsInputWarning`) when ``url`` is neither absolute (no "://" in it)
    nor a path starting with "/"; "" is fine (it is read as "/")."""
    if "://" in url or url[:1] == "/" or not url:
        return
    _warn(f"{url[:200]!r} is neither an absolute URL nor a path starting with '/', so it is not decided as "
          "meant; pass the full URL (https://example.com/page) or the path with its leading '/'")


def _warn(message: str) -> None:
    """Warn, attributing the warning to the first caller outside the core (in pure Python and
    compiled alike: compiled functions have no frames)."""
    frame = sys._getframe(0)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_CORE_DIR):
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    warnings.warn(message, RobotsInputWarning, stacklevel=level)
