"""The engine kit: everything an engine built on this package (robotrules' Spark engine) may import from it.

An engine takes a job from :mod:`robotrules.batch.engine.registry` and must give the local engine's rows,
audits and errors; to do so it reuses the local engine's own code, and only through the names
below. They are declared here, once, so that a change to one of them is a change to the engine
contract (``tests/standards/test_engine_kit.py`` pins the list, and that an engine imports nothing
else of :mod:`robotrules.batch`). Each name, and what an engine does with it:

The contract (:mod:`~robotrules.batch.engine.registry`, the package face):
    ``RunJob``, ``AuditJob``   what the engine is handed by ``batch.run`` and ``batch.audit.columns``
    ``Summary``                what ``run`` hands back: row and verdict counts, elapsed time, records skipped
    ``register``               joins the registry under the engine's name (the entry point also finds it)

Rows (:mod:`~robotrules.batch.engine.rows`, :mod:`~robotrules.batch.engine.blocks`, :mod:`~robotrules.batch.engine.local`):
    ``governing``              one robots.txt's :class:`~robotrules.answers.Governing`: its entry as the policy judges it
    ``robots_url_of``          the robots.txt URL of a URL (None: none), as the local engine finds it
    ``row_fields``, ``row_columns``   the output row's columns and types (with or without preferences)
    ``PREFERENCE_COLUMNS``     the preference columns' names, in row order
    ``PreferenceReader``       one robots.txt's AI-use preferences for a URL and agent (A1-A7)
    ``verdict_of``             the verdict of a robots.txt that has no rules (full allow, disallow, unknown)
    ``no_url``, ``NO_URL``, ``NO_ROBOTS``   a row with no URL, and the reasons of rows with no robots.txt
    ``ignoring_at``            which agents' crawlers ignore the ``*`` group (A8), by position
    ``governing_columns``      the columns a row takes from its robots.txt, as Arrow arrays (one home for both engines)
    ``DEFAULT_CACHE``          how many judged robots.txt files a worker keeps

Captures and sources (:mod:`~robotrules.batch.captures`, :mod:`~robotrules.batch.inputs`, :mod:`~robotrules.batch.engine.sources`):
    ``Archive``, ``Capture``   archived answers, replayed through the fetch policy (F1-F9)
    ``ArchiveSource``          an archive judged by a policy, as each local worker gets it
    ``LiveSource``             live fetching through a client, 16 at a time
    ``capture_of_row``         a capture from a row of a table of captures
    ``read_captures``          the captures of WARC files and tables, read where a task runs
    ``source_files``           the files a capture path names (folders listed), in reading order
    ``BadRecord``, ``DamagedArchive``   a damaged record of an archive, and the error that names it
    ``SourceError``            a source that cannot be used (the local engine's message)
    ``with_skipped``           a result table with the damaged records skipped noted on it

Audits (:mod:`~robotrules.batch.audit`):
    ``AUDIT_FIELDS``, ``AUDIT_COLUMNS``   the audit table's columns and types
    ``checked_agents``         the agents of an audit, checked against the registry of crawlers
    ``capture_paths``          the capture files an audit's source names (None: live)
    ``SiteKey``, ``site_key``, ``site_keys``   a site's key: its name in the rows and its robots.txt URL ("": none)
    ``job_of``, ``classify_jobs``   the audit rows of sites and their entries, as a local worker makes them
    ``live_rows``              the audit rows of sites fetched live through a client
    ``redirected_away``        the robots.txt URLs that are only where others' redirects end (F3)

Nothing in :mod:`robotrules.batch` imports this module: it is the engines' door, not the package's
own wiring.
"""

from __future__ import annotations

from robotrules.batch import Summary
from robotrules.batch.audit.columns import AUDIT_COLUMNS, AUDIT_FIELDS
from robotrules.batch.audit.sites import (
    SiteKey,
    capture_paths,
    checked_agents,
    classify_jobs,
    job_of,
    live_rows,
    redirected_away,
    site_key,
    site_keys,
)
from robotrules.batch.captures.archive import Archive, Capture
from robotrules.batch.engine.blocks import governing_columns
from robotrules.batch.engine.local import DEFAULT_CACHE
from robotrules.batch.engine.registry import AuditJob, RunJob, register
from robotrules.batch.engine.rows import (
    NO_ROBOTS,
    NO_URL,
    PREFERENCE_COLUMNS,
    PreferenceReader,
    governing,
    ignoring_at,
    no_url,
    robots_url_of,
    row_columns,
    row_fields,
    verdict_of,
)
from robotrules.batch.engine.sources import ArchiveSource, LiveSource
from robotrules.batch.inputs.files import read_captures, source_files, with_skipped
from robotrules.batch.inputs.tables.captures import capture_of_row
from robotrules.batch.inputs.warc.reading import BadRecord
from robotrules.errors import DamagedArchive, SourceError

__all__ = [
    "AUDIT_COLUMNS",
    "AUDIT_FIELDS",
    "DEFAULT_CACHE",
    "NO_ROBOTS",
    "NO_URL",
    "PREFERENCE_COLUMNS",
    "Archive",
    "ArchiveSource",
    "AuditJob",
    "BadRecord",
    "Capture",
    "DamagedArchive",
    "LiveSource",
    "PreferenceReader",
    "RunJob",
    "SiteKey",
    "SourceError",
    "Summary",
    "capture_of_row",
    "capture_paths",
    "checked_agents",
    "classify_jobs",
    "governing",
    "governing_columns",
    "ignoring_at",
    "job_of",
    "live_rows",
    "no_url",
    "read_captures",
    "redirected_away",
    "register",
    "robots_url_of",
    "row_columns",
    "row_fields",
    "site_key",
    "site_keys",
    "source_files",
    "verdict_of",
    "with_skipped",
]
