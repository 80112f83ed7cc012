"""A capture index build killed midway leaves files that the next build deletes (issue #22).

A build writes the new index beside its target as ``.<name>.<pid>-<host>.<random>.partial`` and
the bodies revisit records may refer to as ``robotrules-bodies-<pid>-<host>.<random>.sqlite3``
(a temporary index: ``robotrules-index-<pid>-<host>.<random>.sqlite3`` in the temporary folder).
SIGKILL gives the process no chance to delete them; the next build in that folder does, for the
files whose process is gone, and leaves alone those of a build still running. The kills here
are real: a build of a WARC of 40,000 captures (written to disk 10,000 at a time), killed once
it has written captures to disk.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from robotrules.batch.captures import archive_of, scratch
from tests.batch.test_archive_index import raw_warc
from tests.cli.harness import SCRIPT, cli_environment

COUNT = 40_000
"""Captures in the WARC of the builds that are killed: four transactions of the build, so that
it is caught after the first (a second or more on a machine of 2023) and long before the last."""

WRITTEN = 1024 * 1024
"""A build is killed once its new index holds this many bytes: captures are on disk by then."""


@pytest.fixture(scope="module")
def big_warc(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return raw_warc(tmp_path_factory.mktemp("warc") / "captures.warc", COUNT)


def started(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)


def midway(process: subprocess.Popen[bytes], found: Callable[[], list[Path]]) -> list[Path]:
    """Wait until the build of ``process`` has written ``WRITTEN`` bytes to a file ``found`` lists."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the build ended before it was stopped (exit code {process.returncode}): "
                        f"{process.stderr.read().decode() if process.stderr else ''}")
        files = found()
        if any(_size(path) >= WRITTEN for path in files):
            return files
        time.sleep(0.005)
    process.kill()
    pytest.fail("the build wrote nothing in 120 seconds")


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def killed(process: subprocess.Popen[bytes]) -> None:
    os.kill(process.pid, signal.SIGKILL)
    assert process.wait(timeout=30) == -signal.SIGKILL
    if process.stderr is not None:
        process.stderr.close()


def made_by(folder: Path, pid: int) -> list[Path]:
    """The files in ``folder`` whose name says process ``pid`` made them."""
    return sorted(path for path in folder.iterdir() if f".{pid}-" in path.name or f"-{pid}-" in path.name)


def test_a_killed_build_leaves_files_the_next_build_deletes_sparing_a_running_one(big_warc: Path,
                                                                                tmp_path: Path) -> None:
    """``robotrules batch --index`` killed while it builds leaves its unfinished index and its
    bodies file; another build of the same index, running (stopped with SIGSTOP, so that it
    cannot finish meanwhile), has its own. The next build deletes the dead one's files only and
    makes a whole index; the running build then finishes as if nothing had happened."""
    index = tmp_path / "captures.sqlite3"
    (tmp_path / "urls.txt").write_text("https://s5.example/allowed\n", encoding="utf-8")
    command = [SCRIPT, "batch", "--urls", "urls.txt", "-a", "FooBot", "--robots", str(big_warc),
               "--index", str(index), "--output", "out.csv"]
    env = cli_environment(tmp_path)

    running = started(command, tmp_path, env)
    try:
        midway(running, lambda: list(tmp_path.glob(f".captures.sqlite3.{running.pid}-*.partial")))
        os.kill(running.pid, signal.SIGSTOP)  # alive, and cannot finish while the others run
        theirs = made_by(tmp_path, running.pid)
        assert len(theirs) == 2

        dead = started(command, tmp_path, env)  # leaves the running build's files alone as it starts
        midway(dead, lambda: list(tmp_path.glob(f".captures.sqlite3.{dead.pid}-*.partial")))
        killed(dead)
        left = made_by(tmp_path, dead.pid)
        assert [p.name.split(".")[-1] for p in left] == ["partial", "sqlite3"], left  # the index and the bodies
        assert any(p.name.startswith(f"robotrules-bodies-{dead.pid}-") for p in left)
        assert not index.exists()
        assert made_by(tmp_path, running.pid) == theirs

        archive = archive_of(str(big_warc), index=index)  # the next run, in this process

        assert made_by(tmp_path, dead.pid) == []
        assert made_by(tmp_path, running.pid) == theirs and all(p.exists() for p in theirs)
        assert len(archive) == COUNT
        capture = archive.get(f"https://s{COUNT - 1}.example/robots.txt")
        assert capture is not None and b"Disallow: /p%d\n" % (COUNT - 1) in capture.body
        archive.close()
    except BaseException:
        running.kill()
        raise
    finally:
        os.kill(running.pid, signal.SIGCONT)
    assert running.wait(timeout=300) == 0, running.stderr.read().decode() if running.stderr else ""
    if running.stderr is not None:
        running.stderr.close()
    assert sorted(p.name for p in tmp_path.iterdir() if p.is_file()) == ["captures.sqlite3", "out.csv", "urls.txt"]
    assert len(archive_of(str(big_warc), index=index)) == COUNT  # its index is whole too, and reused


def test_a_killed_temporary_index_is_deleted_by_the_next_temporary_build(big_warc: Path, tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """An index in the temporary folder (captures too large for memory), its process killed: the
    next build of a temporary index deletes it and its bodies file, and its own goes with its archive."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    code = ("import sys; from robotrules.batch.captures.keeping import archive_of; "
            "archive_of(sys.argv[1], auto_index_above=0)")
    dead = started([sys.executable, "-c", code, str(big_warc)], tmp_path, {**os.environ, "TMPDIR": str(scratch)})
    midway(dead, lambda: list(scratch.glob(f"robotrules-index-{dead.pid}-*.sqlite3")))
    killed(dead)
    assert len(made_by(scratch, dead.pid)) == 2

    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    archive = archive_of(str(big_warc), auto_index_above=0)
    assert made_by(scratch, dead.pid) == []
    assert len(archive) == COUNT
    archive.close()
    assert list(scratch.iterdir()) == []


def _dead_pid() -> int:
    """The pid of a process that has ended and been reaped."""
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    assert process.wait(timeout=60) == 0
    return process.pid


def test_only_files_robotrules_named_for_a_process_that_is_gone_are_deleted(tmp_path: Path) -> None:
    """The rule on its own: a name of robotrules' with a process of this host that is gone is
    deleted (SQLite's journal beside it too); one of a live process (this one, its parent), one
    of another host, an unfinished index of another name, and every other file stay."""
    host = scratch._host()
    gone = _dead_pid()
    doomed = [f".captures.sqlite3.{gone}-{host}.abc_1234.partial", f".captures.sqlite3.{gone}-{host}.abc_1234.partial-journal",
              f"robotrules-bodies-{gone}-{host}.x1y2z3w4.sqlite3", f"robotrules-index-{gone}-{host}.q9w8e7r6.sqlite3"]
    kept = [f".captures.sqlite3.{os.getpid()}-{host}.abc_1234.partial", f".captures.sqlite3.{os.getppid()}-{host}.abc_1234.partial",
            f"robotrules-bodies-{os.getpid()}-{host}.x1y2z3w4.sqlite3",
            f".captures.sqlite3.{gone}-another-host.abc_1234.partial", f"robotrules-bodies-{gone}-another-host.abcdefgh.sqlite3",
            f".other.sqlite3.{gone}-{host}.abc_1234.partial", ".captures.sqlite3.abc_1234.partial",
            "captures.sqlite3", f"robotrules-bodies-{gone}.sqlite3", "notes.txt"]
    for name in doomed + kept:
        (tmp_path / name).write_bytes(b"x")
    deleted = scratch.clean_leftovers(str(tmp_path), "captures.sqlite3")
    assert sorted(Path(path).name for path in deleted) == sorted(doomed)
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(kept)
