"""Patterns come from strangers: matching is linear, pinned by counting steps, not seconds.

DESIGN 7; R4/R5 (semantics checked against a brute-force matcher on the side).

Contract (robotrules.core.pattern): ``Pattern.matches`` touches the path only through
``find``, ``startswith``, ``endswith``, ``len`` and ``==``. ``CountingStr`` overrides those to
count the characters each call can scan, and flags any other use of the path (which would
make the count meaningless). Cost model per call, plus 1 per call:
  find(sub, start): from start to the found index + len(sub), or to the end if not found;
  startswith/endswith(x): len(x); ==: len(path); len(): 0.
Bound asserted: work <= C * (len(path) + len(pattern) + 1), C = 4, for every pattern.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import robotrules
from tests.hypo import examples

from ._strategies import reference_match

pytestmark = pytest.mark.skipif(
    robotrules.core.COMPILED,
    reason="compiled core: a str subclass cannot observe the C-level string calls it counts; "
    "the same source is step-counted in the pure-Python build (editable install)",
)

C = 4
N = 4000


class WorkLimitExceeded(BaseException):
    """Raised from inside matches() once the budget is spent, so a super-linear matcher
    fails fast instead of hanging the suite (BaseException: not swallowed by `except Exception`)."""


class Meter:
    def __init__(self, limit: int | None = None) -> None:
        self.work = 0
        self.calls = 0
        self.limit = limit
        self.violations: list[str] = []


class CountingStr(str):
    """A str that charges every scan of itself to a Meter (see module docstring)."""

    meter: Meter

    def __new__(cls, value: str, meter: Meter):
        self = super().__new__(cls, value)
        self.meter = meter
        return self

    def _charge(self, n: int) -> None:
        meter = self.meter
        meter.calls += 1
        meter.work += max(0, n) + 1
        if meter.limit is not None and meter.work > meter.limit:
            raise WorkLimitExceeded(meter.work)

    def find(self, sub, start=None, end=None):
        idx = str.find(self, sub, start, end)
        n = str.__len__(self)
        begin = 0 if start is None else (start if start >= 0 else max(0, n + start))
        stop = n if end is None else min(n, end)
        self._charge((idx + len(sub) - begin) if idx >= 0 else (stop - begin))
        return idx

    def startswith(self, prefix, *args):
        self._charge(sum(map(len, prefix)) if isinstance(prefix, tuple) else len(prefix))
        return str.startswith(self, prefix, *args)

    def endswith(self, suffix, *args):
        self._charge(sum(map(len, suffix)) if isinstance(suffix, tuple) else len(suffix))
        return str.endswith(self, suffix, *args)

    def __len__(self):
        self._charge(0)
        return str.__len__(self)

    def __eq__(self, other):
        self._charge(str.__len__(self))
        return str.__eq__(self, other)

    def __ne__(self, other):
        self._charge(str.__len__(self))
        return str.__ne__(self, other)

    def __hash__(self):
        self.meter.violations.append("__hash__")
        return str.__hash__(self)


def _flag(name):
    def method(self, *args, **kwargs):
        self.meter.violations.append(name)
        return getattr(str, name)(self, *args, **kwargs)

    method.__name__ = name
    return method


for _name in ("__getitem__", "__iter__", "__contains__", "__add__", "__radd__", "__mod__", "__lt__",
              "__le__", "__gt__", "__ge__", "rfind", "index", "rindex", "count", "split", "rsplit",
              "partition", "rpartition", "encode", "lower", "upper", "casefold", "replace", "strip",
              "lstrip", "rstrip", "translate", "removeprefix", "removesuffix", "splitlines", "isascii",
              "join", "format", "__format__", "__getnewargs__", "__reduce__", "__reduce_ex__"):
    setattr(CountingStr, _name, _flag(_name))


def measure(pattern: str, path: str):
    """(result, Meter) of compile_pattern(pattern).matches on a counting copy of path."""
    from robotrules.core.pattern import compile_pattern

    compiled = compile_pattern(pattern)
    meter = Meter(limit=C * (len(path) + len(pattern) + 1))
    try:
        result = compiled.matches(CountingStr(path, meter))
    except WorkLimitExceeded:
        result = None  # assert_linear reports it
    return result, meter


def assert_linear(pattern: str, path: str, meter: Meter) -> None:
    assert meter.violations == [], f"path used outside the contract: {sorted(set(meter.violations))}"
    if pattern.strip("*"):
        assert meter.calls > 0, "pattern decided without touching the path (path copied to a plain str?)"
    bound = C * (len(path) + len(pattern) + 1)
    assert meter.work <= bound, f"work {meter.work} > {bound} for pattern {pattern[:60]!r}... path len {len(path)}"


@settings(max_examples=examples(500), deadline=None)
@given(pattern=st.text("ab/*$", max_size=40), path=st.text("ab/$", max_size=300))
def test_matching_work_is_linear_and_the_answer_right(pattern, path):
    """DESIGN 7, R4: work <= 4*(N+P+1) for any pattern and path; the answer equals the
    brute-force matcher's ('$' anchors only when last)."""
    result, meter = measure(pattern, path)
    assert_linear(pattern, path, meter)
    assert result == reference_match(pattern, path)


@settings(max_examples=examples(200), deadline=None)
@given(unit=st.text("ab", min_size=1, max_size=3), reps=st.integers(1, 60), tail=st.sampled_from(("b", "c", "$", "b$", "")),
       fill=st.text("ab", min_size=1, max_size=3))
def test_repeated_star_segments_stay_linear_on_long_paths(unit, reps, tail, fill):
    """DESIGN 7: '/*u*u*...*u<tail>' against 4,000-char paths made of the same letters."""
    pattern = "/" + ("*" + unit) * reps + tail
    path = "/" + (fill * N)[:N]
    _, meter = measure(pattern, path)
    assert_linear(pattern, path, meter)


A = "/" + "a" * N
ADVERSARIAL = [
    # (pattern, path, expected)
    ("/*a*a*a*a*a*a*a*a*a*b", A, False),
    ("/*a*a*a*a*a*a*a*a*a*b", A + "b", True),
    ("/" + "*a" * 200 + "*b", A, False),
    ("/" + "*" * 1000 + "b", A, False),
    ("/" + "*" * 1000 + "b", A + "b", True),
    ("/" + "*" * 1000 + "$", A, True),
    ("/*a*a*a*a$", A, True),
    ("/*a*a*a*a$", A[:-1] + "b", False),
    ("/" + "a*" * 500 + "b$", A, False),
    ("/" + "a*" * 500 + "b$", A + "b", True),
    ("/*" + "a" * 100 + "b", A, False),
    ("/*" + "a" * 50 + "*" + "a" * 50 + "b", A, False),
    ("/*ab*ab*ab*ab*ac", "/" + "ab" * (N // 2), False),
    ("/*ab*ab*ab*ab*ab$", "/" + "ab" * (N // 2), True),
    ("/" + "*a" * 100 + "$", A, True),
    ("/" + "*a" * 100 + "$", A[:-1] + "b", False),
    ("/*$", A, True),
    ("/*a$*", A, False),  # '$' not last is a literal
    ("/*" + "$a" * 100, A, False),
    ("/" + "a" * N, A, True),
    ("/" + "a" * N + "$", A, True),
    ("/" + "a" * N + "b", A, False),
    ("/" + "a" * (N - 1) + "b", A, False),
    ("/" + "*aa" * 300 + "*b$", A, False),
    ("/" + "*" + "a" * 2000 + "*" + "a" * 2000 + "$", A, True),
    ("/" + "*" + "a" * 2000 + "*" + "a" * 2001 + "$", A, False),
]


@pytest.mark.parametrize(("pattern", "path", "expected"), ADVERSARIAL,
                         ids=[f"{i}:{p[:24]}..{len(p)}" for i, (p, _, _) in enumerate(ADVERSARIAL)])
def test_adversarial_patterns_are_linear(pattern, path, expected):
    """DESIGN 7: classic backtracking killers (many stars, '$' endings, repeated segments)
    on 4,000-character paths cost <= 4*(N+P+1) counted steps and answer right."""
    result, meter = measure(pattern, path)
    assert_linear(pattern, path, meter)
    assert result is expected


def test_work_grows_linearly_with_path_length():
    """DESIGN 7: doubling the path doubles the work (at most), it does not quadruple it."""
    pattern = "/*a*a*a*a*a*a*a*a*a*b"
    w = [measure(pattern, "/" + "a" * n)[1].work for n in (4000, 8000, 16000)]
    assert w[1] <= 2.2 * w[0] and w[2] <= 2.2 * w[1], w


# --------------------------------------------------------------------------- whole file

RULES = 20_000
URLS = ["/" + "a" * N, "/" + "ab" * (N // 2), "/" + "a" * (N - 1) + "b", "http://example.com/" + "a" * N]


def _big_file() -> tuple[bytes, list[str]]:
    rng = random.Random(20_000)
    patterns = []
    lines = ["User-agent: *"]
    for i in range(RULES):
        k = rng.randint(3, 8)
        pat = "/" + "*".join("".join(rng.choice("ab") for _ in range(rng.randint(0, 3))) for _ in range(k))
        if rng.random() < 0.3:
            pat += "$"
        patterns.append(pat)
        lines.append(("Allow: " if i % 2 else "Disallow: ") + pat)
    body = ("\n".join(lines) + "\n").encode()
    return body, patterns


def _glob_match(pattern: str, path: str) -> bool:
    """Independent greedy matcher for the big file (the brute-force one is too slow at this
    size; test_matching_work_is_linear_and_the_answer_right ties both to the same answers)."""
    anchored = pattern.endswith("$")
    first, *rest = (pattern[:-1] if anchored else pattern).split("*")
    if not rest:
        return path == first if anchored else path.startswith(first)
    if not path.startswith(first):
        return False
    pos = len(first)
    for seg in rest[:-1]:
        hit = path.find(seg, pos)
        if hit < 0:
            return False
        pos = hit + len(seg)
    last = rest[-1]
    return (path.endswith(last) and len(path) - len(last) >= pos) if anchored else path.find(last, pos) >= 0


@pytest.fixture(scope="module")
def big_file():
    body, patterns = _big_file()
    assert 450_000 <= len(body) <= 512_000, len(body)
    return body, patterns


def test_whole_file_of_20000_wildcard_rules_compile_pattern_work_is_linear(big_file):
    """DESIGN 7, F9: 20,000 wildcard rules (~500 KB) against 4,000-char URLs: the summed
    work of matching every rule is <= 4 * (total pattern bytes + rules * URL length)."""
    from robotrules.core.pattern import compile_pattern

    _, patterns = big_file
    compiled = [compile_pattern(p) for p in patterns]
    total_p = sum(map(len, patterns))
    for url in URLS:
        path = url[url.index("/", 8):] if url.startswith("http") else url
        bound = C * (total_p + RULES * (len(path) + 1))
        meter = Meter(limit=bound)
        try:
            for cp in compiled:
                cp.matches(CountingStr(path, meter))
        except WorkLimitExceeded:
            pytest.fail(f"work exceeded {bound} on {url[:20]}...")
        assert meter.violations == []
        assert meter.work <= bound, (url[:20], meter.work)


class WholePathStr(CountingStr):
    """CountingStr for everything check() does with the path, not only Pattern.matches:
    `in` charges like find, hashing and slicing charge their length."""

    def __contains__(self, sub):
        self.find(sub)  # charges like find
        return str.__contains__(self, sub)

    def __hash__(self):
        self._charge(str.__len__(self))
        return str.__hash__(self)

    def __getitem__(self, key):
        out = str.__getitem__(self, key)
        self._charge(len(out))
        return out

    def __iter__(self):
        self._charge(str.__len__(self))  # one pass over the path (its characters, for the many-wildcards filter)
        return str.__iter__(self)


def test_whole_file_of_20000_wildcard_rules_public_check_work_is_linear(big_file, monkeypatch):
    """DESIGN 7 through the public API: parse the ~500 KB file and check 4,000-char URLs with
    the extracted path replaced by a counting str (so every scan check() makes of it counts,
    rule selection included). The work of one check() is <= 4 * (total pattern bytes + rules *
    URL length), and the decision equals the brute-force one. A check that never scans the
    counting str (the path copied to a plain str on the way) fails: it would measure nothing."""
    from robotrules.core import robotstxt as robotstxt_mod

    meter = Meter()
    extractor = robotstxt_mod.path_params_query
    monkeypatch.setattr(robotstxt_mod, "path_params_query", lambda url: WholePathStr(extractor(url), meter))

    body, patterns = big_file
    rt = robotrules.parse(body)
    total_p = sum(map(len, patterns))
    for url in URLS:
        meter.work = meter.calls = 0
        meter.limit = bound = C * (total_p + RULES * (len(url) + 1))
        try:
            d = rt.check(url, "foo")
        except WorkLimitExceeded:
            pytest.fail(f"work exceeded {bound} on {url[:20]}...")
        assert meter.calls > 0, "check() never scanned the counting path: the work was not observed"
        assert meter.violations == [], sorted(set(meter.violations))
        assert meter.work <= bound, (url[:20], meter.work)
        path = url[url.index("/", 8):] if url.startswith("http") else url
        allow = max((len(p) for i, p in enumerate(patterns) if i % 2 and _glob_match(p, path)), default=-1)
        disallow = max((len(p) for i, p in enumerate(patterns) if not i % 2 and _glob_match(p, path)), default=-1)
        assert d.allowed == (disallow <= allow), (url[:20], allow, disallow, d.line)


# --------------------------------------------------------------------------- 18,700 wildcard rules

WILDCARD_RULES = 18_700


def _many_wildcards_file() -> tuple[bytes, list[str]]:
    """18,700 rules "Disallow: /*aaaaaaaa*b<N>" in one group (about 500 KB: a hostile file near the
    F9 limit, cut at 512,000 bytes), and their patterns."""
    patterns = [f"/*aaaaaaaa*b{i}" for i in range(WILDCARD_RULES)]
    body = ("User-agent: *\n" + "".join(f"Disallow: {p}\n" for p in patterns)).encode()
    return body, patterns


def test_each_wildcard_pattern_is_split_once_when_its_group_is_first_matched(monkeypatch):
    """DESIGN 7/8: parsing splits no pattern (a group is indexed when a check first asks for it);
    the first checks split each wildcard pattern of the groups they ask for once, and later checks
    (one agent, or several whose groups merge per call, G5) split none."""
    from robotrules.core import matcher, pattern

    calls: list[str] = []

    def counting(module, name):
        original = getattr(module, name)

        def wrapper(*args, **kwargs):
            calls.append(name)
            return original(*args, **kwargs)

        monkeypatch.setattr(module, name, wrapper)

    for module in (matcher, pattern):
        for name in ("compile_pattern", "compile_wild", "_probe"):
            if hasattr(module, name):
                counting(module, name)
    head = b"user-agent: a\ndisallow: /*x*y\nallow: /*.pdf$\nuser-agent: b\ndisallow: /p*q$\n"
    body = head + _many_wildcards_file()[0][:20_000]
    rt = robotrules.parse(body)
    assert calls == []
    urls = ["/", "/xay", "/f.pdf", "/pzq", "/" + "a" * 100 + "b1", "/" + "a" * 4000]
    asked = {"a", "b", "other"}
    wild = sum(len(g.ruleset.parts().wild) for g in rt.groups if asked & set(g.tokens) or g.is_global)
    for url in urls:
        for agent in ("a", "b", ["a", "b"], "other"):
            rt.check(url, agent)
            rt.allowed(url, agent)
    assert calls == ["compile_wild"] * wild
    calls.clear()
    for url in urls:
        for agent in ("a", "b", ["a", "b"], "other"):
            rt.check(url, agent)
            rt.allowed(url, agent)
    assert calls == []


def test_check_work_on_18700_wildcard_rules_is_linear_in_path_length_times_rules(monkeypatch):
    """DESIGN 7: on a file of 18,700 wildcard rules, every scan one check makes of the path
    (counted as in test_whole_file_..._public_check_work_is_linear) stays within
    4 * (total pattern bytes + rules * (URL length + 1)), at 100, 4,000 and 100,000 characters,
    and the decision equals the greedy matcher's."""
    from robotrules.core import robotstxt as robotstxt_mod

    meter = Meter()
    extractor = robotstxt_mod.path_params_query
    monkeypatch.setattr(robotstxt_mod, "path_params_query", lambda url: WholePathStr(extractor(url), meter))
    body, patterns = _many_wildcards_file()
    rt = robotrules.parse(body)
    total_p = sum(map(len, patterns))
    counted = body[:512_000].decode()
    kept = [p for p in patterns if f" {p}\n" in counted]  # F9: the rules within the first 512,000 bytes
    for length in (100, 4_000, 100_000):
        for path in ("/" + "a" * (length - 1), "/" + "a" * (length - 3) + "b1", "/" + "a" * (length - 7) + "b12345"):
            meter.work = meter.calls = 0
            meter.limit = bound = C * (total_p + WILDCARD_RULES * (len(path) + 1))
            try:
                d = rt.check(path, "foo")
            except WorkLimitExceeded:
                pytest.fail(f"work exceeded {bound} at {length}")
            assert meter.violations == [], sorted(set(meter.violations))
            assert meter.calls > 0
            assert meter.work <= bound
            assert d.allowed == (not any(_glob_match(p, path) for p in kept)), (length, path[-8:], d.line)
