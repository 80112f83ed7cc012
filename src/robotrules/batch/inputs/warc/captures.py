"""The robots.txt captures of a WARC file: response, revisit and metadata records made
:class:`~robotrules.batch.captures.archive.Capture` objects.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from robotrules.batch.captures.archive import Capture
from robotrules.batch.inputs.fields import _error_kind, _http_headers, _timestamp
from robotrules.batch.inputs.warc.reading import BadRecord
from robotrules.errors import DamagedArchive, SourceError

if TYPE_CHECKING:
    pass

__all__ = ["Bodies", "read_warc"]


class Bodies:
    """The response bodies of one WARC file that its revisit records may refer to, by payload
    digest and by target URI, held in memory. :class:`robotrules.batch.captures.disk.DiskBodies` holds
    them in a temporary file instead, for files whose bodies do not fit in memory."""

    def __init__(self) -> None:
        self._by_digest: dict[str, bytes] = {}
        self._by_uri: dict[str, bytes] = {}

    def keep(self, uri: str, digest: str, body: bytes) -> None:
        """Remember the body of a response to ``uri`` (``digest``: its payload digest, or "")."""
        if digest:
            self._by_digest[digest] = body
        self._by_uri[uri] = body

    def find(self, digest: str, refers: str) -> bytes | None:
        """The body with payload ``digest``, else that of the latest response to ``refers``."""
        body = self._by_digest.get(digest) if digest else None
        return body if body is not None else self._by_uri.get(refers)


def read_warc(path: str, bodies: Bodies | None = None, *,
              bad_records: list[BadRecord] | None = None) -> Iterator[Capture]:
    """The robots.txt captures of one WARC (or WARC.gz) file, read with warcio (see the module).

    Memory is bounded whatever the file holds: payloads are decoded as a stream and kept to the
    size limit and one byte more (F9; :mod:`robotrules.batch.inputs.warc.reading`). Each record is read to its
    end before its capture is given out; a damaged one (the file cut short, a corrupt gzip
    member, a wrong length) raises :class:`DamagedArchive`, or, when ``bad_records`` is a list,
    is appended to it and skipped, and reading goes on at the next readable record.
    ``bodies`` keeps the response bodies the file's revisit records may refer to (default: a new
    :class:`Bodies`, in memory).
    """
    from robotrules.batch.inputs.warc import reading as warc

    seen = bodies if bodies is not None else Bodies()
    pending: list[tuple[str, str, str, int, dict[str, str], float | None]] = []

    def bad(record: BadRecord) -> None:
        if bad_records is None:
            raise DamagedArchive(record)
        bad_records.append(record)

    try:
        yield from warc.records(path, lambda record: _record(record, seen, pending), bad)
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from None
    except warc.NotAnArchive as exc:
        raise SourceError(f"{path}: {exc}") from None
    for uri, digest, refers, status, headers, when in pending:  # revisits of later records
        body = seen.find(digest, refers)
        if body is not None:
            yield Capture(uri, status, headers, body, when)


def _record(record: Any, bodies: Bodies,
            pending: list[tuple[str, str, str, int, dict[str, str], float | None]]) -> Capture | None:
    from robotrules.batch.inputs.warc._payload import Undecodable, fields_of, payload

    kind = record.rec_type
    uri = (record.rec_headers.get_header("WARC-Target-URI") or "").strip("<>")
    if not uri:
        return None
    when = _timestamp(record.rec_headers.get_header("WARC-Date"))
    if kind == "response":
        http = record.http_headers
        if http is None:
            return Capture(uri, 0, {}, b"", when, "protocol")
        try:
            status = int(http.get_statuscode() or 0)
        except ValueError:
            return Capture(uri, 0, {}, b"", when, "protocol")
        try:
            body = payload(record)
        except Undecodable:  # F8: a live fetch of a 2xx gets a protocol failure; other statuses need no body
            if 200 <= status < 300:
                return Capture(uri, 0, {}, b"", when, "protocol")
            body = b""
        bodies.keep(uri, record.rec_headers.get_header("WARC-Payload-Digest") or "", body)
        return Capture(uri, status, _http_headers(http.headers), body, when)
    if kind == "revisit":
        http = record.http_headers
        if http is None:
            return None
        try:
            status = int(http.get_statuscode() or 0)
        except ValueError:
            return None
        digest = record.rec_headers.get_header("WARC-Payload-Digest") or ""
        refers = record.rec_headers.get_header("WARC-Refers-To-Target-URI") or uri
        headers = _http_headers(http.headers)
        held = bodies.find(digest, refers)
        if held is None:
            pending.append((uri, digest, refers, status, headers, when))
            return None
        return Capture(uri, status, headers, held, when)
    if kind == "metadata":
        fields = fields_of(record)
        error = fields.get("error") or fields.get("fetch-error") or fields.get("fetcherror")
        if error:
            return Capture(uri, 0, {}, b"", when, _error_kind(error))
    return None
