"""``check`` and ``test`` show the AI-use preferences beside each verdict, and ``--purpose``
asks about one use and sets the exit code on it (A1-A8); ``lint`` judges both lines by effect.
Every test runs the installed console script as a real process."""

from __future__ import annotations

from tests.servers.http import respond

from .conftest import json_lines, json_results

DRAFT = (b"User-agent: *\nAllow: /\nDisallow: /never/\nContent-Usage: train-ai=n\n"
         b"Content-Usage: /ai-ok/ train-ai=y\n")


def test_preferences_are_shown_beside_each_verdict_with_their_lines(console_script, tmp_path):
    """A2, A8: the deciding Content-Usage line named; not applicable where the URL may not be crawled."""
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    done = console_script("test", "robots.txt", "-a", "GPTBot", "/test", "/never/test", "/ai-ok/test")
    assert done.returncode == 1  # /never/test is disallowed
    out = done.stdout
    assert "AI use: train-ai disallowed by line 4 'content-usage: train-ai=n'; search unknown; ai-input unknown" in out
    assert "AI use: not applicable: the URL may not be crawled" in out
    assert "AI use: train-ai allowed by line 5 'content-usage: /ai-ok/ train-ai=y'" in out


def test_a_file_without_preference_lines_shows_none(console_script, tmp_path):
    """Without Content-Usage or Content-Signal lines (and no --purpose) nothing is added."""
    (tmp_path / "robots.txt").write_bytes(b"User-agent: *\nDisallow: /x\n")
    done = console_script("test", "robots.txt", "/a")
    assert done.returncode == 0 and "AI use" not in done.stdout


def test_purpose_sets_the_exit_code_on_a_refusal_only(console_script, tmp_path):
    """A5: a refusal of the use asked about is exit code 1; allowed and unknown are 0."""
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    refused = console_script("test", "robots.txt", "--purpose", "train-ai", "/test")
    assert refused.returncode == 1
    assert "AI use: train-ai disallowed by line 4" in refused.stdout
    allowed = console_script("test", "robots.txt", "--purpose", "train-ai", "/ai-ok/page")
    assert allowed.returncode == 0, allowed.stdout
    unknown = console_script("test", "robots.txt", "--purpose", "search", "/test")
    assert unknown.returncode == 0 and "AI use: search unknown" in unknown.stdout


def test_json_verdicts_carry_the_preferences_and_their_lines(console_script, tmp_path):
    """A3: every JSON verdict has preferences (null where not crawlable) and preference_lines."""
    (tmp_path / "robots.txt").write_bytes(DRAFT)
    rows = json_results(console_script("test", "robots.txt", "--json", "/test", "/never/x").stdout)
    assert rows[0]["preferences"] == {"train-ai": False, "search": None, "ai-input": None}
    assert rows[0]["preference_lines"] == [4]
    assert rows[1]["preferences"] == {"train-ai": None, "search": None, "ai-input": None}
    assert rows[1]["preference_lines"] == []


def test_check_shows_a_live_sites_content_signal_and_purpose(console_script, site):
    """A7 through a live fetch: Cloudflare's Content-Signal line answers ai-train for check."""
    body = b"User-agent: *\nContent-Signal: search=yes, ai-train=no\nAllow: /\n"
    server = site(respond(200, body))
    done = console_script("check", "-a", "GPTBot/1.1", "--purpose", "train-ai", server.url("/article"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "ALLOWED" in done.stdout
    assert "AI use: train-ai disallowed by line 2 'content-signal: search=yes, ai-train=no'" in done.stdout


def test_a_crawler_that_ignores_the_global_group_is_decided_without_it(console_script, tmp_path):
    """A8: AdsBot-Google obeys only groups that name it, and the verdict says so."""
    (tmp_path / "robots.txt").write_bytes(b"User-agent: *\nDisallow: /\n")
    done = console_script("test", "robots.txt", "-a", "AdsBot-Google", "-a", "Googlebot", "/page")
    assert done.returncode == 1  # Googlebot is disallowed by the * group
    assert "no group names AdsBot-Google, and it ignores the group 'user-agent: *'" in done.stdout
    rows = json_results(console_script("test", "robots.txt", "--json", "-a", "AdsBot-Google", "/page").stdout)
    assert rows[0]["allowed"] is True and rows[0]["ignored_global"] is True and rows[0]["group"] is None


def test_lint_reports_content_usage_and_content_signal_mistakes(console_script, tmp_path):
    """A5, A7: an uppercase key, a value other than y/n, a path without '/', the misspelling
    Content-Signals, each a warning with its line (exit code 0: warnings are not errors)."""
    (tmp_path / "robots.txt").write_bytes(b"User-agent: *\nAllow: /\nContent-Usage: Train-AI=n\n"
                                          b"Content-Usage: train-ai=no\nContent-Usage: ai/ train-ai=n\n"
                                          b"Content-Signals: ai-train=no\n")
    done = console_script("lint", "--json", "robots.txt")
    assert done.returncode == 0, done.stderr
    found = {(d["line"], d["code"]) for d in json_lines(done.stdout)[0]["diagnostics"] if d["severity"] == "warning"}
    assert found == {(3, "usage-unreadable"), (4, "usage-unknown-value"), (5, "usage-path"), (6, "signal-misspelt")}
