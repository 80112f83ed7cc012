"""Text from strangers as HTML and plot labels, and the building blocks of the audit report's page.

Everything an audit table holds came from strangers (hosts, agents, rules, reasons): it is shown
as text, never interpreted. On the page it is HTML-escaped (:func:`as_html`); in the plots
matplotlib's math and TeX are off (:data:`RC`, :func:`text_ticks`), so ``$...$`` is two dollar
signs and what is between them; everywhere control characters (NUL, ESC, ...) and invisible or
direction-changing characters are written as escapes (``\\x00``, ``\\u202e``; on the page
marked as escapes: :func:`visible`), so nothing is hidden or reordered; a cell longer than
:data:`MAX_CELL` characters is cut, saying by how much (:func:`cut`). Used by
:mod:`robotrules.batch.audit.report.page`; matplotlib is passed in (``plt``), never imported here.
"""

from __future__ import annotations

import html
import io
import re
import warnings
from collections.abc import Sequence
from typing import Any

__all__ = ["CSS", "LINE_STYLES", "MAX_CELL", "MAX_LABEL", "RC", "as_html", "as_label", "bar_plot", "cut", "escape_char",
           "html_figure", "html_row", "html_table", "line_plot", "svg_of", "text_ticks", "visible"]

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


def escape_char(char: str) -> str:
    """One character as the escape that shows it: ``\\x00``, ``\\u202e``."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


RC = {"svg.fonttype": "none", "font.size": 10, "svg.hashsalt": "robotrules-report",
      "text.usetex": False, "text.parse_math": False, "axes.formatter.use_mathtext": False}
"""matplotlib settings of the plots: text kept as text in the SVG, and never read as math or TeX
(a site's rule ``/$\\x$`` is text, not a formula matplotlib cannot parse)."""

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
tbody.group th { background: #e8eef4; text-align: left; }
td .note { display: block; color: #555; font-size: .85em; }
td details { margin: 0; } td details summary { font-weight: normal; }
dl.verdicts dt { font-weight: 600; } dl.verdicts dd { margin: 0 0 .5rem 1.2rem; }
"""


def svg_of(figure: Any, plt: Any) -> str:
    """A matplotlib figure as an inline ``<svg>`` element (no XML prologue), then closed."""
    buffer = io.StringIO()
    with warnings.catch_warnings():  # a label in a script the font lacks: the browser's fonts show it
        warnings.filterwarnings("ignore", message=r"Glyph .* missing from font", category=UserWarning)
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def visible(text: str, *, lines: bool = False) -> str:
    """``text`` with control characters and invisible or direction-changing characters written
    as escapes: NUL as ``\x00``, ESC as ``\x1b``, a right-to-left override as ``\u202e``; the
    line feed too, unless ``lines`` (a multi-line cell)."""
    return (_HIDDEN if lines else _HIDDEN_OR_LINE).sub(lambda found: escape_char(found.group()), text)


def cut(text: str, limit: int = MAX_CELL) -> str:
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text) - limit:,} more characters)"


def as_html(value: object, *, lines: bool = False) -> str:
    """A value from the table as HTML text: cut at :data:`MAX_CELL` characters, escaped, and its
    control and invisible characters written as escapes marked as such (``<span class="esc">``)."""
    text = cut(str(value))
    pattern = _HIDDEN if lines else _HIDDEN_OR_LINE
    parts: list[str] = []
    last = 0
    for found in pattern.finditer(text):
        char = found.group()
        parts.append(html.escape(text[last:found.start()], quote=True))
        parts.append(f'<span class="esc" title="U+{ord(char):04X}">{escape_char(char)}</span>')
        last = found.end()
    parts.append(html.escape(text[last:], quote=True))
    return "".join(parts)


def as_label(value: object) -> str:
    """A value from the table as a plot label: control characters as escapes, at most :data:`MAX_LABEL` characters."""
    text = visible(str(value))
    return text if len(text) <= MAX_LABEL else text[:MAX_LABEL - 1] + "…"


def text_ticks(axes: Any, labels: Sequence[str]) -> None:
    """The y tick labels, as plain text whatever the settings (no math, no TeX)."""
    axes.set_yticks(list(range(len(labels))), list(labels))
    for tick in axes.get_yticklabels():
        tick.set_parse_math(False)
        tick.set_usetex(False)


def bar_plot(labels: Sequence[str], values: Sequence[int], xlabel: str, colour: str, plt: Any) -> str:
    figure, axes = plt.subplots(figsize=(9, max(2.0, 0.32 * len(labels) + 1.0)))
    axes.barh(list(range(len(labels))), list(values), color=colour)
    text_ticks(axes, [as_label(label) for label in labels])
    axes.invert_yaxis()
    axes.set_xlabel(xlabel)
    for y, value in enumerate(values):
        axes.annotate(str(value), (value, y), xytext=(3, 0), textcoords="offset points", va="center", fontsize=9)
    axes.spines[["top", "right"]].set_visible(False)
    return svg_of(figure, plt)


def html_figure(svg: str, caption: str, label: str) -> str:
    return (f'<figure><div role="img" aria-label="{as_html(label)}">{svg}</div>'
            f"<figcaption>{as_html(caption)}</figcaption></figure>")


def html_table(caption: str, head: Sequence[str], rows: Sequence[Sequence[object]], raw: bool = False) -> str:
    cells = "".join(html_row(row if raw else [v if isinstance(v, (int, float)) else as_html(v) for v in row]) for row in rows)
    header = "".join(f'<th scope="col">{as_html(name)}</th>' for name in head)
    return f"<table><caption>{as_html(caption)}</caption><thead><tr>{header}</tr></thead><tbody>{cells}</tbody></table>"


def html_row(cells: Sequence[object]) -> str:
    """One table row of cells already HTML (numbers right-aligned)."""
    return "<tr>" + "".join(f'<td class="num">{value}</td>' if isinstance(value, (int, float)) else
                            f"<td>{value}</td>" for value in cells) + "</tr>"


LINE_STYLES: tuple[tuple[str, str, str], ...] = (
    ("#0072B2", "o", "-"), ("#D55E00", "s", "--"), ("#009E73", "^", ":"), ("#CC79A7", "D", "-."),
    ("#E69F00", "v", "-"), ("#56B4E9", "P", "--"), ("#000000", "X", ":"),
)
"""Colour (Okabe-Ito, colour-blind-safe), marker and dash of each line of :func:`line_plot`: no two
lines are told apart by colour alone; as many lines as styles at most."""


def line_plot(crawls: Sequence[str], series: Sequence[tuple[str, Sequence[float]]], ylabel: str, plt: Any) -> str:
    """Lines across crawls (x: ``crawls`` in order, as text), one per ``(name, values)`` of
    ``series`` (values in %, 0-100), each with its own colour, marker and dash
    (:data:`LINE_STYLES`), named in the legend; the SVG of the figure."""
    figure, axes = plt.subplots(figsize=(9, 3.6))
    places = list(range(len(crawls)))
    for (name, values), (colour, marker, dash) in zip(series, LINE_STYLES, strict=False):
        axes.plot(places, list(values), color=colour, marker=marker, linestyle=dash, linewidth=1.8, markersize=6,
                  label=as_label(name))
    axes.set_xticks(places, [as_label(label) for label in crawls], rotation=30 if len(crawls) > 4 else 0,
                    ha="right" if len(crawls) > 4 else "center")
    for tick in axes.get_xticklabels():
        tick.set_parse_math(False)
        tick.set_usetex(False)
    axes.set_xlim(-0.3, max(0.3, len(crawls) - 0.7))
    axes.set_ylim(0, 100)
    axes.set_ylabel(ylabel)
    axes.set_xlabel("crawl")
    axes.grid(axis="y", color="#dddddd", linewidth=0.6)
    legend = axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    for text in legend.get_texts():
        text.set_parse_math(False)
        text.set_usetex(False)
    axes.spines[["top", "right"]].set_visible(False)
    return svg_of(figure, plt)
