"""What the ``robotrules`` command reads: robots.txt sources (FILE, URL or ``-``) and URL lists.

A robots.txt source is a local file, ``-`` for standard input, or an http(s)/ftp URL: the
robots.txt that governs that URL, fetched through the client and its cache (:mod:`.fetching`),
so ``https://example.com/`` and ``https://example.com/robots.txt`` name the same file.

URL lists come from arguments, from ``--urls FILE`` (``-``: standard input), or from standard
input when no URL is given and it is not a terminal; one URL per line, blank lines and lines
starting with ``#`` skipped. Lists from stdin are read lazily, so thousands of URLs stream.

Empty standard input is an error wherever something is read from it (a robots.txt or a URL
list): it is almost always a broken pipe, not a wish. An empty *file* is a valid robots.txt
(it allows everything).

Crawl archives (``--robots`` of ``batch`` and ``audit``) are read whole or not at all: a damaged
one (a file cut short, a corrupt gzip member) is an input error naming the file and the byte,
unless ``--skip-bad-records`` (:data:`robotrules.cli._options.skip_bad_records_option`) says to
go on without the damaged records and count them.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from robotrules.cli._errors import InputError, describe_os_error

if TYPE_CHECKING:
    from robotrules.answers import RobotsState
    from robotrules.cli._fetching import Fetching

__all__ = [
    "STDIN",
    "STDIN_NAME",
    "Source",
    "damaged_archive",
    "is_url",
    "read_expectations",
    "read_source",
    "stdin_is_terminal",
    "url_hint",
    "url_lines",
    "url_list",
]

STDIN = "-"
STDIN_NAME = "<stdin>"
EXPECTATIONS = {"allow": "allowed", "allowed": "allowed", "disallow": "disallowed", "disallowed": "disallowed"}
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")


def damaged_archive(message: str) -> InputError:
    """The input error of a damaged archive (``message``: the file, the byte, what is wrong), with what to do."""
    return InputError(f"{message} (--skip-bad-records skips damaged records and goes on)")


def is_url(text: str) -> bool:
    """Whether a source names a URL (``scheme://...``) rather than a file."""
    return _URL.match(text) is not None


_HOSTLIKE = re.compile(r"(?:www\.|[A-Za-z0-9-]+\.)+[A-Za-z]{2,}(?::[0-9]+)?(?:[/?#].*)?|localhost(?::[0-9]+)?(?:[/?#].*)?",
                       re.IGNORECASE)


_FILE_ENDINGS = frozenset({"txt", "json", "jsonl", "csv", "tsv", "html", "htm", "xml", "md", "gz", "parquet", "py"})


def url_hint(text: str, *, paths: bool = False) -> str:
    """What a URL that was refused most likely meant, as "; did you mean ...?" ("" when nothing
    fits): a host without a scheme (``example.com/page``) gets ``https://``; with ``paths``, a
    path without its leading ``/`` (``cart``) gets one."""
    text = text.strip()
    if not text or is_url(text) or text.startswith("/"):
        return ""
    host = re.split(r"[/?#:]", text, maxsplit=1)[0]
    if _HOSTLIKE.fullmatch(text) and host.rpartition(".")[2].lower() not in _FILE_ENDINGS:
        return f"; did you mean '{'https://' + text}'?"
    if paths and " " not in text and ":" not in text.split("/", 1)[0]:
        return f"; did you mean '/{text}'?"
    return ""


def stdin_is_terminal() -> bool:
    """Whether standard input is a terminal (then nothing is read from it unasked)."""
    try:
        return bool(sys.stdin.isatty())
    except (AttributeError, ValueError, OSError):  # closed or replaced
        return True


@dataclass(frozen=True, slots=True)
class Source:
    """A robots.txt to work on: its ``name`` for messages (the path, ``<stdin>`` or the robots.txt
    URL), its ``body``, and for a live file the client's ``state`` (status, cache, redirects)."""

    name: str
    body: bytes
    state: RobotsState | None = None


def _read_stdin(what: str) -> bytes:
    try:
        data = sys.stdin.buffer.read()
    except OSError as exc:
        raise InputError(describe_os_error(exc, "cannot read standard input")) from None
    if not data:
        raise InputError(f"standard input is empty: no {what} to read")
    return data


def read_local(text: str, what: str = "robots.txt") -> Source:
    """A file's bytes, or standard input's for ``-`` (empty stdin is an error, an empty file is not)."""
    if text == STDIN:
        return Source(STDIN_NAME, _read_stdin(what))
    try:
        with open(text, "rb") as handle:
            return Source(text, handle.read())
    except OSError as exc:
        hint = url_hint(text) if isinstance(exc, FileNotFoundError) else ""
        raise InputError(describe_os_error(exc, f"cannot read {what}") + hint) from None


def read_source(text: str, fetching: Fetching) -> Source:
    """A robots.txt from a file, ``-`` or a URL (fetched; the state says what the site answered)."""
    if not is_url(text):
        return read_local(text)
    state = fetching.state(text)
    body = state.entry.body if state.kind == "rules" else b""
    return Source(state.robots_url, body, state)


def live_body(source: Source, purpose: str) -> bytes:
    """The body of a source for ``purpose`` ("lint", "compare"): a live robots.txt must have
    rules; a site without one (4xx) reads as an empty file only where ``purpose`` allows it."""
    state = source.state
    if state is None or state.kind == "rules":
        return source.body
    raise InputError(f"cannot {purpose} {state.robots_url}: {state.cause()}")


def url_lines(lines: Iterable[bytes], name: str) -> Iterator[str]:
    """The URLs of a list: stripped, blank lines and ``#`` comments skipped; each line UTF-8."""
    for number, raw in enumerate(lines, 1):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise InputError(f"{name}, line {number}: not UTF-8 text") from None
        if line and not line.startswith("#"):
            yield line


def _stdin_lines() -> Iterator[bytes]:
    try:
        yield from sys.stdin.buffer
    except OSError as exc:
        raise InputError(describe_os_error(exc, "cannot read standard input")) from None


def _file_lines(path: str, what: str) -> list[bytes]:
    try:
        with open(path, "rb") as handle:
            return handle.read().splitlines()
    except OSError as exc:
        raise InputError(describe_os_error(exc, f"cannot read {what}")) from None


def url_list(args: Iterable[str], urls_file: str | None, *, stdin: bool) -> tuple[Iterable[str], int | None]:
    """The URLs to work on and how many (None: streamed from stdin, not known yet).

    ``args`` first (a ``-`` among them reads standard input), then ``--urls FILE`` (``-``:
    stdin); with neither, stdin when ``stdin`` is allowed and stdin is not a terminal. Returns
    an empty list when there is nothing at all: the command says what it needed.
    """
    given = list(args)
    from_stdin = STDIN in given or urls_file == STDIN
    given = [url for url in given if url != STDIN]
    listed: list[str] = []
    if urls_file is not None and urls_file != STDIN:
        listed = list(url_lines(_file_lines(urls_file, "the URL list"), urls_file))
    if not from_stdin and urls_file is None and not given and stdin and not stdin_is_terminal():
        from_stdin = True
    if from_stdin:
        return _chain([*given, *listed], url_lines(_stdin_lines(), STDIN_NAME)), None
    return given + listed, len(given) + len(listed)


def _chain(first: list[str], rest: Iterable[str]) -> Iterator[str]:
    yield from first
    yield from rest


def read_expectations(path: str) -> list[tuple[str, str]]:
    """An expectations file: lines ``allow URL`` or ``disallow URL`` (``#`` comments, blank lines
    skipped) -> ``(url, "allowed" | "disallowed")`` in file order; a bad line is an input error."""
    lines = _stdin_lines() if path == STDIN else iter(_file_lines(path, "the expectations file"))
    name = STDIN_NAME if path == STDIN else path
    found: list[tuple[str, str]] = []
    for number, raw in enumerate(lines, 1):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError:
            raise InputError(f"{name}, line {number}: not UTF-8 text") from None
        if not line or line.startswith("#"):
            continue
        word, _, url = line.partition(" ")
        expected = EXPECTATIONS.get(word.lower())
        if expected is None or not url.strip():
            raise InputError(f"{name}, line {number}: expected 'allow URL' or 'disallow URL', got {line[:80]!r}")
        found.append((url.strip(), expected))
    return found
