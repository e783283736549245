"""The application: the API routes, the WebSocket hub, the bot runner and the page.

``create_app(services)`` is what tests and ``blackout serve`` run under uvicorn;
``app_from_environment`` is the factory each uvicorn worker process calls (``--workers N``)
to open its own connection to the database named in the environment.
"""

from __future__ import annotations

import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from blackout import __version__
from blackout.service import Services
from blackout.service.analyses import ANALYSIS_ITERATIONS
from blackout.service.services import DEFAULT_BOT_THINK
from blackout.web import api, errors, live
from blackout.web.live import Hub
from blackout.web.runner import BotRunner

STATIC = Path(__file__).parent / "static"

# What `blackout serve` hands its worker processes (see blackout.cli.serve).
PACE_ENV = "BLACKOUT_BOT_PACE"
THINK_ENV = "BLACKOUT_BOT_THINK"
GRACE_ENV = "BLACKOUT_GRACE"
ANALYSIS_ENV = "BLACKOUT_ANALYSIS_ITERATIONS"


# Seconds between looks at quiet watched boards for events the bus did not announce: on
# SQLite the bus is in-process only (a `blackout move` in a terminal is another process);
# on PostgreSQL LISTEN hears everyone, and the slow look covers a listener reconnecting.
POLL_SQLITE = 1.0
POLL_POSTGRES = 10.0


def create_app(services: Services, *, run_bots: bool = True, poll: float | None = None,
               close_services: bool = False) -> FastAPI:
    """The web application on ``services``.

    ``run_bots``: run the bot runner task (computer players, clocks, grace periods);
    ``poll``: seconds between looks for events the bus did not announce (default by
    database, see above);
    ``close_services``: close ``services`` when the server stops (the caller's otherwise).
    """
    if poll is None:
        poll = POLL_SQLITE if services.db.is_sqlite else POLL_POSTGRES
    hub = Hub(services, poll=poll)
    # On PostgreSQL other processes may serve the same tables: play first the boards
    # whose clients are here (their commit is then sent without reading it back).
    local = None if services.db.is_sqlite else hub.watched
    runner = BotRunner(services, local=local) if run_bots else None

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        if runner is not None:
            hub.listeners.append(runner.kick)
            runner.start()
        try:
            yield
        finally:
            if runner is not None:
                await runner.stop()
            await hub.stop()
            await services.db.close_loop()
            if close_services:
                services.close()

    app = FastAPI(title="Blackout", version=__version__, lifespan=lifespan,
                  summary="Live Blackout (Oh Hell!) tables: the API of docs/api.md")
    app.state.services = services
    app.state.hub = hub
    errors.install(app)
    app.include_router(api.router)
    app.include_router(live.router)
    _add_page(app)
    return app


def _add_page(app: FastAPI) -> None:
    """The browser table: one page for the lobby and every table, assets under /static."""
    index = STATIC / "index.html"

    def page() -> Response:
        if not index.is_file():
            return errors.refusal(404, "not_found", "the browser table is not installed")
        return FileResponse(index, media_type="text/html")

    async def lobby_page() -> Response:
        return page()

    async def table_page(board: int) -> Response:
        return page()

    app.add_api_route("/", lobby_page, methods=["GET"], include_in_schema=False)
    app.add_api_route("/tables/{board}", table_page, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")


# A server process keeps many live objects (cached positions, the latest commit of each
# board, each watched board's recent events), and a full collection of Python's cyclic
# garbage collector walks them all: measured under bench/server.py's load, 5 such pauses
# in 30 s, the longest 0.24 s, every request waiting.  What exists once the app is made is
# never garbage (gc.freeze), and the youngest generation is collected every 20,000
# allocations instead of 700, so the older ones, and their pauses, come far less often.
GC_THRESHOLDS = (20_000, 20, 100)


def app_from_environment() -> FastAPI:
    """The app of one uvicorn worker: its own services on ``$BLACKOUT_DATABASE_URL``."""
    env = os.environ.get
    think = env(THINK_ENV)
    services = Services.open(url=env("BLACKOUT_DATABASE_URL") or None,
                             bot_pace=float(env(PACE_ENV, "0.8")),
                             grace=float(env(GRACE_ENV, "30")),
                             bot_think=float(think) if think else DEFAULT_BOT_THINK,
                             analysis_iterations=int(env(ANALYSIS_ENV) or ANALYSIS_ITERATIONS))
    app = create_app(services, close_services=True)
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    return app
