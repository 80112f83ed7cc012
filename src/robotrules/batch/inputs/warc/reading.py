"""WARC records read with a bounded memory, and damage found and placed (F9; issue #16).

warcio parses the records; this module decides how much of each is kept and whether each was
whole. :mod:`robotrules.batch.inputs` turns the records into captures.

**Bounded (F9).** Nothing a record says makes the reader hold more than a fixed amount:

* record-level gzip (``.warc.gz``, one member a record) is decompressed a block at a time with a
  bounded output (:class:`_Reader`), so a small member that expands to gigabytes streams through;
* the HTTP payload is de-chunked (``Transfer-Encoding: chunked``) and decoded
  (``Content-Encoding``: gzip, deflate, and br with brotli 1.2 or later) as a stream by the live
  fetcher's own body reader (:class:`robotrules.fetch.body.BodyReader`), and kept to
  :data:`KEEP` bytes: the :data:`~robotrules.core.lexer.SIZE_LIMIT` bytes that count and one more,
  which says the rest was there and was ignored (:meth:`robotrules.batch.captures.archive.Archive.entry`
  says so in the reason). Reading stops there; the rest of the record is skipped as a stream;
* WARC and HTTP header lines are capped at :data:`MAX_HEADERS` bytes a record, and the fields of
  a metadata record at :data:`MAX_FIELDS`.

A payload is decoded as a live fetch decodes it: a compressed stream that ends early, or one
that goes wrong part way, cannot be used (F8: a protocol failure), and a Content-Encoding the
reader does not have (``compress``, ``zstd``, several at once) neither. One leniency is kept
from warcio, because archives need it: a payload that does not start as the compression its
header names (a crawler that stored the decoded payload under the original header) is read as
it is.

**Whole.** Each record is read to its end before its capture is given out, and is damaged when:
it ends before its ``Content-Length`` (a file cut short), it has no ``Content-Length``, the
blank line after it is missing (its length is wrong), its gzip member is cut or corrupt, warcio
cannot parse it, or its headers run past :data:`MAX_HEADERS`. Bytes after the last whole record
that make no record are damage too. Each is a :class:`BadRecord`: the file, the byte where the
damaged record (or the unreadable data) starts, and what is wrong. :func:`records` hands each one
to the caller, which raises or counts it; to go on after one it looks for the next record (the
next gzip member, or the next ``WARC/`` line of an uncompressed file) and reads on from there,
so a damaged stretch of a file is one bad record, however many records it held.

**Fast (issue #20).** Read this way, warcio's line-by-line parsing costs more than the
decompression. So a ``.warc.gz`` is first read a whole gzip member at a time (:func:`_members`:
zlib in one call, the member's CRC and length checked, at most :data:`MAX_HEADERS` bytes of
output held), and a member that is plainly one whole record (:func:`_whole`: ``WARC/1.0`` or
``WARC/1.1``, a ``WARC-Type``, a numeric ``Content-Length`` that ends exactly at the blank line
ending the member) is parsed in memory into warcio's own record objects (:func:`_plain` for ASCII
heads of ``name: value`` lines, which warcio's parser reads the same way; warcio's loader over
the bytes for the rest), and handed to ``make`` as the stream reader's record would be. Anything
else (a member cut short or corrupt, larger than :data:`MAX_HEADERS`, holding several records,
not gzip; an uncompressed file) is read from its first byte as a stream, as above, which finds,
places and reports it; after a whole record the fast path takes over again at the next member.
Both give the same records and the same damage (``tests/batch/test_warc_readers.py`` compares
them; :data:`READER` selects one). fastwarc (Resiliparse) is not used: its iterator gives out a
record whose gzip member was cut short and skips a record cut mid-member in silence, it places no
damage, its memory is outside Python's accounting, and its header parsing is not warcio's.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO, Any, TypeVar

from robotrules.batch.inputs.warc._payload import KEEP, MAX_FIELDS, Undecodable, fields_of, payload
from robotrules.batch.inputs.warc._whole import _whole
from robotrules.errors import require

__all__ = ["KEEP", "MAX_FIELDS", "MAX_HEADERS", "BadRecord", "NotAnArchive", "Undecodable", "fields_of", "payload", "records"]

MAX_HEADERS = 1 << 20
"""Bytes of header lines (WARC and HTTP together) one record may have: 1 MiB."""

_BLOCK = 16 * 1024  # compressed bytes read from the file at a time
_BLOCK_OUT = 64 * 1024  # bytes of output one block may give at a time (a gzip member expands up to ~1000x)
_RESYNC_WINDOW = 1 << 20

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class BadRecord:
    """A damaged record of a crawl archive: the file, the byte ``offset`` where the record (or
    the data that makes no record) starts, and what is wrong with it."""

    path: str
    offset: int
    detail: str

    def __str__(self) -> str:
        return f"{self.path}: damaged at byte {self.offset}: {self.detail}"

    def to_dict(self) -> dict[str, Any]:
        """As JSON-ready data: ``path``, ``offset``, ``detail``."""
        return {"path": self.path, "offset": self.offset, "detail": self.detail}


class NotAnArchive(Exception):
    """A file whose first record cannot be read at all: not a WARC file (or one gzip member for
    the whole file, which cannot be read record by record)."""


class _Damage(Exception):
    """What is wrong with the record being read (becomes a :class:`BadRecord`)."""


def _warcio() -> tuple[Any, Any]:
    iterators: Any = require("warcio.archiveiterator", "batch")
    readers: Any = require("warcio.bufferedreaders", "batch")
    return iterators.ArchiveIterator, readers.DecompressingBufferedReader


def _classes() -> tuple[type[Any], type[Any]]:
    """The warcio subclasses, made once warcio is known to be there (it is an optional extra)."""
    if _MADE:
        return _MADE[0], _MADE[1]
    iterator_base, reader_base = _warcio()

    base_readline = reader_base.readline

    class Reader(reader_base):  # type: ignore[misc, valid-type]
        """warcio's gzip-member reader with a bounded output, an error for bad gzip data (warcio
        writes it to stderr and goes on, or reads the rest as if it were not compressed) and a
        cap on header lines. Whether the file is gzipped is decided by its first bytes, not guessed
        from a failure."""

        head = 0  # header bytes read for the current record
        counting = True  # reading a record's headers (not its payload)
        decompressor: Any
        starting_data: Any

        def _decompress(self, data: bytes) -> bytes:
            decompressor = self.decompressor
            if decompressor is None or not data:
                return data
            try:
                out: bytes = decompressor.decompress(data, _BLOCK_OUT)
            except zlib.error as exc:
                raise _Damage(f"bad gzip data ({exc})") from None
            if decompressor.unconsumed_tail:  # what the bounded output left: warcio feeds it next
                self.starting_data = decompressor.unconsumed_tail
            return out

        def readline(self, length: int | None = None) -> bytes:
            if not self.counting:  # a line of a payload (a chunk's size) or after a record: bounded, no more
                return bytes(base_readline(self, MAX_HEADERS if length is None or length > MAX_HEADERS else length))
            room = MAX_HEADERS - self.head
            line: bytes = base_readline(self, room + 1 if length is None or length > room else length)
            self.head += len(line)
            if self.head > MAX_HEADERS:
                raise _Damage(f"its header lines run past {MAX_HEADERS:,} bytes")
            return line

    class Records(iterator_base):  # type: ignore[misc, valid-type]
        """warcio's iterator over :class:`Reader`, noting (not printing) a record whose length is wrong."""

        def __init__(self, handle: IO[bytes], gzipped: bool) -> None:
            super().__init__(handle, arc2warc=True, block_size=_BLOCK)
            self.reader = Reader(self.fh, block_size=_BLOCK, decomp_type="gzip" if gzipped else None)
            self.wrong_length = False

        def _next_record(self, next_line: bytes | None) -> Any:
            self.reader.head = len(next_line or b"")
            self.reader.counting = True
            self.wrong_length = False
            record = super()._next_record(next_line)
            self.reader.counting = False  # the headers are read: the payload's lines are not headers
            return record

        def _consume_blanklines(self) -> tuple[bytes | None, int]:
            """As warcio's, but a record not followed by a blank line is noted, not printed."""
            empty_size = 0
            first_line = True
            while True:
                line = self.reader.readline()
                if not line:
                    return None, empty_size
                if not line.rstrip() or first_line:
                    empty_size += len(line)
                    if line.rstrip():
                        self.wrong_length = True
                    first_line = False
                    continue
                return line, empty_size

    _MADE.extend((Reader, Records))
    return Reader, Records


_MADE: list[type[Any]] = []


def _incomplete(reader: Any, record: Any, first: bool) -> str:
    """What is wrong with ``record``, read to its end ("" when it is whole); ``first``: the first
    record of the file."""
    if record.length is None:
        return "the record has no Content-Length"
    if record.format == "warc" and not (record.rec_headers.get_header("Content-Length") or "").strip().isdigit():
        return "the record's Content-Length is not a number"
    if record.format == "warc" and not record.rec_type:
        return "the record has no WARC-Type"
    left = getattr(record.raw_stream, "limit", 0)
    if left > 0:
        return f"the record ends {left:,} bytes before its Content-Length ({int(record.length):,}): the file is cut short"
    if reader.wrong_length:
        return "the record is not followed by a blank line: its Content-Length is wrong"
    decompressor = reader.reader.decompressor
    if decompressor is not None and not decompressor.eof:  # its gzip member should end with it
        if first and (reader.next_line or b"").startswith(b"WARC/"):
            raise NotAnArchive("not a WARC file with one gzip member per record, which is needed to read it "
                               "record by record ('warcio recompress' makes one)")
        if reader.reader.rem_length() == 0 and not reader.reader.starting_data:
            return "the file ends inside the record's gzip member: the file is cut short"
        return "the record's gzip member does not end with the record: the member is corrupt"
    return ""


_HEAD_CUT = "the file ends inside the record's headers: the file is cut short"


def _ends_inside(reader: Any, handle: IO[bytes], size: int, at: int, gzipped: bool) -> bool:
    """Whether the file ends inside the record that starts at ``at`` and could not be parsed."""
    if gzipped:
        decompressor = reader.reader.decompressor
        return bool(decompressor is not None and not decompressor.eof and not reader.reader.starting_data
                    and handle.tell() >= size)
    handle.seek(at)
    head = handle.read(MAX_HEADERS + 4)
    starts = b"WARC/".startswith(head) if len(head) < 5 else head.startswith(b"WARC/")  # a record's first bytes
    return starts and len(head) < MAX_HEADERS and b"\r\n\r\n" not in head and b"\n\n" not in head


def _describe(exc: BaseException, what: str = "not a readable WARC record") -> str:
    if isinstance(exc, _Damage):
        return str(exc)
    detail = " ".join(str(exc).split())  # warcio's messages run over several lines: one line here
    if len(detail) > 200:
        detail = detail[:200] + "..."
    return f"{what} ({type(exc).__name__}{': ' + detail if detail else ''})"


def _next_start(handle: IO[bytes], after: int, size: int, gzipped: bool) -> int | None:
    """Where the next record may start after byte ``after``: a gzip member's header, or a ``WARC/``
    line; None when there is none."""
    marker = b"\x1f\x8b\x08" if gzipped else b"\nWARC/"
    skip = 0 if gzipped else 1  # the record starts after the newline
    position = after + 1
    while position < size:
        handle.seek(position)
        window = handle.read(_RESYNC_WINDOW + len(marker))
        found = window.find(marker)
        if found >= 0:
            return position + found + skip
        if len(window) <= len(marker):
            return None
        position += len(window) - len(marker) + 1
    return None


_FEED = 8 * 1024  # compressed bytes handed to a member's decompressor at a time (whole members)
_READ = 1 << 20  # compressed bytes read from the file at a time (whole members)

READER = "members"
"""How :func:`records` reads a ``.warc.gz`` file: ``"members"`` (the default) decompresses each
gzip member whole in memory while the members are plainly whole records of at most
:data:`MAX_HEADERS` bytes, and reads the rest as a stream; ``"stream"`` reads everything as a
stream. Both give the same records and the same damage (a test compares them); a benchmark sets it."""


def _members(handle: IO[bytes], position: int, size: int) -> Iterator[tuple[int, int, bytes]]:
    """The gzip members from byte ``position``, each whole and decompressed: (start, end, data),
    while each ends (zlib checks its CRC and length) and expands to at most :data:`MAX_HEADERS`
    bytes. The first that does not (cut short, corrupt, larger, not gzip) ends it: :func:`records`
    reads on from its start as a stream, which places what is wrong and holds a large member a
    block at a time. Holds at most 2 x :data:`MAX_HEADERS` + :data:`_READ` compressed and
    :data:`MAX_HEADERS` + 1 decompressed bytes, whatever a member holds."""
    buffer = b""
    base = position  # the file offset of buffer[0]
    at = 0  # where the next member starts in buffer
    while base + at < size:
        start = base + at
        unpack = zlib.decompressobj(16 + zlib.MAX_WBITS)
        out: list[bytes] = []
        kept = 0
        fed = at
        while not unpack.eof:
            if fed - at > 2 * MAX_HEADERS:  # a long gzip header (a comment, an extra field): read as a stream
                return
            if fed >= len(buffer):
                if base + len(buffer) >= size:
                    return  # the file ends inside the member
                handle.seek(base + len(buffer))
                more = handle.read(_READ)
                if not more:  # the file is shorter than it was
                    return
                buffer, fed = buffer[at:] + more, fed - at
                base, at = start, 0
            piece = buffer[fed:fed + _FEED]
            fed += len(piece)
            try:
                data = unpack.decompress(piece, MAX_HEADERS + 1 - kept)
            except zlib.error:
                return
            kept += len(data)
            if kept > MAX_HEADERS or unpack.unconsumed_tail:  # a large member: read as a stream
                return
            out.append(data)
        at = fed - len(unpack.unused_data)
        yield start, base + at, out[0] if len(out) == 1 else b"".join(out)


def records(path: str, make: Callable[[Any], T | None], on_bad: Callable[[BadRecord], None]) -> Iterator[T]:
    """What ``make`` makes of each whole record of the WARC (or ARC) file at ``path``, in file order.

    ``make`` reads what it needs of a record (with :func:`payload` and :func:`fields_of`); the
    record is then read to its end and checked, and only a whole record's value is given out
    (None is skipped). Each damaged record is handed to ``on_bad``, which raises to stop, or
    returns to go on with the next readable record. A file whose first record cannot be parsed is
    :class:`NotAnArchive`; ``OSError`` from the file is raised as it is.
    """
    _, records_class = _classes()
    size = os.path.getsize(path)
    with open(path, "rb") as handle:
        gzipped = handle.read(2) == b"\x1f\x8b"  # one gzip member a record, or none
        position = 0
        whole = 0  # records read whole from the file
        damaged = False  # inside a damaged stretch: its bad record is already reported
        while True:
            if gzipped and READER == "members":  # whole members in memory while they are whole records
                for _, end, data in _members(handle, position, size):
                    record = _whole(data)
                    if record is None:
                        break
                    try:
                        made = make(record)
                    except (_Damage, EOFError, zlib.error):
                        break  # read again as a stream, which says what is wrong
                    position = end
                    whole += 1
                    damaged = False
                    if made is not None:
                        yield made
                if position >= size:
                    return
            handle.seek(position)
            reader = records_class(handle, gzipped)
            iterator = iter(reader)
            problem = ""
            at = position
            resume = False
            while True:
                at = max(position, reader.offset)
                try:
                    record = next(iterator)
                except StopIteration:
                    break
                except OSError:
                    raise
                except Exception as exc:  # warcio's ArchiveLoadFailed and parser errors, _Damage: from the bytes
                    if _ends_inside(reader, handle, size, at, gzipped):
                        problem = _HEAD_CUT
                        break
                    if at == 0 and not whole and not isinstance(exc, _Damage):
                        raise NotAnArchive(_describe(exc, "not a readable WARC file")) from None
                    if "non-chunked gzip" in str(exc):  # warcio's words: one gzip stream for every record
                        raise NotAnArchive("not a WARC file with one gzip member per record, which is needed to "
                                           "read it record by record ('warcio recompress' makes one)") from None
                    problem = _describe(exc)
                    break
                try:
                    made = make(record)
                    reader.read_to_end()
                    problem = _incomplete(reader, record, at == 0 and not whole)
                    if problem.startswith("the record has no Content-Length") or problem.endswith("not a number"):
                        problem = _HEAD_CUT if _ends_inside(reader, handle, size, at, gzipped) else problem
                except (_Damage, EOFError, zlib.error) as exc:
                    problem = _describe(exc)
                if problem:
                    break
                whole += 1
                damaged = False
                if made is not None:
                    yield made
                if gzipped and READER == "members" and not reader.next_line and reader.offset > at:
                    position, resume = reader.offset, True  # at the end of its member: the next may be whole
                    break
            if resume:
                continue
            if not problem:
                at = max(position, reader.offset)
                if at >= size:
                    return
                problem = f"the {size - at:,} bytes after the last whole record make no record: the file is cut short"
            if not damaged:
                on_bad(BadRecord(path, at, problem))
                damaged = True
            found = _next_start(handle, at, size, gzipped)
            if found is None:
                return
            position = found
