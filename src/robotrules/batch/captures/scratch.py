"""Scratch files of an index being built, named after the process and host that made them, and
the leftovers of processes that are gone deleted (:func:`clean_leftovers`)."""

from __future__ import annotations

import os
import re
import socket
import tempfile

__all__ = ["clean_leftovers"]


def _host() -> str:
    """This host's name as file names carry it: letters, digits and ``-`` only."""
    return re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname()) or "host"


def _maker() -> str:
    """``<pid>-<host>``: the process making a file and its host, as the file's name carries them."""
    return f"{os.getpid()}-{_host()}"


_MADE = r"(?P<pid>[0-9]+)-(?P<host>[A-Za-z0-9-]+)\.[a-z0-9_]+"
"""The part of the name of a file a build makes that says who made it: ``<pid>-<host>.<mkstemp's random part>``."""


_SCRATCH = re.compile(rf"robotrules-(?:index|bodies)-{_MADE}\.sqlite3(?:-journal|-wal|-shm)?")
"""A temporary index or a bodies file (and SQLite's files beside it)."""


def _gone(pid: int, host: str) -> bool:
    """True when the process ``pid`` of host ``host`` no longer runs: a process of another host,
    or one this system cannot ask about, counts as running (its files are left alone)."""
    if host != _host() or pid == os.getpid() or os.name != "posix":
        return False
    try:
        os.kill(pid, 0)  # signal 0: is there such a process (a zombie not yet reaped counts)
    except ProcessLookupError:
        return True
    except OSError:  # it exists, under another user
        return False
    return False


def clean_leftovers(folder: str | None, index_name: str | None = None) -> list[str]:
    """Delete the files builds killed midway left in ``folder`` (default: the temporary folder):
    bodies files and temporary indexes, and, with ``index_name``, the unfinished indexes of that
    name (``.<index_name>.<pid>-<host>.<random>.partial``), each only when the process named in
    it is gone (see :func:`_gone`). Files of running processes, of other hosts, and every file
    robotrules did not name so are left alone. The paths deleted."""
    folder = folder if folder is not None else tempfile.gettempdir()
    partial = (re.compile(rf"\.{re.escape(index_name)}\.{_MADE}\.partial(?:-journal|-wal|-shm)?")
               if index_name else None)
    deleted: list[str] = []
    try:
        names = os.listdir(folder)
    except OSError:
        return deleted
    for name in names:
        found = _SCRATCH.fullmatch(name) or (partial.fullmatch(name) if partial is not None else None)
        if found is None or not _gone(int(found["pid"]), found["host"]):
            continue
        path = os.path.join(folder, name)
        try:
            os.unlink(path)
        except OSError:  # another run deleted it first, or it is not ours to delete: left alone
            continue
        deleted.append(path)
    return deleted
