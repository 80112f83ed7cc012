"""How the command writes: colour only on a terminal, a progress bar only where it helps, streaming
results, and words for people (no requirement ids)."""

from __future__ import annotations

import os
import pty
import select
import subprocess
from pathlib import Path

from tests.servers.http import respond

from .conftest import REQUIREMENT_ID, SCRIPT, json_lines, json_results
from .harness import drain_terminal

ANSI = "\x1b["


def _on_terminal(args: list[str], *, cwd: Path, env: dict[str, str], stream: str) -> tuple[int, str, str]:
    """Run the script with ``stream`` ("stdout" or "stderr") on a pseudo-terminal and the other in
    a file; returns (exit code, what the terminal showed, the file's text)."""
    controller, terminal = pty.openpty()
    other = cwd / f"{stream}-other.txt"
    with other.open("wb") as sink:
        streams = {"stdout": terminal, "stderr": sink} if stream == "stdout" else {"stdout": sink, "stderr": terminal}
        process = subprocess.Popen([SCRIPT, *args], stdin=subprocess.DEVNULL, cwd=cwd, env=env, **streams)
    os.close(terminal)
    code, shown = drain_terminal(controller, process, 20)
    return code, shown.decode("utf-8", "replace"), other.read_text("utf-8", "replace")


def test_no_colour_when_the_output_is_not_a_terminal(robotrules, site):
    server = site()
    done = robotrules("check", server.url("/tmp/x"), server.url("/ok"))
    assert ANSI not in done.stdout and ANSI not in done.stderr


def test_colour_when_asked_with_color(robotrules, site):
    server = site()
    done = robotrules("check", "--color", server.url("/tmp/x"), server.url("/ok"))
    assert f"{ANSI}31m" in done.stdout and f"{ANSI}32m" in done.stdout  # red DISALLOWED, green ALLOWED


def test_colour_on_a_terminal_unless_no_color_or_no_color_option(tmp_path, cli_env, site):
    """On a terminal the verdicts are coloured; NO_COLOR and --no-color turn it off."""
    server = site()
    code, shown, _ = _on_terminal(["check", server.url("/tmp/x")], cwd=tmp_path, env=cli_env, stream="stdout")
    assert code == 1 and "DISALLOWED" in shown and ANSI in shown
    code, shown, _ = _on_terminal(["check", server.url("/tmp/x")], cwd=tmp_path, env={**cli_env, "NO_COLOR": "1"},
                                  stream="stdout")
    assert "DISALLOWED" in shown and ANSI not in shown
    code, shown, _ = _on_terminal(["check", "--no-color", server.url("/tmp/x")], cwd=tmp_path, env=cli_env,
                                  stream="stdout")
    assert "DISALLOWED" in shown and ANSI not in shown


def test_lint_colours_severities_only_with_colour(robotrules, tmp_path):
    (tmp_path / "robots.txt").write_bytes(b"user-agent: *\nnonsense\n")
    assert ANSI not in robotrules("lint", "robots.txt").stdout
    assert f"{ANSI}31m" in robotrules("lint", "--color", "robots.txt").stdout


def test_no_progress_bar_when_stderr_is_not_a_terminal(robotrules, site, tmp_path):
    server = site()
    (tmp_path / "urls.txt").write_text("".join(f"{server.url(f'/p{n}')}\n" for n in range(200)))
    done = robotrules("check", "--urls", "urls.txt", "--json")
    assert len(json_results(done.stdout)) == 200
    assert done.stderr == ""


def test_a_progress_bar_on_a_terminal_while_results_go_to_a_file(tmp_path, cli_env, site):
    """A long run with its results redirected shows its progress on the terminal (stderr), and the
    results themselves stay one clean JSON document."""
    server = site()
    (tmp_path / "urls.txt").write_text("".join(f"{server.url(f'/p{n}')}\n" for n in range(200)))
    code, shown, results = _on_terminal(["check", "--urls", "urls.txt", "--json"], cwd=tmp_path, env=cli_env,
                                        stream="stderr")
    assert code == 0
    assert "checking" in shown and "100%" in shown
    assert len(json_results(results)) == 200
    code, shown, _ = _on_terminal(["check", "--no-progress", "--urls", "urls.txt", "--json"], cwd=tmp_path,
                                  env=cli_env, stream="stderr")
    assert shown == ""


def test_results_stream_from_stdin_one_line_per_url(tmp_path, cli_env, site):
    """Each verdict is written as soon as it is known: the first answer arrives while stdin is
    still open (thousands of URLs need not be read first); in JSON, behind --jsonl (issue #19)."""
    server = site()
    process = subprocess.Popen([SCRIPT, "check", "--jsonl"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, cwd=tmp_path, env=cli_env)
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(f"{server.url('/first')}\n".encode())
        process.stdin.flush()
        ready, _, _ = select.select([process.stdout], [], [], 15)
        assert ready, "no verdict while stdin stays open"
        first = process.stdout.readline()
        assert json_lines(first.decode())[0]["url"] == server.url("/first")
        process.stdin.write(f"{server.url('/tmp/second')}\n".encode())
        process.stdin.close()
        rest = process.stdout.read()
        assert process.wait(timeout=15) == 1
        assert [row["allowed"] for row in json_lines(rest.decode())] == [False]
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)


def test_what_users_read_cites_no_requirement_ids(robotrules, site, tmp_path):
    """Messages are plain words: explanations, states, lint messages and errors cite no ids."""
    ok, missing, down = site(), site(respond(404)), site(respond(503))
    (tmp_path / "robots.txt").write_bytes(b"\xef\xbb\xbfuser-agent: *\nnonsense\ndisalow: /x\ndisallow: y\n"
                                          b"crawl-delay: 3\nsitemap: /s.xml\nuser-agent: Mozilla/5.0 (x)\n\x00\n")
    runs = [
        robotrules("check", ok.url("/tmp/x"), missing.url("/x"), down.url("/x"), "nope", "gopher://a/"),
        robotrules("fetch", ok.url(), missing.url(), down.url()),
        robotrules("lint", "robots.txt"),
        robotrules("test", "robots.txt", "/x", "--expect", "disallowed"),
        robotrules("diff", "robots.txt", ok.url()),
        robotrules("demo"),
        robotrules("check", "--timeout", "0", "https://a/"),
    ]
    for done in runs:
        assert not REQUIREMENT_ID.search(done.stdout + done.stderr), done.args
