"""robotrules: robots.txt exactly as Google applies it.

``parse(body)`` gives an immutable :class:`RobotsTxt`; ask it ``allowed(url, agent)`` or
``check(url, agent)`` for the verdict with its deciding line, or ``usage(url, agent)`` for the
verdict and the AI-use preferences (train-ai, search, ai-input) that apply to the URL. ``robots_url(url)`` names the
robots.txt that governs a URL. :class:`RobotsClient` and :class:`AsyncRobotsClient` fetch and
cache robots.txt files as Google does (in a :class:`MemoryStore`, :class:`SQLiteStore` or
:class:`RedisStore`; through a :class:`Fetcher` and an :class:`AddressPolicy` of your own if you
like) and answer for any URL. Requirement ids in docstrings (F5, R6, ...) are defined in
``docs/requirements.md``.

This is the public face: :data:`__all__` is the contract. The other faces are
:mod:`robotrules.answers`, :mod:`robotrules.client`, :mod:`robotrules.fetch`,
:mod:`robotrules.core.policy`, :mod:`robotrules.batch`, :mod:`robotrules.spark`,
:mod:`robotrules.service`, :mod:`robotrules.compat` and :mod:`robotrules.errors`; modules
whose names start with an underscore are private.
"""

from typing import Any as _Any

from robotrules._version import __version__ as __version__
from robotrules.answers import CheckResult, RobotsState
from robotrules.cache import MemoryStore, RedisStore, SQLiteStore, Store
from robotrules.client import AsyncRobotsClient, RobotsClient
from robotrules.core.agents import RobotsInputWarning, user_agent_token
from robotrules.core.extensions import ContentUsage, RequestRate
from robotrules.core.lint import CODES, Diagnostic, lint
from robotrules.core.model import Extension, Group
from robotrules.core.modes import MODES
from robotrules.core.policy import Policy
from robotrules.core.robotstxt import Decision, RobotsTxt, parse
from robotrules.core.rules import Rule
from robotrules.core.usage import Statement, Usage, combine, parse_statement
from robotrules.errors import (
    BlockedAddress,
    InvalidURL,
    MissingExtra,
    RobotsDisallowed,
    RobotsError,
    StoreError,
    UnsupportedScheme,
)
from robotrules.fetch import AddressPolicy, AsyncFetcher, Fetcher
from robotrules.hosts import robots_scope, robots_url, same_scope

__all__ = [
    "CODES",
    "MODES",
    "AddressPolicy",
    "AsyncFetcher",
    "AsyncRobotsClient",
    "BlockedAddress",
    "CheckResult",
    "ContentUsage",
    "Decision",
    "Diagnostic",
    "Extension",
    "Fetcher",
    "Group",
    "InvalidURL",
    "MemoryStore",
    "MissingExtra",
    "Policy",
    "RedisStore",
    "RequestRate",
    "RobotsClient",
    "RobotsDisallowed",
    "RobotsError",
    "RobotsInputWarning",
    "RobotsState",
    "RobotsTxt",
    "Rule",
    "SQLiteStore",
    "Statement",
    "Store",
    "StoreError",
    "UnsupportedScheme",
    "Usage",
    "combine",
    "lint",
    "parse",
    "parse_statement",
    "robots_scope",
    "robots_url",
    "same_scope",
    "user_agent_token",
]

_MOVED = {
    "COMPILED": "robotrules.core",
    "SIZE_LIMIT": "robotrules.core.policy",
    "AgentRules": "robotrules.core.robotstxt",
    "Entry": "robotrules.core.policy",
    "Scope": "robotrules.core.urls",
    "is_robots_url": "robotrules.core.urls",
    "path_params_query": "robotrules.core.urls",
}
"""Names this face exported before 0.3 that belong to a part below it: still importable from here,
with a DeprecationWarning naming their home."""


def __getattr__(name: str) -> _Any:
    home = _MOVED.get(name)
    if home is None:
        raise AttributeError(f"module 'robotrules' has no attribute {name!r}")
    import importlib
    import warnings

    warnings.warn(f"robotrules.{name} is deprecated here: import it from {home}", DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(home), name)
