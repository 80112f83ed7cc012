"""``robotrules serve``: run the HTTP service and its web tester page (:mod:`robotrules.service`).

The service is an extra (FastAPI and uvicorn): it is imported only here, when the command runs,
so every other command works without it, and a missing extra is one line, not a traceback.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

import click

from robotrules.cli._errors import EXIT_OK, InputError
from robotrules.cli._options import positive_seconds

__all__ = ["serve"]

HELP = """Run the HTTP service and the web page for testing robots.txt files.

It answers the same questions as the commands (check, test, lint, diff) over HTTP, shares the
robots.txt cache with them, and serves a page to try a robots.txt draft in a browser. By
default it listens on 127.0.0.1 only and refuses to fetch robots.txt files from private and
loopback addresses (--allow-private permits them, e.g. for an intranet).

Every request has a deadline (--deadline); work beyond the service's limits is refused with
503 and Retry-After rather than queued without end. The API is described at /openapi.json.
Each request is logged on standard output in one line (--access-log json for one JSON object
a line, off for none); the server's own messages go to standard error.

Stop it with Ctrl-C.

\b
Examples:
  robotrules serve
  robotrules serve --host 0.0.0.0 --port 8080 --redis redis://127.0.0.1:6379/0
  robotrules serve --access-log json >> access.jsonl
"""

MISSING = "the service needs: pip install 'robotrules[serve]'"


@click.command("serve", help=HELP, short_help="Run the HTTP service and the web tester page.")
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port to listen on.")
@click.option("--cache", "cache", metavar="PATH", default=None,
              help="The SQLite cache file [default: the one the commands share].")
@click.option("--redis", "redis", metavar="URL", default=None, help="Share the cache in Redis instead.")
@click.option("--allow-private", "allow_private", is_flag=True,
              help="Also fetch robots.txt files from private, loopback and link-local addresses.")
@click.option("--user-agent", "user_agent", metavar="HEADER", default=None,
              help="The User-Agent header of the robots.txt requests.")
@click.option("--deadline", type=float, default=10.0, show_default=True, callback=positive_seconds,
              metavar="SECONDS", help="The time limit of one request; past it, its work is cancelled (503).")
@click.option("--fetch-timeout", "fetch_timeout", type=float, default=5.0, show_default=True,
              callback=positive_seconds, metavar="SECONDS",
              help="The time limit of one robots.txt fetch, redirects included (keep it under --deadline).")
@click.option("--docs", is_flag=True,
              help="Serve the interactive API pages /docs and /redoc (they load their scripts from a CDN).")
@click.option("--access-log", "access_log", type=click.Choice(["text", "json", "off"]), default="text",
              show_default=True,
              help="One line per request on standard output: text, JSON (one object a line), or off.")
def serve(host: str, port: int, cache: str | None, redis: str | None, allow_private: bool,
          user_agent: str | None, deadline: float, fetch_timeout: float, docs: bool, access_log: str) -> int:
    """Runs until interrupted; exit code 2 when the service cannot start."""
    if cache is not None and redis is not None:
        raise click.UsageError("--cache and --redis cannot be used together: choose one cache")
    if cache is not None and os.path.isdir(cache):
        raise InputError(f"the cache path is a directory: {cache!r} (give a file path)")
    service = _service()
    service.run(host, port, cache=cache, redis=redis, allow_private=allow_private, user_agent=user_agent,
                deadline=deadline, fetch_timeout=fetch_timeout, docs=docs, access_log=access_log)
    return EXIT_OK


def _service() -> Any:
    """The service module, or an input error naming the extra to install."""
    try:
        return importlib.import_module("robotrules.service")
    except ImportError as exc:
        name = getattr(exc, "name", None) or ""
        if name == "robotrules.service":
            raise InputError("this installation of robotrules has no service") from None
        raise InputError(MISSING) from None
