"""Drafts with AI-use lines shared by the service's and the page's tests (A1-A7)."""

ATTACH_EXAMPLE = (
    "User-agent: *\n"                      # 1
    "Content-Signal: search=yes\n"         # 2
    "Disallow: /never/\n"                  # 3
    "Content-Usage: train-ai=n\n"          # 4
    "Content-Usage: /ai-ok/ train-ai=y\n"  # 5
)
"""The attach draft's example (A2, A3: /test refused, /never/test not applicable, /ai-ok/test
allowed) with a Content-Signal line (A7) in the same group."""
