"""The README's example runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_python_example_runs():
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_readme_names_the_ci_test_command():
    ci = (README.parent / ".ci" / "run").read_text()
    assert "python -m pip install -e '.[test]' && python -m pytest" in README.read_text()
    assert "python -m pip install -e '.[test]' && python -m pytest" in ci
