"""Entries stored by older versions still read: their reason comes from their sentence (C1-C3).

Versions before reasons were data stored an entry's sentence alone (no ``why`` in the blob, or an
``Entry`` made without it in the memory store). Each store hands such a record out with the reason
its sentence states, read by the one fallback (``robotrules.core.reasons.from_sentence``); the next
``put`` writes the reason as data. The records below are literal, as those versions wrote them.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from robotrules import RobotsClient
from robotrules.cache import decode_entry, encode_entry
from robotrules.cache.base import Store
from robotrules.core.policy import Entry
from robotrules.core.reasons import Reason

URL = "https://example.com/robots.txt"
T = 1_700_000_000.0

OLD_RECORDS = [
    pytest.param(
        b'{"url":"https://example.com/robots.txt","outcome":"rules","status":200,"reason":"200: rules from the body",'
        b'"fetched_at":1700000000.0,"expires_at":1700086400.0,"good_status":200,"good_at":1700000000.0,"failures":0,'
        b'"failing_since":null,"final_url":"https://example.com/robots.txt","redirects":0}\nUser-agent: *\nDisallow: /x\n',
        Reason("rules", 200), id="rules"),
    pytest.param(
        b'{"url":"https://example.com/robots.txt","outcome":"error","status":0,"reason":"connect error: [Errno 111] '
        b'Connection refused","fetched_at":1700000000.0,"expires_at":1700000300.0,"good_status":200,'
        b'"good_at":1699990000.0,"failures":1,"failing_since":1700000000.0,"final_url":"https://example.com/robots.txt",'
        b'"redirects":0}\nUser-agent: *\nDisallow: /x\n',
        Reason("network", failure="connect", detail="[Errno 111] Connection refused"), id="network-with-good-copy"),
    pytest.param(
        b'{"url":"https://example.com/robots.txt","outcome":"allow","status":301,"reason":"redirect loop back to '
        b'https://example.com/robots.txt: treated as 404, full allow","fetched_at":1700000000.0,'
        b'"expires_at":1700086400.0,"good_status":301,"good_at":1700000000.0,"failures":0,"failing_since":null,'
        b'"final_url":"https://example.com/a","redirects":1}\n',
        Reason("redirect-loop", 301, detail="https://example.com/robots.txt"), id="loop"),
    pytest.param(
        b'{"url":"https://example.com/robots.txt","outcome":"error","status":503,"reason":"503: server error",'
        b'"fetched_at":1700000000.0,"expires_at":1700000300.0,"good_status":0,"good_at":null,"failures":2,'
        b'"failing_since":1699999000.0,"final_url":"","redirects":0}\n',
        Reason("server-error", 503), id="server-error"),
    pytest.param(
        b'{"url":"https://example.com/robots.txt","outcome":"allow","status":500,"reason":"500, but the site answers '
        b'5xx for missing pages: treated as 404, full allow","fetched_at":1700000000.0,"expires_at":1700086400.0,'
        b'"good_status":500,"good_at":1700000000.0,"failures":0,"failing_since":null,'
        b'"final_url":"https://example.com/robots.txt","redirects":0}\n',
        Reason("missing-pages-5xx", 500), id="misconfigured-5xx"),
    pytest.param(
        b'{"url":"https://example.com/robots.txt","outcome":"rules","status":200,"reason":"200: rules from the body (F2)",'
        b'"fetched_at":1700000000.0,"expires_at":1700086400.0,"good_status":200,"good_at":1700000000.0,"failures":0,'
        b'"failing_since":null,"final_url":"https://example.com/robots.txt","redirects":0}\nUser-agent: *\n',
        Reason("rules", 200), id="earliest-wording"),
]


@pytest.mark.parametrize(("blob", "why"), OLD_RECORDS)
def test_a_record_an_older_version_stored_reads_with_the_reason_its_sentence_states(
        store: Store, raw_writer: Callable[[str, object], None], blob: bytes, why: Reason) -> None:
    """C2, C3: memory, SQLite and Redis hand out an old record whole, its reason read from its sentence."""
    raw_writer(URL, blob)
    entry = store.get(URL)
    assert entry is not None
    meta = json.loads(blob.partition(b"\n")[0])
    assert (entry.reason, entry.status, entry.body) == (meta["reason"], meta["status"], blob.partition(b"\n")[2])
    assert entry.why == why


def test_the_next_put_over_an_old_record_stores_the_reason_as_data(
        store: Store, raw_writer: Callable[[str, object], None]) -> None:
    """C2: a put merges with the old record (its good copy kept) and writes the reason with it."""
    raw_writer(URL, OLD_RECORDS[1].values[0])
    failed = Entry(url=URL, outcome="error", status=503, reason="503: server error", fetched_at=T + 60,
                   expires_at=T + 360, failures=2, failing_since=T, why=Reason("server-error", 503))
    store.put(failed)
    kept = store.get(URL)
    assert kept is not None and kept.why == Reason("server-error", 503) and kept.good_status == 200
    assert json.loads(encode_entry(kept).partition(b"\n")[0])["why"] == {"code": "server-error", "status": 503}


def test_an_entry_made_without_a_reason_in_the_memory_store_reads_with_one() -> None:
    """The memory store keeps objects: an Entry made as older code made it (no ``why``) has the
    reason its sentence states from the moment it is made, and keeps it through the store."""
    from robotrules import MemoryStore

    store = MemoryStore()
    old = Entry(url=URL, outcome="allow", status=404, reason="404: no robots.txt, full allow", fetched_at=T,
                expires_at=T + 86_400, good_status=404, good_at=T)
    store.put(old)
    got = store.get(URL)
    assert got is not None and got.why == Reason("no-robots-txt", 404)


def test_a_client_explains_an_old_record_from_its_reason(store: Store, raw_writer: Callable[[str, object], None]) -> None:
    """DESIGN 5: a client reading an old record says what happened as it would for its own."""
    raw_writer(URL, OLD_RECORDS[2].values[0])
    with RobotsClient(store, clock=lambda: T + 10) as client:
        state = client.robots(URL)
    assert (state.kind, state.why.code, state.cache) == ("allow", "redirect-loop", "hit")
    assert state.cause() == "robots.txt redirects in a loop (back to https://example.com/robots.txt)"


def test_a_blob_of_a_newer_version_with_an_unknown_code_reads_by_its_sentence() -> None:
    """A reason this version cannot read (a code added later, a field it does not know) is not
    trusted: the entry reads, its reason taken from its sentence."""
    entry = Entry(url=URL, outcome="error", status=503, reason="503: server error", fetched_at=T, expires_at=T + 60,
                  failures=1, failing_since=T, why=Reason("server-error", 503))
    head, _, body = encode_entry(entry).partition(b"\n")
    for why in ({"code": "server-on-fire", "status": 503}, {"code": "server-error", "status": 503, "flames": 3}, "x"):
        meta = json.loads(head) | {"why": why}
        got = decode_entry(json.dumps(meta).encode() + b"\n" + body, URL)
        assert got.why == Reason("server-error", 503)


def test_a_blob_holds_the_reason_as_the_fields_that_differ_from_their_defaults() -> None:
    """C3: every store writes the same bytes; the reason is one JSON object in the metadata line."""
    entry = Entry(url=URL, outcome="allow", status=301, reason="x", fetched_at=T, expires_at=T + 60, good_status=301,
                  good_at=T, why=Reason("redirect-limit", 301, limit=5))
    meta = json.loads(encode_entry(entry).partition(b"\n")[0])
    assert meta["why"] == {"code": "redirect-limit", "status": 301, "limit": 5}
    assert decode_entry(encode_entry(entry), URL) == entry
