"""Properties of the fetch policy over any sequence of answers and times (F3, F5, F6, C1, C2, C4).

Hypothesis drives attempts with arbitrary statuses, headers, redirects and failures; the
invariants must hold for every one of them.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from robotrules.core.policy import Entry, Failure, Fetch, Policy, Response, begin, standing
from tests.hypo import examples

URL = "http://example.com/robots.txt"
T0 = 1_700_000_000.0

header_values = st.one_of(st.text(max_size=30), st.sampled_from(["max-age=0", "max-age=60", "no-store", "max-age=9999999999", "120", "Wed, 21 Oct 2015 07:28:00 GMT"]))
locations = st.one_of(st.just("/robots.txt"), st.sampled_from(["/a", "/b", "http://other.example/robots.txt", "ftp://f.example/r", "javascript:x", ""]), st.text(max_size=20))
answers = st.one_of(
    st.builds(Failure, st.sampled_from(["dns", "connect", "timeout", "reset", "protocol", "tls", "other"])),
    st.builds(
        lambda status, cc, ra, loc, body: Response(status, {"cache-control": cc, "retry-after": ra, "location": loc}, body),
        st.one_of(st.integers(-5, 1000), st.sampled_from([200, 301, 302, 404, 429, 500, 503])),
        header_values, header_values, locations, st.binary(max_size=50),
    ),
)
policies = st.builds(Policy, max_redirects=st.integers(0, 6), detect_misconfigured_5xx=st.booleans(),
                     all_4xx_alike=st.booleans())


@settings(max_examples=examples(300), deadline=None)
@given(policy=policies, attempts=st.lists(st.tuples(st.floats(0, 5 * 86400), st.lists(answers, min_size=1, max_size=12)), max_size=8))
def test_attempts_always_end_and_a_good_copy_survives_every_failure(policy, attempts):
    """F3: every attempt ends within max_redirects + 3 requests; C2: errors keep the last good copy."""
    entry: Entry | None = None
    now = T0
    for wait, script in attempts:
        now += wait
        step = begin(URL, entry, now, policy, force=True)
        requests = 0
        for answer in script * (policy.max_redirects + 3):  # repeat the script: loops must still end
            if not isinstance(step, Fetch):
                break
            requests += 1
            step = step.apply(answer, now)
        if not isinstance(step, Entry):
            continue  # the script ran out (fewer answers than the policy wanted): not a policy fault
        assert requests <= policy.max_redirects + 3
        previous, entry = entry, step
        assert entry.url == URL and entry.fetched_at == now
        assert now <= entry.expires_at <= now + max(policy.max_ttl, policy.max_retry_interval, policy.retry_after_error)
        if entry.outcome == "error":
            assert entry.failures == (previous.failures if previous else 0) + 1
            if previous is not None:  # C2: the last good copy is carried over untouched
                assert (entry.body, entry.good_status, entry.good_at) == (previous.body, previous.good_status, previous.good_at)
        else:
            assert (entry.failures, entry.failing_since, entry.good_at) == (0, None, now)
        stand = standing(entry, now, policy)
        if entry.good_at is not None:
            assert stand.kind in ("rules", "allow") and stand.status == entry.good_status
        else:
            assert stand.kind in ("disallow", "allow")
