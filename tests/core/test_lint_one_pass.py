"""The linter reads the body once (DESIGN 4: one lexer, many handlers; P1-P7).

One decode, one split into lines and one tokenisation of each line: the model builder's, whose
events feed the line findings while they build the model for the group findings, and whose
lines give the columns. These tests pin that the pass is single and that what it hands the
handlers is exactly what the general lexer and the model builder give on their own (which is
why the findings did not change when the linter stopped reading the body three times).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from robotrules.core import COMPILED, lexer
from robotrules.core import lint as lint_module
from robotrules.core.model import build_model
from robotrules.core.modes import MODES
from tests.hypo import examples

MODE_NAMES = sorted(MODES)

# A body with a line for every path through the reader: usual spellings (the builder's fast
# path), typos, a missing colon, a field-name prefix, an invalid line, comments, blank lines
# (records in legacy1994), a BOM, a NUL and an over-long line (cut in google mode), findings
# with columns (bad path, user-agent, sitemap, field value) and group findings (a rule outside
# any group, merged groups, a shadowed rule).
EVERY_PATH = b"".join(
    [
        b"\xef\xbb\xbfdisallow: /orphan\n",
        b"User-agent: FooBot/1.2\r\n",
        b"dissallow: /typo\r",
        b"disallow /missing-colon\n",
        b"user-agentx: prefix\n",
        b"not a field line\n",
        b"  # comment only\n",
        b"\n",
        b"user-agent: *\n",
        b"Disallow: fish # no slash\n",
        b"allow: /a\n",
        b"disallow: /a\n",
        b"crawl-delay: soon\n",
        b"sitemap: /sitemap.xml\n",
        b"disallow: /nul\x00after\n",
        b"disallow: /" + b"a" * (lexer.MAX_LINE_BYTES + 10) + b"\n",
        b"user-agent: *\n",
        b"disallow: /caf\xc3\xa9\n",
        b"foo: bar\n",
    ]
)


def _shape(model: Any) -> Any:
    return [(g.line, g.agents, g.tokens, g.is_global, g.rules, g.extensions) for g in model.groups], model[1:]


@pytest.mark.skipif(COMPILED, reason="wrappers on module functions cannot see calls inside the compiled core")
@pytest.mark.parametrize("mode_name", MODE_NAMES)
def test_lint_decodes_splits_and_tokenises_the_body_once(mode_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """DESIGN 4 (P1-P7): one lint decodes the body once, splits it into lines once and tokenises
    each line at most once; the general lexer (``lex``) is not run beside the model builder."""
    calls: Counter[str] = Counter()
    tokenised: list[int] = []

    def counting(name: str) -> None:
        original: Callable[..., Any] = getattr(lexer, name)

        def wrapper(*args: Any) -> Any:
            calls[name] += 1
            if name == "tokenize_line":
                tokenised.append(args[0])
            return original(*args)

        monkeypatch.setattr(lexer, name, wrapper)

    for name in ("decode", "split_lines", "uncut_lines", "cut_lines", "lex", "tokenize_line"):
        counting(name)

    found = lint_module.lint(EVERY_PATH, mode_name)

    codes = {d.code for d in found}
    assert codes >= {"bom", "invalid-line", "path-without-slash", "user-agent-extra", "rule-outside-group"}
    if MODES[mode_name].c_string_lines:
        assert codes >= {"line-too-long", "nul-byte", "missing-colon", "field-typo", "shadowed-rule"}
    assert any(d.column for d in found)  # columns were computed, from the same lines
    assert calls["decode"] == 1
    assert calls["uncut_lines"] == 1 and calls["split_lines"] == 0  # split_lines would split again
    assert calls["lex"] == 0
    assert tokenised, "the slow path of the builder was not exercised"
    assert len(tokenised) == len(set(tokenised)), "a line was tokenised twice"


_PIECES = st.sampled_from(
    [b"user-agent", b"User-Agent", b"disallow", b"Disallow", b"allow", b"sitemap", b"crawl-delay", b"dissallow",
     b"useragent", b"user-agentx", b"foo", b":", b" ", b"\t", b"\r", b"\n", b"\r\n", b"#", b"/", b"*", b"$",
     b"Mozilla/5.0 (x)", b"\xc3\xa9", b"\xff", b"\x00", b"\xef\xbb\xbf", b"\xef\xbb", b"a" * 16_660]
)
_BODIES = st.one_of(st.binary(max_size=300), st.lists(_PIECES, max_size=60).map(b"".join))


@settings(max_examples=examples(300), deadline=None, derandomize=True, database=None)
@given(body=_BODIES, mode_name=st.sampled_from(MODE_NAMES))
def test_lint_pass_hands_its_handlers_the_lexers_events_and_the_parsers_model(body: bytes, mode_name: str) -> None:
    """DESIGN 4 (P1-P7, F9): the events of the linter's one pass are exactly ``lexer.lex``'s, its
    model is ``build_model``'s, its lines are ``split_lines``' and its uncut lines are the same
    split before Google's cut (``c_string_lines``)."""
    mode = MODES[mode_name]
    read = lint_module._read(body, mode)
    assert read.lexed == lexer.lex(body, mode)
    assert _shape(read.model) == _shape(build_model(body, mode))
    source, _ = lexer.decode(body, mode)
    assert read.lines == lexer.split_lines(source, mode)
    assert read.raw == lexer.split_lines(source, MODES["rfc9309"])  # a mode that cuts nothing
    assert len(read.raw) == len(read.lines)
