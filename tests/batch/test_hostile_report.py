"""One hostile site does not stop the audit report, and nothing it says is interpreted (issue #16-M3, #16-L4).

A captured rule such as ``Disallow: /$\\undefinedcmd$`` made matplotlib's mathtext fail and
``robotrules audit --report`` exit 1 with a traceback. The archive here holds hostile hosts,
agents, rules and bodies (``$...$``, TeX commands, ``<script>``, NUL and other control
characters, a right-to-left override, lines of 100 KB); the report is made by the command line
(in process: ``tests/cli/harness.py``) and opened in Debian's Chromium, which must show all of it as text.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from robotrules.batch import audit
from robotrules.batch.audit.report import render_report
from robotrules.batch.audit.report._html import visible
from tests.batch.conftest import write_answers_warc as write_warc
from tests.cli.harness import in_process

pandas = pytest.importorskip("pandas", reason="the audit table needs pandas (robotrules[batch])")
pytest.importorskip("matplotlib", reason="the report's plots need matplotlib (robotrules[audit])")

LONG = "A" * 100_000
AGENTS = ["Evil$\\undefinedcmd$", "Bot$x^{2}$", "*"]
BODY = ("User-agent: Evil\n"
        "Disallow: /$\\undefinedcmd$\n"
        "Disallow: /<script>window.pwned=1</script>\n"
        "Disallow: /nul\x00esc\x1b[31mbell\x07\n"
        "Disallow: /rtl\u202egnp.exe\n"
        "Content-Signal: ai-train=no$\\frac{1}{0}$\x00\n\n"
        "User-agent: Bot\n"
        f"Disallow: /{LONG}\n"
        "Crawl-delay: 5\n\n"
        f"User-agent: *\nDisallow: /$$\\\\begin{{x}}$$\n# {LONG}\n").encode()
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    """A WARC whose one robots.txt holds :data:`BODY`, and a host name with ``$`` and ``<``."""
    return write_warc(tmp_path / "hostile.warc.gz", {
        "http://evil.test/robots.txt": (200, {"content-type": "text/plain"}, BODY),
        "http://x$\\undefinedcmd$.test/robots.txt": (200, {}, b"User-agent: *\nDisallow: /$\\x$\n"),
        "http://down.test/robots.txt": (503, {}, b"<script>alert(1)</script>"),
    })


def run_audit(tmp_path: Path, warc: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    args = ["audit", "--robots", str(warc), *(arg for agent in AGENTS for arg in ("-a", agent)),
            "--output", "out.parquet", "--report", "report.html", *extra]
    return in_process(args, cwd=tmp_path, timeout=120, env={**os.environ, "ROBOTRULES_CACHE": str(tmp_path / "cache.sqlite3")})


def test_a_hostile_archive_gives_a_report_not_a_traceback(tmp_path: Path, hostile: Path) -> None:
    """#16-M3: rules, agents and content signals with $...$ and TeX commands reach the plots; the
    report is written, exit 0, nothing on stderr, and every hostile string is in it as text."""
    done = run_audit(tmp_path, hostile)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert text.count("<svg") == 3
    assert "Evil$\\undefinedcmd$" in text and "disallow: /$\\undefinedcmd$" in text
    assert "&lt;script&gt;window.pwned=1&lt;/script&gt;" in text
    assert "<script" not in text


def test_control_characters_are_shown_as_escapes_not_written_raw(tmp_path: Path, hostile: Path) -> None:
    """#16-L4: the report holds no control character (ASCII or Latin-1) or direction override from a
    capture; each is written visibly as an escape (\\x00, \\x1b, \\u202e), marked as one."""
    done = run_audit(tmp_path, hostile)
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert not CONTROL.findall(text), CONTROL.findall(text)[:5]
    for escape in ("\\x00", "\\x1b", "\\x07", "\\u202e"):
        assert f'<span class="esc" title="U+{int(escape[2:], 16):04X}">{escape}</span>' in text, escape
    assert visible("a\x00b\x1bc\u202ed\ne") == "a\\x00b\\x1bc\\u202ed\\x0ae"
    assert visible("line\nline", lines=True) == "line\nline"


def test_matplotlib_settings_that_read_math_or_tex_change_nothing(hostile: Path) -> None:
    """#16-M3: the report sets text as text whatever the user's matplotlib settings say (usetex,
    mathtext for numbers): the same page is made, without TeX, with the hostile labels as written."""
    import matplotlib

    frame = audit.table(str(hostile), AGENTS)
    plain = render_report(frame)
    with matplotlib.rc_context({"text.usetex": True, "text.parse_math": True, "axes.formatter.use_mathtext": True}):
        again = render_report(frame)
    strip = re.compile(r"made [0-9-]+ [0-9:]+ UTC")
    assert strip.sub("", again) == strip.sub("", plain)
    assert "Bot$x^{2}$" in plain


@pytest.mark.browser
def test_a_hostile_report_renders_in_chromium_as_text(tmp_path: Path, hostile: Path, opened: Any) -> None:
    """#16-M3, #16-L4: opened in Chromium, the page runs no script from a capture, makes no request, shows
    the hostile strings as written (the TeX in the plots too), and its 100 KB lines wrap
    instead of widening the page."""
    done = run_audit(tmp_path, hostile)
    assert done.returncode == 0, done.stderr
    report = tmp_path / "report.html"
    with opened(report) as seen:
        page = seen.page
        for index in range(page.locator("details").count()):
            page.locator("details").nth(index).evaluate("element => element.open = true")
        assert page.evaluate("typeof window.pwned") == "undefined"
        assert page.locator("script").count() == 0
        plots = page.locator("figure svg")
        assert plots.count() == 3
        labels = plots.first.locator("text").all_text_contents()
        assert "Evil$\\undefinedcmd$" in labels and "Bot$x^{2}$" in labels
        shown = page.locator("main").inner_text()
        assert "/<script>window.pwned=1</script>" in shown
        assert "/nul\\x00esc\\x1b[31mbell\\x07" in shown and "/rtl\\u202egnp.exe" in shown
        assert "more characters)" in shown  # a 100 KB rule is cut in its cell
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 1200, width
        page.screenshot(path=str(tmp_path / "hostile.png"), full_page=True)
    assert seen.requests == [report.as_uri()], seen.requests
    assert seen.errors == [] and seen.dialogs == []
