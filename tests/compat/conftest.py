"""Fixtures of the drop-in tests: ``server``, the site both guards are tested against
(:mod:`tests.compat._guard_site`; a module may define its own ``server``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.compat._guard_site import RULES
from tests.servers.http import HTTPServer, respond


@pytest.fixture
def server() -> Iterator[HTTPServer]:
    """A site on 127.0.0.1: RULES at /robots.txt, every other path a 200 page."""
    with HTTPServer() as srv:
        srv.route("/robots.txt", respond(200, RULES))
        srv.default = respond(200, b"a page\n", {"Content-Type": "text/plain", "X-Page": "yes"})
        yield srv
