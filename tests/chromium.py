"""One headless window for a module's browser tests: a context whose pages the tests open in turn."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

TIMEOUT_MS = 10_000
"""Every wait of a page test (Playwright's default is 30 s)."""


@contextmanager
def shared_window(browser: Any, width: int, height: int, init_script: str | None = None) -> Iterator[Any]:
    """A browser context (``width`` x ``height``, service workers blocked) for a module's tests,
    each of which opens its own page in it and closes it after.

    A new context opens a new headless window, and Chromium loads two WebUI pages of each
    window's address bar (about half a second of processor time); a new page in an open window
    does not. The context's first page stays open, on ``about:blank``, to keep the window."""
    context = browser.new_context(viewport={"width": width, "height": height}, service_workers="block")
    try:
        context.set_default_timeout(TIMEOUT_MS)
        if init_script is not None:
            context.add_init_script(init_script)
        context.new_page()
        yield context
    finally:
        context.close()


@contextmanager
def closing_new_pages(context: Any) -> Iterator[None]:
    """Close, at the end of the block, every page of ``context`` opened during it (a test's pages,
    and any popup they opened), leaving the shared window's own page open."""
    before = list(context.pages)
    try:
        yield
    finally:
        for page in context.pages:
            if page not in before:
                page.close()
