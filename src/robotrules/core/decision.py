"""A decision and its words: one URL decided for one agent, with why (R1, R6; DESIGN 5).

:class:`Decision` is what :meth:`RobotsTxt.check <robotrules.core.robotstxt.RobotsTxt.check>`
returns. The phrases that say a verdict live here, once, at the bottom of the layers, so that
every sentence built on a verdict reads alike: the core's :meth:`Decision.explain`, the answer's
sentence (:func:`robotrules.answers.sentence`), the ``test`` command's mismatches, and the diff's
and the edit's verdict changes (:meth:`robotrules.diff.VerdictChange.why`)::

    verdict_word    allowed | disallowed
    rule_text       disallow: /x   (a rule as it is read, when the line as written is not at hand)
    group_words     group for 'googlebot' | group 'user-agent: *' | no group applies
    rule_words      by line 9: 'Disallow: /x' | no rule matches '/x'   (optionally "of/in" a file)
    sentence        disallowed for Googlebot by line 9: 'Disallow: /x' (group for 'googlebot')

People read them: plain words, no requirement ids.
"""

from __future__ import annotations

from typing import NamedTuple

from robotrules.core.model import Group
from robotrules.core.rules import Rule

__all__ = ["Decision", "group_words", "rule_text", "rule_words", "sentence", "verdict_word"]


class Decision(NamedTuple):
    """The answer for one URL and agent, with why (DESIGN: every verdict is explainable).

    ``line`` is the 1-based line of the deciding rule, 0 when no rule matched; ``rule`` that
    rule; ``groups`` the groups whose rules applied; ``agent`` the token that selected them
    ("*" for the fallback group, None when no group applied; in ``legacy1994``, the matching
    record's user-agent value); ``path`` what was matched.
    """

    allowed: bool
    line: int
    rule: Rule | None
    groups: tuple[Group, ...]
    agent: str | None
    path: str

    def explain(self) -> str:
        """One line for people: the verdict, the deciding rule and the group (:func:`sentence`;
        the rule as it is read, ``disallow: /x``: a decision does not keep the line as written)."""
        rule = self.rule
        text = rule_text(rule.kind, rule.value) if rule is not None else ""
        return sentence(self.allowed, self.line if rule is not None else 0, text, self.agent, self.path)


_GROUPS: dict[str | None, str] = {None: "no group applies", "*": "group 'user-agent: *'"}


def verdict_word(allowed: bool) -> str:
    """The verdict in one word: "allowed" or "disallowed"."""
    return "allowed" if allowed else "disallowed"


def rule_text(kind: str, value: str) -> str:
    """A rule as it is read: "disallow: /x" (``kind`` "allow" or "disallow", ``value`` its path)."""
    return f"{kind}: {value}"


def group_words(group: str | None) -> str:
    """The group that applied (a token, "*", None: none), in words: "group for 'googlebot'",
    "group 'user-agent: *'", "no group applies"."""
    return _GROUPS.get(group, f"group for {group!r}")


def rule_words(line: int, text: str, path: str | None = None, *, file: str = "") -> str:
    """What decided: "by line 9: 'Disallow: /x'" (``text`` the line, or the rule, as written),
    or, for ``line`` 0, "no rule matches '/x'" (``path`` None: "no rule matches"). ``file`` names
    the file when there are two: "by line 9 of the new file: ...", "no rule matches in the new file"."""
    if line:
        return f"by line {line}{' of ' + file if file else ''}: {text!r}"
    return f"no rule matches{'' if path is None else ' ' + repr(path)}{' in ' + file if file else ''}"


def sentence(allowed: bool, line: int, text: str, group: str | None, path: str, token: str = "",
             where: str | None = None) -> str:
    """The verdict as one sentence: "disallowed for Googlebot by line 9: 'Disallow: /x' (group for
    'googlebot')", or "allowed: no rule matches '/y' (group 'user-agent: *')". ``token``: the
    crawler (none: not said); ``where``: the group in other words (default :func:`group_words`)."""
    who = f" for {token}" if token else ""
    said = where if where is not None else group_words(group)
    return f"{verdict_word(allowed)}{who}{' ' if line else ': '}{rule_words(line, text, path)} ({said})"
