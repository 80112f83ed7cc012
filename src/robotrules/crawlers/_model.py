"""One crawler of the registry: its name, the product token Google reads from it, what it is for (A8)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, get_args

CrawlerKind = Literal["ai-training", "ai-search", "ai-assistant", "search", "archive", "seo", "other"]
"""What a crawler's fetches are for (A8): AI model training, an AI search index, fetches on behalf
of a user of an AI assistant or agent, a search index, a web archive, SEO tools, anything else.
The one declaration of the kinds, in the order reports and listings show them; every other form
is derived from it (:data:`KINDS`, :data:`KIND_LABELS`' keys, the service's models). Each kind is
some crawler's (a test checks the registry has one of each)."""

KINDS: frozenset[str] = frozenset(get_args(CrawlerKind))
"""The kinds of :data:`CrawlerKind`, as a set (what a file's ``kind`` is checked against)."""

KIND_LABELS: dict[str, str] = dict(zip(get_args(CrawlerKind), (
    "AI training",
    "AI search",
    "AI assistants (fetches for a user)",
    "Search",
    "Archives",
    "SEO tools",
    "Other",
), strict=True))
"""Each kind of :data:`CrawlerKind` as people read it, in its order: the one wording of every
surface (the command line, the audit reports, the service)."""

Obeys = Literal["yes", "no", "unknown"]
"""Whether the operator says the crawler obeys robots.txt (A8): Google's user-triggered fetchers,
for one, generally do not."""

OBEYS: frozenset[str] = frozenset(get_args(Obeys))
"""The values of :data:`Obeys`, as a set."""

CrawlerOrigin = Literal["robotrules", "ai.robots.txt", "file"]
"""Where an entry comes from: the operator-documented entries robotrules keeps, the community
list ai.robots.txt, or a file the user loaded."""

ORIGINS: frozenset[str] = frozenset(get_args(CrawlerOrigin))
"""The values of :data:`CrawlerOrigin`, as a set."""

FIELDS = ("name", "token", "operator", "purpose", "kind", "source", "obeys", "ignores_global", "origin")
"""The fields of a crawler, in order: the columns of a CSV file and the keys of a JSON object.
A file needs ``operator``, ``purpose``, ``kind``, ``source`` and ``name`` or ``token``."""

_TOKEN = re.compile(r"[A-Za-z_-]*")


def token_of_name(name: str) -> str:
    """G3: the product token Google's matching reads from a crawler's name, as it reads a
    ``user-agent`` line: the leading run of letters, ``-`` and ``_`` ("AI2Bot" -> "AI",
    "Brightbot 1.0" -> "Brightbot"; "" when the name starts with anything else)."""
    return _TOKEN.match(name.strip()).group()  # type: ignore[union-attr]  # always matches


@dataclass(frozen=True, slots=True)
class Crawler:
    """One crawler: the product ``token`` a robots.txt group names it by (G3), who runs it, why.

    ``name`` is the name as the operator writes it (default: ``token``); pass a name that is not a
    product token as ``token`` or ``name`` and the token becomes what Google reads from it
    (``Crawler("AI2Bot", ...)`` has token ``AI``: :attr:`token_valid` is False). ``kind`` is one
    of :data:`KINDS`; ``source`` an http(s) URL of the operator's documentation (or the list the
    entry comes from); ``obeys`` one of :data:`OBEYS`; ``ignores_global``: the crawler ignores
    the ``*`` group and obeys only groups that name it (Google's AdsBot); ``origin`` one of
    :data:`ORIGINS`.
    """

    token: str
    operator: str
    purpose: str
    kind: str
    source: str
    name: str = ""
    obeys: str = "unknown"
    ignores_global: bool = False
    origin: str = "robotrules"

    def __post_init__(self) -> None:
        for field in ("token", "operator", "purpose", "kind", "source"):
            value = getattr(self, field)
            if not isinstance(value, str) or not value.strip():
                raise ValueError(f"crawler field {field!r} must be a non-empty string, not {value!r}")
        name = self.name or self.token
        if not isinstance(name, str):
            raise ValueError(f"crawler field 'name' must be a string, not {name!r}")
        token = token_of_name(self.token)
        if not token:
            raise ValueError(f"crawler {name!r} has no product token: a name must start with a letter, '-' or '_'")
        if self.name and token_of_name(self.name).lower() != token.lower():
            raise ValueError(f"crawler {name!r}: token {self.token!r} is not the token of its name "
                             f"({token_of_name(self.name)!r})")
        object.__setattr__(self, "name", name.strip())
        object.__setattr__(self, "token", token)
        if self.kind not in KINDS:
            raise ValueError(f"crawler {name!r}: kind must be one of {', '.join(sorted(KINDS))}, not {self.kind!r}")
        if not self.source.startswith(("https://", "http://")):
            raise ValueError(f"crawler {name!r}: source must be an http(s) URL, not {self.source!r}")
        if self.obeys not in OBEYS:
            raise ValueError(f"crawler {name!r}: obeys must be one of {', '.join(sorted(OBEYS))}, not {self.obeys!r}")
        if not isinstance(self.ignores_global, bool):
            raise ValueError(f"crawler {name!r}: ignores_global must be true or false, not {self.ignores_global!r}")
        if self.origin not in ORIGINS:
            raise ValueError(f"crawler {name!r}: origin must be one of {', '.join(sorted(ORIGINS))}, "
                             f"not {self.origin!r}")

    @property
    def token_valid(self) -> bool:
        """Whether the name is itself a product token; if not, Google reads a group naming it as
        :attr:`token` ("User-agent: AI2Bot" is a group for "AI")."""
        return self.name == self.token

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: :data:`FIELDS`, with ``token_valid`` after ``token``."""
        return {"name": self.name, "token": self.token, "token_valid": self.token_valid, "operator": self.operator,
                "purpose": self.purpose, "kind": self.kind, "source": self.source, "obeys": self.obeys,
                "ignores_global": self.ignores_global, "origin": self.origin}
