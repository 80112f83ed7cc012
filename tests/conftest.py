"""Suite-wide set-up: the compiled-core guard, the Hypothesis profiles, the expensive groups and
their shared sessions (one Spark session per worker, one Chromium for each run of browser tests).

Hypothesis profiles, chosen by ``HYPOTHESIS_PROFILE`` (or ``--hypothesis-profile``):

- ``ci``, the thorough one (the default when ``CI`` is set): derandomized (the same examples
  every run), no example database, each test's own ``max_examples`` as written
  (:func:`tests.hypo.examples`), 100 for the others;
- ``quick``, for local runs (the default otherwise): random exploration with the example
  database, a tenth of each test's examples (at least 5), 10 for the others.

Expensive groups (markers, registered in ``pyproject.toml``): ``slow``, ``browser`` (Chromium
through Playwright), ``jvm`` (Spark), ``packaging`` (builds and installs the project). Under
pytest-xdist the tests of each of ``browser`` and ``jvm`` run on one worker (an ``xdist_group``),
so one JVM serves them all and the browser tests run one after the other; the packaging tests
spread over the workers (each build is its own; on one worker they would be the run's tail).
"""

from __future__ import annotations

import os
import shutil
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

import robotrules
from tests.needs import in_ci, unavailable

# -- Hypothesis -------------------------------------------------------------------------------

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("ci", max_examples=100, derandomize=True, database=None, print_blob=True, deadline=None,
                          suppress_health_check=_HEALTH)
settings.register_profile("quick", max_examples=10, deadline=None, suppress_health_check=_HEALTH)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if in_ci() else "quick"))

# -- the compiled core ------------------------------------------------------------------------


def pytest_report_header() -> str:
    build = "mypyc-compiled" if robotrules.core.COMPILED else "pure Python"
    return f"robotrules core: {build} ({os.path.dirname(robotrules.__file__)})"


def pytest_sessionstart(session) -> None:  # type: ignore[no-untyped-def]
    if os.environ.get("ROBOTRULES_EXPECT_COMPILED") == "1" and not robotrules.core.COMPILED:
        raise RuntimeError("ROBOTRULES_EXPECT_COMPILED=1 but the pure-Python core was imported")


# -- the expensive groups ---------------------------------------------------------------------

GROUPED = ("browser", "jvm")
"""Markers whose tests share one worker under pytest-xdist (their sessions and builds are shared)."""

MARKED_BY_FIXTURE = {"spark": "jvm", "browser": "browser"}
"""A test that uses one of these fixtures is of that group, marked or not."""


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> Iterator[None]:
    """Mark the tests of each group (before pytest-xdist reads the marks), then make sure their
    ids carry the group (after it wrote them)."""
    for item in items:
        for fixture, marker in MARKED_BY_FIXTURE.items():
            if fixture in getattr(item, "fixturenames", ()) and item.get_closest_marker(marker) is None:
                item.add_marker(marker)
        for name in GROUPED:
            if item.get_closest_marker(name) is not None:
                item.add_marker(pytest.mark.xdist_group(name))
                break
    items.sort(key=_heavy_first)  # stable: the order within each rank is the collection order
    yield
    _suffix_groups(config, items)


HEAVY = ("packaging", "jvm", "browser", "slow")
"""Markers of the longest tests, in the order they are started (see :func:`_heavy_first`)."""


def _heavy_first(item: pytest.Item) -> int:
    """Start the longest work first, so that the workers finish together instead of one of them
    running a long test alone at the end (longest-first packing): the packaging builds, the
    corpus differential test, the Spark group, the browser group, the other slow tests (mypy
    over the tree, once the run's last test, left one core idle for 12 s), then the rest in order."""
    if "test_differential_corpus" in item.nodeid:
        return 0
    for rank, marker in enumerate(HEAVY):
        if item.get_closest_marker(marker) is not None:
            return rank
    return len(HEAVY)


def _suffix_groups(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A worker of ``--dist loadgroup`` reports ``nodeid@group`` so that the controller sends a
    group's tests to one worker. pytest-xdist (3.8) writes that suffix to ``item._nodeid``, which
    pytest 9.2 no longer reads (the id is ``item._id``, a NodeId): write it there too."""
    if not config.getoption("loadgroup", default=False):  # False without pytest-xdist
        return
    for item in items:
        mark = item.get_closest_marker("xdist_group")
        if mark is None or "@" in item.nodeid.rpartition("]")[2]:
            continue
        from _pytest.nodeid import NodeId  # pytest >= 9.2, the only versions that need this

        item._id = NodeId.parse(f"{item.nodeid}@{mark.args[0]}")  # type: ignore[attr-defined]


# -- workers ----------------------------------------------------------------------------------


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist, absent from the packaging tests' environments
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (the addopts): one worker more than the cores this process may use.

    Many tests wait (on sockets, timers, child processes, a browser or a JVM), and while one
    waits a third worker keeps both cores of a 2-core machine busy: measured with /proc/stat,
    the full run went from 84% to 94% of both cores, and its tests from 363 to 342 s. A
    ``PYTEST_XDIST_AUTO_NUM_WORKERS`` set by the caller wins (pytest-xdist reads it)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores + 1


# -- Spark: one local session per worker ------------------------------------------------------

SPARK_TEST_JVM = ("--driver-java-options '-XX:TieredStopAtLevel=1 -XX:+UseSerialGC'"
                  " --conf spark.sql.codegen.wholeStage=false --conf spark.sql.codegen.factoryMode=NO_CODEGEN"
                  " pyspark-shell")
"""How the tests' Spark JVMs start (pyspark reads ``PYSPARK_SUBMIT_ARGS`` when it launches one,
here or in a command the tests start): a test's JVM lives a minute or two, too short for the
optimising JIT and the parallel collector to pay back their threads. The quick JIT alone and
one collector thread cut the Spark group's machine time by about a third (195 to 132
core-seconds measured with /proc/stat on a 2-core machine, for the same 43 tests). The tests'
tables are a few rows each, so Spark's generated Java code (each query's stages and
expressions compiled at run time, Janino) costs more than it saves: its interpreted
evaluation, which Spark's own tests use the same way, took the group from 159 to 141
core-seconds (a slower machine). The rows are the same. A caller's own ``PYSPARK_SUBMIT_ARGS``
wins."""
os.environ.setdefault("PYSPARK_SUBMIT_ARGS", SPARK_TEST_JVM)


def _why_no_spark() -> str | None:
    if shutil.which("java") is None:
        return "no java on PATH: Spark needs a Java runtime (17 or later for pyspark 4)"
    try:
        import pyarrow  # noqa: F401
        import pyspark  # noqa: F401
    except ImportError as error:
        return f"the spark extra is not installed ({error.name} missing): pip install 'robotrules[spark]'"
    return None


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """A local[2] session whose workers run this interpreter (robotrules.spark.session); the
    Spark engine, in process (the command line too), takes this running session."""
    reason = _why_no_spark()
    if reason:
        unavailable(reason)
    from robotrules import spark as rs

    warnings.filterwarnings("ignore", category=FutureWarning, module="pyspark")
    session = rs.session("local[2]", shuffle_partitions=4)
    yield session
    session.stop()


# -- Chromium: one headless browser for each run of browser tests ---------------------------
# (its tests share one context per module, opened by tests/chromium.py's shared_window)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]


class _Chromium:
    """Debian's headless Chromium driven by Playwright (never downloads one), started for the first
    browser test of a run of them and stopped before the next test that needs none
    (:func:`pytest_runtest_teardown`), so the browser modules that follow each other on a worker
    share one browser (a launch cost about a CPU-second). Not longer: Playwright's synchronous
    API keeps an asyncio loop running in this thread while it is open, and ``asyncio.run`` and
    ``anyio.run`` refuse to start beside it."""

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    def browser(self) -> Any:
        if self._browser is None:
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
            try:
                self._browser = self._playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS,
                                                                 headless=True, timeout=30_000)
            except BaseException:
                self.stop()
                raise
        return self._browser

    def stop(self) -> None:
        browser, playwright = self._browser, self._playwright
        self._browser = self._playwright = None
        try:
            if browser is not None:
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


_CHROMIUM = _Chromium()


@pytest.fixture(scope="module")
def browser() -> Any:
    """The running headless Chromium, for the tests of one module (each opens its own context)."""
    if not os.path.exists(CHROMIUM):
        unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium); these tests never download a browser")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        unavailable("playwright is not installed (pip install playwright; no browser download is needed)")
    return _CHROMIUM.browser()


@pytest.hookimpl(trylast=True)  # after the module's contexts are closed (pytest's own teardown)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Stop the browser once the next test to run on this worker needs none (or none is left)."""
    if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
        _CHROMIUM.stop()
