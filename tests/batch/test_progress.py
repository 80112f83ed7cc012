"""The progress bar of ``robotrules batch`` and ``robotrules audit``, as a terminal shows it.

Both commands write their results to a file, so whenever stderr is a terminal a bar is drawn
there (issue #19: none was drawn on a terminal, and off one it had no total, percentage or time
left): the rows done of the total, the percentage, the rate and the time left; without a known
total (a text file of URLs is not read twice to count it), the rows done and the rate.
``--no-progress`` draws nothing, and nothing is ever drawn when stderr is not a terminal.
Each test runs the installed console script as a real process with a pseudo-terminal as stderr.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import re
import struct
import subprocess
import termios
from pathlib import Path

import pytest

from tests.batch.conftest import World
from tests.cli.harness import SCRIPT, drain_terminal

pandas = pytest.importorskip("pandas", reason="pandas (robotrules[batch]) is not installed")
pytest.importorskip("rich", reason="rich (robotrules[batch]) draws the progress bar")

ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
"""Terminal control sequences (cursor moves, colours, hiding the cursor): not what a person reads."""

PATHS = ("/", "/tmp/a", "/page")


def _on_terminal(args: list[str], *, cwd: Path, env: dict[str, str], stdin: bytes | None = None,
                 stdout_too: bool = False) -> tuple[int, str, str]:
    """Run the script with stderr (and, with ``stdout_too``, stdout) on a 120-column pseudo-terminal
    and stdout otherwise in a file; returns (exit code, the text the terminal showed without its
    control sequences, the file's text)."""
    controller, terminal = pty.openpty()
    fcntl.ioctl(terminal, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
    other = cwd / "stdout.txt"
    env = {**env, "TERM": "xterm-256color"}
    env.pop("COLUMNS", None)
    with other.open("wb") as sink:
        process = subprocess.Popen([SCRIPT, *args], stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                                   stdout=terminal if stdout_too else sink, stderr=terminal, cwd=cwd, env=env)
    os.close(terminal)
    if stdin is not None:
        assert process.stdin is not None
        process.stdin.write(stdin)
        process.stdin.close()
    code, shown = drain_terminal(controller, process, 60)
    return code, ESCAPE.sub("", shown.decode("utf-8", "replace")), other.read_text("utf-8", "replace")


def _urls(world: World) -> list[str]:
    return [world.bases[name] + path for name in ("ok", "missing", "down") for path in PATHS]


def _summary(text: str) -> dict[str, object]:
    found: dict[str, object] = json.loads(text.strip().splitlines()[-1])
    return found


def test_batch_draws_a_bar_with_the_total_rate_and_time_left_for_a_parquet_table(
        world: World, tmp_path: Path, cli_env: dict[str, str]) -> None:
    """A Parquet table's row count is in its footer: the total is its rows times the agents,
    and the bar shows the rows done of it, the percentage, a rate and the time left."""
    pandas.DataFrame({"url": _urls(world)}).to_parquet(tmp_path / "urls.parquet")
    code, shown, stdout = _on_terminal(["batch", "--urls", "urls.parquet", "-a", "FooBot", "-a", "*", "--robots",
                                        str(world.warc), "--output", "out.csv", "--json"], cwd=tmp_path, env=cli_env)
    assert code == 1, shown
    assert _summary(stdout)["rows"] == 18
    assert "deciding" in shown
    assert "18/18 rows" in shown and "100%" in shown
    assert re.search(r"[\d,]+ rows/s", shown), shown
    assert re.search(r"\d+:\d\d:\d\d left", shown), shown


def test_batch_counts_standard_input_as_it_copies_it_for_the_total(
        world: World, tmp_path: Path, cli_env: dict[str, str]) -> None:
    """URLs from standard input are copied once; their lines (not blank lines or comments) give
    the total."""
    lines = "# frontier\n\n" + "".join(url + "\n" for url in _urls(world))
    code, shown, stdout = _on_terminal(["batch", "--urls", "-", "-a", "FooBot", "--robots", str(world.warc),
                                        "--output", "out.jsonl", "--json"], cwd=tmp_path, env=cli_env,
                                       stdin=lines.encode())
    assert code == 1, shown
    assert _summary(stdout)["rows"] == 9
    assert "9/9 rows" in shown and "100%" in shown
    assert re.search(r"\d+:\d\d:\d\d left", shown), shown


def test_batch_of_a_text_list_counts_it_first_and_shows_a_total(
        world: World, tmp_path: Path, cli_env: dict[str, str]) -> None:
    """A text file of URLs is counted before the run (one fast pass over its bytes), so the bar
    shows a total and a percentage, not only the rows done."""
    (tmp_path / "urls.txt").write_text("# the URLs\n" + "".join(url + "\n" for url in _urls(world)))
    code, shown, _ = _on_terminal(["batch", "--urls", "urls.txt", "-a", "FooBot", "--robots", str(world.warc),
                                   "--output", "out.csv"], cwd=tmp_path, env=cli_env)
    assert code == 1, shown
    assert "deciding" in shown and "9/9 rows" in shown


def test_batch_without_a_known_total_shows_the_rows_done_and_the_rate(
        world: World, tmp_path: Path, cli_env: dict[str, str]) -> None:
    """A compressed list is not read twice to count it: the bar shows the rows done and the rate."""
    import gzip

    with gzip.open(tmp_path / "urls.csv.gz", "wt", encoding="utf-8") as handle:
        handle.write("url\n" + "".join(url + "\n" for url in _urls(world)))
    code, shown, _ = _on_terminal(["batch", "--urls", "urls.csv.gz", "-a", "FooBot", "--robots", str(world.warc),
                                   "--output", "out.csv"], cwd=tmp_path, env=cli_env)
    assert code == 1, shown
    assert "deciding" in shown and "9 rows" in shown
    assert re.search(r"[\d,]+ rows/s", shown), shown
    assert "/9 rows" not in shown


def test_batch_draws_the_bar_when_stdout_is_the_terminal_too(
        world: World, tmp_path: Path, cli_env: dict[str, str]) -> None:
    """The rows go to a file, so a run typed at a terminal shows its progress there, then the summary."""
    pandas.DataFrame({"url": _urls(world)}).to_parquet(tmp_path / "urls.parquet")
    code, shown, _ = _on_terminal(["batch", "--urls", "urls.parquet", "-a", "FooBot", "--robots", str(world.warc),
                                   "--output", "out.csv"], cwd=tmp_path, env=cli_env, stdout_too=True)
    assert code == 1, shown
    assert "9/9 rows" in shown
    assert "9 rows:" in shown  # the summary


def test_batch_with_no_progress_draws_nothing(world: World, tmp_path: Path, cli_env: dict[str, str]) -> None:
    pandas.DataFrame({"url": _urls(world)}).to_parquet(tmp_path / "urls.parquet")
    code, shown, stdout = _on_terminal(["batch", "--no-progress", "--urls", "urls.parquet", "-a", "FooBot",
                                        "--robots", str(world.warc), "--output", "out.csv"], cwd=tmp_path, env=cli_env)
    assert code == 1
    assert shown == ""
    assert "9 rows:" in stdout


def test_no_bar_when_stderr_is_a_pipe_even_with_progress(
        world: World, tmp_path: Path, cli_env: dict[str, str]) -> None:
    """A bar is for a person at a terminal: a pipe or a log file gets none, even with --progress."""
    pandas.DataFrame({"url": _urls(world)}).to_parquet(tmp_path / "urls.parquet")
    for command in (["batch", "--progress", "--urls", "urls.parquet", "-a", "FooBot", "--robots", str(world.warc),
                     "--output", "out.csv"],
                    ["audit", "--progress", "--robots", str(world.warc), "-a", "FooBot", "--output", "audit.csv"]):
        done = subprocess.run([SCRIPT, *command], capture_output=True, text=True, cwd=tmp_path, env=cli_env,
                              timeout=60, check=False)
        assert done.returncode in (0, 1), done.stderr
        assert done.stderr == ""


def test_audit_draws_a_bar_with_sites_times_crawlers_as_its_total(
        world: World, tmp_path: Path, cli_env: dict[str, str]) -> None:
    """The audit knows its sites and crawlers before it starts: the total is one row per pair."""
    (tmp_path / "sites.txt").write_text("".join(world.bases[name] + "/\n" for name in ("ok", "missing", "down")))
    args = ["audit", "--robots", str(world.warc), "--sites", "sites.txt", "-a", "FooBot", "-a", "GPTBot",
            "--output", "audit.csv", "--json"]
    code, shown, stdout = _on_terminal(args, cwd=tmp_path, env=cli_env)
    assert code == 0, shown
    assert _summary(stdout)["rows"] == 6
    assert "auditing" in shown
    assert "6/6 rows" in shown and "100%" in shown
    assert re.search(r"[\d,]+ rows/s", shown), shown
    assert re.search(r"\d+:\d\d:\d\d left", shown), shown
    code, shown, _ = _on_terminal(["audit", "--no-progress", *args[1:]], cwd=tmp_path, env=cli_env)
    assert code == 0
    assert shown == ""
