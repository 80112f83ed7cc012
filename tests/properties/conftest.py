"""Hypothesis profiles for the property tests.

"dev" (default): random exploration, example database on.
"ci": derandomized (same examples every run, no flaky CI), no database; selected when
the CI environment variable is set, or explicitly with --hypothesis-profile=ci.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev",
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
