"""AI-use preferences in robots.txt (A1-A8): the drafts' own examples and our edge cases.

The attach draft (-05) example table and the vocabulary draft's (-08) processing examples run
as written; the table below them pins each rule of SPEC section A with a case of its own.
"""

from __future__ import annotations

import pytest

from robotrules import parse
from robotrules.core.usage import CATEGORIES, combine, parse_signal, parse_statement

ATTACH_EXAMPLE = b"""User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
"""


@pytest.mark.parametrize(("path", "crawl", "train_ai"), [
    ("/test", True, False),
    ("/never/test", False, None),
    ("/ai-ok/test", True, True),
])
def test_the_attach_drafts_example_table(path: str, crawl: bool, train_ai: bool | None) -> None:
    """A2, A3: the attach draft's table: /test train-ai=n, /never/test not applicable, /ai-ok/test train-ai=y."""
    usage = parse(ATTACH_EXAMPLE).usage(f"https://example.com{path}", "OtherBot")
    assert usage.crawlable is crawl
    assert usage.preference("train-ai") is train_ai


def test_the_attach_drafts_examplebot_uses_its_own_group_everywhere() -> None:
    """A2: ExampleBot's group allows everything and says train-ai=y, /never/ included."""
    robots = parse(ATTACH_EXAMPLE)
    for path in ("/test", "/never/test", "/ai-ok/test"):
        usage = robots.usage(f"https://example.com{path}", "ExampleBot")
        assert usage.crawlable and usage.preference("train-ai") is True


@pytest.mark.parametrize(("statement", "train_ai", "search"), [
    ("train-ai=y, search=n", True, False),  # vocabulary section 6: allow training, disallow search
    ('train-ai=y, train-ai, search=n, search="n"', None, None),  # 7.1: last value wins, neither a token
    ("train-ai;allow=n, train-ai=y", True, None),  # 7.2: parameters of the replaced member are gone
    ('train-ai;has;parameters="?";', None, None),  # 7.2 (the trailing ';' fails the Dictionary)
    ("Train-AI=n", None, None),  # 7.1: an upper-case key fails the whole Dictionary
])
def test_the_vocabulary_drafts_processing_examples(statement: str, train_ai: bool | None, search: bool | None) -> None:
    """A5: the vocabulary draft's examples of processing a statement."""
    read = parse_statement(statement)
    assert (read.preference("train-ai"), read.preference("search")) == (train_ai, search)


def _usage(body: str, path: str = "/page", agent: str = "bot"):
    return parse(body.encode()).usage(f"https://example.com{path}", agent)


@pytest.mark.parametrize(("why", "body", "path", "expected"), [
    ("A1 a path and a statement separated by a tab", "user-agent: *\ncontent-usage: /a\ttrain-ai=n\n", "/a/b", False),
    ("A1 spaces around the key and colon", "user-agent: *\n  Content-Usage  :  train-ai=n\n", "/x", False),
    ("A1 a comment ends the value", "user-agent: *\ncontent-usage: train-ai=n # train-ai=y\n", "/x", False),
    ("A1 a value not starting with / has no path", "user-agent: *\ncontent-usage: x/ train-ai=n\n", "/x", None),
    ("A2 the longest path decides, whatever the order", ("user-agent: *\ncontent-usage: /a/b train-ai=y\n"
     "content-usage: /a train-ai=n\n"), "/a/b/c", True),
    ("A2 a path is no better than no path when it does not match", ("user-agent: *\ncontent-usage: train-ai=n\n"
     "content-usage: /other train-ai=y\n"), "/x", False),
    ("A2 '/' is longer than no path", "user-agent: *\ncontent-usage: train-ai=n\ncontent-usage: / train-ai=y\n",
     "/x", True),
    ("A2 wildcards match as in allow/disallow", "user-agent: *\ncontent-usage: /*.pdf$ train-ai=n\n", "/d/f.pdf", False),
    ("A2 a final $ anchors", "user-agent: *\ncontent-usage: /*.pdf$ train-ai=n\n", "/d/f.pdfx", None),
    ("A2 percent-encoding as in R3", "user-agent: *\ncontent-usage: /caf\u00e9 train-ai=n\n", "/caf%C3%A9", False),
    ("A2 the other group's rules do not count", ("user-agent: other\nallow: /\ncontent-usage: train-ai=n\n\n"
     "user-agent: *\nallow: /\n"), "/x", None),
    ("A2 google: content-usage does not end a run of user-agent lines (the reference reads no such rule)",
     "user-agent: other\ncontent-usage: train-ai=n\nuser-agent: *\nallow: /\n", "/x", False),
    ("A2 a group with no content-usage rule says nothing", ("user-agent: bot\nallow: /\n\nuser-agent: *\n"
     "content-usage: train-ai=n\n"), "/x", None),
    ("A2 groups naming the agent are merged", ("user-agent: bot\ncontent-usage: /a train-ai=y\n\nuser-agent: x\n"
     "allow: /\n\nuser-agent: bot\ncontent-usage: /a/b train-ai=n\n"), "/a/b", False),
    ("A3 a disallowed URL has no preference", "user-agent: *\ndisallow: /p\ncontent-usage: train-ai=y\n", "/p", None),
    ("A4 equal paths: any n wins", "user-agent: *\ncontent-usage: /a train-ai=y\ncontent-usage: /a train-ai=n\n",
     "/a", False),
    ("A4 equal paths: y over unknown", "user-agent: *\ncontent-usage: /a search=y\ncontent-usage: /a train-ai=y\n",
     "/a", True),
    ("A5 a quoted value is unknown", 'user-agent: *\ncontent-usage: train-ai="n"\n', "/x", None),
    ("A5 an upper-case value is unknown", "user-agent: *\ncontent-usage: train-ai=N\n", "/x", None),
    ("A5 an upper-case key fails the statement", "user-agent: *\ncontent-usage: Train-ai=n\n", "/x", None),
    ("A5 unknown keys are ignored", "user-agent: *\ncontent-usage: bots=n, train-ai=n\n", "/x", False),
    ("A5 a repeated key keeps its last value", "user-agent: *\ncontent-usage: train-ai=n, train-ai=y\n", "/x", True),
    ("A7 content-signal ai-train is train-ai", "user-agent: *\ncontent-signal: ai-train=no\nallow: /\n", "/x", False),
    ("A7 content-signal at the top of the file", "content-signal: ai-train=no\n\nuser-agent: *\nallow: /\n", "/x", False),
    ("A6 content-signal and content-usage combine: n wins", ("user-agent: *\ncontent-signal: ai-train=yes\n"
     "content-usage: train-ai=n\n"), "/x", False),
])
def test_each_rule_of_section_a(why: str, body: str, path: str, expected: bool | None) -> None:
    """A1-A7, one case each (the case's name says which)."""
    assert _usage(body, path).preference("train-ai") is expected, why


def test_content_signal_in_the_group_replaces_the_one_outside_any_group() -> None:
    """A7: a group's own Content-Signal applies to it; the file-level one to groups without one."""
    body = ("content-signal: ai-train=no, search=yes\n\nuser-agent: a\nallow: /\ncontent-signal: ai-train=yes\n\n"
            "user-agent: *\nallow: /\n")
    own, other = _usage(body, agent="a"), _usage(body, agent="b")
    assert (own.preference("train-ai"), own.preference("search"), own.signals[0].scope) == (True, None, "group")
    assert (other.preference("train-ai"), other.preference("search"), other.signals[0].scope) == (False, True, "file")


def test_ai_input_comes_only_from_content_signal() -> None:
    """A7: ai-input has no aipref label; a Content-Usage key ai-input is ignored."""
    assert _usage("user-agent: *\ncontent-usage: ai-input=n\n").preference("ai-input") is None
    assert _usage("user-agent: *\ncontent-signal: ai-input=no\n").preference("ai-input") is False


def test_legacy1994_has_no_preferences() -> None:
    """Modes: legacy1994 knows no Content-Usage or Content-Signal."""
    usage = parse(b"user-agent: *\ncontent-usage: train-ai=n\n", mode="legacy1994").usage("/x", "bot")
    assert usage.crawlable and all(value is None for value in usage.preferences().values())


def test_rfc9309_mode_normalises_the_path_of_a_rule() -> None:
    """A2 with R3 in rfc9309 mode: %7E and ~ are the same path."""
    usage = parse(b"user-agent: *\ncontent-usage: /%7Euser train-ai=n\n", mode="rfc9309").usage("/~user/x", "bot")
    assert usage.preference("train-ai") is False


def test_crawl_verdicts_are_unchanged_by_preference_lines() -> None:
    """A1: Google's reference ignores both lines; so do allowed() and check()."""
    with_lines = parse(ATTACH_EXAMPLE)
    without = parse(b"\n".join(line for line in ATTACH_EXAMPLE.split(b"\n") if not line.startswith(b"Content-Usage")))
    for path in ("/test", "/never/test", "/ai-ok/test"):
        assert with_lines.check(path, "bot").allowed == without.check(path, "bot").allowed


def test_the_explanation_names_the_verdict_and_the_deciding_lines() -> None:
    """A8: one sentence with the crawl verdict and each category's deciding line."""
    text = parse(ATTACH_EXAMPLE).usage("/ai-ok/x", "bot").explain()
    assert text.startswith("crawlable") and "train-ai allowed by line 5" in text and "search unknown" in text
    assert "no usage preference applies" in parse(ATTACH_EXAMPLE).usage("/never/x", "bot").explain()


def test_combine_takes_the_most_restrictive_answer_per_category() -> None:
    """A4, A6: a response header and the robots.txt rule; any n wins, then y, else unknown."""
    combined = combine("train-ai=y, search=y", parse_statement("train-ai=n"), parse_signal("ai-input=yes"))
    assert combined.preferences == {"train-ai": False, "search": True, "ai-input": True}
    assert combine().preferences == {} and set(CATEGORIES) == {"train-ai", "search", "ai-input"}


def test_content_signal_values_other_than_yes_or_no_say_nothing() -> None:
    """A7: a missing key or another value means no preference; unknown keys are reported."""
    read = parse_signal("search=yes, ai-train=maybe, other=no, ai-input")
    assert read.preferences == {"search": True} and read.ignored == ("other",)
