"""Diagnostics: every code is produced by the input it describes (P2, P3, P6, G1, G4, N1, N2, R1, R2, R6, F9)."""

from __future__ import annotations

import pytest

import robotrules

CASES = [
    (b"<!DOCTYPE html><html><body>hi</body></html>", "html-content", 0),
    (b"user-agent: *\ndisallow: /\n" + b"#" * 520_000, "size-limit", 0),
    (b"user-agent: *\nnot a rule at all\n", "invalid-line", 2),
    (b"user-agent *\ndisallow /x\n", "missing-colon", 1),
    (b"useragent: *\ndissallow: /x\n", "field-typo", 1),
    (b"user-agentx: *\n", "field-prefix", 1),
    (b"user-agent: *\ndisallow: /" + b"a" * 17_000 + b"\n", "line-too-long", 2),
    (b"user-agent: *\ndisallow: /a\x00b\n", "nul-byte", 2),
    (b"user-agent: *\ndisallow: /caf\xe9\n", "invalid-utf8", 2),
    (b"\xef\xbb\xbfuser-agent: *\n", "bom", 1),
    (b"\xef\xbbuser-agent: *\n", "partial-bom", 1),
    (b"disallow: /x\nuser-agent: *\n", "rule-outside-group", 1),
    (b"user-agent: *\ndisallow: fish\n", "path-without-slash", 2),
    (b"user-agent: *\ndisallow:\n", "empty-rule", 2),
    (b"user-agent: *\ndisallow: /a\nallow: /a\n", "shadowed-rule", 2),
    (b"user-agent: *\ndisallow: /a\nallow: /a*\n", "shadowed-rule", 2),
    (b"user-agent: a\ndisallow: /\nuser-agent: a\ndisallow: /x\n", "merged-groups", 3),
    (b"user-agent: 123\ndisallow: /\n", "user-agent-without-token", 1),
    (b"user-agent: googlebot/2.1\ndisallow: /\n", "user-agent-extra", 1),
    (b"sitemap: /sitemap.xml\n", "sitemap-not-absolute", 1),
    (b"user-agent: *\ncrawl-delay: 5\n", "ignored-field", 2),
    (b"user-agent: *\nfoo: bar\n", "unknown-field", 2),
    (b"user-agent: *\ncrawl-delay: soon\n", "invalid-value", 2),
]


@pytest.mark.parametrize(("body", "code", "line"), CASES, ids=[c[1] + "-" + str(i) for i, c in enumerate(CASES)])
def test_each_code_is_reported_on_its_line(body, code, line):
    found = [(d.code, d.line) for d in robotrules.lint(body)]
    assert (code, line) in found


def test_not_in_mode_for_allow_in_1994():
    found = robotrules.lint(b"user-agent: *\nallow: /x\n", "legacy1994")
    assert ("not-in-mode", 2) in [(d.code, d.line) for d in found]


def test_rfc9309_mode_reports_typo_lines_as_invalid_fields():
    """P6: a strict parser drops what Google accepts."""
    found = {d.code for d in robotrules.lint(b"useragent: *\ndisallow /x\n", "rfc9309")}
    assert "unknown-field" in found and "invalid-line" in found


def test_every_code_is_documented_with_a_severity():
    assert {code for _, code, _ in CASES} | {"not-in-mode"} == set(robotrules.CODES)
    for severity, summary in robotrules.CODES.values():
        assert severity in ("error", "warning", "info") and summary


def test_clean_file_has_no_findings_and_diagnostics_equal_lint():
    body = b"user-agent: *\ndisallow: /private/\nallow: /private/public\nsitemap: https://h/s.xml\n"
    assert robotrules.lint(body) == []
    junk = b"user-agent: *\nfoo\n\xff\xfe\x00"
    assert robotrules.parse(junk).diagnostics == robotrules.lint(junk)


def test_diagnostics_are_sorted_by_line():
    found = robotrules.lint(b"foo\nuser-agent: *\nbar\ndisallow x y z\n")
    assert [d.line for d in found] == sorted(d.line for d in found)
    assert str(found[0]).startswith("line 1: error:")


def _deciding_lines(body: bytes, agent: str, paths: list[str]) -> set[int]:
    rt = robotrules.parse(body)
    return {rt.check(path, agent).line for path in paths}


def test_shadowed_rule_is_only_reported_for_a_rule_that_never_decides_literal_dollar_then_star():
    """R4/R6: in "/a*b$*" the "$" is literal, so it matches other paths than the anchored "/a*b$";
    line 2 decides "/axb" and must not be reported as shadowed (it was: both got one key)."""
    body = b"user-agent: *\ndisallow: /a*b$\nallow: /a*b$*\n"
    assert 2 in _deciding_lines(body, "foo", ["/axb", "/axb$", "/axb$x"])
    assert ("shadowed-rule", 2) not in [(d.code, d.line) for d in robotrules.lint(body)]


def test_shadowed_rule_is_only_reported_for_a_rule_that_never_decides_for_any_agent():
    """G4/R6: a rule of a group naming two agents, outranked for one of them by a merged group, still
    decides for the other: it is not shadowed."""
    body = b"user-agent: foo\nuser-agent: bar\ndisallow: /a\nuser-agent: foo\nallow: /a\n"
    assert 3 in _deciding_lines(body, "bar", ["/a"])
    assert ("shadowed-rule", 3) not in [(d.code, d.line) for d in robotrules.lint(body)]


@pytest.mark.parametrize(
    ("body", "line"),
    [
        (b"user-agent: *\ndisallow: /a*b$*\nallow: /a*b$**\n", 2),  # trailing "*"s fold (R4)
        (b"user-agent: *\ndisallow: /a**b$\nallow: /a*b$\n", 3),  # doubled "*" folds (longer wins)
        (b"user-agent: foo\ndisallow: /a\nuser-agent: foo\nallow: /a\n", 2),  # merged groups (G4)
    ],
)
def test_shadowed_rule_is_still_reported_when_it_never_decides(body, line):
    """R4/R6: patterns matching exactly the same paths: the lower-ranked one is reported."""
    assert ("shadowed-rule", line) in [(d.code, d.line) for d in robotrules.lint(body)]
