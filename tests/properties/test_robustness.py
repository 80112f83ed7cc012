"""Robustness properties: the parser and the matcher are total, deterministic and their
results immutable.

SPEC P2/P3 (never crash on any bytes, invalid lines ignored), P7 (be lenient), F9, and
DESIGN 8/10 (parsed results immutable and shareable; the parser never raises).
"""

from __future__ import annotations

import array
import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotrules
from tests.hypo import examples

from ._strategies import (
    MODES,
    any_text,
    decision_key,
    robots_like_bytes,
    wild_agents,
    wild_body,
    wild_urls,
)

agents_any = st.one_of(
    any_text,
    st.lists(any_text, max_size=4),
    st.lists(any_text, max_size=4).map(tuple),
)
urls_any = st.one_of(any_text, wild_urls, any_text.map(lambda s: "/" + s),
                     any_text.map(lambda s: "http://example.com/" + s))


def _lines_of(body: bytes) -> int:
    body = body[:512_000]
    return body.replace(b"\r\n", b"\n").replace(b"\r", b"\n").count(b"\n") + 1


def _exercise(rt, url, agent, nlines: int | None = None) -> None:
    d = rt.check(url, agent)
    assert isinstance(d.allowed, bool)
    assert isinstance(d.line, int) and d.line >= 0
    if nlines is not None:
        assert d.line <= nlines
    assert rt.allowed(url, agent) is d.allowed
    assert rt.check(url, agent) == d  # deterministic
    cd = rt.crawl_delay(agent)
    assert cd is None or isinstance(cd, float)
    assert all(isinstance(s, str) for s in rt.sitemaps)
    for diag in rt.diagnostics:
        assert isinstance(diag.line, int)
        diag.severity, diag.code, diag.message  # noqa: B018  (attributes exist)


@settings(max_examples=examples(300), deadline=None)
@given(body=st.one_of(st.binary(max_size=600), robots_like_bytes, wild_body()), mode=st.sampled_from(MODES))
def test_parse_never_raises_on_arbitrary_bytes(body, mode):
    """P3: non-UTF-8 bytes may parse wrongly but never crash; P2: junk lines are ignored."""
    rt = robotrules.parse(body, mode=mode)
    _exercise(rt, "/", "foo", _lines_of(body))


@settings(max_examples=examples(200), deadline=None)
@given(body=st.text(st.one_of(st.sampled_from("\n\r:*$/#"), st.characters(exclude_categories=()),
                              st.characters(categories=("Cs",))), max_size=300),
       mode=st.sampled_from(MODES))
def test_parse_never_raises_on_arbitrary_text_including_lone_surrogates(body, mode):
    """P3: str bodies (encoded with surrogatepass, per the API contract) never crash."""
    rt = robotrules.parse(body, mode=mode)
    _exercise(rt, "/", "foo", _lines_of(body.encode("utf-8", "surrogatepass")))


@settings(max_examples=examples(300), deadline=None)
@given(body=st.one_of(wild_body(), robots_like_bytes), url=urls_any, agent=agents_any,
       mode=st.sampled_from(MODES))
def test_check_and_allowed_never_raise_for_any_url_and_agent(body, url, agent, mode):
    """R1-R6, G2-G3: any str url and agent (empty, non-ASCII, NUL, lone surrogates) and any
    list/tuple of agents gives a bool decision and a line within the file; allowed()
    agrees with check(); the same query gives the same Decision."""
    rt = robotrules.parse(body, mode=mode)
    _exercise(rt, url, agent, _lines_of(body))


@settings(max_examples=examples(150), deadline=None)
@given(body=wild_body(), urls=st.lists(wild_urls, min_size=1, max_size=4), agent=wild_agents,
       mode=st.sampled_from(MODES))
def test_parsing_twice_gives_equal_decisions(body, urls, agent, mode):
    """Determinism: two parses of the same bytes decide every query identically."""
    a, b = robotrules.parse(body, mode=mode), robotrules.parse(body, mode=mode)
    for u in urls:
        assert decision_key(a.check(u, agent)) == decision_key(b.check(u, agent))
    assert a.sitemaps == b.sitemaps
    assert a.crawl_delay(agent) == b.crawl_delay(agent)
    assert [(d.line, d.code) for d in a.diagnostics] == [(d.line, d.code) for d in b.diagnostics]


@settings(max_examples=examples(50), deadline=None)
@given(body=wild_body(), url=wild_urls, agent=wild_agents, mode=st.sampled_from(MODES))
def test_same_input_gives_equal_decision_objects_across_parses(body, url, agent, mode):
    """Determinism (brief: "same input, same Decision"): Decisions from two parses of the
    same bytes compare equal as objects, not only field by field (no identity-compared
    parts inside Decision/Group)."""
    a, b = robotrules.parse(body, mode=mode), robotrules.parse(body, mode=mode)
    assert a.check(url, agent) == b.check(url, agent)


@settings(max_examples=examples(150), deadline=None)
@given(text=st.text(st.one_of(st.sampled_from("\n\r:*$/# abuserntdlow-"), any_text.filter(bool).map(lambda s: s[0])),
                    max_size=200),
       urls=st.lists(wild_urls, min_size=1, max_size=3), agent=wild_agents, mode=st.sampled_from(MODES))
def test_str_body_decides_like_its_utf8_bytes(text, urls, agent, mode):
    """API contract: a str body is parsed as text.encode('utf-8', 'surrogatepass')."""
    a = robotrules.parse(text, mode=mode)
    b = robotrules.parse(text.encode("utf-8", "surrogatepass"), mode=mode)
    for u in urls:
        assert decision_key(a.check(u, agent)) == decision_key(b.check(u, agent))
    assert a.sitemaps == b.sitemaps


@settings(max_examples=examples(50), deadline=None)
@given(mode=st.text(max_size=12).filter(lambda m: m.strip().lower() not in MODES))
def test_unknown_mode_raises_value_error(mode):
    """Modes: only "google", "rfc9309", "legacy1994"; anything else is a ValueError."""
    with pytest.raises(ValueError):
        robotrules.parse(b"user-agent: *\ndisallow: /\n", mode=mode)


# --------------------------------------------------------------------------- immutability

_MUTABLE = (list, dict, set, bytearray, array.array)
_ATOMS = (str, bytes, int, float, bool, complex, type(None), range)


def _public_attrs(obj) -> list[str]:
    if dataclasses.is_dataclass(obj):
        return [f.name for f in dataclasses.fields(obj) if not f.name.startswith("_")]
    names = []
    for name in dir(obj):
        if name.startswith("_"):
            continue
        try:
            value = getattr(obj, name)
        except Exception:
            continue
        if not callable(value):
            names.append(name)
    for name in getattr(type(obj), "__slots__", ()):
        if not name.startswith("_") and name not in names:
            names.append(name)
    return names


def _is_frozen(obj) -> list[str]:
    """Attribute names that could be set or deleted (should be none)."""
    writable = []
    for name in [*_public_attrs(obj), "zz_new_attribute"]:
        try:
            old = getattr(obj, name, None)
            setattr(obj, name, old)
        except (AttributeError, TypeError):
            continue
        writable.append(name)
    return writable


def _walk(obj, path: str, seen: set[int], out: list[tuple[str, object]]) -> None:
    """Every non-atomic object reachable through public attributes, tuples and frozensets."""
    if isinstance(obj, _ATOMS) or id(obj) in seen or len(out) > 400:
        return
    seen.add(id(obj))
    out.append((path, obj))
    if isinstance(obj, (tuple, frozenset, *_MUTABLE)):
        items = list(obj.values()) if isinstance(obj, dict) else list(obj)
        for i, x in enumerate(items[:20]):
            _walk(x, f"{path}[{i}]", seen, out)
        return
    if isinstance(obj, type) or callable(obj):
        return
    for name in _public_attrs(obj):
        try:
            value = getattr(obj, name)
        except Exception:
            continue
        _walk(value, f"{path}.{name}", seen, out)


def _hash_outcome(obj):
    try:
        return ("hash", hash(obj))
    except TypeError:
        return ("unhashable",)


BODY = (b"user-agent: foo\nallow: /a\ndisallow: /\n\nuser-agent: *\ndisallow: /x$\ncrawl-delay: 2\n"
        b"sitemap: http://example.com/s.xml\nfoo bar baz\ndisalow: /typo\n")


@pytest.mark.parametrize("mode", MODES)
def test_parsed_objects_are_immutable(mode):
    """DESIGN 8: RobotsTxt, Decision and everything reachable from them through public
    attributes (Rule, Group, Diagnostic, ...) rejects attribute writes and holds no
    list/dict/set; the lists handed out by sitemaps and diagnostics are copies (mutating
    them does not change the parsed file)."""
    rt = robotrules.parse(BODY, mode=mode)
    reachable: list[tuple[str, object]] = []
    seen: set[int] = set()
    _walk(rt, "RobotsTxt", seen, reachable)
    for url, agent in (("/a", "foo"), ("/x", "bar"), ("/typo", ["foo", "bar"])):
        _walk(rt.check(url, agent), f"Decision({url!r})", seen, reachable)
    problems = []
    for path, obj in reachable:
        if isinstance(obj, _MUTABLE):
            if not path.startswith("RobotsTxt.sitemaps") and not path.startswith("RobotsTxt.diagnostics"):
                problems.append(f"{path} is a {type(obj).__name__}")
            continue
        if isinstance(obj, (tuple, frozenset)):
            continue
        writable = _is_frozen(obj)
        if writable:
            problems.append(f"{path} ({type(obj).__name__}) accepts writes to {writable}")
    assert not problems, "mutable parsed state:\n" + "\n".join(problems)

    before_sitemaps, before_diags = list(rt.sitemaps), list(rt.diagnostics)
    rt.sitemaps.append("http://evil.example/s.xml")
    rt.diagnostics.clear()
    assert rt.sitemaps == before_sitemaps
    assert list(rt.diagnostics) == before_diags


@settings(max_examples=examples(100), deadline=None)
@given(body=wild_body(), url=wild_urls, agent=wild_agents, mode=st.sampled_from(MODES))
def test_hashability_is_consistent(body, url, agent, mode):
    """DESIGN 8: each parsed object is either always unhashable or hashes stably, and
    equal objects from two parses of the same input hash equal."""
    a, b = robotrules.parse(body, mode=mode), robotrules.parse(body, mode=mode)
    da, db = a.check(url, agent), b.check(url, agent)
    pairs = [(a, b), (da, db)]
    if da.rule is not None and db.rule is not None:
        pairs.append((da.rule, db.rule))
    pairs += list(zip(da.groups, db.groups, strict=True))
    pairs += list(zip(a.diagnostics, b.diagnostics, strict=True))
    for x, y in pairs:
        hx = _hash_outcome(x)
        assert _hash_outcome(x) == hx
        assert (_hash_outcome(y)[0] == hx[0]) or x is y
        if x == y and hx[0] == "hash":
            assert hash(x) == hash(y)


@settings(max_examples=examples(100), deadline=None)
@given(body=wild_body(), urls=st.lists(wild_urls, min_size=1, max_size=5), agent=wild_agents,
       mode=st.sampled_from(MODES))
def test_checking_never_changes_the_parsed_object(body, urls, agent, mode):
    """DESIGN 8: reading never writes a memo: after any number of checks the object still
    equals a fresh parse (when RobotsTxt compares structurally) and gives the same answers."""
    rt = robotrules.parse(body, mode=mode)
    first = [rt.check(u, agent) for u in urls]
    again = [rt.check(u, agent) for u in reversed(urls)][::-1]
    assert first == again
    fresh = robotrules.parse(body, mode=mode)
    if type(rt).__eq__ is not object.__eq__:
        assert rt == fresh


@settings(max_examples=examples(150), deadline=None)
@given(s=any_text)
def test_user_agent_token_never_raises(s):
    """G3: product-token extraction is total on any str."""
    tok = robotrules.user_agent_token(s)
    assert isinstance(tok, str)


@settings(max_examples=examples(150), deadline=None)
@given(host=st.from_regex(r"[a-z0-9]{1,10}(\.[a-z0-9]{1,8}){0,2}", fullmatch=True),
       scheme=st.sampled_from(("http", "https", "HTTP", "ftp")),
       port=st.sampled_from(("", ":80", ":443", ":8080", ":21")),
       path=st.text("abc/?=&#%.", max_size=15))
def test_robots_url_is_idempotent_and_ends_in_robots_txt(host, scheme, port, path):
    """S1-S3: robots_url of an absolute URL is <scheme>://<host>[:port]/robots.txt, and the
    robots.txt URL governs itself."""
    url = f"{scheme}://{host}{port}/{path}"
    r = robotrules.robots_url(url)
    assert isinstance(r, str) and r.endswith("/robots.txt")
    assert robotrules.robots_url(r) == r


@settings(max_examples=examples(200), deadline=None)
@given(url=any_text)
def test_robots_url_returns_str_or_raises_value_error(url):
    """robots_url on arbitrary text never raises anything but ValueError."""
    try:
        r = robotrules.robots_url(url)
    except ValueError:
        return
    assert isinstance(r, str)
