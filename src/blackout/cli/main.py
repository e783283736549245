"""Entry point of the ``blackout`` command.

Each command family is a module of this package with a ``register(subparsers)``
function that adds its sub-commands, each with ``set_defaults(run=function)``; the
function takes the parsed arguments and returns the exit code.  Errors a user can cause
raise :class:`UserError` (or one of the library's ``ValueError`` subclasses) and are
printed as one line, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

# Modules that add sub-commands, in the order they appear in --help.
COMMAND_MODULES = [
    "blackout.cli.rules_commands",
    "blackout.cli.play",
    "blackout.cli.score",
    "blackout.cli.replay",
    "blackout.cli.analyse",
    "blackout.cli.arena",
    "blackout.cli.server",
    "blackout.cli.serve",
]


# What `pip install 'blackout[server]'` adds (pyproject's [server] extra), by import name.
SERVER_MODULES = frozenset({"sqlalchemy", "alembic", "psycopg", "argon2", "aiosmtpd", "fastapi",
                            "uvicorn", "websockets", "starlette"})
SERVER_NEEDED = "the server needs `pip install 'blackout[server]'`"


class UserError(Exception):
    """A mistake in what the user asked for; printed without a traceback."""


class _Parser(argparse.ArgumentParser):
    """Reports a usage mistake as one line (argparse's default prints the whole usage)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see '{self.prog} -h')\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="blackout",
        description="Blackout (Oh Hell!) card games: play, keep score, replay, serve.",
    )
    parser.add_argument("--version", action="version", version=_version())
    parser.add_argument("--db", dest="global_db", metavar="URL",
                        help="the server's database, for the server's commands (also "
                        "accepted after the command)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def _version() -> str:
    from blackout import __version__

    return f"blackout {__version__}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "db", "") is None:  # `blackout --db URL serve` as `serve --db URL`
        args.db = args.global_db
    run = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 0
    try:
        return int(run(args) or 0)
    except ModuleNotFoundError as exc:
        # The light install (no extras) has the rules, bots and terminal commands only.
        if (exc.name or "").split(".")[0] not in SERVER_MODULES:
            raise
        print(f"blackout: {SERVER_NEEDED} (missing: {exc.name})", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`blackout show 101 | head`): not an error to report.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (UserError, ValueError, OSError) as exc:
        print(f"blackout: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
