"""Drop-in replacements for what Python crawlers use today, deciding as robotrules does.

``robotrules.compat.RobotFileParser`` has the API of :class:`urllib.robotparser.RobotFileParser`
(a one-line import change) with Google's matching and fetch policy. The Scrapy backend and
middleware (``robotrules.compat.scrapy``) and the httpx and requests guards
(``robotrules.compat.httpx``, ``robotrules.compat.requests``) live in their own modules, imported
by name: this package imports nothing optional.
"""

from __future__ import annotations

from robotrules.compat.robotparser import RequestRate, RobotFileParser

__all__ = ["RequestRate", "RobotFileParser"]
