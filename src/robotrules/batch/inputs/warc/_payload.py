"""The HTTP payload of a WARC record, decoded as a live fetch decodes it and kept to the size limit
(F8, F9), and the fields of a metadata record (private to :mod:`robotrules.batch`; the face is
:mod:`robotrules.batch.inputs.warc.reading`, whose docstring says how payloads are read)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from robotrules.core.lexer import SIZE_LIMIT
from robotrules.fetch.body import BodyReader, InvalidBody

__all__ = ["KEEP", "MAX_FIELDS", "Undecodable", "fields_of", "payload"]

KEEP = SIZE_LIMIT + 1
"""Bytes of a payload kept: the size limit (F9) and one more, which tells that the rest was ignored."""

MAX_FIELDS = 64 * 1024
"""Bytes of a metadata record read for its fields."""

_PIECE = 64 * 1024  # payload bytes handed to the decoder at a time
_SNIFF = 64 * 1024  # payload bytes that may go by before a compressed payload gives its first byte


class Undecodable(Exception):
    """An HTTP payload that cannot be decoded (F8: what a live fetch calls a protocol failure)."""


def _pieces(stream: Any) -> Iterator[bytes]:
    while True:
        piece = stream.read(_PIECE)
        if not piece:
            return
        yield bytes(piece)


def _dechunked(stream: Any) -> Iterator[bytes]:
    """``Transfer-Encoding: chunked`` undone as a stream, as warcio undoes it: a payload that
    turns out not to be chunked (archives often hold it de-chunked under the original header) is
    passed on as it is from there, and one cut short gives what there is."""
    while True:
        header = bytes(stream.readline(64))
        try:
            size = int(header[:-2].split(b";")[0], 16) if header.endswith(b"\r\n") else -1
        except ValueError:
            size = -1
        if size < 0:
            yield header
            yield from _pieces(stream)
            return
        if size == 0:
            return
        while size > 0:
            piece = stream.read(min(size, _PIECE))
            if not piece:
                return
            size -= len(piece)
            yield bytes(piece)
        end = bytes(stream.read(2))
        if end != b"\r\n":
            yield end
            yield from _pieces(stream)
            return


class _Brotli:
    """A ``br`` payload decoded with a bounded output, into the live reader's identity body."""

    def __init__(self, limit: int) -> None:
        try:
            import brotli  # type: ignore[import-untyped, import-not-found, unused-ignore]
        except ImportError:
            raise Undecodable("Content-Encoding 'br' needs the brotli package") from None
        self._brotli: Any = brotli
        self._decoder: Any = brotli.Decompressor()
        self._out = BodyReader("", limit)
        if not hasattr(self._decoder, "can_accept_more_data"):
            raise Undecodable("Content-Encoding 'br' needs brotli 1.2 or later (a bounded decoder)")

    @property
    def size(self) -> int:
        return self._out.size

    def full(self) -> bool:
        return self._out.full()

    def feed(self, raw: bytes) -> None:
        try:
            self._out.feed(self._decoder.process(raw, output_buffer_limit=self._room()))
            while not self._out.full() and not self._decoder.can_accept_more_data():
                self._out.feed(self._decoder.process(b"", output_buffer_limit=self._room()))
        except self._brotli.error as exc:
            raise Undecodable(f"bad compressed body: {exc}") from None

    def _room(self) -> int:
        return max(1, self._out.limit - self._out.size)

    def finish(self) -> bytes:
        if not self._out.full() and not self._decoder.is_finished():
            raise Undecodable("compressed body ends before its end of stream")
        return bytes(self._out.finish())


def _decoder(encoding: str, limit: int) -> BodyReader | _Brotli:
    """The bounded reader of a body in ``encoding`` (:class:`Undecodable` for one it cannot read)."""
    if encoding == "br":
        return _Brotli(limit)
    try:
        return BodyReader(encoding, limit)
    except InvalidBody as exc:
        raise Undecodable(str(exc)) from None


def payload(record: Any, limit: int = KEEP) -> bytes:
    """The HTTP payload of ``record``: de-chunked and decoded as a stream, at most ``limit`` bytes
    (see the module); :class:`Undecodable` when it cannot be decoded."""
    http = record.http_headers
    encoding = (http.get_header("content-encoding") or "").strip().lower()
    chunked = (http.get_header("transfer-encoding") or "").strip().lower() == "chunked"
    if not chunked and encoding in ("", "identity"):  # as stored: one bounded read
        return bytes(record.raw_stream.read(limit))
    pieces = _dechunked(record.raw_stream) if chunked else _pieces(record.raw_stream)
    body = _decoder(encoding, limit)
    seen: list[bytes] | None = [] if encoding not in ("", "identity") else None  # raw bytes before any output
    try:
        for piece in pieces:
            if seen is not None:
                seen.append(piece)
            try:
                body.feed(piece)
            except (InvalidBody, Undecodable):
                if seen is None or body.size:
                    raise
                body, raw, seen = _decoder("", limit), b"".join(seen), None  # stored decoded after all
                body.feed(raw)
            if seen is not None and (body.size or sum(map(len, seen)) > _SNIFF):
                seen = None
            if body.full():
                break
        return bytes(body.finish())
    except InvalidBody as exc:
        raise Undecodable(str(exc)) from None


def fields_of(record: Any) -> dict[str, str]:
    """The ``name: value`` fields of a metadata record (its first :data:`MAX_FIELDS` bytes), names lower-cased."""
    data = bytes(record.raw_stream.read(MAX_FIELDS))
    found: dict[str, str] = {}
    for line in data.decode("utf-8", "replace").splitlines():
        name, sep, value = line.partition(":")
        if sep:
            found[name.strip().lower()] = value.strip()
    return found
