"""Deterministic generator of differential cases ``(body: bytes, agents: str | list[str], url: str)``.

The cases stress the parsing (SPEC P1-P7), group (G1-G5) and matching (R1-R6) requirements where
robotrules must agree byte for byte with Google's reference parser (google mode):

* keys: user-agent / allow / disallow / sitemap / unknown keys in random case, the reference's accepted
  typos (useragent, user agent, dissallow, dissalow, disalow, diasllow, disallaw, site-map), keys that
  merely start with a known key ("user-agentx", "allowed"), missing colons (2 or 3 tokens);
* bytes: full and partial BOM, CR / LF / CRLF / mixed line endings, blank lines, comments everywhere
  (also ``#`` inside values), leading/trailing whitespace incl. ``\\v`` ``\\f``, NUL bytes inside lines,
  HTML/junk lines, invalid UTF-8, lines longer than the reference's 16,664-byte line buffer, bodies
  longer than 512,000 bytes (rare);
* patterns: ``*`` and ``$`` (``$`` in the middle, trailing ``*``, ``*$``, only ``$``), index.htm(l)
  allow rules, empty values, no leading slash, percent-encodings (upper/lower hex, %2F, %zz, % at end),
  raw non-ASCII UTF-8;
* groups: several groups for one agent, rules before any user-agent, groups without rules,
  user-agent values like ``*``, ``* foo``, ``*foo``, ``Googlebot/2.1``, ``googlebot*``, ``foo bar``, empty;
* URLs: absolute with ports, userinfo, IPv6 hosts, no path, ``//host/path``, paths only, query,
  params, fragments, ``#`` before the path, ``://`` in the query, odd schemes, spaces, NUL, non-ASCII;
* caller agents: tokens in random case, full UA headers, digits/spaces/slashes, empty, non-ASCII, and
  lists of 2-3 agents (rarely an empty list);
* Python traps: characters that ``str.isspace``/``split``/``splitlines``/``lower``/``int(x, 16)`` treat
  differently from the reference's ASCII-only C code (\x1c-\x1f, \x85, \xa0, U+2028, Kelvin sign, long s,
  Arabic-Indic digits), and random byte edits of rendered bodies.

Vocabularies are small on purpose so that rules, URLs and agents collide (most cases have a matching rule;
``python generate.py --stats`` prints the distribution, measured with the oracle).

Every body has its own ``random.Random`` seeded by ``"{seed}/{profile}/{body_index}"``, so a single case
``profile:body_index.query_index`` can be regenerated directly (``--case``).

Profiles: ``mixed`` (everything), ``syntax`` (line-level quirks, P), ``groups`` (agents and groups, G),
``matching`` (patterns and URLs, R).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from collections.abc import Iterator
from dataclasses import dataclass

DEFAULT_SEED = 20240611
PROFILES = ("mixed", "syntax", "groups", "matching")

MAX_LINE = 2083 * 8  # the reference's line buffer: a line keeps at most MAX_LINE - 1 bytes
MAX_BODY = 512_000

FULL_UA = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

# Whitespace the reference strips around lines, keys and values (absl::ascii_isspace minus CR/LF).
WS = (" ", "\t", "\v", "\f")


def _esc(b: bytes) -> str:
    """Raw bytes as a surrogateescape string (encoded back to the same bytes)."""
    return b.decode("utf-8", "surrogateescape")


E_ACUTE = "\u00e9"  # é, UTF-8 0xC3 0xA9
# Not whitespace for the reference, but str.isspace()/str.split()/str.splitlines() think so.
FAKE_WS = (
    "\x1c", "\x1d", "\x1e", "\x1f", _esc(b"\x85"), _esc(b"\xa0"), "\x85", "\xa0", "\u2028", "\u3000", "\u200b",
)  # fmt: skip
INVALID = (_esc(b"\xff"), _esc(b"\xc3"), _esc(b"\x80"), _esc(b"\xe9"), _esc(b"\xed\xa0\x80"), _esc(b"\xc0\xaf"))

# -- vocabularies ------------------------------------------------------------------------------------

SEGMENTS = (
    "a", "a", "b", "fish", "fish", "Fish", "fish.html", "fish.php", "x.php", "x.PHP", "page",
    "index.htm", "index.html", E_ACUTE, "%C3%A9", "%c3%a9", "%2F", "a%2fb",
)  # fmt: skip
RARE_SEGMENTS = (
    "%zz", "%", "a%", "%2", "a b", "$", "~u", "a:b", "@", "%25", "..", ".", "\u65e5\u672c", "a+b", "%41",
    "A", "fishheads", "catfish", "salmon.htm", "p", "filename.php5", "*",
    # hex look-alikes that int(x, 16) or str.isdigit() would accept but the reference does not
    "%+1", "% a", "%\u0661\u0662", "%\uff11\uff12", "%0x", "%a_", "%1", "%_1", "%C3%a9", "%e9",
)  # fmt: skip

SPECIAL_PATTERNS = (
    "", "", "/", "/", "*", "$", "/$", "*$", "/*", "/*$", "/**", "$$", "/a$b", "/a$/b", "/*.php$",
    "/*.php", "/fish*.php", "/fish*", "/fish/", "/fish", "/index.html", "/a/index.htm",
    "index.html", "/index.htmlx", "/index.htm$", "/a/index.html$", "/a/index.htm*", "/%",
    "/a%", "/%zz", "/%2", "/a%2Fb", "/a%2fb", "/%c3%a9", "/%C3%A9", "/" + E_ACUTE, "fish",
    "a/b", "?", "/?", "/*?", "/a?b", "/a;b", "/*;", "/ ", "/a b", "/p", "/page", "/*.htm",
    "*/fish", "**/a", "/a*b*c$", "/" + INVALID[0], "/a" + INVALID[3], "/*$*", "/$*",
)  # fmt: skip

def _table(pairs):
    return [k for k, _ in pairs], [w for _, w in pairs]


FILE_AGENTS = _table(
    (
        ("*", 55), ("* foo", 2), ("*foo", 2), ("*\tfoo", 1), ("**", 1), ("*/1.0", 1), ("*googlebot", 1),
        ("googlebot", 8), ("Googlebot", 6), ("GOOGLEBOT", 2), ("Googlebot/2.1", 3), ("googlebot*", 3),
        ("Googlebot-News", 4), ("googlebot-news", 3), ("Googlebot-Image", 3), ("googlebot news", 1),
        ("Google bot", 1), ("googlebot;foo", 1), ("googlebot-newsx", 1), ("bingbot", 4), ("GPTBot", 3),
        (FULL_UA, 2), ("FooBot", 4), ("foo_bot", 2), ("foobot2", 2), ("Foo Bot", 1), ("foo bar", 2), ("foo", 2),
        ("", 2), ("123", 1), ("/x", 1), ("\u00dcmlautbot", 1), ("foo-", 1), ("-", 1), ("_", 1),
        ("Otherbot (news)", 1), ("otherbot", 2), ("Mozilla", 1), ("Kbot", 1), ("sbot", 1),
        ("googl\u00e9bot", 1), ("\u212abot", 1),
    )
)

CALLER_AGENTS = (
    "googlebot", "googlebot", "Googlebot", "GOOGLEBOT", "gOoGlEbOt", "googlebot-news", "Googlebot-News",
    "Googlebot-Image", "googlebot-image", "bingbot", "BingBot", "GPTBot", "gptbot", "foobot", "FooBot",
    "foo_bot", "foo", "foo bar", "Googlebot/2.1", FULL_UA, "", "googlebot2", "foobot2",
    "\u00fcmlautbot", "\u00dcmlautbot", "*", "otherbot", "Otherbot (news)", "mozilla", "Mozilla",
    "foo-", "-", "_", "123", "googlebot ", " googlebot", "google\u00e9bot", "googlebot-newsx",
    # Unicode case folding: K (Kelvin sign) lowers to 'k', long s upper-cases to 'S', dotted I lowers to 2 chars
    "\u212abot", "\u017fbot", "kbot", "SBOT", "\u0130bot", "googl", "googlebot\u00a0", "googlebot\x85", "googlebot\x00",
)  # fmt: skip

KEYS = {
    "user-agent": (
        ("user-agent", 70), ("useragent", 6), ("user agent", 6), ("user-agentx", 3), ("user-agent-foo", 2),
        ("user-agents", 2), ("user-agen", 2), ("user_agent", 2), ("user  agent", 1), ("agent", 1),
        ("u\u017fer-agent", 1), ("user-\u212aagent", 1),
    ),
    "allow": (
        ("allow", 80), ("allowed", 4), ("allowance", 2), ("alow", 2), ("allow-foo", 2), ("alloww", 1),
        ("aallow", 1),
    ),
    "disallow": (
        ("disallow", 70), ("dissallow", 4), ("dissalow", 4), ("disalow", 4), ("diasllow", 4), ("disallaw", 4),
        ("disallowed", 3), ("disallow-foo", 2), ("dis allow", 2), ("disalloww", 1), ("disalllow", 1),
        ("dissalloww", 1), ("disalowed", 1), ("di\u017fallow", 1), ("d\u0130sallow", 1),
    ),
    "sitemap": (("sitemap", 70), ("site-map", 15), ("sitemaps", 5), ("site map", 5), ("site_map", 2)),
    "unknown": (
        ("crawl-delay", 20), ("host", 10), ("noindex", 5), ("request-rate", 5), ("clean-param", 3),
        ("foo", 5), ("", 5), ("u", 2), ("us", 2), ("d", 2), ("dis", 2), ("a", 2), ("*", 1),
        ("\ufeffuser-agent", 2), ("\ufeffdisallow", 2), ("x-user-agent", 2), ("-disallow", 1),
    ),
}


KEY_TABLES = {base: _table(pairs) for base, pairs in KEYS.items()}

URL_PREFIXES = _table(
    (
        ("", 36), ("http://example.com", 22), ("https://example.com:8443", 4), ("http://example.com:80", 2),
        ("http://user:pw@example.com", 3), ("http://user@example.com:8080", 1), ("http://[2001:db8::1]", 2),
        ("http://[::1]:8080", 2), ("//example.com", 4), ("//", 1), ("HTTP://EXAMPLE.COM", 2),
        ("ftp://ftp.example.com", 2), ("example.com", 2), ("mailto:", 1), ("foo:", 1), ("h://x", 1),
        ("http://ex ample.com", 1), ("http://ex\u00e4mple.com", 1), ("http:/example.com", 1),
        ("http://example.com?q=a://b", 1), ("file://", 1), ("a://b://c", 1), ("http://a;b@c.com", 1),
        ("http://a?b@c.com", 1),
    )
)

URL_QUERIES = _table(
    (
        ("", 70), ("?id=fish", 5), ("?", 3), ("?a=b://c/d", 3), ("?/a", 2), ("?id=" + E_ACUTE, 1),
        ("?q=a%20b", 1), ("?x=*", 1), ("?$", 1), ("?a=1&b=2", 2), ("?php", 1),
    )
)
URL_PARAMS = _table((("", 88), (";jsessionid=1", 4), (";a", 3), (";", 2), (";/a", 2), (";x://y", 1)))
URL_FRAGMENTS = _table(
    (("", 85), ("#frag", 5), ("#", 2), ("#/a", 2), ("#?x", 1), ("#a://b", 1), ("#" + E_ACUTE, 1), ("##", 1))
)


@dataclass(frozen=True, slots=True)
class Profile:
    p_pre_agent_rules: float = 0.08
    groups: tuple[int, ...] = (0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 4, 4, 5, 6)
    agents_per_group: tuple[int, ...] = (1, 1, 1, 1, 2, 3)
    rules_per_group: tuple[int, ...] = (0, 1, 2, 2, 3, 3, 4, 4, 5, 6, 8)
    p_noise: float = 0.15  # per slot: blank / comment / sitemap / unknown / junk line
    p_typo_key: float = 0.12  # a non-canonical key spelling
    p_missing_colon: float = 0.07
    p_leading_ws: float = 0.08
    p_trailing_ws: float = 0.08
    p_comment: float = 0.08
    p_nul: float = 0.015
    p_long_line: float = 0.01  # per body
    p_huge_body: float = 0.0003  # per body, > 512,000 bytes
    p_bom: float = 0.08
    p_invalid_utf8: float = 0.02
    p_special_pattern: float = 0.25
    p_wild: float = 0.3
    p_derived_path: float = 0.85
    p_derived_agent: float = 0.7
    p_agent_list: float = 0.12
    p_odd_url: float = 0.08
    p_rare_segment: float = 0.06
    key_case_chaos: float = 0.35
    p_mutate: float = 0.03  # random byte edits of the rendered body
    p_fake_ws: float = 0.01  # a character Python (not the reference) counts as whitespace or line break


PROFILE_SETTINGS = {
    "mixed": Profile(),
    "syntax": Profile(
        p_noise=0.3, p_typo_key=0.3, p_missing_colon=0.2, p_leading_ws=0.2, p_trailing_ws=0.2, p_comment=0.2,
        p_nul=0.04, p_fake_ws=0.04, p_mutate=0.2, p_long_line=0.04, p_huge_body=0.0005, p_bom=0.2, p_invalid_utf8=0.06, key_case_chaos=0.6,
        groups=(1, 1, 2, 2, 3), rules_per_group=(1, 2, 3, 3, 4, 5, 6),
    ),
    "groups": Profile(
        p_pre_agent_rules=0.2, groups=(0, 1, 2, 2, 3, 3, 4, 5, 6), agents_per_group=(1, 1, 2, 2, 3, 4),
        rules_per_group=(0, 1, 1, 2, 2, 3, 4, 5), p_derived_agent=0.75, p_agent_list=0.25, p_noise=0.1,
        p_typo_key=0.08, p_missing_colon=0.04, p_special_pattern=0.15,
    ),
    "matching": Profile(
        p_noise=0.05, p_typo_key=0.03, p_missing_colon=0.02, p_leading_ws=0.03, p_trailing_ws=0.03,
        p_comment=0.04, p_nul=0.005, p_long_line=0.005, p_bom=0.03, p_special_pattern=0.35, p_wild=0.5,
        p_derived_path=0.85, p_odd_url=0.12, p_rare_segment=0.12, groups=(1, 1, 1, 2, 2),
        rules_per_group=(1, 2, 3, 4, 5, 6, 8),
    ),
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Case:
    body: bytes
    agents: str | list[str]
    url: str
    case_id: str  # "profile:body_index.query_index"


# -- building blocks ---------------------------------------------------------------------------------


def _rand_case(rng: random.Random, s: str, chaos: float) -> str:
    r = rng.random()
    if r < 1 - chaos:
        return rng.choice((s, s.lower(), s.title(), s.capitalize()))
    if r < 1 - chaos / 2:
        return s.upper()
    return "".join(c.upper() if rng.random() < 0.5 else c.lower() for c in s)


def _segment(rng: random.Random, prof: Profile) -> str:
    if rng.random() < prof.p_rare_segment:
        return rng.choice(RARE_SEGMENTS)
    return rng.choice(SEGMENTS)


def gen_pattern(rng: random.Random, prof: Profile) -> str:
    """An allow/disallow value (before line rendering)."""
    if rng.random() < prof.p_special_pattern:
        p = rng.choice(SPECIAL_PATTERNS)
    else:
        r = rng.random()
        start = "/" if r < 0.86 else ("" if r < 0.92 else "*")
        segs = [_segment(rng, prof) for _ in range(rng.choice((0, 1, 1, 1, 2, 2, 3)))]
        if rng.random() < prof.p_wild and segs:
            i = rng.randrange(len(segs))
            w = rng.random()
            if w < 0.35:
                segs[i] = "*"
            elif w < 0.6:
                segs[i] = "*" + segs[i].lstrip("*")
            elif w < 0.8:
                segs[i] = segs[i] + "*"
            else:
                k = rng.randrange(len(segs[i]) + 1)
                segs[i] = segs[i][:k] + "*" + segs[i][k:]
        p = start + "/".join(segs)
        end = rng.random()
        if end < 0.12:
            p += "/"
        elif end < 0.24:
            p += "$"
        elif end < 0.30:
            p += "*"
        elif end < 0.34:
            p += "*$"
        elif end < 0.37 and segs:
            k = rng.randrange(len(p) + 1)
            p = p[:k] + "$" + p[k:]  # '$' not at the end: a literal
        elif end < 0.40:
            p += "/index.htm" + rng.choice(("", "l", "l$", "x", "$"))
    if rng.random() < 0.03:
        p += rng.choice(("#", "#c", " #x", "#/a"))
    if rng.random() < prof.p_invalid_utf8 / 2:
        k = rng.randrange(len(p) + 1)
        p = p[:k] + rng.choice(INVALID) + p[k:]
    return p


def instantiate(rng: random.Random, prof: Profile, pattern: str) -> str:
    """A URL path that the pattern (probably) matches, sometimes near-misses."""
    p = pattern.split("#", 1)[0].strip(" \t\v\f")
    anchored = p.endswith("$")
    if anchored:
        p = p[:-1]
    out = []
    for ch in p:
        if ch == "*":
            out.append(rng.choice(("", "", "a", "fish", "x/y", "b.php", "/a/")))
        elif "\udc80" <= ch <= "\udcff":  # a raw invalid byte: the reference escapes it to %XX
            out.append(("%%%02X" if rng.random() < 0.8 else "%%%02x") % (ord(ch) - 0xDC00))
        else:
            out.append(ch)
    path = "".join(out)
    if not path.startswith("/"):
        path = "/" + path
    if not anchored or rng.random() < 0.35:
        path += rng.choice(
            ("", "", "", "a", "/", "/b", ".html", ".php", "x", "/index.html", "$", E_ACUTE, "%C3%A9", "/fish")
        )
    r = rng.random()
    if r < 0.05 and len(path) > 1:  # flip the case of one letter
        k = rng.randrange(1, len(path))
        path = path[:k] + path[k].swapcase() + path[k + 1 :]
    elif r < 0.11:  # swap one spelling of é for another
        for a, b in ((E_ACUTE, "%C3%A9"), ("%C3%A9", "%c3%a9"), ("%c3%a9", E_ACUTE), ("%2F", "/"), ("/", "%2F")):
            if a in path and rng.random() < 0.6:
                path = path.replace(a, b, 1)
                break
    elif r < 0.15 and len(path) > 1:  # drop the last character
        path = path[:-1]
    return path


def gen_path(rng: random.Random, prof: Profile) -> str:
    segs = [_segment(rng, prof) for _ in range(rng.choice((0, 1, 1, 2, 2, 3)))]
    path = "/" + "/".join(segs)
    if rng.random() < 0.15:
        path += "/"
    return path


def gen_url(rng: random.Random, prof: Profile, patterns: list[str]) -> str:
    if patterns and rng.random() < prof.p_derived_path:
        path = instantiate(rng, prof, rng.choice(patterns))
    else:
        path = gen_path(rng, prof)
    prefix = rng.choices(*URL_PREFIXES)[0]
    r = rng.random()
    if r < prof.p_odd_url:
        o = rng.random()
        if o < 0.2:
            path = ""  # no path at all
        elif o < 0.35:
            path = path.lstrip("/")  # relative: "a/b", the reference finds the first '/', '?' or ';'
        elif o < 0.5:
            k = rng.randrange(len(path) + 1)
            path = path[:k] + rng.choice((" ", "\x00", "\t", "\n", "\r", "\\", E_ACUTE, "\u65e5", "%00", "\x7f")) + path[k:]
        elif o < 0.6:
            path = "#" + path  # '#' before the path
        elif o < 0.7:
            path = path + "?x=http://example.com/" + path
        elif o < 0.8:
            path = "/" + path  # "//a": looks like a network path when there is no prefix
        elif o < 0.9:
            path = ";" + path.lstrip("/")
        else:
            path = "?" + path.lstrip("/")
    if rng.random() < 0.01:  # urllib.parse strips these, the reference does not
        prefix = rng.choice((" ", "\x00", "\x1f", "\t", "\n")) + prefix
    return (
        prefix
        + path
        + rng.choices(*URL_PARAMS)[0]
        + rng.choices(*URL_QUERIES)[0]
        + rng.choices(*URL_FRAGMENTS)[0]
    )


def _token(value: str) -> str:
    n = 0
    for ch in value:
        if ch.isascii() and (ch.isalpha() or ch in "-_"):
            n += 1
        else:
            break
    return value[:n]


def derive_agent(rng: random.Random, value: str) -> str:
    """A caller agent made from a user-agent value of the file (mostly one that selects its group)."""
    tok = _token(value)
    r = rng.random()
    if r < 0.72:
        return _rand_case(rng, tok, 0.4)
    if r < 0.8:
        return value
    if r < 0.86:
        return tok + rng.choice(("/2.1", " x", "2", "-news", "x", "*"))
    if r < 0.9:
        return tok[:-1]
    if r < 0.95:
        return f"Mozilla/5.0 (compatible; {tok}/2.1)"
    if r < 0.97:  # letters whose Unicode case mapping lands on ASCII
        return tok.replace("k", "\u212a").replace("K", "\u212a").replace("s", "\u017f").replace("i", "\u0130")
    return tok.upper()


def gen_query(rng: random.Random, prof: Profile, patterns: list[str], groups: list[Group]) -> tuple[str | list[str], str]:
    """Aim at one group: an agent that selects it and a URL that one of its rules matches (or nearly).

    A caller that names no group falls back to the ``*`` group(s), so its URL comes from their rules.
    """
    g_agents, g_patterns = rng.choice(groups) if groups else ([], [])
    specific = [v for v in g_agents if _token(v)]
    star = [p for ag, ps in groups if any(v.startswith("*") for v in ag) for p in ps]
    p_derived = prof.p_derived_agent if star else (1 + prof.p_derived_agent) / 2
    if specific and rng.random() < p_derived:
        agent = derive_agent(rng, rng.choice(specific))
        targets = g_patterns
    else:
        agent = rng.choice(CALLER_AGENTS)
        targets = star
    if rng.random() < prof.p_agent_list:
        others = [rng.choice(CALLER_AGENTS) for _ in range(rng.choice((1, 1, 2)))]
        if groups and rng.random() < 0.5:
            others[0] = derive_agent(rng, rng.choice([v for ag, _ in groups for v in ag] or ["foo"]))
        agents: str | list[str] = [agent, *others] if rng.random() > 0.02 else []  # [] = no agent at all
        rng.shuffle(agents)
    else:
        agents = agent
    if not targets or rng.random() < 0.15:
        targets = patterns
    return agents, gen_url(rng, prof, targets)


def render(rng: random.Random, prof: Profile, base: str, value: str) -> str:
    """One ``key: value`` line with random spelling, case, separators, whitespace and comment."""
    keys, weights = KEY_TABLES[base]
    key = rng.choices(keys, weights)[0] if rng.random() < prof.p_typo_key else keys[0]
    if base == "unknown" and key == keys[0]:
        key = rng.choices(keys, weights)[0]
    key = _rand_case(rng, key, prof.key_case_chaos)
    if rng.random() < prof.p_missing_colon:
        sep = rng.choice((" ", "\t", "  ", " \t", "\t\t"))
        if rng.random() < 0.1:
            sep = rng.choice(("\v", "\f", " \v"))  # not a separator for a missing colon
    else:
        r = rng.random()
        before = "" if r < 0.85 else rng.choice((" ", "\t", "  ", "\v"))
        r = rng.random()
        after = " " if r < 0.75 else rng.choice(("", "", "\t", "  ", " \t ", "\f", ":"))
        sep = before + ":" + after
    line = key + sep + value
    if rng.random() < prof.p_leading_ws:
        line = rng.choice((*WS, "  ", " \t", "\v ", "\f\f")) + line
    if rng.random() < prof.p_trailing_ws:
        line += rng.choice((*WS, "  ", "\t ", " \v"))
    if rng.random() < prof.p_fake_ws:
        k = rng.choice((0, len(key), len(key) + len(sep), len(line)))
        line = line[:k] + rng.choice(FAKE_WS) + line[k:]
    if rng.random() < prof.p_comment:
        line += rng.choice(("#", " # comment", "\t#x: y", "# Disallow: /", "#\t", " #" + E_ACUTE, "##"))
    if rng.random() < prof.p_nul:
        k = rng.randrange(len(line) + 1)
        line = line[:k] + "\x00" + line[k:]
    return line


JUNK = (
    "<html>", "<head><title>404 Not Found</title></head>", "<body>", "</html>", "<!DOCTYPE html>",
    "Disallow /a /b", "Disallow", "User-agent", "Allow", "::", ":", ": /a", ":/fish", "foo", "a b c",
    "User-agent googlebot bingbot", "Disallow /a#b c", "-", "Sitemap", "<p>Disallow: /a</p>",
    "Disallow = /a", "Disallow; /a", "*", "$", "/", "Disallow:/a:b", "\x00Disallow: /", "Disallow\x00: /",
    _esc(b"\xff\xfe") + "Disallow: /", _esc(b"\xef\xbb\xbf") + "Disallow: /fish", _esc(b"\xef\xbb\xbf"),
    "User-agent*", "Disallow/", "Disallow:/\x00", E_ACUTE, "\u2028", "\x85Disallow: /",
    "\xa0Disallow: /a", "Disallow:\xa0/a",
)  # fmt: skip
COMMENTS = ("#", "# comment", "#User-agent: *", "# Disallow: /", "  # indented", "\t#", "#" + E_ACUTE, "###")
SITEMAP_VALUES = ("http://example.com/sitemap.xml", "https://other.example/s.xml", "/sitemap.xml", "", "x y")
UNKNOWN_VALUES = ("10", "1/5", "example.com", "/a", "", "0.5", "foo bar", "*")


def gen_noise(rng: random.Random, prof: Profile) -> str:
    r = rng.random()
    if r < 0.3:
        return rng.choice(("", "", "", " ", "\t", "  ", "\v", "\f", " \t "))
    if r < 0.5:
        return rng.choice(COMMENTS)
    if r < 0.62:
        return render(rng, prof, "sitemap", rng.choice(SITEMAP_VALUES))
    if r < 0.82:
        return render(rng, prof, "unknown", rng.choice(UNKNOWN_VALUES))
    if r < 0.97:
        return rng.choice(JUNK)
    return "".join(_esc(bytes([rng.randrange(256)])) for _ in range(rng.randrange(1, 12))).replace(
        "\n", ""
    ).replace("\r", "")


def _long_line(rng: random.Random, prof: Profile, patterns: list[str]) -> str:
    """A line around the reference's line-length limit (MAX_LINE - 1 bytes are kept)."""
    kind = rng.random()
    key = rng.choice(("Disallow: ", "Allow: ", "disallow:", "Disallow:   "))
    target = MAX_LINE + rng.randint(-6, 6) if rng.random() < 0.8 else rng.randint(MAX_LINE, 3 * MAX_LINE)
    if kind < 0.6:
        fill = rng.choice(("a", "fish/", "ab"))  # no '*' fill: the reference is O(stars * path)
        body = "/" + (fill * (target // len(fill) + 2))
        body = body[: max(1, target - len(key) + rng.randint(-3, 3))]
        if rng.random() < 0.3:  # a '*' late in the pattern (early ones make the reference quadratic)
            body = body[:-4] + "*" + body[-3:]
        tail = rng.choice(("", "$", "b", "*", "/x", "\u00e9", "%2F"))  # the tail may fall past the limit
        value = body + tail
        patterns.append(value)
        return key + value
    if kind < 0.8:
        return "#" + "x" * target + "\nDisallow: /after-long-comment"
    if kind < 0.9:
        return "User-agent: " + "a" * (target - 12) + rng.choice(("googlebot", "", " *"))
    return rng.choice(("User-agent: *", "User-agent: googlebot")) + " " * (target - 12) + "x"


def _ua_value(rng: random.Random) -> str:
    return rng.choices(*FILE_AGENTS)[0]


Group = tuple[list[str], list[str]]  # (user-agent values, allow/disallow values) as generated


def gen_body(rng: random.Random, prof: Profile) -> tuple[bytes, list[str], list[Group]]:
    """Return (body, all allow/disallow values, groups as generated)."""
    lines: list[str] = []
    patterns: list[str] = []
    groups: list[Group] = []

    def noise() -> None:
        while rng.random() < prof.p_noise:
            lines.append(gen_noise(rng, prof))

    def rule() -> None:
        v = gen_pattern(rng, prof)
        patterns.append(v)
        if groups:
            groups[-1][1].append(v)
        lines.append(render(rng, prof, "allow" if rng.random() < 0.45 else "disallow", v))

    noise()
    if rng.random() < prof.p_pre_agent_rules:
        for _ in range(rng.randint(1, 2)):
            rule()
            noise()
    for _ in range(rng.choice(prof.groups)):
        agents: list[str] = []
        groups.append((agents, []))
        for _ in range(rng.choice(prof.agents_per_group)):
            v = _ua_value(rng)
            agents.append(v)
            lines.append(render(rng, prof, "user-agent", v))
            noise()
        for _ in range(rng.choice(prof.rules_per_group)):
            rule()
            noise()
    if rng.random() < prof.p_long_line:
        long_patterns: list[str] = []
        lines.insert(rng.randrange(len(lines) + 1), _long_line(rng, prof, long_patterns))
        patterns += long_patterns
        for g in groups:
            g[1].extend(long_patterns)

    r = rng.random()
    if r < 0.55:
        text = "\n".join(lines)
    elif r < 0.73:
        text = "\r\n".join(lines)
    elif r < 0.83:
        text = "\r".join(lines)
    else:
        seps = ("\n", "\r\n", "\r", "\n\r", "\r\r\n", "\n\n")
        parts = []
        for ln in lines:
            parts.append(ln)
            parts.append(rng.choice(seps))
        text = "".join(parts[:-1]) if parts else ""
    if rng.random() < 0.8 and lines:
        text += rng.choice(("\n", "\n", "\r\n", "\r", "\n\n"))
    data = text.encode("utf-8", "surrogateescape")

    r = rng.random()
    if r < prof.p_bom:
        data = b"\xef\xbb\xbf" + data
    elif r < prof.p_bom * 1.4:
        data = rng.choice((b"\xef", b"\xef\xbb", b"\xef\xbb\xbf\xef\xbb\xbf", b"\xef\xbf", b"\xbb\xbf", b" \xef\xbb\xbf")) + data

    if data and rng.random() < prof.p_mutate:
        data = _mutate(rng, data)
    if rng.random() < prof.p_huge_body:
        data = _huge(rng, data, patterns)
    return data, patterns, groups


MUTATION_BYTES = (
    b":", b"#", b"*", b"$", b"/", b"\r", b"\n", b"\r\n", b" ", b"\t", b"\x00", b"%", b"\xef\xbb\xbf", b"\xc3",
    b"\x0b", b"a", b"-", b"?", b"index.html", b"user-agent:", b"disallow:", b"allow:", b"*\n", b"\x85",
)  # fmt: skip


def _mutate(rng: random.Random, data: bytes) -> bytes:
    """A few random byte edits (insert / delete / replace) with structurally meaningful bytes."""
    buf = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(len(buf) + 1)
        op = rng.random()
        if op < 0.45:
            buf[k:k] = rng.choice(MUTATION_BYTES)
        elif op < 0.75:
            del buf[k : k + rng.randint(1, 3)]
        else:
            buf[k : k + 1] = rng.choice(MUTATION_BYTES)
    return bytes(buf)


def _huge(rng: random.Random, data: bytes, patterns: list[str]) -> bytes:
    """A body longer than 512,000 bytes with a rule straddling the limit (SPEC F9), sometimes cutting a
    multi-byte UTF-8 character in two."""
    head = b"User-agent: *\nAllow: /fish/keep\n"
    if rng.random() < 0.5:
        rules = b"Disallow: /fish\nDisallow: /a\n"
        patterns += ["/fish", "/a", "/fish/keep"]
    else:
        rules = ("Disallow: /" + E_ACUTE * 6 + "\nDisallow: /a\n").encode()
        patterns += ["/" + E_ACUTE * 6, "/%C3%A9%C3%A9%C3", "/" + "%C3%A9" * 6, "/a"]
    pad = MAX_BODY - len(head) - 2 - len(rules) // 2 + rng.randint(-25, 25)
    return head + b"#" + b"x" * pad + b"\n" + rules + data


# -- public ------------------------------------------------------------------------------------------


def body_queries(seed: int, profile: str, index: int) -> tuple[bytes, list[tuple[str | list[str], str]]]:
    """Body number ``index`` of (seed, profile) with its queries."""
    prof = PROFILE_SETTINGS[profile]
    rng = random.Random(f"{seed}/{profile}/{index}")
    body, patterns, groups = gen_body(rng, prof)
    queries = []
    for _ in range(rng.choice((2, 3, 4, 4, 5, 6))):
        queries.append(gen_query(rng, prof, patterns, groups))
    return body, queries


def iter_cases(seed: int, profile: str, n_cases: int) -> Iterator[Case]:
    """``n_cases`` cases; consecutive cases share a body (the same ``bytes`` object)."""
    produced = 0
    index = 0
    while produced < n_cases:
        body, queries = body_queries(seed, profile, index)
        for j, (agents, url) in enumerate(queries):
            if produced >= n_cases:
                return
            yield Case(body, agents, url, f"{profile}:{index}.{j}")
            produced += 1
        index += 1


def get_case(seed: int, case_id: str) -> Case:
    profile, rest = case_id.split(":")
    index, j = (int(x) for x in rest.split("."))
    body, queries = body_queries(seed, profile, index)
    agents, url = queries[j]
    return Case(body, agents, url, case_id)


def env_seed() -> int:
    return int(os.environ.get("ROBOTRULES_DIFF_SEED", DEFAULT_SEED))


def env_cases() -> int:
    return int(os.environ.get("ROBOTRULES_DIFF_CASES", "100000"))


def _oracle():
    try:
        from . import oracle  # type: ignore[import-not-found]
    except ImportError:
        import oracle  # type: ignore[no-redef]
    return oracle


def stats(seed: int, n_cases: int) -> None:
    """Print, per profile, the fraction of cases where a rule decided and where the URL is disallowed."""
    oracle = _oracle()
    per = max(1, n_cases // len(PROFILES))
    tot = [0, 0, 0, 0, 0]
    print(f"seed={seed} cases={per * len(PROFILES)}")
    for profile in PROFILES:
        n = matched = disallowed = lists = long_bodies = 0
        last_body = None
        for c in iter_cases(seed, profile, per):
            allowed, line = oracle.check(c.body, c.agents, c.url)
            n += 1
            matched += line != 0
            disallowed += not allowed
            lists += not isinstance(c.agents, str)
            if c.body is not last_body:
                last_body = c.body
                long_bodies += len(c.body) > MAX_BODY
        for i, v in enumerate((n, matched, disallowed, lists, long_bodies)):
            tot[i] += v
        print(
            f"  {profile:9s} n={n:6d} rule matched={matched / n:6.1%} disallowed={disallowed / n:6.1%} "
            f"agent lists={lists / n:5.1%} bodies>512000={long_bodies}"
        )
    n, matched, disallowed, lists, long_bodies = tot
    print(f"  {'all':9s} n={n:6d} rule matched={matched / n:6.1%} disallowed={disallowed / n:6.1%}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=env_seed())
    ap.add_argument("--cases", type=int, default=env_cases())
    ap.add_argument("--stats", action="store_true", help="distribution measured with the oracle")
    ap.add_argument("--case", help="print one case, e.g. mixed:123.2, with the oracle's and robotrules' answers")
    ap.add_argument("--profile", choices=PROFILES, default="mixed")
    ap.add_argument("--show", type=int, default=0, help="print the first N cases of --profile")
    args = ap.parse_args(argv)
    if args.case:
        c = get_case(args.seed, args.case)
        print(f"body   = {c.body!r}\nagents = {c.agents!r}\nurl    = {c.url!r}")
        print(f"oracle (allowed, line) = {_oracle().check(c.body, c.agents, c.url)}")
        try:
            import robotrules

            d = robotrules.parse(c.body).check(c.url, c.agents)
            print(f"robotrules (allowed, line) = {(d.allowed, d.line)}")
        except Exception as e:  # a report tool
            print(f"robotrules: {type(e).__name__}: {e}")
        return 0
    if args.show:
        for c in iter_cases(args.seed, args.profile, args.show):
            print(c.case_id, repr(c.body)[:300], repr(c.agents), repr(c.url))
        return 0
    stats(args.seed, args.cases)
    return 0


if __name__ == "__main__":
    sys.exit(main())
