"""The command as installed: console script, ``python -m robotrules``, help, exit codes, failures."""

from __future__ import annotations

import importlib.metadata
import os
import signal
import subprocess
import sys
import time
import types

import pytest

from robotrules import __version__, cli
from robotrules import core as robotrules_core
from tests.servers.http import hang

from .conftest import REQUIREMENT_ID, SCRIPT, TRACEBACK, assert_clean_error

COMMANDS = ["check", "test", "lint", "diff", "fetch", "robots-url", "serve", "demo", "crawlers", "edit"]


def test_python_dash_m_runs_the_command(python_m):
    done = python_m("--help")
    assert done.returncode == 0 and done.stdout.startswith("Usage: robotrules [OPTIONS] COMMAND")
    assert python_m("demo").returncode == 0


def test_the_group_help_documents_the_exit_codes_and_every_command(robotrules):
    done = robotrules("--help")
    assert done.returncode == 0
    help_text = " ".join(done.stdout.split())
    for code, meaning in (("0", "all allowed"), ("1", "some URL disallowed"), ("2", "usage or input error"),
                          ("130", "interrupted")):
        assert f"{code} {meaning}" in help_text
    for command in COMMANDS:
        assert f"\n  {command} " in done.stdout
    assert not REQUIREMENT_ID.search(done.stdout)


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_help_has_an_example_and_cites_no_requirement_id(robotrules, command):
    done = robotrules(command, "--help")
    assert done.returncode == 0
    assert "Examples:" in done.stdout and f"robotrules {command}" in done.stdout.split("Examples:", 1)[1]
    assert not REQUIREMENT_ID.search(done.stdout), done.stdout


def test_version_is_the_one_package_version_and_says_which_core_runs(robotrules):
    """``robotrules --version`` is the installed metadata's version, which is ``robotrules.__version__``,
    and which core runs (``robotrules.core.CORE_BUILD``): here the source tree's pure-Python one."""
    done = robotrules("--version")
    assert done.returncode == 0
    assert done.stdout == f"robotrules {importlib.metadata.version('robotrules')} ({robotrules_core.CORE_BUILD})\n"
    assert importlib.metadata.version("robotrules") == __version__
    assert robotrules("-V").stdout == done.stdout
    if not robotrules_core.COMPILED:
        assert robotrules_core.CORE_BUILD == "pure-Python core: source tree or editable install"


@pytest.mark.parametrize(("recorded", "shown"), [
    (None, "pure-Python core: source tree or editable install"),
    ("ROBOTRULES_PURE=1 at build", "pure-Python core: ROBOTRULES_PURE=1 at build"),
    ("the compiled core could not be built: no C compiler: cc was not found",
     "pure-Python core: the compiled core could not be built: no C compiler: cc was not found"),
])
def test_core_build_says_why_the_core_is_pure_python(monkeypatch, recorded, shown):
    """The build backend records in the wheel why its core is pure Python (pip hides the build's
    warning); ``CORE_BUILD`` reads it, and a source tree has no record."""
    if robotrules_core.COMPILED:
        pytest.skip("the compiled core is what runs")
    record = types.ModuleType("robotrules.core._build_info")
    record.BUILD = recorded  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "robotrules.core._build_info", record if recorded is not None else None)
    assert robotrules_core._core_build() == shown


_WITHOUT_HTTPX = """
import sys
sys.modules["httpx"] = None  # a bare install: click, no httpx
from robotrules.cli import main
sys.exit(main(sys.argv[1:]))
"""


def test_a_command_that_fetches_asks_for_the_cli_extra_in_one_line(tmp_path):
    """A bare ``pip install robotrules`` has click but no httpx: local files work; ``check`` and
    ``fetch`` say which extra to install (exit 2, one line) before any work, and so does a URL given
    to ``lint``; ``--help`` still works. Each run is a fresh process (where httpx was never
    imported), with httpx blocked. (The real bare install: tests/install.)"""
    env = {**os.environ, "ROBOTRULES_CACHE": str(tmp_path / "cache.sqlite3")}
    (tmp_path / "robots.txt").write_bytes(b"user-agent: *\ndisallow: /x\n")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", _WITHOUT_HTTPX, *args], capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=60, check=False)

    for command in ("check", "fetch"):
        done = run(command, "https://127.0.0.1:9/")
        assert done.returncode == 2
        assert done.stderr == f"robotrules: error: robotrules {command} needs httpx: pip install 'robotrules[cli]'\n"
    assert not (tmp_path / "cache.sqlite3").exists(), "nothing was done before the message"
    done = run("lint", "https://127.0.0.1:9/robots.txt")
    assert done.returncode == 2
    assert done.stderr == ("robotrules: error: fetching robots.txt over the network needs httpx: "
                           "pip install 'robotrules[cli]'\n")
    assert run("check", "--help").returncode == 0
    assert run("test", str(tmp_path / "robots.txt"), "/x").returncode == 1
    assert run("lint", str(tmp_path / "robots.txt")).returncode == 0


def test_batch_and_audit_ask_for_their_extra_in_one_line(monkeypatch, capsys, tmp_path):
    """``batch`` and ``audit`` need their tables' libraries whatever their input: one line, exit 2."""
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    urls = tmp_path / "urls.txt"
    urls.write_text("https://127.0.0.1:9/x\n")
    assert cli.main(["batch", "--urls", str(urls), "-o", str(tmp_path / "out.csv")]) == 2
    assert capsys.readouterr().err == "robotrules: error: robotrules batch needs pyarrow: pip install 'robotrules[batch]'\n"
    assert cli.main(["audit", "--sites", str(urls), "-o", str(tmp_path / "out.csv")]) == 2
    assert capsys.readouterr().err == "robotrules: error: robotrules audit needs pyarrow: pip install 'robotrules[audit]'\n"
    assert not (tmp_path / "out.csv").exists()


def test_the_bare_command_shows_the_help(robotrules):
    done = robotrules()
    assert done.returncode == 0 and "Exit codes:" in done.stdout


def test_an_unknown_command_is_a_usage_error(robotrules):
    done = robotrules("frobnicate")
    assert_clean_error(done)
    assert done.stderr.splitlines() == ["robotrules: error: No such command 'frobnicate'.",
                                        "Try 'robotrules --help' for help."]


def test_main_returns_the_exit_code_in_process(capsys, tmp_path):
    """``main(argv)`` returns the code (for callers and tests) instead of exiting."""
    (tmp_path / "robots.txt").write_bytes(b"user-agent: *\ndisallow: /x\n")
    assert cli.main(["test", str(tmp_path / "robots.txt"), "/x"]) == 1
    assert cli.main(["test", str(tmp_path / "robots.txt"), "/y"]) == 0
    assert cli.main(["lint", str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err.endswith("No such file or directory: '" + str(tmp_path / "missing") + "'\n")


def test_missing_click_gives_the_install_hint(monkeypatch, capsys):
    """DESIGN 12: click is a dependency, but an install without it (``--no-deps``) gets a one-line
    message, not a traceback."""
    monkeypatch.setitem(sys.modules, "click", None)
    assert cli.main(["demo"]) == 2
    assert capsys.readouterr().err == "robotrules: the command line needs click: pip install 'robotrules[cli]'\n"


def test_the_group_is_exported_as_cli():
    import click

    assert isinstance(cli.cli, click.Group)
    assert set(COMMANDS) <= set(cli.cli.commands)


def test_ctrl_c_ends_with_one_line_and_130(tmp_path, cli_env, site):
    """Interrupted while a robots.txt fetch hangs: ``robotrules: interrupted``, exit 130, no traceback."""
    server = site(hang())
    env = {**cli_env, "PYTHONFAULTHANDLER": "1"}  # a run that does not end is made to say where it waits
    # As from a shell, Ctrl-C's default disposition, whatever this test worker's is: an ignored
    # SIGINT is inherited across exec, and Python then installs no KeyboardInterrupt handler.
    inherited = signal.getsignal(signal.SIGINT)
    if inherited == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # a handled signal is SIG_DFL after exec
    try:
        process = subprocess.Popen([SCRIPT, "check", "--timeout", "20", server.url("/x")], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    finally:
        signal.signal(signal.SIGINT, inherited)
    try:
        deadline = time.monotonic() + 15
        while not server.hits("/robots.txt") and time.monotonic() < deadline:
            time.sleep(0.02)
        assert server.hits("/robots.txt"), "the command never asked for robots.txt"
        process.send_signal(signal.SIGINT)
        try:
            _, err = process.communicate(timeout=15)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGABRT)  # faulthandler writes every thread's stack, then it ends
            _, err = process.communicate(timeout=10)
            pytest.fail(f"still running 15 s after Ctrl-C; where it waited:\n{err[-6000:]}")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
    assert process.returncode == 130, err
    assert TRACEBACK not in err
    assert err.strip().splitlines()[-1] == "robotrules: interrupted"


def test_the_console_script_is_the_installed_one(console_script):
    """The console script next to this interpreter (which the process tests run) is installed and
    runs this source tree: the entry point is ``robotrules.cli:main``, its code the exit status."""
    done = console_script("--version")
    assert done.returncode == 0 and __version__ in done.stdout
    assert console_script("frobnicate").returncode == 2
