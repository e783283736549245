"""The server's commands on the command line: ``blackout move 101 ann secret 7`` etc.

Each command of :mod:`blackout.commands` becomes a sub-command that hands its words to
the command language unparsed (pbmserv's ``-inorder`` style options are not argparse's),
after taking out ``--db URL`` and ``--comment TEXT``.  ``blackout mail-gateway`` runs
the e-mail front end.

``blackout replay`` is shared with game-record files: ``replay BOARD#N`` is the server's,
anything else is passed on to the record-file command when that module registered it.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Callable

from blackout.cli.main import UserError
from blackout.commands.usage import BOARD_AT, HELP, USAGE

RunFunction = Callable[[argparse.Namespace], int]
# argparse would take "-inorder" for an option of its own; with NUL (which no command-line
# word can hold) as the only option prefix, every word reaches the command language.
NO_OPTIONS = "\0"


def register(sub: argparse._SubParsersAction) -> None:
    for name in USAGE:
        if name in sub.choices:
            if name == "replay":
                _share_replay(sub.choices[name])
            continue  # another module owns this name; the lead decides (see report)
        summary = HELP[name].split(".")[0]
        parser = sub.add_parser(name, help=summary[0].lower() + summary[1:],
                                add_help=False, prefix_chars=NO_OPTIONS,
                                usage=f"blackout {USAGE[name]} [--db URL]")
        parser.add_argument("words", nargs="*")
        parser.set_defaults(run=run_command, server_command=name, file_command=None)
    _register_gateway(sub)


def _share_replay(parser: argparse.ArgumentParser) -> None:
    """Route ``replay BOARD#N`` to the server, leaving record files to their command."""
    file_command: RunFunction = parser.get_default("run")
    with contextlib.suppress(argparse.ArgumentError):  # unless that command has --db
        parser.add_argument("--db", dest="server_db", metavar="URL",
                            help="the server's database, for replay BOARD#N")

    def run(args: argparse.Namespace) -> int:
        board_at = next((value for value in vars(args).values()
                         if isinstance(value, str) and BOARD_AT.fullmatch(value)), None)
        if board_at is None:
            return file_command(args)
        db = getattr(args, "server_db", None) or getattr(args, "db", None)
        return _run_words(["replay", board_at], db=db, comment=None)

    parser.set_defaults(run=run)


def run_command(args: argparse.Namespace) -> int:
    words, options = _take_options(list(args.words))
    name = args.server_command
    if name == "replay" and words and not BOARD_AT.fullmatch(words[0]) and args.file_command:
        return int(args.file_command(args))
    if "help" in options:
        from blackout.commands import help_text

        print(help_text(name))
        return 0
    return _run_words([name, *words], db=options.get("db"), comment=options.get("comment"))


def _take_options(words: list[str]) -> tuple[list[str], dict[str, str]]:
    """Split ``--db URL``, ``--comment TEXT`` and ``-h``/``--help`` from the words."""
    rest: list[str] = []
    options: dict[str, str] = {}
    items = iter(words)
    for word in items:
        if word in ("-h", "--help"):
            options["help"] = ""
            continue
        key, equals, value = word.partition("=")
        if key in ("--db", "--comment"):
            if not equals:
                value = next(items, "")
            if not value:
                raise UserError(f"{key} needs a value")
            options[key[2:]] = value
            continue
        rest.append(word)
    return rest, options


def _run_words(words: list[str], db: str | None, comment: str | None) -> int:
    from blackout.commands import execute, help_text

    if words[0] == "help":
        if len(words) > 2:
            raise UserError(f"usage: blackout {USAGE['help']}")
        print(help_text(words[1].lower() if len(words) > 1 else None))
        return 0
    from sqlalchemy.exc import SQLAlchemyError

    from blackout.service import Service
    from blackout.storage import Database

    try:
        database = Database(db)
        try:
            reply = execute(Service(database), words, comment=comment)
        finally:
            database.dispose()
    except SQLAlchemyError as exc:
        raise UserError(f"database error: {_first_line(exc)}") from None
    print(reply.text)
    return 0


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# -- the mail gateway ------------------------------------------------------------------------


def _register_gateway(sub: argparse._SubParsersAction) -> None:
    env = os.environ.get
    p = sub.add_parser("mail-gateway", help="run the e-mail front end (an SMTP server)",
                       description="Take commands by e-mail (Subject: the command, body: an "
                       "optional comment), answer by mail through an SMTP relay, remind idle "
                       "players and let a computer player take over after a longer time.")
    p.add_argument("--db", help="database URL (default: $BLACKOUT_DATABASE_URL or a SQLite "
                   "file in your data directory)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=int(env("BLACKOUT_MAIL_PORT", "2525")))
    p.add_argument("--address", default=env("BLACKOUT_MAIL_ADDRESS", "blackout@localhost"),
                   help="the server's own e-mail address (From: of its mail)")
    p.add_argument("--relay-host", default=env("BLACKOUT_SMTP_RELAY_HOST", "localhost"),
                   help="SMTP relay for outgoing mail ($BLACKOUT_SMTP_RELAY_HOST)")
    p.add_argument("--relay-port", type=int,
                   default=int(env("BLACKOUT_SMTP_RELAY_PORT", "25")),
                   help="($BLACKOUT_SMTP_RELAY_PORT)")
    p.add_argument("--remind-after", type=float, default=72.0, metavar="HOURS",
                   help="remind a player who has not moved for this long (default 72)")
    p.add_argument("--give-up-after", type=float, default=168.0, metavar="HOURS",
                   help="then let a computer player take the seat (default 168)")
    p.add_argument("--forfeit", action="store_true",
                   help="end the game as lost by the idle player instead")
    p.add_argument("--check-every", type=float, default=60.0, metavar="SECONDS",
                   help="how often to look for idle players (default 60)")
    p.set_defaults(run=run_gateway)


def run_gateway(args: argparse.Namespace) -> int:
    from blackout.mail import GatewayConfig, serve_forever

    config = GatewayConfig(
        host=args.host, port=args.port, address=args.address, relay_host=args.relay_host,
        relay_port=args.relay_port, remind_after_hours=args.remind_after,
        give_up_after_hours=args.give_up_after, forfeit=args.forfeit,
        check_every=args.check_every,
    )
    serve_forever(args.db, config)
    return 0


__all__ = ["register", "run_command", "run_gateway"]
