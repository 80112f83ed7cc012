"""What the client's in-process cache charges for a parsed robots.txt: an estimate of the bytes it keeps.

The charges bound the LRU of parsed files in bytes (``cache_bytes``) without walking every object:
:func:`parsed_cost` from the file's shape, :func:`slot_cost` for a whole cache slot. The weights
are fitted to ``tracemalloc`` measurements (``bench/limits_bench.py calibrate``), so that the
charge is at least what a slot retains for the costliest shapes.
"""

from __future__ import annotations

from robotrules.core.policy import Entry
from robotrules.core.robotstxt import RobotsTxt

__all__ = ["DEFAULT_CACHE_BYTES", "MiB", "parsed_cost", "slot_cost"]

MiB = 2**20

DEFAULT_CACHE_BYTES = 256 * MiB
"""The default budget of the in-process LRU of parsed files, in estimated bytes (``cache_bytes``):
14 maximum-size (512,000-byte) files of the costliest shape (charged 18 MiB each), 30-80 of
rule-heavy ones, about 13,000 typical ones (19 KiB): then ``cache_size`` (10,000) binds first."""

# What a parsed file retains, estimated from its shape without walking every object: see
# parsed_cost. Calibration (bench/limits_bench.py calibrate, CPython 3.11, pure-Python core):
# tracemalloc's retained bytes of one installed slot (the entry decoded from the store, so its
# body is the slot's own; the parsed file; the state; the LRU link) against the charge, over the
# 1,613 corpus files and 20 maximum-size (512,000-byte) synthetic shapes: one group of 27,000-
# 40,000 literal, wildcard, "$", index.html, non-ASCII, percent-encoded or CR-separated rules;
# 11,000-17,000 groups (distinct agents, one agent merged, "*" merged, both); 19,000-73,000
# user-agent, crawl-delay, sitemap or other lines; blank lines, garbage, one 512,000-byte rule.
# Retained / charged: at most 0.90 on the synthetic shapes (wildcard rules, many groups; median
# 0.77), so the budget bounds the worst files; on the corpus median 0.74, p90 0.82, all files
# together 0.77, at most 1.29 for a few small files whose fixed costs are underestimated. A
# maximum-size file is charged 1-18 MiB; a typical corpus file about 19 KiB (table: bench/README.md).
# The weights are per item of each kind, fitted to those measurements.
_COST_PER_BYTE = 2  # the body (the entry's copy, shared with RobotsTxt.body) and the text of its lines
_COST_PER_LITERAL = 80  # a literal-prefix rule: its string and a packed rank
_COST_PER_RULE = 220  # a catch-all, "$" or wildcard rule: a (rank, pattern[, probe]) tuple
_COST_PER_WRITTEN = 180  # a rule whose value as written differs from its pattern (kept for explanations)
_COST_PER_LINE = 240  # another line (N2) in a group or outside: an Extension tuple and its strings
_COST_PER_NAME = 80  # a user-agent value or a sitemap URL
_COST_PER_GROUP = 450  # a group: its tuple, its ruleset, its entries in the per-token index
_COST_PER_MERGED = 120  # a rule repeated in the merged ruleset of an agent named by several groups (G4)
_COST_PER_USAGE = 720  # a Content-Usage line, once asked for: its compiled path and share of the index
# (RobotsTxt.usage builds a group's preference index on first use; tracemalloc, pure-Python core:
# 18,000 distinct wildcard paths retain 713 bytes a line, 23,000 equal ones 112; charged at once,
# since a slot is charged when it is installed)
_COST_PER_SLOT = 2048  # the slot, its RobotsState and Entry, their strings, the LRU link and key


def parsed_cost(robots: RobotsTxt) -> int:
    """The bytes a parsed file is charged on top of its body (see the calibration above)."""
    literal = rules = written = merged = 0
    lines = len(robots.extensions)
    usage = sum(1 for ext in robots.extensions if ext.field == "content-usage")
    names = len(robots.sitemaps)
    named: dict[str, list[int]] = {}  # token ("*" for the global groups) -> [groups naming it, their rules]
    for group in robots.groups:
        ruleset = group.ruleset
        prefixes, own = ruleset.sizes()
        literal += prefixes
        rules += own
        written += len(ruleset.written) if ruleset.written is not None else 0
        lines += len(group.extensions)
        usage += sum(1 for ext in group.extensions if ext.field == "content-usage")
        names += len(group.agents)
        own += prefixes
        for token in (*group.tokens, "*") if group.is_global else group.tokens:
            seen = named.get(token)
            if seen is None:
                named[token] = [1, own]
            else:
                seen[0] += 1
                seen[1] += own
    for groups, total in named.values():
        if groups > 1:
            merged += total
    return (_COST_PER_LITERAL * literal + _COST_PER_RULE * rules + _COST_PER_WRITTEN * written
            + _COST_PER_LINE * lines + _COST_PER_NAME * names + _COST_PER_GROUP * len(robots.groups)
            + _COST_PER_MERGED * merged + _COST_PER_USAGE * usage)


def slot_cost(entry: Entry, robots: RobotsTxt | None, parsed: int) -> int:
    """The bytes an in-process slot is charged: its entry, and ``parsed`` (:func:`parsed_cost`) with ``robots``."""
    cost = _COST_PER_SLOT + 2 * len(entry.url) + 2 * len(entry.reason) + len(entry.why.detail) + len(entry.final_url)
    cost += len(entry.body) if robots is None else _COST_PER_BYTE * max(len(entry.body), len(robots.body)) + parsed
    return cost
