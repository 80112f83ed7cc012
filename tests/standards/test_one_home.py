"""Each concept has one home; every other form of it is derived from there, not pinned equal (issue #34).

A concept declared twice drifts (the service's ``Kind`` had lost "unknown"; the page's crawler
kinds had other words and a kind no crawler has). So:

- the usage categories live in :mod:`robotrules.core.usage` (``Category``, ``CATEGORIES``);
- the crawler kinds, whether a crawler obeys, where an entry comes from in
  :mod:`robotrules.crawlers` (``CrawlerKind``, ``KINDS``, ``KIND_LABELS``, ``Obeys``, ``CrawlerOrigin``);
- what governs, the cache state and the store's state in :mod:`robotrules.answers`
  (``Kind``, ``CacheState``, ``StoreState``);
- the words of a verdict in :mod:`robotrules.core.decision` (the verdict, the deciding line, the group);
- the memo of a URL's robots.txt URL by its origin in :mod:`robotrules.hosts` (``OriginMemo``).

Where Python's typing forces a literal copy (a pydantic ``Literal``), the copy is checked equal
here. And the sources are searched, as a reviewer would grep them, for a second literal list of
a concept's values: a tuple, list, set, dict or ``Literal[...]`` holding all of them, outside the
concept's home. The copies that other parts of the issue still own are listed in ``LEFT`` (they
may only shrink).
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, get_args

import pytest

from robotrules import answers, crawlers
from robotrules.core import decision
from robotrules.core.modes import MODES
from robotrules.core.robotstxt import parse
from robotrules.core.usage import CATEGORIES, Category

SRC = Path(__file__).resolve().parents[2] / "src"


def _module_of(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _literal_strings(node: ast.AST) -> set[str] | None:
    """The strings of a literal collection (tuple, list, set, a dict's keys; a ``Literal[...]``'s
    subscript is a tuple), None when it holds anything but string constants."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        items = node.elts
    elif isinstance(node, ast.Dict):
        items = [key for key in node.keys if key is not None]
    else:
        return None
    if not items or not all(isinstance(item, ast.Constant) and isinstance(item.value, str) for item in items):
        return None
    return {item.value for item in items}  # type: ignore[attr-defined]


def _copies(values: frozenset[str]) -> set[str]:
    """The modules of src/ holding a literal collection of every one of ``values``."""
    found = set()
    for path in sorted((SRC / "robotrules").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            strings = _literal_strings(node)
            if strings is not None and values <= strings:
                found.add(_module_of(path))
    return found


CONCEPTS: dict[str, tuple[frozenset[str], str]] = {
    "usage categories": (frozenset(CATEGORIES), "robotrules.core.usage"),
    "crawler kinds": (crawlers.KINDS, "robotrules.crawlers"),
    "what governs": (frozenset({"rules", "allow", "disallow"}), "robotrules.core.policy"),
    "cache states": (frozenset(get_args(answers.CacheState)), "robotrules.core.refresh"),
    "store states": (frozenset(get_args(answers.StoreState)), "robotrules.answers"),
}
"""Each concept: its values, and the package or module that is its home."""

LEFT: dict[str, set[str]] = {}
"""Copies not derived yet (none left); only shrinks."""


@pytest.mark.parametrize("concept", sorted(CONCEPTS))
def test_no_second_literal_list_of_a_concept_outside_its_home(concept: str) -> None:
    """The review's grep: a tuple, list, set, dict or Literal of all of a concept's values is
    written only in its home (the rest derive: ``tuple(CATEGORIES)``, ``get_args(CrawlerKind)``)."""
    values, home = CONCEPTS[concept]
    copies = {module for module in _copies(values) if module != home and not module.startswith(home + ".")}
    assert copies <= LEFT.get(concept, set()), f"{concept}: a second literal list in {sorted(copies)}"


def test_the_usage_categories_are_one_declaration() -> None:
    """A5, A7: the type of a category and the categories answered are the same names, in order;
    the service's purpose, its lean path and the ``--purpose`` option take them from there."""
    from robotrules.cli._options import purpose_option
    from robotrules.service import _lean as lean
    from robotrules.service import _models as models

    assert get_args(Category) == tuple(CATEGORIES)
    assert models.Purpose is Category
    assert frozenset(CATEGORIES) == lean._PURPOSES

    def command() -> None: ...

    option = purpose_option(command).__click_params__[0]  # type: ignore[attr-defined]
    assert list(option.type.choices) == list(CATEGORIES)


def test_the_crawler_kinds_are_one_declaration_and_each_is_some_crawlers() -> None:
    """A8: the kinds, their set and their labels are one list, in the order listings show them;
    no kind is left without a crawler of the registry (a kind no crawler has is a label for nothing)."""
    assert tuple(crawlers.KIND_LABELS) == get_args(crawlers.CrawlerKind)
    assert frozenset(get_args(crawlers.CrawlerKind)) == crawlers.KINDS
    assert frozenset(get_args(crawlers.Obeys)) == crawlers.OBEYS
    assert frozenset(get_args(crawlers.CrawlerOrigin)) == crawlers.ORIGINS
    assert {crawler.kind for crawler in crawlers.CRAWLERS} == crawlers.KINDS


def test_the_service_describes_its_answers_with_the_homes_types() -> None:
    """DESIGN 5: the service's schema is the answers' and the registry's own types (the service's
    copy of ``Kind`` had drifted: it lacked "unknown"), and its modes are the core's."""
    from robotrules.service import _models as models

    def annotation(model: type[Any], field: str) -> object:
        found: object = model.model_fields[field].annotation
        return found

    assert annotation(models.RobotsStateModel, "kind") is answers.Kind
    assert annotation(models.RobotsStateModel, "cache") is answers.CacheState
    assert annotation(models.RobotsStateModel, "store") is answers.StoreState
    assert annotation(models.HealthResponse, "store") is answers.StoreState
    assert annotation(models.CrawlerModel, "kind") is crawlers.CrawlerKind
    assert annotation(models.CrawlerModel, "obeys") is crawlers.Obeys
    assert annotation(models.CrawlerModel, "origin") is crawlers.CrawlerOrigin
    assert annotation(models.EditRequest, "block_purpose") == list[crawlers.CrawlerKind]
    assert get_args(models.Mode) == tuple(MODES)  # a literal copy for the schema, pinned


@pytest.mark.parametrize(("allowed", "line", "text", "group", "path", "token"), [
    (False, 9, "Disallow: /shrimp  # no", "googlebot", "/shrimp/x", "Googlebot"),
    (True, 0, "", "*", "/other", "otherbot"),
    (True, 0, "", None, "/", ""),
    (False, 3, "disallow: /", "*", "/x", "*"),
])
def test_a_verdict_has_one_wording(allowed: bool, line: int, text: str, group: str | None, path: str,
                                   token: str) -> None:
    """DESIGN 5: the core's words of a verdict (robotrules.core.decision) are the answer's sentence
    (robotrules.answers.sentence, for rules that decide) word for word."""
    ours = decision.sentence(allowed, line, text, group, path, token)
    assert answers.sentence(allowed, token, line, text, group, path, "https://example.com/robots.txt") == ours


def test_a_decision_explains_itself_in_the_words_of_every_verdict() -> None:
    """R1, R6: Decision.explain is the one sentence, with the rule as it is read."""
    robots = parse(b"User-agent: *\nDisallow: /private\n")
    said = robots.check("/private/x", "bot").explain()
    assert said == decision.sentence(False, 2, "disallow: /private", "*", "/private/x")
    assert said == "disallowed by line 2: 'disallow: /private' (group 'user-agent: *')"
    assert robots.check("/open", "bot").explain() == "allowed: no rule matches '/open' (group 'user-agent: *')"


def test_a_verdict_change_says_why_in_the_same_words() -> None:
    """The diff's and the edit's verdict changes say what decides in the new file with the
    verdict's words (robotrules.core.decision.rule_words), the command line's only wording of them."""
    from robotrules.diff import diff

    found = diff("User-agent: *\nDisallow: /a\n", "User-agent: *\nDisallow: /b\n")
    why = {change.url: change.why() for change in found.verdicts}
    assert why == {"/a": "no rule matches in the new file", "/b": "by line 2 of the new file: 'disallow: /b'"}


def test_one_memo_remembers_a_urls_robots_txt_url_by_its_origin() -> None:
    """S1: hosts.OriginMemo, the one origin memo: one piece of work per origin as written, none
    remembered for a URL without an origin to share or for what the work raised, and bounded."""
    from robotrules.hosts import OriginMemo, origin_of, robots_url

    calls: list[str] = []

    def work(url: str) -> str:
        calls.append(url)
        return robots_url(url)

    memo = OriginMemo(work, most_bytes=1_000)
    assert memo("https://example.com/a") == memo("https://example.com/b?q") == "https://example.com/robots.txt"
    assert memo.with_origin("https://example.com:8443/x") == ("https://example.com:8443/robots.txt",
                                                              "https://example.com:8443")
    assert len(calls) == 2
    assert origin_of("https://a.example?x/y") == origin_of("https://a.example\\b/") == origin_of("/path") == ""
    with pytest.raises(ValueError):
        memo("https://exa mple.com/")
    with pytest.raises(ValueError):
        memo("https://exa mple.com/")
    assert len(calls) == 4  # what raised is worked out again
    for n in range(20):
        memo(f"https://site{n}.example/")
    assert len(memo) < 20  # past its bytes the memo starts over
