"""The web tester page's modules type-check: the TypeScript compiler over their JSDoc types.

The page (src/robotrules/service/static: ``app.js`` and ``js/*.js``) is JavaScript served as it is,
with no build step; each module starts with ``// @ts-check`` and declares its types in JSDoc (the
service's JSON answers are typedefs in ``js/types.js``). ``tsc -p tsconfig.json`` checks them
strictly and emits nothing. The compiler comes from the npm registry at the version
``package.json`` pins and ``package-lock.json`` locks: ``npm ci`` installs it (``.ci/run`` does).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.needs import unavailable

ROOT = Path(__file__).resolve().parents[2]
TSC = ROOT / "node_modules" / ".bin" / "tsc"
CONFIG = ROOT / "tsconfig.json"


def test_the_page_modules_type_check_with_tsc() -> None:
    """``tsc -p tsconfig.json`` reports no error; its own report is the failure message. Without the
    compiler the test skips on a developer's machine (``npm ci`` installs it) and fails in CI."""
    if not TSC.exists():
        unavailable(f"the TypeScript compiler is not installed at {TSC.relative_to(ROOT)}: run `npm ci` at the "
                    "repository's root (Node.js and npm needed)")
    done = subprocess.run([str(TSC), "-p", str(CONFIG)], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, f"tsc -p tsconfig.json:\n{done.stdout[-8000:]}{done.stderr[-2000:]}"


def test_every_page_module_asks_to_be_checked() -> None:
    """Each module the compiler checks starts with ``// @ts-check`` (so an editor checks it too),
    and the configuration takes in every one of them."""
    static = ROOT / "src" / "robotrules" / "service" / "static"
    scripts = sorted(static.rglob("*.js"))
    assert scripts and (static / "app.js") in scripts
    unchecked = [str(path.relative_to(static)) for path in scripts
                 if not path.read_text(encoding="utf-8").startswith("// @ts-check\n")]
    assert unchecked == []
    assert '"src/robotrules/service/static/**/*.js"' in CONFIG.read_text(encoding="utf-8")
