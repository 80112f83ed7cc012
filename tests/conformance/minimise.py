"""Shrink a disagreeing case to a small (body, agents, url) that still disagrees with the reference.

    python tests/conformance/minimise.py --case matching:4999.0 [--seed N]
    python tests/conformance/minimise.py --body-literal "b'...'" --agent googlebot --url /a

Greedy delta debugging: drop lines, then bytes of the body; simplify the URL (drop scheme/host, query,
characters) and the agents. A candidate is kept while robotrules' (allowed, line) differs from the
reference's (any disagreement, not necessarily the same one). Prints the result as Python literals.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Callable, Sequence

try:
    from . import generate, oracle
except ImportError:  # run as a script
    import generate  # type: ignore[no-redef]
    import oracle  # type: ignore[no-redef]


def answers(body: bytes, agents: str | Sequence[str], url: str) -> tuple[object, object]:
    import robotrules

    expected = oracle.check(body, agents, url)
    try:
        d = robotrules.parse(body).check(url, agents)
        got: object = (d.allowed, d.line)
    except Exception as e:
        got = f"{type(e).__name__}: {e}"
    return expected, got


def disagrees(body: bytes, agents: str | Sequence[str], url: str) -> bool:
    expected, got = answers(body, agents, url)
    return expected != got


def _shrink_seq(items: list, ok: Callable[[list], bool]) -> list:
    """Remove chunks (halves, quarters, ... single items) while ``ok`` holds."""
    n = 2
    while len(items) >= 1:
        chunk = max(1, len(items) // n)
        removed = False
        i = 0
        while i < len(items):
            cand = items[:i] + items[i + chunk :]
            if ok(cand):
                items = cand
                removed = True
            else:
                i += chunk
        if not removed:
            if chunk == 1:
                break
            n = min(len(items), n * 2)
    return items


def minimise(body: bytes, agents: str | list[str], url: str) -> tuple[bytes, str | list[str], str]:
    assert disagrees(body, agents, url), "the case does not disagree"
    for _ in range(3):  # a few rounds: a simpler URL can allow a smaller body and vice versa
        lines = body.splitlines(keepends=True)
        lines = _shrink_seq(lines, lambda ls: disagrees(b"".join(ls), agents, url))  # noqa: B023 - _shrink_seq calls it at once, in this iteration
        body = b"".join(lines)
        body = bytes(_shrink_seq(list(body), lambda bs: disagrees(bytes(bs), agents, url)))  # noqa: B023 - _shrink_seq calls it at once, in this iteration
        for simpler in _url_candidates(url):
            if disagrees(body, agents, simpler):
                url = simpler
                break
        url = "".join(_shrink_seq(list(url), lambda cs: disagrees(body, agents, "".join(cs))))  # noqa: B023 - _shrink_seq calls it at once, in this iteration
        if not isinstance(agents, str):
            for a in agents:
                if disagrees(body, a, url):
                    agents = a
                    break
            else:
                agents = _shrink_seq(list(agents), lambda al: bool(al) and disagrees(body, al, url))  # noqa: B023 - _shrink_seq calls it at once, in this iteration
        if isinstance(agents, str):
            for simpler in ("googlebot", "foo", agents.lower()):
                if simpler != agents and disagrees(body, simpler, url):
                    agents = simpler
                    break
    return body, agents, url


def _url_candidates(url: str) -> list[str]:
    out = []
    for sep in ("#", "?"):
        if sep in url:
            out.append(url.split(sep, 1)[0])
    if "://" in url:
        rest = url.split("://", 1)[1]
        i = min([rest.find(c) for c in "/?;" if c in rest] or [len(rest)])
        out.append("/" + rest[i:].lstrip("/") if i < len(rest) else "/")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--case", help="a generated case id, e.g. mixed:12.3")
    ap.add_argument("--seed", type=int, default=generate.env_seed())
    ap.add_argument("--body-literal")
    ap.add_argument("--agent", action="append")
    ap.add_argument("--url")
    args = ap.parse_args(argv)
    if args.case:
        c = generate.get_case(args.seed, args.case)
        body, agents, url = c.body, c.agents, c.url
    else:
        body = ast.literal_eval(args.body_literal)
        body = body if isinstance(body, bytes) else body.encode("utf-8", "surrogatepass")
        agents = args.agent[0] if len(args.agent) == 1 else args.agent
        url = args.url
    body, agents, url = minimise(body, agents, url)
    expected, got = answers(body, agents, url)
    print(f"body   = {body!r}\nagents = {agents!r}\nurl    = {url!r}\nreference = {expected}\nrobotrules = {got}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
