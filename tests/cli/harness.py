"""Running the command line in tests: in this process (the default), or as a real process.

:func:`in_process` runs ``robotrules.cli.main(argv)`` (what the console script runs) as the
console script would run it, and returns the same :class:`subprocess.CompletedProcess` a
subprocess run returns (``returncode``, ``stdout``, ``stderr``: text, UTF-8 with undecodable
bytes replaced, or bytes with ``binary``), in about a hundredth of the time. For the call:

- ``sys.stdin`` reads the bytes given (none: an empty stream, as ``/dev/null``), ``sys.stdout``
  and ``sys.stderr`` are captured; all three are text streams over bytes with the encodings and
  error handlers this interpreter gave its own standard streams (as a child process would get
  them), none of them a terminal, none with a file descriptor;
- ``os.environ`` is exactly ``env`` and the working directory is ``cwd``; ``sys.argv`` names
  the console script;
- logging is as in a fresh process: no handler on the root logger (the last-resort handler
  prints to the captured stderr), no level, handler or filter on the ``robotrules`` loggers;
- warnings are filtered and shown as a fresh interpreter does (Python's default filters,
  printed to the captured stderr, every "once" and "default" registry empty);
- ``SystemExit`` ends the run with its code, any other exception with a traceback on stderr
  and exit code 1, as the console script's wrapper does; ``timeout`` (seconds, SIGALRM, when
  running on the main thread) raises :class:`subprocess.TimeoutExpired` as ``subprocess.run`` does.

Everything is put back afterwards, whatever happened: the streams, the environment, the
directory, ``sys.argv``, the logging configuration, the warnings filters, the SIGINT handler,
and the configuration of a running SparkSession (the Spark engine adjusts the session it
finds). A click context left behind fails the run. Module-level memos of the library stay (a
memo changes nothing a run shows).

What only a separate process proves (the console-script entry point, ``python -m``, Ctrl-C,
a closed stdout pipe, terminal and colour detection, ``serve``) is run with :func:`in_subprocess`.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import signal
import subprocess
import sys
import threading
import traceback
import warnings
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

SCRIPT = os.path.join(os.path.dirname(sys.executable), "robotrules")
"""The console script installed next to this interpreter."""

Done = subprocess.CompletedProcess


class _Timeout(BaseException):
    """Raised by the alarm: a BaseException, so that no ``except Exception`` of the CLI takes it."""


def _stream_setup(name: str) -> tuple[str, str]:
    """The encoding and error handler this interpreter chose for its own standard stream ``name``
    (a child started with the same environment makes the same choice)."""
    stream = getattr(sys, f"__{name}__", None)
    default_errors = "backslashreplace" if name == "stderr" else "strict"
    return (getattr(stream, "encoding", None) or "utf-8", getattr(stream, "errors", None) or default_errors)


def _text_stream(name: str, data: bytes = b"") -> io.TextIOWrapper:
    encoding, errors = _stream_setup(name)
    return io.TextIOWrapper(io.BytesIO(data), encoding=encoding, errors=errors)


@contextlib.contextmanager
def _environment(env: Mapping[str, str], cwd: Path | str) -> Iterator[None]:
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    try:
        yield
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)


def _robotrules_loggers() -> list[logging.Logger]:
    names = [name for name in logging.root.manager.loggerDict if name == "robotrules" or name.startswith("robotrules.")]
    return [logging.getLogger("robotrules")] + [logging.getLogger(name) for name in names if name != "robotrules"]


@contextlib.contextmanager
def _fresh_logging() -> Iterator[None]:
    """Logging as a new process has it: root without handlers at WARNING, the robotrules loggers untouched by config."""
    root = logging.getLogger()
    saved_root = (root.handlers[:], root.level, root.filters[:])
    saved = [(logger, logger.handlers[:], logger.level, logger.filters[:], logger.propagate, logger.disabled)
             for logger in _robotrules_loggers()]
    saved_disable = logging.root.manager.disable
    root.handlers[:] = []
    root.filters[:] = []
    root.setLevel(logging.WARNING)
    logging.disable(logging.NOTSET)
    for logger, *_ in saved:
        logger.handlers[:] = []
        logger.filters[:] = []
        logger.propagate, logger.disabled = True, False
        logger.setLevel(logging.NOTSET)
    try:
        yield
    finally:
        for logger, handlers, level, filters, propagate, disabled in saved:
            logger.handlers[:] = handlers
            logger.filters[:] = filters
            logger.propagate, logger.disabled = propagate, disabled
            logger.setLevel(level)
        root.handlers[:], _, root.filters[:] = saved_root
        root.setLevel(saved_root[1])
        logging.disable(saved_disable)


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    """What a fresh interpreter prints for a warning, on the stderr of the run."""
    stream = file if file is not None else sys.stderr
    with contextlib.suppress(OSError):
        stream.write(warnings.formatwarning(message, category, filename, lineno, line))


@contextlib.contextmanager
def _fresh_warnings() -> Iterator[None]:
    """Python's default warning filters (no -W, no PYTHONWARNINGS), shown on sys.stderr, every registry empty."""
    saved_once = dict(warnings.onceregistry)  # type: ignore[attr-defined]
    with warnings.catch_warnings():  # restores the filters and showwarning; bumps the filters' version
        warnings.resetwarnings()
        warnings.onceregistry.clear()  # type: ignore[attr-defined]
        for action, category, module in (("default", DeprecationWarning, "__main__"), ("ignore", DeprecationWarning, ""),
                                         ("ignore", PendingDeprecationWarning, ""), ("ignore", ImportWarning, ""),
                                         ("ignore", ResourceWarning, "")):
            warnings.filterwarnings(action, category=category, module=module, append=True)  # type: ignore[arg-type]
        warnings.showwarning = _show_warning
        try:
            yield
        finally:
            warnings.onceregistry.clear()  # type: ignore[attr-defined]
            warnings.onceregistry.update(saved_once)  # type: ignore[attr-defined]


@contextlib.contextmanager
def _alarm(timeout: float | None) -> Iterator[None]:
    """Raise :class:`_Timeout` in this (main) thread after ``timeout`` seconds."""
    if not timeout or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def ring(signum: int, frame: Any) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _spark_conf(session: Any) -> dict[str, str]:
    every = getattr(session.conf, "getAll", None)  # pyspark 4 (a property)
    if every is None:  # pyspark 3.5: the settings made on the session, as SQL's SET lists them
        return {row.key: row.value for row in session.sql("SET").collect()}
    if callable(every):
        every = every()
    return dict(every)


@contextlib.contextmanager
def _spark_conf_kept() -> Iterator[None]:
    """The SQL configuration of a running SparkSession, as it was before the run (the Spark
    engine's ``session()`` takes the running session and sets its own options on it)."""
    session = None
    if "pyspark.sql" in sys.modules:
        session = sys.modules["pyspark.sql"].SparkSession.getActiveSession()
    before = _spark_conf(session) if session is not None else {}
    try:
        yield
    finally:
        if session is not None:
            after = _spark_conf(session)
            for key in after.keys() - before.keys():
                with contextlib.suppress(Exception):  # static settings cannot be unset, nor were they set
                    session.conf.unset(key)
            for key, value in before.items():
                if after.get(key) != value:
                    with contextlib.suppress(Exception):
                        session.conf.set(key, value)


def _click_contexts() -> list[Any]:
    click_globals = sys.modules.get("click.globals")
    stack = getattr(getattr(click_globals, "_local", None), "stack", None)
    return stack if isinstance(stack, list) else []


def in_process(args: Sequence[str], *, cwd: Path | str, env: Mapping[str, str], stdin: str | bytes | None = None,
               timeout: float | None = 20.0, binary: bool = False) -> subprocess.CompletedProcess[Any]:
    """``robotrules *args`` run by ``robotrules.cli.main`` in this process (see the module)."""
    from robotrules.cli import main

    data = stdin.encode("utf-8") if isinstance(stdin, str) else (stdin or b"")
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    saved_argv = sys.argv[:]
    saved_sigint = signal.getsignal(signal.SIGINT)
    out, err = _text_stream("stdout"), _text_stream("stderr")
    code: int | str | None = None
    timed_out = False
    with _environment(env, cwd), _fresh_logging(), _fresh_warnings(), _spark_conf_kept():
        sys.stdin, sys.stdout, sys.stderr = _text_stream("stdin", data), out, err
        sys.argv = [SCRIPT, *args]
        try:
            with _alarm(timeout):
                code = main(list(args))
        except _Timeout:
            timed_out = True
        except SystemExit as exc:  # as the interpreter ends on it
            code = exc.code
        except BaseException:  # the console script's wrapper lets it out: a traceback and 1
            traceback.print_exc(file=sys.stderr)
            code = 1
        finally:
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.flush()
            sys.stdin, sys.stdout, sys.stderr = saved_streams
            sys.argv = saved_argv
            if signal.getsignal(signal.SIGINT) is not saved_sigint:
                signal.signal(signal.SIGINT, saved_sigint)
    leaked = _click_contexts()
    if leaked:
        contexts = list(leaked)
        leaked.clear()
        raise AssertionError(f"the command left click contexts behind: {contexts}")
    if timed_out:
        raise subprocess.TimeoutExpired([SCRIPT, *args], timeout or 0, out.buffer.getvalue(), err.buffer.getvalue())  # type: ignore[attr-defined]
    if isinstance(code, str):  # sys.exit("message"): printed, exit 1
        err.write(code + "\n")
        err.flush()
        code = 1
    returncode = 0 if code is None else int(code)
    stdout, stderr = out.buffer.getvalue(), err.buffer.getvalue()  # type: ignore[attr-defined]
    if binary:
        return subprocess.CompletedProcess([SCRIPT, *args], returncode, stdout, stderr)
    return subprocess.CompletedProcess([SCRIPT, *args], returncode, stdout.decode("utf-8", "replace"),
                                       stderr.decode("utf-8", "replace"))


def in_subprocess(command: Sequence[str], args: Sequence[str], *, cwd: Path | str, env: Mapping[str, str],
                  stdin: str | bytes | None = None, timeout: float = 20.0,
                  binary: bool = False) -> subprocess.CompletedProcess[Any]:
    """One run of ``command *args`` as a real process; stdin /dev/null unless given (never the
    test runner's). Output is text (UTF-8, undecodable bytes replaced), or bytes with ``binary``."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    done = subprocess.run([*command, *args], input=data, stdin=subprocess.DEVNULL if data is None else None,
                          capture_output=True, cwd=cwd, env=dict(env), timeout=timeout, check=False)
    if binary:
        return done
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode("utf-8", "replace"),
                                       done.stderr.decode("utf-8", "replace"))


def cli_environment(tmp_path: Path) -> dict[str, str]:
    """The environment of a run: this one without colour settings, the cache in ``tmp_path``."""
    env = {k: v for k, v in os.environ.items() if k not in {"NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE"}}
    env["ROBOTRULES_CACHE"] = str(tmp_path / "cache" / "robots.sqlite3")
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def drain_terminal(controller: int, process: subprocess.Popen[bytes], seconds: float) -> tuple[int, bytes]:
    """What ``process`` writes to the pseudo-terminal whose controlling end is ``controller``,
    read until the process closes it or exits (at most ``seconds``): its exit code and the bytes.
    The controller is closed, and the process killed if it is still running."""
    import select
    import time

    shown = bytearray()
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([controller], [], [], 0.1)
            if ready:
                try:
                    data = os.read(controller, 65536)
                except OSError:  # EIO: the child closed the terminal
                    break
                if not data:
                    break
                shown += data
            elif process.poll() is not None:
                break
        code = process.wait(timeout=max(1.0, deadline - time.monotonic()))
    finally:
        os.close(controller)
        if process.poll() is None:
            process.kill()
            process.wait(5)
    return code, bytes(shown)
