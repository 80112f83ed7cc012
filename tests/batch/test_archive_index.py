"""Capture sets that do not fit in memory: the archive index on disk (issue #11).

An :class:`~robotrules.batch.Archive` over :class:`~robotrules.batch.captures.disk.SQLiteCaptures` keeps
its captures in one SQLite file; it must give exactly the rows of the archive in memory (the same
replay of the fetch policy, F1-F9), keep the latest capture of a URL, be reused while its source
files are unchanged, be rebuilt when they change, and hold no capture in Python memory.
"""

from __future__ import annotations

import gc
import itertools
import json
import multiprocessing
import os
import pickle
from pathlib import Path

import pytest

from robotrules import batch
from robotrules.batch import Archive, Capture
from robotrules.batch.captures import MemoryCaptures, SQLiteCaptures, archive_of
from robotrules.errors import SourceError
from tests.batch.conftest import AGENTS, World
from tests.cli.conftest import Run, assert_clean_error

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")


def raw_warc(path: Path, count: int, *, body_size: int = 64, start: int = 0, site: str = "s") -> Path:
    """A WARC of ``count`` robots.txt response records of https://{site}{n}.example (bodies of
    ``body_size`` bytes, or just the rules when longer), written directly (warcio reads it; writing
    20,000 records with warcio's writer would take seconds)."""
    with path.open("wb") as handle:
        for n in range(start, start + count):
            body = (b"User-agent: *\nDisallow: /p%d\n" % n).ljust(body_size - 1, b"#") + b"\n"  # then a comment
            http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n" % len(body)) + body
            head = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://{site}{n}.example/robots.txt\r\n"
                    f"WARC-Date: 2024-05-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-{n:012d}>\r\n"
                    f"Content-Type: application/http; msgtype=response\r\nContent-Length: {len(http)}\r\n\r\n")
            handle.write(head.encode() + http + b"\r\n\r\n")
    return path


def all_rows(urls: list[str], robots: object, processes: int) -> list[tuple[object, ...]]:
    """Every row of the local engine, in chunks small enough that 2 processes share the work."""
    return list(itertools.chain.from_iterable(batch.rows(urls, AGENTS, robots, processes=processes, chunk_size=7)))


def test_worker_processes_open_their_own_connection_under_fork_and_spawn(tmp_path: Path) -> None:
    """An archive over an index pickles as its path; a worker made by fork (which inherits the
    parent's open connection) or by spawn (which unpickles the archive) reads the captures itself."""
    warc = raw_warc(tmp_path / "small.warc", 50)
    archive = archive_of(str(warc), index=tmp_path / "small.sqlite3")
    url = "https://s7.example/robots.txt"
    want = archive.get(url)  # the parent's connection is open before the workers start
    assert want is not None and b"Disallow: /p7\n" in want.body
    assert len(pickle.dumps(archive)) < 500
    for method in ("fork", "spawn"):
        if method not in multiprocessing.get_all_start_methods():
            continue
        with multiprocessing.get_context(method).Pool(1) as pool:
            assert pool.apply(Archive.get, (archive, url)) == want, method
            assert pool.apply(Archive.__len__, (archive,)) == 50, method
    assert archive.get(url) == want  # the parent's own connection still works


@pytest.mark.parametrize("processes", [1, 2])
@pytest.mark.parametrize("compressed", [True, False], ids=["warc.gz", "warc"])
def test_rows_from_the_index_on_disk_equal_the_rows_from_memory(world: World, tmp_path: Path, processes: int,
                                                                compressed: bool) -> None:
    """F1-F9: 200, 3xx chains (and past the hop limit), 404, 410, 5xx, an HTML body, a body over the
    size limit and a failed capture decide the same rows from the index as from memory."""
    warc = world.warc if compressed else world.plain_warc
    in_memory = archive_of(str(warc))
    on_disk = archive_of(str(warc), index=tmp_path / "captures.sqlite3")
    assert isinstance(in_memory.store, MemoryCaptures) and isinstance(on_disk.store, SQLiteCaptures)
    assert list(on_disk.robots_urls()) == list(in_memory.robots_urls())
    urls = world.urls()
    want = all_rows(urls, in_memory, 1)
    assert len(want) == len(urls) * len(AGENTS)
    assert all_rows(urls, on_disk, processes) == want


def test_the_latest_capture_of_a_url_wins_on_disk_as_in_memory(tmp_path: Path) -> None:
    """A later capture replaces an earlier one whatever the reading order; of two made at the same
    time (or both at an unknown time) the one read later wins; URLs keep the order first seen."""
    def table(name: str, rows: list[tuple[str, float | None, str]]) -> str:
        path = tmp_path / name
        path.write_text("".join(json.dumps({"robots_url": url, "status": 200, "fetched_at": when,
                                            "body": f"User-agent: *\nDisallow: /{body}\n"}) + "\n"
                                for url, when, body in rows))
        return str(path)

    first = table("first.jsonl", [("https://old.example/robots.txt", 200.0, "a"), ("https://tie.example/robots.txt", 100.0, "a"),
                                  ("https://untimed.example/robots.txt", None, "a")])
    second = table("second.jsonl", [("https://old.example/robots.txt", 100.0, "b"), ("https://tie.example/robots.txt", 100.0, "b"),
                                    ("https://untimed.example/robots.txt", None, "b"), ("https://new.example/robots.txt", 50.0, "b")])
    want = {"old": b"/a", "tie": b"/b", "untimed": b"/b", "new": b"/b"}
    in_memory = archive_of([first, second])
    on_disk = archive_of([first, second], index=tmp_path / "index.sqlite3")
    for archive in (in_memory, on_disk):
        assert len(archive) == 4
        assert list(archive.robots_urls()) == [f"https://{name}.example/robots.txt" for name in want]
        for name, path in want.items():
            capture = archive.get(f"https://{name}.example/robots.txt")
            assert capture is not None and capture.body.endswith(b"Disallow: " + path + b"\n"), (archive.store, name)
    assert [on_disk.get(url) for url in in_memory.robots_urls()] == [in_memory.get(url) for url in in_memory.robots_urls()]


def test_revisit_records_are_resolved_the_same_when_indexing(tmp_path: Path) -> None:
    """Building an index resolves revisit records from a temporary file, not memory: by payload
    digest, else by the target URI referred to, also for a revisit read before its response."""
    import base64
    import hashlib
    import io

    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    body = b"User-agent: *\nDisallow: /old\n"
    digest = "sha1:" + base64.b32encode(hashlib.sha1(body).digest()).decode()
    path = tmp_path / "revisits.warc.gz"
    http = StatusAndHeaders("200 OK", [("Content-Type", "text/plain")], protocol="HTTP/1.1")
    with path.open("wb") as handle:
        writer = WARCWriter(handle, gzip=True)

        def revisit(target: str, digest: str, refers: str) -> None:
            writer.write_record(writer.create_revisit_record(
                target, digest, refers, "2024-01-01T00:00:00Z", http_headers=StatusAndHeaders("200 OK", [], protocol="HTTP/1.1")))

        revisit("https://early.example/robots.txt", "sha1:NOTHINGHELDHERE", "https://later.example/robots.txt")
        writer.write_record(writer.create_warc_record("https://a.example/robots.txt", "response",
                                                      payload=io.BytesIO(body), http_headers=http))
        revisit("https://b.example/robots.txt", digest, "https://a.example/robots.txt")
        revisit("https://c.example/robots.txt", "sha1:NOTHINGHELDHERE", "https://a.example/robots.txt")
        revisit("https://d.example/robots.txt", "sha1:NOTHINGHELDHERE", "https://nowhere.example/robots.txt")
        writer.write_record(writer.create_warc_record("https://later.example/robots.txt", "response",
                                                      payload=io.BytesIO(b"User-agent: *\nDisallow: /later\n"),
                                                      http_headers=http))
    in_memory = archive_of(str(path))
    on_disk = archive_of(str(path), index=tmp_path / "revisits.sqlite3")
    urls = list(in_memory.robots_urls())
    assert set(urls) == {f"https://{name}.example/robots.txt" for name in ("a", "b", "c", "later", "early")}
    assert list(on_disk.robots_urls()) == urls
    assert [on_disk.get(url) for url in urls] == [in_memory.get(url) for url in urls]
    early = on_disk.get("https://early.example/robots.txt")
    assert early is not None and early.body == b"User-agent: *\nDisallow: /later\n"
    assert not list(tmp_path.glob("robotrules-bodies-*"))  # the temporary file of bodies is gone


def test_an_index_is_reused_without_reading_the_files_while_they_are_unchanged(tmp_path: Path) -> None:
    """The same files (names, order, sizes, modification times): the index is used as it is. The
    WARC is overwritten with garbage of the same size and time, so reading it again would fail."""
    warc = raw_warc(tmp_path / "captures.warc", 30)
    index = tmp_path / "captures.sqlite3"
    built = archive_of(str(warc), index=index)
    want = [built.get(url) for url in built.robots_urls()]
    made = index.stat()
    times = warc.stat()
    warc.write_bytes(b"\0" * times.st_size)
    os.utime(warc, ns=(times.st_atime_ns, times.st_mtime_ns))
    reused = archive_of(str(warc), index=index)
    assert index.stat().st_ino == made.st_ino and index.stat().st_mtime_ns == made.st_mtime_ns
    assert [reused.get(url) for url in reused.robots_urls()] == want
    with pytest.raises(SourceError, match="not a readable WARC file"):
        archive_of(str(warc), index=tmp_path / "other.sqlite3")  # a new index does read the garbage


def test_an_index_is_rebuilt_when_a_source_file_changed_or_another_is_given(tmp_path: Path) -> None:
    """A changed file (its size or time), or another list of files, makes a new index in place."""
    warc = raw_warc(tmp_path / "captures.warc", 10)
    index = tmp_path / "captures.sqlite3"
    assert len(archive_of(str(warc), index=index)) == 10
    raw_warc(warc, 12)
    grown = archive_of(str(warc), index=index)
    assert len(grown) == 12 and "https://s11.example/robots.txt" in grown
    more = raw_warc(tmp_path / "more.warc", 5, start=100)
    both = archive_of([str(warc), str(more)], index=index)
    assert len(both) == 17 and "https://s104.example/robots.txt" in both
    assert not list(tmp_path.glob("*.partial"))


def test_a_truncated_index_is_rebuilt_and_a_file_that_is_no_index_is_left_alone(tmp_path: Path) -> None:
    """An index cut short (a copy interrupted, a full disk) is rebuilt; a file that is not an index
    (the WARC given by mistake, say) is never overwritten: a clear error instead."""
    warc = raw_warc(tmp_path / "captures.warc", 2000)
    index = tmp_path / "captures.sqlite3"
    want = len(archive_of(str(warc), index=index))
    os.truncate(index, index.stat().st_size // 2)
    rebuilt = archive_of(str(warc), index=index)
    assert len(rebuilt) == want == 2000
    assert rebuilt.get("https://s1999.example/robots.txt") is not None
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"not an index at all\n" * 100)
    with pytest.raises(SourceError, match="is not a capture index made by robotrules"):
        archive_of(str(warc), index=garbage)
    assert garbage.read_bytes() == b"not an index at all\n" * 100
    with pytest.raises(SourceError, match="is a folder"):
        archive_of(str(warc), index=tmp_path)


def test_large_inputs_get_a_temporary_index_deleted_with_the_archive(tmp_path: Path) -> None:
    """Above the size limit (here 0 bytes) the captures go to a temporary index on disk, deleted
    when the archive is closed; at or under it they stay in memory."""
    warc = raw_warc(tmp_path / "captures.warc", 20)
    assert isinstance(archive_of(str(warc)).store, MemoryCaptures)
    assert isinstance(archive_of(str(warc), auto_index_above=warc.stat().st_size).store, MemoryCaptures)
    with archive_of(str(warc), auto_index_above=0) as archive:
        store = archive.store
        assert isinstance(store, SQLiteCaptures)
        assert os.path.exists(store.path) and len(archive) == 20
        assert archive.entry("https://s3.example/robots.txt") is not None
    assert not os.path.exists(store.path)
    collected = archive_of(str(warc), auto_index_above=0)
    path = collected.store.path  # type: ignore[attr-defined]
    del collected
    gc.collect()
    assert not os.path.exists(path)


def test_an_archive_over_an_index_holds_no_capture_in_python_memory(tmp_path: Path) -> None:
    """20,000 captures indexed: the archive's whole Python state is its path (it pickles to a few
    hundred bytes), and no Capture object is left alive once the index is built."""
    warc = raw_warc(tmp_path / "big.warc", 20_000, body_size=512, site="big")
    archive = archive_of(str(warc), index=tmp_path / "big.sqlite3")
    gc.collect()
    assert not [thing for thing in gc.get_objects() if isinstance(thing, Capture) and thing.url.startswith("https://big")]
    assert isinstance(archive.store, SQLiteCaptures)
    assert len(pickle.dumps(archive)) < 500 < warc.stat().st_size // 10_000
    assert len(archive) == 20_000
    last = archive.get("https://big19999.example/robots.txt")
    assert last is not None and last.body.startswith(b"User-agent: *\nDisallow: /p19999\n") and len(last.body) == 512


# -- the command line --------------------------------------------------------------------------


def test_batch_keeps_the_index_given_and_reuses_it(robotrules: Run, world: World, tmp_path: Path) -> None:
    """``--index PATH``: the first run builds the index there, the next one uses it as it is;
    the rows are the rows decided from memory."""
    (tmp_path / "urls.txt").write_text("\n".join(world.urls()) + "\n")
    args = ("batch", "--urls", "urls.txt", *itertools.chain.from_iterable(("-a", a) for a in AGENTS),
            "--robots", str(world.warc))
    plain = robotrules(*args, "--output", "plain.csv", "--processes", "2")
    first = robotrules(*args, "--output", "first.csv", "--index", "robots.sqlite3", "--processes", "2")
    made = (tmp_path / "robots.sqlite3").stat()
    again = robotrules(*args, "--output", "again.csv", "--index", "robots.sqlite3", "--processes", "1")
    assert plain.returncode == first.returncode == again.returncode == 1, (first.stderr, again.stderr)
    assert (tmp_path / "robots.sqlite3").stat().st_ino == made.st_ino
    want = pandas.read_csv(tmp_path / "plain.csv")
    assert len(want) == len(world.urls()) * len(AGENTS)
    assert pandas.read_csv(tmp_path / "first.csv").equals(want)
    assert pandas.read_csv(tmp_path / "again.csv").equals(want)


def test_audit_keeps_the_index_given(robotrules: Run, world: World, tmp_path: Path) -> None:
    """``robotrules audit --index PATH`` audits from the index: the same table as from memory."""
    args = ("audit", "--robots", str(world.warc), "-a", "FooBot", "-a", "*")
    plain = robotrules(*args, "--output", "plain.jsonl")
    indexed = robotrules(*args, "--output", "indexed.jsonl", "--index", "robots.sqlite3")
    assert plain.returncode == indexed.returncode == 0, indexed.stderr
    assert (tmp_path / "robots.sqlite3").stat().st_size > 0
    assert (tmp_path / "indexed.jsonl").read_text() == (tmp_path / "plain.jsonl").read_text()


def test_a_file_that_is_no_index_is_a_one_line_error_and_a_truncated_index_is_rebuilt(
        robotrules: Run, world: World, tmp_path: Path) -> None:
    """Exit code 2 and one line, never a traceback, for a file that is not an index; a damaged
    index is rebuilt and the run goes on."""
    (tmp_path / "urls.txt").write_text(world.bases["missing"] + "/x\n")
    (tmp_path / "notes.txt").write_text("my notes\n")
    args = ("--robots", str(world.warc), "--output", "out.csv", "--index", "notes.txt")
    line = assert_clean_error(robotrules("batch", "--urls", "urls.txt", *args))
    assert "notes.txt is not a capture index made by robotrules" in line
    assert_clean_error(robotrules("audit", *args))
    assert (tmp_path / "notes.txt").read_text() == "my notes\n"
    assert robotrules("batch", "--urls", "urls.txt", *args[:-1], "robots.sqlite3").returncode == 0
    index = tmp_path / "robots.sqlite3"
    damaged = index.stat()
    os.truncate(index, damaged.st_size - 4096)
    done = robotrules("batch", "--urls", "urls.txt", *args[:-1], "robots.sqlite3")
    assert done.returncode == 0, done.stderr
    assert index.stat().st_ino != damaged.st_ino and index.stat().st_size == damaged.st_size  # built anew


def test_index_needs_captures_and_the_local_engine(robotrules: Run, tmp_path: Path) -> None:
    """``--index`` without ``--robots`` (live fetching), or with the Spark engine, is a usage error."""
    (tmp_path / "urls.txt").write_text("https://example.com/\n")
    live = assert_clean_error(robotrules("batch", "--urls", "urls.txt", "--output", "o.csv", "--index", "i.sqlite3"))
    assert "give --robots too" in live
    assert_clean_error(robotrules("audit", "--sites", "urls.txt", "--output", "o.csv", "--index", "i.sqlite3"))
    (tmp_path / "r.jsonl").write_text("")
    spark = assert_clean_error(robotrules("batch", "--urls", "urls.txt", "--robots", "r.jsonl", "--output", "o.csv",
                                          "--engine", "spark", "--index", "i.sqlite3"))
    assert "local engine" in spark
    assert not (tmp_path / "i.sqlite3").exists()
