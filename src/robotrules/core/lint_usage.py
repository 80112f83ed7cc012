"""Lint findings for the AI-use lines, judged by their effect (A1-A7).

A Content-Usage or Content-Signal line that reads differently from what its author meant fails
silently: a quoted value, an upper-case key or a space in a path leaves a use unknown instead of
refused. These findings say so, each with the effect. :mod:`robotrules.core.lint` owns the codes
and their messages; this module returns ``(line, code, detail)`` triples for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from robotrules.core.model import Extension, Group, Model
from robotrules.core.rules import verdict
from robotrules.core.usage import LEGACY_LABELS, VOCABULARY, UsageRule, parse_signal, usage_rule

__all__ = ["CODES", "fixed_signal", "fixed_usage", "usage_findings"]

CODES: dict[str, tuple[str, str]] = {
    "usage-outside-group": ("error", "a Content-Usage line before any user-agent line applies to no crawler"),
    "usage-unreadable": ("warning", ("this Content-Usage statement cannot be read (lower-case keys, values y or n, "
                                    "separated by commas), so every use it names stays unknown")),
    "usage-path": ("warning", ("a Content-Usage path must start with '/' and write spaces as %20; "
                              "the line is not read as meant, so every use it names stays unknown")),
    "usage-unknown-value": ("warning", "only y or n, unquoted and lower-case, state a preference; this use stays unknown"),
    "usage-duplicate": ("warning", "the same use is named twice in one statement; only the last value counts"),
    "usage-old-label": ("info", "a label of an earlier draft; it is not read (the labels are train-ai and search)"),
    "usage-on-disallowed": ("info", ("the group disallows this path, and preferences apply only to pages that may be "
                                    "crawled, so this line has no effect")),
    "signal-misspelt": ("warning", "'Content-Signals' is not read: the field is 'Content-Signal'"),
    "signal-value": ("warning", "a Content-Signal value is yes or no; this one states no preference"),
    "signal-contradicts-usage": ("warning", ("Content-Signal and Content-Usage say opposite things about the same use; "
                                            "the refusal wins")),
}
"""The linter's codes for the AI-use lines: severity and message, as in ``lint.CODES``."""

Finding = tuple[int, str, str]


def usage_findings(model: Model, normalise: bool) -> list[Finding]:
    """The findings about every Content-Usage and Content-Signal line of ``model``, by line."""
    found: list[Finding] = []
    for ext in model.extensions:
        if ext.field == "content-usage":
            found.append((ext.line, "usage-outside-group", repr(ext.value[:80])))
        found += _misspelt(ext)
        if ext.field == "content-signal":
            found += _signal_values(ext)
    for group in model.groups:
        found += _group_findings(group, normalise)
    return found


def _group_findings(group: Group, normalise: bool) -> Iterator[Finding]:
    signals: list[Extension] = []
    rules: list[UsageRule] = []
    for ext in group.extensions:
        yield from _misspelt(ext)
        if ext.field == "content-signal":
            signals.append(ext)
            yield from _signal_values(ext)
        elif ext.field == "content-usage":
            rule = usage_rule(ext.value, ext.line, normalise)
            rules.append(rule)
            yield from _statement_findings(rule)
            yield from _on_disallowed(rule, group)
    for ext in signals:
        yield from _contradictions(ext, rules)


def _misspelt(ext: Extension) -> Iterator[Finding]:
    if ext.field == "content-signals":
        yield ext.line, "signal-misspelt", repr(ext.value[:80])


def _signal_values(ext: Extension) -> Iterator[Finding]:
    for unread in parse_signal(ext.value).unread:
        yield ext.line, "signal-value", unread


def _statement_findings(rule: UsageRule) -> Iterator[Finding]:
    statement_text = rule.value[len(rule.path):].lstrip(" \t")
    if not rule.statement.parsed:
        first_word = statement_text.split(None, 1)[0] if statement_text.strip() else ""
        if (rule.path and "/" in first_word) or (not rule.path and ("/" in first_word or first_word.startswith("*"))):
            yield rule.line, "usage-path", repr(rule.value[:80])
        else:
            yield rule.line, "usage-unreadable", f"{statement_text[:80]!r} ({rule.statement.error})"
        return
    for unread in rule.statement.unread:
        yield rule.line, "usage-unknown-value", unread
    for label in VOCABULARY:
        if len(re.findall(rf"(?:^|,)[ \t]*{re.escape(label)}(?=[=;, \t]|$)", statement_text)) > 1:
            yield rule.line, "usage-duplicate", label
    for key in rule.statement.ignored:
        if key in LEGACY_LABELS:
            yield rule.line, "usage-old-label", key


def _on_disallowed(rule: UsageRule, group: Group) -> Iterator[Finding]:
    """The rule's own path is disallowed and no allow rule reopens anything under it."""
    path = rule.pattern.text
    if not path or "*" in path or path.endswith("$"):
        return
    found = group.ruleset.best(path)
    if found is None or verdict(found):
        return
    for other in group.rules:
        if other.allow and other.pattern.startswith(path) and len(other.pattern) > len(path):
            return
    yield rule.line, "usage-on-disallowed", rule.path[:80]


def _contradictions(signal: Extension, rules: list[UsageRule]) -> Iterator[Finding]:
    """A Content-Signal against the group's Content-Usage lines for every path (no path, or "/")."""
    said = parse_signal(signal.value)
    for rule in rules:
        if rule.path not in ("", "/"):
            continue
        for category, allowed in said.preferences.items():
            other = rule.statement.preference(category)
            if other is not None and other != allowed:
                yield signal.line, "signal-contradicts-usage", f"{category}: line {rule.line} says the opposite"


def fixed_usage(value: str) -> str | None:
    """A1, A5: the Content-Usage value as it should be written when the only trouble is the form of
    its statement (upper-case keys, quoted or spelt-out values: 'Train-AI="No"' -> 'train-ai=n'),
    else None. The result is checked: it reads without error and every value states a preference."""
    path = usage_rule(value, 0, False).path
    statement = _normalised(value[len(path):], {"yes": "y", "no": "n"})
    fixed = f"{path} {statement}" if path else statement
    rule = usage_rule(fixed, 0, False)
    if fixed == value or not rule.statement.parsed or rule.statement.unread:
        return None
    return fixed


def fixed_signal(value: str) -> str | None:
    """A7: the Content-Signal value as it should be written ('AI-Train=N' -> 'ai-train=no'), or None
    when that is not obvious. The result is checked: every value states a preference."""
    fixed = _normalised(value, {"y": "yes", "n": "no"})
    if fixed == value or parse_signal(fixed).unread:
        return None
    return fixed


def _normalised(statement: str, words: dict[str, str]) -> str:
    """``key=value`` items with lower-case keys and values, unquoted, ``words`` respelt."""
    items = []
    for item in statement.split(","):
        key, sep, val = item.partition("=")
        val = val.strip().strip("\"'").strip().lower()
        items.append(key.strip().lower() + (sep + words.get(val, val) if sep else ""))
    return ", ".join(items)
