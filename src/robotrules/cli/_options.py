"""The options several ``robotrules`` commands share, defined once: agents, output, fetching.

Each helper is a decorator adding a few click options; :func:`fetching`, :func:`output` and
:func:`agents` turn the parsed values into the objects the commands use, checking what click
cannot (conflicting cache options, an empty agent, a timeout that is not a positive number).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any, TypeVar

import click

from robotrules.answers import require_token, token_of
from robotrules.cli._fetching import Fetching
from robotrules.cli._output import Output, resolve_color, say
from robotrules.core.modes import MODES
from robotrules.core.usage import CATEGORIES

__all__ = [
    "agent_option",
    "agents",
    "fetch_options",
    "fetching",
    "index_option",
    "index_path",
    "live_fetch_options",
    "mode_option",
    "output",
    "output_options",
    "progress_option",
    "registry",
    "registry_option",
    "skip_bad_records_option",
    "urls_option",
]

_F = TypeVar("_F", bound=Callable[..., Any])


def _stack(*decorators: Callable[[_F], _F]) -> Callable[[_F], _F]:
    def apply(function: _F) -> _F:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return apply


def positive_seconds(ctx: click.Context, param: click.Parameter, value: float) -> float:
    """A click callback: a time limit must be a finite number of seconds greater than 0."""
    if not (math.isfinite(value) and value > 0):
        raise click.BadParameter(f"must be a number of seconds greater than 0, not {value:g}", ctx, param)
    return value


def positive_count(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """A click callback: an optional count (``--processes``) must be at least 1."""
    if value is not None and value < 1:
        raise click.BadParameter(f"must be at least 1, not {value}", ctx, param)
    return value


agent_option = click.option(
    "--agent", "-a", "agent", multiple=True, metavar="AGENT",
    help="The crawler to decide for (repeatable): a product token (Googlebot), a versioned name "
         "(FooBot/1.2) or a whole User-Agent header; matched on its product token. "
         "Default: the token of --user-agent, else '*'.",
)

purpose_option = click.option(
    "--purpose", type=click.Choice(list(CATEGORIES)), default=None,
    help="Also ask whether the content may be used for this purpose (the site's Content-Usage and "
         "Content-Signal lines): the answer is shown with each verdict, and a refusal counts as a "
         "disallow for the exit code. An unknown preference is not a refusal.",
)

mode_option = click.option(
    "--mode", type=click.Choice(sorted(MODES)), default="google", show_default=True,
    help="How to read robots.txt files: as Google does, as RFC 9309 says, or as the 1994 standard.",
)

output_options = _stack(
    click.option("--json", "as_json", is_flag=True, help="Machine-readable JSON output."),
    click.option("--color/--no-color", "color", default=None,
                 help="Colour the output (default: only on a terminal, and not when NO_COLOR is set)."),
)

registry_option = click.option(
    "--registry", "registry_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
    help="More crawlers from a .json or .csv file (or ai.robots.txt's robots.json); entries with a name "
         "already known replace it.")


def registry(path: str | None, replace: bool = False) -> Any:
    """The crawler registry a command uses: the built-in one, extended by the file at ``path``
    (or replaced by it, with ``replace``); a file that cannot be read or used is an input error.
    Names compare without case, as Google compares product tokens: entries of the file that name
    one crawler are one entry, the last (as when the file extends the built-in registry), and a
    note says so."""
    from robotrules.cli._errors import InputError, describe_os_error
    from robotrules.crawlers import CRAWLERS, load, merge

    if path is None:
        return CRAWLERS
    try:
        loaded = load(path)
    except ValueError as exc:
        raise InputError(f"cannot use the crawler registry: {exc}") from None
    except OSError as exc:
        raise InputError(describe_os_error(exc, "cannot read the crawler registry")) from None
    _say_duplicates(path, loaded)
    return merge(loaded) if replace else merge(CRAWLERS, loaded)


def _say_duplicates(path: str, loaded: Any) -> None:
    """A note for each crawler the file names more than once (names compared without case)."""
    named: dict[str, list[str]] = {}
    for crawler in loaded:
        named.setdefault(crawler.name.lower(), []).append(crawler.name)
    for names in named.values():
        if len(names) > 1:
            spellings = ", ".join(repr(name) for name in dict.fromkeys(names))
            say(f"robotrules: note: {path} names one crawler {len(names)} times ({spellings}; names compare "
                f"without case, as Google compares product tokens): its last entry is used", err=True)


progress_option = click.option(
    "--progress/--no-progress", "progress", default=None,
    help="A progress bar on stderr with the total, rate and time left, or none (default: when stderr is a "
         "terminal and the results are not shown there).",
)

def engine_options(processes_default: str) -> Callable[[_F], _F]:
    """``--engine`` and ``--processes`` of the commands that run on either engine (batch, audit);
    ``processes_default`` says what the local engine uses when ``--processes`` is not given."""
    return _stack(
        click.option("--engine", type=click.Choice(["local", "spark"]), default="local", show_default=True,
                     help="local: all cores of this machine; spark: Apache Spark in local mode (captures read, "
                          "or robots.txt fetched live, by its executors)."),
        click.option("--processes", type=int, default=None, callback=positive_count, metavar="N",
                     help=f"Worker processes of the local engine [default: {processes_default}]."),
    )


index_option = click.option(
    "--index", "index", metavar="PATH", default=None,
    help="Keep an index of the --robots captures on disk at PATH (one SQLite file) and reuse it while "
         "those files are unchanged, so later runs start at once. Default: the captures are held in "
         "memory, or in a temporary index when the files hold more than 128 MiB.",
)


def index_path(params: dict[str, Any], robots: tuple[str, ...], engine: str = "local") -> str | None:
    """The ``--index`` path of a command, after checking it goes with ``--robots`` and the local engine."""
    index: str | None = params.get("index")
    if index is None:
        return None
    if index == "":
        raise click.BadParameter("the index path is empty", param_hint="'--index'")
    if not robots:
        raise click.UsageError("--index keeps an index of the --robots captures: give --robots too")
    if engine != "local":
        raise click.UsageError("--index is for the local engine: Spark reads the captures itself")
    return index


skip_bad_records_option = click.option(
    "--skip-bad-records", "skip_bad_records", is_flag=True,
    help="Go on when a --robots archive is damaged (a file cut short, a corrupt gzip member): skip the "
         "damaged records, read the rest, and count them in the summary (and the report). Default: a "
         "damaged archive is an error naming the file and the byte where the damage starts.",
)
"""``--skip-bad-records`` of the commands that read crawl archives (batch, audit)."""


def cc_index_options(function: _F) -> _F:
    """``--cc-index``, ``--warc-prefix`` and ``--host`` of the commands that read crawl archives
    (batch, audit): captures picked from Common Crawl's columnar index, read by byte range."""
    function = click.option(
        "--host", "cc_hosts", metavar="HOST", multiple=True,
        help="With --cc-index: read the captures of this host name (repeatable). Default: the sites of "
             "the URLs (batch) or of --sites (audit).")(function)
    function = click.option(
        "--warc-prefix", "warc_prefix", metavar="URL", default=None,
        help="With --cc-index: where the WARC files the index names are, a folder or a URL "
             "(default: Common Crawl's https://data.commoncrawl.org/).")(function)
    return click.option(
        "--cc-index", "cc_index", metavar="PARQUET", multiple=True,
        help="Common Crawl's columnar index (a Parquet file, a folder of them, or a URL; repeatable): read "
             "only the robots.txt captures it lists for the sites asked about, each by its byte range, "
             "instead of whole --robots archives.")(function)


def cc_archive(params: dict[str, Any], robots: tuple[str, ...], engine: str, sites: Any,
               skip_bad_records: bool) -> Any:
    """The archive of the ``--cc-index`` options (None without them), after checking they go with
    neither ``--robots`` nor ``--index`` and with the local engine. ``sites``: page or site URLs
    whose robots.txt captures are read when no ``--host`` is given (a callable giving them, read
    only then)."""
    hosts, prefix = params.get("cc_hosts") or (), params.get("warc_prefix")
    if not params.get("cc_index"):
        if hosts or prefix is not None:
            raise click.UsageError("--host and --warc-prefix pick captures from --cc-index: give --cc-index too")
        return None
    if robots:
        raise click.UsageError("give the captures either by --robots (whole archives) or by --cc-index, not both")
    if params.get("index") is not None:
        raise click.UsageError("--index keeps an index of --robots archives: it cannot be used with --cc-index")
    if engine != "local":
        raise click.UsageError("--cc-index is for the local engine: give Spark the WARC files with --robots")
    from robotrules.batch.inputs.ccindex import COMMON_CRAWL, captures_from_index

    return captures_from_index(list(params["cc_index"]), prefix=prefix or COMMON_CRAWL, hosts=hosts or None,
                               urls=None if hosts else sites(), skip_bad_records=skip_bad_records)


urls_option = click.option(
    "--urls", "urls_file", metavar="FILE", default=None,
    help="Read URLs from FILE, one per line ('#' comments and blank lines skipped); '-' for standard input.",
)

_store_options = _stack(
    click.option("--cache", "cache", metavar="PATH", default=None,
                 help="The SQLite cache file shared by every run [default: $ROBOTRULES_CACHE, else "
                      "robotrules/robots.sqlite3 in the user cache directory]."),
    click.option("--no-cache", "no_cache", is_flag=True, help="Keep fetched files in memory for this run only."),
    click.option("--redis", "redis", metavar="URL", default=None,
                 help="Share the cache in Redis instead (redis://host:6379/0)."),
)

_request_options = _stack(
    click.option("--timeout", type=float, default=30.0, show_default=True, callback=positive_seconds,
                 metavar="SECONDS", help="The time limit of one robots.txt fetch, redirects included (> 0)."),
    click.option("--user-agent", "user_agent", metavar="HEADER", default=None,
                 help="The User-Agent header of the robots.txt requests."),
)

fetch_options = _stack(
    _store_options,
    click.option("--refresh", is_flag=True, help="Fetch each robots.txt again, even when the cached copy is fresh."),
    _request_options,
)
"""The fetch options of the commands with a crawler's view (check, fetch): the cache answers
while its copy is fresh (24 hours), and each answer says how old it is; ``--refresh`` fetches now."""

live_fetch_options = _stack(
    _store_options,
    click.option("--cached", is_flag=True,
                 help="Use the cached copy while it is fresh (up to 24 hours old), as check does. "
                      "Default: fetch the live robots.txt now, so an edit on the server shows at once."),
    click.option("--refresh", is_flag=True, hidden=True),  # the default here; kept so older scripts still run
    _request_options,
)
"""The fetch options of the commands a site owner points at a URL (test, lint, diff): the live
file is fetched every run (and stored in the cache for the others); ``--cached`` reads the cache."""


def fetching(params: dict[str, Any]) -> Fetching:
    """The :class:`Fetching` of a command's fetch options (and ``mode``), after checking they agree."""
    chosen = [name for name, given in (("--cache", params["cache"] is not None), ("--no-cache", params["no_cache"]),
                                       ("--redis", params["redis"] is not None)) if given]
    if len(chosen) > 1:
        raise click.UsageError(f"{' and '.join(chosen)} cannot be used together: choose one cache")
    if params["cache"] == "":
        raise click.BadParameter("the cache path is empty", param_hint="'--cache'")
    if params.get("cached") and params.get("refresh"):
        raise click.UsageError("--cached and --refresh cannot be used together: --cached reads the cache, "
                               "--refresh (the default here) fetches now")
    refresh = params["refresh"] or not params.get("cached", True)
    return Fetching(cache=params["cache"], no_cache=params["no_cache"], redis=params["redis"],
                    refresh=refresh, cached_flag="cached" in params, timeout=params["timeout"], user_agent=params["user_agent"],
                    mode=params.get("mode", "google"))


def output(params: dict[str, Any]) -> Output:
    """The :class:`Output` of a command's ``--json``, ``--color`` and ``--progress`` options."""
    return Output(as_json=params.get("as_json", False), color=resolve_color(params.get("color")),
                  progress=params.get("progress"))


def agents(given: tuple[str, ...], user_agent: str | None) -> tuple[str, ...]:
    """The agents to decide for: as given, else the token of the ``--user-agent`` header, else ``*``.

    Each given agent is checked by :func:`agent_token` (a robots.txt line is an error, a name
    split by spaces a warning)."""
    for agent in dict.fromkeys(given):
        agent_token(agent)
    if given:
        return tuple(dict.fromkeys(given))
    if user_agent:
        token = token_of(user_agent)
        if token:
            return (token,)
    return ("*",)


_LINE = re.compile(r"\s*user-?agent\s*:\s*(.*)", re.IGNORECASE)
_WORDS = re.compile(r"[A-Za-z_-]+(?:\s+[A-Za-z0-9_-]+)+")


def agent_token(agent: str) -> str:
    """The product token of an ``--agent``, after the hints for suspicious names.

    ``User-agent: Googlebot`` (a robots.txt line) is an error naming the token to give: read as
    a name it would be the crawler ``User-agent``. Plain words split by spaces (``Google bot``)
    are matched on the first word only, as Google does with a User-Agent header: a warning on
    stderr suggests the joined name, a registered crawler first. An agent naming no crawler is
    an error."""
    line = _LINE.fullmatch(agent)
    if line is not None:
        wanted = token_of(line.group(1))
        hint = f": give -a {wanted}" if wanted else ""
        raise click.BadParameter(f"{agent[:80]!r} is a robots.txt line, not a crawler name{hint}",
                                 param_hint="'--agent'")
    try:
        token = require_token(agent)  # the one agent check of every surface
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--agent'") from None
    if _WORDS.fullmatch(agent.strip()):
        say(f"robotrules: warning: -a {agent!r} is matched as the crawler {token!r} (its first word, as "
            f"in a User-Agent header); did you mean -a {_joined(agent)}?", err=True)
    return token


def _joined(agent: str) -> str:
    """The crawler a name split by spaces most likely means: a registered one (Googlebot,
    Googlebot-Image), else the words joined."""
    from robotrules.crawlers import by_token

    words = agent.split()
    for candidate in ("".join(words), "-".join(words)):
        crawler = by_token(candidate)
        if crawler is not None:
            return str(crawler.name)
    return "".join(words)
