"""Append a regression case to ``cases/regressions.json``; the expected answer comes from the reference.

    python tests/conformance/add_regression.py --id crlf-counts-once \\
        --body-literal "b'User-agent: *\\r\\nDisallow: /a'" --agent googlebot --url /a \\
        --why "CR LF is one line break (P1)" --source "fuzz:seed=7"

    python tests/conformance/add_regression.py --from-case mixed:123.2 --seed 20240611 --id ... --why ...

``--agent`` may be repeated (a list of agents, i.e. AllowedByRobots); ``--agent-list`` makes a single
``--agent`` a one-element list. ``--body`` takes text with Python escapes (\\n, \\r, \\x00, \\xff -> that byte).
Bodies that are valid UTF-8 are stored as text ("body"), others as base64 ("body_b64"); bodies with long
runs of one byte as "body_parts" (segments with a repeat count).
"""

from __future__ import annotations

import argparse
import ast
import base64
import codecs
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path

try:
    from . import oracle
except ImportError:  # run as a script
    import oracle  # type: ignore[no-redef]

CASES_FILE = Path(__file__).resolve().parent / "cases" / "regressions.json"


def _encode_bytes(data: bytes) -> dict:
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"b64": base64.b64encode(data).decode("ascii")}


_RUN = re.compile(rb"(.)\1{255,}", re.DOTALL)


def encode_body(body: bytes) -> dict:
    """{"body": text} / {"body_b64": ...}; bodies with long runs of one byte become "body_parts"."""
    if not _RUN.search(body):
        enc = _encode_bytes(body)
        return {"body": enc["text"]} if "text" in enc else {"body_b64": enc["b64"]}
    parts, pos = [], 0
    for m in _RUN.finditer(body):
        if m.start() > pos:
            parts.append(_encode_bytes(body[pos : m.start()]))
        parts.append({**_encode_bytes(m.group(1)), "times": m.end() - m.start()})
        pos = m.end()
    if pos < len(body):
        parts.append(_encode_bytes(body[pos:]))
    return {"body_parts": parts}


_TEXT_RUN = re.compile(r"(.)\1{255,}", re.DOTALL)


def encode_url(url: str) -> dict:
    """{"url": url}, or "url_parts" (list of {text, times}) when it has a long run of one character."""
    if not _TEXT_RUN.search(url):
        return {"url": url}
    parts, pos = [], 0
    for m in _TEXT_RUN.finditer(url):
        if m.start() > pos:
            parts.append({"text": url[pos : m.start()]})
        parts.append({"text": m.group(1), "times": m.end() - m.start()})
        pos = m.end()
    if pos < len(url):
        parts.append({"text": url[pos:]})
    return {"url_parts": parts}


def decode_url(case: dict) -> str:
    if "url_parts" in case:
        return "".join(p["text"] * p.get("times", 1) for p in case["url_parts"])
    return case["url"]


def decode_body(case: dict) -> bytes:
    if "body_parts" in case:
        out = []
        for part in case["body_parts"]:
            data = part["text"].encode("utf-8") if "text" in part else base64.b64decode(part["b64"])
            out.append(data * part.get("times", 1))
        return b"".join(out)
    if "body_b64" in case:
        return base64.b64decode(case["body_b64"])
    return case["body"].encode("utf-8")


def load(path: Path = CASES_FILE) -> list[dict]:
    if not path.exists():
        return []
    return json.loads(path.read_text(encoding="utf-8"))["cases"]


def save(cases: list[dict], path: Path = CASES_FILE) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "about": (
            "Regression cases for robotrules google mode. expected_* come from Google's reference parser "
            "(jwm.robotstxt) via tests/conformance/add_regression.py; do not edit them by hand. "
            "body: UTF-8 text, or body_b64: raw bytes in base64, or body_parts: a list of {text|b64, times} "
            "concatenated (long runs of one byte); url or url_parts likewise. agent: a string or a list of strings."
        ),
        "cases": cases,
    }
    path.write_text(json.dumps(doc, indent=1, ensure_ascii=True) + "\n", encoding="utf-8")


def add_case(
    case_id: str,
    body: bytes | str,
    agent: str | Sequence[str],
    url: str,
    why: str,
    source: str,
    path: Path = CASES_FILE,
) -> dict:
    """Compute the expected answer with the oracle and append the case (ids must be unique)."""
    if isinstance(body, str):
        body = body.encode("utf-8", "surrogatepass")
    agent = agent if isinstance(agent, str) else list(agent)
    allowed, line = oracle.check(body, agent, url)
    case = {
        "id": case_id,
        **encode_body(body),
        "agent": agent,
        **encode_url(url),
        "expected_allowed": allowed,
        "expected_line": line,
        "why": why,
        "source": source,
    }
    cases = load(path)
    if any(c["id"] == case_id for c in cases):
        raise SystemExit(f"id {case_id!r} already in {path}")
    for c in cases:
        if decode_body(c) == body and c["agent"] == agent and decode_url(c) == url:
            raise SystemExit(f"same body/agent/url already in {path} as {c['id']!r}")
    cases.append(case)
    save(cases, path)
    return case


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--id", required=True, help="short unique name, e.g. crlf-counts-once")
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--body", help="body text; Python escapes allowed (\\n, \\x00, \\xff)")
    src.add_argument("--body-literal", help="a Python bytes/str literal, e.g. \"b'User-agent: *\\n'\"")
    src.add_argument("--body-file", type=Path)
    src.add_argument("--from-case", metavar="PROFILE:BODY.QUERY", help="a generated case (with --seed)")
    ap.add_argument("--seed", type=int, help="generator seed for --from-case")
    ap.add_argument("--agent", action="append", help="caller agent; repeat for a list")
    ap.add_argument("--agent-list", action="store_true", help="pass a single --agent as a one-element list")
    ap.add_argument("--url")
    ap.add_argument("--why", required=True, help="the behaviour this case pins, with SPEC ids")
    ap.add_argument("--source", help='e.g. "fuzz:seed=..", "corpus:site", "generated:seed=..,i=.."')
    args = ap.parse_args(argv)

    agent: str | list[str] | None = None
    if args.agent:
        agent = args.agent if (len(args.agent) > 1 or args.agent_list) else args.agent[0]
    url, source = args.url, args.source
    if args.from_case:
        try:
            from . import generate
        except ImportError:
            import generate  # type: ignore[no-redef]
        seed = args.seed if args.seed is not None else generate.env_seed()
        c = generate.get_case(seed, args.from_case)
        body: bytes = c.body
        agent = c.agents if agent is None else agent
        url = c.url if url is None else url
        source = source or f"generated:seed={seed},i={args.from_case}"
    elif args.body is not None:
        body = codecs.escape_decode(args.body.encode("utf-8"))[0]  # text as UTF-8, \\xNN as raw bytes
    elif args.body_literal is not None:
        lit = ast.literal_eval(args.body_literal)
        body = lit if isinstance(lit, bytes) else lit.encode("utf-8", "surrogatepass")
    else:
        body = args.body_file.read_bytes()
    if agent is None or url is None or source is None:
        ap.error("--agent, --url and --source are required (unless taken from --from-case)")
    case = add_case(args.id, body, agent, url, args.why, source)
    print(json.dumps(case, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
