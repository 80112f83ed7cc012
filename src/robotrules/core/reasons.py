"""Why a robots.txt stands as it does, as data: a :class:`Reason` code with its details (F2-F9, C2).

The fetch policy (:mod:`robotrules.core.policy`) records on every cache entry, and on every
standing made from one, a :class:`Reason`: a :data:`Code` saying what the latest attempt found
(a body, no robots.txt, a server error, a redirect loop, ...), the details that go with it (the
status, the failure's kind, the loop's target, the redirect limit, ...) and what decides meanwhile
(:data:`Decides`). Programs read the code and the details; nothing parses a sentence back.

People read a sentence, and every sentence about a reason is made by :func:`render`, here and
nowhere else ("503: server error: full disallow"; :meth:`Reason.sentence` calls it). The entries a
store holds keep the sentence they were given beside their reason; an entry written by a version
that recorded only the sentence gets its reason from :func:`from_sentence`, the one reader of
those sentences, kept for those old records alone.

The codes, with the requirement each stands for::

    rules                    a 2xx: the body's rules decide (F2); ``cut``: the body went past the
                             limit and only its first ``cut`` bytes count (F9)
    no-robots-txt            a 4xx (429 only when all 4xx are alike): no robots.txt, full allow (F4)
    rate-limited             a 429 taken as a server error (F5)
    server-error             a 5xx (F5), also when the F7 probes do not show a misconfigured site
    invalid-status           a status outside 200-599 that is no redirect (F8)
    network                  no response at all (F8): ``failure`` is its kind (dns, connect,
                             timeout, reset, protocol, tls, other), ``detail`` the transport's words
    redirect-loop            a redirect back to a URL of the chain (F3): ``detail`` is that URL
    redirect-limit           more than ``limit`` redirects (F3)
    redirect-no-location     a 3xx without a Location (F3)
    redirect-bad-location    a 3xx with a malformed Location (F3)
    redirect-bad-scheme      a redirect to a scheme that cannot be fetched (F3, S5)
    redirect-unusable        a Location the transport could not follow: ``detail`` says why (F3)
    missing-pages-5xx        a 5xx from a site that answers 5xx for pages that cannot exist (F7)
    no-capture               nothing known: an archive holds no capture of the robots.txt
    no-source                nothing known: no source of robots.txt files was given for the URL
    url-refused              nothing known: the robots.txt URL was refused before any fetch (a URL
                             that cannot be fetched, an address the policy refuses): ``detail`` says why
    no-robots-url            a URL that has no robots.txt (not an absolute http, https or ftp URL)
    no-url                   no URL at all (an empty cell of a table)
    unknown                  a sentence :func:`from_sentence` does not recognise: ``detail`` holds it

The six redirect codes and ``missing-pages-5xx`` are read as a 404 (:data:`AS_404`). Pure and
standard library only; immutable values, safe to share between threads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Literal, get_args

__all__ = ["AS_404", "CODES", "Code", "Decides", "Part", "Reason", "from_fields", "from_sentence", "render"]

Code = Literal[
    "rules", "no-robots-txt", "rate-limited", "server-error", "invalid-status", "network",
    "redirect-loop", "redirect-limit", "redirect-no-location", "redirect-bad-location", "redirect-bad-scheme",
    "redirect-unusable", "missing-pages-5xx", "no-capture", "no-source", "url-refused", "no-robots-url", "no-url",
    "unknown",
]
"""What the latest attempt found, or why nothing is known (see the module docstring)."""

CODES: frozenset[str] = frozenset(get_args(Code))
"""Every :data:`Code`."""

AS_404: frozenset[str] = frozenset({"redirect-loop", "redirect-limit", "redirect-no-location", "redirect-bad-location",
                                    "redirect-bad-scheme", "redirect-unusable", "missing-pages-5xx"})
"""The codes of answers read as a 404, a full allow although the status is no 4xx (F3, F7)."""

Decides = Literal["attempt", "good-copy", "disallow", "unreachable"]
"""What decides for the robots.txt meanwhile: the latest attempt as it says ("attempt"), the last
good copy of status ``good_status`` while refreshes fail ("good-copy", C2), full disallow while it
fails with no copy ("disallow", F5), or full allow once it has failed for over ``days`` days with
no copy ("unreachable", F6). Entries always say "attempt"; a standing says which."""

Part = Literal["all", "attempt", "event"]
"""How much of a reason :func:`render` says: all of it; what the latest attempt found, without what
decides meanwhile ("attempt", the sentence an entry keeps); or what happened, without what it
means ("event": "301 without a Location", where "attempt" adds ": treated as 404, full allow")."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a robots.txt stands as it does: a :data:`Code` and the details that go with it.

    ``status`` is the HTTP status of the attempt (0: none); ``failure`` and ``detail`` as the
    codes say (module docstring); ``limit`` the redirect limit passed ("redirect-limit"); ``cut``
    the bytes of a longer body that count ("rules", F9; 0: not known to be cut); ``decides``,
    ``good_status`` and ``days`` what decides meanwhile (:data:`Decides`). Compare codes, never
    sentences: :meth:`sentence` is for people and may be reworded.
    """

    code: Code
    status: int = 0
    failure: str = ""
    detail: str = ""
    limit: int = 0
    cut: int = 0
    decides: Decides = "attempt"
    good_status: int = 0
    days: float = 0.0

    def sentence(self, part: Part = "all", said: str | None = None) -> str:
        """This reason in words for people, by :func:`render` (``part``: how much of it; ``said``:
        the attempt's sentence as an entry keeps it)."""
        return render(self, part, said)

    @property
    def attempt(self) -> Reason:
        """This reason as the latest attempt alone states it (what decides meanwhile left out)."""
        if self.decides == "attempt":
            return self
        return replace(self, decides="attempt", good_status=0, days=0.0)

    def to_fields(self) -> dict[str, object]:
        """The fields that differ from their defaults, by name (``code`` always): a JSON object
        for stores (:func:`from_fields` reads it back)."""
        found: dict[str, object] = {"code": self.code}
        for spec in fields(self)[1:]:
            value = getattr(self, spec.name)
            if value != spec.default:
                found[spec.name] = value
        return found


_TYPES: dict[str, tuple[type, ...]] = {"status": (int,), "failure": (str,), "detail": (str,), "limit": (int,),
                                       "cut": (int,), "decides": (str,), "good_status": (int,), "days": (int, float)}
_DECIDES = frozenset(get_args(Decides))


def from_fields(data: Mapping[str, object]) -> Reason:
    """The :class:`Reason` of :meth:`Reason.to_fields` output; ``ValueError`` naming what is wrong
    (an unknown code or field, a value of the wrong type)."""
    code = data.get("code")
    if not isinstance(code, str) or code not in CODES:
        raise ValueError(f"reason code {str(code)[:40]!r} is not one of the known codes")
    values: dict[str, object] = {}
    for name, value in data.items():
        if name == "code":
            continue
        kinds = _TYPES.get(name)
        if kinds is None:
            raise ValueError(f"reason field {name[:40]!r} is unknown")
        if isinstance(value, bool) or not isinstance(value, kinds):
            raise ValueError(f"reason field {name} is {type(value).__name__}, not {kinds[0].__name__}")
        values[name] = value
    if values.get("decides", "attempt") not in _DECIDES:
        raise ValueError(f"reason field decides is {str(values['decides'])[:40]!r}, not one of {sorted(_DECIDES)}")
    return Reason(code, **values)  # type: ignore[arg-type]  # each value's type checked above


# -- the one renderer -------------------------------------------------------------------------------

_AS_404 = ": treated as 404, full allow"
_UNKNOWN_WORDS: dict[Code, str] = {
    "no-capture": "no capture of this robots.txt",
    "no-source": "no robots.txt source for this URL",
    "no-robots-url": "no robots.txt for this URL (not an absolute http, https or ftp URL)",
    "no-url": "invalid URL: the url cell is empty",
}


def _cut_note(limit: int) -> str:
    return f"(only its first {limit:,} bytes count: the rest is ignored)"


def _event(reason: Reason) -> str:
    """What happened (before what it means, for the codes read as a 404)."""
    code, status = reason.code, reason.status
    if code == "rules":
        return f"{status}: rules from the body" + (f" {_cut_note(reason.cut)}" if reason.cut else "")
    if code == "no-robots-txt":
        return f"{status}: no robots.txt, full allow"
    if code == "rate-limited":
        return f"{status}: rate limited, treated as a server error"
    if code == "server-error":
        return f"{status}: server error"
    if code == "invalid-status":
        return f"invalid status {status}"
    if code == "network":
        return f"{reason.failure} error" + (f": {reason.detail}" if reason.detail else "")
    if code == "redirect-loop":
        return f"redirect loop back to {reason.detail}"
    if code == "redirect-limit":
        return f"more than {reason.limit} redirects"
    if code == "redirect-no-location":
        return f"{status} without a Location"
    if code == "redirect-bad-location":
        return f"{status} with a malformed Location"
    if code == "redirect-bad-scheme":
        return f"{status} to an unsupported scheme"
    if code == "redirect-unusable":
        return f"redirect to an unusable Location ({reason.detail})"
    if code == "missing-pages-5xx":
        return f"{status}, but the site answers 5xx for missing pages"
    return _UNKNOWN_WORDS.get(code, reason.detail)


def render(reason: Reason, part: Part = "all", said: str | None = None) -> str:
    """The sentence of ``reason`` for people: the one place reasons become words.

    ``part`` says how much (:data:`Part`). ``said``: the latest attempt's sentence as an entry
    already keeps it (stored, perhaps by another version), used instead of saying it again, so a
    standing repeats its entry's words and adds what decides meanwhile.
    """
    if part == "event":
        return _event(reason)
    attempt = said if said is not None else _event(reason) + (_AS_404 if reason.code in AS_404 else "")
    if part == "attempt" or reason.decides == "attempt":
        return attempt
    if reason.decides == "good-copy":
        return f"{attempt}; the last good copy ({reason.good_status}) decides"
    if reason.decides == "unreachable":
        return f"{attempt}; unreachable for over {reason.days:g} days and no cached copy: full allow"
    return f"{attempt}: full disallow"


# -- the fallback for old records -------------------------------------------------------------------

_GOOD_COPY = re.compile(r"; the last good copy \((\d{1,3})\) decides\Z", re.ASCII)
_UNREACHABLE = re.compile(r"; unreachable for over (\d+(?:\.\d+)?(?:e[+-]?\d+)?) days and no cached copy: full allow\Z",
                          re.ASCII)
_CUT = re.compile(r" \(only its first ([\d,]{1,40}) bytes count: the rest is ignored\)\Z", re.ASCII)
_OLD_ID = re.compile(r" \([A-Z]\d\)\Z")  # the requirement id the earliest versions added to a reason
_STATUS_WORDS = re.compile(r"(-?\d{1,12})(: rules from the body|: no robots\.txt, full allow|: rate limited, treated "
                           r"as a server error|: server error| without a Location| with a malformed Location"
                           r"| to an unsupported scheme|, but the site answers 5xx for missing pages)\Z", re.ASCII)
_STATUS_CODES: dict[str, Code] = {
    ": rules from the body": "rules", ": no robots.txt, full allow": "no-robots-txt",
    ": rate limited, treated as a server error": "rate-limited", ": server error": "server-error",
    " without a Location": "redirect-no-location", " with a malformed Location": "redirect-bad-location",
    " to an unsupported scheme": "redirect-bad-scheme",
    ", but the site answers 5xx for missing pages": "missing-pages-5xx",
}
_NETWORK = re.compile(r"([a-z]{1,20}) error(?:: (.*))?\Z", re.DOTALL)
_LIMIT = re.compile(r"more than (\d{1,9}) redirects\Z", re.ASCII)
_OLD_UNKNOWN: dict[str, Code] = {words: code for code, words in _UNKNOWN_WORDS.items()} | {
    "not an http, https or ftp URL": "no-robots-url",  # the audit's words for a site without a robots.txt URL
}


def from_sentence(text: str, status: int = 0, *, standing: bool = True) -> Reason:
    """The :class:`Reason` an old record's sentence states: the one reader of reason sentences.

    Only for records made before reasons were data (a store entry without its reason; a
    governing answer built from a sentence): everything else reads :class:`Reason` fields. It
    reads the sentences this version's :func:`render` writes (``from_sentence(render(r))`` gives
    ``r`` back for every reason the policy makes), and those of earlier versions, which added a
    requirement id in parentheses. ``status`` is the record's status (a redirect loop's sentence
    does not state it); ``standing`` False reads ``text`` as an entry's own sentence, which
    never says what decides meanwhile. A sentence it does not recognise is code "unknown" with
    the sentence as ``detail``. Linear in ``len(text)``; never raises.
    """
    rest, decides, good_status, days = _standing_of(text) if standing else (text, "attempt", 0, 0.0)
    reason = _attempt_of(rest, status)
    if reason.code == "unknown":
        return Reason("unknown", status, detail=text)
    return replace(reason, decides=decides, good_status=good_status, days=days) if decides != "attempt" else reason


def _standing_of(text: str) -> tuple[str, Decides, int, float]:
    """``text`` without what it says decides meanwhile, and that."""
    found = _GOOD_COPY.search(text)
    if found:
        return text[: found.start()], "good-copy", int(found.group(1)), 0.0
    found = _UNREACHABLE.search(text)
    if found:
        return text[: found.start()], "unreachable", 0, float(found.group(1))
    if text.endswith(": full disallow"):
        return text.removesuffix(": full disallow"), "disallow", 0, 0.0
    return text, "attempt", 0, 0.0


def _attempt_of(text: str, status: int) -> Reason:
    """The reason an entry's own sentence ``text`` states (code "unknown" when none)."""
    found = _NETWORK.match(text)
    if found:  # first: the transport's words may end like anything
        return Reason("network", 0, failure=found.group(1), detail=found.group(2) or "")
    text = _OLD_ID.sub("", text, count=1)
    if text in _OLD_UNKNOWN:
        return Reason(_OLD_UNKNOWN[text], status)
    cut = 0
    as_404 = text.endswith(_AS_404)
    if as_404:
        text = text.removesuffix(_AS_404)
        if text.startswith("redirect loop back to "):
            return Reason("redirect-loop", status, detail=text.removeprefix("redirect loop back to "))
        if text.startswith("redirect to an unusable Location (") and text.endswith(")"):
            return Reason("redirect-unusable", status, detail=text[len("redirect to an unusable Location ("):-1])
        found = _LIMIT.fullmatch(text)
        if found:
            return Reason("redirect-limit", status, limit=int(found.group(1)))
    else:
        found = _CUT.search(text)
        if found:
            text, cut = text[: found.start()], int(found.group(1).replace(",", "") or 0)
    found = _STATUS_WORDS.fullmatch(text)
    if found:
        code = _STATUS_CODES[found.group(2)]
        if (code in AS_404) == as_404 and (not cut or code == "rules"):
            return Reason(code, int(found.group(1)), cut=cut)
        return Reason("unknown", status)
    if as_404 or cut:
        return Reason("unknown", status)
    number = text[15:].removeprefix("-")
    if text.startswith("invalid status ") and len(text) < 40 and number.isascii() and number.isdigit():
        return Reason("invalid-status", int(text[15:]))
    return Reason("unknown", status)
