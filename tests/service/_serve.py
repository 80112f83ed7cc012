"""Run an ASGI app with uvicorn in a background thread on 127.0.0.1, for tests (real HTTP).

``with serving(app) as base_url: ...`` binds a free port, starts ``uvicorn.Server`` with the
service's own configuration (:func:`robotrules.service.server_config`: the request-head timer,
keep-alive and connection limits; lifespan on: the app's client is made and closed as in
production) and stops it with ``server.should_exit`` when the block ends. Startup and shutdown
are bounded in time. ``server_options`` go to that configuration (``head_timeout=0.5``, ...).
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


@contextmanager
def serving(app: Any, **server_options: Any) -> Iterator[str]:
    """Serve ``app`` on a free loopback port; yields its base URL (``http://127.0.0.1:<port>``)."""
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
        thread.join(STOP_TIMEOUT)
        sock.close()
        if thread.is_alive():
            raise RuntimeError("the service did not stop")
