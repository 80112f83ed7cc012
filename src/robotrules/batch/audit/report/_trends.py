"""The report's section on an audit over several crawls: trend lines, their tables and the sites
that changed (:mod:`robotrules.batch.audit.over_time`; private to :mod:`robotrules.batch`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from robotrules.batch.audit.purposes import TRAINING
from robotrules.batch.audit.report._html import LINE_STYLES, as_html, html_figure, html_table, line_plot
from robotrules.batch.audit.report._words import LABELS, OPT_OUT_LABELS, kind_label

__all__ = ["MAX_CHANGES", "over_time_section"]

MAX_CHANGES = 2_000
"""Rows of the table of changed sites of an audit over several crawls (the changes table has them all)."""


def over_time_section(frame: Any, crawls: Sequence[str], plt: Any) -> str:
    """Trends and changes of an audit over several crawls (:mod:`robotrules.batch.audit.over_time`): lines
    per crawler and per purpose across crawls, their tables, and the sites that changed."""
    from robotrules.batch.audit.over_time import changes, trends

    found = trends(frame)
    moved = changes(frame)
    crawlers = found[found["level"] == "crawler"]
    purposes = found[found["level"] == "purpose"]
    share = {(str(row.crawl), str(row.agent if row.level == "crawler" else row.kind)):
             100.0 * (row.blocked_share + row.partly_share) for row in found.itertuples(index=False)}
    agents = list(dict.fromkeys(str(agent) for agent in crawlers["agent"]))
    peak = {agent: max(share.get((crawl, agent), 0.0) for crawl in crawls) for agent in agents}
    spread = {agent: peak[agent] - min(share.get((crawl, agent), 0.0) for crawl in crawls) for agent in agents}
    plotted = sorted(agents, key=lambda agent: (-spread[agent], -peak[agent], agent.lower()))[:len(LINE_STYLES)]
    plotted = [agent for agent in agents if agent in plotted]
    parts = ['<h2 id="trends">Over time (sites, per crawl)</h2>',
             ("<p>For each crawl, the share of the sites captured in it whose robots.txt blocks a crawler entirely "
              "or partly. A site missing from a crawl is counted in none of that crawl's shares.</p>")]
    series = [(agent, [share.get((crawl, agent), 0.0) for crawl in crawls]) for agent in plotted]
    which = "each crawler" if len(plotted) == len(agents) else \
        f"the {len(plotted)} crawlers whose share changed most (of {len(agents)}; every one is in the table below)"
    parts.append(html_figure(line_plot(crawls, series, "sites blocking it (%)", plt),
                             f"Share of sites that block {which} entirely or partly, crawl by crawl.",
                             "Lines: for each crawler, the share of sites that block it, across the crawls"))
    kinds = [str(kind) for kind in dict.fromkeys(purposes["kind"])]
    if kinds:
        lines = [(kind_label(kind), [share.get((crawl, kind), 0.0) for crawl in crawls]) for kind in kinds]
        parts.append(html_figure(line_plot(crawls, lines[:len(LINE_STYLES)], "sites blocking some (%)", plt),
                                 "For the crawlers of each purpose: the share of sites that block at least one of "
                                 "them (entirely or partly), crawl by crawl.",
                                 "Lines: for each purpose, the share of sites that block its crawlers, across the "
                                 "crawls"))
    training = purposes[purposes["kind"] == TRAINING]
    if len(training):
        outs = [(OPT_OUT_LABELS[name], [_percent(row, column) for row in training.itertuples(index=False)])
                for name, column in (("robots.txt", "robots_txt"), ("train-ai=n", "train_ai_n"), ("both", "both"))]
        parts.append(html_figure(line_plot([str(c) for c in training["crawl"]], outs, "sites (%)", plt),
                                 "Sites that opt AI training crawlers out by robots.txt rules only, by a train-ai=n "
                                 "preference only, or by both, crawl by crawl.",
                                 "Lines: the share of sites per way of opting out of AI training, across the "
                                 "crawls"))
    head = ["Crawler (purpose)", *crawls]
    rows = []
    for agent in agents:
        mine = {str(row.crawl): row for row in crawlers[crawlers["agent"] == agent].itertuples(index=False)}
        kind = str(next(iter(mine.values())).kind) if mine else ""
        rows.append([f'{as_html(agent)}<span class="note">{as_html(kind_label(kind))}</span>',
                     *(_trend_cell(mine.get(crawl)) for crawl in crawls)])
    parts.append(html_table("Sites that block each crawler, per crawl: entirely + partly, of the sites captured",
                            head, rows, raw=True))
    if kinds:
        rows = []
        for kind in kinds:
            mine = {str(row.crawl): row for row in purposes[purposes["kind"] == kind].itertuples(index=False)}
            rows.append([as_html(kind_label(kind)), *(_trend_cell(mine.get(crawl), kind == TRAINING)
                                                      for crawl in crawls)])
        parts.append(html_table("Sites that block every crawler of a purpose entirely + some of them, per crawl "
                                "(AI training: opted out by robots.txt, train-ai=n, both)",
                                ["Purpose", *crawls], rows, raw=True))
    parts.append(_changes_table(moved))
    return "".join(parts)


def _percent(row: Any, column: str) -> float:
    return 100.0 * int(getattr(row, column)) / max(1, int(row.sites))


def _trend_cell(row: Any, training: bool = False) -> str:
    """One crawl's counts: "2 + 1 of 6 (50%)", and the AI training opt-outs when asked."""
    if row is None:
        return "not audited"
    total = int(row.sites)
    text = f"{int(row.blocked)} + {int(row.partly)} of {total} ({100.0 * (row.blocked_share + row.partly_share):.0f}%)"
    if training:
        text += (f'<span class="note">robots.txt {int(row.robots_txt)}, train-ai=n {int(row.train_ai_n)}, '
                 f"both {int(row.both)}</span>")
    return text


def _changes_table(moved: Any) -> str:
    """The sites whose robots.txt changed for a crawler between consecutive crawls, with the lines."""
    parts = ['<h3 id="changes">Sites that changed between crawls</h3>']
    if not len(moved):
        parts.append("<p>No site started or stopped blocking a crawler, or changed its train-ai preference, "
                     "between consecutive crawls.</p>")
        return "".join(parts)
    parts.append("<p>Each site and crawler whose blocking changed between two consecutive crawls (a site missing "
                 "from a crawl is <em>not captured</em> there, which says nothing of its rules), or whose "
                 "train-ai preference for the home page did; with the deciding disallow rules before and after, "
                 "and the rule lines of the crawler's group removed and added.</p>")
    shown = moved.head(MAX_CHANGES)
    rows = []
    for row in shown.itertuples(index=False):
        what = "; ".join(str(text) for text in (row.change, row.train_ai_change) if text)
        rules = "".join(f'<span class="note">{when}</span><pre>{as_html(text, lines=True) if text else "(none)"}</pre>'
                        for when, text in (("before", row.rules_before), ("after", row.rules_after)))
        rows.append([f"<code>{as_html(row.site)}</code>", as_html(row.agent),
                     f"{as_html(row.from_crawl)} →<br>{as_html(row.to_crawl)}", as_html(what),
                     (f"{as_html(LABELS.get(str(row.verdict_before), row.verdict_before))} → "
                      f"{as_html(LABELS.get(str(row.verdict_after), row.verdict_after))}"), rules,
                     *(f"<pre>{as_html(text, lines=True)}</pre>" if text else "" for text in
                       (row.lines_removed, row.lines_added))])
    more = f" (the first {MAX_CHANGES:,} of {len(moved):,})" if len(moved) > MAX_CHANGES else ""
    parts.append(html_table(f"Sites that changed{more}", ["Site (robots.txt)", "Crawler", "Crawls", "What changed",
                                                          "Verdict", "Deciding disallow rules",
                                                          "Rule lines removed", "Rule lines added"],
                            rows, raw=True))
    return "".join(parts)
