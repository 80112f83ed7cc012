"""The request and response bodies of the service, as pydantic models: what ``/openapi.json`` shows.

Responses are built from the shared JSON forms (:meth:`robotrules.answers.Verdict.to_dict`,
:func:`robotrules.answers.state_dict`, :meth:`robotrules.diff.RobotsDiff.to_dict`) and sent as
they are; these models describe them (the schema fuzz test checks that they agree). As in the
CLI's JSON, lines and columns are 1-based and "no line" is null, never 0. Request
models forbid unknown fields, so a misspelt field name is a clear 422, not silently ignored.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from robotrules.answers import CacheState, Kind, StoreState
from robotrules.core.lint import Diagnostic
from robotrules.core.usage import Category
from robotrules.crawlers import CrawlerKind, CrawlerOrigin, Obeys

__all__ = [
    "AgentsResponse",
    "CheckRequest",
    "CheckResponse",
    "CrawlDelayChangeModel",
    "CrawlerModel",
    "DiagnosticModel",
    "DiffRequest",
    "DiffResponse",
    "EditRequest",
    "EditResponse",
    "ErrorBody",
    "ErrorDetail",
    "HealthResponse",
    "LintRequest",
    "LintResponse",
    "Mode",
    "Purpose",
    "RobotsResponse",
    "RobotsStateModel",
    "RuleChangeModel",
    "TestRequest",
    "TestResponse",
    "VerdictChangeModel",
    "VerdictModel",
    "diagnostic_json",
]

Mode = Literal["google", "rfc9309", "legacy1994"]
"""A mode's name (a literal copy for the schema: a test pins it to :data:`robotrules.core.modes.MODES`)."""

Purpose = Category
"""A usage category a request may ask about (the keys of ``preferences``):
:data:`robotrules.core.usage.Category`, the names of :data:`robotrules.core.usage.CATEGORIES`."""

# What a state's kind, cache and store are, and a crawler's kind, obeys and origin, are the
# homes' types (robotrules.answers, robotrules.crawlers): never copied here. A live state's kind
# is never "unknown" (that is an archive's robots.txt never captured), but no request carries
# one, so the answer's type describes the responses as they are.

_PURPOSE = ("ask whether the content may be used for this purpose (AI model training, search, input to AI "
            "answers): each result then says so in 'use'")


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# -- errors -------------------------------------------------------------------------------------

class ErrorDetail(BaseModel):
    """What went wrong: a stable ``code`` for programs and a plain sentence for people."""

    code: str = Field(examples=["invalid_url"])
    message: str = Field(examples=["'example.com/page' is not an absolute URL: it needs a scheme and a host"])


class ErrorBody(BaseModel):
    """The body of every 4xx and 5xx response."""

    error: ErrorDetail


# -- verdicts -----------------------------------------------------------------------------------

class RobotsStateModel(BaseModel):
    """The live robots.txt behind a verdict: which file, where its redirects ended, what it says and how fresh it is."""

    robots_url: str
    final_url: str | None = Field(description="where the redirects ended (null: not known)")
    redirects: int = Field(description="redirect hops followed to reach it")
    kind: Kind = Field(description="rules: the file's rules decide; allow/disallow: everything, by status (no rules); "
                                   "unknown: nothing is known of it (never for a live fetch)")
    status: int = Field(description="HTTP status of the latest attempt (0: network failure)")
    reason: str
    cache: CacheState = Field(description="hit: from cache; miss: fetched for this request; shared: fetched meanwhile by another request or instance")
    age: float = Field(description="seconds since the deciding copy was fetched")
    failures: int = Field(description="failed refreshes in a row")
    fetched_at: float = Field(description="seconds since the epoch")
    expires_at: float = Field(description="seconds since the epoch")
    store: StoreState = Field(description="the cache store's state: ok, down or probing")
    summary: str = Field(description="all of the above in one sentence")


class VerdictModel(BaseModel):
    """One URL decided for one agent, with the deciding line: the same JSON as ``robotrules ... --json``."""

    url: str
    agent: str = Field(description="the agent as given: a token, a versioned name or a whole User-Agent header")
    token: str = Field(description="the product token it was matched on")
    allowed: bool
    line: int | None = Field(description="the deciding line's number (null: no rule decided)")
    text: str | None = Field(description="the deciding line as written")
    kind: Literal["allow", "disallow"] | None = Field(description="the deciding rule's kind")
    group: str | None = Field(description="the group that applied ('*', a token; null: none)")
    path: str = Field(description="the path (with parameters and query) that was matched")
    source: str = Field(description="the robots.txt URL, or 'draft'")
    full: Literal["allow", "disallow"] | None = Field(description="set when the whole site is decided without rules (by the robots.txt status)")
    ignored_global: bool = Field(description="true when the crawler ignores the '*' group (as Google's AdsBot does) and "
                                             "that group would otherwise have applied: it was decided without it")
    robots: RobotsStateModel | None = Field(description="the live robots.txt's state (null for a draft)")
    explanation: str = Field(description="the verdict as one sentence")
    preferences: dict[str, bool | None] = Field(
        description="AI-use preferences for this URL and agent, per category (train-ai, search, ai-input): "
                    "true allowed, false disallowed, null unknown or not applicable (the URL may not be crawled)")
    preference_lines: list[int] = Field(description="the Content-Usage and Content-Signal lines that decide them "
                                                    "(the first 100)")
    preference_lines_omitted: int = Field(default=0, description="deciding lines past the first 100: counted, not listed")
    purpose: Purpose | None = Field(default=None, description="the purpose asked about; present only when the request names one")
    use: bool | None = Field(
        default=None,
        description="with a purpose: true allowed, false refused, null unknown (no line states it) or not applicable "
                    "(the URL may not be crawled); present only when the request names a purpose")
    use_lines: list[int] | None = Field(
        default=None, description="with a purpose: the Content-Usage and Content-Signal lines that decide 'use' "
                                  "(the first 100)")
    use_lines_omitted: int | None = Field(default=None, description="with a purpose: deciding lines past the first 100")
    use_explanation: str | None = Field(default=None, description="with a purpose: the answer as one sentence")
    crawler_kind: CrawlerKind | None = Field(
        default=None, description="with a purpose: what the crawler registry says the agent's crawler is for "
                                  "(null: a crawler it does not know)")


class CheckRequest(_Request):
    """URLs to decide for agents: every URL for every agent, URL by URL."""

    urls: list[str] = Field(min_length=1, description="absolute URLs, percent-encoded as on the wire",
                            examples=[["https://example.com/private/page", "https://example.com/"]])
    agents: list[str] = Field(default_factory=lambda: ["*"], description="tokens, versioned names or whole User-Agent headers; default '*'",
                              examples=[["Googlebot", "GPTBot/1.1"]])
    purpose: Purpose | None = Field(default=None, description=_PURPOSE, examples=["train-ai"])


class CheckResponse(BaseModel):
    """The verdicts, in request order (for each URL, each agent)."""

    results: list[VerdictModel]


# -- the robots.txt entry -----------------------------------------------------------------------

class RobotsResponse(RobotsStateModel):
    """The cache entry for the robots.txt governing a URL, with its text."""

    body: str | None = Field(description="the robots.txt as fetched (UTF-8, invalid bytes replaced); null when there is none")
    size: int | None = Field(description="its size in bytes; null when there is none")
    sitemaps: list[str] = Field(description="the sitemap URLs it lists")


# -- drafts: test, lint ------------------------------------------------------------------------

class DiagnosticModel(BaseModel):
    """A finding of the linter: where, how bad, a stable code and a plain message."""

    line: int | None = Field(description="1-based line (null: the whole file)")
    column: int | None = Field(description="1-based column (1 for a finding about the whole line; null: the whole file)")
    severity: Literal["error", "warning", "info"]
    code: str
    message: str
    fix: str | None = Field(default=None, description="the line as it should be written, when the fix is obvious "
                                                      "(e.g. 'Disallow: admin/' -> 'Disallow: /admin/'); else null")


def diagnostic_json(diagnostic: Diagnostic) -> dict[str, Any]:
    """A lint finding as :class:`DiagnosticModel` describes it (the CLI's ``lint --json`` form)."""
    line = diagnostic.line or None
    return {"line": line, "column": (diagnostic.column or 1) if line else None, "severity": diagnostic.severity,
            "code": diagnostic.code, "message": diagnostic.message, "fix": diagnostic.fix}


class TestRequest(_Request):
    """A draft robots.txt and URLs (or paths starting with '/') to decide against it."""

    __test__ = False  # not a pytest test class

    robots: str = Field(description="the draft robots.txt text", examples=["User-agent: *\nDisallow: /private\n"])
    urls: list[str] = Field(min_length=1, description="absolute URLs or paths starting with '/'", examples=[["/private/page", "/"]])
    agents: list[str] = Field(default_factory=lambda: ["*"], examples=[["Googlebot"]])
    mode: Mode = "google"
    purpose: Purpose | None = Field(default=None, description=_PURPOSE, examples=["train-ai"])


class TestResponse(BaseModel):
    """The draft's verdicts (source 'draft') and its lint findings."""

    __test__ = False

    results: list[VerdictModel]
    diagnostics: list[DiagnosticModel]
    diagnostics_omitted: int = Field(default=0, description="lint findings past the service's listing limit: not listed")


class LintRequest(_Request):
    """A robots.txt text to lint."""

    robots: str = Field(examples=["User-agent: *\nDisalow: /private\n"])
    mode: Mode = "google"


class LintResponse(BaseModel):
    """What the parser ignores or misreads in the text, with counts by severity."""

    diagnostics: list[DiagnosticModel]
    diagnostics_omitted: int = Field(default=0, description="findings past the service's listing limit: counted "
                                                            "in errors and warnings, not listed")
    errors: int
    warnings: int


# -- diff ---------------------------------------------------------------------------------------

class DiffRequest(_Request):
    """Two versions of a robots.txt, each as text (``old``, ``new``) or as a URL to fetch (``old_url``, ``new_url``)."""

    old: str | None = Field(default=None, examples=["User-agent: *\nDisallow: /a\n"])
    new: str | None = Field(default=None, examples=["User-agent: *\nDisallow: /b\n"])
    old_url: str | None = Field(default=None, description="fetch the old version: the robots.txt governing this URL")
    new_url: str | None = Field(default=None, description="fetch the new version: the robots.txt governing this URL")
    agents: list[str] = Field(default_factory=list, description="tokens to compare (default: '*' and every token either file names)")
    urls: list[str] = Field(default_factory=list, description="URLs or paths to check besides one per rule")
    mode: Mode = "google"


class RuleChangeModel(BaseModel):
    """A rule one crawler sees in one version and not, or not with the same kind, in the other."""

    change: Literal["added", "removed", "changed"]
    agent: str
    kind: Literal["allow", "disallow"]
    value: str
    old_line: int | None = Field(description="the rule's line in the old version (null: not there)")
    new_line: int | None = Field(description="the rule's line in the new version (null: not there)")


class VerdictChangeModel(BaseModel):
    """A URL that one version allows and the other disallows for a crawler."""

    url: str
    agent: str
    old_allowed: bool
    new_allowed: bool
    old_line: int | None = Field(description="the deciding line in the old version (null: no rule decided)")
    new_line: int | None = Field(description="the deciding line in the new version (null: no rule decided)")
    old_rule: str
    new_rule: str


class CrawlDelayChangeModel(BaseModel):
    """A crawler's crawl-delay (seconds; null: none) in each version, when they differ."""

    agent: str
    old: float | None
    new: float | None


class DiffResponse(BaseModel):
    """What changes from the old version to the new one, as Google applies them."""

    changed: bool
    agents: list[str]
    rules: list[RuleChangeModel]
    verdicts: list[VerdictChangeModel]
    crawl_delays: list[CrawlDelayChangeModel]
    ignored_crawl_delays: list[CrawlDelayChangeModel] = Field(
        default_factory=list, description="crawl-delay changes only Google's crawlers see: not a change, as they ignore it")
    sitemaps_added: list[str]
    sitemaps_removed: list[str]
    rules_omitted: int = Field(default=0, description="rule changes past the service's listing limit: counted, not listed")
    verdicts_omitted: int = Field(default=0, description="verdict changes past the service's listing limit: counted, "
                                                         "not listed")
    old_robots: RobotsStateModel | None = Field(default=None, description="the fetched robots.txt's state when the old version was given by URL")
    new_robots: RobotsStateModel | None = Field(default=None, description="the fetched robots.txt's state when the new version was given by URL")


# -- edit ---------------------------------------------------------------------------------------

class EditRequest(_Request):
    """A robots.txt and the changes to make to it: crawlers to block or allow everywhere, purposes
    whose crawlers to block, a usage statement for the '*' group. Nothing else changes."""

    robots: str = Field(description="the robots.txt text to edit", examples=["User-agent: *\nDisallow: /cart\n"])
    block: list[str] = Field(default_factory=list, max_length=200,
                             description="product tokens of crawlers to disallow everywhere", examples=[["GPTBot"]])
    block_purpose: list[CrawlerKind] = Field(
        default_factory=list, max_length=len(get_args(CrawlerKind)),
        description="block every crawler of the registry with this purpose (names Google reads as another "
                    "token are skipped, and a note says so)", examples=[["ai-training"]])
    allow: list[str] = Field(default_factory=list, max_length=200,
                             description="product tokens of crawlers to allow everywhere", examples=[["Googlebot"]])
    usage: str | None = Field(default=None, max_length=1000,
                              description="a Content-Usage statement for the whole site, set in the '*' group",
                              examples=["train-ai=n"])
    mode: Mode = "google"


class EditResponse(BaseModel):
    """The edited text and what it changes; every line not edited is kept as it was."""

    changed: bool = Field(description="whether the text changed")
    robots: str = Field(description="the edited robots.txt")
    blocked: list[str] = Field(description="the tokens blocked")
    allowed: list[str] = Field(description="the tokens allowed")
    notes: list[str] = Field(description="what people should know: names skipped, groups split, nothing to do")
    diff: DiffResponse = Field(description="what changes for each crawler, as /v1/diff says it")


# -- the registry, health ----------------------------------------------------------------------

class CrawlerModel(BaseModel):
    """A crawler of the registry: its name, the product token a robots.txt group names it by, who
    runs it and what for, whether its operator says it obeys robots.txt, and where that is said."""

    name: str = Field(description="the name as the operator writes it", examples=["AI2Bot"])
    token: str = Field(description="the product token Google's matching reads from the name (a group must name this)",
                       examples=["AI"])
    token_valid: bool = Field(description="whether the name is itself a product token (false: groups naming the "
                                          "name are read as naming the token)")
    operator: str
    purpose: str = Field(description="what its fetches are for, in one sentence")
    kind: CrawlerKind
    source: str = Field(description="where this is documented: the operator's page, or the list the entry comes from")
    obeys: Obeys = Field(description="whether the operator says it obeys robots.txt")
    ignores_global: bool = Field(description="true: it ignores the '*' group and obeys only groups that name it")
    origin: CrawlerOrigin = Field(
        description="robotrules: documented by its operator; ai.robots.txt: the community list; file: loaded from a file")


class AgentsResponse(BaseModel):
    """The crawler registry, for the page's agent picker."""

    agents: list[CrawlerModel]


class HealthResponse(BaseModel):
    """The service is up; its version and the cache store's state."""

    status: Literal["ok"]
    version: str
    store: StoreState
