"""The HTTP decision service and the web tester's API (the ``serve`` extra: FastAPI, uvicorn, prometheus-client).

The face: :func:`create_app` builds the ASGI app, :func:`run` serves it with uvicorn
(``robotrules serve``), :func:`from_env` is a factory for ``uvicorn --factory
robotrules.service:from_env``, :func:`server_config` is the uvicorn configuration ``run`` uses (the
request-head timeout and the connection limit), :class:`Settings` holds every limit
(:mod:`robotrules.service.settings`). The parts are private modules: ``_app`` (the factory),
``_lean`` (cached ``GET /v1/check`` before the framework), ``_edge``, ``_admission``, ``_live``,
``_drafts``, ``_routes``, ``_errors``, ``_models``, ``_metrics``, ``_server``. Without the extra, importing this package raises
:class:`~robotrules.errors.MissingExtra` with a one-line "pip install 'robotrules[serve]'" message.
"""

from __future__ import annotations

from robotrules.errors import require

for _module in ("fastapi", "uvicorn", "prometheus_client"):
    require(_module, "serve")

from robotrules.service._app import STATIC_DIR, Settings, create_app, from_env, run  # noqa: E402
from robotrules.service._server import config as server_config  # noqa: E402

__all__ = ["STATIC_DIR", "Settings", "create_app", "from_env", "run", "server_config"]
