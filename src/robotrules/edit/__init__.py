"""Edit a robots.txt safely: block or allow crawlers, state an AI-use preference, change nothing else
(G1-G5, P1, P4, N2, A1).

A site owner who wants "block AI training crawlers, keep search" edits a file that works. :func:`edit`
takes its bytes and the changes asked for and returns the new bytes with the verdict diff that shows
what changed (:func:`robotrules.diff.diff`). Sans-I/O: bytes in, bytes out; no files, no network.

The edit is minimal. Lines are split as the parser splits them (P1: CR, LF, CR LF) and every line
that is not edited is kept byte for byte, its line break too: comments, blank lines, and the lines
Google ignores (``Content-Signal``, ``License``, ``Crawl-delay``, N2). New lines use the file's
first line break.

How a crawler (a product token, G3) is blocked or allowed, knowing Google's grouping:

- already as asked (the rules it follows, of its own groups or of ``*``, disallow ``/`` and allow
  nothing, or disallow nothing; ``*`` never counts for a crawler that ignores it, A8): no change;
- named only by groups of its own (G4 merges them): those groups are rewritten in place; a block
  removes their allow lines and adds ``Disallow: /``, an allow removes their disallow lines and adds
  ``Allow: /``;
- named by a group together with other agents (or ``*``): that group keeps its rules for the
  others; the crawler's ``user-agent`` line leaves it (a note explains) and it gets its own group;
- named by no group: it gets its own group.

New groups end with a rule, so a user agent that follows them starts a group of its own (G1), and
they go at the end of the file after a blank line, or, when the file ends with ``user-agent``
lines that no rule follows yet (an open group, which anything appended would join), before that
last group. A group for ``*`` made for a usage statement holds no rule and goes last (refused
when the file ends with such an open group). Crawlers edited opposite ways that share a group with
no other agent are refused: no edit can keep that group for either.

Names Google reads differently: a group names a product token, the leading letters, ``-`` and
``_`` of the name (G3: ``User-agent: AI2Bot`` is a group for ``AI``). A name that is not its own
token is refused with what Google would read; blocking a token that other known crawlers' names
are read as notes them (:func:`robotrules.crawlers.token_of_name`). ``block_purpose`` blocks each
crawler of the registry of that kind by its token, skipping (with a note) those whose name is
not a token.

The proof: before it returns, :func:`edit` parses the new file and checks that every blocked
crawler is disallowed and every allowed one allowed on ``/`` and on every path of the rules of
either file, and that every other crawler (each token either file names, each of the registry,
and ``*`` for the rest) sees exactly the rules and crawl delay it saw before (then its verdicts
are the same for every URL). An edit that fails this is refused (:class:`EditRefused`), never
returned. In ``legacy1994`` (L2) a group applies to every crawler whose name contains its name,
so a note says that the edit reaches them too.

The cost is linear in the file and the names: a group naming thousands of crawlers is read once,
crawlers that choose the same groups are proved once, and the proof and the diff count their
work against one ``budget`` (:mod:`robotrules._budget`), with a ``checkpoint`` inside their loops.

Its parts, behind this face::

    _result    EditResult, EditRefused
    _asked     what is asked: names read as tokens, purposes as the registry's crawlers, the statement
    _lines     the file as lines and groups, as the parser splits them, and the line edits (Plan)
    _rewrite   the edit itself: groups rewritten or split, new groups, the usage statement
    _proof     the proof that the blocked are blocked, the allowed allowed, and nobody else changed
"""

from __future__ import annotations

from robotrules.edit._result import EditRefused, EditResult
from robotrules.edit._rewrite import edit

__all__ = ["EditRefused", "EditResult", "edit"]
