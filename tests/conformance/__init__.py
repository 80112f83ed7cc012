"""Differential conformance tests: robotrules (google mode) vs Google's C++ reference parser."""
