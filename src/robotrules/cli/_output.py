"""How the ``robotrules`` command writes: text or JSON, colour on a terminal only, progress bars.

Results go to stdout, one line as soon as each is known, so a run over thousands of URLs
streams; errors and notes go to stderr. With ``--json`` every command prints one JSON document
(a command that answers per URL collects ``{"results": [...]}``); ``--jsonl`` streams one JSON
object a line instead. In JSON, as in text, lines and columns are 1-based, and "no line" (no
deciding rule, a finding about the whole file) is ``null``, never 0
(:func:`robotrules.answers.json_ready`). Colour is used only when stdout is a
terminal (click strips it otherwise), never when ``NO_COLOR`` is set, and as ``--color`` or
``--no-color`` say when given.

One progress bar serves every command (:meth:`Output.progress_bar`, :meth:`Output.progressing`):
drawn by rich on stderr, with the count done of the total, the percentage, the rate and the time
left (without a total: the count, the rate and the time so far). It is drawn only when stderr is a
terminal, and then by default whenever the results do not go to that terminal: always for a
command that writes them to a file (``batch``, ``audit``), and for a command that streams them
to stdout only when stdout is a file or a pipe (on a terminal the streaming results are the
progress); ``--progress`` and ``--no-progress`` force it on or off. Without rich there is no bar.

Text from strangers (robots.txt lines, rules, sitemaps, URLs a site redirects to, registry
entries, messages quoting them) never reaches the terminal as it is: a site could set the
terminal's title, clear the screen, write the clipboard (OSC 52) or reorder a line (bidi
overrides). One path writes every line, :meth:`Output.echo` (and :meth:`~Output.note`,
:meth:`~Output.error`, :func:`say`): it shows every control character, line break, C1 control and
invisible or direction-changing character as a visible escape (``\\x1b``, ``\\u202e``:
:func:`visible`), keeping only the colour codes of :meth:`Output.style`; the commands also pass
each stranger's value through :func:`visible` where they build a line, so not even a colour code
of theirs gets through. Data written whole (``fetch --body``, the edited file, ``crawlers --format
csv``) goes out exactly to a file or pipe, and escaped the same way, line breaks kept, on a
terminal (:meth:`Output.write_text`). JSON needs nothing more: :meth:`Output.json` writes
with ``ensure_ascii`` (every character but printable ASCII as ``\\uXXXX``), and the registry's
JSON export (:func:`robotrules.crawlers.dumps`) writes C1 and bidi controls as such escapes too.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import click

from robotrules.answers import Verdict, crawler_note, json_ready
from robotrules.core.decision import verdict_word
from robotrules.core.lint import Diagnostic

__all__ = ["Output", "diagnostic_dict", "jsonl_option", "resolve_color", "say", "verdict_lines", "visible"]

_T = TypeVar("_T")

_LABEL_WIDTH = len(verdict_word(False))
INDENT = "    "

_OTHERS = "\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff\ufffe\uffff\ud800-\udfff"
_HIDDEN = f"\x00-\x09\x0b-\x1f{_OTHERS}"
"""What is shown as an escape: the ASCII control characters but the line feed, DEL, the C1
controls (U+0080-U+009F: the 8-bit CSI and OSC among them), and characters that are invisible or
change the direction of the text around them (bidi marks, embeddings, overrides and isolates,
zero-width characters, line and paragraph separators, byte order marks, noncharacters, lone
surrogates). The same set as the audit report's (``robotrules.batch.audit.report._html``): the two could share
one home in a lower layer."""

_HIDDEN_OR_LINE = re.compile(f"[{_HIDDEN}\n]")
_HIDDEN_IN_LINES = re.compile(f"\r(?!\n)|[\x00-\x09\x0b\x0c\x0e-\x1f{_OTHERS}]")
"""In a whole file: the same, but line breaks (LF, and the CR of a CRLF) are the file's own."""
_OUR_STYLE_OR_HIDDEN = re.compile(f"(\x1b\\[[0-9;]*m)|[{_HIDDEN}\n]")
"""A colour code as :meth:`Output.style` writes it (kept), or a character to show as an escape."""


def _escape(char: str) -> str:
    """One character as the escape that shows it: ``\\x1b``, ``\\u202e``."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, *, lines: bool = False) -> str:
    """``text`` from a stranger as a terminal shows it harmlessly: every control, C1, invisible or
    direction-changing character written as an escape (ESC as ``\\x1b``, a right-to-left
    override as ``\\u202e``), the line feed too unless ``lines`` (a whole file, whose line breaks,
    LF or CRLF, are kept)."""
    pattern = _HIDDEN_IN_LINES if lines else _HIDDEN_OR_LINE
    return pattern.sub(lambda found: _escape(found.group()), text)


def _one_line(text: str) -> str:
    """``text`` as one line on a terminal: :func:`visible`, keeping only the colour codes of
    :meth:`Output.style` (the last guard: the commands make strangers' values visible themselves)."""
    return _OUR_STYLE_OR_HIDDEN.sub(lambda found: found.group(1) or _escape(found.group()), text)


def say(text: str, *, err: bool = False, color: bool | None = None) -> None:
    """Write ``text`` as one line through the one output path (:func:`_one_line`): for the lines
    the command line writes outside a command's :class:`Output` (errors, the library's warnings)."""
    click.echo(_one_line(text), err=err, color=color)


def resolve_color(flag: bool | None) -> bool | None:
    """``--color``/``--no-color`` when given, else off under ``NO_COLOR``, else None: click
    colours only a terminal."""
    if flag is not None:
        return flag
    if os.environ.get("NO_COLOR"):
        return False
    return None


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):  # a closed or pseudo stream
        return False


@dataclass
class Output:
    """Where and how one command writes. ``color`` as :func:`resolve_color` gives it; ``progress``
    None for automatic (see the module), True or False to force it (never drawn off a terminal)."""

    as_json: bool = False
    color: bool | None = None
    progress: bool | None = None
    jsonl: bool = False
    _results: list[Any] = field(default_factory=list)

    def with_jsonl(self, jsonl: bool) -> Output:
        """This output, streaming JSON Lines when ``jsonl`` (the ``--jsonl`` option: JSON implied)."""
        if jsonl:
            self.jsonl = self.as_json = True
        return self

    def echo(self, text: str = "", *, err: bool = False) -> None:
        """One line of text (flushed at once, so results stream), every character a stranger
        could use on the terminal shown as an escape (:func:`_one_line`; a line feed too)."""
        click.echo(_one_line(text), err=err, color=self.color)

    def style(self, text: str, **styles: Any) -> str:
        """``text`` with ANSI styles; stripped again by :meth:`echo` when colour is off."""
        return click.style(text, **styles)

    def write_text(self, text: str) -> None:
        """Data written whole (an export): exactly as it is to a file or pipe; on a terminal with
        its characters shown as :func:`visible` shows them, line breaks kept."""
        if _isatty(sys.stdout):
            text = visible(text, lines=True)
        sys.stdout.write(text)
        sys.stdout.flush()

    def json(self, data: Any) -> None:
        """One JSON document on one line, in the one convention (:func:`json_ready`)."""
        click.echo(json.dumps(json_ready(data)), color=False)

    def result(self, data: Any) -> None:
        """One result of a command that answers per URL: a line at once with ``--jsonl``, else kept
        for the one document :meth:`results_done` prints."""
        if self.jsonl:
            self.json(data)
        else:
            self._results.append(data)

    def results_done(self) -> None:
        """With ``--json`` (not ``--jsonl``): the one document, ``{"results": [...]}``, in input order."""
        if self.as_json and not self.jsonl:
            self.json({"results": self._results})
            self._results = []

    def error(self, message: str) -> None:
        """``robotrules: error: ...`` on stderr (the run goes on; the exit code says it)."""
        click.echo(_one_line(f"robotrules: error: {message}"), err=True, color=False)

    def note(self, message: str) -> None:
        """``robotrules: note: ...`` on stderr: something worth knowing that is not a result."""
        click.echo(_one_line(f"robotrules: note: {message}"), err=True, color=False)

    def write_bytes(self, data: bytes) -> None:
        """A file's bytes on stdout (``fetch --body``, the edited file): exactly, to a file or
        pipe; on a terminal as text (UTF-8, bytes that are not replaced) that :func:`visible`
        shows, line breaks kept, so the file's escape sequences never reach the terminal."""
        if _isatty(sys.stdout):
            self.write_text(data.decode("utf-8", errors="replace"))
            return
        sys.stdout.flush()
        stream = sys.stdout.buffer
        stream.write(data)
        stream.flush()

    def show_progress(self, *, streams_results: bool = True) -> bool:
        """Whether a progress bar is drawn: never when stderr is not a terminal; else as
        ``--progress``/``--no-progress`` say; else when the results do not go to the terminal
        (``streams_results`` False: they go to a file; or stdout is not a terminal)."""
        if not _isatty(sys.stderr):
            return False
        if self.progress is not None:
            return self.progress
        return not streams_results or not _isatty(sys.stdout)

    @contextmanager
    def progress_bar(self, total: int | None, label: str, unit: str, *,
                     streams_results: bool = True) -> Iterator[Callable[[int], None]]:
        """The progress bar of the command line, on stderr while the block runs: it yields
        ``advance(n)``, to call with each number of ``unit`` done (a no-op when no bar is drawn:
        :meth:`show_progress`, or rich is not installed). ``total`` None: not known beforehand."""
        bar = _rich_bar(self.color) if self.show_progress(streams_results=streams_results) else None
        if bar is None:
            yield _ignore
            return
        with bar:
            task = bar.add_task(label, total=total, unit=unit)
            yield lambda done: bar.advance(task, done)

    @contextmanager
    def progressing(self, items: Iterable[_T], length: int | None, label: str, unit: str = "URLs", *,
                    streams_results: bool = True) -> Iterator[Iterable[_T]]:
        """``items``, advancing :meth:`progress_bar` by one as each is consumed."""
        with self.progress_bar(length, label, unit, streams_results=streams_results) as advance:
            if advance is _ignore:
                yield items
            else:
                yield _advancing(items, advance)


def _ignore(done: int) -> None:
    """The ``advance`` of a progress bar that is not drawn."""


def _advancing(items: Iterable[_T], advance: Callable[[int], None]) -> Iterator[_T]:
    for item in items:
        yield item
        advance(1)


def _rich_bar(color: bool | None) -> Any:
    """A ``rich.progress.Progress`` on stderr for one task (its fields: :func:`_figures`), or
    None when rich is not installed (no bar, as off a terminal). Notes written to stderr while
    it is drawn appear above it; stdout is left alone (it may be a file of results)."""
    try:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, ProgressColumn, Task, TextColumn
        from rich.table import Column
        from rich.text import Text
    except ImportError:
        return None

    class Figures(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = None if task.finished else task.speed  # done: the average of the whole run
            return Text(_figures(task.completed, task.total, speed, task.elapsed, task.fields["unit"]))

    console = Console(file=sys.stderr, no_color=color is False, highlight=False)
    return Progress(TextColumn("{task.description}", table_column=Column(no_wrap=True)), BarColumn(bar_width=None),
                    Figures(table_column=Column(no_wrap=True)), console=console, expand=True, transient=False,
                    redirect_stdout=False, redirect_stderr=True)


def _figures(completed: float, total: float | None, speed: float | None, elapsed: float | None, unit: str) -> str:
    """The words beside the bar: "1,200/5,000 rows  24%  3,410 rows/s  0:00:01 left", or without
    a total "1,200 rows  3,410 rows/s  0:00:00 so far". The rate is ``speed`` (rich's recent one)
    when given, else the average so far; the time left is what remains at that rate ("-:--:--"
    until a rate is known)."""
    done = int(completed)
    rate = speed if speed else (completed / elapsed if elapsed and completed else None)
    rate_text = f"{rate:,.0f} {unit}/s" if rate else f"- {unit}/s"
    if total is None:
        return f"{done:,} {unit}  {rate_text}  {_clock(elapsed)} so far"
    left = max(total - completed, 0.0)
    percent = 100.0 * min(completed / total, 1.0) if total else 100.0
    return (f"{done:,}/{int(total):,} {unit}  {percent:.0f}%  {rate_text}  "
            f"{_clock(left / rate if rate else (0.0 if not left else None))} left")


def _clock(seconds: float | None) -> str:
    """``h:mm:ss``, or ``-:--:--`` when not known."""
    if seconds is None:
        return "-:--:--"
    whole = int(seconds + 0.5)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def agent_label(verdict: Verdict) -> str:
    """The agent as given, and the product token it was matched on when that differs."""
    return verdict.agent if verdict.agent == verdict.token else f"{verdict.agent} -> {verdict.token}"


def verdict_lines(out: Output, verdict: Verdict, expected: str | None = None, purpose: str | None = None) -> list[str]:
    """A verdict for people: ``ALLOWED``/``DISALLOWED``, the URL, the agent (-> token), then,
    indented, why: the deciding line as written and its group, and for a live file its URL,
    status, redirects, cache state and age; then the AI-use preferences when the file states
    any or ``purpose`` asks (:func:`usage_line`). With ``expected`` ("allowed"/"disallowed"),
    whether the verdict is that."""
    word = verdict_word(verdict.allowed).upper()
    head = out.style(word.ljust(_LABEL_WIDTH), fg="green" if verdict.allowed else "red", bold=True)
    line = f"{head}  {visible(verdict.url)}  {visible(agent_label(verdict))}"
    if expected is not None:
        if (expected == "allowed") == verdict.allowed:
            line += "  " + out.style("(as expected)", dim=True)
        else:
            line += "  " + out.style(f"MISMATCH: expected {expected}", fg="red", bold=True)
    lines = [line, INDENT + visible(verdict.sentence())]
    if verdict.state is not None:
        lines.append(INDENT + visible(str(verdict.state)))
    said = usage_line(verdict, purpose)
    if said:
        lines.append(INDENT + visible(said))
    return lines


def usage_line(verdict: Verdict, purpose: str | None = None) -> str:
    """The AI-use preferences beside a verdict, when the file states any or ``purpose`` asks:
    "AI use: train-ai disallowed by line 4; search unknown; ai-input unknown"; the answer to a
    ``purpose`` also names what the registry says the crawler is for (A8)."""
    usage = verdict.usage
    if (usage is None or not usage.stated) and purpose is None:
        return ""
    if purpose is None:
        return "AI use: " + verdict.use_sentence()
    note = crawler_note(verdict.agent, verdict.token)  # A8: the answer names the crawler's purpose
    return "AI use: " + verdict.use_sentence([purpose]) + (f" ({note})" if note else "")


def jsonl_option(command: Any) -> Any:
    """``--jsonl``: for a command that answers per URL, one JSON object a line as each is known."""
    return click.option("--jsonl", "jsonl", is_flag=True,
                        help="One JSON object a line as each result is known (JSON Lines), "
                             "instead of one JSON document; implies --json.")(command)


def diagnostic_dict(diagnostic: Diagnostic) -> dict[str, Any]:
    """A lint finding in JSON: ``line`` (null for the whole file), ``column`` 1-based as in the
    text (1 for a whole line, null for the whole file), ``severity``, ``code``, ``message`` and
    ``fix`` (the line as it should be written, or null)."""
    line = diagnostic.line or None
    return {"line": line, "column": (diagnostic.column or 1) if line else None, "severity": diagnostic.severity,
            "code": diagnostic.code, "message": diagnostic.message, "fix": diagnostic.fix}
