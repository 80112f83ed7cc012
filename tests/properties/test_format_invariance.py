"""Metamorphic properties of the file format: rewrites that must not change any decision.

P1 (line terminators), P3 (BOM), P4 (comments), P5 (field-name case), G2 (group order),
G4 (groups for the same agent merge), F9 (the 512,000-byte limit).
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotrules
from tests.hypo import examples

from ._strategies import (
    LIMIT,
    MODES,
    QUERY_AGENTS,
    WILDCARD_MODES,
    decision_key,
    decisions,
    groups,
    join_lines,
    render_groups,
    robots_like_bytes,
    safe_urls,
    wild_agents,
    wild_line,
    wild_line_parts,
    wild_urls,
)

queries_urls = st.lists(st.one_of(wild_urls, safe_urls), min_size=1, max_size=6)
WILD_QUERY_AGENTS = ["foo", "FOO", "bar", "foo_bar", "*", "", "googlebot", "qux", ["bar", "foo"]]


def _tag_at(tags, line):
    return tags[line - 1] if 0 < line <= len(tags) else None


def _tagged(rt, tags, urls, agents):
    """(allowed, the generated line that decided) for every query."""
    return [(d.allowed, _tag_at(tags, d.line)) for d in (rt.check(u, a) for u in urls for a in agents)]


def _order_free(rt, tags, urls, agents):
    """(allowed, kind and pattern length of the deciding rule): what reordering rules of the
    same priority may not change (ties report the first such rule in file order)."""
    out = []
    for u in urls:
        for a in agents:
            d = rt.check(u, a)
            t = _tag_at(tags, d.line)
            out.append((d.allowed, (t[2], len(t[3])) if t and t[0] == "rule" else t))
    return out


# --------------------------------------------------------------------------- P1

def _mixed_eols(lines, eols):
    eols = list(eols)
    for i in range(1, len(lines)):
        if eols[i - 1] == "\r" and lines[i] == "" and eols[i] == "\n":
            eols[i] = "\r\n"  # "\r" + "" + "\n" would be one CRLF, not two line breaks
    return "".join(line + eol for line, eol in zip(lines, eols, strict=True))


@settings(max_examples=examples(150), deadline=None)
@given(lines=st.lists(wild_line, max_size=14), data=st.data(), urls=queries_urls,
       mode=st.sampled_from(MODES), final=st.booleans())
def test_cr_lf_and_crlf_line_endings_decide_alike(lines, data, urls, mode, final):
    """P1: lines separated by LF, CR, CRLF or any mix give the same decisions and the same
    deciding line numbers."""
    eols = data.draw(st.lists(st.sampled_from(("\n", "\r", "\r\n")), min_size=len(lines), max_size=len(lines)))
    bodies = [join_lines(lines, eol, final) for eol in ("\n", "\r", "\r\n")]
    mixed = _mixed_eols(lines, eols)
    bodies.append(mixed if final or not lines else mixed[: -len(eols[-1])])
    results = [decisions(robotrules.parse(b.encode("utf-8"), mode=mode), urls, WILD_QUERY_AGENTS) for b in bodies]
    assert results[1] == results[0], "CR"
    assert results[2] == results[0], "CRLF"
    assert results[3] == results[0], "mixed"


# --------------------------------------------------------------------------- P3

@settings(max_examples=examples(150), deadline=None)
@given(lines=st.lists(wild_line, max_size=14), urls=queries_urls, mode=st.sampled_from(MODES))
def test_a_leading_bom_changes_nothing(lines, urls, mode):
    """P3: an optional UTF-8 BOM at the start is ignored (bytes and str bodies)."""
    text = join_lines(lines)
    if text.startswith("\ufeff"):
        text = "x" + text
    plain = robotrules.parse(text.encode("utf-8"), mode=mode)
    expected = decisions(plain, urls, WILD_QUERY_AGENTS)
    assert decisions(robotrules.parse(b"\xef\xbb\xbf" + text.encode("utf-8"), mode=mode), urls, WILD_QUERY_AGENTS) == expected
    assert decisions(robotrules.parse("\ufeff" + text, mode=mode), urls, WILD_QUERY_AGENTS) == expected
    assert robotrules.parse(b"\xef\xbb\xbf" + text.encode("utf-8"), mode=mode).sitemaps == plain.sitemaps


# --------------------------------------------------------------------------- P4

comment_text = st.text(st.characters(exclude_characters="\r\n", exclude_categories=("Cs",)), max_size=12)


@settings(max_examples=examples(150), deadline=None)
@given(gs=groups(), data=st.data(), urls=st.lists(safe_urls, min_size=1, max_size=6), mode=st.sampled_from(MODES))
def test_comment_lines_and_trailing_comments_change_nothing(gs, data, urls, mode):
    """P4: comment-only lines (with optional leading whitespace) inserted anywhere, and
    '#' comments appended to any line, change no decision; the deciding rule is the same
    rule (its line number shifts with the inserted lines). A comment line is not a group
    boundary (and not a legacy1994 record separator)."""
    lines, tags = render_groups(gs)
    new_lines, new_tags = [], []
    for line, tag in zip(lines, tags, strict=True):
        for _ in range(data.draw(st.integers(0, 2))):
            new_lines.append(data.draw(st.sampled_from(("", " ", "\t"))) + "#" + data.draw(comment_text))
            new_tags.append(("comment",))
        commented = line
        if line and data.draw(st.booleans()):
            commented += data.draw(st.sampled_from(("#", " #", "\t# ", " # "))) + data.draw(comment_text)
        new_lines.append(commented)
        new_tags.append(tag)
    if data.draw(st.booleans()):
        new_lines.append("# the end")
        new_tags.append(("comment",))
    a = robotrules.parse(join_lines(lines).encode(), mode=mode)
    b = robotrules.parse(join_lines(new_lines).encode(), mode=mode)
    assert _tagged(b, new_tags, urls, QUERY_AGENTS) == _tagged(a, tags, urls, QUERY_AGENTS)


# --------------------------------------------------------------------------- P5

def _random_case(rnd: random.Random):
    return lambda name: "".join(c.upper() if rnd.random() < 0.5 else c.lower() for c in name)


@settings(max_examples=examples(150), deadline=None)
@given(parts=st.lists(wild_line_parts(), max_size=14), rnd=st.randoms(use_true_random=False),
       urls=queries_urls, mode=st.sampled_from(MODES))
def test_field_names_in_any_case_decide_alike(parts, rnd, urls, mode):
    """P5: field names are case-insensitive (including the misspellings the reference
    accepts, P6): randomising their case changes no decision and no line."""
    case = _random_case(rnd)
    a = join_lines(p + f + r for p, f, r in parts)
    b = join_lines(p + case(f) + r for p, f, r in parts)
    ra, rb = robotrules.parse(a.encode(), mode=mode), robotrules.parse(b.encode(), mode=mode)
    assert decisions(rb, urls, WILD_QUERY_AGENTS) == decisions(ra, urls, WILD_QUERY_AGENTS)
    assert rb.sitemaps == ra.sitemaps


# --------------------------------------------------------------------------- G2 / G4

@pytest.mark.parametrize("mode", WILDCARD_MODES)
@settings(max_examples=examples(150), deadline=None)
@given(gs=groups(min_groups=2), perm=st.data(), urls=st.lists(safe_urls, min_size=1, max_size=6))
def test_order_of_groups_is_irrelevant(mode, gs, perm, urls):
    """G2: permuting whole groups changes no decision (nor the kind and length of the deciding
    rule; among equal-length rules the first in file order is reported)."""
    order = perm.draw(st.permutations(range(len(gs))))
    gs2 = [gs[i] for i in order]
    la, ta = render_groups(gs)
    lb, tb = render_groups(gs2)
    a, b = robotrules.parse(join_lines(la), mode=mode), robotrules.parse(join_lines(lb), mode=mode)
    agents = [*QUERY_AGENTS, ["bar", "foo"]]
    assert _order_free(b, tb, urls, agents) == _order_free(a, ta, urls, agents)


@pytest.mark.parametrize("mode", WILDCARD_MODES)
@settings(max_examples=examples(150), deadline=None)
@given(gs=groups(max_rules=6), data=st.data(), urls=st.lists(safe_urls, min_size=1, max_size=6))
def test_splitting_a_group_into_two_for_the_same_agents_changes_nothing(mode, gs, data, urls):
    """G4: groups for the same agent merge, so splitting one group's rules into two groups
    with the same user-agent lines, the second placed anywhere (before or after), changes no decision. Placed
    right after the first part, even the deciding rule is the same."""
    splittable = [i for i, g in enumerate(gs) if len(g.rules) >= 2]
    if not splittable:
        gs = [*gs, dataclasses.replace(gs[0], gid=99, rules=gs[0].rules * 2)]
        gs[-1] = dataclasses.replace(gs[-1], rules=tuple(dataclasses.replace(r, rid=1000 + k)
                                                         for k, r in enumerate(gs[-1].rules)))
        splittable = [len(gs) - 1]
    gi = data.draw(st.sampled_from(splittable))
    g = gs[gi]
    k = data.draw(st.integers(1, len(g.rules) - 1))
    first, second = dataclasses.replace(g, rules=g.rules[:k]), dataclasses.replace(g, rules=g.rules[k:])
    rest = [*gs[:gi], first, *gs[gi + 1:]]
    pos = data.draw(st.integers(0, len(rest)))
    gs2 = [*rest[:pos], second, *rest[pos:]]
    la, ta = render_groups(gs)
    lb, tb = render_groups(gs2)
    a, b = robotrules.parse(join_lines(la), mode=mode), robotrules.parse(join_lines(lb), mode=mode)
    agents = [*QUERY_AGENTS, ["bar", "foo"]]
    if pos == gi + 1:
        assert _tagged(b, tb, urls, agents) == _tagged(a, ta, urls, agents)
    else:
        assert _order_free(b, tb, urls, agents) == _order_free(a, ta, urls, agents)


# --------------------------------------------------------------------------- F9

BOUNDARY_LINES = ("disallow: /aaaaaaaaaaaaaaaaaaaaaaaaaaaa", "user-agent: foo", "allow: /aaaa*b$",
                  "disallow: /\u00e9\u00e9\u00e9\u65e5\u65e5\U0001f600", "sitemap: http://example.com/s.xml")


@settings(max_examples=examples(25), deadline=None)
@given(head=st.lists(wild_line, max_size=8), boundary=st.sampled_from(BOUNDARY_LINES),
       cut=st.integers(0, 40), tail=st.one_of(robots_like_bytes, st.just(b"\nuser-agent: *\ndisallow: /\n")),
       as_str=st.booleans(), urls=queries_urls, agent=wild_agents, mode=st.sampled_from(MODES))
def test_bytes_after_512000_change_nothing(head, boundary, cut, tail, as_str, urls, agent, mode):
    """F9: only the first 512,000 bytes count: a file longer than that decides exactly like
    its first 512,000 bytes, even when the limit cuts a line (or a UTF-8 character of a str
    body) in two."""
    head_b = join_lines(["user-agent: *", *head]).encode("utf-8")
    boundary_b = boundary.encode("utf-8")
    start = LIMIT - min(cut, len(boundary_b))  # where the boundary line starts
    pad = start - len(head_b) - 2
    body = head_b + b"#" + b"x" * pad + b"\n" + boundary_b + b"\n" + tail
    assert len(body) > LIMIT
    if as_str:
        text = body.decode("utf-8", "surrogateescape")
        big = robotrules.parse(text, mode=mode)
        body = text.encode("utf-8", "surrogatepass")
    else:
        big = robotrules.parse(body, mode=mode)
    small = robotrules.parse(body[:LIMIT], mode=mode)
    urls = [*urls, "/aaaaaaaaaaaaaaaaaaaaaaaaaaaa", "/aaaab", "/%C3%A9%C3%A9"]
    assert [decision_key(big.check(u, agent)) for u in urls] == [decision_key(small.check(u, agent)) for u in urls]
    assert big.sitemaps == small.sitemaps
