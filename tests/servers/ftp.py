"""An FTP server on 127.0.0.1 (pyftpdlib) with anonymous read access to a directory (tests only).

::

    with FTPServer(tmp_path) as ftp:
        ftp.put("robots.txt", b"User-agent: *\\nDisallow: /\\n")
        url = ftp.url("/robots.txt")          # ftp://127.0.0.1:<port>/robots.txt
        ftp.retr_reply = "450 Busy, try later"  # script RETR to refuse (4yz or 5yz)
        ftp.passwords                         # anonymous passwords received (crawlers send their UA)
        ftp.connections                       # control connections accepted

The server polls its I/O loop in a background thread and stops within a fraction of a second.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from pyftpdlib.authorizers import DummyAuthorizer
from pyftpdlib.handlers import FTPHandler
from pyftpdlib.servers import FTPServer as _PyFTPServer

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = ["FTPServer"]

_log = logging.getLogger("pyftpdlib")
if not _log.handlers:  # else pyftpdlib installs its own stderr handler at INFO on first start
    _log.addHandler(logging.NullHandler())
_log.setLevel(logging.WARNING)


class FTPServer:
    """Anonymous, read-only FTP over ``root``; a context manager."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.retr_reply: str | None = None
        self.passwords: list[str] = []
        self.commands: list[str] = []
        self.connections = 0
        owner = self
        authorizer = DummyAuthorizer()
        authorizer.add_anonymous(str(self.root))  # perm "elr": list and read

        class Handler(FTPHandler):
            def on_connect(self) -> None:
                owner.connections += 1
                super().on_connect()

            def pre_process_command(self, line: str, cmd: str, arg: str) -> None:
                owner.commands.append(cmd)
                super().pre_process_command(line, cmd, arg)

            def ftp_PASS(self, line: str) -> None:
                owner.passwords.append(line)
                super().ftp_PASS(line)

            def ftp_RETR(self, file: str) -> None:
                if owner.retr_reply is not None:
                    self.respond(owner.retr_reply)
                    return
                super().ftp_RETR(file)

        Handler.authorizer = authorizer
        Handler.banner = "robotrules test ftpd"
        Handler.timeout = 10
        self._server = _PyFTPServer(("127.0.0.1", 0), Handler)
        self.port: int = self._server.address[1]
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=f"ftp-test-{self.port}", daemon=True)

    def url(self, path: str = "/robots.txt") -> str:
        return f"ftp://127.0.0.1:{self.port}{path}"

    def put(self, name: str, data: bytes) -> str:
        """Write ``root/name``; returns its URL."""
        (self.root / name).write_bytes(data)
        return self.url("/" + name)

    def retrievals(self) -> int:
        return self.commands.count("RETR")

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._server.ioloop.loop(0.05, blocking=False)

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self._server.close_all()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
