"""One anonymous FTP retrieval for the policy, with the standard library's ftplib (S5, F8, F9).

Google-specific (S5): an ``ftp://`` robots.txt is fetched with an anonymous login and governs
that FTP origin. FTP replies are mapped onto the HTTP classes the policy knows: the file
received is a 200; a permanent refusal (5yz reply: no such file, login refused) is a 404, since
no robots.txt can be read (F4); a transient refusal (4yz: service not available) is a 503 (F5);
connection trouble is a :class:`~robotrules.core.policy.Failure` (F8). Reading stops at the
size limit (F9).
"""

from __future__ import annotations

import ftplib
import socket
import time
from urllib.parse import unquote, urlsplit

from robotrules.core.policy import Failure, Fetch, Response

__all__ = ["FtpTransport"]


class _Enough(Exception):
    """Raised from the data callback once the size limit is reached."""


class FtpTransport:
    """Blocking anonymous RETR; the async client runs it in a worker thread."""

    def __init__(self, *, user_agent: str = "") -> None:
        self.user_agent = user_agent  # sent as the anonymous password, as crawlers customarily do

    def send(self, fetch: Fetch, deadline: float) -> Response | Failure:
        """RETR the path of ``fetch.url`` before ``deadline`` (monotonic), reading at most the limit."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return Failure("timeout", "fetch deadline passed")
        parts = urlsplit(fetch.url)
        try:
            port = parts.port or 21
        except ValueError as exc:
            return Failure("other", str(exc))
        chunks: list[bytes] = []
        size = 0
        limit = fetch.limit

        def collect(data: bytes) -> None:
            nonlocal size
            chunks.append(data[: limit - size])
            size += len(chunks[-1])
            if size >= limit:
                raise _Enough
            if time.monotonic() > deadline:
                raise TimeoutError("body not received before the deadline")

        ftp = ftplib.FTP(timeout=remaining)
        try:
            ftp.connect(parts.hostname or "", port)
            ftp.login("anonymous", self.user_agent or "anonymous@")
            if limit == 0:  # a probe: whether the file exists is enough
                ftp.size(unquote(parts.path) or "/")
            else:
                try:
                    ftp.retrbinary("RETR " + (unquote(parts.path) or "/"), collect)
                except _Enough:
                    pass
            return Response(200, {}, b"".join(chunks))
        except ftplib.error_perm as exc:
            return Response(404, {"ftp-reply": str(exc)}, b"")
        except ftplib.error_temp as exc:
            return Response(503, {"ftp-reply": str(exc)}, b"")
        except TimeoutError as exc:
            return Failure("timeout", str(exc) or "timed out")
        except socket.gaierror as exc:
            return Failure("dns", str(exc))
        except (ConnectionRefusedError, ConnectionResetError, BrokenPipeError) as exc:
            return Failure("connect" if isinstance(exc, ConnectionRefusedError) else "reset", str(exc))
        except (OSError, EOFError, ftplib.Error) as exc:
            return Failure("protocol" if isinstance(exc, (EOFError, ftplib.Error)) else "other", str(exc))
        finally:
            try:
                ftp.close()
            except OSError:
                pass

    def close(self) -> None:
        """Nothing to release: each retrieval uses its own connection."""
