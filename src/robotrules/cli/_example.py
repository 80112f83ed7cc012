"""The embedded example that ``robotrules demo`` explains: a file, sample URLs and agents.

It is the example of Google's robots.txt documentation (groups, the ``*`` group, wildcards,
``$``), so a fresh install can show what the tool does without a network or a file.
"""

from __future__ import annotations

__all__ = ["EXAMPLE", "EXAMPLE_AGENTS", "EXAMPLE_NAME", "EXAMPLE_URLS"]

EXAMPLE = b"""\
# The example of Google's robots.txt specification (groups, merging, wildcards).
user-agent: googlebot-news
disallow: /fish

user-agent: *
disallow: /carrots
allow: /carrots/public$

user-agent: googlebot
disallow: /shrimp
disallow: /*.php$
allow: /shrimp/index.html

sitemap: https://www.example.com/sitemap.xml
"""
EXAMPLE_NAME = "example robots.txt"
EXAMPLE_URLS = (
    "https://www.example.com/fish/salmon.html",
    "https://www.example.com/carrots/public",
    "https://www.example.com/carrots/public/x",
    "https://www.example.com/shrimp/",
    "https://www.example.com/page.php",
    "https://www.example.com/page.php?id=1",
)
EXAMPLE_AGENTS = ("googlebot", "googlebot-news", "otherbot")
