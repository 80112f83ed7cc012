"""Prometheus metrics of one service instance, in a registry of its own (not the global one).

Names (all prefixed ``robotrules_``)::

    http_requests_total{endpoint,method,status}        requests answered, by route template ("unmatched": no route),
                                                       method (HTTP's, else "other") and status code sent
    http_request_duration_seconds{endpoint}            latency histogram, whole request
    decisions_total{verdict}                           live verdicts given: allowed, disallowed
    cache_results_total{result}                        robots.txt lookups of live checks: hit, miss, shared
    robots_fetches_total{outcome,status_class}         robots.txt fetched for a request (a cache miss): what it
                                                       means (rules, allow, disallow) and its status (2xx..5xx, network)
    blocked_addresses_total                            robots.txt URLs refused by the private-address guard
    refused_total{reason}                              requests refused or cut short to protect the service:
                                                       overloaded, deadline, client_gone, body_timeout, body_too_large,
                                                       wrong_host
    in_flight{gate}, queued{gate}                      work under way and waiting, by gate: fetches (robots.txt
                                                       loads), work (heavy phases), small (small requests'
                                                       lane) (robotrules.service._admission)

Every label value comes from a closed set the service chooses, never from what a client sends
(issue #16-M1), so the page stays the same size however many odd requests arrive.

A registry per app keeps instances (and tests) independent; one process may run several apps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, get_args

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

from robotrules.answers import CacheState, RobotsState
from robotrules.core.decision import verdict_word

if TYPE_CHECKING:
    from robotrules.service._admission import Gates

__all__ = ["CONTENT_TYPE", "REFUSALS", "Metrics"]

CONTENT_TYPE = CONTENT_TYPE_LATEST
"""The media type of :meth:`Metrics.render`'s output (Prometheus text format)."""

_LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


REFUSALS = ("overloaded", "deadline", "client_gone", "body_timeout", "body_too_large", "wrong_host")
"""The reasons of ``refused_total``."""


def status_class(status: int) -> str:
    """The class of a robots.txt fetch's HTTP status: "2xx" ... "5xx", or "network" (0: no response)."""
    return f"{status // 100}xx" if 100 <= status <= 599 else "network"


class Metrics:
    """The counters and histograms of one app; :meth:`render` gives the exposition text."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter("robotrules_http_requests", "HTTP requests answered, by endpoint, method and status.",
                                ("endpoint", "method", "status"), registry=self.registry)
        self.latency = Histogram("robotrules_http_request_duration_seconds", "Time to answer a request, by endpoint.",
                                 ("endpoint",), buckets=_LATENCY_BUCKETS, registry=self.registry)
        self.decisions = Counter("robotrules_decisions", "Live verdicts given, by verdict.",
                                 ("verdict",), registry=self.registry)
        self.cache = Counter("robotrules_cache_results", "robots.txt lookups of live checks, by cache result.",
                             ("result",), registry=self.registry)
        self.fetches = Counter("robotrules_robots_fetches",
                               "robots.txt files fetched for a request, by what they mean and status class.",
                               ("outcome", "status_class"), registry=self.registry)
        self.blocked = Counter("robotrules_blocked_addresses",
                               "robots.txt URLs refused because their host is not a public address.",
                               registry=self.registry)
        self.refusals = Counter("robotrules_refused",
                                "Requests refused or cut short to protect the service, by reason.",
                                ("reason",), registry=self.registry)
        for reason in REFUSALS:
            self.refusals.labels(reason)
        for allowed in (True, False):
            self.decisions.labels(verdict_word(allowed))
        for result in get_args(CacheState):
            self.cache.labels(result)
        self._lean: tuple[Any, ...] | None = None

    def watch(self, gates: Gates) -> None:
        """Report the gates' work under way and waiting (read when the page is rendered)."""
        busy = Gauge("robotrules_in_flight", "Work under way, by gate.", ("gate",), registry=self.registry)
        queued = Gauge("robotrules_queued", "Requests waiting for a gate.", ("gate",), registry=self.registry)
        for name, gate in (("fetches", gates.fetches), ("work", gates.work), ("small", gates.small)):
            busy.labels(name).set_function(lambda gate=gate: gate.busy)  # type: ignore[misc]
            queued.labels(name).set_function(lambda gate=gate: gate.waiting)  # type: ignore[misc]

    def looked_up(self, state: RobotsState) -> None:
        """Count one live lookup of a robots.txt: its cache result, and the fetch if it was one."""
        self.cache.labels(state.cache).inc()
        if state.cache == "miss":
            self.fetches.labels(state.kind, status_class(state.status)).inc()

    def refused(self, reason: str) -> None:
        """Count one request refused or cut short, for one of :data:`REFUSALS`."""
        self.refusals.labels(reason if reason in REFUSALS else "overloaded").inc()

    def decided(self, allowed: bool) -> None:
        self.decisions.labels(verdict_word(allowed)).inc()

    def answered(self, endpoint: str, method: str, status: int, seconds: float) -> None:
        self.requests.labels(endpoint, method, str(status)).inc()
        self.latency.labels(endpoint).observe(seconds)

    def check_answered(self, verdicts: list[bool], seconds: float) -> None:
        """Count one ``GET /v1/check`` answered 200 from the cache (the lean path): the request, its
        latency, the cache hit and each verdict, as the app counts them, with the children made once."""
        children = self._lean
        if children is None:
            children = self._lean = (self.requests.labels("/v1/check", "GET", "200"), self.latency.labels("/v1/check"),
                                     self.cache.labels("hit"), self.decisions.labels("allowed"),
                                     self.decisions.labels("disallowed"))
        requests, latency, hits, allowed, disallowed = children
        requests.inc()
        latency.observe(seconds)
        hits.inc()
        for verdict in verdicts:
            (allowed if verdict else disallowed).inc()

    def render(self) -> bytes:
        """The Prometheus text exposition of this registry."""
        return generate_latest(self.registry)
