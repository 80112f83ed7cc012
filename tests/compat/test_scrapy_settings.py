"""The Scrapy integration's settings, failure kinds and import guard, without a crawl.

Every ``ROBOTRULES_*`` setting is read in one place (``robotrules.compat.scrapy.config``); a bad
value stops the crawl at start with a message naming the setting, never a silent fallback.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from robotrules import MemoryStore, Policy, RedisStore, SQLiteStore
from robotrules.cache import default_path

pytest.importorskip("scrapy", reason="the Scrapy integration needs scrapy (the scrapy extra)")

from scrapy.settings import Settings

from robotrules.compat.scrapy.config import (
    DEFAULT_MAX_CRAWL_DELAY,
    SCRAPY_MIDDLEWARE,
    Config,
    open_store,
    read_policy,
    scrapy_middleware_enabled,
)
from robotrules.compat.scrapy.fetcher import failure_kind

ROOT = Path(__file__).resolve().parents[2]


# -- ROBOTRULES_STORE -----------------------------------------------------------------------

def test_store_defaults_to_memory_for_the_crawl():
    """No setting, "" or "memory": a MemoryStore of this crawl, closed with it."""
    for value in (None, "", "memory"):
        store, owned = open_store(value)
        assert isinstance(store, MemoryStore) and owned


@pytest.mark.parametrize("form", ["path", "sqlite-url", "pathlike"])
def test_store_names_a_sqlite_file(tmp_path: Path, form: str):
    """C3: a file path, "sqlite:///path" or a PathLike open that SQLite file (created with its folders)."""
    path = tmp_path / "sub" / "robots.sqlite3"
    value = {"path": str(path), "sqlite-url": f"sqlite://{path}", "pathlike": path}[form]
    store, owned = open_store(value)
    try:
        assert isinstance(store, SQLiteStore) and owned
        assert Path(store.path).resolve() == path.resolve()
        assert path.exists()
    finally:
        store.close()


def test_store_sqlite_alone_is_robotrules_default_cache_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """"sqlite": the cache file the command line and the service share (default_path)."""
    monkeypatch.setenv("ROBOTRULES_CACHE", str(tmp_path / "default.sqlite3"))
    store, _ = open_store("sqlite")
    try:
        assert isinstance(store, SQLiteStore) and store.path == default_path()
    finally:
        store.close()


def test_store_redis_url_with_a_prefix():
    """C3: "redis://..." opens a RedisStore (it connects lazily), keys under ROBOTRULES_REDIS_PREFIX."""
    pytest.importorskip("redis", reason="RedisStore needs redis-py (the redis extra)")
    store, owned = open_store("redis://127.0.0.1:6379/0", "crawl-a:")
    try:
        assert isinstance(store, RedisStore) and owned and store.prefix == "crawl-a:"
    finally:
        store.close()


def test_store_object_is_used_as_given_and_not_closed_by_the_middleware():
    mine = MemoryStore()
    store, owned = open_store(mine)
    assert store is mine and not owned


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("mysql://db/robots", "unknown kind of store 'mysql://db/robots'"),
        ("sqlite://", "no file path"),
        (42, "must be 'memory', 'sqlite', a file path, a Redis URL or a store, not int"),
        ("redis://127.0.0.1:notaport/0", "cannot use the Redis cache"),
    ],
)
def test_store_setting_that_names_no_store_is_a_clear_error(value: object, message: str):
    if isinstance(value, str) and value.startswith("redis"):
        pytest.importorskip("redis", reason="RedisStore needs redis-py (the redis extra)")
    with pytest.raises(ValueError, match="ROBOTRULES_STORE") as info:
        open_store(value)
    assert message in str(info.value)


def test_store_setting_naming_a_directory_is_a_clear_error(tmp_path: Path):
    with pytest.raises(ValueError, match="is a directory"):
        open_store(str(tmp_path))


# -- ROBOTRULES_POLICY ----------------------------------------------------------------------

def test_policy_defaults_to_googles_and_takes_a_policy_or_its_fields():
    """F1-F9, C1-C4: Google's values unless given; a dict sets fields by name."""
    assert read_policy(None) == Policy()
    assert read_policy({"detect_misconfigured_5xx": True, "min_ttl": 0}) == Policy(detect_misconfigured_5xx=True,
                                                                                     min_ttl=0)
    mine = Policy(max_redirects=2)
    assert read_policy(mine) is mine


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"max_redirect": 3}, "unknown field(s) max_redirect"),
        ({"min_ttl": 10, "max_ttl": 1}, "need 0 <= min_ttl <= max_ttl"),
        ("strict", "must be a robotrules.Policy or a dict"),
        ({"public_addresses_only": True}, "public_addresses_only cannot apply"),
    ],
)
def test_policy_setting_that_is_not_a_policy_is_a_clear_error(value: object, message: str):
    with pytest.raises(ValueError, match="ROBOTRULES_POLICY") as info:
        read_policy(value)
    assert message in str(info.value)


# -- the whole configuration ------------------------------------------------------------------

def test_config_reads_scrapys_agent_settings_and_robotrules_own():
    settings = Settings({
        "ROBOTSTXT_USER_AGENT": "FooBot/1.0", "USER_AGENT": "Mozilla/5.0 (compatible; FooBot/1.0)",
        "ROBOTRULES_MODE": "rfc9309", "ROBOTRULES_POLICY": '{"max_redirects": 2}',  # JSON, as from -s
        "ROBOTRULES_CRAWL_DELAY": "True", "ROBOTRULES_CRAWL_DELAY_MAX": "5", "DOWNLOAD_DELAY": 0.5,
    })
    config = Config.from_settings(settings)
    assert config == Config(robotstxt_user_agent="FooBot/1.0", user_agent="Mozilla/5.0 (compatible; FooBot/1.0)",
                            mode="rfc9309", policy=Policy(max_redirects=2), crawl_delay=True, max_crawl_delay=5.0,
                            download_delay=0.5)


def test_config_defaults():
    config = Config.from_settings(Settings())
    assert config.mode == "google" and config.policy == Policy()
    assert not config.crawl_delay and config.max_crawl_delay == DEFAULT_MAX_CRAWL_DELAY
    assert config.robotstxt_user_agent is None and config.user_agent  # Scrapy's default USER_AGENT


@pytest.mark.parametrize(
    ("settings", "name"),
    [
        ({"ROBOTRULES_MODE": "strict"}, "ROBOTRULES_MODE"),
        ({"ROBOTRULES_MODE": ["google"]}, "ROBOTRULES_MODE"),
        ({"ROBOTRULES_CRAWL_DELAY_MAX": "-1"}, "ROBOTRULES_CRAWL_DELAY_MAX"),
        ({"ROBOTRULES_CRAWL_DELAY_MAX": "soon"}, "ROBOTRULES_CRAWL_DELAY"),
        ({"ROBOTRULES_CRAWL_DELAY": "maybe"}, "ROBOTRULES_CRAWL_DELAY"),
        ({"ROBOTSTXT_USER_AGENT": 7}, "ROBOTSTXT_USER_AGENT"),
    ],
)
def test_config_bad_values_name_the_setting(settings: dict[str, object], name: str):
    with pytest.raises(ValueError, match=name):
        Config.from_settings(Settings(settings))


def test_scrapys_own_robots_middleware_left_enabled_is_noticed():
    """Both middlewares at once would check every request twice: the middleware warns when
    Scrapy's is not disabled (by path or by class) in DOWNLOADER_MIDDLEWARES."""
    from scrapy.core.downloader.middleware import DownloaderMiddlewareManager
    from scrapy.downloadermiddlewares.robotstxt import RobotsTxtMiddleware
    from scrapy.utils.test import get_crawler

    ours = {"robotrules.compat.scrapy.RobotsPolicyMiddleware": 100}
    assert scrapy_middleware_enabled(Settings({"DOWNLOADER_MIDDLEWARES": ours}))
    assert not scrapy_middleware_enabled(Settings({"DOWNLOADER_MIDDLEWARES": {**ours, SCRAPY_MIDDLEWARE: None}}))
    # By class, as Scrapy itself decides: before Scrapy 2.12 a class key does not replace the
    # default's import path, and Scrapy's middleware stays enabled
    by_class = {RobotsTxtMiddleware: None}
    crawler = get_crawler(settings_dict={"ROBOTSTXT_OBEY": True, "DOWNLOADER_MIDDLEWARES": by_class})
    loaded = DownloaderMiddlewareManager.from_crawler(crawler).middlewares
    scrapy_keeps_it = any(isinstance(middleware, RobotsTxtMiddleware) for middleware in loaded)
    assert scrapy_middleware_enabled(Settings({"DOWNLOADER_MIDDLEWARES": {**ours, **by_class}})) is scrapy_keeps_it


# -- failure kinds (F8) -----------------------------------------------------------------------

def test_download_failures_map_to_the_policys_failure_kinds():
    """F8: Twisted's and Scrapy's download errors become dns, connect, timeout, reset, tls or other."""
    from twisted.internet import error
    from twisted.web.client import ResponseFailed

    assert failure_kind(error.DNSLookupError("x")) == "dns"
    assert failure_kind(error.ConnectionRefusedError("x")) == "connect"
    assert failure_kind(error.TCPTimedOutError("x")) == "timeout"
    assert failure_kind(error.TimeoutError("x")) == "timeout"
    assert failure_kind(ResponseFailed([])) == "reset"
    assert failure_kind(error.ConnectionLost("x")) == "reset"
    assert failure_kind(ValueError("x")) == "other"
    import scrapy.exceptions as scrapy_errors

    for name, kind in [("CannotResolveHostError", "dns"), ("DownloadConnectionRefusedError", "connect"),
                       ("DownloadTimeoutError", "timeout"), ("DownloadFailedError", "reset")]:
        cls = getattr(scrapy_errors, name, None)  # Scrapy >= 2.14 wraps Twisted's errors in these
        if cls is not None:
            assert failure_kind(cls("x")) == kind, name


# -- the import guard -------------------------------------------------------------------------

def test_without_scrapy_the_import_says_which_extra_to_install():
    """DESIGN 12: importing robotrules.compat.scrapy without Scrapy raises MissingExtra, one line."""
    code = ("import sys; sys.modules['scrapy'] = None\n"
            "from robotrules.errors import MissingExtra\n"
            "try:\n    import robotrules.compat.scrapy\nexcept MissingExtra as exc:\n    print(exc)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "scrapy is needed for this: pip install 'robotrules[scrapy]'"


def test_without_anyio_the_middleware_says_which_extra_to_install():
    """DESIGN 12: the middleware runs robotrules' async client, which needs anyio (the scrapy
    extra brings it); without it, building the middleware raises MissingExtra, one line."""
    code = ("import sys; sys.modules['anyio'] = None\n"
            "from scrapy.utils.test import get_crawler\n"
            "from robotrules.errors import MissingExtra\n"
            "from robotrules.compat.scrapy import RobotsPolicyMiddleware\n"
            "try:\n    RobotsPolicyMiddleware(get_crawler(settings_dict={'ROBOTSTXT_OBEY': True}))\n"
            "except MissingExtra as exc:\n    print(exc)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "anyio is needed for this: pip install 'robotrules[scrapy]'"
