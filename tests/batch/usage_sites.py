"""Sites whose robots.txt says how their content may be used (A1-A8), for the batch preference
columns and the audit's AI training opt-out, shared by the local and Spark engines' tests.

:data:`OPT_OUT_SITES` holds one site for each way a site can opt AI training crawlers out
(robots.txt rules, ``train-ai=n`` by Content-Usage or by Content-Signal, both, neither,
unknown) and the corners around them; :data:`EXPECTED_OPT_OUT` says what the audit makes of
each for :data:`AUDIT_AGENTS`. :data:`PREFERENCE_SITES` and :data:`PREFERENCE_URLS` exercise
the per-URL preference columns of ``robotrules batch --preferences``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from robotrules.batch import Capture
from tests.batch.conftest import write_answers_warc

T = 1_700_000_000.0

Answer = tuple[int, Mapping[str, str], bytes]

OPT_OUT_SITES: dict[str, Answer] = {
    # robots.txt only: the training crawlers are named and blocked; no preference anywhere
    "rules": (200, {}, b"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"),
    # partly, by a group naming the crawler: still an opt-out by robots.txt
    "named-part": (200, {}, b"User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /articles/\n"),
    # train-ai=n by Content-Usage for every path (A1, A2), crawling allowed
    "usage": (200, {}, b"User-agent: *\nAllow: /\nContent-Usage: train-ai=n\n"),
    # train-ai=n by Content-Signal ai-train=no at the top of the file (A7)
    "signal": (200, {}, b"Content-Signal: search=yes, ai-train=no\n\nUser-agent: *\nDisallow: /tmp/\n"),
    # both: GPTBot blocked by its group, CCBot (the * group) told ai-train=no
    "both": (200, {}, b"User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: ai-train=no\nAllow: /\n"),
    # neither: rules that close a folder to every crawler are no AI training opt-out
    "neither": (200, {}, b"User-agent: *\nDisallow: /private/\n"),
    # A3: a preference on a site that blocks the crawler says nothing (not applicable): robots.txt only
    "blocked-anyway": (200, {}, b"User-agent: *\nDisallow: /\nContent-Usage: train-ai=n\n"),
    # A2: a preference for one folder says nothing about the home page
    "folder": (200, {}, b"User-agent: *\nContent-Usage: /drafts/ train-ai=n\n"),
    # A5: an upper-case key fails the statement: every category unknown
    "upper": (200, {}, b"User-agent: *\nContent-Usage: Train-AI=n\n"),
    # F4: no robots.txt at all
    "missing": (404, {}, b"not found"),
    # F5: a server error: nothing can be read
    "down": (503, {}, b""),
}

AUDIT_AGENTS = ["GPTBot", "CCBot", "Googlebot", "*"]

EXPECTED_OPT_OUT: dict[str, tuple[str, str, str]] = {
    # site -> (GPTBot's training_opt_out, CCBot's, the site's for AI training)
    "rules": ("robots.txt", "robots.txt", "robots.txt"),
    "named-part": ("robots.txt", "robots.txt", "robots.txt"),
    "usage": ("train-ai=n", "train-ai=n", "train-ai=n"),
    "signal": ("train-ai=n", "train-ai=n", "train-ai=n"),
    "both": ("robots.txt", "train-ai=n", "both"),
    "neither": ("neither", "neither", "neither"),
    "blocked-anyway": ("robots.txt", "robots.txt", "robots.txt"),
    "folder": ("neither", "neither", "neither"),
    "upper": ("neither", "neither", "neither"),
    "missing": ("neither", "neither", "neither"),
    "down": ("unknown", "unknown", "unknown"),
}


def site_url(name: str) -> str:
    return f"http://{name}.test/robots.txt"


def opt_out_warc(folder: Path) -> Path:
    """A gzipped WARC of :data:`OPT_OUT_SITES`."""
    return write_answers_warc(folder / "opt-out.warc.gz", {site_url(name): answer
                                                            for name, answer in OPT_OUT_SITES.items()})


PREFERENCE_SITES: dict[str, bytes] = {
    # A1, A2, A4: longest path decides; equal paths combine (any n wins); A7 Content-Signal in the group
    "pref": (b"User-agent: *\n"
             b"Content-Usage: train-ai=n, search=y\n"
             b"Content-Usage: /open/ train-ai=y\n"
             b"Content-Usage: /mixed/ train-ai=y\n"
             b"Content-Usage: /mixed/ train-ai=n\n"
             b"Content-Signal: ai-input=no\n"
             b"Disallow: /private/\n\n"
             b"User-agent: GPTBot\n"
             b"Disallow: /\n"),
    # A7: Content-Signal outside any group, for every crawler; FooBot's group has no preference line
    "top": (b"Content-Signal: search=yes, ai-train=no, ai-input=yes\n\n"
            b"User-agent: FooBot\nDisallow: /no/\n"),
    # no preference at all
    "plain": b"User-agent: *\nDisallow: /x\n",
}

PREFERENCE_CAPTURES = [Capture(f"https://{name}.test/robots.txt", 200, {}, body, T)
                       for name, body in PREFERENCE_SITES.items()]
PREFERENCE_CAPTURES += [Capture("https://gone.test/robots.txt", 404, {}, b"", T),
                        Capture("https://busy.test/robots.txt", 503, {}, b"", T)]

PREFERENCE_URLS = [f"https://{name}.test{path}" for name in PREFERENCE_SITES
                   for path in ("/", "/open/page", "/mixed/a", "/private/x", "/no/y", "/x")]
PREFERENCE_URLS += ["https://gone.test/a", "https://busy.test/a", "https://never.test/a", "mailto:x@y.test", ""]

PREFERENCE_AGENTS = ["*", "GPTBot", "FooBot/1.0"]

PINNED: dict[tuple[str, str], tuple[bool | None, bool | None, bool | None]] = {
    # (url, agent) -> (train_ai, search, ai_input)
    ("https://pref.test/", "*"): (False, True, False),
    ("https://pref.test/open/page", "*"): (True, None, False),  # the longer path decides train-ai alone (A2)
    ("https://pref.test/mixed/a", "*"): (False, None, False),  # equal paths: any n wins (A4)
    ("https://pref.test/private/x", "*"): (None, None, None),  # may not be crawled: not applicable (A3)
    ("https://pref.test/", "GPTBot"): (None, None, None),  # its group blocks it (A3)
    ("https://top.test/", "FooBot/1.0"): (False, True, True),  # the file's Content-Signal (A7)
    ("https://top.test/no/y", "FooBot/1.0"): (None, None, None),
    ("https://plain.test/", "*"): (None, None, None),  # nothing stated: unknown
    ("https://gone.test/a", "*"): (None, None, None),  # 404: no robots.txt, no preference (F4)
    ("https://busy.test/a", "*"): (None, None, None),  # 503: nothing may be crawled (F5)
    ("https://never.test/a", "*"): (None, None, None),  # never captured: nothing known
}
