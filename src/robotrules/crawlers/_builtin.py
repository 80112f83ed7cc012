"""The built-in registry: the operator-documented entries, then every agent of the community
list that they do not already name (A8)."""

from __future__ import annotations

from robotrules.crawlers._community import COMMUNITY
from robotrules.crawlers._documented import DOCUMENTED
from robotrules.crawlers._model import Crawler


def _builtin() -> tuple[Crawler, ...]:
    found = {crawler.name.lower(): crawler for crawler in DOCUMENTED}
    for crawler in COMMUNITY:
        found.setdefault(crawler.name.lower(), crawler)
    return tuple(found.values())


CRAWLERS: tuple[Crawler, ...] = _builtin()
"""Every crawler robotrules knows: :data:`DOCUMENTED` first, then the ai.robots.txt snapshot's
agents, each name once (compared case-insensitively, as Google compares tokens: the list's
"meta-externalagent" is the documented "Meta-ExternalAgent", and of its "Webzio-Extended" and
"webzio-extended" the first is kept)."""

IGNORES_GLOBAL = frozenset(c.token.lower() for c in CRAWLERS if c.ignores_global)
"""The product tokens (lower-case) of the crawlers that obey only the groups naming them."""
