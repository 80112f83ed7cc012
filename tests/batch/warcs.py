"""WARC files written byte by byte for the tests of damaged and hostile archives (issue #16).

warcio's writer reads a whole payload to compute its digests; these writers stream, so a record
whose payload is tens of megabytes (a "zip bomb": a few kilobytes on disk) is written in a
fraction of a second. Each record is a real WARC/1.0 ``response`` record (one gzip member per
record for ``.warc.gz``), which warcio reads as any crawler's; :func:`write` returns the byte
offset where each record starts, so tests can say where damage is.
"""

from __future__ import annotations

import uuid
import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

FILLER = b"x" * (1 << 20)


@dataclass
class Record:
    """One response record: ``payload`` pieces (bytes as they travel, already compressed or
    chunked when the headers say so) and their total ``size``."""

    url: str
    payload: Iterable[bytes]
    size: int
    status: int = 200
    headers: Sequence[tuple[str, str]] = field(default_factory=tuple)

    @classmethod
    def of(cls, url: str, body: bytes, status: int = 200, headers: Sequence[tuple[str, str]] = ()) -> Record:
        return cls(url, [body], len(body), status, headers)


def _pieces(record: Record) -> Iterator[bytes]:
    http = [f"HTTP/1.1 {record.status} Whatever"]
    http += [f"{name}: {value}" for name, value in record.headers]
    head = ("\r\n".join(http) + "\r\n\r\n").encode("latin-1")
    length = len(head) + record.size
    warc = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{uuid.uuid4()}>\r\n"
            f"WARC-Date: 2024-05-01T12:00:00Z\r\nWARC-Target-URI: {record.url}\r\n"
            f"Content-Type: application/http; msgtype=response\r\nContent-Length: {length}\r\n\r\n").encode()
    yield warc
    yield head
    yield from record.payload
    yield b"\r\n\r\n"


def write(path: Path, records: Iterable[Record], *, gz: bool = True) -> list[int]:
    """Write ``records`` to ``path`` (one gzip member each when ``gz``); the offset of each record."""
    offsets: list[int] = []
    with path.open("wb") as handle:
        for record in records:
            offsets.append(handle.tell())
            packer = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS) if gz else None
            for piece in _pieces(record):
                handle.write(packer.compress(piece) if packer is not None else piece)
            if packer is not None:
                handle.write(packer.flush())
    return offsets


def gzipped(pieces: Iterable[bytes]) -> bytes:
    """``pieces`` as one gzip stream (as a server's ``Content-Encoding: gzip``)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return b"".join([*(packer.compress(piece) for piece in pieces), packer.flush()])


def bomb_body(head: bytes, megabytes: int, tail: bytes) -> Iterator[bytes]:
    """``head``, ``megabytes`` MiB of filler (inside a comment line, when ``head`` ends in "# "), ``tail``."""
    yield head
    for _ in range(megabytes):
        yield FILLER
    yield tail


def chunked(data: bytes, size: int = 4096) -> bytes:
    """``data`` with ``Transfer-Encoding: chunked`` framing."""
    parts = [b"%x\r\n%s\r\n" % (len(data[i:i + size]), data[i:i + size]) for i in range(0, len(data), size)]
    return b"".join(parts) + b"0\r\n\r\n"
