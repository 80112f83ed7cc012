"""Where an archive's captures are kept: in memory, or in an index on disk (:func:`archive_of`).

It reads the files with :mod:`robotrules.batch.inputs` and keeps what they hold in an
:class:`~robotrules.batch.captures.archive.Archive`, in memory or, for capture sets larger than memory,
in an SQLite index (:mod:`robotrules.batch.captures.disk`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from robotrules.batch.captures import disk
from robotrules.batch.captures.archive import Archive
from robotrules.batch.inputs.fields import file_size
from robotrules.batch.inputs.files import read_captures, source_files
from robotrules.batch.inputs.warc.reading import BadRecord

__all__ = ["archive_of"]


def archive_of(paths: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], *,
               index: str | os.PathLike[str] | None = None,
               auto_index_above: int | None = None, skip_bad_records: bool = False) -> Archive:
    """An :class:`Archive` of everything the files hold (every capture of each URL: see :class:`Archive`).

    Where the captures are kept:

    * ``index`` given: in an index on disk at that path (one SQLite file), kept after the job. An
      index already there that was built from the same files (the same names, in the same order,
      with the same sizes and modification times) is used as it is, without reading the files
      again; an index of other files, or of another version of robotrules, or a damaged one, is
      rebuilt. A file there that is not an index is left alone: :class:`SourceError`.
    * else in memory when the files hold ``auto_index_above`` bytes or fewer (default
      :data:`~robotrules.batch.captures.disk.AUTO_INDEX_BYTES`, 128 MiB, as stored on disk); above that, in a
      temporary index that is deleted when the archive is closed or collected.

    A damaged record (a file cut short, a corrupt gzip member) raises :class:`DamagedArchive`;
    with ``skip_bad_records`` it is skipped and listed in :attr:`Archive.bad_records`, and the
    rest of the files is read (an index remembers them, and is not used without
    ``skip_bad_records`` when it has any).
    """
    files = source_files(paths)
    if index is None:
        limit = disk.AUTO_INDEX_BYTES if auto_index_above is None else auto_index_above
        if sum(file_size(path) for path in files) <= limit:
            bad: list[BadRecord] | None = [] if skip_bad_records else None
            archive = Archive(read_captures(files, bad_records=bad))
            archive.bad_records = tuple(bad or ())
            return archive
        return disk.build(files, None, skip_bad_records=skip_bad_records)
    return disk.open_or_build(files, os.fspath(index), skip_bad_records=skip_bad_records)
