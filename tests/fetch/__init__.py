"""Fetch adapter tests against real servers on 127.0.0.1 (S5, F1-F9, C1-C4)."""
