"""The error tree is the whole tree: every public exception of robotrules is a ``RobotsError``
(but a few internal signals that never reach a caller, listed with why), has a name of its own,
and stands in the tree drawn in ``robotrules.errors``' docstring, under the class it really
derives from.

Every module of the package is imported (a module whose optional dependency is missing is
skipped: in CI everything is installed) and every exception class defined in it collected. Public
means importable by users: a name without a leading underscore, in a module none of whose parts
has one (``robotrules.cli._errors`` is the command line's own business).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import robotrules
from robotrules import errors
from robotrules.errors import RobotsError

NOT_ROBOTS_ERRORS = {
    "robotrules.core.fields.FieldError": "the core imports nothing of robotrules, not even robotrules.errors "
                                         "(DESIGN: core is standard library only; tests/core checks it); "
                                         "robotrules.core.usage reads a statement that fails as unknown and "
                                         "robotrules.edit raises EditRefused for it",
    "robotrules.batch.inputs.warc.reading.NotAnArchive": "an internal signal of the WARC reader: robotrules.batch.inputs turns "
                                          "it into a SourceError before it reaches a caller",
    "robotrules.fetch.body.InvalidBody": "an internal signal of the body reader: the fetchers turn it into an "
                                         "answer (an invalid response), never raised to a caller",
    "robotrules.compat.scrapy.fetcher.RobotsRequestIgnored": "an internal signal of the Scrapy fetcher: the "
                                                             "middleware catches it and lets the request through",
}
"""Public exceptions that are not RobotsErrors, and why: none of them ever reaches a caller of
robotrules' surfaces (each is named in errors' docstring, below the tree, with what it becomes)."""

SHARED_NAMES = {
    "RobotsDisallowedError": "each guard (robotrules.compat.httpx, robotrules.compat.requests) names its refusal "
                             "the same, so that changing the HTTP library changes only the import; both are "
                             "RobotsDisallowed, each is also its own library's error",
}
"""Names that two public exceptions share on purpose, and why."""

_NODE = re.compile(r"^(?P<lead> {4}(?:[│ ] {3})*)[├└]── (?P<name>[A-Z]\w+)")
"""A class under another in the drawing: the name's column says how deep it is (4 per level)."""


def _public_exceptions() -> list[type[BaseException]]:
    """Every public exception class defined in robotrules, warnings apart (they are categories for
    the warnings filter, issued, not raised)."""
    found: dict[str, type[BaseException]] = {}
    for module in pkgutil.walk_packages(robotrules.__path__, "robotrules."):
        if module.name.endswith(".__main__"):  # running the command line is no import
            continue
        try:
            loaded = importlib.import_module(module.name)
        except ImportError:  # an optional dependency (pyspark, scrapy, ...) that is not installed
            continue
        for value in vars(loaded).values():
            if (inspect.isclass(value) and issubclass(value, BaseException) and not issubclass(value, Warning)
                    and value.__module__ == loaded.__name__ and _public(value)):
                found[f"{value.__module__}.{value.__qualname__}"] = value
    return [found[name] for name in sorted(found)]


def _public(cls: type) -> bool:
    return not cls.__qualname__.startswith("_") and not any(
        part.startswith("_") for part in cls.__module__.split("."))


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def _drawn() -> list[tuple[str, str | None]]:
    """The tree in errors' docstring, as (class name, its parent's name) from top to bottom."""
    assert errors.__doc__ is not None
    root, *lines = errors.__doc__.split("::\n\n", 1)[1].split("\n\n", 1)[0].splitlines()
    drawn: list[tuple[str, str | None]] = [(root.split()[0], None)]
    parents = [root.split()[0]]
    for line in lines:
        node = _NODE.match(line)
        if node is None:  # the continuation of a description
            continue
        del parents[len(node["lead"]) // 4:]
        drawn.append((node["name"], parents[-1]))
        parents.append(node["name"])
    return drawn


def _tree_parent(cls: type[BaseException]) -> str:
    """The class ``cls`` hangs under in the tree: its first base that is a RobotsError."""
    return next(base.__name__ for base in cls.__bases__ if issubclass(base, RobotsError))


def test_the_walk_finds_the_exceptions_of_every_layer() -> None:
    """The collection itself works: it finds exceptions of errors, core, cache, edit and batch."""
    names = {_name(cls) for cls in _public_exceptions()}
    for expected in ("robotrules.errors.RobotsError", "robotrules.errors.DamagedArchive",
                     "robotrules.core.fields.FieldError", "robotrules.cache.base.InvalidEntry",
                     "robotrules.edit.EditRefused", "robotrules.errors.SourceError"):
        assert expected in names


def test_every_public_exception_is_a_robots_error() -> None:
    """``except RobotsError`` catches everything robotrules raises (the few internal signals
    listed, with why, apart: none of them ever reaches a caller)."""
    outside = {_name(cls) for cls in _public_exceptions() if not issubclass(cls, RobotsError)}
    assert outside == set(NOT_ROBOTS_ERRORS)


def test_the_errors_that_were_value_errors_still_are() -> None:
    """Joining the tree takes nothing away: ``except ValueError`` still catches each of them."""
    from robotrules.batch import SourceError
    from robotrules.cache import InvalidEntry
    from robotrules.edit import EditRefused

    for cls in (SourceError, InvalidEntry, EditRefused, errors.DamagedArchive):
        assert issubclass(cls, RobotsError) and issubclass(cls, ValueError), cls


def test_no_two_public_exceptions_share_a_name() -> None:
    """A name says which exception it is: no two classes are both called DamagedArchive (the
    guards' refusals, named alike on purpose, apart)."""
    by_name: dict[str, list[str]] = {}
    for cls in _public_exceptions():
        by_name.setdefault(cls.__qualname__, []).append(_name(cls))
    shared = {name for name, where in by_name.items() if len(where) > 1}
    assert shared <= set(SHARED_NAMES), {name: by_name[name] for name in shared - set(SHARED_NAMES)}


def test_there_is_one_damaged_archive_and_it_is_a_source_error() -> None:
    """The batch's damaged archive is robotrules.errors.DamagedArchive itself, so ``except
    SourceError`` keeps catching it, and what it names survives pickling (worker processes)."""
    import pickle

    from robotrules.batch import BadRecord, DamagedArchive, SourceError

    assert DamagedArchive is errors.DamagedArchive
    assert SourceError is errors.SourceError
    damaged = pickle.loads(pickle.dumps(DamagedArchive(BadRecord("a.warc.gz", 42, "cut short"))))
    assert isinstance(damaged, SourceError)
    assert (damaged.path, damaged.offset, damaged.detail) == ("a.warc.gz", 42, "cut short")
    assert damaged.record == BadRecord("a.warc.gz", 42, "cut short")
    assert str(damaged) == "a.warc.gz: damaged at byte 42: cut short"


def test_the_docstring_draws_every_public_exception_under_its_real_parent() -> None:
    """robotrules.errors' docstring is the whole tree: each RobotsError of the package is drawn
    once per class (the shared names as often as they are defined), under the class it derives from."""
    drawn = _drawn()
    assert drawn[0] == ("RobotsError", None)
    expected = sorted((cls.__qualname__, None if cls is RobotsError else _tree_parent(cls))
                      for cls in _public_exceptions() if issubclass(cls, RobotsError))
    assert sorted(drawn) == expected


def test_the_docstring_names_each_exception_outside_the_tree() -> None:
    """The few signals that are not RobotsErrors are accounted for in errors' docstring too, so
    that it still lists every public exception of the package."""
    assert errors.__doc__ is not None
    below = errors.__doc__.split("::\n\n", 1)[1].split("\n\n", 1)[1]
    for name in NOT_ROBOTS_ERRORS:
        assert re.search(rf"\b{name.rsplit('.', 1)[1]}\b", below), name
