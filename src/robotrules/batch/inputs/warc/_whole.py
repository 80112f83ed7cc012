"""A WARC record that one gzip member holds whole, parsed at once as warcio's record loader
would parse it (the fast path of :func:`~robotrules.batch.inputs.warc.reading.records`; private to
:mod:`robotrules.batch.inputs.warc`)."""

from __future__ import annotations

import io
from typing import Any

from robotrules.errors import require

__all__ = []


def _loader() -> Any:
    """warcio's record parser, made as its ArchiveIterator makes it (WARC, and ARC read as WARC)."""
    if not _LOADER:
        loaders: Any = require("warcio.recordloader", "batch")
        _LOADER.extend((loaders.ArcWarcRecordLoader(verify_http=False, arc2warc=True), loaders))
    return _LOADER[0]


_LOADER: list[Any] = []  # the loader, and warcio.recordloader


_BLANK = b"\r\n\r\n"


_WARC_LINES = ("WARC/1.0", "WARC/1.1")


_HTTP_RECORDS = ("response", "request", "revisit")


def _plain_head(data: bytes, start: int, stop: int) -> tuple[str, list[tuple[str, str]], int] | None:
    """The first line, the ``name: value`` fields and the length of the head of ``data[start:stop]``
    (header lines up to a blank line) when it is plain: ASCII, CRLF line ends, every line a
    field, none continued; None otherwise. On a plain head warcio's parser gives the same
    (it splits at ``\n``, strips the line's end, splits at the first ``:``)."""
    end = data.find(b"\r\n\r\n", start, stop)
    if end < 0:
        return None
    block = data[start:end]
    if not block.isascii():
        return None
    lines = block.decode("ascii").split("\r\n")
    fields: list[tuple[str, str]] = []
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not name or name[0] in " \t" or "\n" in line or "\r" in line or not line.rstrip():
            return None
        fields.append((name.rstrip(" \t"), value.strip()))
    first = lines[0]
    if "\n" in first or "\r" in first or not first.rstrip():
        return None
    return first.rstrip(), fields, end + 4 - start


def _plain(data: bytes) -> Any:
    """:func:`_whole` for a record whose heads are plain (:func:`_plain_head`), parsed here into
    warcio's own objects as its loader would make them; None for any other (warcio parses it)."""
    if not _LOADER:
        _loader()
    loaders = _LOADER[1]
    parsed = _plain_head(data, 0, len(data))
    if parsed is None or parsed[0] not in _WARC_LINES:
        return None
    first, fields, size = parsed
    warc = _headers(loaders, "", fields, first, size)
    kind = warc.get_header("WARC-Type")
    uri = warc.get_header("WARC-Target-URI")
    length_text = warc.get_header("Content-Length")
    if not kind or length_text is None or not length_text.strip().isdigit():
        return None
    if uri is not None and (" " in uri or (uri.startswith("<") and uri.endswith(">"))):
        return None  # warcio rewrites it
    length = int(length_text)
    if len(data) != size + length + len(_BLANK) or not data.endswith(_BLANK):
        return None
    body = size
    http = None
    payload_length = -1
    if length and kind in _HTTP_RECORDS and uri is not None and uri.startswith(("http:", "https:")):
        head = _plain_head(data, size, size + length)
        if head is None:
            return None
        line, http_fields, http_size = head
        protocol, _, status = line.partition(" ")
        http = _headers(loaders, status.strip(), http_fields, protocol, http_size)
        body += http_size
        payload_length = length - http_size
    stream = io.BytesIO(data[body:size + length])
    return loaders.ArcWarcRecord("warc", kind, warc, stream, http, warc.get_header("Content-Type"), length,
                                 payload_length=payload_length)


def _headers(loaders: Any, statusline: str, fields: list[tuple[str, str]], protocol: str, size: int) -> Any:
    """warcio's StatusAndHeaders of fields already str (its __init__ would copy them again)."""
    made = object.__new__(loaders.StatusAndHeaders)
    made.statusline, made.headers, made.protocol, made.total_len, made.headers_buff = (
        statusline, fields, protocol, size, None)
    return made


def _whole(data: bytes) -> Any:
    """The record one decompressed gzip member holds, parsed as warcio's record loader parses
    it, when it is plainly whole: a WARC record with a WARC-Type and a numeric Content-Length,
    followed by its blank line and nothing more. None for anything else, which is read as a
    stream."""
    if not data.startswith(b"WARC/"):
        return None
    record = _plain(data)
    if record is not None:
        return record
    stream = io.BytesIO(data)
    try:
        record = _loader().parse_record_stream(stream)
    except Exception:  # the stream reader says what is wrong, and where
        return None
    if record.format != "warc" or not record.rec_type or record.length is None:
        return None
    if not (record.rec_headers.get_header("Content-Length") or "").strip().isdigit():
        return None
    left = getattr(record.raw_stream, "limit", None)  # bytes of the block after the heads read
    if not isinstance(left, int) or len(data) != stream.tell() + left + len(_BLANK) or not data.endswith(_BLANK):
        return None
    return record
