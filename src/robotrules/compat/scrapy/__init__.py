"""Scrapy, deciding as Google does: a ``ROBOTSTXT_PARSER`` backend and a robots.txt middleware.

Two ways in, one line of settings each (guide: ``docs/guides/scrapy.md``):

- :class:`RobotRulesParser`, ``ROBOTSTXT_PARSER = "robotrules.compat.scrapy.RobotRulesParser"``:
  Scrapy's own middleware fetches robots.txt; robotrules parses the body and matches (G, R).
  Scrapy still parses whatever body arrives, whatever the status.
- :class:`RobotsPolicyMiddleware`, in ``DOWNLOADER_MIDDLEWARES`` in place of Scrapy's
  ``RobotsTxtMiddleware``: robots.txt is fetched through Scrapy's downloader and judged by
  robotrules' fetch policy (status codes, redirects, outages: F1-F9), cached in a robotrules
  store that spiders and processes can share (C1-C4), with crawl-delay per download slot (N2).

Without Scrapy, importing this package raises :class:`~robotrules.errors.MissingExtra` with a
one-line "pip install 'robotrules[scrapy]'" message.
"""

from __future__ import annotations

from robotrules.errors import require

require("scrapy", "scrapy")

from robotrules.compat.scrapy.middleware import RobotsPolicyMiddleware  # noqa: E402
from robotrules.compat.scrapy.parser import RobotRulesParser  # noqa: E402

__all__ = ["RobotRulesParser", "RobotsPolicyMiddleware"]
