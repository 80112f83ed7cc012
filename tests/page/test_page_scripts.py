"""The tester page's script: native ES modules, served as they are.

The page is ``static/app.js`` and the modules under ``static/js/`` it imports, loaded by the
browser with ``<script type="module">`` (no bundle, no build step): each is served with a
JavaScript media type under the page's Content-Security-Policy, and each is type-checked
(``// @ts-check``; tests/standards/test_page_types.py runs the compiler).
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx

from robotrules.service._routes import STATIC_DIR

STATIC = Path(STATIC_DIR)
IMPORT = re.compile(r"""^import\s[^;]*?\sfrom\s"(\./[^"]+)";""", re.MULTILINE)
TYPE_IMPORT = re.compile(r"""import\("(\./[^"]+)"\)""")
JAVASCRIPT = ("text/javascript", "application/javascript")


def modules() -> list[Path]:
    """Every script of the page: app.js and the modules under js/."""
    return [STATIC / "app.js", *sorted((STATIC / "js").glob("*.js"))]


def test_the_page_loads_one_module_script_that_imports_the_others(service_url: str) -> None:
    """index.html has one script, a module; every module is reached from it, by an import or (the
    types) by a JSDoc type import."""
    page = httpx.get(service_url + "/").text
    assert re.findall(r"<script\b[^>]*>", page) == ['<script type="module" src="static/app.js">']
    reached: set[Path] = set()
    waiting = [STATIC / "app.js"]
    while waiting:
        module = waiting.pop()
        if module in reached:
            continue
        reached.add(module)
        text = module.read_text(encoding="utf-8")
        found = IMPORT.findall(text) + TYPE_IMPORT.findall(text)
        waiting += [(module.parent / name).resolve() for name in found]
    assert reached == {path.resolve() for path in modules()}


def test_every_module_is_served_as_javascript_under_the_pages_policy(service_url: str) -> None:
    """Browsers run a module script only when it is served with a JavaScript media type; the page's
    Content-Security-Policy lets scripts come from its own server only, never inline or eval'd."""
    policy = httpx.get(service_url + "/").headers["content-security-policy"]
    scripts = next(part.split()[1:] for part in policy.split(";") if part.split()[0] == "script-src")
    assert scripts == ["'self'"]
    for module in modules():
        path = "/static/" + module.relative_to(STATIC).as_posix()
        response = httpx.get(service_url + path)
        assert response.status_code == 200, path
        assert response.headers["content-type"].split(";")[0] in JAVASCRIPT, (path, response.headers["content-type"])
        assert response.content == module.read_bytes()
