"""Diagnostics: every code is produced by the input it describes (P2, P3, P6, G1, G3, G4, N1, N2, R1, R2, R6, F9)."""

from __future__ import annotations

import re

import pytest

import robotrules
from tests.needs import corpus_dir

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
    (b"user-agent: Mozilla/5.0 (compatible; FooBot/2.1; +http://foo.example/bot)\ndisallow: /\n", "user-agent-header", 1),
    (b"sitemap: /sitemap.xml\n", "sitemap-not-absolute", 1),
    (b"user-agent: *\ncrawl-delay: 5\n", "ignored-field", 2),
    (b"user-agent: *\nfoo: bar\n", "unknown-field", 2),
    (b"user-agent: *\ncrawl-delay: soon\n", "invalid-value", 2),
    # A1-A7: the AI-use lines (more cases in test_lint_usage.py)
    (b"content-usage: train-ai=n\n", "usage-outside-group", 1),
    (b"user-agent: *\ncontent-usage: Train-ai=n\n", "usage-unreadable", 2),
    (b"user-agent: *\ncontent-usage: /a b/ train-ai=n\n", "usage-path", 2),
    (b"user-agent: *\ncontent-usage: train-ai=no\n", "usage-unknown-value", 2),
    (b"user-agent: *\ncontent-usage: search=y, search=n\n", "usage-duplicate", 2),
    (b"user-agent: *\ncontent-usage: ai=n\n", "usage-old-label", 2),
    (b"user-agent: *\ndisallow: /p\ncontent-usage: /p search=y\n", "usage-on-disallowed", 3),
    (b"user-agent: *\ncontent-signals: search=yes\n", "signal-misspelt", 2),
    (b"user-agent: *\ncontent-signal: search=1\n", "signal-value", 2),
    (b"user-agent: *\ncontent-signal: search=yes\ncontent-usage: search=n\n", "signal-contradicts-usage", 2),
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
    assert str(found[0]).startswith("line 1, column 1: error:")


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


# -- user-agent values that are whole User-Agent headers (G3) ------------------------------


@pytest.mark.parametrize(
    ("value", "counted", "meant"),
    [
        ("Mozilla/5.0 (compatible; FooBot/2.1; +http://foo.example/bot)", "mozilla", "FooBot"),
        ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "mozilla", "Googlebot"),
        ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0)", "mozilla", "bingbot"),
        ("Chrome/120.0 FooBot/2.1", "chrome", "FooBot"),
        ("compatible; FooBot/2.1 (+http://foo.example/bot)", "compatible", "FooBot"),
    ],
)
def test_whole_header_user_agent_is_a_warning(value, counted, meant):
    """G3: Google reads only the product token of a user-agent value, so a pasted User-Agent header
    names the group after its first product ("Mozilla"), not after the crawler it identifies: a
    warning that says which token counts and suggests the crawler's own token."""
    found = [d for d in robotrules.lint(f"user-agent: {value}\ndisallow: /\n") if d.line == 1]
    assert [(d.code, d.severity) for d in found] == [("user-agent-header", "warning")]
    assert f"counts as {counted!r}" in found[0].message
    assert f"User-agent: {meant}" in found[0].message
    assert found[0].column == len("user-agent: ") + 1
    rt = robotrules.parse(f"user-agent: {value}\ndisallow: /\n")
    assert rt.allowed("/x", meant)  # the warning is true: the group does not apply to the crawler meant
    assert not rt.allowed("/x", counted)


@pytest.mark.parametrize(
    "value",
    ["Mozilla/5.0", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0"],
)
def test_browser_header_user_agent_is_a_warning_without_a_crawler_to_suggest(value):
    """G3: a browser's header names no crawler: the group is for "mozilla", which no crawler is called."""
    found = [d for d in robotrules.lint(f"user-agent: {value}\n") if d.line == 1]
    assert [d.code for d in found] == ["user-agent-header"]
    assert "counts as 'mozilla'" in found[0].message


@pytest.mark.parametrize(
    "value",
    [
        "FooBot/1.2",
        "googlebot/2.1",
        "Googlebot/2.1 (+http://www.google.com/bot.html)",  # a header, but its token is the crawler's
        "FooBot/2.1 Bar/1.0",  # two products: the first one is the crawler the group is for
        "foo bar",
        "foo*",
    ],
)
def test_versioned_or_decorated_crawler_name_stays_user_agent_extra(value):
    """G3: a value whose product token is the crawler meant is only worth knowing (info): the group
    applies to that crawler."""
    found = [d for d in robotrules.lint(f"user-agent: {value}\n") if d.line == 1]
    assert [(d.code, d.severity) for d in found] == [("user-agent-extra", "info")]


# -- messages are for site owners: no requirement ids ---------------------------------------

_REQUIREMENT_ID = re.compile(r"\b[SFCPGRNL]\d+\b")
# Quoted text in a message is the file's own content (a path such as "/caf%C3%A9" may contain "C3").
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_CORPUS = corpus_dir() / "robotfiles"


def test_messages_cite_no_requirement_ids():
    """Issue #9: the message of every code is plain language; requirement ids (docs/requirements.md)
    stay in the code's comments and the documentation."""
    for code, (_, summary) in robotrules.CODES.items():
        assert not _REQUIREMENT_ID.search(summary), code
    for body, _, _ in CASES:
        for mode in ("google", "rfc9309", "legacy1994"):
            for d in robotrules.lint(body, mode):
                assert not _REQUIREMENT_ID.search(_QUOTED.sub("", d.message)), str(d)


@pytest.mark.skipif(not _CORPUS.is_dir(), reason=f"the robots.txt corpus is not at {_CORPUS.parent} (ROBOTRULES_CORPUS)")
def test_messages_over_the_corpus_cite_no_requirement_ids():
    """Issue #9: no message built for a real file (the summary and its details) cites an id."""
    files = sorted(_CORPUS.iterdir())
    assert files
    for path in files:
        for d in robotrules.lint(path.read_bytes()):
            assert not _REQUIREMENT_ID.search(_QUOTED.sub("", d.message)), f"{path.name}: {d}"
            assert d.column >= 0


# -- columns -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code", "line", "column"),
    [
        (b"user-agent: *\ndisallow: fish\n", "path-without-slash", 2, 11),
        (b"user-agent: *\n  disallow :\t fish # x\n", "path-without-slash", 2, 15),
        (b"user-agent: *\ndisallow fish\n", "path-without-slash", 2, 10),  # missing colon (P6)
        (b"user-agent: *\ndisallow fish\n", "missing-colon", 2, 1),
        (b"user-agent: *\ncrawl-delay:  soon\n", "invalid-value", 2, 15),
        (b"user-agent: *\ncrawl-delay: 5\n", "ignored-field", 2, 1),
        (b"user-agent: *\n   foo: bar\n", "unknown-field", 2, 4),
        (b"user-agent: *\n dissallow: /x\n", "field-typo", 2, 2),
        (b"user-agentx: *\n", "field-prefix", 1, 1),
        (b"user-agent: *\n  not a rule at all\n", "invalid-line", 2, 3),
        (b"user-agent: googlebot/2.1\n", "user-agent-extra", 1, 13),
        (b"user-agent:123\n", "user-agent-without-token", 1, 12),
        (b"sitemap: /s.xml\n", "sitemap-not-absolute", 1, 10),
        (b"user-agent: *\ndisallow: /a\x00b\n", "nul-byte", 2, 13),
        (b"user-agent: *\ndisallow: /" + b"a" * 17_000 + b"\n", "line-too-long", 2, 16_664),
        (b"user-agent: *\ndisallow: /caf\xe9\n", "invalid-utf8", 2, 15),
        (b"user-agent: *\rdisallow: /\xff\n", "invalid-utf8", 2, 12),  # a CR alone ends a line (P1)
        (b"user-agent: *\nallow: /x\n", "not-in-mode", 2, 1),
    ],
)
def test_column_points_at_what_the_finding_is_about(body, code, line, column):
    """The value for bad values, the field name for field findings, the byte for byte findings."""
    mode = "legacy1994" if code == "not-in-mode" else "google"
    found = [(d.line, d.column) for d in robotrules.lint(body, mode) if d.code == code]
    assert found == [(line, column)]


def test_column_counts_characters_and_not_the_byte_order_mark():
    """P3: columns count characters of the UTF-8 text; the BOM is not a character of line 1."""
    body = "\ufeffsitemap: é.xml\nuser-agent: *\n# é\ndisallow: ü\n".encode()
    found = {d.code: (d.line, d.column) for d in robotrules.lint(body)}
    assert found["sitemap-not-absolute"] == (1, 10)
    assert found["path-without-slash"] == (4, 11)
    assert robotrules.lint("user-agent: *\nsitemap: ü/x\n")[0].column == 10
    assert robotrules.lint("user-agent: *\n\u00e9\u00e9 foo: ü\n")[0].column == 1


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b"<!DOCTYPE html><html><body>hi</body></html>", "html-content"),
        (b"user-agent: *\ndisallow: /\n" + b"#" * 520_000, "size-limit"),
        (b"\xef\xbb\xbfuser-agent: *\n", "bom"),
        (b"disallow: /x\nuser-agent: *\n", "rule-outside-group"),
        (b"user-agent: *\ndisallow:\n", "empty-rule"),
        (b"user-agent: *\ndisallow: /a\nallow: /a\n", "shadowed-rule"),
        (b"user-agent: a\ndisallow: /\nuser-agent: a\ndisallow: /x\n", "merged-groups"),
    ],
)
def test_column_is_zero_for_findings_about_a_whole_line_or_file(body, code):
    found = [d for d in robotrules.lint(body) if d.code == code]
    assert found and all(d.column == 0 for d in found)
    assert all(", column" not in str(d) for d in found)


def test_diagnostic_str_shows_the_column_and_column_is_the_last_field():
    d = robotrules.Diagnostic(2, "warning", "path-without-slash", "m")
    assert d.column == 0 and str(d) == "line 2: warning: m [path-without-slash]"
    assert str(robotrules.Diagnostic(2, "warning", "c", "m", 7)) == "line 2, column 7: warning: m [c]"
    assert str(robotrules.Diagnostic(0, "error", "c", "m")) == "file: error: m [c]"


def test_findings_stay_sorted_by_line_then_code_with_columns():
    body = b"user-agent: *\n dissallow fish\nfoo\n"
    found = robotrules.lint(body)
    assert [(d.line, d.code) for d in found] == sorted((d.line, d.code) for d in found)
