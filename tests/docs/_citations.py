"""What the project's files cite, and what the documentation defines (shared by the tests/docs tests).

A requirement id is a letter of an area (S, F, C, P, G, R, N, A, L) and a number: ``F5``. Ranges
(``F1-F9``, ``L1–L3``, ``R3-5``) stand for every id from the first to the last. The pattern is
anchored so that look-alikes are not ids: hex escapes and percent-encodings (``\\xC3``,
``%C3``), parts of words (``PLR0911``, ``mp3``), dotted or hyphenated names (``x.C3``,
``P1-crlf`` counts as ``P1``, but ``a-P1`` does not) and ruff codes in ``# noqa:`` comments.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
REQUIREMENTS = DOCS / "requirements.md"
ARCHITECTURE = DOCS / "architecture.md"

SCANNED = ("src", "tests", "bench", "fuzz")
"""The folders whose citations must resolve, with README.md."""
SKIPPED_DIRS = {"__pycache__", ".hypothesis", ".pytest_cache", "results", "seeds"}
"""Generated output (bench/results), data (fuzz/seeds: robots.txt bodies) and caches."""
TEXT_SUFFIXES = {".py", ".md", ".json", ".txt", ".toml", ".cfg", ".ini", ".yml", ".yaml", ".rst"}

KNOWN_IDS = frozenset(
    f"{letter}{n}"
    for letter, count in {"S": 5, "F": 9, "C": 4, "P": 7, "G": 5, "R": 6, "N": 2, "A": 8, "L": 3}.items()
    for n in range(1, count + 1)
)
"""Every requirement id there is: S1-S5, F1-F9, C1-C4, P1-P7, G1-G5, R1-R6, N1-N2, A1-A8, L1-L3."""

RFC9309_SECTIONS = frozenset({
    "1", "1.1", "2", "2.1", "2.2", "2.2.1", "2.2.2", "2.2.3", "2.2.4", "2.3", "2.3.1", "2.3.1.1",
    "2.3.1.2", "2.3.1.3", "2.3.1.4", "2.3.1.5", "2.4", "2.5", "3", "4", "5", "5.1", "5.2", "6",
    "6.1", "6.2",
})
"""The numbered sections of RFC 9309 (table of contents of https://www.rfc-editor.org/rfc/rfc9309)."""

_ID = re.compile(r"(?<![\w%.#\\-])([SFCPGRNAL])([0-9]+)(?:[-–]([SFCPGRNAL])?([0-9]+))?(?!\w)")
_TEST_NAME_ID = re.compile(r"(?<![A-Za-z0-9])test_([sfcpgrnal])([0-9]+)_")  # def test_f7_is_off_by_default
_NOQA = re.compile(r"noqa:[\w, ]*")
_DESIGN = re.compile(r"\bDESIGN\s+([0-9]+(?:\s*/\s*[0-9]+)*)")
_SEED = re.compile(r"\bseed\s*\(?([0-9]{3})\b")
_RFC_SECTION = re.compile(r"RFC\s?9309(?:,)?\s+(?:section\s+|§\s*)?([0-9]+(?:\.[0-9]+)*)")


def ids_in(text: str) -> list[str]:
    """The requirement ids cited in ``text``, ranges expanded, in order of appearance."""
    text = _NOQA.sub("", text)
    found: list[str] = []
    for match in _ID.finditer(text):
        letter, first, other_letter, last = match.groups()
        if last is None:
            found.append(f"{letter}{int(first)}")
        elif other_letter not in (None, letter) or int(last) < int(first):  # "F2-C4": two ids, not a range
            found += [f"{letter}{int(first)}", f"{other_letter or letter}{int(last)}"]
        else:
            found += [f"{letter}{n}" for n in range(int(first), int(last) + 1)]
    found += [f"{letter.upper()}{int(n)}" for letter, n in _TEST_NAME_ID.findall(text)]
    return found


def design_numbers_in(text: str) -> list[int]:
    """Numbers of the design principles cited as ``DESIGN 7`` or ``DESIGN 8/10``."""
    return [int(n) for group in _DESIGN.findall(text) for n in re.split(r"\s*/\s*", group)]


def seeds_in(text: str) -> list[str]:
    """Seed numbers cited as ``seed 001`` or ``seed (000)``."""
    return _SEED.findall(text)


def rfc9309_sections_in(text: str) -> list[str]:
    """RFC 9309 section numbers cited as ``RFC 9309 2.2.2``, ``RFC 9309 section 2.2.2`` or ``RFC 9309 §2.2.2``."""
    return [number.rstrip(".") for number in _RFC_SECTION.findall(text)]


def scanned_files() -> Iterator[Path]:
    """README.md and the text files of src/, tests/, bench/ and fuzz/ (no caches, build output or data)."""
    yield ROOT / "README.md"
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).parts
            if any(part in SKIPPED_DIRS or part.endswith(".egg-info") for part in relative):
                continue
            if path.is_file() and path.suffix in TEXT_SUFFIXES:
                yield path


def citations(extract) -> dict[object, list[str]]:  # type: ignore[no-untyped-def]
    """What ``extract`` finds in each scanned file: citation -> ["path:line", ...]."""
    where: dict[object, list[str]] = {}
    for path in scanned_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for cited in extract(line):
                where.setdefault(cited, []).append(f"{path.relative_to(ROOT)}:{number}")
    return where


def anchors_in(markdown: str) -> set[str]:
    """Anchors a page defines explicitly: ``{ #id }`` attribute lists and ``<a id="id">`` tags."""
    return set(re.findall(r"\{\s*#([\w-]+)\s*\}", markdown)) | set(re.findall(r"""\bid=["']([\w-]+)["']""", markdown))


def requirement_sections(markdown: str) -> dict[str, str]:
    """The text of each requirement's entry: from its heading to the next heading."""
    sections: dict[str, str] = {}
    heading = re.compile(r"^#{1,6} .*?\{\s*#([SFCPGRNAL][0-9]+)\s*\}\s*$", re.MULTILINE)
    any_heading = re.compile(r"^#{1,6} ", re.MULTILINE)
    for match in heading.finditer(markdown):
        following = any_heading.search(markdown, match.end())
        sections[match.group(1)] = markdown[match.end(): following.start() if following else len(markdown)]
    return sections
