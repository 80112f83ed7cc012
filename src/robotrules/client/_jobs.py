"""A job's view of the client: each robots.txt fetched again once per job when asked to (``--refresh``)."""

from __future__ import annotations

import threading

from robotrules.answers import RobotsState
from robotrules.client._sync import RobotsClient

__all__ = ["JobRobots"]


class JobRobots:
    """The robots.txt files of one job (a command run, a batch), through ``client``.

    With ``refresh``, the first time the job asks for a robots.txt it is fetched again, however
    fresh the cached copy (a failed fetch still keeps a good copy, C2), and that new copy serves
    the rest of the job; without, the cache answers as usual. Safe to share between threads.
    """

    def __init__(self, client: RobotsClient, *, refresh: bool = False) -> None:
        self.client = client
        self.refresh = refresh
        self._done: set[str] = set()
        self._lock = threading.Lock()

    def robots(self, url: str) -> RobotsState:
        """The state of the robots.txt governing ``url`` (``url`` may be that robots.txt URL itself)."""
        if self.refresh and self._first(self.client.robots_url(url)):
            return self.client.refresh(url)
        return self.client.robots(url)

    def _first(self, robots_url: str) -> bool:
        with self._lock:
            if robots_url in self._done:
                return False
            self._done.add(robots_url)
            return True
