"""The two ways of reading a .warc.gz give the same captures and the same damage (issue #20, F9).

:func:`robotrules.batch.inputs.warc.reading.records` decompresses each gzip member whole in memory while the
members are plainly whole records (``READER = "members"``, the default, fast), and reads the rest
as a stream; ``READER = "stream"`` reads every record as a stream (the reader the damage tests
were written against). On every file here, sound, odd or damaged, both readers must give the
same captures (every field), the same damaged records (file, byte, detail) and the same errors:
the fast path may only take records the stream reader would call whole, and must parse them as
warcio does. The damage, bounded-body and index tests of this folder run with the default reader.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from robotrules.batch import BadRecord
from robotrules.batch.inputs.warc import _whole as whole
from robotrules.batch.inputs.warc import read_warc
from robotrules.batch.inputs.warc import reading as warc
from robotrules.errors import DamagedArchive, SourceError
from tests.batch.warcs import FILLER, Record, bomb_body, chunked, gzipped, write

pytest.importorskip("warcio", reason="warcio (robotrules[batch]) is not installed")

READERS = ("members", "stream")


def rules(n: int) -> bytes:
    return b"User-agent: *\nDisallow: /private-%d\n" % n + b"# padding\n" * 40


def sites(count: int = 8) -> list[Record]:
    return [Record.of(f"http://s{n}.test/robots.txt", rules(n), headers=[("Content-Type", "text/plain")])
            for n in range(count)]


def member(data: bytes) -> bytes:
    packer = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


def raw_record(head: bytes, block: bytes, *, kind: str = "response", uri: str = "http://odd.test/robots.txt",
               extra: bytes = b"", length: int | None = None, after: bytes = b"\r\n\r\n") -> bytes:
    """One WARC record as bytes, with ``head`` (the HTTP head) and ``block`` (the payload)."""
    content = head + block
    size = len(content) if length is None else length
    return (b"WARC/1.0\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nWARC-Date: 2024-05-01T12:00:00Z\r\n%s"
            b"Content-Length: %d\r\n\r\n" % (kind.encode(), uri.encode(), extra, size)) + content + after


def read(path: Path, reader: str, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[BadRecord], str]:
    """The captures (as tuples), the damaged records skipped, and the error without skipping."""
    monkeypatch.setattr(warc, "READER", reader)
    bad: list[BadRecord] = []
    try:
        found = [(c.url, c.status, dict(c.headers), c.body, c.fetched_at, c.error)
                 for c in read_warc(str(path), bad_records=bad)]
    except SourceError as exc:
        return [], [], f"{type(exc).__name__}: {exc}"
    try:
        list(read_warc(str(path)))
        error = ""
    except (DamagedArchive, SourceError) as exc:
        error = f"{type(exc).__name__}: {exc}"
    return found, bad, error


def assert_same(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[BadRecord], str]:
    members, stream = (read(path, reader, monkeypatch) for reader in READERS)
    assert members == stream, path.name
    return members


def commented_member(data: bytes, comment: bytes) -> bytes:
    """``data`` as a gzip member whose header carries ``comment`` (FCOMMENT)."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    raw = packer.compress(data) + packer.flush()
    return (b"\x1f\x8b\x08\x10\0\0\0\0\0\xff" + comment + b"\0" + raw
            + zlib.crc32(data).to_bytes(4, "little") + (len(data) & 0xFFFFFFFF).to_bytes(4, "little"))


def odd_files(tmp: Path) -> Iterator[Path]:
    """Sound files with records the fast path leaves to warcio, and damaged ones."""
    plain = sites()

    def save(name: str, blobs: list[bytes]) -> Path:
        path = tmp / name
        path.write_bytes(b"".join(blobs))
        return path

    ok = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"
    body = rules(99)
    yield save("continued.warc.gz", [member(raw_record(b"HTTP/1.1 200 OK\r\nX-Long: a\r\n  b\r\n\tc\r\n\r\n", body))])
    yield save("latin1.warc.gz", [member(raw_record(b"HTTP/1.1 200 OK\r\nX-Name: caf\xe9\r\n\r\n", body))])
    yield save("utf8.warc.gz", [member(raw_record("HTTP/1.1 200 OK\r\nX-Name: café\r\n\r\n".encode(), body))])
    yield save("nocolon.warc.gz", [member(raw_record(b"HTTP/1.1 200 OK\r\nnonsense\r\nX: y\r\n\r\n", body))])
    yield save("lf.warc.gz", [member(raw_record(b"HTTP/1.1 404 Not Found\nContent-Type: text/html\n\n", b"gone"))])
    yield save("utf8-uri.warc.gz", [member(raw_record(ok, body, uri="http://odd.test/caf\u00e9/robots.txt"))])
    yield save("utf8-uri-long.warc.gz", [member(raw_record(ok, body, uri="http://odd.test/caf\u00e9/robots.txt",
                                                           length=len(ok) + len(body) + 1))])
    yield save("spaces.warc.gz", [member(raw_record(ok, body, uri="http://odd.test/a b/robots.txt"))])
    yield save("angle.warc.gz", [member(raw_record(ok, body, uri="<http://odd.test/robots.txt>"))])
    yield save("nostatus.warc.gz", [member(raw_record(b"HTTP/1.1\r\n\r\n", body))])
    yield save("junkstatus.warc.gz", [member(raw_record(b"HTTP/1.1 abc\r\n\r\n", body))])
    yield save("nohttphead.warc.gz", [member(raw_record(b"", b"User-agent: *\nDisallow: /x\n"))])
    yield save("whitespace.warc.gz", [member(raw_record(b"HTTP/1.1 200 OK  \r\nA:   b  \r\nC :d\r\n\r\n", body))])
    yield save("extra-blank.warc.gz", [member(raw_record(ok, body, after=b"\r\n\r\n\r\n"))])
    yield save("no-blank.warc.gz", [member(raw_record(ok, body, after=b""))])
    yield save("short-length.warc.gz", [member(raw_record(ok, body, length=len(ok) + len(body) - 30))])
    yield save("long-length.warc.gz", [member(raw_record(ok, body, length=len(ok) + len(body) + 30))])
    yield save("no-length.warc.gz", [member(raw_record(ok, body).replace(b"Content-Length", b"X-Length"))])
    yield save("bad-length.warc.gz", [member(raw_record(ok, body).replace(b"Content-Length: ", b"Content-Length: x"))])
    yield save("no-type.warc.gz", [member(raw_record(ok, body).replace(b"WARC-Type", b"X-Type"))])
    yield save("warc11.warc.gz", [member(raw_record(ok, body).replace(b"WARC/1.0", b"WARC/1.1"))])
    yield save("warc018.warc.gz", [member(raw_record(ok, body).replace(b"WARC/1.0", b"WARC/0.18"))])
    yield save("two-in-one.warc.gz", [member(raw_record(ok, body) + raw_record(ok, rules(7)))])
    yield save("one-stream.warc.gz", [gzip.compress(b"".join(raw_record(ok, rules(n)) for n in range(5)))])
    yield save("not-warc.warc.gz", [member(b"hello, world\r\n" * 20)])
    yield save("dns.warc.gz", [member(raw_record(b"", b"odd.test. 300 IN A 10.0.0.1\n", kind="resource",
                                                 uri="dns:odd.test"))])
    revisit = raw_record(b"HTTP/1.1 200 OK\r\n\r\n", b"", kind="revisit",
                         extra=b"WARC-Payload-Digest: sha1:AAAA\r\nWARC-Refers-To-Target-URI: http://s1.test/robots.txt\r\n")
    failed = raw_record(b"", b"fetch-error: connect timed out\r\n", kind="metadata")
    request = raw_record(b"GET /robots.txt HTTP/1.1\r\nHost: s1.test\r\n\r\n", b"", kind="request")
    yield save("kinds.warc.gz", [member(revisit), member(failed), member(request)])
    gz = gzipped([body])
    encoded = b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"
    yield save("encoded.warc.gz", [member(raw_record(encoded, chunked(gz, 64))),
                                   member(raw_record(b"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\n\r\n", gz[:-20]))])
    sound = tmp / "sound.warc.gz"
    offsets = write(sound, plain)
    yield sound
    data = sound.read_bytes()
    yield save("garbage-after.warc.gz", [data, b"\0" * 100])
    yield save("text-after.warc.gz", [data, b"WARC/1.0\r\n"])
    yield save("garbage-between.warc.gz", [data[:offsets[3]], b"\x1f\x8bjunk" * 10, data[offsets[3]:]])
    corrupt = bytearray(data)
    corrupt[(offsets[3] + offsets[4]) // 2:(offsets[3] + offsets[4]) // 2 + 16] = b"\xff" * 16
    yield save("corrupt.warc.gz", [bytes(corrupt)])
    big = tmp / "big.warc.gz"  # members larger than the fast path holds, between small ones
    write(big, [plain[0], Record("http://big.test/robots.txt", bomb_body(b"User-agent: *\nDisallow: /a\n# ", 3,
                                                                       b"\nDisallow: /b\n"), 3 * len(FILLER) + 34),
                plain[1]])
    yield big
    yield save("empty.warc.gz", [b""])
    yield save("comment.warc.gz", [member(raw_record(ok, body)),  # a gzip header of 3 MiB: read as a stream
                                   commented_member(raw_record(ok, rules(5)), b"c" * (3 << 20)),
                                   commented_member(raw_record(ok, rules(6)), b"short")])


def test_both_readers_give_the_same_captures_and_damage_for_odd_and_damaged_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#20, F9, #16-M5: records the fast path leaves to warcio (continued or non-ASCII header
    lines, rewritten URIs, wrong lengths, several records in one member, a member larger than it
    holds) and damaged files (corrupt member, garbage between or after records) read the same
    with both readers: captures, damaged records, errors."""
    for path in odd_files(tmp_path):
        assert_same(path, monkeypatch)


@pytest.mark.parametrize("gz", [True, False], ids=["warc.gz", "warc"])
def test_both_readers_agree_on_a_file_cut_at_every_byte(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        gz: bool) -> None:
    """#16-M5: a file cut anywhere gives the same captures and the same damaged record (file,
    byte, detail) with both readers."""
    whole = tmp_path / ("whole.warc.gz" if gz else "whole.warc")
    write(whole, sites(3), gz=gz)
    data = whole.read_bytes()
    damaged = 0
    for size in range(0, len(data) + 1, 1 if gz else 7):
        path = tmp_path / ("cut.warc.gz" if gz else "cut.warc")
        path.write_bytes(data[:size])
        _, bad, _ = assert_same(path, monkeypatch)
        damaged += bool(bad)
    assert damaged


def test_the_fast_path_parses_plain_records_as_warcio_does(tmp_path: Path) -> None:
    """#20: a plain record parsed by the fast path is warcio's record: the same WARC and HTTP
    headers, status line, lengths and payload."""
    import io

    ok = b"HTTP/1.1 301 Moved Permanently\r\nLocation: https://s.test/robots.txt\r\nServer:  x \r\n\r\n"
    data = raw_record(ok, b"moved", extra=b"WARC-Payload-Digest: sha1:AAAA\r\n")
    fast = whole._plain(data)
    slow = whole._loader().parse_record_stream(io.BytesIO(data))
    assert fast is not None
    for name in ("format", "rec_type", "content_type", "length", "payload_length"):
        assert getattr(fast, name) == getattr(slow, name), name
    assert vars(fast.rec_headers) == vars(slow.rec_headers)
    assert vars(fast.http_headers) == vars(slow.http_headers)
    assert fast.raw_stream.read() == slow.raw_stream.read() == b"moved"


def test_a_member_larger_than_the_fast_path_holds_is_read_as_a_stream(tmp_path: Path) -> None:
    """F9: the fast path holds at most MAX_HEADERS decompressed bytes of a member; a larger one
    (a body of 3 MiB) is read as a stream, and its body kept to the size limit and one byte."""
    path = tmp_path / "big.warc.gz"
    write(path, [Record("http://big.test/robots.txt", bomb_body(b"# ", 3, b"\n"), 3 * len(FILLER) + 3)])
    with path.open("rb") as handle:
        assert list(warc._members(handle, 0, path.stat().st_size)) == []
    (capture,) = read_warc(str(path))
    assert len(capture.body) == warc.KEEP


def test_a_sound_archive_is_read_by_the_fast_path_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#20: every record of a sound .warc.gz (one plain record a member) is taken by the fast path:
    the stream reader is never made."""
    path = tmp_path / "sound.warc.gz"
    write(path, sites())

    def no_stream() -> None:
        raise AssertionError("read as a stream")

    monkeypatch.setattr(warc, "_classes", lambda: (None, no_stream))
    assert [capture.url for capture in read_warc(str(path))] == [f"http://s{n}.test/robots.txt" for n in range(8)]
