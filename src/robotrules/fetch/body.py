"""Reading a robots.txt body as it arrives: decoded, and cut at the size limit (F8, F9).

One reader for every way a body reaches robotrules: the live fetchers (:mod:`robotrules.fetch.http`)
and the crawl archives (:mod:`robotrules.batch.inputs.warc.reading`) feed it the raw bytes, in pieces of any size.
Standard library only (zlib), so readers of archives need no HTTP client.
"""

from __future__ import annotations

import zlib
from typing import Any

__all__ = ["BodyReader", "InvalidBody"]


class InvalidBody(Exception):
    """The body cannot be used: an unknown encoding, a corrupt or cut compressed stream (F8: invalid response)."""


class BodyReader:
    """Collects decoded body bytes up to ``limit``; ``full()`` once no more are wanted (F9).

    ``encoding`` is the response's ``Content-Encoding``: ``gzip`` (``x-gzip``), ``deflate``
    (zlib-wrapped or bare), or none; another raises :class:`InvalidBody`. Decoding is bounded:
    never more than ``limit`` bytes are produced, however much a small compressed body expands.
    """

    def __init__(self, encoding: str, limit: int) -> None:
        self.limit = limit
        self.parts: list[bytes] = []
        self.size = 0
        self._deflate = False
        self._head = b""  # deflate: the first bytes, kept until the zlib header can be decided
        self._decoder: Any = None
        encoding = encoding.strip().lower()
        if encoding in ("gzip", "x-gzip"):
            self._decoder = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            self._deflate = True  # zlib-wrapped or bare: decided by the first two bytes, however they arrive
        elif encoding not in ("", "identity"):
            raise InvalidBody(f"unsupported Content-Encoding {encoding!r}")

    def full(self) -> bool:
        """A method, not a property: mypy would keep a property narrowed across ``feed()``."""
        return self.size >= self.limit

    def feed(self, raw: bytes) -> None:
        if self._deflate and self._decoder is None:
            raw = self._head = self._head + raw
            if len(raw) < 2:  # a 1-byte first read says nothing yet: wait for the second byte
                return
            self._start_deflate()
        if self._decoder is not None:
            try:
                raw = self._decoder.decompress(raw, self.limit - self.size)  # bounded output
            except zlib.error as exc:
                raise InvalidBody(f"bad compressed body: {exc}") from None
        self.parts.append(raw[: self.limit - self.size])
        self.size += len(self.parts[-1])

    def _start_deflate(self) -> None:
        """Choose the deflate decoder from the first two bytes (fewer only at the end of the body).

        A zlib header (RFC 1950): compression method 8, a window of at most 32 KiB, and the two
        bytes a multiple of 31 as a 16-bit number; anything else is read as bare deflate.
        """
        head = self._head
        wrapped = len(head) >= 2 and head[0] & 0x0F == 8 and head[0] >> 4 <= 7 and (head[0] << 8 | head[1]) % 31 == 0
        self._decoder = zlib.decompressobj(zlib.MAX_WBITS if wrapped else -zlib.MAX_WBITS)
        self._head = b""

    def finish(self) -> bytes:
        """The body; ``InvalidBody`` if a compressed stream read to its end was cut short (F8)."""
        if self._deflate and self._decoder is None and self._head:  # a 1-byte body: decode what there is
            raw = self._head
            self._start_deflate()
            self.feed(raw)
        if self._decoder is not None and not self.full() and not self._decoder.eof:
            raise InvalidBody("compressed body ends before its end of stream")
        return b"".join(self.parts)
