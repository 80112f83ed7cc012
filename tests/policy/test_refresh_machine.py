"""The refresh machine as tables: (reply, now) -> next operation, no store and no clock (C1-C3).

Each row drives :class:`robotrules.core.refresh.Refresh` through the replies a driver would send
and checks the operations it asks for, state by state, and how it ends (DESIGN 3, 9). The
drivers that carry these operations out against real stores are tested in tests/client and
tests/faults.
"""

from __future__ import annotations

from typing import Any

import pytest

from robotrules.core.policy import DAY, Entry, Fetch, Policy, Response, begin
from robotrules.core.refresh import Acquire, Done, FetchNow, Get, Put, Refresh, Sleep

KEY = "https://example.com/robots.txt"
T0 = 1_700_000_000.0
P = Policy()


def fetched(at: float, body: bytes = b"User-agent: *\nDisallow: /x\n") -> Entry:
    """The entry of a 200 fetched at ``at``."""
    step = begin(KEY, None, at, P, force=True)
    assert isinstance(step, Fetch)
    entry = step.apply(Response(200, {}, body), at)
    assert isinstance(entry, Entry)
    return entry


FRESH = fetched(T0 - 60)  # fetched a minute ago: fresh until T0 - 60 + DAY
STALE = fetched(T0 - 2 * DAY)  # expired
OTHER = fetched(T0 - 1, b"User-agent: *\nDisallow: /other\n")  # another process's fetch, just now
NEW = fetched(T0 + 1, b"User-agent: *\nDisallow: /new\n")  # what this refresh fetches


def drive(machine: Refresh, replies: list[Any], now: float = T0) -> tuple[list[type], Done]:
    """Send ``replies`` in turn; the kinds of the operations asked for (the first included) and the end."""
    ops = [machine.start(now)]
    for reply in replies:
        assert not isinstance(ops[-1], Done), f"ended before {reply!r}"
        ops.append(machine.send(reply, now))
    end = ops[-1]
    assert isinstance(end, Done), f"wants more after {ops[-1]!r}"
    assert machine.state == "DONE"
    return [type(op) for op in ops[:-1]], end


@pytest.mark.parametrize(("case", "stored", "local", "force", "replies", "ops", "cache", "entry"), [
    ("a fresh copy in the store is used (C1)",
     FRESH, None, False, [], [Get], "hit", FRESH),
    ("a fresh copy held here is used when the store has none or failed (C2)",
     None, FRESH, False, [], [Get], "hit", FRESH),
    ("stale: the lock is taken, the store read again, then one fetch, stored",
     STALE, None, False, ["token", STALE, NEW, None], [Get, Acquire, Get, FetchNow, Put], "miss", NEW),
    ("another process fetched between the first read and the lock: shared, no fetch (C3)",
     STALE, None, False, ["token", OTHER], [Get, Acquire, Get], "shared", OTHER),
    ("the store failed to lock (\"\"): fetch without the lock and without reading again",
     STALE, None, False, ["", NEW, None], [Get, Acquire, FetchNow, Put], "miss", NEW),
    ("an explicit refresh fetches even a fresh copy",
     FRESH, None, True, ["token", FRESH, NEW, None], [Get, Acquire, Get, FetchNow, Put], "miss", NEW),
    ("the lock is held elsewhere: wait, read, and share the other process's fetch (C3)",
     STALE, None, False, [None, None, OTHER], [Get, Acquire, Sleep, Get], "shared", OTHER),
    ("the lock is held elsewhere and nothing new is written: wait, then take the lock",
     STALE, None, False, [None, None, STALE, "token", STALE, NEW, None],
     [Get, Acquire, Sleep, Get, Acquire, Get, FetchNow, Put], "miss", NEW),
])
def test_the_machine_asks_for_the_operations_of_its_table(case: str, stored: Entry | None, local: Entry | None,
                                                          force: bool, replies: list[Any], ops: list[type],
                                                          cache: str, entry: Entry) -> None:
    """C1-C3: the store's answer to the first read (``stored``), then each case's further replies,
    lead through exactly these operations to this end."""
    got_ops, end = drive(Refresh(KEY, P, local=local, force=force), [stored, *replies])
    assert got_ops == ops, case
    assert (end.cache, end.entry.body) == (cache, entry.body), case


def test_a_failed_fetch_keeps_the_good_copy_it_started_from() -> None:
    """C2: the attempt carries what is known (the store's copy merged with this process's), so a
    failure keeps the good copy: the machine fetches with it and stores what the fetch gives."""
    machine = Refresh(KEY, P, local=STALE)
    assert machine.start(T0) == Get(KEY)
    assert machine.send(None, T0) == Acquire(KEY)
    assert machine.send("token", T0) == Get(KEY)
    op = machine.send(None, T0)
    assert isinstance(op, FetchNow) and op.step.cached is not None and op.step.cached.body == STALE.body


def test_waits_double_and_end_at_lock_wait() -> None:
    """C3: waits for another process's fetch double from 20 ms to 250 ms; once ``lock_wait`` is
    spent, the machine stops waiting (the holder died or hangs), reads again and fetches itself."""
    machine = Refresh(KEY, P, lock_wait=1.0)
    op = machine.send(STALE, T0) if machine.start(T0) == Get(KEY) else None
    pauses = []
    while isinstance(op, Acquire):
        op = machine.send(None, T0)  # still held elsewhere
        if isinstance(op, Sleep):
            pauses.append(op.seconds)
            assert machine.send(None, T0) == Get(KEY)
            op = machine.send(None, T0)  # nothing new in the store
    assert pauses[:5] == [0.02, 0.04, 0.08, 0.16, 0.25] and set(pauses[4:]) == {0.25}
    assert sum(pauses) >= 1.0 and sum(pauses) - pauses[-1] < 1.0
    assert machine.gave_up and op == Get(KEY)
    op = machine.send(None, T0)
    assert isinstance(op, FetchNow)


def test_a_copy_written_by_another_process_is_shared_only_when_fresh() -> None:
    """C1, C3: another process's newer attempt is shared only while it is fresh at ``now``; a
    stale one is merged into what is known and the machine goes on to fetch."""
    older_other = fetched(T0 - 1.5 * DAY, b"User-agent: *\nDisallow: /old-other\n")
    machine = Refresh(KEY, P)
    machine.start(T0)
    assert machine.send(fetched(T0 - 2 * DAY), T0) == Acquire(KEY)
    assert machine.send("token", T0) == Get(KEY)
    op = machine.send(older_other, T0)
    assert isinstance(op, FetchNow)
    assert op.step.cached is not None and op.step.cached.body == older_other.body


def test_the_same_attempt_read_again_is_not_shared() -> None:
    """C3: reading back the very entry already known is not another process's fetch."""
    machine = Refresh(KEY, P)
    machine.start(T0)
    assert machine.send(STALE, T0) == Acquire(KEY)
    assert machine.send("token", T0) == Get(KEY)
    assert isinstance(machine.send(STALE, T0), FetchNow)


def test_a_driver_answering_with_the_wrong_type_fails_loudly() -> None:
    """DESIGN 9: replies are typed; a driver bug is a TypeError, not a silent wrong answer."""
    machine = Refresh(KEY, P)
    machine.start(T0)
    with pytest.raises(TypeError):
        machine.send("not an entry", T0)
    machine = Refresh(KEY, P)
    machine.start(T0)
    machine.send(STALE, T0)
    with pytest.raises(TypeError):
        machine.send(STALE, T0)  # an entry where a lock token was due


def test_a_finished_refresh_takes_no_more_replies() -> None:
    """DESIGN 9: DONE is final."""
    machine = Refresh(KEY, P)
    machine.start(T0)
    assert isinstance(machine.send(FRESH, T0), Done)
    with pytest.raises(RuntimeError):
        machine.send(None, T0)


def test_put_writes_what_was_fetched() -> None:
    """C2: the entry the fetch ends with is written to the store (which merges it), then returned."""
    machine = Refresh(KEY, P)
    machine.start(T0)
    machine.send(None, T0)
    machine.send("", T0)
    assert machine.send(NEW, T0) == Put(NEW)
    assert machine.send(None, T0) == Done(NEW, "miss")
