"""Every requirement id the project cites is defined in docs/requirements.md, with its source.

The code and the tests cite requirement ids (``F5``, ``R1-R6``) and a few other forms
(``DESIGN 7``, ``seed 001``, ``RFC 9309 2.2.2``); these tests hold every citation in src/, tests/,
bench/, fuzz/ and README.md to something a reader of the repository can look up.
"""

from __future__ import annotations

import re

import pytest

from ._citations import (
    ARCHITECTURE,
    KNOWN_IDS,
    REQUIREMENTS,
    RFC9309_SECTIONS,
    anchors_in,
    citations,
    design_numbers_in,
    ids_in,
    requirement_sections,
    rfc9309_sections_in,
    seeds_in,
)

PAGE = REQUIREMENTS.read_text(encoding="utf-8")
CITED = citations(ids_in)


def _where(places: list[str]) -> str:
    return ", ".join(places[:3]) + (f" and {len(places) - 3} more" if len(places) > 3 else "")


def test_the_tree_cites_requirement_ids():
    """The scan finds the citations (a broken pattern would make the tests below pass vacuously)."""
    assert len(CITED) >= 30
    assert sum(len(places) for places in CITED.values()) >= 300


def test_every_cited_requirement_id_is_defined_in_the_requirements_page():
    """Each id cited anywhere (ranges expanded) has an anchor in docs/requirements.md."""
    defined = anchors_in(PAGE)
    missing = {cited: places for cited, places in CITED.items() if cited not in defined}
    assert not missing, "\n".join(f"{cited}: cited at {_where(places)}, not defined in {REQUIREMENTS.name}"
                                  for cited, places in sorted(missing.items()))


def test_every_cited_requirement_id_is_a_known_requirement():
    """No citation names an id outside S1-S5, F1-F9, C1-C4, P1-P7, G1-G5, R1-R6, N1-N2, L1-L3."""
    unknown = {cited: places for cited, places in CITED.items() if cited not in KNOWN_IDS}
    assert not unknown, "\n".join(f"{cited}: cited at {_where(places)}" for cited, places in sorted(unknown.items()))


def test_requirements_page_defines_exactly_the_known_requirement_ids():
    """docs/requirements.md defines every requirement id, and no id that does not exist."""
    defined = {anchor for anchor in anchors_in(PAGE) if re.fullmatch(r"[SFCPGRNAL][0-9]+", anchor)}
    assert defined - KNOWN_IDS == set(), "ids defined that do not exist"
    assert KNOWN_IDS - defined == set(), "ids without an entry"


def test_each_requirement_is_an_entry_of_its_own():
    """Every id has its own heading, so it has a section of text to hold its source."""
    assert set(requirement_sections(PAGE)) == KNOWN_IDS


@pytest.mark.parametrize("req", sorted(KNOWN_IDS, key=lambda i: ("SFCPGRNAL".index(i[0]), int(i[1:]))))
def test_each_requirement_states_its_source(req):
    """The entry has a **Source:** line naming an RFC 9309 section, a section of Google's
    documentation, the 1994 standard, or (section A) a section of an aipref draft or a
    Cloudflare page."""
    text = requirement_sections(PAGE)[req]
    sources = [line for line in text.splitlines() if line.startswith("**Source:**")]
    assert sources, f"{req}: no '**Source:**' line"
    source = " ".join(text.split("**Source:**", 1)[1].split("\n\n", 1)[0].split())
    assert re.search(r"RFC 9309 §[0-9]|Google, \*[^*]+\*|1994 standard, \*[^*]+\*|draft-ietf-aipref-\w+-[0-9]+ §[0-9]"
                     r"|Cloudflare, \*[^*]+\*", source), f"{req}: {source!r}"
    assert len(text.split()) >= 15, f"{req}: the requirement itself is missing"


def test_rfc9309_sections_cited_in_the_requirements_page_exist():
    """Every ``RFC 9309 §x.y`` of the page is a section of RFC 9309."""
    cited = set(rfc9309_sections_in(PAGE))
    assert cited, "the page cites RFC 9309 sections"
    assert cited <= RFC9309_SECTIONS, sorted(cited - RFC9309_SECTIONS)


def test_rfc9309_sections_cited_in_the_tree_exist():
    """Every ``RFC 9309 x.y`` (or ``section x.y``) cited in the code and tests is a section of RFC 9309."""
    unknown = {cited: places for cited, places in citations(rfc9309_sections_in).items()
               if cited not in RFC9309_SECTIONS}
    assert not unknown, "\n".join(f"RFC 9309 {cited}: cited at {_where(places)}" for cited, places in unknown.items())


def test_cited_design_principles_are_on_the_architecture_page():
    """``DESIGN n`` citations name a numbered design principle of docs/architecture.md."""
    defined = anchors_in(ARCHITECTURE.read_text(encoding="utf-8"))
    cited = citations(design_numbers_in)
    assert cited, "the scan finds DESIGN citations"
    missing = {n: places for n, places in cited.items() if f"design-{n}" not in defined}
    assert not missing, "\n".join(f"DESIGN {n}: cited at {_where(places)}" for n, places in missing.items())


def test_cited_seeds_are_described_on_the_requirements_page():
    """``seed 001`` citations name a seed described in the Seeds section of docs/requirements.md."""
    defined = anchors_in(PAGE)
    missing = {n: places for n, places in citations(seeds_in).items() if f"seed-{n}" not in defined}
    assert not missing, "\n".join(f"seed {n}: cited at {_where(places)}" for n, places in missing.items())


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("F5: a 5xx", ["F5"]),
        ("(P1-P7, F9)", ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "F9"]),
        ("L1–L3 and R3-5", ["L1", "L2", "L3", "R3", "R4", "R5"]),
        ("G2/G4: token", ["G2", "G4"]),
        ('case("P1-crlf", ...)', ["P1"]),
        ("def test_f7_is_off_by_default():", ["F7"]),
        ("disallow: /%C3%A4 and b'\\xC3'", []),
        ("import click  # noqa: F401", []),
        ("PLR0911, mp3, x.C3, a-P1, P0x", []),
        ("F2-C4", ["F2", "C4"]),
    ],
)
def test_id_pattern_finds_citations_and_skips_look_alikes(text, expected):
    """The citation pattern: ids, ranges (either dash) and slashes count; hex, words and ruff codes do not."""
    assert ids_in(text) == expected
