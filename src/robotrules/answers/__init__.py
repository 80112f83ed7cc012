"""The answer, in one place: what governs a robots.txt URL, and a verdict in each of its forms.

Every surface builds its answers from here, so a verdict reads the same everywhere: the client,
the command line, the service and its page, the batch and Spark engines, the drop-ins::

    Governing       what decides the URLs of one robots.txt: its rules, or a full allow or
                    disallow (F2-F6), the HTTP status behind it and why; "unknown" when nothing
                    is known of it (an archive without a capture)
    RobotsState     a Governing as a client holds it, with its cache fields: the stored entry,
                    hit / miss / shared, the copy's age, the failed refreshes, the store's state
    CheckResult     one URL and agent answered by a client (a Decision when rules decided)
    Verdict         one URL and agent for people: the agent as given, the product token matched,
                    the deciding line as written, where the file came from; one sentence
                    (explain) and one JSON form (to_dict)
    COLUMNS, Row    the batch row, with the one declaration of its types (FIELDS) that the
                    Arrow and Spark schemas are derived from
    token_of        the product token of an agent (memoised: the one memo of every surface)
    require_token   the one check that an agent names a crawler

The core keeps comparing agents exactly as the reference does; the surfaces for people match on
the product token (G3), through :func:`token_of`. Why a robots.txt stands as it does is data,
:attr:`Governing.why` (a :class:`robotrules.core.reasons.Reason`); ``reason`` is its sentence.

This face is the package's only door; its parts are private modules, each owning one idea:
``_governing`` (what governs: Governing, RobotsState, Kind, CacheState, StoreState, state_dict),
``_verdicts`` (one URL for one agent: CheckResult, Verdict, sentence, the JSON convention),
``_rows`` (the batch row and its schemas), ``_tokens`` (the product-token memo and check) and
``_crawlers`` (what the crawler registry says of an agent).
"""

from robotrules.answers._crawlers import crawler_note, crawler_of, ignores_global
from robotrules.answers._governing import (
    CacheState,
    Governing,
    Kind,
    LineTexts,
    RobotsState,
    StoreState,
    state_dict,
)
from robotrules.answers._rows import COLUMNS, FIELDS, FieldType, Row, arrow_schema, spark_schema
from robotrules.answers._tokens import TOKENS, require_token, token_of
from robotrules.answers._verdicts import (
    LISTED_LINES,
    CheckResult,
    Verdict,
    answer,
    check_offline,
    from_result,
    json_ready,
    sentence,
)

__all__ = [
    "COLUMNS",
    "FIELDS",
    "LISTED_LINES",
    "TOKENS",
    "CacheState",
    "CheckResult",
    "FieldType",
    "Governing",
    "Kind",
    "LineTexts",
    "RobotsState",
    "Row",
    "StoreState",
    "Verdict",
    "answer",
    "arrow_schema",
    "check_offline",
    "crawler_note",
    "crawler_of",
    "from_result",
    "ignores_global",
    "json_ready",
    "require_token",
    "sentence",
    "spark_schema",
    "state_dict",
    "token_of",
]
