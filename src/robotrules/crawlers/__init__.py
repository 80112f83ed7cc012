"""A registry of the crawlers people meet: what each is called, the token Google reads, who runs
it, what it is for, whether it obeys robots.txt (A8).

Two sources: the entries robotrules keeps from the operators' own documentation
(:data:`DOCUMENTED`), and the community list ai.robots.txt (:data:`COMMUNITY`, a snapshot of its
``robots.json`` shipped with its MIT licence; :data:`SNAPSHOT` says which). :data:`CRAWLERS` is
both, documented first. Each :class:`Crawler` has its ``name`` as the operator writes it and the
product ``token`` Google's matching reads from it (RFC 9309 2.2.1, G3): "AI2Bot" is read as
"AI", "Brightbot 1.0" as "Brightbot" (:attr:`Crawler.token_valid` flags them), its ``kind``
(:data:`CrawlerKind`, the one declaration of the kinds; :data:`KINDS`, and :data:`KIND_LABELS`
in words), ``obeys`` (:data:`Obeys`) and ``ignores_global`` (Google's AdsBot obeys only the
groups that name it).

The web page's agent picker, the service's ``GET /v1/agents``, ``robotrules crawlers`` and the
audits read it. Plain data, standard library only: no service, network or parser imports.
:func:`load` reads more entries from JSON or CSV (or a newer ``robots.json``), :func:`merge`
combines registries, :func:`dumps` writes one back, :func:`by_token` and :func:`search` look up.
"""

from __future__ import annotations

from robotrules.crawlers._builtin import CRAWLERS, IGNORES_GLOBAL
from robotrules.crawlers._community import COMMUNITY, SNAPSHOT, Snapshot, from_ai_robots_txt
from robotrules.crawlers._documented import DOCUMENTED
from robotrules.crawlers._files import by_token, dumps, load, merge, search
from robotrules.crawlers._model import (
    FIELDS,
    KIND_LABELS,
    KINDS,
    OBEYS,
    ORIGINS,
    Crawler,
    CrawlerKind,
    CrawlerOrigin,
    Obeys,
    token_of_name,
)

__all__ = [
    "COMMUNITY",
    "CRAWLERS",
    "DOCUMENTED",
    "FIELDS",
    "IGNORES_GLOBAL",
    "KINDS",
    "KIND_LABELS",
    "OBEYS",
    "ORIGINS",
    "SNAPSHOT",
    "Crawler",
    "CrawlerKind",
    "CrawlerOrigin",
    "Obeys",
    "Snapshot",
    "by_token",
    "dumps",
    "from_ai_robots_txt",
    "load",
    "merge",
    "search",
    "token_of_name",
]
