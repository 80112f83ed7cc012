"""The engines a batch job or an audit can run on, by name: a small registry that engines join.

``local`` is this package's own engine (processes of this machine) and needs no entry here. Any
other engine registers itself: by calling :func:`register`, or by naming an object in the
``robotrules.engines`` entry-point group of its distribution (robotrules' own Spark engine is
``spark = "robotrules.spark._engine:ENGINE"``), which :func:`get` loads the first time the name
is asked for. So the batch package knows no engine but its own, and an engine is a plug-in::

    batch.run(..., engine="spark") --get("spark")--> registered? --no--> entry point "spark"
                                                          |                  | load, register
                                                          v                  v
                                                    ENGINE.run(job) -> Summary

An engine is any object with ``run(job: RunJob) -> Summary`` and ``audit(job: AuditJob) -> DataFrame``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from robotrules.cache import Store
    from robotrules.core.policy import Policy
    from robotrules.crawlers import Crawler

__all__ = ["GROUP", "LOCAL", "AuditJob", "Engine", "RunJob", "check", "get", "names", "register"]

GROUP = "robotrules.engines"
"""The entry-point group engines are found in."""

LOCAL = "local"


@dataclass(frozen=True, slots=True)
class RunJob:
    """A :func:`robotrules.batch.run` for an engine: the URL file, the output file, the agents, the
    robots.txt source (None: live) and the options as the caller gave them. ``started`` is when
    the job started (``time.perf_counter()``), for the summary; ``preferences``: the rows end with
    the preference columns (:data:`robotrules.batch.engine.rows.PREFERENCE_FIELDS`)."""

    urls: str
    output: str
    agents: tuple[str, ...]
    robots: Any
    policy: Policy | None
    mode: str
    started: float
    store: Store | None = None
    client: Any = None
    refresh: bool = False
    skip_bad_records: bool = False
    preferences: bool = False


@dataclass(frozen=True, slots=True)
class AuditJob:
    """A :func:`robotrules.batch.audit.workflow.audit` for an engine: its arguments as the caller gave them."""

    source: Any
    agents: Sequence[str] | None
    sites: Any
    registry: Sequence[Crawler] | None
    policy: Policy | None
    mode: str
    now: float | None
    refresh: bool = False
    skip_bad_records: bool = False


class Engine(Protocol):
    """What an engine does: a batch job written to a file, and an audit table."""

    def run(self, job: RunJob) -> Any: ...

    def audit(self, job: AuditJob) -> Any: ...


_ENGINES: dict[str, Engine] = {}


def register(name: str, engine: Engine) -> None:
    """Make ``engine`` available as ``name`` (replacing one of that name)."""
    if name == LOCAL:
        raise ValueError("'local' is the batch package's own engine")
    _ENGINES[name] = engine


def names() -> list[str]:
    """The engines there are: ``local``, those registered, and those the installed distributions name."""
    found = {LOCAL, *_ENGINES}
    found.update(point.name for point in metadata.entry_points(group=GROUP))
    return sorted(found)


def get(name: str) -> Engine:
    """The engine called ``name`` (loaded from its entry point on first use); ``ValueError`` when
    there is none, naming those there are. Not for ``local`` (the batch package runs it itself)."""
    engine = _ENGINES.get(name)
    if engine is not None:
        return engine
    for point in metadata.entry_points(group=GROUP):
        if point.name == name:
            loaded: Engine = point.load()
            _ENGINES.setdefault(name, loaded)
            return _ENGINES[name]
    raise ValueError(f"unknown engine {name!r}: use {' or '.join(repr(n) for n in names())}")


def check(name: str) -> None:
    """``ValueError`` unless ``name`` is an engine there is (``local`` included)."""
    if name != LOCAL and name not in names():
        raise ValueError(f"unknown engine {name!r}: use {' or '.join(repr(n) for n in names())}")
