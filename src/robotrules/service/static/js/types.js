// @ts-check
// The shapes of the service's JSON answers (robotrules/service/_models.py and _vocabulary.py describe
// them; /openapi.json publishes them) and of the page's own state. Types only: nothing runs here.
//
// The page reads some answers defensively (an older server may send fewer fields): those fields
// are optional here.

/**
 * One URL decided for one crawler (POST /v1/test).
 * @typedef {object} Verdict
 * @property {string} url
 * @property {string} agent the crawler as given: a name or a whole User-Agent header
 * @property {string} token the product token it was matched on ("" when it names none)
 * @property {boolean} allowed
 * @property {number | null} line the deciding line (null: no rule decided)
 * @property {string | null} text that line as written
 * @property {"allow" | "disallow" | null} [kind]
 * @property {string | null} [group] the group that applied ("*", a token; null: none; absent from older servers)
 * @property {string} [path]
 * @property {string} [source]
 * @property {"allow" | "disallow" | null} [full] set when the whole site is decided without rules
 * @property {boolean} [ignored_global] the crawler ignores the * group, which would otherwise have applied
 * @property {string} explanation the verdict as one sentence
 * @property {Record<string, boolean | null>} [preferences] AI-use preferences by category
 * @property {number[]} [preference_lines] the lines that state them
 * @property {string} [purpose] the use asked about (only when the request names one)
 * @property {boolean | null} [use] the answer to it: true allowed, false refused, null unknown or not applicable
 * @property {number[]} [use_lines] the lines that decide it
 * @property {string} [use_explanation] the answer as one sentence
 */

/**
 * A lint finding.
 * @typedef {object} Diagnostic
 * @property {number | null} line 1-based (null: the whole file)
 * @property {number | null} column 1-based
 * @property {string} severity "error", "warning" or "info"
 * @property {string} code
 * @property {string} message
 * @property {string | null} [fix] the line as it should be written (absent from older servers)
 */

/**
 * POST /v1/test (and the page's reading of POST /v1/lint).
 * @typedef {object} TestAnswer
 * @property {Verdict[]} results
 * @property {Diagnostic[]} diagnostics
 * @property {number} [diagnostics_omitted] findings past the service's listing limit
 */

/**
 * POST /v1/lint.
 * @typedef {object} LintAnswer
 * @property {Diagnostic[]} diagnostics
 * @property {number} [diagnostics_omitted]
 */

/**
 * GET /v1/robots: the live robots.txt governing a URL.
 * @typedef {object} RobotsAnswer
 * @property {string} robots_url
 * @property {string | null} final_url
 * @property {number} redirects
 * @property {"rules" | "allow" | "disallow"} kind
 * @property {number} status
 * @property {string} reason
 * @property {"hit" | "miss" | "shared"} cache
 * @property {number} age
 * @property {number} failures
 * @property {number} fetched_at seconds since the epoch
 * @property {number} expires_at seconds since the epoch
 * @property {string} summary all of it in one sentence
 * @property {string | null} body
 * @property {number | null} size
 * @property {string[]} sitemaps
 */

/**
 * A rule one crawler sees in one version and not in the other.
 * @typedef {object} RuleChange
 * @property {"added" | "removed" | "changed"} change
 * @property {string} agent
 * @property {"allow" | "disallow"} kind
 * @property {string} value
 * @property {number | null} old_line
 * @property {number | null} new_line
 */

/**
 * A URL one version allows and the other disallows for a crawler.
 * @typedef {object} VerdictChange
 * @property {string} url
 * @property {string} agent
 * @property {boolean} old_allowed
 * @property {boolean} new_allowed
 * @property {number | null} old_line
 * @property {number | null} new_line
 * @property {string} old_rule
 * @property {string} new_rule
 */

/**
 * @typedef {object} CrawlDelayChange
 * @property {string} agent
 * @property {number | null} old seconds (null: none)
 * @property {number | null} new
 */

/**
 * POST /v1/diff.
 * @typedef {object} DiffAnswer
 * @property {RuleChange[]} [rules]
 * @property {VerdictChange[]} [verdicts]
 * @property {CrawlDelayChange[]} [crawl_delays]
 * @property {string[]} [sitemaps_added]
 * @property {string[]} [sitemaps_removed]
 * @property {number} [rules_omitted]
 * @property {number} [verdicts_omitted]
 */

/**
 * POST /v1/edit.
 * @typedef {object} EditAnswer
 * @property {boolean} changed
 * @property {string} robots the edited text
 * @property {string[]} [blocked]
 * @property {string[]} [allowed]
 * @property {string[]} [notes] sentences for people
 * @property {DiffAnswer} [diff]
 */

/**
 * POST /v1/edit's request.
 * @typedef {object} EditRequest
 * @property {string} robots
 * @property {string[]} block
 * @property {string[]} block_purpose
 * @property {string[]} allow
 * @property {string | null} usage
 * @property {string} mode
 */

/**
 * A crawler of the registry as the page reads it (from GET /v1/agents, read defensively).
 * @typedef {object} Crawler
 * @property {string} name
 * @property {string} token
 * @property {boolean} tokenValid whether the name is itself a product token
 * @property {string} operator
 * @property {string} purpose
 * @property {string} kind
 * @property {string} source
 * @property {string} obeys
 * @property {boolean} ignoresGlobal
 * @property {string} origin
 */

/**
 * A yes, no or unknown answer in words, by its JSON value ("not_applicable": the URL may not be crawled).
 * @typedef {object} ValueWords
 * @property {string} true
 * @property {string} false
 * @property {string} null
 * @property {string} not_applicable
 */

/** @typedef {keyof ValueWords} ValueKey */

/**
 * GET /v1/vocabulary: the words of the answers' codes.
 * @typedef {object} Vocabulary
 * @property {{kind: string, label: string}[]} kinds what crawlers are for, in the order listings show them
 * @property {string[]} obeys
 * @property {{category: string, label: string, phrase: string, description: string}[]} categories
 * @property {{true: string, false: string}} verdict
 * @property {ValueWords} preference
 * @property {ValueWords} use
 */

/**
 * What a share link carries (docs/guides/tester.md describes its JSON).
 * @typedef {object} Saved
 * @property {string} robots the draft
 * @property {string[]} agents the chosen crawlers
 * @property {string} ua the typed crawler or User-Agent header
 * @property {string} urls one per line
 * @property {string} live the live site's URL
 * @property {string} mode
 * @property {string} purpose the use asked about ("" for none)
 */

/**
 * The draft an edit was previewed on, and the edited text "Apply" puts in the editor.
 * @typedef {object} EditPreview
 * @property {string} from
 * @property {string} robots
 */

/**
 * Everything else the page holds while it runs.
 * @typedef {object} View
 * @property {Vocabulary} vocabulary the words of the service's codes
 * @property {Crawler[]} known the crawlers the service offers
 * @property {Map<string, Crawler>} byName lower-case name -> crawler
 * @property {Map<string, Crawler>} byToken lower-case token -> the crawler whose name is that token
 * @property {RobotsAnswer | null} live the last /v1/robots answer
 * @property {string | null} liveBody the live file's text when it gives rules
 * @property {Verdict[]} results the verdicts of the last test
 * @property {Diagnostic[]} diagnostics the findings of the last test
 * @property {number} diagnosticsOmitted findings the service counted but did not list
 * @property {string | null} selected the key of the selected verdict (url + "\n" + agent)
 * @property {number} caretLine
 * @property {{from: number, to: number}} drawn 0-based line indexes drawn in the editor's backdrop and gutter
 * @property {string} chipStop lower-case name of the chip that takes the picker's tab stop
 * @property {EditPreview | null} editPreview while "Apply" may apply it
 * @property {string | null} statusSource what the status line speaks for
 * @property {{timer: number, seq: number, pending: boolean, last: string}} link the share link's pending write
 * @property {{busy: number, armed: boolean, timer: number}} work requests under way, and the re-test waiting
 */

export {};
