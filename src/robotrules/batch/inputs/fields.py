"""What every kind of input reads alike: the times, failure kinds (F8) and HTTP headers of
archived captures, from WARC records and table rows, and the size of an input file."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from robotrules.errors import SourceError

if TYPE_CHECKING:
    pass

__all__ = ["ERROR_KINDS", "file_size"]


ERROR_KINDS = ("dns", "connect", "timeout", "reset", "protocol", "tls")


def _timestamp(text: Any) -> float | None:
    """Seconds since the epoch of a number, a datetime or an ISO 8601 time; None when absent."""
    if text is None or text == "":
        return None
    if isinstance(text, datetime):
        when = text if text.tzinfo else text.replace(tzinfo=timezone.utc)
        return when.timestamp()
    if isinstance(text, (int, float)):
        return float(text) if math.isfinite(text) else None  # NaN: pandas' missing value
    value = str(text).strip()
    try:
        number = float(value)
    except ValueError:
        pass
    else:
        return number if math.isfinite(number) else None
    try:
        when = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=timezone.utc)).timestamp()


def _error_kind(text: str) -> str:
    """The failure kind (F8) a free-form error names: dns, connect, timeout, ... else other."""
    lower = text.lower()
    for kind in ERROR_KINDS:
        if kind in lower:
            return kind
    if "refused" in lower or "unreachable" in lower:
        return "connect"
    if "ssl" in lower or "certificate" in lower:
        return "tls"
    return "other"


def _http_headers(pairs: Iterable[tuple[str, str]]) -> dict[str, str]:
    headers: dict[str, str] = {}
    for name, value in pairs:
        key = name.lower()
        if key in headers and key != "location":
            headers[key] = f"{headers[key]}, {value}"
        else:
            headers.setdefault(key, value)
    return headers

def file_size(path: str) -> int:
    """The size of ``path`` in bytes; :class:`SourceError` when it cannot be read."""
    try:
        return os.path.getsize(path)
    except OSError as exc:
        raise SourceError(f"cannot read {path}: {exc.strerror or exc}") from None
