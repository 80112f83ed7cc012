"""The pure core: bytes, URLs and agents in; parsed files, decisions and diagnostics out.

Standard library only; no sockets, files, clocks or databases (a test enforces it).
"""
