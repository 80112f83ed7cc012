"""Run or import a script of bench/ by file name (bench/ is not a package).

The smoke tests run each script as its own process (:func:`run_bench`), as a user runs it: the
scripts fork measuring children and collect garbage between figures, which in a test worker
that has imported half the ecosystem costs several times the run itself.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_bench(name: str) -> ModuleType:
    """The module ``bench/<name>.py``, registered in sys.modules (dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod
    spec.loader.exec_module(mod)
    return mod


def run_bench(name: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python bench/<name>.py *args`` in a new process (this interpreter, the inherited
    environment); its exit code is 0, else the assertion shows the end of its output."""
    done = subprocess.run([sys.executable, str(BENCH / f"{name}.py"), *args], capture_output=True, text=True,
                          timeout=timeout, check=False)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-3000:])
    return done
