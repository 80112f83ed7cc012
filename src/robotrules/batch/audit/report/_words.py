"""How the audit report names and colours what it counts, for people (private to :mod:`robotrules.batch`)."""

from __future__ import annotations

from robotrules.crawlers import KIND_LABELS

__all__ = ["COLOURS", "LABELS", "MEANINGS", "OPT_OUT_COLOURS", "OPT_OUT_LABELS", "OPT_OUT_MEANINGS", "PURPOSE_LABELS",
           "kind_label"]

LABELS: dict[str, str] = {
    "blocked": "Blocked entirely",
    "partly": "Blocked partly",
    "allowed": "Allowed",
    "no-robots": "No robots.txt",
    "unreachable": "Unreachable (all blocked)",
    "unknown": "Unknown",
}
"""How each verdict is named for people."""

MEANINGS: dict[str, str] = {
    "blocked": "the crawler may fetch nothing on the site but robots.txt itself",
    "partly": "some rules keep the crawler out of some pages",
    "allowed": "no rule keeps the crawler out of anything",
    "no-robots": "the site answered robots.txt with a 4xx error such as 404, so everything is allowed",
    "unreachable": "robots.txt answered with a server error (5xx) or could not be fetched, "
                   "so crawlers must treat the whole site as blocked",
    "unknown": "nothing is known about this site's robots.txt (it was not captured or not fetched)",
}

COLOURS = {  # colour-blind-safe (Okabe-Ito), in the order of VERDICTS
    "blocked": "#D55E00", "partly": "#E69F00", "allowed": "#009E73",
    "no-robots": "#56B4E9", "unreachable": "#CC79A7", "unknown": "#999999",
}

PURPOSE_LABELS: dict[str, str] = {
    "blocked": "Every one blocked entirely",
    "partly": "Some blocked (entirely or partly)",
    "allowed": "None blocked",
    "no-robots": LABELS["no-robots"],
    "unreachable": LABELS["unreachable"],
    "unknown": LABELS["unknown"],
}
"""A site's verdict for the crawlers of one purpose, as the purpose view names it."""

OPT_OUT_LABELS: dict[str, str] = {
    "robots.txt": "By robots.txt rules only",
    "train-ai=n": "By train-ai=n only",
    "both": "Both",
    "neither": "Neither",
    "unknown": "Unknown (robots.txt unreadable)",
}
"""How a site opts AI training crawlers out, as people read it."""

OPT_OUT_MEANINGS: dict[str, str] = {
    "robots.txt": "the rules block at least one AI training crawler entirely, or partly by a group that names it, "
                  "and no train-ai=n preference applies",
    "train-ai=n": "no rule keeps an AI training crawler out, but the train-ai preference for the home page is "
                  "\u201cno\u201d (Content-Usage: train-ai=n, or Content-Signal: ai-train=no) for at least one",
    "both": "the rules keep AI training crawlers out and a train-ai=n preference applies too",
    "neither": "no rule aimed at AI training crawlers and no train-ai=n preference; "
               "rules that close a few folders to every crawler do not count",
    "unknown": "robots.txt answered with a server error or could not be fetched or was not captured",
}

OPT_OUT_COLOURS = {"robots.txt": "#D55E00", "train-ai=n": "#0072B2", "both": "#882255", "neither": "#009E73",
                   "unknown": "#999999"}


def kind_label(kind: str) -> str:
    """A purpose as people read it ("" is ``*`` and the agents the registry does not know)."""
    return KIND_LABELS.get(kind, kind) if kind else "'*' and agents not in the registry"
