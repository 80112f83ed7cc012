"""Fixtures for the page tests: the real service on 127.0.0.1, Debian's Chromium, a page per test.

The service is :func:`robotrules.service.create_app` (memory store, private addresses allowed so
it can fetch robots.txt files from the scriptable server on 127.0.0.1), run by uvicorn in a
background thread. The browser is the suite's ``browser`` (``tests/conftest.py``):
``/usr/bin/chromium`` launched by Playwright once for the module; no browser is ever downloaded.
Each test gets a fresh page, in a browser context the module's tests share, and every request
made while it runs is recorded: the page may talk only to the service that serves it, and a
JavaScript error fails the test.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.chromium import closing_new_pages, shared_window
from tests.page._tester import TesterPage
from tests.servers.http import HTTPServer

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Request, WebError


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


@pytest.fixture(scope="module")
def page_context(browser: Browser) -> Iterator[BrowserContext]:
    """One browser context (one window, 1400 x 1000, the pauses shortened) for a module's tests."""
    with shared_window(browser, 1400, 1000, PAUSES) as context:
        yield context


@pytest.fixture
def tester(page_context: BrowserContext, service_url: str) -> Iterator[TesterPage]:
    """A fresh page on the service; fails the test on a JavaScript error or on any request that
    is not to the service itself. Afterwards the pages it opened are closed, and the permissions
    it granted and any cookies are taken back (the page keeps nothing in storage)."""
    requests: list[str] = []
    errors: list[str] = []

    def on_request(request: Request) -> None:
        requests.append(request.url)

    def on_error(error: WebError) -> None:
        errors.append(str(error.error))

    page_context.on("request", on_request)
    page_context.on("weberror", on_error)
    try:
        with closing_new_pages(page_context):
            yield TesterPage(page_context, service_url, errors)
        foreign = [url for url in requests if not url.startswith((service_url + "/", "data:"))]
        assert not foreign, f"the page made requests beyond its own server: {foreign}"
        assert not errors, f"JavaScript errors on the page: {errors}"
    finally:
        page_context.remove_listener("request", on_request)
        page_context.remove_listener("weberror", on_error)
        page_context.clear_permissions()
        page_context.clear_cookies()


@pytest.fixture
def site() -> Iterator[HTTPServer]:
    """A site on 127.0.0.1 that serves whatever robots.txt a test routes."""
    with HTTPServer() as server:
        yield server
