"""``robotrules serve`` (the service, started through the console script) and ``robotrules demo``."""

from __future__ import annotations

import importlib.util
import json
import signal
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.servers.http import free_port

from .conftest import SCRIPT, TRACEBACK, assert_clean_error


def _service_installed() -> bool:
    return all(importlib.util.find_spec(name) is not None
               for name in ("robotrules.service", "fastapi", "uvicorn", "prometheus_client"))


@contextmanager
def _serving(tmp_path, cli_env) -> Iterator[int]:
    """``robotrules serve`` on a free port of 127.0.0.1, until the block ends (then Ctrl-C, and it
    must end with 0 and no traceback); yields the port.

    It waits for the service to say it is listening before it yields: the port was free when
    chosen, and a server of a test running beside this one could take it meanwhile and answer."""
    if not _service_installed():
        pytest.skip("the service package or its extra (fastapi, uvicorn) is not installed")
    port = free_port()
    process = subprocess.Popen([SCRIPT, "serve", "--port", str(port), "--cache", str(tmp_path / "svc.sqlite3")],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=tmp_path, env=cli_env)
    lines: list[str] = []
    listening = threading.Event()

    def read_stderr() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.append(line)
            if f"running on http://127.0.0.1:{port}" in line:
                listening.set()

    reader = threading.Thread(target=read_stderr, daemon=True)
    reader.start()
    try:
        assert listening.wait(20), f"the service did not start: {process.poll()} {''.join(lines)[-2000:]}"
        yield port
        process.send_signal(signal.SIGINT)
        process.wait(15)
        reader.join(5)
        err = "".join(lines)
        assert process.returncode == 0, err
        assert TRACEBACK not in err
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)


def test_serve_starts_the_service_and_answers_healthz(tmp_path, cli_env, site):
    """The console script starts the service on the port given; /healthz answers; Ctrl-C stops it."""
    import httpx

    with _serving(tmp_path, cli_env) as port:
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5.0).status_code == 200


def test_serve_on_loopback_answers_only_loopback_names_and_its_page_cannot_be_framed(tmp_path, cli_env):
    """A page whose host name is made to resolve to 127.0.0.1 (DNS rebinding) sends its own name
    as Host: a service listening on loopback refuses it (421) and answers the loopback names. The
    tester page forbids framing in its headers (a <meta> policy cannot)."""
    import httpx

    with _serving(tmp_path, cli_env) as port:
        base = f"http://127.0.0.1:{port}"
        for host in ("rebind.example", f"rebind.example:{port}", "10.0.0.1", "[::2]"):
            refused = httpx.get(f"{base}/v1/robots", params={"url": "http://127.0.0.1:9/"}, headers={"host": host},
                                timeout=5.0)
            assert refused.status_code == 421, (host, refused.text)
            assert refused.json()["error"]["code"] == "wrong_host"
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", "LOCALHOST", f"[::1]:{port}"):
            assert httpx.get(f"{base}/healthz", headers={"host": host}, timeout=5.0).status_code == 200, host
        page = httpx.get(f"{base}/", timeout=5.0)
        assert page.status_code == 200
        assert "frame-ancestors 'none'" in page.headers["content-security-policy"]
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert page.headers["x-frame-options"] == "DENY"
        metrics = httpx.get(f"{base}/metrics", timeout=5.0).text
        assert 'robotrules_refused_total{reason="wrong_host"} 4.0' in metrics


def test_serve_rejects_bad_options_in_one_line(robotrules, tmp_path):
    assert "--port" in assert_clean_error(robotrules("serve", "--port", "70000"))
    (tmp_path / "d").mkdir()
    assert "the cache path is a directory" in assert_clean_error(robotrules("serve", "--cache", str(tmp_path / "d")))
    assert "cannot be used together" in assert_clean_error(robotrules("serve", "--cache", "x", "--redis", "redis://h"))


def test_demo_explains_the_example_and_exits_0(robotrules):
    """The README's first command: no network, no file, every line explained, exit 0."""
    done = robotrules("demo")
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    assert "   3 | disallow: /fish\n     |   googlebot-news may not fetch URLs whose path starts with /fish" in out
    assert "every crawler no other group names" in out
    assert "'*' is any characters, '$' is the end of the URL" in out
    assert "Lint: no problems found" in out
    assert ("DISALLOWED  https://www.example.com/fish/salmon.html  googlebot-news\n"
            "    disallowed for googlebot-news by line 3: 'disallow: /fish' (group for 'googlebot-news')") in out


def test_demo_json(robotrules):
    data = json.loads(robotrules("demo", "--json").stdout)
    assert set(data) == {"robots_txt", "lines", "diagnostics", "verdicts"}
    assert data["lines"][2] == {"line": 3, "text": "disallow: /fish",
                                "meaning": "googlebot-news may not fetch URLs whose path starts with /fish"}
    assert data["diagnostics"] == []
    assert len(data["verdicts"]) == 18 and {"url", "agent", "allowed", "explanation"} <= set(data["verdicts"][0])


def test_serve_without_the_extra_says_what_to_install(monkeypatch, capsys):
    """DESIGN 12: without FastAPI, one line naming the extra, exit 2 (in process: the import is
    made to fail as it would without the package)."""
    import sys

    from robotrules import cli

    for name in [name for name in sys.modules if name == "robotrules.service" or name.startswith("robotrules.service.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "fastapi", None)
    assert cli.main(["serve", "--port", str(free_port())]) == 2
    assert capsys.readouterr().err == "robotrules: error: the service needs: pip install 'robotrules[serve]'\n"
