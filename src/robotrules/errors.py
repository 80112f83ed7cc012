"""The exceptions robotrules raises, all in one tree::

    RobotsError                      base of everything below
    ├── InvalidURL (ValueError)      not an absolute URL with a host (S1), or no scheme to fetch
    │   └── UnsupportedScheme        a scheme other than http, https and ftp (S5)
    ├── BlockedAddress (ValueError)  the address policy refused to connect to a host's address
    │                                (Policy.public_addresses_only): raised for the robots.txt
    │                                URL itself; a redirect hop refused is an answer (F3)
    ├── StoreError                   the backing store (SQLite, Redis) failed; the client logs it
    │                                and goes on without the store
    ├── InvalidEntry (ValueError)    robotrules.cache.InvalidEntry: a store's ``put`` refused an
    │                                entry with a wrong type or a value out of range
    ├── SourceError (ValueError)     robotrules.batch.SourceError: a source of a batch that cannot
    │   │                            be used (a missing file, an unknown format, a bad row) or an
    │   │                            output that cannot be written
    │   └── DamagedArchive           a crawl archive cut short or corrupt (robotrules.batch): the
    │                                file and the byte where the damage starts
    ├── EditRefused (ValueError)     robotrules.edit.EditRefused: an edit of a robots.txt that
    │                                cannot be made safely, or a request that cannot be carried out
    ├── TooMuchWork (ValueError)     a diff or an edit that would take more work than the caller
    │                                allows (robotrules.diff, robotrules.edit: ``budget``)
    ├── RobotsDisallowed             a guard refused a request its robots.txt disallows; each
    │   │                            guard raises a subclass that is also its library's error:
    │   ├── RobotsDisallowedError    robotrules.compat.httpx: also an httpx.RequestError
    │   └── RobotsDisallowedError    robotrules.compat.requests: also a requests.RequestException
    └── MissingExtra (ImportError)   an optional part is not installed: "pip install robotrules[x]"

Each is also the built-in exception named in parentheses, so ``except ValueError`` catches it too.
Those defined elsewhere are importable from where they are raised (named in the tree), and those
of this module from here as well. Network failures are never raised by the client: they are
answers (F5, F8). The parser never raises on any body (DESIGN 10). Input it reads in a way people
may not expect (an agent that is no product token, say) is a warning, not an error:
:class:`robotrules.RobotsInputWarning`.

Outside the tree, a few signals never leave robotrules: the core's ``FieldError`` (a statement
that is no RFC 9651 Dictionary; the core imports nothing of robotrules, not even this module: a plain
``ValueError``) becomes a statement read as unknown, or an ``EditRefused``; the readers' and
fetchers' own (``NotAnArchive``, ``InvalidBody``, ``RobotsRequestIgnored``) become a
``SourceError``, an answer, or a request let through.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

__all__ = [
    "BlockedAddress",
    "DamagedArchive",
    "InvalidURL",
    "MissingExtra",
    "RobotsDisallowed",
    "RobotsError",
    "SourceError",
    "StoreError",
    "TooMuchWork",
    "UnsupportedScheme",
    "require",
]

_Refusal = TypeVar("_Refusal", bound="RobotsDisallowed")


class RobotsError(Exception):
    """Base class of robotrules' own exceptions."""


class InvalidURL(RobotsError, ValueError):
    """A URL without a scheme and host, so no robots.txt governs it (S1)."""


class UnsupportedScheme(InvalidURL):
    """S5: any scheme may have a robots.txt, but only http, https and ftp can be fetched."""


class BlockedAddress(RobotsError, ValueError):
    """The address policy refused a connection: ``host`` resolves to ``address``, which is ``reason``.

    Raised, before any request, when the robots.txt URL itself resolves to an address the
    policy refuses (``Policy(public_addresses_only=True)``: loopback, private, link-local, cloud
    metadata, ...; see :mod:`robotrules.fetch.addresses`). Nothing is fetched or cached. A
    redirect to such an address is not raised: it is a redirect that cannot be followed (F3).
    """

    def __init__(self, host: str, port: int, address: str, reason: str) -> None:
        self.host = host
        self.port = port
        self.address = address
        self.reason = reason
        where = address if host == address else f"{host} ({address})"
        super().__init__(f"refused to connect to {where} port {port}: not a public address: {reason}")

    def __reduce__(self) -> tuple[type[BlockedAddress], tuple[str, int, str, str]]:
        return type(self), (self.host, self.port, self.address, self.reason)


class StoreError(RobotsError):
    """The store's backing service failed (a database error, Redis unreachable)."""


class SourceError(RobotsError, ValueError):
    """A robots.txt source of a batch that cannot be used (a missing file, an unknown format, a
    bad row), or an output that cannot be written; the message says which and why.

    Raised by :mod:`robotrules.batch` (and imported from there as ``robotrules.batch.SourceError``),
    and by the engines built on it with the local engine's words for the same input."""


class DamagedRecord(Protocol):
    """What a damaged archive names (:class:`robotrules.batch.BadRecord` has it): the file, the
    byte where the damaged record starts, and what is wrong. A protocol, so that this module
    imports nothing of robotrules."""

    @property
    def path(self) -> str: ...
    @property
    def offset(self) -> int: ...
    @property
    def detail(self) -> str: ...


class DamagedArchive(SourceError):
    """A crawl archive (a WARC file, a compressed table) that is cut short or corrupt: the damaged
    ``record`` (a :class:`robotrules.batch.BadRecord`), and from it ``path``, the byte ``offset``
    where the damaged record starts, and ``detail``, what is wrong.

    Raised instead of reading on in silence (the sites whose captures were lost would look never
    captured), unless damaged records are skipped (``skip_bad_records``). A :class:`SourceError`
    too: an archive that cannot be read whole is a source that cannot be used.
    """

    def __init__(self, record: DamagedRecord) -> None:
        self.record = record
        self.path = record.path
        self.offset = record.offset
        self.detail = record.detail
        super().__init__(f"{record.path}: damaged at byte {record.offset}: {record.detail}")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.record,)


class TooMuchWork(RobotsError, ValueError):
    """A diff or an edit stopped because it would take more work than its ``budget`` allows.

    The work is counted as it is done (a rule compared, a URL checked, a crawler's groups chosen),
    so a hostile pair of files, such as one group naming thousands of crawlers over thousands of
    rules, is refused after a bounded amount of work instead of running for minutes. ``budget``
    is the limit, ``what`` the part that went over it.
    """

    def __init__(self, budget: int, what: str) -> None:
        self.budget = budget
        self.what = what
        super().__init__(f"{what[:1].upper()}{what[1:]} would take more than {budget:,} steps of work, more "
                         "than allowed here: try a smaller file or fewer crawlers")

    def __reduce__(self) -> tuple[type[TooMuchWork], tuple[int, str]]:
        return type(self), (self.budget, self.what)


class _Attempt(Protocol):
    @property
    def reason(self) -> str: ...


class _Governed(Protocol):
    @property
    def robots_url(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def entry(self) -> _Attempt: ...


class Checked(Protocol):
    """What a refusal reads of a client's answer (:class:`robotrules.answers.CheckResult` has it):
    the token matched, the deciding line and its text, the robots.txt, its state's reason and
    the sentence of its latest attempt (``state.entry.reason``). A protocol, so that this module
    imports nothing of robotrules."""

    @property
    def agent(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def state(self) -> _Governed: ...


class RobotsDisallowed(RobotsError):
    """A request refused because the robots.txt that governs its URL disallows it for the agent.

    Raised before anything is sent by the guards of :mod:`robotrules.compat.httpx` and
    :mod:`robotrules.compat.requests`, as their ``RobotsDisallowedError``: this class and the
    library's own request error at once, so ``except RobotsDisallowed`` and the library's
    ``except`` clauses both catch it. ``url`` is the refused URL; ``agent`` the agent as
    configured (or the request's User-Agent header) and ``token`` its product token, which was
    matched (RFC 9309 2.2.1); ``robots_url`` the robots.txt; ``line`` the deciding line (0 when no
    rule decided: the robots.txt could not be read, so everything is disallowed for now, F5) and
    ``text`` that line as written; ``reason`` why, in words: what the robots.txt's state is and
    why, or, with no deciding line, what its latest attempt got ("503: server error"), the words
    the message shows. Programs tell refusals apart by ``line``, never by these words.
    """

    def __init__(self, url: str, robots_url: str, agent: str, token: str, line: int = 0, text: str = "",
                 reason: str = "") -> None:
        self.url = url
        self.robots_url = robots_url
        self.agent = agent
        self.token = token
        self.line = line
        self.text = text
        self.reason = reason
        who = f" for {token}" if token else ""
        if line:
            message = f"robots.txt at {robots_url} disallows {url}{who} (line {line}: {text!r})"
        else:  # F5: no copy could be read, so the whole site is disallowed until one can
            message = (f"robots.txt at {robots_url} disallows {url}{who}: it could not be read, and until it can "
                       f"everything on the site is disallowed ({reason})")
        super().__init__(message)

    @classmethod
    def from_check(cls: type[_Refusal], result: Checked, url: str, agent: str, **extra: Any) -> _Refusal:
        """The refusal of ``url`` for ``agent`` that ``result`` (a disallowing client check,
        :class:`robotrules.answers.CheckResult`) decided.

        ``extra`` goes to the constructor of ``cls`` (a guard's subclass takes the request). With a
        deciding line the reason is the state's; without one (the robots.txt could not be read)
        it is what the latest attempt got, as the robots.txt's entry says it.
        """
        state = result.state
        reason = state.reason if result.line else state.entry.reason
        return cls(url, state.robots_url, agent, result.agent, result.line, result.text, reason, **extra)

    def __reduce__(self) -> tuple[type[RobotsDisallowed], tuple[str, str, str, str, int, str, str]]:
        return type(self), (self.url, self.robots_url, self.agent, self.token, self.line, self.text, self.reason)


class MissingExtra(RobotsError, ImportError):
    """An optional dependency is missing; the message names the extra to install.

    ``module`` is the missing module and ``extra`` the extra that brings it (both empty when not
    given), so that a surface can name the extra its users know (the command line says ``cli``
    where the library says ``http``).
    """

    def __init__(self, message: str, *, module: str = "", extra: str = "") -> None:
        super().__init__(message)
        self.module = module
        self.extra = extra

    def __reduce__(self) -> Any:
        return _missing_extra, (str(self), self.module, self.extra)


def _missing_extra(message: str, module: str, extra: str) -> MissingExtra:
    return MissingExtra(message, module=module, extra=extra)


def require(module: str, extra: str) -> object:
    """Import ``module`` or raise :class:`MissingExtra` naming ``robotrules[extra]``."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtra(f"{module} is needed for this: pip install 'robotrules[{extra}]'", module=module,
                           extra=extra) from None
