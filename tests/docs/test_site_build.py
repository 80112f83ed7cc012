"""The documentation site builds with ``mkdocs build --strict``, and its API reference covers the API.

Strict: any warning fails the build (a broken link or anchor, a missing page, an unresolved
cross-reference, a docstring the handler cannot read). Needs the ``docs`` extra (part of the
``test`` extra); nothing is fetched from the network.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import robotrules

from ._citations import ROOT

for _module in ("mkdocs", "material", "mkdocstrings_handlers.python"):
    pytest.importorskip(_module, reason="the documentation tools are in the docs extra: pip install -e '.[docs]'")


pytestmark = [pytest.mark.xdist_group("docs-site"), pytest.mark.slow]  # one worker, one build of the site (seconds)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")  # Material's notice about its future, not a warning of ours
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout[-4000:]}\n{done.stderr[-8000:]}"
    return out


def test_site_builds_strictly(site: Path):
    """The build passes with warnings as errors and writes every page of the navigation."""
    for page in ("index.html", "requirements/index.html", "architecture/index.html", "api/index.html",
                 "guides/fetching/index.html", "changelog/index.html"):
        assert (site / page).is_file(), page


def test_api_reference_documents_every_public_name(site: Path):
    """Every name of robotrules.__all__ has its entry in the API reference."""
    html = (site / "api" / "index.html").read_text(encoding="utf-8")
    anchors = set(re.findall(r'id="(robotrules\.[\w.]+)"', html))
    assert [name for name in robotrules.__all__ if f"robotrules.{name}" not in anchors] == []


def test_api_reference_renders_sphinx_roles_as_code(site: Path):
    """No ``:class:`` or ``:func:`` text survives from the docstrings (docs/_griffe_rst.py)."""
    for page in (site / "api").rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r":(class|func|meth|mod|attr|data|exc):<code>", text), page


def test_changelog_page_includes_the_changelog(site: Path):
    """The Changelog page shows CHANGELOG.md from the repository root."""
    html = (site / "changelog" / "index.html").read_text(encoding="utf-8")
    first_heading = next(line for line in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines()
                         if line.startswith("## "))
    assert re.sub(r"[#\[\]]", "", first_heading).strip() in html
