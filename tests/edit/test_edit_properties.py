"""robotrules.edit as properties, over generated files: no crawler that is not named reads anything
different, the blocked are disallowed and the allowed allowed at "/", and every line that is not
an edited user-agent, rule or Content-Usage line is kept byte for byte (G1-G5, P1, P4, N2, A1)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

import robotrules
from robotrules.edit import EditRefused, edit
from tests.hypo import examples

NAMES = ("GPTBot", "CCBot", "Googlebot", "foo")
OTHERS = ("bar", "baz", "Googlebot-News", "AI", "nosuchcrawler", "ClaudeBot", "*")
_paths = st.sampled_from(["/", "/a", "/a/", "/b/index.html", "/*.pdf$", "", "/a*b", "x"])
_line = st.one_of(
    st.sampled_from([
        "User-agent: GPTBot", "user-agent: gptbot/1.1", "User-agent: CCBot", "User-agent: *", "User-agent: bar",
        "User-agent: Googlebot", "useragent: foo", "User-agent: AI2Bot", "User-agent: * text",
        "", "   ", "# a comment", "Content-Signal: search=yes, ai-train=no", "License: https://x/l",
        "Crawl-delay: 3", "Content-Usage: train-ai=y", "Content-Usage: /a search=n", "Sitemap: https://h/s.xml",
        "junk line", "Disallow", "Allow /a",
    ]),
    st.builds(lambda kind, path: f"{kind}: {path}", st.sampled_from(["Allow", "Disallow", "disallow"]), _paths),
)
_eol = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def files(draw: st.DrawFn) -> bytes:
    lines = draw(st.lists(_line, max_size=14))
    eols = [draw(_eol) for _ in lines]
    body = "".join(line + eol for line, eol in zip(lines, eols, strict=True))
    if lines and draw(st.booleans()):
        body = body[: -len(eols[-1])]  # no final line break
    return body.encode()


@st.composite
def requests(draw: st.DrawFn) -> tuple[list[str], list[str], str | None]:
    block = draw(st.lists(st.sampled_from(NAMES), max_size=2, unique=True))
    allow = draw(st.lists(st.sampled_from([n for n in NAMES if n not in block]), max_size=1))
    usage = draw(st.sampled_from([None, "train-ai=n", "train-ai=n, search=y"]))
    if not block and not allow and usage is None:
        block = ["GPTBot"]
    return block, allow, usage


_KNOWN_REFUSALS = ("edited the other way", "no rule follows")
_EDITED = re.compile(rb"\s*(user-?agent|allow|disallow|content-usage)\b", re.IGNORECASE)


def _paths_of(*files: robotrules.RobotsTxt) -> list[str]:
    found = {"/"}
    for robots in files:
        for group in robots.groups:
            for rule in group.rules:
                path = rule.pattern.replace("*", "").removesuffix("$")
                found.add(path if path.startswith("/") else "/" + path)
    return sorted(found)


@settings(max_examples=examples(300), deadline=None)
@given(files(), requests())
def test_no_other_crawler_changes_and_the_named_ones_get_their_verdict(body, request):
    """G2-G4: a crawler not named keeps every verdict on the file's paths; the blocked are
    disallowed at "/" and the allowed allowed there."""
    block, allow, usage = request
    try:
        result = edit(body, block=block, allow=allow, usage=usage)
    except EditRefused as refused:
        reason = str(refused)  # only the refusals of files no edit can serve, never the proof's
    else:
        reason = ""
    if reason:
        assert any(known in reason for known in _KNOWN_REFUSALS), reason
        return
    before, after = robotrules.parse(body), robotrules.parse(result.body)
    for path in _paths_of(before, after):
        for agent in OTHERS:
            assert before.allowed(path, agent) == after.allowed(path, agent), (agent, path)
    for name in block:
        assert not after.allowed("/", name)
    for name in allow:
        assert after.allowed("/", name)
    if usage is not None:
        assert result.changed or b"Content-Usage: " + usage.encode() in body


@settings(max_examples=examples(300), deadline=None)
@given(files(), requests())
def test_lines_not_edited_are_kept_byte_for_byte(body, request):
    """P1/P4/N2: comments, blank lines and lines Google ignores stay as written, line breaks too, in order."""
    block, allow, usage = request
    try:
        result = edit(body, block=block, allow=allow, usage=usage)
    except EditRefused:
        return
    kept = [line for line in re.findall(rb"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", body)
            if not _EDITED.match(line)]
    at = 0
    for line in kept:
        found = result.body.find(line, at)
        assert found >= 0, (line, result.body[at:])
        at = found + len(line)


@settings(max_examples=examples(100), deadline=None)
@given(files(), requests())
def test_an_edit_applied_again_changes_nothing(body, request):
    """Editing the edited file the same way is a no-op: the first edit did all of it."""
    block, allow, usage = request
    try:
        first = edit(body, block=block, allow=allow, usage=usage)
    except EditRefused:
        return
    again = edit(first.body, block=block, allow=allow, usage=usage)
    assert again.body == first.body
