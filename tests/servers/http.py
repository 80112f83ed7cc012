"""A scriptable HTTP/1.1 server on 127.0.0.1 that can misbehave on purpose (tests only).

Raw sockets, one thread per connection, one request per connection. Each path is answered by a
*handler*, a function of an :class:`Exchange` that writes whatever bytes it likes: a normal
response, a redirect, a trickle, a reset, nothing at all. Typical use::

    with HTTPServer() as server:
        url = server.route("/robots.txt", respond(200, b"User-agent: *\\nDisallow: /\\n"))
        server.route("/old", redirect(301, "/robots.txt"))           # relative Location
        start = server.chain(301, 5, respond(200, b"ok"))            # 5 redirects, then a 200
        server.default = respond(500)                                # every unrouted path
        ... fetch url ...
        server.hits("/robots.txt"), server.paths()                   # what was asked, in order
        server.connections                                           # TCP connections accepted
        server.requests[-1].headers["user-agent"]                    # lower-case header names
        server.wait_done(); server.exchanges[-1].sent                # bytes the server got out

Handlers: :func:`respond`, :func:`redirect`, :func:`raw` (then close, reset or hang),
:func:`reset`, :func:`close_silently`, :func:`hang`, :func:`delayed`, :func:`trickle`,
:func:`trickle_headers`, :func:`stream` (huge or endless bodies), :func:`chunked`; bodies:
:func:`gzip_bytes`, :func:`deflate_bytes`, :func:`gzip_bomb`, :func:`pattern`.

``server.url(path, host="localhost")`` names the same server differently, for cross-host
redirects; ``HTTPServer("::1")`` listens on the IPv6 loopback (``http://[::1]:<port>/...``); ``server.greeting = b"..."`` makes it talk first and hang up without reading (a
non-TLS server for https:// tests). Handlers that write raw bytes should say
``Connection: close`` (every connection is closed after one exchange). Every wait in a handler
is interruptible: :meth:`HTTPServer.stop` ends all of them at once, so no test hangs on it.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import itertools
import select
import socket
import struct
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing_extensions import Self

__all__ = [
    "BLOCK",
    "Exchange",
    "HTTPServer",
    "Handler",
    "Request",
    "chunked",
    "close_silently",
    "deflate_bytes",
    "delayed",
    "free_port",
    "gzip_bomb",
    "gzip_bytes",
    "hang",
    "pattern",
    "raw",
    "redirect",
    "reset",
    "respond",
    "stream",
    "trickle",
    "trickle_headers",
]

REASONS = {
    200: "OK", 201: "Created", 202: "Accepted", 203: "Non-Authoritative Information", 204: "No Content",
    206: "Partial Content", 300: "Multiple Choices", 301: "Moved Permanently", 302: "Found",
    303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect",
    400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 410: "Gone",
    429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
    503: "Service Unavailable", 504: "Gateway Timeout",
}

BLOCK = bytes(range(256)) * 256
"""64 KiB of distinct byte values: big bodies repeat it, so any prefix is checkable (see :func:`pattern`)."""


def pattern(size: int) -> bytes:
    """The first ``size`` bytes of a body made of repeated :data:`BLOCK`."""
    return (BLOCK * (size // len(BLOCK) + 1))[:size]


@dataclass
class Request:
    """One request as received. ``headers`` has lower-case names (a repeated header: the last one)."""

    method: str
    target: str
    version: str
    headers: dict[str, str]
    raw: bytes

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]


@dataclass
class Exchange:
    """One request being answered on its own connection.

    ``sent`` counts the bytes the kernel accepted from the handler; ``error`` says why sending
    stopped early (the peer closed or reset, the peer stalled, the server stopped); ``done`` is
    set when the handler has returned and the connection is closed.
    """

    server: HTTPServer
    sock: socket.socket
    request: Request
    sent: int = 0
    error: str | None = None
    closed: bool = False
    done: threading.Event = field(default_factory=threading.Event)

    def send(self, data: bytes, *, stall: float = 5.0) -> bool:
        """Write ``data``; False (and ``error`` set) if the peer went away or stopped reading for ``stall`` s."""
        view = memoryview(data)
        idle = 0.0
        while view:
            if self.server.stopping.is_set():
                self.error = "server stopping"
                return False
            try:
                n = self.sock.send(view[:65536])
            except TimeoutError:
                idle += self.sock.gettimeout() or 0.0
                if idle >= stall:
                    self.error = "peer stalled"
                    return False
                continue
            except OSError as exc:
                self.error = f"{type(exc).__name__}: {exc}"
                return False
            idle = 0.0
            self.sent += n
            view = view[n:]
        return True

    def wait(self, seconds: float) -> bool:
        """Sleep up to ``seconds``; False at once if the server stops or the peer closes."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return True
            if self.server.stopping.wait(0) or self.peer_closed(min(left, 0.05)):
                return False

    def peer_closed(self, timeout: float = 0.0) -> bool:
        """Whether the client has closed (or reset) its side of the connection."""
        try:
            readable, _, _ = select.select([self.sock], [], [], timeout)
            if not readable:
                return False
            if self.sock.recv(1, socket.MSG_PEEK) == b"":
                return True
        except (OSError, ValueError):
            return True
        self.server.stopping.wait(timeout)  # the client sent more bytes: not closed; do not spin on them
        return False

    def reset(self) -> None:
        """Abort the connection with a TCP RST (SO_LINGER 0, then close)."""
        if not self.closed:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close()

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.sock.close()


Handler = Callable[[Exchange], None]


class HTTPServer:
    """The server; a context manager. See the module docstring for the API."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        self.host = host
        self.routes: dict[str, Handler] = {}
        self.default: Handler = respond(404, b"not found\n")
        self.greeting: bytes | None = None  # if set: sent on accept, before any request, then close
        self.requests: list[Request] = []
        self.exchanges: list[Exchange] = []
        self.connections = 0  # TCP connections accepted, with or without a request
        self.stopping = threading.Event()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._socks: set[socket.socket] = set()
        family = socket.AF_INET6 if ":" in host else socket.AF_INET  # HTTPServer("::1"): IPv6 loopback
        self._listener = socket.create_server((host, 0), family=family)
        self._listener.settimeout(0.5)
        self.port: int = self._listener.getsockname()[1]
        self._acceptor = threading.Thread(target=self._accept_loop, name=f"http-test-{self.port}", daemon=True)

    # -- scripting ------------------------------------------------------------------------
    def url(self, path: str = "/robots.txt", host: str | None = None) -> str:
        """Absolute URL of ``path`` here; ``host="localhost"`` names the same server differently."""
        host = host or self.host
        return f"http://{f'[{host}]' if ':' in host else host}:{self.port}{path}"

    def route(self, path: str, handler: Handler) -> str:
        """Answer requests for ``path`` (exact target, else target without the query) with ``handler``."""
        self.routes[path] = handler
        return self.url(path)

    def chain(
        self,
        codes: int | Sequence[int],
        hops: int,
        final: Handler | None = None,
        *,
        start: str = "/robots.txt",
        prefix: str = "/hop",
        absolute: bool = False,
        host: str | None = None,
    ) -> str:
        """``hops`` redirects from ``start`` (codes cycled) through ``prefix/<n>`` ending at ``final``.

        Locations are absolute URLs (under ``host``) if ``absolute`` or ``host`` is given, else
        absolute paths. Returns the URL of ``start``. ``final`` defaults to a 200 robots.txt.
        """
        cycle = itertools.cycle([codes] if isinstance(codes, int) else codes)
        paths = [start] + [f"{prefix}/{n}" for n in range(hops - 1, -1, -1)]
        for here, there in itertools.pairwise(paths):
            location = self.url(there, host) if absolute or host else there
            self.route(here, redirect(next(cycle), location))
        self.route(paths[-1], final or respond(200, b"User-agent: *\nDisallow: /final\n"))
        return self.url(start)

    def hits(self, path: str | None = None) -> int:
        """How many requests arrived (for ``path``, ignoring the query, if given)."""
        with self._lock:
            return sum(1 for r in self.requests if path is None or r.path == path)

    def paths(self) -> list[str]:
        with self._lock:
            return [r.target for r in self.requests]

    def wait_done(self, timeout: float = 10.0) -> None:
        """Wait until every handler so far has returned (e.g. to read ``Exchange.sent``)."""
        end = time.monotonic() + timeout
        for exchange in list(self.exchanges):
            exchange.done.wait(max(0.0, end - time.monotonic()))

    # -- life cycle -----------------------------------------------------------------------
    def start(self) -> Self:
        self._acceptor.start()
        return self

    def stop(self) -> None:
        """Stop accepting, interrupt every handler, close every connection; returns within ~2 s."""
        self.stopping.set()
        with contextlib.suppress(OSError):  # wake the acceptor at once
            socket.create_connection((self.host, self.port), timeout=0.5).close()
        self._acceptor.join(2)
        self._listener.close()
        with self._lock:
            socks = list(self._socks)
        for sock in socks:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        end = time.monotonic() + 2
        for thread in list(self._threads):
            thread.join(max(0.0, end - time.monotonic()))

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _accept_loop(self) -> None:
        while not self.stopping.is_set():
            try:
                sock, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if self.stopping.is_set():
                sock.close()
                return
            thread = threading.Thread(target=self._serve, args=(sock,), daemon=True)
            with self._lock:
                self.connections += 1
                self._socks.add(sock)
                self._threads.append(thread)
            thread.start()

    def _read_request(self, sock: socket.socket) -> Request | None:
        sock.settimeout(0.05)
        data = b""
        end = time.monotonic() + 10
        while b"\r\n\r\n" not in data:
            if self.stopping.is_set() or time.monotonic() > end or len(data) > 65536:
                return None
            try:
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return None
            if not chunk:
                return None
            data += chunk
        head = data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
        lines = head.split("\r\n")
        method, target, version = [*lines[0].split(" ", 2), "", ""][:3]
        headers: dict[str, str] = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        return Request(method, target, version, headers, data)

    def _serve(self, sock: socket.socket) -> None:
        try:
            if self.greeting is not None:  # a server that talks first (or another protocol: TLS tests)
                sock.settimeout(1.0)
                try:
                    sock.sendall(self.greeting)
                    time.sleep(0.05)  # let the client read before the FIN
                except OSError:
                    pass
                return
            request = self._read_request(sock)
            if request is None:
                return
            sock.settimeout(0.1)
            exchange = Exchange(self, sock, request)
            with self._lock:
                self.requests.append(request)
                self.exchanges.append(exchange)
            handler = self.routes.get(request.target) or self.routes.get(request.path) or self.default
            try:
                handler(exchange)
            except OSError as exc:
                exchange.error = exchange.error or f"{type(exc).__name__}: {exc}"
            finally:
                exchange.close()
                exchange.done.set()
        finally:
            with self._lock:
                self._socks.discard(sock)
            with contextlib.suppress(OSError):
                sock.close()


# -- handlers ---------------------------------------------------------------------------------
def _head(status: int | str, headers: Iterable[tuple[str, str]], reason: str | None = None) -> bytes:
    """A status line and headers; ``status`` may be any text (``"999"``, ``"abc"``)."""
    if reason is None:
        reason = REASONS.get(status, "Whatever") if isinstance(status, int) else "Whatever"
    lines = [f"HTTP/1.1 {status} {reason}"] + [f"{k}: {v}" for k, v in headers]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def respond(
    status: int | str = 200,
    body: bytes = b"",
    headers: dict[str, str] | Sequence[tuple[str, str]] | None = None,
    *,
    reason: str | None = None,
) -> Handler:
    """A well-formed response with ``Content-Length`` and ``Connection: close`` (unless given)."""
    pairs = list(headers.items() if isinstance(headers, dict) else headers or [])
    names = {k.lower() for k, _ in pairs}
    if "content-length" not in names and "transfer-encoding" not in names:
        pairs.append(("Content-Length", str(len(body))))
    if "connection" not in names:
        pairs.append(("Connection", "close"))
    data = _head(status, pairs, reason) + body

    def handler(exchange: Exchange) -> None:
        exchange.send(data)

    return handler


def redirect(code: int, location: str | None, headers: dict[str, str] | None = None) -> Handler:
    """A ``code`` redirect to ``location`` (None: no Location header at all)."""
    extra = dict(headers or {})
    if location is not None:
        extra["Location"] = location
    return respond(code, b"moved\n", extra)


def raw(data: bytes, then: str = "close") -> Handler:
    """Send ``data`` verbatim, then ``"close"`` (FIN), ``"reset"`` (RST) or ``"hang"`` (until the client leaves)."""

    def handler(exchange: Exchange) -> None:
        exchange.send(data)
        if then == "reset":
            exchange.reset()
        elif then == "hang":
            exchange.wait(3600)

    return handler


def reset(after: bytes = b"") -> Handler:
    """Read the request, send ``after`` (maybe nothing), then reset the connection (RST)."""
    return raw(after, then="reset")


def close_silently() -> Handler:
    """Read the request and close the connection without a byte of response."""
    return raw(b"", then="close")


def hang() -> Handler:
    """Read the request and never answer (until the client gives up or the server stops)."""
    return raw(b"", then="hang")


def trickle(
    body: bytes,
    *,
    step: int = 1,
    interval: float = 0.1,
    status: int = 200,
    headers: dict[str, str] | None = None,
) -> Handler:
    """Headers at once (with Content-Length), then ``step`` body bytes every ``interval`` s."""
    head = dict(headers or {})
    head.setdefault("Content-Length", str(len(body)))
    head.setdefault("Connection", "close")
    start = _head(status, head.items())

    def handler(exchange: Exchange) -> None:
        if not exchange.send(start):
            return
        for i in range(0, len(body), step):
            if not exchange.wait(interval) or not exchange.send(body[i : i + step]):
                return

    return handler


def trickle_headers(*, interval: float = 0.05, give_up_after: float = 4.0) -> Handler:
    """A status line, then one more header byte every ``interval`` s, for ``give_up_after`` s; then close."""

    def handler(exchange: Exchange) -> None:
        if not exchange.send(b"HTTP/1.1 200 OK\r\nX-Slow: "):
            return
        end = time.monotonic() + give_up_after
        while time.monotonic() < end:
            if not exchange.wait(interval) or not exchange.send(b"a"):
                return

    return handler


def stream(
    size: int | None,
    *,
    status: int = 200,
    headers: dict[str, str] | None = None,
    content_length: bool = True,
    chunk_encoding: bool = False,
    block: bytes = BLOCK,
    sndbuf: int | None = None,
) -> Handler:
    """A body of ``size`` bytes (None: endless) made of repeated ``block``, sent as fast as the peer reads.

    With ``content_length`` (and a size) it is Content-Length delimited; with
    ``chunk_encoding`` it is chunked; otherwise it ends when the connection closes.
    ``sndbuf`` shrinks the server's kernel send buffer, so that :attr:`Exchange.sent` stays
    close to what the client really read (loopback buffers otherwise absorb a few MiB).
    """
    head = dict(headers or {})
    if chunk_encoding:
        head["Transfer-Encoding"] = "chunked"
    elif content_length and size is not None:
        head["Content-Length"] = str(size)
    head.setdefault("Connection", "close")
    start = _head(status, head.items())

    def handler(exchange: Exchange) -> None:
        if sndbuf is not None:
            exchange.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, sndbuf)
        if not exchange.send(start):
            return
        left = size
        while left is None or left > 0:
            piece = block if left is None or left >= len(block) else block[:left]
            data = b"%x\r\n%s\r\n" % (len(piece), piece) if chunk_encoding else piece
            if not exchange.send(data):
                return
            if left is not None:
                left -= len(piece)
        if chunk_encoding:
            exchange.send(b"0\r\n\r\n")

    return handler


def delayed(seconds: float, handler: Handler) -> Handler:
    """Wait ``seconds`` (interruptibly) before letting ``handler`` answer."""

    def wrapper(exchange: Exchange) -> None:
        if exchange.wait(seconds):
            handler(exchange)

    return wrapper


def chunked(chunks: Sequence[bytes], *, tail: bytes = b"0\r\n\r\n", raw_chunks: bool = False, then: str = "close") -> Handler:
    """A chunked 200. ``chunks`` are framed unless ``raw_chunks`` (then sent as is, to break framing)."""
    head = _head(200, [("Transfer-Encoding", "chunked"), ("Connection", "close")])
    body = b"".join(chunks) if raw_chunks else b"".join(b"%x\r\n%s\r\n" % (len(c), c) for c in chunks)
    return raw(head + body + tail, then=then)


# -- bodies -----------------------------------------------------------------------------------
def gzip_bytes(data: bytes, level: int = 6) -> bytes:
    return gzip.compress(data, compresslevel=level, mtime=0)


def deflate_bytes(data: bytes, *, raw_deflate: bool = False) -> bytes:
    """zlib-wrapped deflate (RFC 9110 ``deflate``), or a bare deflate stream as some servers send."""
    obj = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS if raw_deflate else zlib.MAX_WBITS)
    return obj.compress(data) + obj.flush()


@functools.lru_cache(maxsize=4)
def gzip_bomb(decoded_size: int = 200 * 1024 * 1024) -> bytes:
    """A small gzip body that decodes to ``decoded_size`` zero bytes (about 1/1000 of it)."""
    obj = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = bytes(1024 * 1024)
    parts = [obj.compress(zeros) for _ in range(decoded_size // len(zeros))]
    parts.append(obj.compress(bytes(decoded_size % len(zeros))))
    parts.append(obj.flush())
    return b"".join(parts)


def free_port() -> int:
    """A port on 127.0.0.1 with nothing listening (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
