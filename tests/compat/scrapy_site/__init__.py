"""A small site for real Scrapy crawls on 127.0.0.1, and a runner that crawls it in a new process.

The site: 13 HTML pages linking to each other (the home page links to every page, each page to
the home page and the next one), served by ``tests.servers.http.HTTPServer``, with a robots.txt
(:data:`ROBOTS`) of allows, disallows and wildcards. :func:`crawl` runs one Scrapy crawl of it
in a fresh Python process (Twisted's reactor cannot start twice in one process), forked from a
server that imported Scrapy once, bounded by a timeout, and returns what was fetched and the
crawl's stats (:class:`Crawl`). What robots.txt allows is computed with ``robotrules.parse``
on the same body (:func:`allowed_paths`).
"""

from __future__ import annotations

import atexit
import gc
import json
import multiprocessing
import os
import subprocess
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import robotrules
from tests.servers.http import HTTPServer, respond

PAGES = (
    "/",
    "/about.html",
    "/blog/",
    "/blog/post-1.html",
    "/blog/post-2.html",
    "/private/",
    "/private/public.html",
    "/private/secret.html",
    "/shop/item.php",
    "/shop/item.php?id=2",
    "/shop/list?session=abc",
    "/search?q=robots",
    "/search/about.html",
)
"""The site's pages (path and query as requested)."""

ROBOTS = b"""# The test site's robots.txt: allows, disallows and wildcards
User-agent: *
Disallow: /private/
Allow: /private/public.html
Disallow: /*.php$
Disallow: /*?session=
Disallow: /search
Allow: /search/about
Crawl-delay: 0.05

User-agent: FooBot
Disallow: /blog/
Disallow: /about

User-agent: BarBot
Disallow: /shop/
Allow: /

User-agent: BazBot
Disallow: /
Allow: /$
Allow: /about.html
"""
"""What each agent may fetch differs: ``*`` (the Scrapy default agent), FooBot, BarBot, BazBot."""

OTHER_ROBOTS = b"User-agent: *\nDisallow: /blog/\nDisallow: /shop/\n"
"""Another robots.txt, for runs that must tell which copy decided."""


def page(path: str) -> bytes:
    """The HTML of ``path``: links to the home page and the next page; the home page links to all."""
    index = PAGES.index(path)
    links = PAGES if path == "/" else ("/", PAGES[(index + 1) % len(PAGES)])
    anchors = "".join(f'<li><a href="{link}">{link}</a></li>' for link in links)
    return f"<!doctype html><title>{path}</title><ul>{anchors}</ul>\n".encode()


def serve_site(server: HTTPServer) -> None:
    """Route every page of the site on ``server`` (robots.txt is routed by each test)."""
    for path in PAGES:
        server.route(path, respond(200, page(path), {"Content-Type": "text/html; charset=utf-8"}))


def allowed_paths(body: bytes, agent: str, paths: Iterable[str] = PAGES) -> set[str]:
    """The pages ``agent`` may fetch by robotrules' rules on ``body`` (matched on its product token)."""
    robots = robotrules.parse(body)
    token = robotrules.user_agent_token(agent)
    return {path for path in paths if robots.allowed(f"http://127.0.0.1{path}", token)}


@dataclass
class Crawl:
    """What one crawl did: ``fetched`` page paths (with query) that reached the spider, the crawl's
    ``stats``, the download slots' delays seen by the spider, the process's ``log`` (stderr), and
    with ``record_robots_parsed`` what the ``robots_parsed`` handlers saw (``sync``, ``async``:
    ``[request URL, parser class]`` per call; ``pages``: ``[URL, async calls finished by then]``)."""

    fetched: set[str]
    stats: dict[str, Any]
    slot_delays: dict[str, float] = field(default_factory=dict)
    log: str = ""
    robots_parsed: dict[str, list[Any]] = field(default_factory=dict)

    def stat(self, key: str) -> Any:
        return self.stats.get(key, 0)

    def robots_stats(self) -> dict[str, Any]:
        """The ``robotstxt/...`` stats only."""
        return {k: v for k, v in self.stats.items() if k.startswith("robotstxt/")}


MIDDLEWARES = {
    "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware": None,
    "robotrules.compat.scrapy.RobotsPolicyMiddleware": 100,
}
"""``DOWNLOADER_MIDDLEWARES`` that put robotrules' middleware in place of Scrapy's."""


def crawl(start: str, settings: Mapping[str, Any], *, headers: Mapping[str, str] | None = None,
          timeout: float = 60.0, record_robots_parsed: bool = False) -> Crawl:
    """Crawl from ``start`` in a new process with ``settings`` on top of quick test defaults.

    ``headers``: put on every request the spider makes (e.g. a User-Agent).
    ``record_robots_parsed``: connect the recording ``robots_parsed`` handlers (see
    :class:`Crawl`). Raises AssertionError with the process's output if the crawl fails or
    outlives ``timeout``.
    """
    return crawl_together([(start, settings, headers)], timeout=timeout, record_robots_parsed=record_robots_parsed)[0]


def run_crawls(crawls: Sequence[tuple[str, Mapping[str, Any], Mapping[str, str] | None]], *,
               process_settings: Mapping[str, Any] | None = None, timeout: float = 60.0,
               record_robots_parsed: bool = False) -> tuple[subprocess.CompletedProcess[str], list[dict[str, Any]] | None]:
    """Run the crawls (start URL, settings, headers) side by side in one new process: the finished
    process and the crawls' raw results (None when it wrote none). ``process_settings`` apply
    to the whole process (the reactor). AssertionError if it outlives ``timeout``.

    The process is forked from a server that has already imported Scrapy (:data:`CRAWLERS`), so
    each crawl starts in a fresh process, with a reactor of its own, without paying Scrapy's
    imports again (about half of a short crawl's time)."""
    with tempfile.TemporaryDirectory(prefix="scrapy-crawl-") as tmp:
        out = os.path.join(tmp, "result.json")
        job = {"crawls": [{"start": start, "settings": dict(settings), "headers": dict(headers or {}),
                           "robots_parsed": record_robots_parsed}
                          for start, settings, headers in crawls],
               "process_settings": dict(process_settings or {}), "out": out}
        env = dict(os.environ)
        env.pop("SCRAPY_SETTINGS_MODULE", None)
        streams = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
        process = CRAWLERS.Process(target=_crawl_in_child, args=(job, env, tmp, *streams))
        process.start()
        process.join(timeout)
        if process.exitcode is None:
            process.kill()
            process.join()
            raise AssertionError(f"the crawl did not end within {timeout:g} s:\n{_read(streams[1])}")
        args = ["tests.compat.scrapy_site.crawl", json.dumps(job)]
        done = subprocess.CompletedProcess(args, process.exitcode, _read(streams[0]), _read(streams[1]))
        if not os.path.exists(out):
            return done, None
        with open(out, encoding="utf-8") as f:
            return done, json.load(f)


CRAWLERS = multiprocessing.get_context("forkserver")
"""Where crawls run: forked from a server process that imported the crawl script (and so Scrapy
and Twisted, but no reactor) once."""
CRAWLERS.set_forkserver_preload(["tests.compat.scrapy_site.crawl"])


def _crawl_in_child(job: dict[str, Any], env: dict[str, str], cwd: str, stdout: str, stderr: str) -> None:
    """In the forked process: the environment and working directory of a fresh process started
    for the crawl, its output into the files ``stdout`` and ``stderr``; then the crawl script,
    and what the interpreter does as it exits, which a forked process skips: the last garbage
    collection (where Twisted reports a failure nobody handled) and the exit handlers."""
    for fd, path in ((1, stdout), (2, stderr)):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(target, fd)
        os.close(target)
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    from tests.compat.scrapy_site.crawl import main

    try:
        main(job)
    finally:
        gc.collect()
        atexit._run_exitfuncs()


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def crawl_together(crawls: Sequence[tuple[str, Mapping[str, Any], Mapping[str, str] | None]], *,
                   timeout: float = 60.0, record_robots_parsed: bool = False) -> list[Crawl]:
    """Run several crawls (start URL, settings, headers) at the same time in one new process
    (one reactor, one crawler each): their results in order. As :func:`crawl` otherwise."""
    done, results = run_crawls(crawls, timeout=timeout, record_robots_parsed=record_robots_parsed)
    if done.returncode != 0 or results is None:
        raise AssertionError(f"the crawl failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return [Crawl({_path(url) for url in result["fetched"]}, result["stats"], result["slot_delays"], done.stderr,
                  result.get("robots_parsed") or {})
            for result in results]


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")
