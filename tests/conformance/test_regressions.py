"""Data-driven regression cases (``cases/regressions.json``): robotrules (google mode) gives the stored answer.

Each case says why it exists (SPEC ids) and where it came from (``hand-picked``, ``fuzz:``, ``corpus:``,
``generated:``). Expected values come from Google's reference parser via ``add_regression.py``; the
oracle test below re-derives them so a hand edit or a reference upgrade cannot slip through.
"""

from __future__ import annotations

import pytest

import robotrules

from .add_regression import CASES_FILE, decode_body, decode_url, load

CASES = load(CASES_FILE)
REQUIRED = {"id", "agent", "expected_allowed", "expected_line", "why", "source"}


def _id(case: dict) -> str:
    return case["id"]


def test_regression_file_is_well_formed():
    """Every case has a unique id, a body, a URL, an expected answer, a reason and a source."""
    assert CASES, f"no cases in {CASES_FILE}"
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    for c in CASES:
        assert c.keys() >= REQUIRED, (c.get("id"), REQUIRED - c.keys())
        assert {"body", "body_b64", "body_parts"} & c.keys(), c["id"]
        assert {"url", "url_parts"} & c.keys(), c["id"]
        assert c["why"].strip() and c["source"].strip(), c["id"]


@pytest.mark.google_only
@pytest.mark.parametrize("case", CASES, ids=_id)
def test_regression_case_matches_reference_answer(case):
    """The stored reference answer (allowed, matching line) is what robotrules gives; see the case's 'why'."""
    body, url, agent = decode_body(case), decode_url(case), case["agent"]
    decision = robotrules.parse(body).check(url, agent)
    expected = (case["expected_allowed"], case["expected_line"])
    assert (decision.allowed, decision.line) == expected, (
        f"{case['id']}: {case['why']} (source: {case['source']})\n"
        f"body={body[:300]!r}{'...' if len(body) > 300 else ''} agent={agent!r} url={url[:200]!r}"
    )


@pytest.mark.oracle
@pytest.mark.parametrize("case", CASES, ids=_id)
def test_regression_expectation_still_comes_from_reference(case):
    """The stored expectation equals the reference's answer today (guards hand edits and reference upgrades)."""
    from . import oracle

    got = oracle.check(decode_body(case), case["agent"], decode_url(case))
    assert got == (case["expected_allowed"], case["expected_line"]), case["id"]
