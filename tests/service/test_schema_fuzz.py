"""The OpenAPI schema fuzzed against the running service (schemathesis): no input gets a 5xx, and
every response is one the schema documents (status, media type, body).

The fuzzed instance cannot reach any network: its address policy refuses every address and
resolves no name (:class:`NoNetwork`), so a fuzzed URL is a 403 (an IP address) or a network
failure answered as full disallow (a name), and its fetch timeout is 0.5 s. Inputs are valid and
invalid ones (schemathesis' positive and negative modes). Bounded: 40 examples per operation, no deadline.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from ipaddress import IPv4Address, IPv6Address, ip_address

import pytest

from tests.hypo import examples

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.checks import (  # noqa: E402
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from robotrules import MemoryStore  # noqa: E402
from robotrules.fetch import AddressPolicy  # noqa: E402
from robotrules.service import create_app  # noqa: E402

from ._serve import serving  # noqa: E402


class NoNetwork(AddressPolicy):
    """Refuses every address (an IP literal: BlockedAddress) and resolves no name (a network failure)."""

    def refuses(self, address: IPv4Address | IPv6Address, port: int) -> str | None:
        return "not reachable from the tests"

    def resolve(self, host: str, port: int) -> list[str]:
        try:
            ip_address(host.strip("[]").split("%", 1)[0])
        except ValueError:
            raise socket.gaierror(socket.EAI_NONAME, "the tests resolve no names") from None
        return self.check(host, port, [host.strip("[]")])

    async def aresolve(self, host: str, port: int) -> list[str]:
        return self.resolve(host, port)


def _app():  # type: ignore[no-untyped-def]
    return create_app(store=MemoryStore(), allow_private=False, fetch_timeout=0.5, addresses=NoNetwork(),
                      max_urls=20, max_agents=5, max_body=20_000)


# The schema is read from the app itself at collection (building an app starts nothing); the
# requests go to a running instance of it, over real HTTP.
schema = schemathesis.openapi.from_dict(_app().openapi())
schema.config.generation.update(modes=list(schemathesis.GenerationMode))  # valid and invalid inputs

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture(scope="module")
def fuzzed_service() -> Iterator[str]:
    with serving(_app()) as base:
        yield base


@schema.parametrize()
@settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
def test_no_input_gets_a_server_error_and_every_response_matches_the_schema(case, fuzzed_service: str) -> None:  # type: ignore[no-untyped-def]
    case.call_and_validate(base_url=fuzzed_service, checks=CHECKS, timeout=10)
