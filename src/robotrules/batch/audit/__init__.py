"""Audit sites' robots.txt for a set of crawlers: who is blocked, partly or not at all.

:func:`run` is ``robotrules audit`` as one call (tables, report and a summary written);
:func:`table` gives the audit as a pandas DataFrame. The verdicts are defined in
:mod:`~robotrules.batch.audit.verdicts`, the columns in :mod:`~robotrules.batch.audit.columns`,
the AI training opt-outs in :mod:`~robotrules.batch.audit.purposes`, audits of several crawls
in :mod:`~robotrules.batch.audit.over_time`, and the HTML report in
:mod:`robotrules.batch.audit.report` (imported apart: it needs matplotlib)."""

from __future__ import annotations

from robotrules.batch.audit.columns import AUDIT_COLUMNS, AUDIT_FIELDS, VERDICTS, Row, Verdict, typed
from robotrules.batch.audit.over_time import OverTime, changes, trends
from robotrules.batch.audit.purposes import OPT_OUTS, TRAINING, OptOut, by_purpose, opt_out, opt_out_counts
from robotrules.batch.audit.sites import archive_sites, audit_rows, redirected_away, site_key, site_keys
from robotrules.batch.audit.verdicts import AgentPolicy, classify, classify_site, default_agents
from robotrules.batch.audit.workflow import AuditSummary, OverTimeSummary, audit, audit_over_time, beside, run, table

__all__ = [
    "AUDIT_COLUMNS",
    "AUDIT_FIELDS",
    "OPT_OUTS",
    "TRAINING",
    "VERDICTS",
    "AgentPolicy",
    "AuditSummary",
    "OptOut",
    "OverTime",
    "OverTimeSummary",
    "Row",
    "Verdict",
    "archive_sites",
    "audit",
    "audit_over_time",
    "audit_rows",
    "beside",
    "by_purpose",
    "changes",
    "classify",
    "classify_site",
    "default_agents",
    "opt_out",
    "opt_out_counts",
    "redirected_away",
    "run",
    "site_key",
    "site_keys",
    "table",
    "trends",
    "typed",
]
