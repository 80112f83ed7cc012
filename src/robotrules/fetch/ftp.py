"""One anonymous FTP retrieval for the policy, with the standard library's ftplib (S5, F8, F9).

Google-specific (S5): an ``ftp://`` robots.txt is fetched with an anonymous login and governs
that FTP origin. FTP replies are mapped onto the HTTP classes the policy knows: the file
received is a 200; a permanent refusal (5yz reply: no such file, login refused) is a 404, since
no robots.txt can be read (F4); a transient refusal (4yz: service not available) is a 503 (F5);
connection trouble is a :class:`~robotrules.core.policy.Failure` (F8). Reading stops at the
size limit (F9). Only FTP, socket and TLS errors are answers; any other exception propagates.

With an :class:`~robotrules.fetch.addresses.AddressPolicy` the host is resolved and checked
first (:class:`~robotrules.errors.BlockedAddress` when refused) and the control connection is
opened to the checked address itself; the data connection goes to the same address whatever
a PASV reply says (ftplib's default, set here explicitly), so no reply can steer it elsewhere.
"""

from __future__ import annotations

import contextlib
import ftplib
import socket
import time
from urllib.parse import unquote, urlsplit

from robotrules.core.policy import Failure, Fetch, Response
from robotrules.fetch.addresses import AddressPolicy

__all__ = ["FtpTransport"]


class _Enough(Exception):
    """Raised from the data callback once the size limit is reached."""


class FtpTransport:
    """Blocking anonymous RETR; the async client runs it in a worker thread."""

    def __init__(self, *, user_agent: str = "", addresses: AddressPolicy | None = None) -> None:
        self.user_agent = user_agent  # sent as the anonymous password, as crawlers customarily do
        self.addresses = addresses

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

        host = parts.hostname or ""
        try:
            # BlockedAddress propagates; the fetcher decides what a refused hop means (F3).
            targets = [host] if self.addresses is None else self.addresses.resolve(host, port)
        except socket.gaierror as exc:
            return Failure("dns", str(exc))
        ftp = ftplib.FTP(timeout=remaining)
        ftp.trust_server_pasv_ipv4_address = False  # type: ignore[attr-defined]  # data: to the server's own address
        try:
            self._connect(ftp, targets, port)
            ftp.login("anonymous", self.user_agent or "anonymous@")
            if limit == 0:  # a probe: whether the file exists is enough
                ftp.size(unquote(parts.path) or "/")
            else:
                with contextlib.suppress(_Enough):  # the size limit was reached (F9)
                    ftp.retrbinary("RETR " + (unquote(parts.path) or "/"), collect)
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
            with contextlib.suppress(OSError):
                ftp.close()

    @staticmethod
    def _connect(ftp: ftplib.FTP, targets: list[str], port: int) -> None:
        """Open the control connection to the first of ``targets`` (a host, or checked addresses) that answers."""
        last = OSError(f"no address to connect to on port {port}")
        for target in targets:
            try:
                ftp.connect(target, port)
                return
            except UnicodeError as exc:  # a name no resolver can look up (an empty or too long label)
                raise socket.gaierror(socket.EAI_NONAME, f"{target!r} cannot be looked up: {exc}") from None
            except OSError as exc:
                last = exc
        raise last

    def close(self) -> None:
        """Nothing to release: each retrieval uses its own connection."""
