"""The ``robotrules`` command: check URLs against a robots.txt, lint it, name its URL.

Needs the ``cli`` extra (click). Without a file argument the commands use an embedded example
(the seeds' example groups), so ``robotrules check`` shows what the tool does on a fresh install.
``robotrules fetch URL...`` decides live URLs: it fetches each site's robots.txt with Google's
status rules and caches it in a SQLite file shared by every run (``--cache``).

Each command returns its exit code; :func:`main` runs the group and returns that code: 0, 1 when
a URL is disallowed (``check``, ``fetch``) or the file has errors (``lint``), 2 for a usage error
or a URL that cannot be used. Without click, this module still imports and :func:`main` prints a
one-line "install robotrules[cli]" message.
"""

from __future__ import annotations

import json
import os
import sys

import robotrules
from robotrules._version import __version__

EXAMPLE = b"""\
# The example of Google's robots.txt specification (groups, merging, wildcards).
user-agent: googlebot-news
disallow: /fish

user-agent: *
disallow: /carrots
allow: /carrots/public$

user-agent: googlebot
disallow: /shrimp
disallow: /*.php$
allow: /shrimp/index.html

sitemap: https://www.example.com/sitemap.xml
"""
EXAMPLE_URLS = (
    "https://www.example.com/fish/salmon.html",
    "https://www.example.com/carrots/public",
    "https://www.example.com/carrots/public/x",
    "https://www.example.com/shrimp/",
    "https://www.example.com/page.php",
    "https://www.example.com/page.php?id=1",
)
EXAMPLE_AGENTS = ("googlebot", "googlebot-news", "otherbot")


def _read(source: str | None) -> tuple[bytes, str]:
    """The body to use and its name: a file, "-" for standard input, or the embedded example."""
    if source is None:
        return EXAMPLE, "(embedded example)"
    if source == "-":
        return sys.stdin.buffer.read(), "(stdin)"
    with open(source, "rb") as handle:
        return handle.read(), source


def default_cache_path() -> str:
    """Where ``robotrules fetch`` keeps its SQLite cache: $ROBOTRULES_CACHE, else the user cache dir."""
    if os.environ.get("ROBOTRULES_CACHE"):
        return os.environ["ROBOTRULES_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "robotrules", "robots.sqlite3")


try:
    import click
except ImportError:  # the `cli` extra is missing: no commands, and main() says so in one line
    pass
else:
    MODE = click.Choice(sorted(robotrules.MODES))

    @click.group(help="robots.txt as Google applies it: check URLs, lint files, find robots.txt URLs.")
    @click.version_option(__version__, prog_name="robotrules")
    def cli() -> None:
        """The ``robotrules`` group; :func:`main` runs it and returns the command's exit code."""

    @cli.command(help="Decide URLs for user agents and say which line decided. "
                 "Without --robots, an embedded example file and sample URLs are used.")
    @click.argument("urls", nargs=-1)
    @click.option("--robots", "-r", "source", help="robots.txt file, or - for standard input.")
    @click.option("--agent", "-a", "agents", multiple=True, help="User agent token (repeatable).")
    @click.option("--mode", type=MODE, default="google", show_default=True)
    @click.option("--json", "as_json", is_flag=True, help="One JSON object per decision.")
    def check(urls: tuple[str, ...], source: str | None, agents: tuple[str, ...], mode: str, as_json: bool) -> int:
        """Exit code 1 when any URL is disallowed for any agent."""
        body, name = _read(source)
        if not urls:
            if source is not None:
                raise click.UsageError("give at least one URL to check")
            urls = EXAMPLE_URLS
        agents = agents or (EXAMPLE_AGENTS if source is None else ("*",))
        rt = robotrules.parse(body, mode=mode)
        if not as_json:
            click.echo(f"robots.txt: {name} ({rt.size} bytes, mode {mode})")
        code = 0
        for agent in agents:
            for url in urls:
                decision = rt.check(url, agent)
                if not decision.allowed:
                    code = 1
                if as_json:
                    rule = decision.rule
                    click.echo(json.dumps({
                        "url": url, "agent": agent, "allowed": decision.allowed, "line": decision.line,
                        "rule": None if rule is None else {"kind": rule.kind, "value": rule.value},
                        "group": decision.agent, "path": decision.path,
                    }))
                else:
                    mark = "ALLOW   " if decision.allowed else "DISALLOW"
                    click.echo(f"{mark} {agent:<16} {url}\n         {decision.explain()}")
        return code

    @cli.command(help="List what Google ignores or misreads in a robots.txt. Exit 1 when there are errors.")
    @click.argument("source", required=False)
    @click.option("--mode", type=MODE, default="google", show_default=True)
    @click.option("--json", "as_json", is_flag=True, help="A JSON list of diagnostics.")
    def lint(source: str | None, mode: str, as_json: bool) -> int:
        """Exit code 1 when any finding is an error."""
        body, name = _read(source)
        found = robotrules.lint(body, mode)
        if as_json:
            click.echo(json.dumps([{"line": d.line, "severity": d.severity, "code": d.code, "message": d.message}
                                   for d in found], indent=2))
        else:
            for diagnostic in found:
                click.echo(f"{name}:{diagnostic}")
            click.echo(f"{len(found)} finding(s)")
        return 1 if any(d.severity == "error" for d in found) else 0

    @cli.command(help="Fetch the robots.txt of each URL's site (cached, Google's status rules) and decide the URL.")
    @click.argument("urls", nargs=-1, required=True)
    @click.option("--agent", "-a", "agents", multiple=True, help="User agent token (repeatable; default '*').")
    @click.option("--cache", "cache_path", default=None, help="SQLite cache file [default: user cache dir].")
    @click.option("--no-cache", is_flag=True, help="Keep the cache in memory for this run only.")
    @click.option("--refresh", is_flag=True, help="Fetch again even when the cached copy is fresh.")
    @click.option("--timeout", type=float, default=30.0, show_default=True, help="Seconds per robots.txt fetch.")
    @click.option("--user-agent", "fetch_agent", default=None, help="User-Agent header of the robots.txt requests.")
    @click.option("--mode", type=MODE, default="google", show_default=True)
    @click.option("--json", "as_json", is_flag=True, help="One JSON object per decision.")
    def fetch(urls: tuple[str, ...], agents: tuple[str, ...], cache_path: str | None, no_cache: bool, refresh: bool,
              timeout: float, fetch_agent: str | None, mode: str, as_json: bool) -> int:
        """Exit code 2 when a URL cannot be used, else 1 when any URL is disallowed."""
        from robotrules.fetch import DEFAULT_USER_AGENT

        store = robotrules.MemoryStore() if no_cache else robotrules.SQLiteStore(cache_path or default_cache_path())
        policy = robotrules.Policy(fetch_timeout=timeout)
        code = 0
        with robotrules.RobotsClient(store, policy=policy, user_agent=fetch_agent or DEFAULT_USER_AGENT, mode=mode) as client:
            for url in urls:
                try:
                    if refresh:
                        client.refresh(url)
                    results = [(agent, client.check(url, agent)) for agent in agents or ("*",)]
                except (robotrules.InvalidURL, TypeError) as exc:
                    click.echo(f"error: {exc}", err=True)
                    code = 2
                    continue
                for agent, result in results:
                    if not result.allowed:
                        code = max(1, code)
                    state = result.state
                    if as_json:
                        click.echo(json.dumps({
                            "url": url, "agent": agent, "allowed": result.allowed, "line": result.line,
                            "robots_url": state.robots_url, "kind": state.kind, "status": state.status,
                            "reason": state.reason, "cache": state.cache, "age": round(state.age, 3),
                            "failures": state.failures,
                        }))
                    else:
                        mark = "ALLOW   " if result.allowed else "DISALLOW"
                        click.echo(f"{mark} {agent:<16} {url}\n         {result.explain()}")
        return code

    @cli.command("robots-url", help="Print the robots.txt URL that governs each URL (S1-S5).")
    @click.argument("urls", nargs=-1, required=True)
    def robots_url(urls: tuple[str, ...]) -> int:
        """Exit code 2 when any URL has no robots.txt URL (an error line on stderr for each)."""
        code = 0
        for url in urls:
            try:
                click.echo(robotrules.robots_url(url))
            except ValueError as exc:
                click.echo(f"error: {exc}", err=True)
                code = 2
        return code


def main(argv: list[str] | None = None) -> int:
    """Console entry point: run the command line ``argv`` (default ``sys.argv[1:]``), return the exit code.

    Usage errors are shown by click and give its exit code (2); without the ``cli`` extra, a
    one-line message and 2.
    """
    try:
        import click
    except ImportError:
        print("robotrules: the command line needs click: pip install 'robotrules[cli]'", file=sys.stderr)
        return 2
    try:
        code = cli.main(args=argv, prog_name="robotrules", standalone_mode=False)
    except SystemExit as exc:  # pragma: no cover - click's own exits
        return int(exc.code or 0)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Abort:
        return 1
    return code if isinstance(code, int) else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
