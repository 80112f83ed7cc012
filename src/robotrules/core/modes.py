"""The one table of differences between parsing modes (SPEC "Modes", P6, L1-L3, RFC 9309).

Every place where the modes behave differently reads a flag of :class:`Mode` here; no
module branches on the mode's name. Each flag names the requirement it implements.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MODES", "Mode", "get_mode"]


@dataclass(frozen=True, slots=True)
class Mode:
    """How one mode lexes, groups and matches. Immutable; shared by every parsed file."""

    name: str
    # Google-specific (P6): frequent typos of field names are accepted ("useragent", "dissallow", ...).
    accept_typos: bool
    # Google-specific (P6): "disallow /x" (whitespace instead of the colon) is accepted.
    accept_missing_colon: bool
    # Google-specific (P6): a field counts when it merely starts with a known name ("user-agentx").
    field_prefix_match: bool
    # Google-specific: lines are cut to 16,663 bytes and at a NUL byte, as the reference's C buffer does.
    c_string_lines: bool
    # Google-specific (P3): any leading prefix of the UTF-8 BOM is skipped, not only the whole BOM.
    skip_partial_bom: bool
    # L1: records are separated by blank lines (1994); otherwise blank lines mean nothing (G1).
    blank_line_ends_record: bool
    # R1 vs L2: whether "allow" is a rule (1994 knows only "disallow").
    allow_rules: bool
    # R4 vs L3: "*" and a final "$" are wildcards (otherwise literal characters).
    wildcards: bool
    # Google-specific: "allow: /dir/index.htm[l]" also allows "/dir/".
    index_html_allows_directory: bool
    # Google-specific (G3): "user-agent: * foo" is still the global group.
    star_with_text_is_global: bool
    # RFC 9309 section 2.2.2: octets are normalised (percent-encoding) on both sides before matching.
    normalise_percent_encoding: bool
    # RFC 9309 section 2.2.2: "/robots.txt" is implicitly allowed.
    robots_txt_always_allowed: bool
    # L2: agent names match liberally (case-insensitive substring, first matching record wins).
    substring_agent_match: bool

    def __reduce__(self) -> tuple[object, tuple[str]]:
        """Pickled as its name: one :class:`Mode` per name, found again by :func:`get_mode`."""
        return (get_mode, (self.name,))


GOOGLE = Mode(
    name="google",
    accept_typos=True,
    accept_missing_colon=True,
    field_prefix_match=True,
    c_string_lines=True,
    skip_partial_bom=True,
    blank_line_ends_record=False,
    allow_rules=True,
    wildcards=True,
    index_html_allows_directory=True,
    star_with_text_is_global=True,
    normalise_percent_encoding=False,
    robots_txt_always_allowed=False,
    substring_agent_match=False,
)

RFC9309 = Mode(
    name="rfc9309",
    accept_typos=False,
    accept_missing_colon=False,
    field_prefix_match=False,
    c_string_lines=False,
    skip_partial_bom=False,
    blank_line_ends_record=False,
    allow_rules=True,
    wildcards=True,
    index_html_allows_directory=False,
    star_with_text_is_global=False,
    normalise_percent_encoding=True,
    robots_txt_always_allowed=True,
    substring_agent_match=False,
)

LEGACY1994 = Mode(
    name="legacy1994",
    accept_typos=False,
    accept_missing_colon=False,
    field_prefix_match=False,
    c_string_lines=False,
    skip_partial_bom=False,
    blank_line_ends_record=True,
    allow_rules=False,
    wildcards=False,
    index_html_allows_directory=False,
    star_with_text_is_global=False,
    normalise_percent_encoding=False,
    robots_txt_always_allowed=False,
    substring_agent_match=True,
)

MODES: dict[str, Mode] = {m.name: m for m in (GOOGLE, RFC9309, LEGACY1994)}


def get_mode(mode: str | Mode) -> Mode:
    """Return the :class:`Mode` for a name (a :class:`Mode` as it is); ``ValueError`` names the valid ones."""
    if isinstance(mode, Mode):
        return mode
    try:
        return MODES[mode]
    except (KeyError, TypeError):
        raise ValueError(f"unknown mode {mode!r}; expected one of {', '.join(sorted(MODES))}") from None
