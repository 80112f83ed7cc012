"""A Spark task that fails is one line from the command line, exit code 2; ``--debug`` shows it all (issue #22).

The failures are real: capture files whose rows make the task reading them raise inside the
Python worker, run by ``robotrules batch --engine spark`` and ``robotrules audit --engine spark``
in this process on the suite's running session, and once as a process of its own with its own
JVM, whose stderr (the JVM's logs included) is all seen. Without ``--debug`` the person sees one
``robotrules: error:`` line saying what failed (for a bad row, the very line the local engine
gives), never Spark's Java and Python traces; with ``--debug`` the traces come first and the
same line last.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.cli.conftest import TRACEBACK, assert_clean_error
from tests.cli.harness import SCRIPT, cli_environment, in_process, in_subprocess

pytestmark = pytest.mark.jvm

pytest.importorskip("pandas", reason="the batch tables need pandas (robotrules[batch])")

GOOD = {"robots_url": "https://a.example/robots.txt", "status": 200, "body": "User-agent: *\nDisallow: /private\n"}


def run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return in_process(list(args), cwd=tmp_path, env=cli_environment(tmp_path), timeout=300)


def captures(tmp_path: Path, *lines: str) -> Path:
    """A JSON Lines table of captures holding ``lines`` after one good capture."""
    path = tmp_path / "captures.jsonl"
    path.write_text("\n".join([json.dumps(GOOD), *lines]) + "\n", encoding="utf-8")
    return path


def batch_args(tmp_path: Path, robots: Path, engine: str) -> list[str]:
    (tmp_path / "urls.txt").write_text("https://a.example/\nhttps://a.example/private/x\n", encoding="utf-8")
    # An absolute output path: the running session's JVM resolves relative paths against its own
    # working directory, not this run's.
    return ["batch", "--urls", str(tmp_path / "urls.txt"), "-a", "FooBot", "--robots", str(robots),
            "--output", str(tmp_path / f"{engine}.csv"), "--engine", engine]


def assert_no_spark_trace(stderr: str) -> None:
    for word in (TRACEBACK, "py4j", "Py4J", "org.apache", "PythonException", "pyspark", "\tat "):
        assert word not in stderr, (word, stderr[-3000:])


def test_a_task_failing_on_a_bad_capture_row_is_the_local_engines_one_line(spark: Any, tmp_path: Path) -> None:
    """A line that is not JSON in a table of captures: the task reading the file raises in the
    Python worker; the command says which file and line, exactly as the local engine says it,
    exit code 2, nothing written."""
    robots = captures(tmp_path, "this line is not JSON")
    local = assert_clean_error(run(tmp_path, *batch_args(tmp_path, robots, "local")))
    assert local == f"robotrules: error: {robots}, line 2: not a JSON object"
    done = run(tmp_path, *batch_args(tmp_path, robots, "spark"))
    assert assert_clean_error(done) == local
    assert_no_spark_trace(done.stderr)
    assert not (tmp_path / "spark.csv").exists()


def test_debug_shows_the_failed_tasks_python_and_java_traces_before_the_same_line(spark: Any,
                                                                                 tmp_path: Path) -> None:
    """--debug: exit code 2 and the same last line; before it the driver's traceback and Spark's
    error carrying the worker's traceback of the bad row."""
    robots = captures(tmp_path, "this line is not JSON")
    plain = assert_clean_error(run(tmp_path, *batch_args(tmp_path, robots, "spark")))
    done = run(tmp_path, *batch_args(tmp_path, robots, "spark"), "--debug")
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == plain
    trace = done.stderr[: done.stderr.rindex(plain)]
    assert trace.startswith(TRACEBACK)
    assert trace.count(TRACEBACK) >= 2  # the driver's, and the worker's inside Spark's error
    assert "robotrules.errors.SourceError: " in trace  # as the Python worker printed it
    assert "read_captures" in trace  # a frame of the task


def test_audit_on_spark_gives_the_same_one_line_for_the_same_bad_row(spark: Any, tmp_path: Path) -> None:
    """``robotrules audit --engine spark``: the same failing task, the same line as the local engine's."""
    robots = captures(tmp_path, "[1, 2]")
    common = ["audit", "--robots", str(robots), "-a", "FooBot"]
    local = assert_clean_error(run(tmp_path, *common, "--output", str(tmp_path / "local.csv")))
    assert local == f"robotrules: error: {robots}, line 2: not a JSON object"
    done = run(tmp_path, *common, "--output", str(tmp_path / "spark.csv"), "--engine", "spark")
    assert assert_clean_error(done) == local
    assert_no_spark_trace(done.stderr)


def test_a_task_failing_otherwise_is_one_line_naming_what_it_raised(spark: Any, tmp_path: Path) -> None:
    """A body marked base64 that is not base64: the task decoding it raises an error of Python's
    own (not one of robotrules' input errors). One line: the Spark engine failed, and with what
    error (the same words as the local engine's line), and that --debug shows the rest."""
    robots = captures(tmp_path, json.dumps({"robots_url": "https://b.example/robots.txt", "status": 200,
                                            "body": "abcde", "body_encoding": "base64"}))
    local = assert_clean_error(run(tmp_path, *batch_args(tmp_path, robots, "local")))
    done = run(tmp_path, *batch_args(tmp_path, robots, "spark"))
    line = assert_clean_error(done)
    assert_no_spark_trace(done.stderr)
    assert local.removeprefix("robotrules: error: ") in line
    if line != local:  # not one of robotrules' input errors: said to be the engine's failure
        assert line.startswith("robotrules: error: the spark engine failed: ") and line.endswith(
            "(run again with --debug for the full error)")
    debug = run(tmp_path, *batch_args(tmp_path, robots, "spark"), "--debug")
    assert debug.returncode == 2 and debug.stderr.splitlines()[-1] == line
    assert "b64decode" in debug.stderr  # the worker's frame where it failed


def test_the_command_as_a_process_prints_no_trace_of_the_failed_task(spark: Any, tmp_path: Path) -> None:
    """The console script, with a JVM of its own writing to the same stderr: the executor's log
    no longer prints the failed task's Java and Python traces there; the one error line is the
    last line (the JVM's start-up notes may come before it)."""
    robots = captures(tmp_path, "this line is not JSON")
    done = in_subprocess([SCRIPT], batch_args(tmp_path, robots, "spark"), cwd=tmp_path,
                         env=cli_environment(tmp_path), timeout=300)
    assert done.returncode == 2, done.stderr[-3000:]
    lines = done.stderr.splitlines()
    assert lines[-1] == f"robotrules: error: {robots}, line 2: not a JSON object"
    assert [line for line in lines if line.startswith("robotrules: ")] == lines[-1:]
    for word in (TRACEBACK, "Exception in task", "PythonException", "\tat ", "SourceError"):
        assert word not in done.stderr, (word, done.stderr[-3000:])
