"""One local SparkSession for the whole folder; skipped with a reason where Java or pyspark is missing."""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Iterator
from typing import Any

import pytest


def _why_not() -> str | None:
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
    """A local[2] session whose workers run this interpreter (robotrules.spark.session)."""
    reason = _why_not()
    if reason:
        pytest.skip(reason)
    from robotrules import spark as rs

    warnings.filterwarnings("ignore", category=FutureWarning, module="pyspark")
    session = rs.session("local[2]", shuffle_partitions=4)
    yield session
    session.stop()
