"""Rewording a reason changes what people read and nothing else: no layer reads another's sentences.

The fetch policy says why a robots.txt stands as it does as data (``Entry.why``, a
``robotrules.core.reasons.Reason``) and renders the sentence people read in one place,
``robotrules.core.reasons.render``. Here that renderer is replaced by one that says every reason
in other words; a client then fetches robots.txt files that end in every reason the policy knows
(a body, 4xx, 429, 5xx, an invalid status, a network failure, each redirect that leads nowhere,
the F7 probes, a good copy kept through failures, the F6 flip), and everything programs read
must come out as it does with the usual words: the Common Crawl outcome class
(``robotrules.outcomes``), the codes of the JSON the service and the command line send
(``answers.Verdict.to_dict``, ``answers.state_dict``), the refusal a guard raises
(``errors.RobotsDisallowed``) and the reason's code. Only the sentences differ.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from robotrules import MemoryStore, RobotsClient
from robotrules.answers import RobotsState, from_result, state_dict
from robotrules.core import reasons
from robotrules.core.policy import DAY, Entry, Failure, Policy, Response, begin
from robotrules.core.reasons import Reason
from robotrules.errors import RobotsDisallowed
from robotrules.outcomes import NOT_ARCHIVED, outcome_of
from tests.servers.clock import FakeClock

T0 = 1_700_000_000.0
BODY = b"User-agent: *\nDisallow: /private\n"
PAGE = "/private/page"
SENTENCES = ("reason", "summary", "explanation")
"""The keys of the JSON forms that hold words for people (they may change; nothing else may)."""


def _answer(status: int, location: str | None = None, body: bytes = b"") -> httpx.Response:
    return httpx.Response(status, headers={"location": location} if location is not None else {}, content=body)


def _site(name: str, request: httpx.Request, phase: int) -> httpx.Response:
    """What host ``name`` answers to ``request`` in ``phase`` (0: the first fetch, 1: after a day, 2: after 31 days)."""
    path = request.url.path
    if name == "rules":
        return _answer(200, body=BODY)
    if name == "missing":
        return _answer(404)
    if name == "rate-limited":
        return _answer(429)
    if name == "server-error":
        return _answer(503)
    if name == "invalid-status":
        return _answer(999)
    if name == "network":
        raise httpx.ConnectError("[Errno 111] Connection refused", request=request)
    if name == "loop":
        return _answer(301, "/robots.txt")
    if name == "limit":
        return _answer(301, f"/hop{int(path.removeprefix('/hop') or 0) + 1 if path.startswith('/hop') else 1}")
    if name == "no-location":
        return _answer(302)
    if name == "bad-location":
        return _answer(301, "http://elsewhere.example:port/robots.txt")
    if name == "bad-scheme":
        return _answer(301, "gopher://elsewhere.example/robots.txt")
    if name == "unusable":
        return _answer(301, "https://user:secret@unusable.example/robots.txt")
    if name == "misconfigured":
        return _answer(200) if path == "/" else _answer(503)
    if name == "good-copy":
        return _answer(200, body=BODY) if phase == 0 else _answer(503)
    if name == "unreachable":
        return _answer(503)
    raise AssertionError(f"no site {name}")


SITES = ("rules", "missing", "rate-limited", "server-error", "invalid-status", "network", "loop", "limit",
         "no-location", "bad-location", "bad-scheme", "unusable", "misconfigured", "good-copy", "unreachable")
EXPECTED_CODES = {
    "rules": "rules", "missing": "no-robots-txt", "rate-limited": "rate-limited", "server-error": "server-error",
    "invalid-status": "invalid-status", "network": "network", "loop": "redirect-loop", "limit": "redirect-limit",
    "no-location": "redirect-no-location", "bad-location": "redirect-unusable", "bad-scheme": "redirect-bad-scheme",
    "unusable": "redirect-unusable", "misconfigured": "missing-pages-5xx", "good-copy": "server-error",
    "unreachable": "server-error",
}
"""The code each site ends in. httpx itself refuses a malformed Location (a redirect it cannot
follow); the policy's own "redirect-bad-location" is for the other drivers (archives)."""


def _codes(data: Any) -> Any:
    """A JSON form without the words for people."""
    if isinstance(data, dict):
        return {key: _codes(value) for key, value in data.items() if key not in SENTENCES}
    if isinstance(data, list):
        return [_codes(item) for item in data]
    return data


def _observe(state: RobotsState, client: RobotsClient, url: str) -> dict[str, Any]:
    """What programs read of one site's answer: classes, codes, JSON codes, the refusal's type."""
    result = client.check(url, "FooBot")
    verdict = from_result(result, url, "FooBot")
    refusal: tuple[str, int] | None = None
    if not result.allowed:
        exc = RobotsDisallowed.from_check(result, url, "FooBot")
        refusal = (type(exc).__name__, exc.line)
    return {
        "outcome": outcome_of(state.entry),
        "code": (state.why.code, state.why.decides, state.entry.why.code),
        "state": _codes(state_dict(state)),
        "verdict": _codes(verdict.to_dict()),
        "refusal": refusal,
    }


def _run(words: str) -> dict[str, tuple[dict[str, Any], RobotsState]]:
    """Each site fetched by one client, as it stands at the end; ``words`` only names the run."""
    clock = FakeClock(T0)
    phase = [0]

    def handler(request: httpx.Request) -> httpx.Response:
        host = request.url.host
        return _site(host.split(".")[0], request, phase[0])

    policy = Policy(detect_misconfigured_5xx=True, fetch_timeout=5.0)
    found: dict[str, tuple[dict[str, Any], RobotsState]] = {}
    with httpx.Client(transport=httpx.MockTransport(handler)) as http, \
            RobotsClient(MemoryStore(), http_client=http, clock=clock, policy=policy) as client:

        def observe(name: str, state: RobotsState) -> None:
            found[name] = (_observe(state, client, f"https://{name}.example{PAGE}"), state)

        for name in SITES:
            state = client.robots(f"https://{name}.example{PAGE}")
            if name not in ("good-copy", "unreachable"):
                observe(name, state)
        clock.advance(DAY + 1)  # the good copy is due; its refresh fails (C2)
        phase[0] = 1
        observe("good-copy", client.refresh(f"https://good-copy.example{PAGE}"))
        clock.advance(30 * DAY)  # failing for over 30 days with no copy (F6)
        phase[0] = 2
        observe("unreachable", client.refresh(f"https://unreachable.example{PAGE}"))
    assert set(found) == set(SITES), words
    return found


def _reworded(reason: Reason, part: reasons.Part = "all", said: str | None = None) -> str:
    return f"in other words: {part} of {reason.code} ({reason.decides}), {reason.status}"


@pytest.fixture
def reworded(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Calling it replaces the one renderer for the rest of the test."""
    return lambda: monkeypatch.setattr(reasons, "render", _reworded)


def test_rewording_every_reason_changes_no_outcome_class_json_code_or_refusal(reworded: Callable[[], None]) -> None:
    """F2-F8, C2, DESIGN 5: programs read reasons as codes; only the sentences people read change."""
    usual = _run("usual")
    reworded()
    other = _run("reworded")
    for name in SITES:
        (seen, state), (seen_reworded, state_reworded) = usual[name], other[name]
        assert seen == seen_reworded, name
        assert state.why.code == EXPECTED_CODES[name], name
        assert state_reworded.reason != state.reason and state_reworded.entry.reason != state.entry.reason, name
        assert state_reworded.reason.startswith("in other words: "), name


def test_the_sites_end_in_every_standing_the_policy_has(reworded: Callable[[], None]) -> None:
    """F2-F8, C2: the table above covers every attempt code a live fetch can end in, and each way
    a standing holds (as the attempt says, the last good copy, full disallow, the F6 full allow)."""
    usual = _run("usual")
    nothing_known = {"no-capture", "no-source", "url-refused", "no-robots-url", "no-url", "unknown"}
    live = set(reasons.CODES) - nothing_known - {"redirect-bad-location"}
    assert {state.why.code for _, state in usual.values()} == live
    assert {state.why.decides for _, state in usual.values()} == {"attempt", "good-copy", "disallow", "unreachable"}
    outcomes = {seen["outcome"] for seen, _ in usual.values()}
    assert outcomes >= {"with_rules", "allow_all", "defer", "redirect_unresolved"}


def test_rewording_keeps_the_causes_people_read_apart(reworded: Callable[[], None]) -> None:
    """F3, F7: the plain cause a client states is chosen by code: a loop, a redirect leading
    nowhere and a site answering 5xx for missing pages stay told apart in other words."""
    reworded()
    found = _run("reworded")
    causes = {name: state.cause() for name, (_, state) in found.items()}
    assert causes["loop"] == "robots.txt redirects in a loop (back to https://loop.example/robots.txt)"
    assert causes["misconfigured"] == "robots.txt answers 503, as do pages that cannot exist"
    assert causes["no-location"] == ("robots.txt redirects nowhere usable "
                                     "(in other words: event of redirect-no-location (attempt), 302)")
    assert causes["missing"] == "no robots.txt (404)"
    assert causes["network"] == "could not fetch robots.txt (connection refused)"
    assert found["unusable"][1].happened().endswith(": Google treats it as missing, allow all")


def _archived(first: Response, then: Response | Failure) -> Entry:
    """The entry of a replay whose robots.txt answered ``first`` and its redirect's target ``then``."""
    step = begin("https://a.example/robots.txt", None, T0, Policy())
    assert not isinstance(step, Entry)
    step = step.apply(first, T0)
    if isinstance(step, Entry):
        return step
    entry = step.apply(then, T0)
    assert isinstance(entry, Entry)
    return entry


@pytest.mark.parametrize("reword", [False, True], ids=["usual", "reworded"])
def test_an_archive_miss_and_a_malformed_location_are_read_as_data(reworded: Callable[[], None], reword: bool) -> None:
    """F3: a redirect hop an archive holds no answer to, and a Location no URL can be made of, are
    ``redirect_unresolved``, in any words."""
    if reword:
        reworded()
    missed = _archived(Response(301, {"location": "https://b.example/robots.txt"}), Failure("other", NOT_ARCHIVED))
    assert (missed.why.code, missed.why.detail, outcome_of(missed)) == ("network", NOT_ARCHIVED, "redirect_unresolved")
    malformed = _archived(Response(301, {"location": "http://[::1"}), Response(200, {}))
    assert (malformed.why.code, malformed.outcome, outcome_of(malformed)) == ("redirect-bad-location", "allow",
                                                                            "redirect_unresolved")
    assert missed.reason.startswith("in other words: ") == reword
