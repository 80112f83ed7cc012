"""Drafts and preferences from strangers (issue #33, items 1-3): bounded work, work that stops when
nobody waits for it, answers of bounded size.

Each test runs against the real service on 127.0.0.1 (uvicorn in a thread, the service's own
configuration). No test measures speed: work that would otherwise run for minutes is seen to
stop through the service's own gauges, and costs are counted elsewhere (tests/diff/test_bounded_work.py).
"""

from __future__ import annotations

import json
import socket

import httpx

from tests.servers.http import HTTPServer, respond

from .conftest import Start, error_of
from .test_hardening import _metric, _until, pending


def _names(count: int) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    return [f"{letters[n % 26]}{letters[n // 26 % 26]}{letters[n // 676 % 26]}bot" for n in range(count)]


def one_group(agents: int, rules: int, head: str = "") -> str:
    """One group naming ``agents`` crawlers over ``rules`` disallow rules (all starting ``/<head>``
    when ``head`` is given: rules a check must try one by one)."""
    return ("".join(f"User-agent: {name}\n" for name in _names(agents))
            + "".join(f"Disallow: /{head or _names(rules)[n][:2]}{n}\n" for n in range(rules)))


def test_an_edit_of_a_group_of_ten_thousand_user_agents_is_answered_with_a_bounded_answer(api: httpx.Client) -> None:
    """G1-G4: a 190 KB group of 10,000 user-agent lines, one crawler blocked: the edit is proved and
    answered (it took 32 CPU-seconds and a 503 when the cost grew with the square of the names),
    its answer listing at most 1,000 changes of each kind."""
    robots = one_group(10_000, 1)
    response = api.post("/v1/edit", json={"robots": robots, "block": ["GPTBot"]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["changed"] and body["blocked"] == ["GPTBot"]
    assert len(body["diff"]["rules"]) <= 1000 and len(body["diff"]["verdicts"]) <= 1000
    assert len(response.content) < 2 * len(robots) + 500_000


def test_a_diff_answer_lists_at_most_the_listing_limit_and_counts_the_rest(start: Start) -> None:
    """A 40 KB request whose 1,000 crawlers each gain 100 rules is 100,000 rule changes and as many
    verdict changes: the answer lists max_listed of each and counts the others (it was 180 MB)."""
    api = start(max_listed=300)
    response = api.post("/v1/diff", json={"old": "", "new": one_group(1_000, 100)})
    assert response.status_code == 200, response.text
    body = response.json()
    assert len(body["rules"]) == 300 and body["rules_omitted"] == 100_000 - 300
    assert len(body["verdicts"]) == 300 and body["verdicts_omitted"] == 100_000 - 300
    assert len(response.content) < 500_000


def test_many_crawlers_times_many_rules_are_refused_before_the_work_with_a_clear_422(api: httpx.Client) -> None:
    """Two drafts whose 2,000 crawlers each choose another group over 2,000 rules: the work is
    known once the groups are chosen, and refused then (422 too_much_work), not done for minutes."""
    old = "".join(f"User-agent: {name}\nDisallow: /{n}\n\n" for n, name in enumerate(_names(2_000)))
    message = error_of(api.post("/v1/diff", json={"old": old, "new": one_group(2_000, 2_000)}), 422, "too_much_work")
    assert "crawlers" in message
    assert _metric(api, 'robotrules_in_flight{gate="work"}') == 0
    refused = api.post("/v1/edit", json={"robots": one_group(3_000, 3_000, head="p"), "block": ["aaabot"]})
    assert refused.status_code in (200, 422), refused.text  # proved within the budget, or refused by it
    if refused.status_code == 422:
        assert refused.json()["error"]["code"] in ("too_much_work", "edit_refused")


def test_draft_work_stops_moments_after_its_client_leaves(start: Start) -> None:
    """A diff that would check 8,000 URLs against 8,000 rules alike (a minute of work) is under way
    when its client disconnects: its worker stops at its next checkpoint, within moments, and the
    work slot is free again (it ran on for 37 s for nobody)."""
    api = start(draft_work=10**12, deadline=600.0)
    body = json.dumps({"old": "", "new": "User-agent: *\n" + "".join(f"Disallow: /p{n}\n" for n in range(8_000))})
    request = (f"POST /v1/diff HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
               f"Content-Length: {len(body)}\r\n\r\n{body}").encode()
    with socket.create_connection((api.base_url.host, api.base_url.port), timeout=5) as sock:
        sock.sendall(request)
        assert _until(lambda: _metric(api, 'robotrules_in_flight{gate="work"}') == 1)
    assert _until(lambda: _metric(api, 'robotrules_in_flight{gate="work"}') == 0, within=10.0), \
        "the draft's work ran on for a client that had left"
    assert _until(lambda: _metric(api, 'robotrules_refused_total{reason="client_gone"}') == 1)


def test_other_clients_drafts_are_answered_while_hostile_drafts_hold_the_work_slots(start: Start) -> None:
    """Three hostile diffs at once hold both work slots for their bounded work (or are refused by
    it); another client's lint is answered after them, not refused by the deadline (it got 503)."""
    api = start(deadline=30.0)
    hostile = {"old": "", "new": "User-agent: *\n" + "".join(f"Disallow: /p{n}\n" for n in range(8_000))}
    with pending(lambda: api.post("/v1/diff", json=hostile)) as first, \
            pending(lambda: api.post("/v1/diff", json=hostile)) as second, \
            pending(lambda: api.post("/v1/diff", json=hostile)) as third:
        assert _until(lambda: _metric(api, 'robotrules_in_flight{gate="work"}') >= 1)
        honest = api.post("/v1/lint", json={"robots": "User-agent: *\nDisallow: /x\n"})
        assert honest.status_code == 200, honest.text
        assert api.get("/healthz").status_code == 200
    for answered in (*first, *second, *third):
        assert answered.status_code in (200, 422), answered.text


def test_a_verdict_on_a_file_of_thousands_of_tied_content_usage_lines_is_bounded(start: Start) -> None:
    """A1-A4: a site serves 23,000 ``Content-Usage: /*b x`` lines (483 KB): a cached check of 50
    agents is answered, each verdict naming at most 100 deciding lines and counting the rest, its
    sentence naming a few."""
    robots = ("User-agent: *\nDisallow: /private\n" + "Content-Usage: /*b train-ai=n\n" * 16_000).encode()
    with HTTPServer() as site:
        site.route("/robots.txt", respond(200, robots))
        api = start()
        agents = [f"Bot{chr(97 + n % 26)}{chr(97 + n // 26)}" for n in range(50)]
        params: list[tuple[str, str]] = [("url", site.url("/abc")), *(("agent", a) for a in agents),
                                         ("purpose", "train-ai")]
        for _ in range(2):  # a miss, then a hit (the lean path)
            response = api.get("/v1/check", params=params)
            assert response.status_code == 200, response.text
            results = response.json()["results"]
            assert len(results) == 50
            for verdict in results:
                assert verdict["preferences"]["train-ai"] is False and verdict["use"] is False
                assert len(verdict["preference_lines"]) == 100 and verdict["preference_lines_omitted"] == 15_900
                assert len(verdict["use_lines"]) == 100 and verdict["use_lines_omitted"] == 15_900
                assert "15,995 more lines" in verdict["use_explanation"]
            assert len(response.content) < 1_000_000
        assert api.get("/healthz").status_code == 200


def test_a_lint_answer_lists_at_most_the_listing_limit_and_counts_every_finding(start: Start) -> None:
    """P2: a draft of 40,000 lines Google ignores has 40,000 findings: the answer lists max_listed
    and counts them all by severity."""
    api = start(max_listed=200)
    body = api.post("/v1/lint", json={"robots": "nonsense line\n" * 40_000}).json()
    assert len(body["diagnostics"]) == 200
    assert body["diagnostics_omitted"] == body["errors"] + body["warnings"] - 200 > 30_000
    tested = api.post("/v1/test", json={"robots": "nonsense line\n" * 40_000, "urls": ["/x"]}).json()
    assert len(tested["diagnostics"]) == 200 and tested["diagnostics_omitted"] > 30_000
