"""The HTTP decision service and the web tester's API (the ``serve`` extra: FastAPI, uvicorn, prometheus-client).

:func:`create_app` builds the ASGI app, :func:`run` serves it with uvicorn (``robotrules serve``),
:func:`from_env` is a factory for ``uvicorn --factory robotrules.service:from_env``. Endpoints,
errors and limits: :mod:`robotrules.service.app`; metrics: :mod:`robotrules.service.metrics`.
Without the extra, importing this package raises :class:`~robotrules.errors.MissingExtra` with a
one-line "pip install 'robotrules[serve]'" message.
"""

from __future__ import annotations

from robotrules.errors import require

for _module in ("fastapi", "uvicorn", "prometheus_client"):
    require(_module, "serve")

from robotrules.service.app import STATIC_DIR, Settings, create_app, from_env, run  # noqa: E402

__all__ = ["STATIC_DIR", "Settings", "create_app", "from_env", "run"]
