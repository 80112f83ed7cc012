"""The settings of one service app: what it fetches, and every limit that keeps it responsive.

Each limit answers one way a stranger could make the service slow for everyone (issue #16):

==================  =========  =========================================================================
setting             default    what it bounds (what a request over it gets)
==================  =========  =========================================================================
deadline            10 s       a whole request, body included; its work is cancelled (503, Retry-After)
fetch_timeout       5 s        one robots.txt fetch, redirects included (an outage answer, F8)
max_body            1,000,000  bytes of a request body (413)
max_urls            1,000      URLs in one request (422 too_many_urls)
max_agents          50         agents in one request (422 too_many_agents)
max_checks          10,000     URLs x agents in one request (422 too_many_checks)
max_hosts           100        distinct robots.txt URLs (sites) in one live request (422 too_many_hosts)
max_url_length      16,384     characters of one URL (422 url_too_long)
fetches             64         robots.txt loads in flight in the process (more wait in the queue)
fetches_per_request 16         of those, for one request
work                2          requests with a body (POST) computing at once (not while they wait for fetches)
small_body          16,384     bytes of a POST body that takes the small requests' lane (one slot of its own)
                               instead of a work slot: a person's draft is answered beside strangers' large ones
draft_work          25,000,000 steps of work of one diff or edit (robotrules._budget: about 3 s; 422 too_much_work,
                               refused before the work when its size is known)
max_listed          1,000      rule changes, verdict changes and lint findings one answer lists (the rest counted)
queue               256        waiters per gate (fetches, work); past it, 503 overloaded with Retry-After
hosts               any        the Host names answered (421 wrong_host): :func:`robotrules.service.run`
                               on a loopback address answers only loopback names (DNS rebinding)
==================  =========  =========================================================================

Keep ``fetch_timeout`` under ``deadline``: a fetch still running at the deadline is cancelled
with its request, and its site is asked again next time instead of being cached as an outage.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

__all__ = ["Settings"]


@dataclass(frozen=True, slots=True)
class Settings:
    """The options and limits of one app (see the module docstring for what each bounds)."""

    allow_private: bool = False
    user_agent: str | None = None
    fetch_timeout: float = 5.0
    deadline: float = 10.0
    max_urls: int = 1000
    max_agents: int = 50
    max_checks: int = 10_000
    max_hosts: int = 100
    max_body: int = 1_000_000
    max_url_length: int = 16_384
    fetches: int = 64
    fetches_per_request: int = 16
    work: int = 2
    small_body: int = 16_384
    draft_work: int = 25_000_000
    max_listed: int = 1000
    queue: int = 256
    docs: bool = False
    hosts: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("fetch_timeout", "deadline"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and value > 0):
                raise ValueError(f"{name} must be a number of seconds > 0")
        object.__setattr__(self, "hosts", tuple(host.strip("[]").lower() for host in self.hosts))
        for field in fields(self):
            value = getattr(self, field.name)
            if field.type == "int" and (not isinstance(value, int) or value < (0 if field.name == "queue" else 1)):
                raise ValueError(f"{field.name} must be a whole number >= {0 if field.name == 'queue' else 1}")
