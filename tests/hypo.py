"""How many examples a Hypothesis test runs under the loaded profile (``tests/conftest.py``).

A test states the examples it needs under the thorough profile, ``@settings(max_examples=examples(300))``;
the thorough profile ("ci", max_examples 100, Hypothesis' default) runs exactly that, and any other
profile scales it by its own ``max_examples`` / 100: the quick profile (10) runs a tenth, at least 5.
"""

from __future__ import annotations

from hypothesis import settings

THOROUGH = 100
"""``max_examples`` of the thorough profile: a test's stated count runs as written."""


def examples(thorough: int) -> int:
    """The examples to run for a test that needs ``thorough`` under the thorough profile."""
    scale = settings.default.max_examples / THOROUGH
    if scale >= 1:
        return round(thorough * scale)
    return min(thorough, max(5, round(thorough * scale)))
