"""``robotrules diff`` through the real console script: the rules' paths probed on the file's own
site (or as paths), crawl delays reported for the crawlers that read them, agents named as the
files write them (issue #19-10)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.servers.http import respond

OLD = b"User-agent: *\nDisallow: /private/\nCrawl-delay: 5\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n"
NEW = b"User-agent: *\nDisallow: /private/\nDisallow: /drafts/\nCrawl-delay: 10\n\nUser-agent: Googlebot\nDisallow: /nogoogle\n"


def test_two_files_are_probed_on_paths_not_on_a_made_up_site(console_script, tmp_path: Path) -> None:
    """S1: two local files say nothing of their host: the rules' URLs are reported as paths."""
    (tmp_path / "old.txt").write_bytes(OLD)
    (tmp_path / "new.txt").write_bytes(NEW)
    done = console_script("diff", "old.txt", "new.txt")
    assert done.returncode == 1, done.stderr
    assert "*  /drafts/  allowed -> disallowed  (by line 3 of the new file: 'disallow: /drafts/')" in done.stdout
    assert "example.com" not in done.stdout


def test_a_live_side_probes_the_paths_on_its_own_site(console_script, site, tmp_path: Path) -> None:
    """S1: when a side is a URL, the rules' paths are probed on that site, next to the user's URLs."""
    server = site(respond(200, OLD))
    (tmp_path / "new.txt").write_bytes(NEW)
    (tmp_path / "urls.txt").write_text(server.url("/drafts/a") + "\n")
    done = console_script("diff", "--json", server.url("/"), "new.txt", "--urls", "urls.txt")
    assert done.returncode == 1, done.stderr
    urls = [verdict["url"] for verdict in json.loads(done.stdout)["verdicts"]]
    assert urls == [server.url("/drafts/a"), server.url("/drafts/")]


def test_a_crawl_delay_only_google_reads_is_no_change(console_script, tmp_path: Path) -> None:
    """N2: Google's crawlers ignore crawl-delay: the change is shown as ignored, and the exit code is 0."""
    (tmp_path / "old.txt").write_bytes(b"User-agent: Googlebot\nDisallow: /a\nCrawl-delay: 5\n")
    (tmp_path / "new.txt").write_bytes(b"User-agent: Googlebot\nDisallow: /a\nCrawl-delay: 10\n")
    done = console_script("diff", "old.txt", "new.txt")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no changes for *, Googlebot" in done.stdout
    assert "crawl delay for Googlebot: 5s -> 10s (not a change: Google's crawlers ignore crawl-delay)" in done.stdout


def test_a_crawl_delay_other_crawlers_read_is_a_change_said_for_whom(console_script, tmp_path: Path) -> None:
    """N2: the ``*`` group's crawl delay matters to crawlers other than Google's: exit code 1."""
    (tmp_path / "old.txt").write_bytes(OLD)
    (tmp_path / "new.txt").write_bytes(OLD.replace(b"Crawl-delay: 5", b"Crawl-delay: 10"))
    done = console_script("diff", "old.txt", "new.txt")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "crawl delays (for crawlers that read crawl-delay; Google's crawlers ignore it):" in done.stdout
    assert "  * (all other crawlers): 5s -> 10s" in done.stdout


def test_agents_are_written_as_the_files_write_them(console_script, tmp_path: Path) -> None:
    """G3: "GPTBot" as written, not the lower-case token Google compares."""
    (tmp_path / "old.txt").write_bytes(b"User-agent: *\nDisallow: /x\n")
    (tmp_path / "new.txt").write_bytes(b"User-agent: *\nDisallow: /x\n\nUser-agent: GPTBot\nDisallow: /\n")
    done = console_script("diff", "old.txt", "new.txt")
    assert done.returncode == 1, done.stderr
    assert "GPTBot  + added   disallow: /" in done.stdout
    assert "gptbot" not in done.stdout
