"""File permissions that apply to root too: a child process without the power to ignore them.

Tests run as root in CI containers, where ``chmod 0`` stops nothing (CAP_DAC_OVERRIDE). A child
started with :func:`file_permissions_apply` as its ``preexec_fn`` drops CAP_DAC_OVERRIDE,
CAP_DAC_READ_SEARCH and CAP_FOWNER from its capability bounding set before ``exec``; it is root
without those powers, and a file an ordinary user could not read is unreadable to it too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable

PR_CAPBSET_DROP = 24
DROPPED = (1, 2, 3)  # CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH, CAP_FOWNER


class Unavailable(RuntimeError):
    """Root, and the capabilities cannot be dropped here (not Linux, or prctl refused)."""


def file_permissions_apply() -> Callable[[], None] | None:
    """A ``preexec_fn`` that makes file permissions bind a root child; None when not root (they
    already bind). Raises :class:`Unavailable`, saying why, when that cannot be arranged."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return None
    if not sys.platform.startswith("linux"):
        raise Unavailable("running as root on a system where a process cannot drop CAP_DAC_OVERRIDE")
    probe = subprocess.run(  # can a child drop capabilities at all? (CAP_SETPCAP)
        [sys.executable, "-c", "import ctypes; l = ctypes.CDLL(None); raise SystemExit(l.prctl(24, 1, 0, 0, 0))"],
        check=False, timeout=60,
    )
    if probe.returncode != 0:
        raise Unavailable("running as root and prctl(PR_CAPBSET_DROP) is refused: file permissions cannot bind")
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def drop() -> None:
        for cap in DROPPED:
            libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)

    return drop
