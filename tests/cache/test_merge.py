"""policy.merge: the one rule by which every store combines a written entry with the stored one.

Issue #8 item 3: a write must never replace an entry holding a good copy with one that does not.
The rule is pure and written once (``robotrules.core.policy.merge``); the stores apply it
atomically (``test_contract.py``). Here it is pinned as a table and as properties, and checked
against how ``standing()`` reads the result (C2: the good copy decides while refreshes fail).
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from robotrules.core.policy import Entry, Policy, merge, standing

URL = "https://example.com/robots.txt"
T = 1_700_000_000.0
POLICY = Policy()


def good(at: float, body: bytes = b"user-agent: *\ndisallow: /private\n", status: int = 200) -> Entry:
    """A good answer as the policy makes it (F2/F4): good_at == fetched_at, no failures."""
    return Entry(URL, "rules" if status < 300 else "allow", status, f"{status}: good", at, at + 86_400, body,
                 status, at, final_url=f"https://www.example.com/robots.txt?{at}")


def error(at: float, carried: Entry | None = None, failures: int = 1) -> Entry:
    """A failed refresh as the policy makes it (F5): it carries the copy it was given, if any (C2)."""
    return Entry(URL, "error", 503, "503: server error", at, at + 300,
                 carried.body if carried else b"", carried.good_status if carried else 0,
                 carried.good_at if carried else None, failures, max(0.0, at - 300 * (failures - 1)),
                 carried.final_url if carried else "")


def test_merge_over_nothing_is_the_written_entry() -> None:
    """C1: the first write of a key stores exactly what was written."""
    entry = good(T)
    assert merge(None, entry) is entry


def test_failure_written_after_a_good_copy_keeps_the_good_copy() -> None:
    """C2, #8 item 3: a failing refresh that knew no copy (another process, an empty cache) does not
    erase the stored one: its attempt (status, back-off, streak) is kept with the stored copy,
    and standing() lets the copy decide."""
    stored = good(T)
    failed = error(T + 90_000)
    merged = merge(stored, failed)
    assert (merged.outcome, merged.status, merged.reason) == ("error", 503, "503: server error")
    assert (merged.fetched_at, merged.expires_at, merged.failures, merged.failing_since) == (
        failed.fetched_at, failed.expires_at, failed.failures, failed.failing_since)
    assert (merged.body, merged.good_status, merged.good_at, merged.final_url) == (
        stored.body, stored.good_status, stored.good_at, stored.final_url)
    decides = standing(merged, T + 90_001, POLICY)
    assert (decides.kind, decides.body, decides.status) == ("rules", stored.body, 200)
    assert (decides.why.decides, decides.why.good_status) == ("good-copy", 200)
    assert decides.until == failed.expires_at  # retried on the failure's back-off (F5)


def test_older_attempt_written_last_does_not_replace_the_newer_one() -> None:
    """#8 item 3: a slow writer finishing last does not roll the entry back to its older attempt."""
    newer = good(T + 100, b"new rules")
    slow = error(T + 50, carried=good(T))
    assert merge(newer, slow) == newer


def test_good_copy_finishing_last_after_a_newer_failure_is_installed() -> None:
    """C2: a success whose write lands after a newer failure still brings its copy; the failure
    (newer) stays the latest attempt, so its back-off decides when to retry."""
    failed = error(T + 100)  # no copy known
    late = good(T + 50, b"late rules")
    merged = merge(failed, late)
    assert (merged.outcome, merged.fetched_at, merged.failures) == ("error", T + 100, 1)
    assert (merged.body, merged.good_at, merged.final_url) == (b"late rules", T + 50, late.final_url)
    assert standing(merged, T + 101, POLICY).kind == "rules"


def test_newer_good_copy_replaces_an_older_one() -> None:
    """C1: a refresh with a new body replaces the old copy (a 404 after a 200 included: F4)."""
    assert merge(good(T, b"old"), good(T + 10, b"new")) == good(T + 10, b"new")
    gone = good(T + 10, b"", status=404)
    assert merge(good(T), gone) == gone


def test_failure_carrying_an_older_copy_does_not_bring_it_back() -> None:
    """C2, #8 item 3: a failure that started from an older copy keeps the newer stored copy."""
    older, newer = good(T, b"older"), good(T + 10, b"newer")
    merged = merge(newer, error(T + 20, carried=older))
    assert (merged.body, merged.good_at, merged.outcome) == (b"newer", T + 10, "error")


def test_ties_go_to_the_written_entry() -> None:
    """#8 item 3: equal fetched_at and good_at: the entry written now wins."""
    a, b = good(T, b"a"), good(T, b"b")
    assert merge(a, b) == b
    assert merge(b, a) == a


def test_stored_entry_of_another_url_counts_as_absent() -> None:
    """C3, #8 item 4: an entry is never combined with another robots.txt URL's."""
    other = Entry("https://other.example/robots.txt", "rules", 200, "200", T + 5, T + 9, b"other", 200, T + 5)
    written = error(T)
    assert merge(other, written) is written


_times = st.floats(0, 2e9, allow_nan=False)


@st.composite
def _entries(draw: st.DrawFn) -> Entry:
    at = draw(_times)
    if draw(st.booleans()):
        status = draw(st.sampled_from([200, 204, 404, 410]))
        return good(at, draw(st.binary(max_size=8)), status)
    carried = good(draw(st.floats(0, at)), draw(st.binary(max_size=8))) if draw(st.booleans()) else None
    return error(at, carried, draw(st.integers(1, 5)))


@given(stored=_entries(), new=_entries())
def test_merge_keeps_the_newest_good_copy_and_the_newest_attempt(stored: Entry, new: Entry) -> None:
    """C2, #8 item 3 (hypothesis): the result holds the newer good copy (a copy beats none) and the
    newer attempt; if either held a copy, a copy decides in standing()."""
    merged = merge(stored, new)
    copies = [e for e in (stored, new) if e.good_at is not None]
    if copies:
        best = max(copies, key=lambda e: e.good_at or 0.0)
        assert merged.good_at == best.good_at
        assert standing(merged, merged.fetched_at, POLICY).kind in ("rules", "allow")
    else:
        assert merged.good_at is None
    assert merged.fetched_at == max(stored.fetched_at, new.fetched_at)
    assert merge(merged, new) == merged  # writing the same entry again changes nothing


@given(a=_entries(), b=_entries(), c=_entries())
def test_write_order_does_not_matter_when_times_differ(a: Entry, b: Entry, c: Entry) -> None:
    """C3 (hypothesis): processes writing in any order converge on the same entry, as long as no
    two attempts or copies share a timestamp (ties go to the later write by design)."""
    times = [e.fetched_at for e in (a, b, c)]
    goods = [e.good_at for e in (a, b, c) if e.good_at is not None]
    if len(set(times)) < 3 or len(set(goods)) < len(goods):
        return
    results = {merge(merge(merge(None, x), y), z) for x, y, z in ((a, b, c), (c, b, a), (b, c, a), (a, c, b))}
    assert len(results) == 1
