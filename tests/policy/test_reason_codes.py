"""Reasons as data: each policy outcome's code and details, the one renderer's sentences, and the
one fallback that reads the sentences of entries older versions stored (F2-F9, C2).

Programs read ``Entry.why`` and ``Standing.why`` (a ``robotrules.core.reasons.Reason``); the
sentences here are what people read (the CLI, the service, batch rows), pinned so that a change
of words is a decision, and read back by ``from_sentence`` only for old records.
"""

from __future__ import annotations

import pytest

from robotrules.core.policy import DAY, Entry, Failure, Fetch, Policy, Response, begin, restated, standing
from robotrules.core.reasons import AS_404, CODES, Reason, from_fields, from_sentence, render

URL = "https://example.com/robots.txt"
T0 = 1_700_000_000.0
P = Policy()


def run(*responses: Response | Failure, policy: Policy = P, cached: Entry | None = None, now: float = T0) -> Entry:
    step: Fetch | Entry = begin(URL, cached, now, policy, force=True)
    for result in responses:
        assert isinstance(step, Fetch)
        step = step.apply(result, now)
    assert isinstance(step, Entry)
    return step


def hop(to: str, status: int = 301) -> Response:
    return Response(status, {"location": to})


CASES = [
    pytest.param((Response(200, {}, b"x"),), P, Reason("rules", 200), "200: rules from the body", id="2xx"),
    pytest.param((Response(404, {}),), P, Reason("no-robots-txt", 404), "404: no robots.txt, full allow", id="4xx"),
    pytest.param((Response(429, {}),), P, Reason("rate-limited", 429), "429: rate limited, treated as a server error",
                 id="429"),
    pytest.param((Response(429, {}),), Policy(all_4xx_alike=True), Reason("no-robots-txt", 429),
                 "429: no robots.txt, full allow", id="429-as-4xx"),
    pytest.param((Response(503, {}),), P, Reason("server-error", 503), "503: server error", id="5xx"),
    pytest.param((Response(999, {}),), P, Reason("invalid-status", 999), "invalid status 999", id="invalid-status"),
    pytest.param((Response(101, {}),), P, Reason("invalid-status", 101), "invalid status 101", id="1xx"),
    pytest.param((Failure("connect", "[Errno 111] Connection refused"),), P,
                 Reason("network", failure="connect", detail="[Errno 111] Connection refused"),
                 "connect error: [Errno 111] Connection refused", id="network"),
    pytest.param((Failure("timeout"),), P, Reason("network", failure="timeout"), "timeout error", id="network-bare"),
    pytest.param((hop(URL),), P, Reason("redirect-loop", 301, detail=URL),
                 f"redirect loop back to {URL}: treated as 404, full allow", id="loop"),
    pytest.param(tuple(hop(f"/r{i}", 302) for i in range(6)), P, Reason("redirect-limit", 302, limit=5),
                 "more than 5 redirects: treated as 404, full allow", id="limit"),
    pytest.param((Response(307, {}),), P, Reason("redirect-no-location", 307),
                 "307 without a Location: treated as 404, full allow", id="no-location"),
    pytest.param((hop("http://[::1"),), P, Reason("redirect-bad-location", 301),
                 "301 with a malformed Location: treated as 404, full allow", id="bad-location"),
    pytest.param((hop("gopher://x/"),), P, Reason("redirect-bad-scheme", 301),
                 "301 to an unsupported scheme: treated as 404, full allow", id="bad-scheme"),
    pytest.param((Failure("redirect", "no such place"),), P, Reason("redirect-unusable", detail="no such place"),
                 "redirect to an unusable Location (no such place): treated as 404, full allow", id="unusable"),
    pytest.param((Response(503, {}), Response(500, {}), Response(200, {})), Policy(detect_misconfigured_5xx=True),
                 Reason("missing-pages-5xx", 503),
                 "503, but the site answers 5xx for missing pages: treated as 404, full allow", id="F7"),
    pytest.param((Response(503, {}), Response(404, {})), Policy(detect_misconfigured_5xx=True),
                 Reason("server-error", 503), "503: server error", id="F7-not-shown"),
]


@pytest.mark.parametrize(("responses", "policy", "why", "words"), CASES)
def test_each_answer_records_its_reason_as_a_code_with_its_details(responses: tuple[Response | Failure, ...],
                                                                   policy: Policy, why: Reason, words: str) -> None:
    """F2-F8: the entry says why as data; its sentence is the renderer's, word for word."""
    entry = run(*responses, policy=policy)
    assert entry.why == why
    assert entry.reason == words == render(why) == why.sentence()
    assert entry.why.code in CODES and (entry.outcome == "allow") == (why.code in AS_404 | {"no-robots-txt"})


@pytest.mark.parametrize(("responses", "policy", "why", "words"), CASES)
def test_the_fallback_reads_every_sentence_back_to_its_reason(responses: tuple[Response | Failure, ...],
                                                              policy: Policy, why: Reason, words: str) -> None:
    """An entry stored without its reason (by an older version) gets the reason its sentence states."""
    entry = run(*responses, policy=policy)
    assert from_sentence(entry.reason, entry.status, standing=False) == entry.why
    old = Entry(url=entry.url, outcome=entry.outcome, status=entry.status, reason=entry.reason,
                fetched_at=entry.fetched_at, expires_at=entry.expires_at)
    assert old.why == entry.why
    for now in (T0 + 1, T0 + 31 * DAY):  # the standing's own sentence, too
        stand = standing(entry, now, P)
        assert from_sentence(stand.reason, stand.status) == stand.why


def test_standings_say_what_decides_meanwhile() -> None:
    """C2, F5, F6: a standing keeps its entry's code and adds what decides: the attempt itself, the
    last good copy, full disallow while failing, full allow after 30 days."""
    good = run(Response(200, {}, b"x"))
    failed = run(Response(503, {}), cached=good, now=T0 + DAY)
    assert standing(good, T0, P).why == Reason("rules", 200)
    kept = standing(failed, T0 + DAY, P)
    assert kept.why == Reason("server-error", 503, decides="good-copy", good_status=200)
    assert kept.reason == "503: server error; the last good copy (200) decides"
    alone = run(Response(503, {}))
    assert standing(alone, T0, P).why == Reason("server-error", 503, decides="disallow")
    assert standing(alone, T0, P).reason == "503: server error: full disallow"
    late = standing(alone, T0 + 31 * DAY, P)
    assert late.why == Reason("server-error", 503, decides="unreachable", days=30.0)
    assert late.reason == "503: server error; unreachable for over 30 days and no cached copy: full allow"
    assert kept.why.attempt == failed.why == late.why.attempt


def test_a_standing_repeats_the_words_its_entry_was_stored_with() -> None:
    """C2: what an entry was told is what its standing says, even in words this version would not use."""
    entry = Entry(url=URL, outcome="error", status=503, reason="503: the server failed (as worded long ago)",
                  fetched_at=T0, expires_at=T0 + 60, failures=1, failing_since=T0, why=Reason("server-error", 503))
    assert standing(entry, T0, P).reason == "503: the server failed (as worded long ago): full disallow"


def test_a_body_cut_at_the_limit_says_so_when_the_driver_knows_it() -> None:
    """F9: an archive keeps one byte past the limit; ``restated`` records the cut as data and in words."""
    entry = restated(run(Response(200, {}, b"x")), Reason("rules", 200, cut=512_000))
    assert entry.reason == "200: rules from the body (only its first 512,000 bytes count: the rest is ignored)"
    assert from_sentence(entry.reason, 200) == entry.why


@pytest.mark.parametrize(("sentence", "status", "why"), [
    ("200: rules from the body (F2)", 200, Reason("rules", 200)),
    ("404: no robots.txt, full allow (F4)", 404, Reason("no-robots-txt", 404)),
    ("invalid status 999 (F8)", 999, Reason("invalid-status", 999)),
    ("more than 5 redirects: treated as 404, full allow (F3)", 301, Reason("redirect-limit", 301, limit=5)),
    ("other error: not in the archive", 0, Reason("network", failure="other", detail="not in the archive")),
    ("dns error: a sentence that ends (F2)", 0, Reason("network", failure="dns", detail="a sentence that ends (F2)")),
    ("no capture of this robots.txt", 0, Reason("no-capture")),
    ("no robots.txt source for this URL", 0, Reason("no-source")),
    ("not an http, https or ftp URL", 0, Reason("no-robots-url")),
    ("invalid URL: the url cell is empty", 0, Reason("no-url")),
])
def test_the_fallback_reads_the_sentences_of_earlier_versions(sentence: str, status: int, why: Reason) -> None:
    """The earliest versions added a requirement id to a reason; batch engines wrote their own for
    what they know nothing of. Both read back to their codes."""
    assert from_sentence(sentence, status) == why


@pytest.mark.parametrize("sentence", ["", "something else entirely", "200: rules from the body, mostly",
                                      "301 without a Location", "more than x redirects: treated as 404, full allow",
                                      "invalid status ²", "invalid status ٣", "۲00: rules from the body",
                                      "503: server error (only its first 9 bytes count: the rest is ignored)"])
def test_a_sentence_the_fallback_does_not_know_is_unknown_and_says_itself(sentence: str) -> None:
    """Nothing is guessed: an unknown sentence is code "unknown", and says what it said."""
    why = from_sentence(sentence, 200)
    assert why.code == "unknown" and why.detail == sentence and why.sentence() == sentence


def test_reasons_travel_as_fields_and_refuse_what_they_are_not() -> None:
    """Stores keep a reason as the fields that differ from their defaults, and read nothing else back."""
    why = Reason("redirect-loop", 301, detail=URL)
    assert why.to_fields() == {"code": "redirect-loop", "status": 301, "detail": URL}
    assert from_fields(why.to_fields()) == why
    for bad in ({"code": "no-such-code"}, {"code": "rules", "status": "200"}, {"code": "rules", "status": True},
                {"code": "rules", "color": 1}, {"code": "rules", "decides": "someone"}, {}):
        with pytest.raises(ValueError):
            from_fields(bad)


@pytest.mark.parametrize(("why", "words"), [
    (Reason("no-capture"), "no capture of this robots.txt"),
    (Reason("no-source"), "no robots.txt source for this URL"),
    (Reason("url-refused", detail="'ftp://x' cannot be fetched"), "'ftp://x' cannot be fetched"),
    (Reason("no-robots-url"), "no robots.txt for this URL (not an absolute http, https or ftp URL)"),
    (Reason("no-url"), "invalid URL: the url cell is empty"),
])
def test_what_governs_when_nothing_is_known_has_a_code_too(why: Reason, words: str) -> None:
    """Batch rows with nothing known of their robots.txt say why by code as well, in the words they always had."""
    assert why.sentence() == words
    assert from_sentence(words).code == (why.code if why.code != "url-refused" else "unknown")
