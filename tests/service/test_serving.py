"""How the service is served (issue #35): one write per response, a request-head deadline that
moves with each response, the access log, the ``Host`` check, and ``robotrules serve`` as users
start it (the console script in its own process, its access log on standard output).

No test measures speed (``bench/service_bench.py`` does): each pins what the cheaper way of
serving must keep doing.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from robotrules import MemoryStore
from robotrules.service import _app as service_app
from robotrules.service import _server, create_app, server_config
from robotrules.service._server import ACCESS_FLUSH_SECONDS, AccessLog, _Coalescing
from tests.cli.harness import SCRIPT, cli_environment
from tests.servers.http import HTTPServer, free_port

from .conftest import Start

PROTOCOLS = pytest.mark.parametrize("protocol", [H11Protocol, HttpToolsProtocol], ids=["h11", "httptools"])

LINE = re.compile(r'^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (\S+) "(\S+) (\S+) HTTP/(\S+)" (\d{3}|-) (\d+) (\d+\.\d\d)ms$')
"""A text access log line: time, client, method, target, version, status, bytes, milliseconds."""


class FakeTransport:
    """The writes a protocol makes, as the socket would see them (one entry per ``write``)."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        assert not self.closing, "a write after close"
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closing = True

    def is_closing(self) -> bool:
        return self.closing

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 50000), "sockname": ("127.0.0.1", 8000)}.get(name, default)

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_write_buffer_size(self) -> int:
        return 0


async def _answer(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
    """A small app: 200 with a 900-byte body, in two messages (as the lean path sends it)."""
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"900")]})
    await send({"type": "http.response.body", "body": b"x" * 900})


# -- one write per response -----------------------------------------------------------------------------

def test_writes_made_in_one_step_of_the_event_loop_go_out_as_one() -> None:
    """The status line and headers, then the body: one write of both, at the end of the loop's step."""

    async def main() -> list[bytes]:
        real = FakeTransport()
        gathered = _Coalescing(real, asyncio.get_running_loop())  # type: ignore[arg-type]
        gathered.write(b"HTTP/1.1 200 OK\r\n\r\n")
        gathered.write(memoryview(b"body"))
        assert real.writes == [] and gathered.get_write_buffer_size() == len(b"HTTP/1.1 200 OK\r\n\r\nbody")
        await asyncio.sleep(0)
        gathered.write(b"next")
        await asyncio.sleep(0)
        return real.writes

    assert asyncio.run(main()) == [b"HTTP/1.1 200 OK\r\n\r\nbody", b"next"]


def test_a_large_write_goes_at_once_and_close_writes_what_waits_first() -> None:
    """From 64 KiB a write is not held (the transport's flow control must see it); closing writes
    what waits, then closes; what is written to a closing transport is dropped, as asyncio's would be."""

    async def main() -> FakeTransport:
        real = FakeTransport()
        gathered = _Coalescing(real, asyncio.get_running_loop())  # type: ignore[arg-type]
        big = b"b" * _server.WRITE_AT_ONCE
        gathered.write(big)
        assert real.writes == [big]
        gathered.write(b"head")
        gathered.write(big)
        assert real.writes == [big, b"head" + big]
        gathered.write(b"last words")
        gathered.close()
        assert real.writes[-1] == b"last words" and real.closing
        gathered.write(b"too late")
        await asyncio.sleep(0)
        return real

    assert asyncio.run(main()).writes[-1] == b"last words"


@PROTOCOLS
def test_a_small_answer_is_one_write_of_head_and_body(protocol: type) -> None:
    """uvicorn writes the head and the body apart (two system calls, two wake-ups of the client);
    the served protocol hands the socket one write per answer, also for a keep-alive connection's
    second request."""
    config = server_config(_answer, protocol=protocol, access_log=False, lifespan="off")
    config.load()

    async def main() -> list[bytes]:
        loop = asyncio.get_running_loop()
        transport = FakeTransport()
        served = config.http_protocol_class(config=config, server_state=ServerState(), app_state={}, _loop=loop)
        served.connection_made(transport)
        for _ in range(2):
            served.data_received(b"GET /v1/check?url=x HTTP/1.1\r\nHost: localhost\r\n\r\n")
            for _ in range(20):
                await asyncio.sleep(0)
        served.connection_lost(None)
        return transport.writes

    writes = asyncio.run(main())
    assert len(writes) == 2, [len(w) for w in writes]
    for write in writes:
        head, body = write.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 200 OK") and body == b"x" * 900


# -- the request-head deadline ----------------------------------------------------------------------------

@PROTOCOLS
def test_a_busy_keep_alive_connection_outlives_the_head_timeout_and_is_closed_once_idle(
        start: Start, protocol: type) -> None:
    """#16-L1 with a deadline that moves: a connection sending requests one after another for three
    times the head timeout is answered every time (each response sets a new deadline); once it goes
    quiet it is closed about one head timeout later."""
    api = start(server={"protocol": protocol, "head_timeout": 0.5})
    with socket.create_connection((api.base_url.host, api.base_url.port), timeout=10) as sock:
        begin = time.monotonic()
        answered = 0
        while time.monotonic() - begin < 1.5:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            reply = b""
            while b"\r\n\r\n" not in reply or not reply.rstrip().endswith(b"}"):
                chunk = sock.recv(65536)
                assert chunk, f"closed after {time.monotonic() - begin:.2f} s, {answered} answers"
                reply += chunk
            assert reply.startswith(b"HTTP/1.1 200"), reply[:100]
            answered += 1
            time.sleep(0.1)
        quiet = time.monotonic()
        assert sock.recv(1) == b"", "an idle connection was kept past the head timeout"
        assert 0.3 < time.monotonic() - quiet < 5.0
    assert answered >= 5


# -- the access log ---------------------------------------------------------------------------------------

def _scope(target: bytes = b"/v1/check", query: bytes = b"url=http%3A%2F%2Fexample.com%2F&agent=Googlebot",
           **more: Any) -> dict[str, Any]:
    return {"type": "http", "method": "GET", "http_version": "1.1", "path": target.decode("latin-1"),
            "raw_path": target, "query_string": query, "client": ("127.0.0.1", 50123), "headers": [], **more}


async def _receive() -> dict[str, Any]:
    return {"type": "http.disconnect"}


def _logged(app: Any, scopes: list[dict[str, Any]], form: str = "text") -> list[str]:
    """The access log lines of ``scopes`` answered by ``app`` (standard output captured)."""
    sent: list[MutableMapping[str, Any]] = []

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    async def main() -> None:
        log = AccessLog(app, form)
        for scope in scopes:
            with suppress(RuntimeError):
                await log(scope, _receive, send)
        log.flush()

    out = io.StringIO()
    saved, sys.stdout = sys.stdout, out
    try:
        asyncio.run(main())
    finally:
        sys.stdout = saved
    return out.getvalue().splitlines()


def test_a_text_access_log_line_names_the_client_request_status_size_and_time() -> None:
    (line,) = _logged(_answer, [_scope()])
    match = LINE.match(line)
    assert match, line
    assert match.groups()[:6] == ("127.0.0.1:50123", "GET", "/v1/check?url=http%3A%2F%2Fexample.com%2F&agent=Googlebot",
                                  "1.1", "200", "900")


def test_a_json_access_log_line_is_one_object_with_the_same_fields() -> None:
    (line,) = _logged(_answer, [_scope()], "json")
    entry = json.loads(line)
    assert set(entry) == {"time", "client", "method", "target", "http", "status", "bytes", "ms"}
    assert (entry["client"], entry["method"], entry["http"], entry["status"], entry["bytes"]) == (
        "127.0.0.1:50123", "GET", "1.1", 200, 900)
    assert entry["target"] == "/v1/check?url=http%3A%2F%2Fexample.com%2F&agent=Googlebot"
    assert isinstance(entry["ms"], float) and re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", entry["time"])


def test_what_a_client_puts_in_the_target_cannot_forge_a_line() -> None:
    """A target with a newline, a quote, a backslash or bytes that are not ASCII (h11 lets some
    through) stays one line, its field still quoted; in JSON it is the same string, escaped."""
    target = b'/a"b\\c\n2026-01-01T00:00:00Z 10.0.0.1:1 "GET /forged HTTP/1.1" 200 1 1.00ms\r\xc3\xa9\x85'
    lines = _logged(_answer, [_scope(target, b"")])
    assert len(lines) == 1 and lines[0].count('"') == 2, lines
    assert '\\x22' in lines[0] and "\\n" in lines[0] and "\\\\" in lines[0]
    (entry,) = [json.loads(line) for line in _logged(_answer, [_scope(target, b"")], "json")]
    assert entry["target"] == target.decode("latin-1")


def test_a_request_answered_by_nobody_or_by_a_failure_is_logged_too() -> None:
    """The client left before any answer: status ``-``; the app failed before answering: 500 (the
    server's answer); websocket and lifespan scopes are not requests and pass through."""

    async def silent(scope: Any, receive: Any, send: Any) -> None:
        return None

    async def failing(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("boom")

    (gone,) = _logged(silent, [_scope()])
    (failed,) = _logged(failing, [_scope()])
    assert LINE.match(gone).group(5) == "-"  # type: ignore[union-attr]
    assert LINE.match(failed).group(5) == "500"  # type: ignore[union-attr]
    assert _logged(silent, [{"type": "lifespan"}, {"type": "websocket", "path": "/"}]) == []


def test_access_log_lines_are_written_in_batches_soon_after_their_request(capsys: pytest.CaptureFixture[str]) -> None:
    """Lines wait for the batch, at most ``ACCESS_FLUSH_SECONDS``; a lifespan's end writes what waits."""

    async def lifespan(scope: Any, receive: Any, send: Any) -> None:
        return None

    async def main() -> tuple[str, str, str]:
        log = AccessLog(_answer)
        for _ in range(3):
            await log(_scope(), _receive, _noop)
        waiting = capsys.readouterr().out
        await asyncio.sleep(ACCESS_FLUSH_SECONDS * 3)
        written = capsys.readouterr().out
        await log(_scope(), _receive, _noop)
        log.app = lifespan
        await log({"type": "lifespan"}, _receive, _noop)
        return waiting, written, capsys.readouterr().out

    waiting, written, last = asyncio.run(main())
    assert waiting == "" and written.count("\n") == 3 and last.count("\n") == 1


async def _noop(message: Any) -> None:
    return None


def test_the_access_log_option_takes_text_json_or_off() -> None:
    """``server_config(access_log=...)``: ``text`` (or True, the default), ``json``; ``off``, False
    or None serve the app itself; uvicorn's own access log is never on (it would log twice)."""
    app = create_app(store=MemoryStore())
    assert isinstance(server_config(app).app, AccessLog) and server_config(app).app.form == "text"
    assert server_config(app, access_log=True).app.form == "text"
    assert server_config(app, access_log="json").app.form == "json"
    for off in ("off", False, None):
        config = server_config(app, access_log=off)
        assert config.app is app and config.access_log is False
    with pytest.raises(ValueError, match="text, json, off"):
        server_config(app, access_log="xml")
    with pytest.raises(ValueError, match="text, json, off"):
        service_app.run(access_log="xml")


# -- the Host check of a loopback service ------------------------------------------------------------------

def test_the_host_check_remembers_a_few_allowed_names_and_refuses_the_others_every_time(start: Start) -> None:
    """The ``Host`` values a loopback service allowed are remembered (at most 64); a refused one
    is refused again each time, before and after allowed ones, whatever was remembered."""
    api = start(hosts=("localhost", "127.0.0.1"))
    for _ in range(3):
        assert api.get("/healthz", headers={"host": "localhost"}).status_code == 200
        assert api.get("/healthz", headers={"host": "rebind.example"}).status_code == 421
        assert api.get("/healthz", headers={"host": "localhost.rebind.example"}).status_code == 421
    for port in range(100):
        assert api.get("/healthz", headers={"host": f"127.0.0.1:{port + 1}"}).status_code == 200
    assert api.get("/healthz", headers={"host": "rebind.example:1"}).status_code == 421
    assert 'robotrules_refused_total{reason="wrong_host"} 7.0' in api.get(
        "/metrics", headers={"host": "localhost"}).text


def test_remembered_names_are_bounded() -> None:
    app = create_app(store=MemoryStore(), hosts=("127.0.0.1",))
    for port in range(200):
        assert app._host_allowed({"headers": [(b"host", f"127.0.0.1:{port}".encode())]})  # type: ignore[attr-defined]
    assert len(app._host_values) == service_app._KNOWN_HOSTS  # type: ignore[attr-defined]
    assert not app._host_allowed({"headers": [(b"host", b"example.com")]})  # type: ignore[attr-defined]
    assert not app._host_allowed({"headers": []})  # type: ignore[attr-defined]


# -- robotrules serve, as users start it -------------------------------------------------------------------

@contextmanager
def _serve(tmp_path: Path, *options: str) -> Iterator[tuple[int, list[str]]]:
    """``robotrules serve`` (the console script) on a free port until the block ends, then Ctrl-C
    (exit 0); yields the port and, once it has ended, the lines of its standard output."""
    port = free_port()
    process = subprocess.Popen([SCRIPT, "serve", "--port", str(port), "--allow-private", "--cache",
                                str(tmp_path / "svc.sqlite3"), *options], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                               env=cli_environment(tmp_path))
    listening = threading.Event()
    errors: list[str] = []

    def read_stderr() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            errors.append(line)
            if f"running on http://127.0.0.1:{port}" in line:
                listening.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    out: list[str] = []
    try:
        assert listening.wait(20), f"the service did not start: {''.join(errors)[-2000:]}"
        yield port, out
        process.send_signal(signal.SIGINT)
        stdout, _ = process.communicate(timeout=15)
        reader.join(5)
        assert process.returncode == 0, "".join(errors)
        out.extend(stdout.splitlines())
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)


@pytest.mark.parametrize("form", ["text", "json", "off"])
def test_serve_logs_each_request_on_standard_output_unless_told_not_to(tmp_path: Path, site: HTTPServer,
                                                                       form: str) -> None:
    """``robotrules serve`` (``--access-log text`` by default, ``json``, ``off``): one line per
    request, cached checks answered by the lean path included; the last lines are written when it
    is stopped; uvicorn's own messages stay on standard error."""
    options = () if form == "text" else ("--access-log", form)
    with _serve(tmp_path, *options) as (port, out):
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=10.0) as client:
            for _ in range(3):
                assert client.get("/v1/check", params={"url": site.url("/private/x"), "agent": "Googlebot"}
                                  ).status_code == 200
            assert client.get("/no/such/page").status_code == 404
    if form == "off":
        assert out == []
        return
    assert len(out) == 4, out
    if form == "json":
        entries = [json.loads(line) for line in out]
        assert [e["status"] for e in entries] == [200, 200, 200, 404]
        assert all(e["target"].startswith("/v1/check?url=") for e in entries[:3])
    else:
        statuses = [LINE.match(line).group(5) for line in out]  # type: ignore[union-attr]
        assert statuses == ["200", "200", "200", "404"], out
