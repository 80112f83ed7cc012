"""``robotrules demo``: the embedded example explained, line by line, linted and decided offline.

The first command to run after installing: no network, no file, exit code 0. It shows what each
line of Google's example robots.txt means, that it lints clean, and how sample URLs are decided
for a few crawlers, with the deciding line of each verdict (DESIGN 5).
"""

from __future__ import annotations

from typing import Any

import click

from robotrules.answers import check_offline
from robotrules.cli import _options as options
from robotrules.cli._commands_lint import location
from robotrules.cli._errors import EXIT_OK
from robotrules.cli._example import EXAMPLE, EXAMPLE_AGENTS, EXAMPLE_NAME, EXAMPLE_URLS
from robotrules.cli._output import INDENT, diagnostic_dict, verdict_lines
from robotrules.core.lint import lint
from robotrules.core.robotstxt import RobotsTxt, parse
from robotrules.core.rules import Rule

__all__ = ["demo", "meanings"]

HELP = """Explain an example robots.txt: what each line means, and how URLs are decided.

Uses Google's example file (no network, no file needed): its lines explained, its lint
result, and the verdicts for sample URLs and crawlers with the deciding line of each.
Always exits with 0.

\b
Examples:
  robotrules demo
  robotrules demo --json
"""


@click.command("demo", help=HELP, short_help="Explain an example robots.txt and how URLs are decided.")
@options.output_options
def demo(**params: Any) -> int:
    """Always exit code 0."""
    out = options.output(params)
    robots = parse(EXAMPLE)
    text = EXAMPLE.decode("utf-8")
    lines = text.splitlines()
    meaning = meanings(robots, lines)
    diagnostics = lint(EXAMPLE)
    verdicts = [check_offline(robots, url, agent, EXAMPLE_NAME) for agent in EXAMPLE_AGENTS for url in EXAMPLE_URLS]
    if out.as_json:
        out.json({
            "robots_txt": text,
            "lines": [{"line": n, "text": line, "meaning": meaning.get(n)} for n, line in enumerate(lines, 1)],
            "diagnostics": [diagnostic_dict(d) for d in diagnostics],
            "verdicts": [v.to_dict() for v in verdicts],
        })
        return EXIT_OK
    out.echo(out.style(f"The {EXAMPLE_NAME} (from Google's documentation), line by line:", bold=True))
    out.echo()
    for number, line in enumerate(lines, 1):
        out.echo(f"{number:4} | {line}")
        if number in meaning:
            out.echo("     | " + out.style(f"  {meaning[number]}", dim=True))
    out.echo()
    out.echo(out.style("Lint:", bold=True) + (" no problems found" if not diagnostics else ""))
    for d in diagnostics:
        out.echo(f"{INDENT}{location(EXAMPLE_NAME, d)}: {d.severity} {d.code}: {d.message}")
        if d.fix is not None:
            out.echo(f"{INDENT * 2}fix: {d.fix}")
    out.echo()
    out.echo(out.style(f"Verdicts for {', '.join(EXAMPLE_AGENTS)} (the longest matching rule decides; "
                       "on a tie, allow wins):", bold=True))
    for verdict in verdicts:
        for line in verdict_lines(out, verdict):
            out.echo(line)
    out.echo()
    out.echo(out.style("Next, on your own files and sites:", bold=True))
    for example in ("robotrules lint robots.txt",
                    "robotrules test robots.txt -a Googlebot /private/page /products/",
                    "robotrules check -a Googlebot https://example.com/some/page",
                    "robotrules diff robots.txt robots-new.txt"):
        out.echo(INDENT + example)
    return EXIT_OK


def _rule_meaning(rule: Rule, crawlers: str) -> str:
    verb = "may fetch" if rule.allow else "may not fetch"
    value = rule.value
    if not value:
        return "an empty rule: ignored"
    if "*" in value or value.endswith("$"):
        notes = ["'*' is any characters"] if "*" in value else []
        if value.endswith("$"):
            notes.append("'$' is the end of the URL")
        return f"{crawlers} {verb} URLs matching {value} ({', '.join(notes)})"
    meaning = f"{crawlers} {verb} URLs whose path starts with {value}"
    if rule.allow and value.endswith(("/index.html", "/index.htm")):
        meaning += f", and Google also allows the directory {value.rsplit('/', 1)[0]}/ itself"
    return meaning


def meanings(robots: RobotsTxt, lines: list[str]) -> dict[int, str]:
    """What each line of a parsed file means, in plain words, by line number (comments, blank
    lines and lines the parser ignored have none, except a comment, which is said to be one)."""
    found: dict[int, str] = {}
    for group in robots.groups:
        names = ", ".join(group.agents)
        crawlers = "every crawler no other group names" if group.is_global else names
        found[group.line] = f"the rules below apply to {crawlers}"
        for rule in group.rules:
            found[rule.line] = _rule_meaning(rule, "they" if group.is_global else names)
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("#"):
            found.setdefault(number, "a comment: ignored")
        elif stripped.lower().startswith("sitemap:"):
            found.setdefault(number, "where the sitemap is; it concerns every crawler, whatever the group")
    return found
