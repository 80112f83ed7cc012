"""The audit as one self-contained HTML page: plots and tables a person can read (issue #11).

:func:`write_report` takes the table of :func:`robotrules.batch.audit.workflow.audit` (a pandas DataFrame
with its columns) and writes one HTML file that needs nothing else: the CSS is inline and the
plots are inline SVG drawn by matplotlib (text kept as text, so it scales and can be searched),
so the page opens offline and makes no request. It shows, per purpose (the crawlers' kind), how
many sites block those crawlers entirely or partly and how sites opt AI training crawlers out
(robots.txt, ``train-ai=n``, both, neither: :func:`robotrules.batch.audit.purposes.by_purpose`); the share
of sites that block each agent entirely or partly; the mix of HTTP statuses of the robots.txt
files; the most common rules; a table per agent; and the damaged records of the archives that
were skipped, if any. Needs ``robotrules[audit]`` (pandas and matplotlib).

A wide audit (the whole registry: some 175 crawlers) stays readable: crawlers are grouped by
purpose; past :data:`WIDE` crawlers, those that no site treats differently from ``*`` (the long
tail no file names) are listed once per purpose instead of one table row, one bar and one
section each, and the plot of crawlers shows at most the :data:`WIDE` most blocked of the
others; the tables of each crawler, site by site, share a budget of :data:`MAX_ROWS` rows.

Everything in the table came from strangers (hosts, agents, rules, reasons) and is shown as
text, never interpreted: in the plots matplotlib's math and TeX are off (``text.parse_math``,
``text.usetex``), so ``$...$`` is two dollar signs and what is between them; on the page it is
HTML-escaped; everywhere control characters (NUL, ESC, ...) and invisible or
direction-changing characters are written as escapes (``\\x00``, ``\\u202e``; on the page
marked as escapes), so nothing is hidden or reordered and the file holds no control character;
a cell longer than :data:`MAX_CELL` characters is cut, saying by how much, and long words wrap.
"""

from __future__ import annotations

import datetime
import math
import os
from collections import Counter
from collections.abc import Sequence
from typing import Any, cast

from robotrules.batch.audit.columns import VERDICTS
from robotrules.batch.audit.over_time import CRAWL
from robotrules.batch.audit.purposes import OPT_OUTS, TRAINING, by_purpose
from robotrules.batch.audit.report._html import (
    CSS,
    MAX_CELL,
    RC,
    as_html,
    as_label,
    bar_plot,
    html_figure,
    html_row,
    html_table,
    svg_of,
    text_ticks,
    visible,
)
from robotrules.batch.audit.report._trends import MAX_CHANGES, over_time_section
from robotrules.batch.audit.report._words import (
    COLOURS,
    LABELS,
    MEANINGS,
    OPT_OUT_COLOURS,
    OPT_OUT_LABELS,
    OPT_OUT_MEANINGS,
    PURPOSE_LABELS,
    kind_label,
)
from robotrules.batch.inputs.warc.reading import BadRecord
from robotrules.crawlers import KIND_LABELS
from robotrules.errors import require

__all__ = ["KIND_LABELS", "LABELS", "MAX_CELL", "MAX_CHANGES", "MAX_ROWS", "OPT_OUT_LABELS", "WIDE", "render_report",
           "visible", "write_report"]

WIDE = 30
"""Past this many crawlers an audit is wide: crawlers no site treats differently from ``*`` are
collapsed, and the plot of crawlers shows at most this many (the most blocked, and ``*``)."""

MAX_ROWS = 20_000
"""Rows of the site-by-site tables of all crawlers together (each gets its share, at least 50)."""

def _status_label(status: int) -> str:
    if status == 0:
        return "no response"
    return str(status)


def _agent_order(frame: Any) -> list[str]:
    """Agents in the order they were audited (their first row)."""
    return list(dict.fromkeys(str(agent) for agent in frame["agent"].tolist()))


def _counts(frame: Any, agents: Sequence[str]) -> dict[str, Counter[str]]:
    counts: dict[str, Counter[str]] = {agent: Counter() for agent in agents}
    for agent, verdict in zip(frame["agent"].tolist(), frame["verdict"].tolist(), strict=True):
        counts[str(agent)][str(verdict)] += 1
    return counts


def _rank(counts: dict[str, Counter[str]]) -> Any:
    """The order of crawlers in the plot and tables: most often blocked entirely, then partly, then by name."""

    def rank(agent: str) -> tuple[float, float, str]:
        total = max(1, sum(counts[agent].values()))
        return (-counts[agent]["blocked"] / total, -counts[agent]["partly"] / total, agent.lower())

    return rank


def _share_plot(counts: dict[str, Counter[str]], plt: Any, tail: set[str] | None = None) -> str:
    agents = sorted((agent for agent in counts if agent not in (tail or ())), key=_rank(counts))
    if len(agents) > WIDE:
        agents = [*agents[:WIDE - 1], *(["*"] if "*" in agents[WIDE - 1:] else agents[WIDE - 1:WIDE])]
    height = max(2.5, 0.32 * len(agents) + 1.2)
    return _stacked_bars(plt, height, [counts[a] for a in agents], [as_label(agent) for agent in agents], LABELS,
                         0.12)


def _stacked_bars(plt: Any, height: float, counts: Sequence[Counter[str]], labels: Sequence[str],
                  names: dict[str, str], legend_gap: float) -> str:
    """Horizontal bars, one per label, each split into the shares of :data:`VERDICTS` (named by
    ``names``) that its counter holds; the SVG of the figure."""
    figure, axes = plt.subplots(figsize=(9, height))
    left = [0.0] * len(labels)
    places = list(range(len(labels)))  # positions, not categories: two labels alike stay two bars
    for verdict in VERDICTS:
        shares = [100.0 * found[verdict] / max(1, sum(found.values())) for found in counts]
        if not any(shares):
            continue
        axes.barh(places, shares, left=left, color=COLOURS[verdict], label=names[verdict], edgecolor="white",
                  linewidth=0.5)
        left = [x + y for x, y in zip(left, shares, strict=True)]
    text_ticks(axes, list(labels))
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("share of sites (%)")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -legend_gap - 0.6 / height), ncol=3, frameon=False,
                title="Each bar: the sites, by verdict")
    axes.spines[["top", "right"]].set_visible(False)
    return svg_of(figure, plt)


def _rule_counts(frame: Any) -> Counter[str]:
    """How many sites have each disallow rule (field name lower-cased, spacing tidied), once per site."""
    per_site: dict[str, set[str]] = {}
    for site, rules in zip(frame["site"].tolist(), frame["rules"].tolist(), strict=True):
        if not isinstance(rules, str) or not rules:
            continue
        found = per_site.setdefault(str(site), set())
        for line in rules.split("\n"):
            field, _, value = line.partition(":")
            found.add(f"{field.strip().lower()}: {value.strip()}")
    return Counter(rule for rules in per_site.values() for rule in rules)


def render_report(frame: Any, *, title: str = "robots.txt audit", top: int = 20, rows_per_agent: int = 500,
                  bad_records: Sequence[BadRecord] | None = None) -> str:
    """The report's HTML for the audit table ``frame`` (see :func:`write_report`)."""
    require("pandas", "audit")
    require("matplotlib", "audit")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    missing = [name for name in ("site", "agent", "verdict", "status") if name not in frame.columns]
    if missing:
        raise ValueError(f"not an audit table: it lacks the column{'s' if len(missing) > 1 else ''} {', '.join(missing)}")
    if bad_records is None:
        from robotrules.batch.inputs.files import skipped_of

        bad_records = skipped_of(frame)
    frame = frame.copy()
    for name, default in (("operator", ""), ("purpose", ""), ("kind", ""), ("rules", ""), ("reason", ""),
                          ("explicit", False), ("crawl_delay", None), ("content_signals", ""), ("train_ai", None),
                          ("training_opt_out", "")):
        if name not in frame.columns:
            frame[name] = default
    over_time = ""
    latest = None
    if CRAWL in frame.columns:
        from robotrules.batch.audit.over_time import crawls_of

        crawls = crawls_of(frame)
        if len(crawls) > 1:
            with plt.rc_context(cast("Any", RC)):
                over_time = over_time_section(frame, crawls, plt)
        latest = crawls[-1] if crawls else None
        frame = frame[frame[CRAWL].astype(str) == latest].drop(columns=[CRAWL]) if latest is not None else frame
    agents = _agent_order(frame)
    sites = frame.drop_duplicates("site")
    counts = _counts(frame, agents)
    kinds = _kinds(frame)
    tail = _like_star(frame, agents) if len(agents) > WIDE else set()
    purposes = by_purpose(frame)
    parts: list[str] = []
    with plt.rc_context(cast("Any", RC)):
        purpose_svg = _purpose_plot(purposes, kinds, plt) if len(purposes) else ""
        training = purposes[purposes["kind"] == TRAINING]
        opt_outs = Counter(str(outcome) for outcome in training["training_opt_out"])
        opt_out_svg = _opt_out_plot(opt_outs, plt) if len(training) else ""
        share = _share_plot(counts, plt, tail) if agents else ""
        statuses = Counter(_status_label(int(s)) for s in sites["status"])
        status_items = sorted(statuses.items(), key=lambda item: (-item[1], item[0]))
        status_svg = bar_plot([k for k, _ in status_items], [v for _, v in status_items], "sites", "#0072B2", plt) \
            if status_items else ""
        rules = _rule_counts(frame).most_common(top)
        rules_svg = bar_plot([k for k, _ in rules], [v for _, v in rules], "sites with this rule", "#D55E00",
                              plt) if rules else ""
    generated = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts.append(f"<h1>{as_html(title)}</h1>")
    pairs = len(frame)
    if over_time:
        parts.append(f'<p class="lead">{len(crawls)} crawls, from {as_html(crawls[0])} to {as_html(crawls[-1])}: how '
                     "the sites' robots.txt changed, then the latest crawl in detail "
                     f'(<a href="#latest">{as_html(crawls[-1])}</a>).</p>')
        parts.append(over_time)
        parts.append(f'<h2 id="latest">The latest crawl: {as_html(crawls[-1])}</h2>')
    elif latest is not None:
        parts.append(f'<p class="lead">Crawl {as_html(latest)}.</p>')
    parts.append(f'<p class="lead">{len(sites)} site{"s" if len(sites) != 1 else ""} (each robots.txt once: a '
                 f"site whose robots.txt redirects to another host counts once), {len(agents)} "
                 f"crawler{'s' if len(agents) != 1 else ''}, {pairs} site × crawler pair{'s' if pairs != 1 else ''}"
                 f", made {generated}. The rules are read exactly as Google reads them.</p>")
    if bad_records:
        count = len(bad_records)
        parts.append(f'<p class="warning" role="note"><strong>{count:,} damaged record{"s" if count != 1 else ""} '
                     "of the archives skipped</strong>: the sites they held are missing from this report "
                     '(<a href="#damaged">which, and where</a>).</p>')
    totals = Counter(str(v) for v in frame["verdict"])
    parts.append('<h2 id="totals">All verdicts (site × crawler pairs)</h2><p>Each site counts once for '
                 "each crawler audited.</p>")
    parts.append('<ul class="cards" aria-label="All verdicts, in site × crawler pairs">' + "".join(
        f'<li><span class="swatch" style="background:{COLOURS[v]}"></span>{as_html(LABELS[v])}'
        f"<strong>{totals[v]}</strong></li>" for v in VERDICTS) + "</ul>")
    parts.append(_purpose_section(purposes, kinds, frame, purpose_svg, opt_outs, opt_out_svg, len(training) > 0))
    parts.append('<h2 id="share">Who is blocked (sites, per crawler)</h2>')
    if share:
        plotted = len(agents) - len(tail)
        which = (f"the {WIDE} crawlers most often blocked (of {plotted})" if plotted > WIDE else "each crawler")
        rest = (f" The {len(tail)} crawlers treated as '*' on every site have the bar of '*'; every crawler is "
                "in the table below." if tail else "")
        parts.append(html_figure(share, f"Share of sites that block {which} entirely or partly, most blocked first. "
                                    f"'*' stands for any crawler the files do not name.{rest}",
                             "Stacked bars: for each crawler, the share of sites in each verdict"))
    parts.append(_summary_table(counts, frame, kinds, tail))
    parts.append('<h2 id="status">How sites answered for robots.txt (sites)</h2>')
    if status_svg:
        parts.append(html_figure(status_svg, "HTTP status of each site's robots.txt (after redirects).",
                             "Bars: number of sites per HTTP status"))
    parts.append(html_table("HTTP status of robots.txt (number of sites)", ["Status", "Sites"],
                            [[k, v] for k, v in status_items]))
    parts.append('<h2 id="rules">The most common rules (sites)</h2>')
    if rules_svg:
        parts.append(html_figure(rules_svg, f"The {len(rules)} disallow rules found on the most sites (number of "
                                            "sites with each rule, whichever crawlers it applies to).",
                             "Bars: number of sites per disallow rule"))
        parts.append(html_table("Most common disallow rules (number of sites)", ["Rule", "Sites"], [[f"<code>{as_html(k)}</code>", v]
                                                                               for k, v in rules], raw=True))
    else:
        parts.append("<p>No site has a disallow rule for these crawlers.</p>")
    parts.append('<h2 id="agents">Each crawler, site by site (one row per site)</h2>')
    shown_agents = [agent for agent in agents if agent not in tail]
    if tail:
        parts.append(f"<p>{len(tail)} crawlers are treated exactly as '*' on every site (no file names them or "
                     "treats them otherwise): their tables would repeat the one of '*', so they are listed, by "
                     'purpose, in <a href="#crawlers">the table of crawlers</a> instead.</p>')
    limit = min(rows_per_agent, max(50, MAX_ROWS // max(1, len(shown_agents))))
    by_agent = {str(agent): rows for agent, rows in frame.groupby("agent", sort=False)} if len(frame) else {}
    for kind, members in _grouped(shown_agents, frame, kinds):
        if len(kinds) > 1 or len(shown_agents) > WIDE:
            parts.append(f"<h3>{as_html(kind_label(kind))}: each crawler, site by site</h3>")
        for agent in members:
            parts.append(_agent_section(agent, by_agent[agent], limit))
    if bad_records:
        parts.append(_damaged_section(bad_records))
    parts.append('<h2 id="meanings">What the verdicts mean</h2><dl class="verdicts">' + "".join(
        f"<dt>{as_html(LABELS[v])}</dt><dd>{as_html(MEANINGS[v][0].upper() + MEANINGS[v][1:])}.</dd>" for v in VERDICTS)
        + "</dl>")
    body = "\n".join(parts)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
            f"img-src data:\"><title>{as_html(title)}</title><style>{CSS}</style></head>"
            f"<body><main>\n{body}\n</main></body></html>\n")


# -- the purpose view ------------------------------------------------------------------------------

def _kinds(frame: Any) -> list[str]:
    """The purposes of the audited crawlers, in :data:`KIND_LABELS` order, then any other; "" last."""
    found = {str(kind) if isinstance(kind, str) else "" for kind in set(_cells(frame["kind"]))}
    order = list(KIND_LABELS)
    return sorted(found, key=lambda kind: (kind == "", order.index(kind) if kind in order else len(order), kind))


def _grouped(agents: Sequence[str], frame: Any, kinds: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``agents`` grouped by purpose (in the order of ``kinds``), each group in the order given."""
    first = frame.drop_duplicates("agent")
    kind_of = {str(agent): (str(kind) if isinstance(kind, str) else "")
               for agent, kind in zip(first["agent"].tolist(), first["kind"].tolist(), strict=True)}
    return [(kind, members) for kind in kinds if (members := [a for a in agents if kind_of.get(a, "") == kind])]


def _like_star(frame: Any, agents: Sequence[str]) -> set[str]:
    """The crawlers whose row says what the row of '*' says on every site (the long tail no file names)."""
    if "*" not in agents:
        return set()
    facts = ("verdict", "explicit", "crawl_delay", "content_signals", "train_ai", "rules", "reason")
    columns = [_cells(frame[name]) for name in facts]
    sites, names = frame["site"].tolist(), frame["agent"].tolist()
    star = {site: values for site, agent, values in zip(sites, names, zip(*columns, strict=True), strict=True)
            if agent == "*"}
    differ = {agent for site, agent, values in zip(sites, names, zip(*columns, strict=True), strict=True)
              if star.get(site) != values}
    return {str(agent) for agent in agents if agent != "*" and agent not in differ}


def _cells(column: Any) -> list[Any]:
    """A column's values as they compare: missing values (None, NaN, pandas' NA) all None."""
    return column.astype(object).where(column.notna(), None).tolist()  # type: ignore[no-any-return]


def _same(value: Any) -> Any:
    """A cell as it compares: missing values (None, NaN, pandas' NA) are all one."""
    pandas: Any = require("pandas", "audit")
    return None if value is None or pandas.isna(value) else value


def _purpose_plot(purposes: Any, kinds: Sequence[str], plt: Any) -> str:
    """Stacked bars: per purpose, the share of sites in each of the site's verdicts for those crawlers."""
    shown = [kind for kind in kinds if kind]
    counts = {kind: Counter(str(v) for v in purposes["verdict"][purposes["kind"] == kind]) for kind in shown}
    crawlers = {kind: int(purposes["crawlers"][purposes["kind"] == kind].max()) for kind in shown}
    height = max(2.2, 0.45 * len(shown) + 1.3)
    return _stacked_bars(plt, height, [counts[k] for k in shown],
                         [as_label(f"{kind_label(k)} ({crawlers[k]})") for k in shown], PURPOSE_LABELS, 0.15)


def _opt_out_plot(opt_outs: Counter[str], plt: Any) -> str:
    """Bars: how many sites opt AI training crawlers out in each way."""
    figure, axes = plt.subplots(figsize=(9, 2.6))
    places = list(range(len(OPT_OUTS)))
    values = [opt_outs[outcome] for outcome in OPT_OUTS]
    axes.barh(places, values, color=[OPT_OUT_COLOURS[outcome] for outcome in OPT_OUTS])
    text_ticks(axes, [OPT_OUT_LABELS[outcome] for outcome in OPT_OUTS])
    axes.invert_yaxis()
    axes.set_xlabel("sites")
    for y, value in enumerate(values):
        axes.annotate(str(value), (value, y), xytext=(3, 0), textcoords="offset points", va="center", fontsize=9)
    axes.spines[["top", "right"]].set_visible(False)
    return svg_of(figure, plt)


def _purpose_section(purposes: Any, kinds: Sequence[str], frame: Any, purpose_svg: str, opt_outs: Counter[str],
                     opt_out_svg: str, training: bool) -> str:
    """The purpose view: per purpose, sites that block those crawlers; then the AI training opt-out."""
    parts = ['<h2 id="purposes">By purpose (sites, per purpose)</h2>']
    shown = [kind for kind in kinds if kind]
    if not shown:
        parts.append("<p>None of the crawlers audited is in the registry, so none has a known purpose.</p>")
        return "".join(parts)
    if purpose_svg:
        parts.append(html_figure(purpose_svg, "For the crawlers of each purpose (how many were audited, in brackets): "
                                          "the share of sites that block every one of them entirely, some of them "
                                          "(entirely or on some pages), or none.",
                             "Stacked bars: for each purpose, the share of sites in each verdict"))
    rows: list[list[object]] = []
    for kind in shown:
        mine = purposes[purposes["kind"] == kind]
        count = Counter(str(v) for v in mine["verdict"])
        rows.append([kind_label(kind), int(mine["crawlers"].max()), *(count[v] for v in VERDICTS)])
    parts.append(html_table("Sites by purpose (number of sites)",
                        ["Purpose", "Crawlers audited", *(PURPOSE_LABELS[v] for v in VERDICTS)], rows))
    parts.append('<h3 id="training">Opted out of AI training (sites)</h3>')
    if not training:
        parts.append("<p>No AI training crawler was audited.</p>")
        return "".join(parts)
    total = max(1, sum(opt_outs.values()))
    parts.append("<p>How each site keeps AI training crawlers out: by its robots.txt rules, by a "
                 "<code>train-ai=n</code> preference for its home page (a Content-Usage rule, or Content-Signal "
                 "<code>ai-train=no</code>), by both, or by neither.</p>")
    if opt_out_svg:
        parts.append(html_figure(opt_out_svg, "Sites by how they opt AI training crawlers out (number of sites).",
                             "Bars: number of sites per way of opting out of AI training"))
    parts.append(html_table("AI training opt-out (number of sites)", ["How", "Sites", "Share", "What it means"],
                        [[OPT_OUT_LABELS[o], opt_outs[o], f"{100.0 * opt_outs[o] / total:.0f}%",
                          OPT_OUT_MEANINGS[o][0].upper() + OPT_OUT_MEANINGS[o][1:] + "."] for o in OPT_OUTS]))
    return "".join(parts)


def _damaged_section(bad_records: Sequence[BadRecord], limit: int = 200) -> str:
    shown = [[f"<code>{as_html(bad.path)}</code>", bad.offset, as_html(bad.detail)] for bad in bad_records[:limit]]
    more = f" (the first {limit} of {len(bad_records):,})" if len(bad_records) > limit else ""
    return ('<h2 id="damaged">Damaged records skipped</h2><p>The archives were read with damaged records '
            "skipped (a file cut short, a corrupt gzip member); each is named by its file and the byte where the "
            "damage starts. The sites whose captures were there are not in this report.</p>"
            + html_table(f"Damaged records{more}", ["File", "Byte", "What is wrong"], shown, raw=True))


def _summary_table(counts: dict[str, Counter[str]], frame: Any, kinds: Sequence[str], tail: set[str]) -> str:
    """Verdicts by crawler, one group of rows per purpose (most blocked first); the crawlers of
    ``tail`` (treated as '*' on every site) are one row per purpose, their names collapsed."""
    first = frame.drop_duplicates("agent")
    who = {str(a): (str(o or ""), str(p or "")) for a, o, p in zip(_cells(first["agent"]), _cells(first["operator"]),
                                                                   _cells(first["purpose"]), strict=True)}
    refused: Counter[str] = Counter(str(agent) for agent, value in zip(frame["agent"].tolist(),
                                                                       _cells(frame["train_ai"]), strict=True)
                                    if value is False)
    head = ["Crawler (purpose)", "Operator", *(LABELS[v] for v in VERDICTS), "train-ai=n",
            "Blocked entirely or partly (share of sites)"]
    groups: list[str] = []
    for kind, members in _grouped(sorted(counts, key=_rank(counts)), frame, kinds):
        rows: list[str] = []
        for agent in (a for a in members if a not in tail):
            count = counts[agent]
            total = max(1, sum(count.values()))
            operator, purpose = _operator_purpose(agent, *who.get(agent, ("", "")))
            cells = [f'{as_html(agent)}<span class="note">{as_html(purpose)}</span>', as_html(operator),
                     *(count[v] for v in VERDICTS), refused[agent],
                     f"{100.0 * (count['blocked'] + count['partly']) / total:.0f}%"]
            rows.append(html_row(cells))
        alike = sorted((a for a in members if a in tail), key=str.lower)
        if alike:
            names = ", ".join(as_html(f"{a} ({_operator_purpose(a, *who.get(a, ('', '')))[0]})") for a in alike)
            other = "other " if len(alike) < len(members) else ""
            rows.append(f'<tr><td colspan="{len(head)}"><details><summary>{len(alike)} {other}crawler'
                        f"{'s' if len(alike) != 1 else ''} of this purpose, treated as '*' on every site (no file "
                        f"names them)</summary>{names}</details></td></tr>")
        title = f"{kind_label(kind)}: {len(members)} crawler{'s' if len(members) != 1 else ''}" if kind else \
            kind_label(kind)
        group_head = f'<tr><th colspan="{len(head)}" scope="rowgroup">{as_html(title)}</th></tr>' \
            if len(kinds) > 1 or tail else ""
        groups.append(f'<tbody class="group">{group_head}{"".join(rows)}</tbody>')
    header = "".join(f'<th scope="col">{as_html(name)}</th>' for name in head)
    return (f'<table id="crawlers"><caption>Verdicts by crawler (number of sites), by purpose</caption>'
            f"<thead><tr>{header}</tr></thead>{''.join(groups)}</table>")


NOT_IN_REGISTRY = "not in the registry"
"""What the report says of the operator and purpose of a crawler the registry does not know."""


def _operator_purpose(agent: str, operator: str, purpose: str) -> tuple[str, str]:
    """The operator and purpose to show for ``agent``: the registry's, "any" for '*', else
    :data:`NOT_IN_REGISTRY` (an audit of a token the registry lacks has neither)."""
    if agent == "*":
        return operator or "any operator", purpose or "any crawler no group of the file names"
    return operator or NOT_IN_REGISTRY, purpose or f"unknown: {NOT_IN_REGISTRY}"


def _agent_section(agent: str, rows: Any, limit: int) -> str:
    shown = rows.head(limit)
    training = any(isinstance(value, str) and value for value in shown["training_opt_out"])
    table_rows: list[list[str]] = []
    for row in shown.itertuples(index=False):
        delay = getattr(row, "crawl_delay", None)
        delay_text = "" if delay is None or math.isnan(delay) else f"{delay:g} s"
        rules = getattr(row, "rules", "") or ""
        train = _same(getattr(row, "train_ai", None))
        cells = [
            f"<code>{as_html(row.site)}</code>", as_html(_status_label(int(row.status))),
            (f'<span class="swatch" style="background:{COLOURS.get(str(row.verdict), "#999")}"></span>'
             f"{as_html(LABELS.get(str(row.verdict), row.verdict))}"),
            "yes" if bool(getattr(row, "explicit", False)) else "no", as_html(delay_text),
            as_html(getattr(row, "content_signals", "") or ""), "" if train is None else ("yes" if train else "no"),
        ]
        if training:
            outcome = str(getattr(row, "training_opt_out", "") or "")
            cells.append(as_html(OPT_OUT_LABELS.get(outcome, outcome)))
        cells += [f"<pre>{as_html(rules, lines=True)}</pre>" if rules else "", as_html(getattr(row, "reason", "") or "")]
        table_rows.append(cells)
    more = f" (the first {limit} of {len(rows)})" if len(rows) > limit else ""
    head = ["Site (robots.txt)", "Status", "Verdict", "Named in the file", "Crawl delay", "Content signals",
            "train-ai for /", *(["AI training opt-out"] if training else []), "Disallow rules", "Why"]
    table = html_table(f"{agent}: every site{more}", head, table_rows, raw=True)
    blocked = int((rows["verdict"] == "blocked").sum())
    first = rows.iloc[0]
    operator, purpose = _operator_purpose(agent, str(_same(first.get("operator")) or ""),
                                          str(_same(first.get("purpose")) or ""))
    return (f"<details><summary>{as_html(agent)} ({as_html(operator)}: {as_html(purpose)}): blocked entirely on "
            f"{blocked} of {len(rows)} site{'s' if len(rows) != 1 else ''}</summary>{table}</details>")


def write_report(frame: Any, path: str | os.PathLike[str], *, title: str = "robots.txt audit", top: int = 20,
                 bad_records: Sequence[BadRecord] | None = None) -> None:
    """Write the audit table ``frame`` as one self-contained HTML file at ``path`` (UTF-8).

    The page loads nothing from anywhere (inline CSS and SVG; a Content-Security-Policy forbids
    any request). ``top``: how many of the most common rules to show. ``bad_records``: the
    damaged records of the archives skipped to make the table (default: those noted in
    ``frame.attrs``, see :func:`robotrules.batch.inputs.files.with_skipped`), counted and listed.
    Whatever the table holds is shown as text (see the module). ``ValueError`` when ``frame``
    is not an audit table.
    """
    text = render_report(frame, title=title, top=top, bad_records=bad_records)
    with open(os.fspath(path), "w", encoding="utf-8") as handle:
        handle.write(text)
