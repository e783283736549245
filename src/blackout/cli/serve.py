"""``blackout serve``: the web server (API, live tables, the browser page, computer players).

The database is opened (and migrated) once here, before uvicorn starts its workers, so a
wrong URL is one line of error and several workers never race to create the schema; each
worker then opens its own connection (``blackout.web.app.app_from_environment``).
"""

from __future__ import annotations

import argparse
import os

from blackout.cli.main import UserError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("serve", help="run the web server: live tables in the browser",
                       description="Serve the HTTP/WebSocket API (docs/api.md), the browser "
                       "table at / and the computer players.  Several processes (--workers, "
                       "or several commands) may serve one PostgreSQL database.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    p.add_argument("--db", help="database URL (default: $BLACKOUT_DATABASE_URL or a SQLite "
                   "file in your data directory)")
    p.add_argument("--workers", type=int, default=1,
                   help="server processes (more than one needs PostgreSQL)")
    p.add_argument("--bot-pace", type=float, default=0.8, metavar="SECONDS",
                   help="how long a computer player waits before moving (0.8)")
    p.add_argument("--bot-think", type=float, default=None, metavar="SECONDS",
                   help="how long bot:expert thinks per decision (0.5)")
    p.add_argument("--analysis-iterations", type=int, default=None, metavar="N",
                   help="simulations a move for the post-game analyses (100; fewer is "
                   "faster and rougher)")
    p.add_argument("--grace", type=float, default=30.0, metavar="SECONDS",
                   help="how long a disconnected player keeps the seat before a computer "
                   "player moves for them (30)")
    p.add_argument("--log-level", default="info",
                   choices=["critical", "error", "warning", "info", "debug"])
    p.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    from blackout.storage.database import DATABASE_ENV, default_url
    from blackout.web.app import ANALYSIS_ENV, GRACE_ENV, PACE_ENV, THINK_ENV

    url = args.db or default_url()
    if args.workers < 1:
        raise UserError("--workers needs a number of processes, 1 or more")
    if args.workers > 1 and url.startswith("sqlite"):
        raise UserError("--workers above 1 needs a PostgreSQL database (--db "
                        "postgresql+psycopg://...): SQLite tells only its own process of moves")
    for name, value in (("--bot-pace", args.bot_pace), ("--grace", args.grace)):
        if not 0 <= value < 24 * 3600:
            raise UserError(f"{name} needs a number of seconds, not {value}")
    if args.bot_think is not None and not 0 < args.bot_think < 3600:
        raise UserError(f"--bot-think needs a number of seconds, not {args.bot_think}")
    if args.analysis_iterations is not None and not 0 < args.analysis_iterations <= 100_000:
        raise UserError("--analysis-iterations needs a number of simulations, 1 to 100000, "
                        f"not {args.analysis_iterations}")
    _check_database(url)
    os.environ[DATABASE_ENV] = url
    os.environ[PACE_ENV] = str(args.bot_pace)
    os.environ[GRACE_ENV] = str(args.grace)
    if args.bot_think is not None:
        os.environ[THINK_ENV] = str(args.bot_think)
    if args.analysis_iterations is not None:
        os.environ[ANALYSIS_ENV] = str(args.analysis_iterations)
    import uvicorn

    uvicorn.run("blackout.web.app:app_from_environment", factory=True, host=args.host,
                port=args.port, workers=args.workers, log_level=args.log_level,
                proxy_headers=True, ws_ping_interval=20, ws_ping_timeout=20)
    return 0


def _check_database(url: str) -> None:
    """Open the database once (creating or upgrading its schema); a bad URL is one line."""
    from sqlalchemy.exc import SQLAlchemyError

    from blackout.service import Services

    try:
        Services.open(url=url).close()
    except SQLAlchemyError as exc:
        message = str(getattr(exc, "orig", None) or exc).strip().splitlines()
        raise UserError(f"database error: {message[0] if message else type(exc).__name__}"
                        ) from None
