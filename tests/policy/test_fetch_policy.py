"""The fetch and cache policy as tables: (status, headers, body, now) -> entry and standing.

No server and no clock: every row is a pure function call (DESIGN 3). Each test names the
SPEC id (F1-F9, C1-C4) it pins; the adapters are tested against real servers in tests/fetch.
"""

from __future__ import annotations

import pytest

from robotrules.core.policy import DAY, Entry, Failure, Fetch, Policy, Response, begin, standing

URL = "https://example.com/robots.txt"
T0 = 1_700_000_000.0
P = Policy()


def run(responses, *, policy=P, cached=None, now=T0):
    """Drive one attempt through ``responses`` (a list), checking each request's URL when given as a pair."""
    step = begin(URL, cached, now, policy, force=True)
    requested = []
    for result in responses:
        assert isinstance(step, Fetch), f"attempt ended early with {step}"
        requested.append((step.url, step.purpose))
        step = step.apply(result, now)
    assert isinstance(step, Entry), f"attempt wants more: {step}"
    return step, requested


def ok(body=b"user-agent: *\ndisallow: /x\n", headers=None, status=200):
    return Response(status, headers or {}, body)


# -- F1, C1: when to fetch ---------------------------------------------------------------------

def test_no_cached_copy_means_one_unconditional_get_of_the_robots_url():
    """F1: the first step is a GET of the robots.txt URL itself, with no validators to send."""
    step = begin(URL, None, T0, P)
    assert isinstance(step, Fetch) and step.url == URL and step.purpose == "robots"
    assert step.limit == 512_000


def test_a_fresh_cached_entry_is_used_without_fetching_and_an_expired_one_is_refetched():
    """C1: a cached response lives 24 hours; after that the next check fetches again."""
    entry, _ = run([ok()])
    assert entry.expires_at == T0 + DAY
    assert begin(URL, entry, T0 + DAY - 1, P) is entry
    assert isinstance(begin(URL, entry, T0 + DAY, P), Fetch)
    assert isinstance(begin(URL, entry, T0, P, force=True), Fetch)


# -- F2: 2xx ------------------------------------------------------------------------------------

@pytest.mark.parametrize("status", [200, 201, 203, 204, 206, 299])
def test_2xx_is_conditional_allow_from_the_body(status):
    """F2: any 2xx means the body is the robots.txt and its rules decide."""
    body = b"" if status == 204 else b"user-agent: *\ndisallow: /x\n"
    entry, _ = run([ok(body, status=status)])
    assert (entry.outcome, entry.status, entry.body, entry.good_status, entry.good_at) == ("rules", status, body, status, T0)
    assert standing(entry, T0, P).kind == "rules"


def test_html_served_as_robots_txt_is_parsed_as_is_and_meta_refresh_is_not_followed():
    """F3: "logical" redirects in a 2xx body (meta refresh, JavaScript) are not followed."""
    html = b'<html><head><meta http-equiv="refresh" content="0; url=/other.txt"></head></html>'
    entry, requested = run([ok(html, {"content-type": "text/html"})])
    assert len(requested) == 1 and entry.outcome == "rules" and entry.body == html


# -- F9: size limit -------------------------------------------------------------------------------

def test_body_past_the_limit_is_cut_to_512000_bytes():
    """F9: only the first 512,000 bytes count."""
    entry, _ = run([ok(b"a" * 600_000)])
    assert len(entry.body) == 512_000


def test_size_limit_is_a_policy_setting():
    """F9: the limit is per crawler; the fetcher reads only what the policy wants."""
    policy = Policy(size_limit=1000)
    assert begin(URL, None, T0, policy).limit == 1000  # type: ignore[union-attr]
    entry, _ = run([ok(b"b" * 5000)], policy=policy)
    assert entry.body == b"b" * 1000


# -- F3: redirects ------------------------------------------------------------------------------------

def redirect(to, status=301):
    return Response(status, {"location": to})


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
@pytest.mark.parametrize("hops", [1, 2, 3, 4, 5])
def test_redirect_chains_of_up_to_five_hops_are_followed(status, hops):
    """F3: at least five hops are followed; the final 2xx body decides."""
    chain = [redirect(f"/r{i}", status) for i in range(1, hops + 1)] + [ok()]
    entry, requested = run(chain)
    assert [url for url, _ in requested] == [URL] + [f"https://example.com/r{i}" for i in range(1, hops + 1)]
    assert entry.outcome == "rules" and entry.final_url == f"https://example.com/r{hops}"


def test_a_sixth_redirect_is_treated_as_404_full_allow():
    """F3, F4: past five hops the fetch stops and counts as a 404."""
    entry, requested = run([redirect(f"/r{i}") for i in range(1, 7)])
    assert len(requested) == 6
    assert (entry.outcome, entry.status, entry.why.code, entry.why.limit) == ("allow", 301, "redirect-limit", 5)
    assert standing(entry, T0, P).kind == "allow"


def test_the_redirect_limit_is_configurable():
    """F3: "at least five" - a crawler may follow more."""
    entry, _ = run([redirect(f"/r{i}") for i in range(1, 8)] + [ok()], policy=Policy(max_redirects=7))
    assert entry.outcome == "rules"
    entry, _ = run([redirect("/r1"), redirect("/r2")], policy=Policy(max_redirects=1))
    assert entry.outcome == "allow"


@pytest.mark.parametrize("loop", [
    [redirect(URL)],
    [redirect("/a"), redirect("/robots.txt")],
    [redirect("/a"), redirect("/b"), redirect("/a")],
])
def test_redirect_loops_stop_at_once_and_count_as_404(loop):
    """F3: a loop is detected when it revisits a URL, not after running out of hops."""
    entry, requested = run(loop)
    assert len(requested) == len(loop)
    assert (entry.outcome, entry.why.code) == ("allow", "redirect-loop")


def test_cross_host_redirects_are_followed_and_cached_under_the_original_url():
    """F3, C3: the target may be on another host; the entry is keyed by the robots.txt URL."""
    entry, requested = run([redirect("https://cdn.example.net/site/robots.txt", 302), ok()])
    assert requested[1] == ("https://cdn.example.net/site/robots.txt", "robots")
    assert entry.url == URL and entry.final_url == "https://cdn.example.net/site/robots.txt"


@pytest.mark.parametrize(("response", "why"), [
    (Response(301, {}), "redirect-no-location"),
    (Response(302, {"location": "  "}), "redirect-no-location"),
    (Response(301, {"location": "javascript:alert(1)"}), "redirect-bad-scheme"),
    (Response(304, {}), "redirect-no-location"),
])
def test_unusable_redirects_end_the_chain_as_a_404(response, why):
    """F3: a redirect that cannot be followed is treated like one too many."""
    entry, _ = run([response])
    assert (entry.outcome, entry.why.code) == ("allow", why)


# -- F4: 4xx ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("status", [400, 401, 403, 404, 405, 410, 418, 451, 499])
def test_4xx_is_full_allow(status):
    """F4: no valid robots.txt (401 and 403 included): full allow, cached like a good answer."""
    entry, _ = run([Response(status, {})])
    assert (entry.outcome, entry.good_status, entry.failures, entry.expires_at) == ("allow", status, 0, T0 + DAY)
    assert standing(entry, T0, P).kind == "allow"


@pytest.mark.google_only
def test_429_is_treated_like_a_server_error_by_default():
    """F4, F5: Google today treats 429 Too Many Requests as a 5xx (full disallow, retried)."""
    entry, _ = run([Response(429, {})])
    assert entry.outcome == "error" and standing(entry, T0, P).kind == "disallow"


def test_all_4xx_alike_restores_the_seeds_rule_for_429():
    """F4: the seeds' rule, every 4xx including 429 is full allow, behind a policy switch."""
    entry, _ = run([Response(429, {})], policy=Policy(all_4xx_alike=True))
    assert entry.outcome == "allow"


# -- F5, F8: server errors and failures ----------------------------------------------------------------------

@pytest.mark.parametrize("result", [
    Response(500, {}), Response(502, {}), Response(503, {}), Response(504, {}), Response(599, {}),
    Failure("dns", "no such host"), Failure("connect"), Failure("timeout"), Failure("reset"),
    Failure("protocol", "truncated body"), Failure("protocol", "bad chunk"), Failure("tls"),
])
def test_5xx_and_network_failures_are_full_disallow_without_a_cached_copy(result):
    """F5, F8: a server error or failed request with nothing cached means crawl nothing."""
    entry, _ = run([result])
    assert (entry.outcome, entry.failures, entry.failing_since, entry.good_at) == ("error", 1, T0, None)
    assert standing(entry, T0, P).kind == "disallow"
    if isinstance(result, Failure):
        assert (entry.status, entry.why.code, entry.why.failure, entry.why.detail) == (0, "network", result.kind,
                                                                                      result.detail)


@pytest.mark.parametrize("status", [0, 99, 600, 999])
def test_a_status_outside_100_to_599_is_an_invalid_response(status):
    """F8: invalid responses are handled as server errors."""
    entry, _ = run([Response(status, {})])
    assert (entry.outcome, entry.why.code, entry.why.status) == ("error", "invalid-status", status)


def test_failures_are_retried_with_a_doubling_backoff_up_to_a_cap():
    """F5: retry until a non-5xx code, backing off."""
    policy = Policy(retry_after_error=100, max_retry_interval=1000)
    entry, now, delays = None, T0, []
    for _ in range(6):
        entry, _ = run([Response(500, {})], policy=policy, cached=entry, now=now)
        delays.append(entry.expires_at - now)
        now = entry.expires_at
    assert delays == [100, 200, 400, 800, 1000, 1000]
    assert entry.failures == 6 and entry.failing_since == T0


def test_503_is_retried_sooner_than_other_server_errors():
    """F5: 503 leads to fairly frequent retries."""
    e503, _ = run([Response(503, {})])
    e500, _ = run([Response(500, {})])
    assert e503.expires_at - T0 < e500.expires_at - T0


@pytest.mark.parametrize(("value", "delay"), [("120", 120), ("5", 60), ("999999", 3600),
                                          ("Tue, 14 Nov 2023 22:15:20 GMT", 120),
                                          ("Wed, 15 Nov 2023 00:13:20 GMT", 3600), ("soon", 60)])
def test_retry_after_is_honoured_within_the_bounds(value, delay):
    """F5: a 503's Retry-After says when to come back; clamped to [min_ttl, max_retry_interval]."""
    entry, _ = run([Response(503, {"retry-after": value})])
    assert entry.expires_at - T0 == delay


# -- F6, C2: long outages -----------------------------------------------------------------------------------

def test_a_failed_refresh_keeps_the_good_copy_deciding():
    """C2: a timeout or 5xx on refresh does not throw away the cached robots.txt."""
    good, _ = run([ok(b"user-agent: *\ndisallow: /private\n")])
    failed, _ = run([Failure("timeout")], cached=good, now=T0 + DAY)
    assert failed.outcome == "error" and failed.body == good.body and failed.good_at == T0
    stand = standing(failed, T0 + DAY, P)
    assert (stand.kind, stand.body, stand.status, stand.age) == ("rules", good.body, 200, DAY)
    assert (stand.why.decides, stand.why.good_status) == ("good-copy", 200)


def test_a_cached_404_also_survives_failed_refreshes():
    """C2: the last good answer may be "no robots.txt"; it keeps deciding (full allow)."""
    gone, _ = run([Response(404, {})])
    failed, _ = run([Response(500, {})], cached=gone, now=T0 + DAY)
    assert standing(failed, T0 + 40 * DAY, P).kind == "allow"


def test_without_a_cached_copy_an_outage_is_full_disallow_for_30_days_then_full_allow():
    """F6: unreachable for more than 30 days and nothing cached: assume no restrictions."""
    entry, now = None, T0
    kinds = {}
    while now <= T0 + 40 * DAY:
        entry, _ = run([Response(503, {})], cached=entry, now=now)
        kinds[now] = standing(entry, now, P).kind
        now = entry.expires_at
    assert all(kind == "disallow" for t, kind in kinds.items() if t - T0 <= 30 * DAY)
    assert all(kind == "allow" for t, kind in kinds.items() if t - T0 > 30 * DAY)
    assert standing(entry, T0 + 30 * DAY, P).kind == "disallow"
    assert standing(entry, T0 + 30 * DAY + 1, P).kind == "allow"


def test_the_unreachable_period_is_a_policy_setting():
    """F6: 30 days is Google's figure; the switch-over follows the setting."""
    entry, _ = run([Failure("dns")], policy=Policy(unreachable_after=3600))
    assert standing(entry, T0 + 3600, Policy(unreachable_after=3600)).kind == "disallow"
    assert standing(entry, T0 + 3601, Policy(unreachable_after=3600)).kind == "allow"


def test_with_a_cached_copy_it_decides_through_a_40_day_outage_and_success_replaces_it():
    """F6, C2: the last cached copy is used however long the outage; the first success replaces it."""
    good, _ = run([ok(b"user-agent: *\ndisallow: /old\n")])
    entry, now = good, T0 + DAY
    while now <= T0 + 40 * DAY:
        entry, _ = run([Failure("connect")], cached=entry, now=now)
        assert standing(entry, now, P).body == good.body
        now = entry.expires_at
    fresh, _ = run([ok(b"user-agent: *\ndisallow: /new\n")], cached=entry, now=now)
    assert (fresh.failures, fresh.failing_since, fresh.body) == (0, None, b"user-agent: *\ndisallow: /new\n")


def test_a_success_ends_the_failure_streak():
    """F5: retry until a non-5xx code; then the normal lifetime applies again."""
    failed, _ = run([Response(500, {})])
    fixed, _ = run([Response(404, {})], cached=failed, now=T0 + 600)
    assert (fixed.outcome, fixed.failures, fixed.failing_since, fixed.expires_at) == ("allow", 0, None, T0 + 600 + DAY)


# -- F7: misconfigured 5xx (opt-in) ----------------------------------------------------------------------------

F7 = Policy(detect_misconfigured_5xx=True)


@pytest.mark.google_only
def test_5xx_for_a_path_that_cannot_exist_with_a_working_home_page_is_treated_as_404():
    """F7: robots.txt 5xx, a made-up path 5xx, the home page 2xx: the site answers 5xx for missing pages."""
    entry, requested = run([Response(500, {}), Response(500, {}), ok(b"<html>home</html>")], policy=F7)
    assert [purpose for _, purpose in requested] == ["robots", "probe-missing", "probe-home"]
    assert requested[1][0].startswith("https://example.com/robotrules-probe-") and requested[2][0] == "https://example.com/"
    assert (entry.outcome, entry.status, entry.why.code) == ("allow", 500, "missing-pages-5xx")


@pytest.mark.parametrize(("probe", "home"), [
    (Response(404, {}), None),  # the site 404s properly: the 5xx is real
    (Failure("timeout"), None),
    (Response(500, {}), Response(500, {})),  # the whole site is down
    (Response(502, {}), Failure("reset")),
])
def test_f7_keeps_the_5xx_when_the_site_is_not_shown_misconfigured(probe, home):
    """F7: only the precise pattern (made-up path 5xx, home 2xx) turns a 5xx into a 404."""
    responses = [Response(503, {}), probe] + ([home] if home is not None else [])
    entry, _ = run(responses, policy=F7)
    assert entry.outcome == "error" and entry.status == 503
    assert entry.expires_at - T0 == P.retry_after_503  # still retried as a 503


def test_f7_is_off_by_default():
    """F7 is opt-in: by default one request, and the 5xx stands."""
    entry, requested = run([Response(500, {})])
    assert len(requested) == 1 and entry.outcome == "error"


def test_probes_read_no_body():
    """F7: the probes need the status only."""
    step = begin(URL, None, T0, F7).apply(Response(500, {}), T0)  # type: ignore[union-attr]
    assert isinstance(step, Fetch) and step.limit == 0


# -- C4: Cache-Control ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("header", "ttl"), [
    ("max-age=3600", 3600),
    ("public, max-age=172800", 172800),
    ('max-age="7200"', 7200),
    ("max-age=5", 60),  # shortened only down to min_ttl
    ("max-age=99999999", 7 * DAY),  # lengthened only up to max_ttl
    ("max-age=abc", DAY),
    ("max-age=-5", DAY),
    ("no-cache", 60),
    ("no-store, max-age=3600", 60),
    ("private", DAY),
    ("", DAY),
])
def test_cache_control_max_age_sets_the_lifetime_within_bounds(header, ttl):
    """C4: max-age lengthens or shortens the 24 h default, within [min_ttl, max_ttl]."""
    entry, _ = run([ok(headers={"cache-control": header})])
    assert entry.expires_at - T0 == ttl


def test_cache_control_applies_to_4xx_and_redirect_answers_too():
    """C4: any good answer is cached per its Cache-Control."""
    entry, _ = run([Response(404, {"cache-control": "max-age=600"})])
    assert entry.expires_at == T0 + 600


def test_ttl_bounds_are_configurable():
    """C4: the bounds are the crawler's to choose."""
    policy = Policy(min_ttl=0, max_ttl=10 * DAY)
    entry, _ = run([ok(headers={"cache-control": "max-age=0"})], policy=policy)
    assert entry.expires_at == T0
    with pytest.raises(ValueError):
        Policy(min_ttl=10, max_ttl=5)


# -- C3 -----------------------------------------------------------------------------------------------------

def test_entries_are_keyed_by_robots_url_and_hold_no_agent():
    """C3: one cached response serves every crawler (user agent)."""
    entry, _ = run([ok()])
    assert entry.url == URL
    assert not any("agent" in name for name in Entry.__dataclass_fields__)


@pytest.mark.parametrize("headers", [
    {"cache-control": "max-age=\xb2"}, {"retry-after": "\xb2"}, {"retry-after": "\xb9\xb2"},
    {"cache-control": "max-age=\u0663"},  # Arabic-Indic digit three: isdigit(), not ASCII
])
def test_non_ascii_digits_in_headers_are_ignored_not_a_crash(headers):
    """C4, F5: headers arrive as Latin-1; superscript digits are not numbers (found by review)."""
    entry, _ = run([Response(503, headers)])
    assert entry.expires_at - T0 == P.retry_after_503
    entry, _ = run([ok(headers=headers)])
    assert entry.expires_at - T0 == DAY


def test_retry_after_date_with_minus_0000_zone_is_utc():
    """F5: RFC 5322 "-0000" means UTC without a stated offset, not the machine's local zone."""
    entry, _ = run([Response(503, {"retry-after": "Tue, 14 Nov 2023 22:15:20 -0000"})])
    assert entry.expires_at - T0 == 120


@pytest.mark.parametrize("result", [
    Response(301, {"location": "http://a]/robots.txt"}),  # urlsplit: "Invalid IPv6 URL"
    Response(302, {"location": "http://a.example:99999/robots.txt"}),  # port out of range
    Failure("redirect", "Invalid URL in location header"),  # the transport could not resolve it
])
def test_a_malformed_location_ends_the_chain_as_a_404_not_an_exception(result):
    """F3, F8: a Location that cannot be resolved is a redirect leading nowhere: a 404, full allow."""
    entry, _ = run([result])
    assert entry.outcome == "allow" and entry.good_at == T0
    assert entry.why.code in ("redirect-bad-location", "redirect-unusable")
