"""robotrules.edit: what an edit writes, keeps, explains and refuses (G1-G5, P1, P4, N2, A1, A5)."""

from __future__ import annotations

import pytest

import robotrules
from robotrules.crawlers import CRAWLERS
from robotrules.edit import EditRefused, edit
from robotrules.edit._lines import Plan  # the line edits the proof must catch going wrong

SITE = (b"# shop\r\n"
        b"User-agent: *\r\n"
        b"Disallow: /cart\r\n"
        b"Content-Signal: search=yes, ai-train=no\r\n"
        b"License: https://example.com/license\r\n"
        b"\r\n"
        b"Sitemap: https://example.com/sitemap.xml\r\n")


def test_a_blocked_crawler_gets_its_own_group_at_the_end_and_every_other_line_is_kept():
    """G1/P1/N2: the new group goes last after a blank line, with the file's CR LF; nothing else moves."""
    result = edit(SITE, block=["GPTBot"])
    assert result.body == SITE + b"\r\nUser-agent: GPTBot\r\nDisallow: /\r\n"
    assert result.changed
    assert result.blocked == ["GPTBot"]


def test_the_diff_shows_the_blocked_crawler_losing_the_site_and_nobody_else_changing():
    """G2: only the named crawler's verdicts change; '*' keeps its rules."""
    result = edit(SITE, block=["GPTBot"])
    changed = {(v.agent.lower(), v.url.removeprefix("https://example.com"), v.old_allowed, v.new_allowed)
               for v in result.diff.verdicts}
    assert ("gptbot", "/", True, False) in changed
    assert {agent for agent, *_ in changed} == {"gptbot"}


def test_a_file_without_a_final_line_break_gets_one_before_the_new_group():
    result = edit(b"User-agent: *\nDisallow: /a", block=["CCBot"])
    assert result.body == b"User-agent: *\nDisallow: /a\n\nUser-agent: CCBot\nDisallow: /\n"


def test_a_new_group_never_joins_user_agent_lines_that_end_the_file():
    """G1: 'User-agent: foo' with no rule after it would join a group appended after it: the new
    group goes before it instead."""
    body = b"User-agent: *\nDisallow: /a\n\nUser-agent: foo\n"
    result = edit(body, block=["GPTBot"])
    assert result.body == b"User-agent: *\nDisallow: /a\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: foo\n"
    after = robotrules.parse(result.body)
    assert after.allowed("/a", "foo") and not after.allowed("/a", "GPTBot")


def test_a_crawler_sharing_a_group_leaves_it_and_the_others_keep_their_rules():
    """G1/G4: the shared group keeps its rules for CCBot; GPTBot gets its own group, and a note says so."""
    body = b"User-agent: GPTBot\nUser-agent: CCBot\nAllow: /public\nDisallow: /\n"
    result = edit(body, block=["GPTBot"])
    assert result.body == b"User-agent: CCBot\nAllow: /public\nDisallow: /\n\nUser-agent: GPTBot\nDisallow: /\n"
    assert any("shared the group at line 1 with CCBot" in note for note in result.notes)
    assert robotrules.parse(result.body).allowed("/public", "CCBot")


def test_a_crawler_leaving_a_group_does_not_leave_the_group_s_other_lines_behind():
    """G1: a Crawl-delay between the leaving line and the next user-agent line stays in the group."""
    body = b"User-agent: GPTBot\nCrawl-delay: 3\nUser-agent: CCBot\nDisallow: /x\n"
    result = edit(body, block=["GPTBot"])
    after = robotrules.parse(result.body)
    assert after.crawl_delay("CCBot") == 3
    assert not after.allowed("/", "GPTBot")


def test_a_crawler_s_own_group_is_rewritten_in_place():
    """G4: its allow lines go, 'Disallow: /' is added after its user-agent lines, comments stay."""
    body = b"User-agent: GPTBot  # OpenAI\nAllow: /blog\nDisallow: /admin\n\nUser-agent: *\nDisallow:\n"
    result = edit(body, block=["GPTBot"])
    assert result.body == (b"User-agent: GPTBot  # OpenAI\nDisallow: /\nDisallow: /admin\n\n"
                           b"User-agent: *\nDisallow:\n")


def test_allowing_a_crawler_lifts_its_restrictions_only():
    body = b"User-agent: *\nDisallow: /private\n"
    result = edit(body, allow=["Googlebot"])
    after = robotrules.parse(result.body)
    assert after.allowed("/private", "Googlebot") and not after.allowed("/private", "bingbot")


def test_a_crawler_already_blocked_is_left_alone():
    body = b"User-agent: GPTBot\nDisallow: /\n"
    result = edit(body, block=["GPTBot"])
    assert result.body == body and not result.changed
    assert any("already blocked" in note for note in result.notes)


def test_a_name_google_reads_as_another_token_is_refused():
    """G3: 'User-agent: AI2Bot' is a group for 'AI'."""
    with pytest.raises(EditRefused, match="Google reads 'AI2Bot' as 'AI'"):
        edit(SITE, block=["AI2Bot"])


def test_blocking_a_token_notes_the_known_crawlers_read_as_it():
    result = edit(SITE, block=["AI"])
    assert any("AI2Bot" in note and "blocked too" in note for note in result.notes)


def test_a_versioned_name_blocks_its_token():
    assert b"User-agent: GPTBot\n" in edit(b"", block=["GPTBot/1.1"]).body


def test_blocking_a_purpose_blocks_the_registry_s_crawlers_of_that_kind_and_skips_names_read_otherwise():
    """A8: every ai-training crawler whose name is its token is blocked; the others are named in a note."""
    result = edit(b"User-agent: *\nDisallow: /cart\n", block_purpose=["ai-training"])
    after = robotrules.parse(result.body)
    for crawler in CRAWLERS:
        if crawler.kind == "ai-training" and crawler.token_valid:
            assert not after.allowed("/", crawler.token), crawler.name
    assert after.allowed("/", "Googlebot") and not after.allowed("/cart", "Googlebot")
    assert b"AI2Bot" not in result.body
    assert any(note.startswith("skipped AI2Bot") for note in result.notes)


def test_a_crawler_both_blocked_and_allowed_is_refused():
    with pytest.raises(EditRefused, match="both blocked and allowed"):
        edit(SITE, block=["GPTBot"], allow=["gptbot"])


def test_an_unknown_purpose_is_refused():
    with pytest.raises(EditRefused, match="unknown purpose 'ai'"):
        edit(SITE, block_purpose=["ai"])


def test_nothing_asked_is_refused():
    with pytest.raises(EditRefused, match="nothing to do"):
        edit(SITE)


def test_a_usage_statement_is_added_to_the_global_group():
    """A1: a Content-Usage rule for the whole site in the '*' group, right after its user-agent lines."""
    result = edit(SITE, usage="train-ai=n")
    assert result.body == SITE.replace(b"User-agent: *\r\n", b"User-agent: *\r\nContent-Usage: train-ai=n\r\n")
    assert robotrules.parse(result.body).usage("/", "bot").preference("train-ai") is False


def test_a_usage_statement_updates_the_existing_one_key_by_key():
    """A5: the keys given are set, the others kept."""
    body = b"User-agent: *\nContent-Usage: search=y, train-ai=y\nDisallow: /a\n"
    result = edit(body, usage="train-ai=n")
    assert result.body == b"User-agent: *\nContent-Usage: search=y, train-ai=n\nDisallow: /a\n"


def test_a_usage_statement_without_a_global_group_adds_one_last():
    result = edit(b"User-agent: GPTBot\nDisallow: /\n", usage="train-ai=n")
    assert result.body == b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Usage: train-ai=n\n"


@pytest.mark.parametrize("statement", ["", "train-ai=n # x", "/a train-ai=n", "Train-AI=n"])
def test_a_bad_usage_statement_is_refused(statement):
    with pytest.raises(EditRefused):
        edit(SITE, usage=statement)


def test_an_edit_that_would_change_another_crawler_is_refused(monkeypatch):
    """The proof: the edit function checks every other crawler and refuses rather than return such a file."""
    monkeypatch.setattr(Plan, "render", lambda self, before: b"User-agent: *\nDisallow: /\n")
    with pytest.raises(EditRefused, match="would change what other crawlers read"):
        edit(SITE, block=["GPTBot"])


def test_the_result_as_json_has_the_text_the_notes_and_the_diff():
    data = edit(SITE, block=["GPTBot"]).to_dict()
    assert data["changed"] is True
    assert data["robots"].endswith("User-agent: GPTBot\r\nDisallow: /\r\n")
    assert data["diff"]["changed"] is True and data["blocked"] == ["GPTBot"]


def test_a_crawler_that_ignores_the_global_group_is_not_taken_as_blocked_by_it():
    """A8: Google's AdsBot obeys only groups naming it, so 'User-agent: *' with 'Disallow: /' does
    not block it: it gets its own group."""
    result = edit(b"User-agent: *\nDisallow: /\n", block=["AdsBot-Google"])
    assert result.body == b"User-agent: *\nDisallow: /\n\nUser-agent: AdsBot-Google\nDisallow: /\n"
