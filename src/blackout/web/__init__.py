"""The web front end: the HTTP + WebSocket API of docs/api.md and the browser table.

:func:`create_app` builds the FastAPI application on a
:class:`blackout.service.Services`; ``blackout serve`` runs it under uvicorn.
"""

from blackout.web.app import create_app

__all__ = ["create_app"]
