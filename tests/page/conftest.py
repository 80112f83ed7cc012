"""Fixtures for the page tests: the real service on 127.0.0.1, Debian's Chromium, a page per test.

The service is :func:`robotrules.service.create_app` (memory store, private addresses allowed so
it can fetch robots.txt files from the scriptable server on 127.0.0.1), run by uvicorn in a
background thread. The browser is the suite's ``browser`` (``tests/conftest.py``):
``/usr/bin/chromium`` launched by Playwright once for the module; no browser is ever downloaded.
Each test gets a fresh browser context whose every request is recorded: the page may talk only
to the service that serves it, and a JavaScript error fails the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.page._tester import TesterPage
from tests.servers.http import HTTPServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser


PAUSES = "window.robotrulesPauses = {retest: 20, link: 20};"
"""The page's pauses after typing (180 ms before a re-test, 300 ms before the link is rewritten),
shortened: Playwright types at machine speed, and waiting a person's pause only makes the tests
slower. What the pauses coalesce is the same (tests/page/test_pauses.py keeps the real ones)."""


@pytest.fixture(scope="session")
def service_url() -> Iterator[str]:
    """The real service (robotrules.service.create_app) on a free 127.0.0.1 port."""
    try:
        from robotrules import MemoryStore
        from robotrules.service import create_app
        from tests.service._serve import serving
    except ImportError as exc:  # MissingExtra is an ImportError too
        pytest.skip(f"the service needs the 'serve' extra (fastapi, uvicorn): {exc}")
    with serving(create_app(store=MemoryStore(), allow_private=True, fetch_timeout=5.0)) as url:
        yield url


@pytest.fixture
def tester(browser: Browser, service_url: str) -> Iterator[TesterPage]:
    """A fresh browser context and page on the service; fails the test on a JavaScript error or
    on any request that is not to the service itself."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, service_workers="block")
    context.set_default_timeout(10_000)
    context.add_init_script(PAUSES)
    requests: list[str] = []
    errors: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    context.on("weberror", lambda error: errors.append(str(error.error)))
    try:
        yield TesterPage(context, service_url, errors)
        foreign = [url for url in requests if not url.startswith((service_url + "/", "data:"))]
        assert not foreign, f"the page made requests beyond its own server: {foreign}"
        assert not errors, f"JavaScript errors on the page: {errors}"
    finally:
        context.close()


@pytest.fixture
def site() -> Iterator[HTTPServer]:
    """A site on 127.0.0.1 that serves whatever robots.txt a test routes."""
    with HTTPServer() as server:
        yield server

