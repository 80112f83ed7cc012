"""robotrules: robots.txt exactly as Google applies it.

``parse(body)`` gives an immutable :class:`RobotsTxt`; ask it ``allowed(url, agent)`` or
``check(url, agent)`` for the verdict with its deciding line. ``robots_url(url)`` names the
robots.txt that governs a URL. :class:`RobotsClient` and :class:`AsyncRobotsClient` fetch and
cache robots.txt files as Google does (in a :class:`MemoryStore`, :class:`SQLiteStore` or
:class:`RedisStore`) and answer for any URL. Requirement ids in docstrings (F5, R6, ...) are defined in ``docs/requirements.md``.
"""

from robotrules._version import __version__ as __version__
from robotrules.cache import MemoryStore, RedisStore, SQLiteStore, Store
from robotrules.client import AsyncRobotsClient, CheckResult, RobotsClient, RobotsState
from robotrules.core import COMPILED
from robotrules.core.agents import user_agent_token
from robotrules.core.extensions import ContentUsage, RequestRate
from robotrules.core.lexer import SIZE_LIMIT
from robotrules.core.lint import CODES, Diagnostic, lint
from robotrules.core.model import Extension, Group
from robotrules.core.modes import MODES
from robotrules.core.policy import Entry, Policy
from robotrules.core.robotstxt import AgentRules, Decision, RobotsTxt, parse
from robotrules.core.rules import Rule
from robotrules.core.urls import Scope, is_robots_url, path_params_query
from robotrules.errors import (
    BlockedAddress,
    InvalidURL,
    MissingExtra,
    RobotsDisallowed,
    RobotsError,
    StoreError,
    UnsupportedScheme,
)
from robotrules.hosts import robots_scope, robots_url, same_scope

__all__ = [
    "CODES",
    "COMPILED",
    "MODES",
    "SIZE_LIMIT",
    "AgentRules",
    "AsyncRobotsClient",
    "BlockedAddress",
    "CheckResult",
    "ContentUsage",
    "Decision",
    "Diagnostic",
    "Entry",
    "Extension",
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
    "RobotsState",
    "RobotsTxt",
    "Rule",
    "SQLiteStore",
    "Scope",
    "Store",
    "StoreError",
    "UnsupportedScheme",
    "is_robots_url",
    "lint",
    "parse",
    "path_params_query",
    "robots_scope",
    "robots_url",
    "same_scope",
    "user_agent_token",
]
