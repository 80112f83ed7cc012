"""encode_entry/decode_entry: the one byte format every store writes (base.py; C3)."""

from __future__ import annotations

import pytest

from robotrules.cache import decode_entry, encode_entry

from ._workers import sample_entry


def test_blob_is_a_json_line_then_the_raw_body() -> None:
    """C1: the body is kept as raw bytes after one line of metadata, newlines and all."""
    body = b"\nUser-agent: *\r\nDisallow: /\n\xff"
    blob = encode_entry(sample_entry("https://example.com/robots.txt", body))
    head, _, rest = blob.partition(b"\n")
    assert head.startswith(b"{") and head.endswith(b"}")
    assert rest == body


@pytest.mark.parametrize(
    "blob",
    [
        b"",
        b"no newline at all",
        b"{}\n",
        b"[1, 2]\n",
        b'"text"\n',
        b"\xff\xfe\n",
        b"[" * 100_000 + b"\n",  # nesting deep enough to exhaust the JSON parser's recursion
        encode_entry(sample_entry("https://example.com/robots.txt", b"x")).replace(b'"url"', b'"unknown"', 1),
    ],
    ids=["empty", "no-newline", "empty-object", "list", "string", "not-utf8", "deep-nesting", "unknown-field"],
)
def test_blob_it_did_not_write_is_a_value_error(blob: bytes) -> None:
    """base.decode_entry: anything not written by encode_entry is ValueError (stores turn it into StoreError)."""
    with pytest.raises(ValueError, match="not an encoded robotrules entry"):
        decode_entry(blob)
