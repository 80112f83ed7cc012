"""The policy's decisions about time, at their boundaries (C1, C2, C4, F5, F6).

The policy is the one place that compares an entry's times with ``now``: :func:`fresh` (use the
cached entry or fetch), :func:`flips_at` (the F6 switch from full disallow to full allow),
:func:`age` (how old the deciding copy is) and :attr:`Standing.until` (how long what an entry
means holds; the client keeps this number for its parsed copies). Each table pins one of them
at ``now == boundary``, one second either side, and the next float after the boundary.
"""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotrules.core.policy import DAY, Entry, Fetch, Policy, age, begin, flips_at, fresh, standing
from tests.hypo import examples

URL = "https://example.com/robots.txt"
T0 = 1_700_000_000.0
P = Policy()
RULES = b"user-agent: *\ndisallow: /x\n"
MONTH = P.unreachable_after  # 30 days


def after(t: float) -> float:
    """The first instant after ``t`` (the next float)."""
    return math.nextafter(t, math.inf)


def good(status: int = 200, *, at: float = T0, expires_at: float = T0 + DAY) -> Entry:
    """A good answer received at ``at``: rules (2xx) or no robots.txt (4xx)."""
    body = RULES if 200 <= status < 300 else b""
    outcome = "rules" if body else "allow"
    return Entry(URL, outcome, status, f"{status}", at, expires_at, body, status, at)


def failing(*, since: float = T0, fetched_at: float = T0, expires_at: float = T0 + 60,
            copy: Entry | None = None, failures: int = 1) -> Entry:
    """An error entry: failing since ``since``, carrying ``copy``'s good copy if given (C2)."""
    return Entry(URL, "error", 503, "503: server error", fetched_at, expires_at,
                 copy.body if copy else b"", copy.good_status if copy else 0, copy.good_at if copy else None,
                 failures, since)


KINDS_OF_ENTRY = {
    "2xx rules": good(200),
    "404 allow": good(404),
    "503 without a copy": failing(expires_at=T0 + DAY),
    "503 with a good copy": failing(expires_at=T0 + DAY, copy=good(200, at=T0 - DAY)),
}


# -- C1, C4, F5: fresh, or fetch again ------------------------------------------------------------------------

@pytest.mark.parametrize("kind", list(KINDS_OF_ENTRY))
@pytest.mark.parametrize(("offset", "is_fresh"), [
    (-1.0, True),  # one second before expires_at
    (0.0, False),  # now == expires_at: due
    (1.0, False),  # one second after
])
def test_an_entry_is_fresh_strictly_before_expires_at_and_begin_fetches_from_then_on(kind, offset, is_fresh):
    """C1, C4, F5: the cached entry is used while now < expires_at; from expires_at on, begin() fetches."""
    entry = KINDS_OF_ENTRY[kind]
    now = entry.expires_at + offset
    assert fresh(entry, now) is is_fresh
    step = begin(URL, entry, now, P)
    if is_fresh:
        assert step is entry
    else:
        assert isinstance(step, Fetch) and step.cached is entry and step.url == URL  # C2: the copy travels along


@pytest.mark.parametrize("kind", list(KINDS_OF_ENTRY))
def test_a_forced_begin_fetches_even_a_fresh_entry(kind):
    """C1: an explicit refresh fetches whatever the cache holds, and still carries the cached copy (C2)."""
    entry = KINDS_OF_ENTRY[kind]
    assert fresh(entry, T0)
    step = begin(URL, entry, T0, P, force=True)
    assert isinstance(step, Fetch) and step.cached is entry


def test_the_last_instant_before_expires_at_is_still_fresh():
    """C1: freshness ends at expires_at itself, not a second or a microsecond earlier."""
    entry = good(200)
    assert fresh(entry, math.nextafter(entry.expires_at, -math.inf))
    assert not fresh(entry, entry.expires_at)


# -- F6: failing for 30 days ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("now", "kind"), [
    (T0, "disallow"),
    (T0 + MONTH - 1, "disallow"),  # one second before 30 days
    (T0 + MONTH, "disallow"),  # failing for exactly 30 days: not "more than 30 days" yet
    (after(T0 + MONTH), "allow"),  # the first instant after
    (T0 + MONTH + 1, "allow"),  # one second after
    (T0 + 40 * DAY, "allow"),
])
def test_without_a_copy_the_flip_to_full_allow_comes_just_after_exactly_30_days_of_failure(now, kind):
    """F6: unreachable for more than 30 days and nothing cached: full allow; until then full disallow (F5)."""
    entry = failing(fetched_at=T0 + 20 * DAY, expires_at=T0 + 50 * DAY, failures=9)
    assert flips_at(entry, P) == T0 + MONTH  # counted from failing_since, not from the latest attempt
    assert standing(entry, now, P).kind == kind


@pytest.mark.parametrize("now", [T0 + MONTH - 1, T0 + MONTH, after(T0 + MONTH), T0 + MONTH + 1, T0 + 400 * DAY])
@pytest.mark.parametrize("status", [200, 404])
def test_with_a_good_copy_there_is_no_flip_and_the_copy_decides(now, status):
    """F6, C2: the last good copy decides however long the outage; flips_at says there is no flip."""
    entry = failing(expires_at=T0 + 500 * DAY, copy=good(status, at=T0 - DAY), failures=50)
    assert flips_at(entry, P) is None
    assert standing(entry, now, P).kind == ("rules" if status == 200 else "allow")


@pytest.mark.parametrize(("setting", "now", "kind"), [
    (3600.0, T0 + 3599, "disallow"),
    (3600.0, T0 + 3600, "disallow"),
    (3600.0, after(T0 + 3600), "allow"),
    (3600.0, T0 + 3601, "allow"),
])
def test_the_flip_follows_the_unreachable_after_setting(setting, now, kind):
    """F6: 30 days is Google's figure; the boundary moves with Policy(unreachable_after=...)."""
    policy = Policy(unreachable_after=setting)
    entry = failing(expires_at=T0 + DAY)
    assert flips_at(entry, policy) == T0 + setting
    assert standing(entry, now, policy).kind == kind


def test_an_entry_recorded_without_failing_since_counts_the_outage_from_fetched_at():
    """F6: an error entry always has failing_since; one without it starts the outage at fetched_at."""
    entry = Entry(URL, "error", 500, "500", T0, T0 + 60, failures=1)
    assert flips_at(entry, P) == T0 + MONTH
    assert standing(entry, T0 + MONTH, P).kind == "disallow"
    assert standing(entry, after(T0 + MONTH), P).kind == "allow"


# -- Standing.until: how long what an entry means holds ------------------------------------------------------------

@pytest.mark.parametrize(("entry", "now", "until"), [
    pytest.param(good(200), T0, T0 + DAY, id="rules: until expires_at"),
    pytest.param(good(404), T0 + 5, T0 + DAY, id="404 allow: until expires_at"),
    pytest.param(failing(expires_at=T0 + 60, copy=good(200, at=T0 - DAY)), T0, T0 + 60, id="failing with a copy: until the retry"),
    pytest.param(failing(expires_at=T0 + 60), T0, T0 + 60, id="disallow, retry before the flip: until the retry"),
    pytest.param(failing(fetched_at=T0 + MONTH - 10, expires_at=T0 + MONTH + 110), T0 + MONTH - 10, after(T0 + MONTH),
                 id="disallow, flip before the retry: until just after 30 days"),
    pytest.param(failing(fetched_at=T0 + MONTH - 10, expires_at=T0 + MONTH + 110), T0 + MONTH, after(T0 + MONTH),
                 id="disallow at exactly 30 days: until the next instant"),
    pytest.param(failing(fetched_at=T0 + MONTH - 10, expires_at=T0 + MONTH + 110), T0 + MONTH + 1, T0 + MONTH + 110,
                 id="flipped to allow: until the retry"),
    pytest.param(failing(fetched_at=T0 + MONTH - 10, expires_at=T0 + MONTH), T0 + MONTH - 10, T0 + MONTH,
                 id="retry due exactly at the flip: the retry comes first"),
])
def test_standing_until_is_the_expiry_or_the_instant_after_the_f6_flip_whichever_is_first(entry, now, until):
    """C1, F5, F6: what an entry means holds while now < until; the client keeps this number (no recomputing)."""
    assert standing(entry, now, P).until == until


@pytest.mark.parametrize("entry", [
    pytest.param(failing(fetched_at=T0 + MONTH - 10, expires_at=T0 + MONTH + 110), id="flip before the retry"),
    pytest.param(failing(expires_at=T0 + 60), id="retry before the flip"),
    pytest.param(good(200), id="rules"),
])
def test_the_standing_is_the_same_up_to_until_and_at_until_it_flips_or_the_entry_is_due(entry):
    """C1, F6: nothing the standing says changes before until; at until the kind changes or a fetch is due."""
    now = entry.fetched_at
    first = standing(entry, now, P)
    for t in (now, (now + first.until) / 2, math.nextafter(first.until, -math.inf)):
        assert standing(entry, t, P)[:4] == first[:4]
    assert not fresh(entry, first.until) or standing(entry, first.until, P).kind != first.kind


@settings(max_examples=examples(200), deadline=None)
@given(
    good_at=st.one_of(st.none(), st.floats(T0 - 10 * DAY, T0)),
    since=st.floats(T0 - 40 * DAY, T0),
    expires_in=st.floats(0, 10 * DAY),
    later=st.floats(0, 1),
)
def test_until_never_outlives_the_standing_or_the_entry(good_at, since, expires_in, later):
    """C1, F6: for any entry, the standing at any instant before until is the standing at now."""
    copy = good(200, at=good_at) if good_at is not None else None
    entry = failing(since=since, fetched_at=T0, expires_at=T0 + expires_in, copy=copy)
    first = standing(entry, T0, P)
    assert first.until <= entry.expires_at
    if first.until > T0:
        t = T0 + later * (first.until - T0)
        if t < first.until:
            assert standing(entry, t, P)[:4] == first[:4]


# -- age of the deciding copy -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("entry", "now", "expected"), [
    pytest.param(good(200), T0, 0.0, id="just fetched"),
    pytest.param(good(200), T0 + 3600, 3600.0, id="an hour later"),
    pytest.param(good(200), T0 + DAY - 1, DAY - 1, id="one second before expiry"),
    pytest.param(good(200), T0 - 5, 0.0, id="clock went backwards: never negative"),
    pytest.param(good(404), T0 + 60, 60.0, id="a cached 404 has an age too"),
    pytest.param(failing(copy=good(200, at=T0 - DAY)), T0 + 30, DAY + 30, id="failing: the good copy's age (C2)"),
    pytest.param(failing(), T0 + 30, 0.0, id="full disallow: no copy, age 0"),
    pytest.param(failing(), T0 + MONTH + 1, 0.0, id="F6 full allow: no copy, age 0"),
])
def test_the_age_is_that_of_the_deciding_copy(entry, now, expected):
    """C1, C2, F6: age is seconds since the good copy was received; 0 when no copy decides."""
    assert age(entry, now) == expected
    assert standing(entry, now, P).age == expected  # standing reports the same number
