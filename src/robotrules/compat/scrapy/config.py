"""The ``ROBOTRULES_*`` settings of the Scrapy middleware, read and checked in one place.

Every bad value is a ``ValueError`` naming the setting and what it accepts, raised when the
crawl starts, never a silent fallback: a crawl that obeys robots.txt should not quietly run
with another cache or policy than the one asked for.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from robotrules.cache import MemoryStore, RedisStore, SQLiteStore, Store, default_path
from robotrules.core.modes import MODES
from robotrules.core.policy import Policy

if TYPE_CHECKING:
    from scrapy.settings import BaseSettings

__all__ = ["DEFAULT_MAX_CRAWL_DELAY", "SCRAPY_MIDDLEWARE", "Config", "open_store", "read_policy", "scrapy_middleware_enabled"]

DEFAULT_MAX_CRAWL_DELAY = 60.0
"""Seconds: the longest crawl-delay applied to a download slot (``ROBOTRULES_CRAWL_DELAY_MAX``)."""

_REDIS_SCHEMES = ("redis://", "rediss://", "unix://")

SCRAPY_MIDDLEWARE = "scrapy.downloadermiddlewares.robotstxt.RobotsTxtMiddleware"
"""Scrapy's own robots.txt middleware, which ``RobotsPolicyMiddleware`` replaces."""


def scrapy_middleware_enabled(settings: BaseSettings) -> bool:
    """Whether Scrapy's ``RobotsTxtMiddleware`` is still enabled in ``DOWNLOADER_MIDDLEWARES``
    (then both check every request, and robots.txt is downloaded twice)."""
    from scrapy.utils.conf import build_component_list

    by_priority = getattr(settings, "get_component_priority_dict_with_base", None)  # Scrapy >= 2.12
    components: Any = (by_priority("DOWNLOADER_MIDDLEWARES") if by_priority is not None
                       else settings.getwithbase("DOWNLOADER_MIDDLEWARES"))
    for component in build_component_list(components):
        name = component if isinstance(component, str) else f"{component.__module__}.{component.__qualname__}"
        if name == SCRAPY_MIDDLEWARE:
            return True
    return False


def open_store(value: object, redis_prefix: str | None = None) -> tuple[Store, bool]:
    """The store ``ROBOTRULES_STORE`` names, and whether it was made here (and is closed here).

    ``"memory"`` or nothing: a :class:`~robotrules.MemoryStore` for this crawl; ``"sqlite"``:
    robotrules' default cache file (:func:`~robotrules.cache.default_path`, shared with the
    command line); ``"sqlite:///abs/path"`` or a file path: that SQLite file (processes of one
    machine, C3); ``"redis://..."`` (or ``rediss://``, ``unix://``): Redis, keys under
    ``redis_prefix`` (a fleet); a :class:`~robotrules.Store` object: used as it is, not closed.
    """
    if value is None or value in ("", "memory"):
        return MemoryStore(), True
    if isinstance(value, Store):
        return value, False
    if not isinstance(value, (str, os.PathLike)):
        raise ValueError(f"ROBOTRULES_STORE must be 'memory', 'sqlite', a file path, a Redis URL or a store, "
                         f"not {type(value).__name__}")
    spec = os.fspath(value)
    if spec.startswith(_REDIS_SCHEMES):
        try:
            store = RedisStore(spec, prefix=redis_prefix) if redis_prefix else RedisStore(spec)
        except ValueError as exc:  # redis-py's words for a malformed URL
            raise ValueError(f"ROBOTRULES_STORE: cannot use the Redis cache {spec!r}: {exc}") from None
        return store, True
    if spec == "sqlite":
        path = default_path()
    elif spec.startswith("sqlite://"):
        path = spec[len("sqlite://"):]
    elif "://" in spec:
        raise ValueError(f"ROBOTRULES_STORE: unknown kind of store {spec!r} "
                         "(use 'memory', 'sqlite', 'sqlite:///path', a file path or 'redis://host:6379/0')")
    else:
        path = spec
    if not path:
        raise ValueError(f"ROBOTRULES_STORE: no file path in {spec!r} (use 'sqlite:///path/to/robots.sqlite3')")
    if os.path.isdir(path):
        raise ValueError(f"ROBOTRULES_STORE: {path!r} is a directory (give the path of a file)")
    return SQLiteStore(path), True


_POLICY_FIELDS = frozenset(f.name for f in fields(Policy))


def read_policy(value: object) -> Policy:
    """The fetch policy ``ROBOTRULES_POLICY`` gives: a :class:`~robotrules.Policy`, a mapping of its
    fields (``{"detect_misconfigured_5xx": True}``), or nothing (Google's defaults).

    ``public_addresses_only`` is refused: the connections are Scrapy's, where the address
    policy cannot look at them.
    """
    if value is None or value == {}:
        return Policy()
    if isinstance(value, Policy):
        policy = value
    elif isinstance(value, Mapping):
        unknown = sorted(str(k) for k in value if k not in _POLICY_FIELDS)
        if unknown:
            raise ValueError(f"ROBOTRULES_POLICY: unknown field(s) {', '.join(unknown)} "
                             f"(known: {', '.join(sorted(_POLICY_FIELDS))})")
        try:
            policy = Policy(**dict(value))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"ROBOTRULES_POLICY: {exc}") from None
    else:
        raise ValueError(f"ROBOTRULES_POLICY must be a robotrules.Policy or a dict of its fields, not {value!r}")
    if policy.public_addresses_only:
        raise ValueError("ROBOTRULES_POLICY: public_addresses_only cannot apply to downloads made by Scrapy; "
                         "restrict the crawl's addresses in Scrapy itself")
    return policy


@dataclass(frozen=True, slots=True)
class Config:
    """What the middleware reads from the crawl's settings (see :meth:`from_settings`)."""

    robotstxt_user_agent: str | None
    user_agent: str | None
    mode: str
    policy: Policy
    crawl_delay: bool
    max_crawl_delay: float
    download_delay: float

    @classmethod
    def from_settings(cls, settings: BaseSettings) -> Config:
        """``ROBOTSTXT_USER_AGENT``, ``USER_AGENT``, ``ROBOTRULES_MODE``, ``ROBOTRULES_POLICY``,
        ``ROBOTRULES_CRAWL_DELAY``, ``ROBOTRULES_CRAWL_DELAY_MAX`` and ``DOWNLOAD_DELAY``, checked."""
        mode: Any = settings.get("ROBOTRULES_MODE") or "google"
        if not isinstance(mode, str) or mode not in MODES:
            raise ValueError(f"ROBOTRULES_MODE must be one of {', '.join(MODES)}, not {mode!r}")
        raw_policy: Any = settings.get("ROBOTRULES_POLICY")
        if isinstance(raw_policy, str):  # -s ROBOTRULES_POLICY='{"...": ...}' on the command line
            raw_policy = settings.getdict("ROBOTRULES_POLICY")
        try:
            max_delay = settings.getfloat("ROBOTRULES_CRAWL_DELAY_MAX", DEFAULT_MAX_CRAWL_DELAY)
            crawl_delay = settings.getbool("ROBOTRULES_CRAWL_DELAY", False)
        except ValueError as exc:
            raise ValueError(f"ROBOTRULES_CRAWL_DELAY / ROBOTRULES_CRAWL_DELAY_MAX: {exc}") from None
        if not max_delay >= 0:
            raise ValueError(f"ROBOTRULES_CRAWL_DELAY_MAX must be a number of seconds >= 0, not {max_delay!r}")
        return cls(
            robotstxt_user_agent=_text_setting(settings, "ROBOTSTXT_USER_AGENT"),
            user_agent=_text_setting(settings, "USER_AGENT"),
            mode=mode,
            policy=read_policy(raw_policy),
            crawl_delay=crawl_delay,
            max_crawl_delay=max_delay,
            download_delay=settings.getfloat("DOWNLOAD_DELAY"),
        )


def _text_setting(settings: BaseSettings, name: str) -> str | None:
    value: Any = settings.get(name)
    if value is None or isinstance(value, str):
        return value or None
    if isinstance(value, bytes):
        return value.decode("latin-1") or None
    raise ValueError(f"{name} must be a string, not {type(value).__name__}")
