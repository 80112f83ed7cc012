"""A small driver for the tester page: open it, type into it, wait for it, read what it shows.

It acts as a person does (fills fields, clicks chips, rows and buttons) and reads the page's DOM:
result rows carry ``data-url``, ``data-agent``, ``data-token``, ``data-allowed``, ``data-line``
and, when a use is asked about, ``data-use``; their verdict cell holds a ``.usage`` part with one
``li[data-category][data-value]`` per category. Picker chips carry ``data-agent`` (the name sent)
and ``data-token``; editor lines ``data-line``; ``<html data-idle="true">`` says no re-test is
waiting and no request is under way. Every wait is bounded by the context's default timeout.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import BrowserContext, Locator, Page

IDLE = "() => document.documentElement.dataset.idle === 'true'"  # a function: the page's CSP forbids eval


@dataclass(frozen=True)
class Row:
    """One verdict row of the results table."""

    url: str
    agent: str
    token: str
    allowed: bool
    line: int
    text: str


class TesterPage:
    """One page of the tester, opened in ``context`` (see the module docstring)."""

    __test__ = False  # not a pytest test class

    def __init__(self, context: BrowserContext, base_url: str, errors: list[str]) -> None:
        self.context = context
        self.base_url = base_url
        self.errors = errors
        self.page: Page = context.new_page()

    # -- opening ----------------------------------------------------------------------------

    def open(self, fragment: str = "", page: Page | None = None) -> Page:
        """Load the page (with ``fragment``, e.g. a share link's ``#state=...``) and wait until idle."""
        page = page or self.page
        page.goto(self.base_url + "/" + fragment)
        page.wait_for_selector("#agent-chips .chip")
        self.wait_idle(page)
        return page

    def open_link(self, link: str) -> Page:
        """Open ``link`` in a new page of the same context, as a person opening a shared link."""
        page = self.context.new_page()
        page.goto(link)
        page.wait_for_selector("#agent-chips .chip")
        self.wait_idle(page)
        return page

    def wait_idle(self, page: Page | None = None) -> None:
        """Wait until the page has no pending re-test, request or link update."""
        (page or self.page).wait_for_function(IDLE)

    # -- acting -----------------------------------------------------------------------------

    def set_draft(self, text: str) -> None:
        self.page.fill("#robots", text)
        self.wait_idle()

    def paste_draft(self, text: str) -> None:
        """Replace the draft as one paste does: a single input event (Playwright's fill is slow for huge text)."""
        self.page.eval_on_selector(
            "#robots",
            "(t, v) => { t.focus(); t.value = v; t.setSelectionRange(0, 0);"
            " t.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'})); }",
            text,
        )
        self.wait_idle()

    def set_urls(self, *urls: str) -> None:
        self.page.fill("#urls", "\n".join(urls))
        self.wait_idle()

    def set_user_agent(self, text: str) -> None:
        self.page.fill("#ua", text)
        self.wait_idle()

    def choose_agents(self, *names: str) -> None:
        """Press exactly the chips of ``names`` (crawler names as the picker shows them,
        case-insensitive), releasing the others; the search field is cleared first."""
        wanted = {name.lower() for name in names}
        chosen = {name.lower() for name in self.chosen_agents()}
        if wanted != chosen:
            self.search_agents("")
        for name in sorted(wanted ^ chosen):
            chip = self.chip(name)
            assert chip.count() == 1, f"no chip for {name!r}"
            chip.click()
        missing = wanted - {name.lower() for name in self.chosen_agents()}
        assert not missing, f"no chip for {missing}"
        self.wait_idle()

    def search_agents(self, text: str) -> None:
        """Type ``text`` into the picker's search field (the chips filter as it changes)."""
        self.page.fill("#agent-search", text)

    def fetch_live(self, url: str) -> None:
        self.page.fill("#live-url", url)
        self.page.click("#live-fetch")
        self.wait_idle()

    def select_row(self, url: str, agent: str) -> None:
        self.row_locator(url, agent).click()

    # -- reading ----------------------------------------------------------------------------

    def row_locator(self, url: str, agent: str) -> Locator:
        """The results row of ``url`` for ``agent`` (as typed)."""
        index = next(n for n, row in enumerate(self.rows()) if row.url == url and row.agent == agent)
        return self.page.locator("#results-body tr").nth(index)

    def rows(self, page: Page | None = None) -> list[Row]:
        data: list[dict[str, str]] = (page or self.page).eval_on_selector_all(
            "#results-body tr",
            "rows => rows.map(r => ({...r.dataset, text: r.querySelector('td.deciding code')?.textContent ?? ''}))",
        )
        return [Row(d["url"], d["agent"], d["token"], d["allowed"] == "true", int(d["line"]), d["text"]) for d in data]

    def draft(self, page: Page | None = None) -> str:
        return str((page or self.page).input_value("#robots"))

    def chosen_agents(self, page: Page | None = None) -> list[str]:
        """The chosen crawlers' names, in the order they are tested (the list above the picker);
        each also has its chip pressed in the picker."""
        page = page or self.page
        chosen: list[str] = page.eval_on_selector_all("#agent-chosen .chosen-chip", "bs => bs.map(b => b.dataset.agent)")
        pressed = page.eval_on_selector_all("#agent-chips .chip[aria-pressed=true]", "cs => cs.map(c => c.dataset.agent)")
        assert sorted(chosen) == sorted(pressed), (chosen, pressed)
        return chosen

    def chip(self, name: str) -> Locator:
        """The picker's chip for the crawler called ``name`` (case-insensitive)."""
        lower = name.lower()
        index: int = self.page.eval_on_selector_all(
            "#agent-chips .chip", "(chips, n) => chips.findIndex(c => c.dataset.agent.toLowerCase() === n)", lower)
        return self.page.locator("#agent-chips .chip").nth(index) if index >= 0 else self.page.locator("#no-such-chip")

    def visible_chips(self) -> list[str]:
        """The names of the chips the search leaves shown."""
        return list(self.page.eval_on_selector_all(
            "#agent-chips .chip", "chips => chips.filter(c => !c.hidden && !c.closest('[hidden]')).map(c => c.dataset.agent)"))

    def status(self, page: Page | None = None) -> tuple[str, str]:
        """The status line: (kind, text); kind is "info", "busy" or "error"."""
        node = (page or self.page).locator("#status")
        return str(node.get_attribute("data-kind")), node.inner_text().strip()

    def editor_line_classes(self, line: int) -> list[str]:
        classes = self.page.get_attribute(f"#backdrop .line[data-line='{line}']", "class") or ""
        return classes.split()

    def decided_lines(self) -> list[int]:
        return [int(n) for n in self.page.eval_on_selector_all("#backdrop .line.decide", "ls => ls.map(l => l.dataset.line)")]

