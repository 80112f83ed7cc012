"""``--debug``: an error stays one line, and the full trace comes before it when asked (issue #22).

Without the flag an error is one ``robotrules: error:`` line and exit code 2 (tests/cli/test_hints.py
and the others pin the messages); with ``--debug``, before the command or among its options, every
traceback behind that line is printed first, including the exception a one-line error replaced.
A usage error has no trace to show. The Spark engine's failures are in
tests/spark/test_spark_task_errors.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from robotrules.cli._errors import debug_trace, engine_error
from tests.cli.conftest import TRACEBACK, Run, assert_clean_error


def test_an_error_is_one_line_without_debug(robotrules: Run) -> None:
    """Exit code 2 and one line naming the file, no traceback."""
    line = assert_clean_error(robotrules("lint", "missing.txt"))
    assert "missing.txt" in line


@pytest.mark.parametrize("where", ["before the command", "after the command"])
def test_debug_prints_the_trace_and_then_the_same_one_line(robotrules: Run, where: str) -> None:
    """With --debug the exit code and the last line are the same; before them, the traceback of
    the OS error the one-line message replaced, and of that message."""
    plain = assert_clean_error(robotrules("lint", "missing.txt"))
    args = ["--debug", "lint", "missing.txt"] if where == "before the command" else ["lint", "missing.txt", "--debug"]
    done = robotrules(*args)
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == plain
    before = done.stderr[: done.stderr.rindex(plain)]
    assert before.startswith(TRACEBACK)
    assert "FileNotFoundError" in before and "InputError" in before
    assert "During handling of the above exception, another exception occurred" in before


def test_a_usage_error_has_no_trace_even_with_debug(robotrules: Run) -> None:
    """A bad option is the parser's finding, not a failure: the error line and the help hint only."""
    done = robotrules("lint", "--no-such-option", "--debug")
    assert_clean_error(done)


def test_debug_changes_nothing_when_all_goes_well(robotrules: Run, tmp_path: Path) -> None:
    """--debug only adds to errors: a clean run's output and exit code are the same."""
    (tmp_path / "robots.txt").write_text("User-agent: *\nDisallow: /private\n", encoding="utf-8")
    plain = robotrules("lint", "robots.txt")
    debug = robotrules("lint", "robots.txt", "--debug")
    assert (debug.returncode, debug.stdout, debug.stderr) == (plain.returncode, plain.stdout, plain.stderr) \
        and plain.returncode == 0


def test_the_option_is_listed_once_in_the_main_help(robotrules: Run) -> None:
    """``robotrules --help`` names --debug; each command accepts it without listing it again."""
    assert "--debug" in robotrules("--help").stdout
    assert "--debug" not in robotrules("lint", "--help").stdout


def _spark_like_error() -> Exception:
    """What Spark raises on the driver for a task that raised: the worker's traceback as text."""
    text = ("An exception was thrown from the Python worker. Please see the stack trace below.\n"
            f"{TRACEBACK}:\n"
            '  File "/usr/lib/python3/site-packages/pyspark/worker.py", line 1, in main\n'
            "    process()\n"
            '  File "/work/x.py", line 3, in run\n'
            "    1 / 0\n"
            "    ~~^~~\n"
            "ZeroDivisionError: division by zero\n")
    return RuntimeError(text)


def test_an_engine_failure_is_one_line_naming_what_the_task_raised() -> None:
    """The last Python traceback in an engine's error gives the line: the task's exception, no trace."""
    error = engine_error("spark", _spark_like_error())
    message = error.format_message()
    assert message.startswith("the spark engine failed: ZeroDivisionError: division by zero")
    assert "\n" not in message and TRACEBACK not in message and "--debug" in message
    assert error.exit_code == 2


def test_a_java_failure_is_one_line_naming_its_last_cause() -> None:
    """A Java trace gives its last ``Caused by:`` without the package names."""
    text = ("An error occurred while calling o51.save.\n"
            ": org.apache.spark.SparkException: Job aborted.\n"
            "\tat org.apache.spark.sql.execution.X.run(X.scala:1)\n"
            "Caused by: java.io.IOException: No space left on device\n"
            "\tat java.base/java.io.FileOutputStream.writeBytes(Native Method)\n")
    message = engine_error("spark", RuntimeError(text)).format_message()
    assert message.startswith("the spark engine failed: IOException: No space left on device")


def test_a_lost_task_is_one_line_naming_the_tasks_own_error() -> None:
    """Spark's "Job aborted due to stage failure: ... Lost task ...:" preamble is dropped."""
    text = ("An error occurred while calling o90.collectToPython.\n"
            ": org.apache.spark.SparkException: Job aborted due to stage failure: Task 0 in stage 2.0 failed 1 times, "
            "most recent failure: Lost task 0.0 in stage 2.0 (TID 2) (vm executor driver): "
            "java.io.FileNotFoundException: /data/x.warc (No such file or directory)\n"
            "\tat java.base/java.io.FileInputStream.open0(Native Method)\n")
    message = engine_error("spark", RuntimeError(text)).format_message()
    assert message.startswith("the spark engine failed: FileNotFoundException: /data/x.warc (No such file or directory)")


def test_an_engine_failure_the_command_knows_keeps_its_own_message() -> None:
    """An OS error from an engine (an output folder that vanished) is described as any OS error."""
    message = engine_error("spark", FileNotFoundError(2, "No such file or directory", "/gone/out.csv")).format_message()
    assert message == "No such file or directory: '/gone/out.csv'"


def test_debug_trace_shows_the_exceptions_a_one_line_error_hid() -> None:
    """``raise InputError(...) from None`` hides its context from Python's printout, not from --debug."""
    def fail() -> None:
        try:
            try:
                raise _spark_like_error()
            except RuntimeError as inner:
                raise ValueError("the job failed") from inner
        except ValueError:
            raise KeyError("one line") from None

    with pytest.raises(KeyError) as raised:
        fail()
    assert isinstance(raised.value.__context__, ValueError) and raised.value.__suppress_context__
    trace = debug_trace(raised.value)
    assert trace.index("ZeroDivisionError: division by zero") < trace.index("ValueError: the job failed") \
        < trace.index("KeyError: 'one line'")
    assert "The above exception was the direct cause of the following exception" in trace
    assert "During handling of the above exception, another exception occurred" in trace
