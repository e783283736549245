"""The server's commands on the command line: ``blackout move 101 ann secret 7`` etc.

Each command of :mod:`blackout.commands` becomes a sub-command that hands its words to
the command language unparsed (pbmserv's ``-inorder`` style options are not argparse's),
after taking out ``--db URL``, ``--comment TEXT`` and ``--bot-think SECONDS``.  Their
mail (the board to each player after a move...) goes to the outbox as the gateway's does.
``blackout mail-gateway`` runs the e-mail front end; ``blackout check-timeouts`` runs its
idle-player check once (for cron) and sends the mail that is due.

``blackout replay`` is shared with game-record files: ``replay BOARD#N`` is the server's,
anything else is passed on to the record-file command when that module registered it.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from blackout.cli.main import UserError
from blackout.commands.usage import BOARD_AT, HELP, USAGE

if TYPE_CHECKING:
    from blackout.mail import GatewayConfig
    from blackout.service import Service
    from blackout.storage import Database

RunFunction = Callable[[argparse.Namespace], int]
# argparse would take "-inorder" for an option of its own; with NUL (which no command-line
# word can hold) as the only option prefix, every word reaches the command language.
NO_OPTIONS = "\0"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
        db = getattr(args, "server_db", None) or getattr(args, "db", None) or _global_db(args)
        return _run_words(["replay", board_at], db=db, comment=None, bot_think=None)

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
    return _run_words([name, *words], db=options.get("db") or _global_db(args),
                      comment=options.get("comment"), bot_think=_seconds(options.get("bot-think")))


def _global_db(args: argparse.Namespace) -> str | None:
    """``blackout --db URL COMMAND``: the database named before the command."""
    return getattr(args, "global_db", None)


def _seconds(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < 3600:
        raise UserError(f"--bot-think needs a number of seconds, not {text!r}")
    return value


def _take_options(words: list[str]) -> tuple[list[str], dict[str, str]]:
    """Split ``--db URL``, ``--comment TEXT``, ``--bot-think SECONDS`` and
    ``-h``/``--help`` from the words."""
    rest: list[str] = []
    options: dict[str, str] = {}
    items = iter(words)
    for word in items:
        if word in ("-h", "--help"):
            options["help"] = ""
            continue
        key, equals, value = word.partition("=")
        if key in ("--db", "--comment", "--bot-think"):
            if not equals:
                value = next(items, "")
            if not value:
                raise UserError(f"{key} needs a value")
            options[key[2:]] = value
            continue
        rest.append(word)
    return rest, options


def _run_words(words: list[str], db: str | None, comment: str | None,
               bot_think: float | None) -> int:
    from blackout.commands import execute, help_text

    if words[0] == "help":
        if len(words) > 2:
            raise UserError(f"usage: blackout {USAGE['help']}")
        print(help_text(words[1].lower() if len(words) > 1 else None))
        return 0
    from sqlalchemy.exc import SQLAlchemyError

    from blackout.storage import Database

    try:
        database = Database(db)
        try:
            service = _mailing_service(database, bot_think)
            # Whoever runs the command line on the server's database is its operator.
            reply = execute(service, words, comment=comment, operator=True)
        finally:
            database.dispose()
    except SQLAlchemyError as exc:
        raise UserError(f"database error: {_first_line(exc)}") from None
    print(reply.text)
    return 0


def _mailing_service(database: Database, bot_think: float | None) -> Service:
    """A service that queues the same mail as the gateway: whichever front end makes a
    move, the players who play by mail get the board in the outbox, in the move's own
    transaction, for ``mail-gateway`` or ``check-timeouts`` to deliver."""
    from blackout.mail import mail_notices
    from blackout.service import Service

    if bot_think is None:  # the service's own default
        return Service(database, notifier=mail_notices)
    return Service(database, notifier=mail_notices, bot_think=bot_think)


def _first_line(exc: BaseException) -> str:
    text = str(getattr(exc, "orig", None) or exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


# -- the mail gateway ------------------------------------------------------------------------


def _register_gateway(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("mail-gateway", help="run the e-mail front end (an SMTP server)",
                       description="Take commands by e-mail (Subject: the command, body: an "
                       "optional comment), answer by mail through an SMTP relay, remind idle "
                       "players and let a computer player take over after a longer time.")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=int(os.environ.get("BLACKOUT_MAIL_PORT", "2525")))
    _add_gateway_options(p)
    p.add_argument("--check-every", type=float, default=60.0, metavar="SECONDS",
                   help="how often to look for idle players (default 60)")
    p.set_defaults(run=run_gateway)
    p = sub.add_parser("check-timeouts", help="remind or replace idle players once (for cron)",
                       description="Do the mail gateway's idle-player check once: remind "
                       "players who have not moved for --remind-after hours, let a computer "
                       "player take the seat after --give-up-after hours (or end the game "
                       "with --forfeit), and send the mail that is due through the relay.  "
                       "For running from cron when the gateway is not running.")
    _add_gateway_options(p)
    p.set_defaults(run=run_check_timeouts)


def _add_gateway_options(p: argparse.ArgumentParser) -> None:
    env = os.environ.get
    p.add_argument("--db", help="database URL (default: $BLACKOUT_DATABASE_URL or a SQLite "
                   "file in your data directory)")
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
    p.add_argument("--bot-think", type=float, default=None, metavar="SECONDS",
                   help="thinking time per decision of computer players that take one, "
                   "such as bot:expert (default 0.5)")


def _gateway_config(args: argparse.Namespace) -> GatewayConfig:
    from blackout.mail import GatewayConfig

    if args.bot_think is not None:
        _seconds(str(args.bot_think))  # the same check as on the other commands
    _check_timing(args)
    return GatewayConfig(
        host=getattr(args, "host", "127.0.0.1"), port=getattr(args, "port", 2525),
        address=args.address, relay_host=args.relay_host, relay_port=args.relay_port,
        remind_after_hours=args.remind_after, give_up_after_hours=args.give_up_after,
        forfeit=args.forfeit, check_every=getattr(args, "check_every", 60.0),
    )


def _check_timing(args: argparse.Namespace) -> None:
    """Times that make sense: a finite positive wait, and the take-over after the reminder
    (else nobody is ever replaced, or everybody at once)."""
    limits = [("--remind-after", args.remind_after, "hours"),
              ("--give-up-after", args.give_up_after, "hours")]
    if hasattr(args, "check_every"):
        limits.append(("--check-every", args.check_every, "seconds"))
    for name, value, unit in limits:
        if not (math.isfinite(value) and 0 < value <= 100 * 365 * 24):
            raise UserError(f"{name} needs a positive number of {unit}, not {value:g}")
    if args.give_up_after < args.remind_after:
        raise UserError(f"--give-up-after ({args.give_up_after:g} hours) must not be less than "
                        f"--remind-after ({args.remind_after:g} hours): the reminder comes first")


def _open_service(args: argparse.Namespace) -> Service:
    from blackout.storage import Database

    return _mailing_service(Database(args.db), args.bot_think)


def run_gateway(args: argparse.Namespace) -> int:
    from blackout.mail import serve_forever

    config = _gateway_config(args)
    serve_forever(_open_service(args), config)
    return 0


def run_check_timeouts(args: argparse.Namespace) -> int:
    from sqlalchemy.exc import SQLAlchemyError

    from blackout.mail import Gateway
    from blackout.service import GameForfeited, Reminder, SeatTakenOver

    config = _gateway_config(args)
    try:
        service = _open_service(args)
        try:
            gateway = Gateway(service, config)
            events = gateway.check_timeouts()
            waiting = service.outbox.pending()
        finally:
            service.db.dispose()
    except SQLAlchemyError as exc:
        raise UserError(f"database error: {_first_line(exc)}") from None
    counts = [sum(isinstance(e, kind) for e in events)
              for kind in (Reminder, SeatTakenOver, GameForfeited)]
    print(f"{counts[0]} reminded, {counts[1]} replaced by a computer player, "
          f"{counts[2]} forfeited; {waiting} mail(s) waiting for the relay")
    return 0


__all__ = ["register", "run_check_timeouts", "run_command", "run_gateway"]
