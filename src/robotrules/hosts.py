"""Host names as the URL standard maps them (S4), and the robots.txt URL of any URL (S1-S5).

A crawler fetches the page ``http://straße.de/x`` from ``xn--strae-oqa.de``: browsers, httpx
and the WHATWG URL standard map international host names with UTS 46 (non-transitional
processing, IDNA 2008 code points). Python's own ``"idna"`` codec implements IDNA 2003, which
maps the same name to ``strasse.de``, another registered domain; Greek final sigma (``ς``) and
the joiners ZWNJ/ZWJ differ the same way. The robots.txt that governs a page must come from
the host the page comes from, so hosts are mapped here as the URL standard maps them, by
:func:`domain_to_ascii`, with the ``idna`` package (pure Python, already required by httpx).

Why not in :mod:`robotrules.core`: the core is standard library only (and compiled with
mypyc), and the standard library has no UTS 46. The core's :mod:`robotrules.core.urls` does
everything else (the URL's parts, ASCII hosts, IP addresses, ports, the DNS limits) and takes
the mapping as an argument; the functions here pass it. ``idna`` is imported on first use, so
ASCII hosts never load it.

Finding a URL's robots.txt URL costs the URL's parsing and, for an international name, the
mapping; a caller asking for many URLs of few sites remembers it by the URL's origin as written,
in the one memo of the project, :class:`OriginMemo` (:func:`origin_of` says which URLs may share
an answer).

:func:`robots_url`, :func:`robots_scope` and :func:`same_scope` are the public
``robotrules.robots_url`` etc. They raise :class:`~robotrules.InvalidURL` (a ``ValueError``;
``TypeError`` for a non-str) for a URL no robots.txt can be fetched for; see
:mod:`robotrules.core.urls` for what that is.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Generic, TypeVar

from robotrules.core import urls as _urls
from robotrules.core.urls import Scope
from robotrules.errors import InvalidURL

__all__ = ["ORIGIN_MEMO_BYTES", "OriginMemo", "check_url", "domain_to_ascii", "origin_of", "robots_scope", "robots_url",
           "same_scope"]

_T = TypeVar("_T")

ORIGIN_MEMO_BYTES = 8 * 2**20
"""The default budget of an :class:`OriginMemo` (estimated bytes); past it the memo starts over.
About 40,000 typical origins; an origin longer than 1,024 characters is never kept."""

_ORIGIN_MOST = 1024  # characters: a real origin (253-byte host, port, user info) is shorter
_ORIGIN_ENTRY = 160  # bytes per memo entry on top of its strings: str headers, dict slot

_RTL = frozenset({"R", "AL", "AN"})
"""Bidi classes that make a label right-to-left, and its domain a "Bidi domain name" (RFC 5893)."""

_JOINERS = frozenset({"\u200c", "\u200d"})
"""ZWNJ and ZWJ: valid only in the contexts of RFC 5892 Appendix A (UTS 46 CheckJoiners)."""


def _shown(text: str) -> str:
    """``text`` quoted for an error message, cut to about 100 characters."""
    shown = repr(text[:100])
    return shown if len(text) <= 100 and len(shown) <= 100 else f"{shown[:80]}... ({len(text)} characters)"


def domain_to_ascii(domain: str) -> str:
    """S4: ``domain`` in ASCII as the URL standard's "domain to ASCII" gives it; ``ValueError`` if it has none.

    UTS 46 ToASCII with the URL standard's options: non-transitional processing (``ß``, ``ς``,
    ZWNJ and ZWJ are kept and encoded, never mapped to ``ss``, ``σ`` or dropped),
    CheckHyphens, UseSTD3ASCIIRules and VerifyDnsLength off, CheckBidi and CheckJoiners on.
    So: the UTS 46 mapping (case folding, full-width forms, the dots ``。．｡`` as ``.``,
    NFC), each ``xn--`` label decoded and checked, each label validated (no disallowed code
    point, no leading combining mark, joiners in context, the Bidi rule in a domain with
    right-to-left labels), and each non-ASCII label encoded as ``xn--`` punycode. ASCII labels
    are lower-cased and otherwise kept (``_dmarc`` and ``-a-`` included); the DNS lengths and
    the URL's forbidden characters are checked by the caller
    (:func:`robotrules.core.urls.canonical_host`). A trailing dot is kept.
    """
    import idna  # on first use: ASCII hosts never need it

    try:
        mapped: str = idna.uts46_remap(domain, std3_rules=False)
        labels = [_decoded(label) if label.startswith("xn--") else label for label in mapped.split(".")]
        bidi = any(unicodedata.bidirectional(char) in _RTL for label in labels for char in label)
        ascii_labels = []
        for label in labels:
            if not label.isascii():
                idna.check_initial_combiner(label)
                for pos, char in enumerate(label):
                    if char in _JOINERS and not idna.valid_contextj(label, pos):
                        raise ValueError(f"{char!r} is not allowed at position {pos + 1} of {label!r} (CONTEXTJ)")
            if bidi and label:
                idna.check_bidi(label, check_ltr=True)
            ascii_labels.append(label if label.isascii() else "xn--" + label.encode("punycode").decode("ascii"))
    except ValueError as exc:  # IDNAError and UnicodeError are ValueErrors
        why = str(exc) if len(str(exc)) <= 200 else f"{str(exc)[:180]}..."
        raise ValueError(f"{_shown(domain)} is not a valid international host name: {why}") from None
    return ".".join(ascii_labels)


def _decoded(label: str) -> str:
    """UTS 46 §4 step 4: the Unicode label an ``xn--`` label stands for, checked; ``ValueError`` if none."""
    import idna

    if not label.isascii():
        raise ValueError(f"the punycode label {label!r} is not ASCII")
    try:
        decoded = label[4:].encode("ascii").decode("punycode")
    except UnicodeError:
        raise ValueError(f"{label!r} is not valid punycode") from None
    if not decoded or decoded.isascii():
        raise ValueError(f"{label!r} does not encode a non-ASCII label")
    if "." in decoded or decoded.startswith("xn--") or idna.uts46_remap(decoded, std3_rules=False) != decoded:
        raise ValueError(f"{label!r} encodes {decoded!r}, which is not a valid label")
    return decoded


def robots_scope(url: str) -> Scope:
    """S1-S5: the :class:`~robotrules.Scope` (scheme, ASCII host, effective port) of an absolute URL.

    :class:`~robotrules.InvalidURL` (a ``ValueError``) for a URL without a usable host (see
    :mod:`robotrules.core.urls`), ``TypeError`` for a non-str. Hosts are mapped by
    :func:`domain_to_ascii`.
    """
    try:
        return _urls.robots_scope(url, domain_to_ascii)
    except InvalidURL:
        raise
    except ValueError as exc:
        raise InvalidURL(str(exc)) from None


def robots_url(url: str) -> str:
    """S1-S5: the robots.txt URL that governs ``url`` (e.g. "https://example.com/robots.txt").

    Same scheme, host and port, path ``/robots.txt``; the default port dropped, the host in its
    canonical ASCII form (``http://straße.de/x`` gives ``http://xn--strae-oqa.de/robots.txt``);
    userinfo, query and fragment dropped. :class:`~robotrules.InvalidURL` (a ``ValueError``)
    when no robots.txt can be fetched for it.
    """
    return robots_scope(url).robots_url()


def same_scope(url_a: str, url_b: str) -> bool:
    """S1-S4: whether one robots.txt governs both URLs (same scheme, host and effective port)."""
    return robots_scope(url_a) == robots_scope(url_b)


def check_url(url: str, *, paths: bool = False) -> str:
    """``url`` as given, when robots.txt rules can be applied to it; :class:`~robotrules.InvalidURL` if not.

    The one URL check of every command and endpoint (issue #16-L6): an absolute URL whose
    origin a robots.txt can govern (:func:`robots_scope` accepts it: a scheme, a usable host, a
    valid port; S1-S5), or, with ``paths``, a path starting with "/" (what
    :meth:`robotrules.RobotsTxt.check` reads against a file at hand). Whether the scheme can be
    fetched is the live checks' own question (:class:`~robotrules.errors.UnsupportedScheme`).
    """
    if not isinstance(url, str):
        raise TypeError(f"url must be str, not {type(url).__name__}")
    if paths and url.startswith("/"):
        return url
    try:
        robots_scope(url)
    except InvalidURL as exc:
        if paths and "://" not in url:
            raise InvalidURL(f"{_shown(url)} is neither an absolute URL (https://example.com/page) nor a path "
                             "starting with '/'") from None
        raise exc from None
    return url


def origin_of(url: str) -> str:
    """``"scheme://host[:port]"`` of ``url`` as written (everything before its path; user info
    kept), by which URLs may share their robots.txt URL (S1); "" when none may: no ``://``, or a
    ``?``, ``#`` or ``\\`` before the path (the host is then not what it looks like), or longer
    than 1,024 characters."""
    start = url.find("://")
    if start <= 0:
        return ""
    end = url.find("/", start + 3)
    origin = url if end < 0 else url[:end]
    if len(origin) > _ORIGIN_MOST or "?" in origin or "#" in origin or "\\" in origin:
        return ""
    return origin


class OriginMemo(Generic[_T]):
    """``work(url)`` remembered by the URL's origin as written (:func:`origin_of`): the one memo of
    a URL's robots.txt URL (S1-S5) for every caller that asks for many URLs of few sites.

    ``work`` must depend only on that origin (the robots.txt URL does: same scheme, host and port);
    what it raises is not remembered. A URL without an origin to share (:func:`origin_of` gives
    "") is worked out each time. Bounded: past ``most_bytes`` (estimated: the strings and
    :data:`_ORIGIN_ENTRY` per entry) the memo starts over. Safe to share between threads (racing
    callers work out the same value; a clear loses only memos)."""

    __slots__ = ("_found", "_spent", "most_bytes", "work")

    def __init__(self, work: Callable[[str], _T], most_bytes: int = ORIGIN_MEMO_BYTES) -> None:
        self.work = work
        self.most_bytes = most_bytes
        self._found: dict[str, _T] = {}
        self._spent = 0

    def __call__(self, url: str) -> _T:
        """``work(url)``, remembered by the origin of ``url``."""
        return self.with_origin(url)[0]

    def with_origin(self, url: str) -> tuple[_T, str]:
        """``work(url)`` and the origin it is remembered by ("" when it is not)."""
        origin = origin_of(url)
        if not origin:
            return self.work(url), ""
        found = self._found
        if origin in found:
            return found[origin], origin
        value = self.work(url)
        self._keep(origin, value)
        return value, origin

    def known(self, url: str) -> _T | None:
        """What is remembered for the origin of ``url``, None when nothing is (work not done):
        for a caller that needs more than the value when it works it out (:meth:`remember`)."""
        origin = origin_of(url)
        return self._found.get(origin) if origin else None

    def remember(self, url: str, value: _T) -> None:
        """Remember ``value``, worked out by the caller, for the origin of ``url`` (when it has one)."""
        origin = origin_of(url)
        if origin:
            self._keep(origin, value)

    def _keep(self, origin: str, value: _T) -> None:
        cost = len(origin) + (len(value) if isinstance(value, str) else 0) + _ORIGIN_ENTRY
        if self._spent + cost > self.most_bytes:
            self._found.clear()
            self._spent = 0
        self._found[origin] = value
        self._spent += cost

    def clear(self) -> None:
        """Forget every origin."""
        self._found.clear()
        self._spent = 0

    def __len__(self) -> int:
        return len(self._found)
