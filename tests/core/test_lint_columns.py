"""Lint columns for any input: never raising, always inside the line they point into (P1, P3)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import robotrules
from tests.hypo import examples

_PIECES = st.sampled_from(
    [b"user-agent", b"disallow", b"allow", b"sitemap", b"crawl-delay", b"dissallow", b"foo", b":", b" ", b"\t",
     b"\r", b"\n", b"\r\n", b"#", b"/", b"*", b"$", b"(", b"Mozilla/5.0", b"\xc3\xa9", b"\xff", b"\x00", b"\xef\xbb"]
)
_BODIES = st.one_of(st.binary(max_size=300), st.lists(_PIECES, max_size=60).map(b"".join))


def _line_lengths(body: bytes) -> list[int]:
    """P1: the byte length of each line after a whole BOM (CR LF, CR and LF end lines); a partial
    BOM, skipped by Google only (P3), is counted, which only makes the bound looser."""
    rest = body[3:] if body.startswith(b"\xef\xbb\xbf") else body
    rest = rest.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return [len(line) for line in rest.split(b"\n")]


@settings(max_examples=examples(300), deadline=None, derandomize=True, database=None)
@given(body=_BODIES, mode=st.sampled_from(["google", "rfc9309", "legacy1994"]))
def test_columns_never_raise_and_point_inside_their_line(body, mode):
    """A finding's column is 0 or within its line (a character column is at most the byte column)."""
    lengths = _line_lengths(body)
    for d in robotrules.lint(body, mode):
        assert isinstance(d.column, int) and d.column >= 0
        if d.column:
            assert 1 <= d.line <= len(lengths), d
            assert d.column <= lengths[d.line - 1] + 1, d
