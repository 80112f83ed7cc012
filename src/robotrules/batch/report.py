"""The audit as one self-contained HTML page: plots and tables a person can read (issue #11).

:func:`write_report` takes the table of :func:`robotrules.batch.audit.audit` (a pandas DataFrame
with its columns) and writes one HTML file that needs nothing else: the CSS is inline and the
plots are inline SVG drawn by matplotlib (text kept as text, so it scales and can be searched),
so the page opens offline and makes no request. It shows the share of sites that block each
agent entirely or partly, the mix of HTTP statuses of the robots.txt files, the most common
rules, a table per agent, and the damaged records of the archives that were skipped, if any.
Needs ``robotrules[audit]`` (pandas and matplotlib).

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
import html
import io
import math
import os
import re
import warnings
from collections import Counter
from collections.abc import Sequence
from typing import Any, cast

from robotrules.batch.audit import VERDICTS
from robotrules.batch.warc import BadRecord
from robotrules.errors import require

__all__ = ["LABELS", "MAX_CELL", "render_report", "visible", "write_report"]

MAX_CELL = 2_000
"""Characters of one table cell shown; the rest is left out, saying how much (the table has it all)."""

MAX_LABEL = 60
"""Characters of one label in a plot."""

_HIDDEN = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069"
                     "\ufeff\ufffe\uffff\ud800-\udfff]")
"""What is shown as an escape: the ASCII control characters but the line feed, DEL, the Latin-1
control characters (U+0080-U+009F), and characters
that are invisible or change the direction of the text around them (bidi controls, zero-width
characters, line and paragraph separators, byte order marks, noncharacters, lone surrogates)."""

_HIDDEN_OR_LINE = re.compile(_HIDDEN.pattern[:-1] + "\n]")


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


RC = {"svg.fonttype": "none", "font.size": 10, "svg.hashsalt": "robotrules-report",
      "text.usetex": False, "text.parse_math": False, "axes.formatter.use_mathtext": False}
"""matplotlib settings of the plots: text kept as text in the SVG, and never read as math or TeX
(a site's rule ``/$\\x$`` is text, not a formula matplotlib cannot parse)."""

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

CSS = """
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1a1a1a;
       background: #fff; margin: 0 auto; max-width: 1100px; padding: 1rem 1.5rem 3rem; }
h1 { font-size: 1.8rem; margin-bottom: .25rem; } h2 { margin-top: 2.5rem; border-bottom: 2px solid #ddd; }
.lead { color: #444; margin-top: 0; }
.cards { display: flex; flex-wrap: wrap; gap: .75rem; margin: 1rem 0; padding: 0; list-style: none; }
.cards li { border: 1px solid #ccc; border-radius: 6px; padding: .5rem .9rem; min-width: 8rem; }
.cards strong { display: block; font-size: 1.5rem; }
figure { margin: 1rem 0; } figure svg { max-width: 100%; height: auto; }
figcaption { color: #444; font-size: .95rem; }
table { border-collapse: collapse; width: 100%; margin: .75rem 0; font-size: .92rem; }
th, td { border: 1px solid #ccc; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f2f2f2; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
td, code, pre, summary, .warning { overflow-wrap: anywhere; }
.warning { border-left: 4px solid #D55E00; padding: .4rem .8rem; background: #fff4ec; }
.esc { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .85em; background: #e8e8e8;
       color: #6b2400; border-radius: 2px; padding: 0 .1em; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
code, pre { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9em; }
pre { margin: 0; white-space: pre-wrap; }
.swatch { display: inline-block; width: .8em; height: .8em; border-radius: 2px; margin-right: .3em;
          vertical-align: baseline; }
details { margin: .5rem 0; } summary { cursor: pointer; font-weight: 600; }
dl.verdicts dt { font-weight: 600; } dl.verdicts dd { margin: 0 0 .5rem 1.2rem; }
"""


def _svg(figure: Any, plt: Any) -> str:
    """A matplotlib figure as an inline ``<svg>`` element (no XML prologue), then closed."""
    buffer = io.StringIO()
    with warnings.catch_warnings():  # a label in a script the font lacks: the browser's fonts show it
        warnings.filterwarnings("ignore", message=r"Glyph .* missing from font", category=UserWarning)
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _status_label(status: int) -> str:
    if status == 0:
        return "no response"
    return str(status)


def visible(text: str, *, lines: bool = False) -> str:
    """``text`` with control characters and invisible or direction-changing characters written
    as escapes: NUL as ``\x00``, ESC as ``\x1b``, a right-to-left override as ``\u202e``; the
    line feed too, unless ``lines`` (a multi-line cell)."""
    return (_HIDDEN if lines else _HIDDEN_OR_LINE).sub(lambda found: _escape(found.group()), text)


def _cut(text: str, limit: int = MAX_CELL) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more characters)"


def _e(value: object, *, lines: bool = False) -> str:
    """A value from the table as HTML text: cut at :data:`MAX_CELL` characters, escaped, and its
    control and invisible characters written as escapes marked as such (``<span class="esc">``)."""
    text = _cut(str(value))
    pattern = _HIDDEN if lines else _HIDDEN_OR_LINE
    parts: list[str] = []
    last = 0
    for found in pattern.finditer(text):
        char = found.group()
        parts.append(html.escape(text[last:found.start()], quote=True))
        parts.append(f'<span class="esc" title="U+{ord(char):04X}">{_escape(char)}</span>')
        last = found.end()
    parts.append(html.escape(text[last:], quote=True))
    return "".join(parts)


def _label(value: object) -> str:
    """A value from the table as a plot label: control characters as escapes, at most :data:`MAX_LABEL` characters."""
    text = visible(str(value))
    return text if len(text) <= MAX_LABEL else text[:MAX_LABEL - 1] + "…"


def _agent_order(frame: Any) -> list[str]:
    """Agents in the order they were audited (their first row)."""
    return list(dict.fromkeys(str(agent) for agent in frame["agent"]))


def _counts(frame: Any, agents: Sequence[str]) -> dict[str, Counter[str]]:
    counts: dict[str, Counter[str]] = {agent: Counter() for agent in agents}
    for agent, verdict in zip(frame["agent"], frame["verdict"], strict=True):
        counts[str(agent)][str(verdict)] += 1
    return counts


def _share_plot(counts: dict[str, Counter[str]], plt: Any) -> str:
    def rank(agent: str) -> tuple[float, float, str]:
        total = max(1, sum(counts[agent].values()))
        return (-counts[agent]["blocked"] / total, -counts[agent]["partly"] / total, agent.lower())

    agents = sorted(counts, key=rank)
    height = max(2.5, 0.32 * len(agents) + 1.2)
    figure, axes = plt.subplots(figsize=(9, height))
    left = [0.0] * len(agents)
    places = list(range(len(agents)))  # positions, not categories: two labels alike stay two bars
    for verdict in VERDICTS:
        shares = [100.0 * counts[a][verdict] / max(1, sum(counts[a].values())) for a in agents]
        if not any(shares):
            continue
        axes.barh(places, shares, left=left, color=COLOURS[verdict], label=LABELS[verdict], edgecolor="white",
                  linewidth=0.5)
        left = [x + y for x, y in zip(left, shares, strict=True)]
    _text_ticks(axes, [_label(agent) for agent in agents])
    axes.invert_yaxis()
    axes.set_xlim(0, 100)
    axes.set_xlabel("share of sites (%)")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.12 - 0.6 / height), ncol=3, frameon=False)
    axes.spines[["top", "right"]].set_visible(False)
    return _svg(figure, plt)


def _text_ticks(axes: Any, labels: Sequence[str]) -> None:
    """The y tick labels, as plain text whatever the settings (no math, no TeX)."""
    axes.set_yticks(list(range(len(labels))), list(labels))
    for tick in axes.get_yticklabels():
        tick.set_parse_math(False)
        tick.set_usetex(False)


def _bar_plot(labels: Sequence[str], values: Sequence[int], xlabel: str, colour: str, plt: Any) -> str:
    figure, axes = plt.subplots(figsize=(9, max(2.0, 0.32 * len(labels) + 1.0)))
    axes.barh(list(range(len(labels))), list(values), color=colour)
    _text_ticks(axes, [_label(label) for label in labels])
    axes.invert_yaxis()
    axes.set_xlabel(xlabel)
    for y, value in enumerate(values):
        axes.annotate(str(value), (value, y), xytext=(3, 0), textcoords="offset points", va="center", fontsize=9)
    axes.spines[["top", "right"]].set_visible(False)
    return _svg(figure, plt)


def _figure(svg: str, caption: str, label: str) -> str:
    return (f'<figure><div role="img" aria-label="{_e(label)}">{svg}</div>'
            f"<figcaption>{_e(caption)}</figcaption></figure>")


def _rule_counts(frame: Any) -> Counter[str]:
    """How many sites have each disallow rule (field name lower-cased, spacing tidied), once per site."""
    per_site: dict[str, set[str]] = {}
    for site, rules in zip(frame["site"], frame["rules"], strict=True):
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
        from robotrules.batch.sources import skipped_of

        bad_records = skipped_of(frame)
    frame = frame.copy()
    for name, default in (("operator", ""), ("purpose", ""), ("rules", ""), ("reason", ""), ("explicit", False),
                          ("crawl_delay", None), ("content_signals", "")):
        if name not in frame.columns:
            frame[name] = default
    agents = _agent_order(frame)
    sites = frame.drop_duplicates("site")
    counts = _counts(frame, agents)
    parts: list[str] = []
    with plt.rc_context(cast("Any", RC)):
        share = _share_plot(counts, plt) if agents else ""
        statuses = Counter(_status_label(int(s)) for s in sites["status"])
        status_items = sorted(statuses.items(), key=lambda item: (-item[1], item[0]))
        status_svg = _bar_plot([k for k, _ in status_items], [v for _, v in status_items], "sites", "#0072B2", plt) \
            if status_items else ""
        rules = _rule_counts(frame).most_common(top)
        rules_svg = _bar_plot([k for k, _ in rules], [v for _, v in rules], "sites with this rule", "#D55E00",
                              plt) if rules else ""
    generated = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    parts.append(f"<h1>{_e(title)}</h1>")
    parts.append(f'<p class="lead">{len(sites)} site{"s" if len(sites) != 1 else ""}, {len(agents)} '
                 f"crawler{'s' if len(agents) != 1 else ''}, made {generated}. The rules are read exactly as "
                 "Google reads them.</p>")
    if bad_records:
        count = len(bad_records)
        parts.append(f'<p class="warning" role="note"><strong>{count:,} damaged record{"s" if count != 1 else ""} '
                     "of the archives skipped</strong>: the sites they held are missing from this report "
                     '(<a href="#damaged">which, and where</a>).</p>')
    totals = Counter(str(v) for v in frame["verdict"])
    parts.append('<ul class="cards" aria-label="All verdicts">' + "".join(
        f'<li><span class="swatch" style="background:{COLOURS[v]}"></span>{_e(LABELS[v])}'
        f"<strong>{totals[v]}</strong></li>" for v in VERDICTS) + "</ul>")
    parts.append('<h2 id="share">Who is blocked</h2>')
    if share:
        parts.append(_figure(share, "Share of sites that block each crawler entirely or partly, most blocked first. "
                                    "'*' stands for any crawler the files do not name.",
                             "Stacked bars: for each crawler, the share of sites in each verdict"))
    parts.append(_summary_table(counts, frame))
    parts.append('<h2 id="status">How sites answered for robots.txt</h2>')
    if status_svg:
        parts.append(_figure(status_svg, "HTTP status of each site's robots.txt (after redirects).",
                             "Bars: number of sites per HTTP status"))
    parts.append(_table("HTTP status of robots.txt", ["Status", "Sites"], [[k, v] for k, v in status_items]))
    parts.append('<h2 id="rules">The most common rules</h2>')
    if rules_svg:
        parts.append(_figure(rules_svg, f"The {len(rules)} disallow rules found on the most sites.",
                             "Bars: number of sites per disallow rule"))
        parts.append(_table("Most common disallow rules", ["Rule", "Sites"], [[f"<code>{_e(k)}</code>", v]
                                                                               for k, v in rules], raw=True))
    else:
        parts.append("<p>No site has a disallow rule for these crawlers.</p>")
    parts.append('<h2 id="agents">Each crawler, site by site</h2>')
    for agent in agents:
        parts.append(_agent_section(agent, frame[frame["agent"] == agent], rows_per_agent))
    if bad_records:
        parts.append(_damaged_section(bad_records))
    parts.append('<h2 id="meanings">What the verdicts mean</h2><dl class="verdicts">' + "".join(
        f"<dt>{_e(LABELS[v])}</dt><dd>{_e(MEANINGS[v][0].upper() + MEANINGS[v][1:])}.</dd>" for v in VERDICTS)
        + "</dl>")
    body = "\n".join(parts)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
            f"img-src data:\"><title>{_e(title)}</title><style>{CSS}</style></head>"
            f"<body><main>\n{body}\n</main></body></html>\n")


def _damaged_section(bad_records: Sequence[BadRecord], limit: int = 200) -> str:
    shown = [[f"<code>{_e(bad.path)}</code>", bad.offset, _e(bad.detail)] for bad in bad_records[:limit]]
    more = f" (the first {limit} of {len(bad_records):,})" if len(bad_records) > limit else ""
    return ('<h2 id="damaged">Damaged records skipped</h2><p>The archives were read with damaged records '
            "skipped (a file cut short, a corrupt gzip member); each is named by its file and the byte where the "
            "damage starts. The sites whose captures were there are not in this report.</p>"
            + _table(f"Damaged records{more}", ["File", "Byte", "What is wrong"], shown, raw=True))


def _table(caption: str, head: Sequence[str], rows: Sequence[Sequence[object]], raw: bool = False) -> str:
    cells = "".join("<tr>" + "".join(
        f'<td class="num">{value}</td>' if isinstance(value, (int, float)) else
        f"<td>{value if raw else _e(value)}</td>" for value in row) + "</tr>" for row in rows)
    header = "".join(f'<th scope="col">{_e(name)}</th>' for name in head)
    return f"<table><caption>{_e(caption)}</caption><thead><tr>{header}</tr></thead><tbody>{cells}</tbody></table>"


def _summary_table(counts: dict[str, Counter[str]], frame: Any) -> str:
    who = {str(a): (str(o or ""), str(p or "")) for a, o, p in zip(frame["agent"], frame["operator"], frame["purpose"],
                                                                   strict=True)}
    rows: list[list[object]] = []
    for agent, count in counts.items():
        total = max(1, sum(count.values()))
        operator, purpose = who.get(agent, ("", ""))
        rows.append([agent, operator, purpose, *(count[v] for v in VERDICTS),
                     f"{100.0 * (count['blocked'] + count['partly']) / total:.0f}%"])
    return _table("Verdicts by crawler (number of sites)",
                  ["Crawler", "Operator", "Purpose", *(LABELS[v] for v in VERDICTS), "Blocked entirely or partly"], rows)


def _agent_section(agent: str, rows: Any, limit: int) -> str:
    shown = rows.head(limit)
    table_rows: list[list[object]] = []
    for row in shown.itertuples(index=False):
        delay = getattr(row, "crawl_delay", None)
        delay_text = "" if delay is None or math.isnan(delay) else f"{delay:g} s"
        rules = getattr(row, "rules", "") or ""
        table_rows.append([
            f"<code>{_e(row.site)}</code>", _e(_status_label(int(row.status))),
            (f'<span class="swatch" style="background:{COLOURS.get(str(row.verdict), "#999")}"></span>'
             f"{_e(LABELS.get(str(row.verdict), row.verdict))}"),
            "yes" if bool(getattr(row, "explicit", False)) else "no", _e(delay_text),
            _e(getattr(row, "content_signals", "") or ""), f"<pre>{_e(rules, lines=True)}</pre>" if rules else "",
            _e(getattr(row, "reason", "") or ""),
        ])
    more = f" (the first {limit} of {len(rows)})" if len(rows) > limit else ""
    table = _table(f"{agent}: every site{more}", ["Site (robots.txt)", "Status", "Verdict", "Named in the file",
                                                  "Crawl delay", "Content signals", "Disallow rules", "Why"],
                   table_rows, raw=True)
    blocked = int((rows["verdict"] == "blocked").sum())
    return (f"<details><summary>{_e(agent)}: blocked entirely on {blocked} of {len(rows)} "
            f"site{'s' if len(rows) != 1 else ''}</summary>{table}</details>")


def write_report(frame: Any, path: str | os.PathLike[str], *, title: str = "robots.txt audit", top: int = 20,
                 bad_records: Sequence[BadRecord] | None = None) -> None:
    """Write the audit table ``frame`` as one self-contained HTML file at ``path`` (UTF-8).

    The page loads nothing from anywhere (inline CSS and SVG; a Content-Security-Policy forbids
    any request). ``top``: how many of the most common rules to show. ``bad_records``: the
    damaged records of the archives skipped to make the table (default: those noted in
    ``frame.attrs``, see :func:`robotrules.batch.sources.with_skipped`), counted and listed.
    Whatever the table holds is shown as text (see the module). ``ValueError`` when ``frame``
    is not an audit table.
    """
    text = render_report(frame, title=title, top=top, bad_records=bad_records)
    with open(os.fspath(path), "w", encoding="utf-8") as handle:
        handle.write(text)
