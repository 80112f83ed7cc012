"""The web tester page in real headless Chromium (Debian's), driven by Playwright."""
