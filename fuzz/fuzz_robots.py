"""atheris fuzz target for robotrules: any exception escaping test_one_input is a bug.

Input format: ``body SEP url SEP agent`` with SEP = b"\\xff\\xfe" (missing parts default to
url "/" and agent "foo"); url and agent are decoded as UTF-8 with surrogateescape (so they
may hold lone surrogates); an agent containing "\\x1f" is split there into a list of agents.

For every input: parse the body as bytes and as str (surrogateescape-decoded) in every mode
(SPEC P2/P3/P7, DESIGN 10: the parser never raises), then check/allowed/crawl_delay/
sitemaps/diagnostics, robots_url and user_agent_token, asserting the API's invariants:
bool decision, 0 <= line <= lines in the first 512,000 bytes, allowed() == check().allowed,
determinism, str body == its utf-8/surrogatepass bytes. robots_url may raise ValueError
(an unparseable URL) and nothing else.

With ROBOTRULES_FUZZ_ORACLE=1 the google-mode decision and line are also compared with
Google's reference (jwm.robotstxt), when the url and agents hold no lone surrogates.

Run (needs ``pip install atheris``, i.e. the ``fuzz`` extra):
    python fuzz/fuzz_robots.py fuzz/seeds -atheris_runs=100000
    python fuzz/fuzz_robots.py fuzz/seeds -max_total_time=300
Without atheris this module still imports; tests/properties/test_fuzz_target.py runs
test_one_input over fuzz/seeds and deterministic random inputs.
"""

from __future__ import annotations

import os
import re
import sys

try:  # atheris is optional (robotrules[fuzz])
    import atheris
except ImportError:  # pragma: no cover - depends on the environment
    atheris = None

import robotrules

SEP = b"\xff\xfe"
MODES = ("google", "rfc9309", "legacy1994")
LIMIT = 512_000
_EOL = re.compile(rb"\r\n|\r|\n")
_ORACLE = os.environ.get("ROBOTRULES_FUZZ_ORACLE") == "1"


def split_input(data: bytes) -> tuple[bytes, str, str | list[str]]:
    parts = data.split(SEP, 2)
    body = parts[0]
    url = parts[1].decode("utf-8", "surrogateescape") if len(parts) > 1 else "/"
    agent_s = parts[2].decode("utf-8", "surrogateescape") if len(parts) > 2 else "foo"
    agent: str | list[str] = agent_s.split("\x1f") if "\x1f" in agent_s else agent_s
    return body, url, agent


def _line_count(body: bytes) -> int:
    return len(_EOL.split(body[:LIMIT]))


def _exercise(rt, body: bytes, url: str, agent) -> tuple[bool, int]:
    d = rt.check(url, agent)
    if not isinstance(d.allowed, bool):
        raise AssertionError(f"Decision.allowed is {type(d.allowed).__name__}")
    if not isinstance(d.line, int) or not 0 <= d.line <= _line_count(body):
        raise AssertionError(f"Decision.line {d.line!r} outside 0..{_line_count(body)}")
    if rt.allowed(url, agent) is not d.allowed:
        raise AssertionError("allowed() != check().allowed")
    if rt.check(url, agent) != d:
        raise AssertionError("check() not deterministic")
    cd = rt.crawl_delay(agent)
    if cd is not None and not isinstance(cd, float):
        raise AssertionError(f"crawl_delay returned {type(cd).__name__}")
    for s in rt.sitemaps:
        if not isinstance(s, str):
            raise AssertionError("sitemap is not a str")
    for diag in rt.diagnostics:
        if not isinstance(diag.line, int) or not isinstance(diag.message, str):
            raise AssertionError(f"bad diagnostic {diag!r}")
        diag.severity, diag.code  # noqa: B018
    return d.allowed, d.line


def _has_surrogate(s: str) -> bool:
    return any(0xD800 <= ord(c) <= 0xDFFF for c in s)


def test_one_input(data: bytes) -> None:
    body, url, agent = split_input(data)
    text = body.decode("utf-8", "surrogateescape")
    text_bytes = text.encode("utf-8", "surrogatepass")
    for mode in MODES:
        rt_bytes = robotrules.parse(body, mode=mode)
        got = _exercise(rt_bytes, body, url, agent)
        rt_text = robotrules.parse(text, mode=mode)
        got_text = _exercise(rt_text, text_bytes, url, agent)
        if got_text != _exercise(robotrules.parse(text_bytes, mode=mode), text_bytes, url, agent):
            raise AssertionError(f"{mode}: str body and its utf-8/surrogatepass bytes differ")
        if _ORACLE and mode == "google":
            agents = [agent] if isinstance(agent, str) else agent
            if not any(map(_has_surrogate, [url, *agents])):
                from jwm.robotstxt import googlebot

                m = googlebot.RobotsMatcher()
                if isinstance(agent, str):
                    ref = m.OneAgentAllowedByRobots(body[:LIMIT], agent, url)
                else:
                    ref = m.AllowedByRobots(body[:LIMIT], agents, url)
                if (bool(ref), m.matching_line()) != got:
                    raise AssertionError(f"google: ours {got} != reference {(bool(ref), m.matching_line())}")
    try:
        r = robotrules.robots_url(url)
    except ValueError:
        pass
    else:
        if not isinstance(r, str):
            raise AssertionError("robots_url returned a non-str")
    for a in [agent] if isinstance(agent, str) else agent:
        if not isinstance(robotrules.user_agent_token(a), str):
            raise AssertionError("user_agent_token returned a non-str")


def main(argv: list[str] | None = None) -> None:
    if atheris is None:
        sys.exit("atheris is not installed: pip install 'robotrules[fuzz]' (or pip install atheris)")
    atheris.instrument_all()
    atheris.Setup(sys.argv if argv is None else argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
