"""Shared generators and helpers for the property tests (not a test module).

Two families of robots.txt generators:

* structured files (``groups``): user-agent groups of allow/disallow rules whose
  patterns use only characters that normalisation leaves alone (R3), so a rule's
  written value *is* its pattern.  Every line is tagged, so a metamorphic test can
  map a deciding line in one rendering to the same rule in another rendering.
* wild files (``wild_line``, ``wild_body``): valid, misspelled (P6), colon-less, commented, junk and
  non-UTF-8 lines, for the robustness and differential (oracle) properties.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

from hypothesis import strategies as st

MODES = ("google", "rfc9309", "legacy1994")
WILDCARD_MODES = ("google", "rfc9309")  # modes with allow, '*' and '$' (legacy1994 has none)
LIMIT = 512_000  # F9

# ---------------------------------------------------------------------------
# structured files
# ---------------------------------------------------------------------------

#: characters that R3 normalisation never touches (no '%', no non-ASCII, no space/'#').
SAFE_PATH_CHARS = "ab/.?=-_"
FILE_AGENTS = ("*", "foo", "FOO", "foo/1.2", "bar", "Bar-Bot", "foo_bar", "baz*")
QUERY_AGENTS = ("foo", "FOO", "bar", "bar-bot", "foo_bar", "baz", "qux")


@dataclasses.dataclass(frozen=True)
class Rule:
    rid: int
    kind: str  # "allow" | "disallow"
    value: str


@dataclasses.dataclass(frozen=True)
class Group:
    gid: int
    agents: tuple[str, ...]
    rules: tuple[Rule, ...]


safe_patterns = st.builds(
    lambda body, dollar: "/" + body + ("$" if dollar else ""),
    st.text(SAFE_PATH_CHARS + "*", max_size=8),
    st.booleans(),
)
# never "//...": a path-only URL starting with "//" is a network-path reference (host follows)
safe_paths = st.builds(lambda body: "/" + ("a" + body if body.startswith("/") else body),
                       st.text(SAFE_PATH_CHARS + "*$", max_size=12))
safe_urls = st.one_of(
    safe_paths,
    safe_paths.map(lambda p: "http://example.com" + p),
)


@st.composite
def groups(draw, *, min_groups: int = 1, max_groups: int = 5, max_rules: int = 5,
           patterns=safe_patterns) -> list[Group]:
    """Groups with >= 1 agent and >= 1 allow/disallow rule each (so every group is a real
    group boundary, whatever the order: G1)."""
    n = draw(st.integers(min_groups, max_groups))
    out: list[Group] = []
    rid = 0
    for gid in range(n):
        agents = tuple(draw(st.lists(st.sampled_from(FILE_AGENTS), min_size=1, max_size=2)))
        rules = []
        for _ in range(draw(st.integers(1, max_rules))):
            rules.append(Rule(rid, draw(st.sampled_from(("allow", "disallow"))), draw(patterns)))
            rid += 1
        out.append(Group(gid, agents, tuple(rules)))
    return out


def identity(name: str) -> str:
    return name


def render_groups(gs: Sequence[Group], *, field: Callable[[str], str] = identity,
                  blank_between: bool = True) -> tuple[list[str], list[tuple]]:
    """Lines (without terminators) and a parallel list of tags:
    ("ua", gid) / ("rule", rid, kind, value) / ("blank",)."""
    lines: list[str] = []
    tags: list[tuple] = []
    for i, g in enumerate(gs):
        if i and blank_between:  # record separator for legacy1994 (L1); ignored elsewhere
            lines.append("")
            tags.append(("blank",))
        for a in g.agents:
            lines.append(f"{field('user-agent')}: {a}")
            tags.append(("ua", g.gid))
        for r in g.rules:
            lines.append(f"{field(r.kind)}: {r.value}")
            tags.append(("rule", r.rid, r.kind, r.value))
    return lines, tags


def join_lines(lines: Iterable[str], eol: str = "\n", final_eol: bool = True) -> str:
    lines = list(lines)
    text = eol.join(lines)
    return text + eol if final_eol and lines else text


# ---------------------------------------------------------------------------
# wild files (robustness, oracle)
# ---------------------------------------------------------------------------

WILD_FIELDS = (
    "user-agent", "User-Agent", "USER-AGENT", "useragent", "user agent", "user_agent",
    "allow", "Allow", "ALLOW", "allo",
    "disallow", "Disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw", "disallows",
    "sitemap", "Sitemap", "site-map", "crawl-delay", "host", "noindex", "", "#user-agent",
)
WILD_SEPS = (":", ": ", " : ", "\t:\t", " ", "\t", "", "::", ":  ", " :")
WILD_AGENTS = ("*", "foo", "FOO", "Foo", "foo/1.2", "foo*", "foo bar", "bar", "foobar",
               "foo-bar", "foo_bar", "", "*foo", " foo", "googlebot", "Googlebot-News", "b\u00e4r")
WILD_PATH_PIECES = ("/", "/", "/", "a", "b", "A", "*", "*", "$", "%", "%2F", "%2f", "%41", "%c3%a4",
                    "%C3%A4", "\u00e4", "\u65e5", "?", "=", "&", ".", "index.html", "index.htm",
                    " ", "#", "\t", "~", ":", "-", "_", ";", "\\")
QUERY_WILD_AGENTS = ("foo", "FOO", "Foo", "bar", "foobar", "foo-bar", "foo_bar", "baz", "*", "",
                     "foo bar", "foo/1.2", "googlebot", "Googlebot-News", "b\u00e4r", "foo*")

wild_paths = st.lists(st.sampled_from(WILD_PATH_PIECES), max_size=7).map("".join)
wild_pattern_values = st.one_of(
    wild_paths.map(lambda p: "/" + p), wild_paths, st.just(""),
)


#: junk, including characters str.splitlines() would break on but robots.txt must not (P1)
JUNK_LINES = ("<html>", "<p>user-agent: foo</p>", "garbage", ":", "   ", "\u00a0disallow: /",
              "\ufeffuser-agent: *", "\x00", "disallow", "# x\x0bdisallow: /", "#\x0cuser-agent: *",
              "# \u2028disallow: /", "# \x85disallow: /", "#\x1cdisallow: /", "#\x1euser-agent: foo",
              "disallow: /a\x0bb", "user-agent: foo\u2029bar", "allow: /\x85")


@st.composite
def wild_line_parts(draw) -> tuple[str, str, str]:
    """(prefix, field, rest): the line is prefix + field + rest; field may be "" for lines
    that are not field lines (blank, comments, junk)."""
    kind = draw(st.integers(0, 19))
    if kind == 0:
        return ("", "", "")
    if kind == 1:
        return ("", "", "#" + draw(st.text(max_size=10).map(lambda s: s.replace("\r", "").replace("\n", ""))))
    if kind == 2:
        return ("", "", draw(st.sampled_from(JUNK_LINES)))
    field = draw(st.sampled_from(WILD_FIELDS))
    sep = draw(st.sampled_from(WILD_SEPS))
    lf = field.lower().replace(" ", "").replace("_", "").replace("-", "")
    if "agent" in lf:
        value = draw(st.sampled_from(WILD_AGENTS))
    elif "allo" in lf or "disal" in lf or "dissal" in lf or "diasl" in lf:
        value = draw(wild_pattern_values)
    elif "site" in lf:
        value = draw(st.sampled_from(("http://example.com/sitemap.xml", "/s.xml", "", "https://x.y/a b")))
    else:
        value = draw(st.sampled_from(("5", "0.5", "-1", "x", "", "example.com")))
    lead = draw(st.sampled_from(("", "", "", " ", "\t")))
    trail = draw(st.sampled_from(("", "", "", " ", "\t", " # c", "#", "# x: y")))
    return (lead, field, sep + value + trail)


wild_line = wild_line_parts().map("".join)


@st.composite
def wild_body(draw, max_lines: int = 14) -> bytes:
    """A robots.txt-like byte string: wild lines, mixed terminators, sometimes a BOM or
    stray non-UTF-8 bytes."""
    lines = draw(st.lists(wild_line, max_size=max_lines))
    out = bytearray()
    if draw(st.integers(0, 9)) == 0:
        out += b"\xef\xbb\xbf"
    for line in lines:
        raw = line.encode("utf-8")
        if raw and draw(st.integers(0, 14)) == 0:
            pos = draw(st.integers(0, len(raw)))
            raw = raw[:pos] + draw(st.sampled_from((b"\xff", b"\xc3", b"\x80", b"\xed\xa0\x80", b"\xfe\xff"))) + raw[pos:]
        out += raw
        out += draw(st.sampled_from((b"\n", b"\n", b"\n", b"\r\n", b"\r")))
    if out and draw(st.booleans()):
        out = out.rstrip(b"\r\n")
    return bytes(out)


URL_PREFIXES = ("", "http://example.com", "https://example.com:8080", "//example.com",
                "example.com", "http://example.com?q", "HTTP://EXAMPLE.COM", "ftp://example.com")
wild_urls = st.builds(
    lambda pre, path, frag: pre + path + frag,
    st.sampled_from(URL_PREFIXES),
    st.one_of(wild_paths.map(lambda p: "/" + p), wild_paths),
    st.sampled_from(("", "", "", "#", "#frag", "#a/b")),
)
wild_agents = st.one_of(
    st.sampled_from(QUERY_WILD_AGENTS),
    st.lists(st.sampled_from(QUERY_WILD_AGENTS), max_size=3),
)

# anything at all, including lone surrogates and NUL
any_char = st.one_of(
    st.characters(exclude_categories=()),
    st.characters(categories=("Cs",)),
    st.sampled_from("\x00\r\n\t #*$%/:?\ufeff"),
)
any_text = st.text(any_char, max_size=40)
FRAGMENTS = (b"user-agent", b"allow", b"disallow", b"sitemap", b"crawl-delay", b":", b"*", b"$",
             b"/", b"#", b" ", b"\t", b"%", b"%C3", b"\xef\xbb\xbf", b"\xff", b"\x00", b"\n", b"\r",
             b"\r\n", b"index.html", b"foo", b"a")
robots_like_bytes = st.lists(
    st.one_of(st.sampled_from(FRAGMENTS), st.binary(max_size=4)), max_size=60
).map(b"".join)


# ---------------------------------------------------------------------------
# decision keys
# ---------------------------------------------------------------------------

def decisions(rt, urls: Iterable[str], agents: Iterable) -> list[tuple[bool, int]]:
    return [(d.allowed, d.line) for d in (rt.check(u, a) for u in urls for a in agents)]


def decision_key(d) -> tuple:
    """The observable content of a Decision, comparable across two parses (the Decision
    itself may hold objects compared by identity)."""
    rule = None if d.rule is None else (d.rule.allow, d.rule.pattern, d.rule.line, d.rule.value)
    groups = tuple((g.line, tuple(g.agents)) for g in d.groups)
    return (d.allowed, d.line, rule, groups, d.agent, d.path)


def reference_match(pattern: str, path: str) -> bool:
    """Obviously-correct (quadratic) robots.txt pattern match used as a test oracle:
    '*' = any run, '$' anchors only as the very last character (elsewhere literal), and
    a pattern matches a prefix of the path otherwise (R4, R5)."""
    anchored = pattern.endswith("$")
    if anchored:
        pattern = pattern[:-1]
    n = len(path)
    cur = {0}
    for ch in pattern:
        cur = set(range(min(cur), n + 1)) if ch == "*" else {i + 1 for i in cur if i < n and path[i] == ch}
        if not cur:
            return False
    return n in cur if anchored else True
