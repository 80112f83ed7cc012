"""Run an ASGI app with uvicorn in a background thread on 127.0.0.1, for tests (real HTTP).

``with serving(app) as base_url: ...`` binds a free port, starts ``uvicorn.Server`` with the
service's own configuration (:func:`robotrules.service.server_config`: the request-head timer,
keep-alive and connection limits; lifespan on: the app's client is made and closed as in
production) and asks it to stop with ``server.should_exit`` when the block ends. Startup and
shutdown are bounded in time. ``server_options`` go to that configuration (``head_timeout=0.5``, ...).

The block does not wait for the stop: uvicorn notices ``should_exit`` on its next tick and then
pauses 0.1 s for connections to close, about 0.2 s in all, most of a short test's time. The
stopping server is kept, its socket closed once its thread has ended, and the next ``serving``
fails if one outlived ``STOP_TIMEOUT``.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from robotrules.service import server_config as service_config

START_TIMEOUT = 10.0
STOP_TIMEOUT = 10.0


class _Stopping:
    """Servers asked to stop whose threads may still run: their sockets close when they end."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._servers: list[tuple[threading.Thread, socket.socket, float]] = []

    def add(self, thread: threading.Thread, sock: socket.socket) -> None:
        with self._lock:
            self._servers.append((thread, sock, time.monotonic() + STOP_TIMEOUT))

    def reap(self) -> None:
        """Close the sockets of the servers that stopped; RuntimeError for one past its deadline."""
        now = time.monotonic()
        with self._lock:
            ended = [entry for entry in self._servers if not entry[0].is_alive() or now > entry[2]]
            self._servers = [entry for entry in self._servers if entry not in ended]
        for _thread, sock, _deadline in ended:
            sock.close()
        late = [thread.name for thread, _sock, _deadline in ended if thread.is_alive()]
        if late:
            raise RuntimeError(f"the service did not stop within {STOP_TIMEOUT:g} s: {', '.join(late)}")


STOPPING = _Stopping()


@contextmanager
def serving(app: Any, **server_options: Any) -> Iterator[str]:
    """Serve ``app`` on a free loopback port; yields its base URL (``http://127.0.0.1:<port>``)."""
    STOPPING.reap()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server_options.setdefault("log_level", "warning")
    config = service_config(app, lifespan="on", access_log=False, timeout_graceful_shutdown=2, **server_options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not server.started:
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the service did not start")
            time.sleep(0.01)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        STOPPING.add(thread, sock)
