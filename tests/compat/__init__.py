"""Tests of robotrules.compat: the urllib.robotparser class, the Scrapy backend and middleware, the httpx and requests guards.

No folder here is named after the package it tests (a tests/scrapy or tests/httpx folder would
shadow the real package on sys.path).
"""
