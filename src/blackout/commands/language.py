"""The play-by-email command language: ``challenge``, ``move``, ``show``... as words.

:func:`execute` takes the words after ``blackout`` (as typed on the command line or in a
mail's Subject), calls the service and returns the text to show.  Both the command line
and the mail gateway use it, so they speak exactly the same language.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from blackout.commands import render
from blackout.commands.usage import BOARD, BOARD_AT, HELP, USAGE
from blackout.core.rules import variant
from blackout.service import (
    BOT_PREFIX,
    Event,
    MoveAccepted,
    Service,
    ServiceError,
    ratings,
    standings,
)


class CommandError(ValueError):
    """A command line that cannot be understood; the message is one line."""


@dataclass
class Reply:
    """The text for the user and what happened (for the mail gateway to tell others)."""

    text: str
    events: list[Event] = field(default_factory=list)


@dataclass(frozen=True)
class Context:
    """Who is asking: ``comment`` (a mail's body) for the other players; ``source`` (the
    mail sender) is what wrong passwords are counted by; ``operator`` is the server's
    operator (the command line on the server), who may choose a seed."""

    comment: str | None = None
    source: str | None = None
    operator: bool = False


MOVE_NUMBER = re.compile(r"(.*?)#(\d{1,9})")  # pbmserv's MOVE#N
SEED_REFUSED = ("-seed=N is only for games between computer players: a game with people "
                "is dealt from the server's own secret randomness")


def execute(service: Service, words: Sequence[str], comment: str | None = None,
            source: str | None = None, operator: bool = False) -> Reply:
    """Run one command (``words`` without the leading ``blackout``)."""
    if not words:
        raise CommandError("no command given; try: blackout help")
    name, args = words[0].lower(), list(words[1:])
    handler = _HANDLERS.get(name)
    if handler is None:
        raise CommandError(f"unknown command {_quote(words[0])}; try: blackout help")
    return handler(service, args, Context(comment, source, operator))


def _quote(text: str) -> str:
    """A user's word, safe to echo on one line."""
    return repr(text[:40] + ("..." if len(text) > 40 else ""))


def _expect(name: str, args: list[str], count: int) -> None:
    if len(args) != count:
        raise CommandError(f"usage: blackout {USAGE[name]}")


def _board(text: str) -> int:
    if not BOARD.fullmatch(text):
        raise CommandError(f"a board is a number, not {_quote(text)}")
    return int(text)


# -- accounts ---------------------------------------------------------------------------


def _signup(service: Service, args: list[str], ctx: Context) -> Reply:
    _expect("signup", args, 3)
    userid, email, password = args
    mailed = service.signup(userid, email, password)
    return Reply(f"account {userid} created\n{mailed}")


def _password(service: Service, args: list[str], ctx: Context) -> Reply:
    _expect("password", args, 3)
    userid, old, new = args
    service.change_password(userid, old, new, source=ctx.source)
    return Reply(f"password changed for {args[0]}")


def _address(service: Service, args: list[str], ctx: Context) -> Reply:
    _expect("address", args, 3)
    userid, password, email = args
    mailed = service.change_address(userid, password, email, source=ctx.source)
    return Reply(f"address of {userid} is now {email}\n{mailed}")


def _confirm(service: Service, args: list[str], ctx: Context) -> Reply:
    if len(args) not in (1, 2):
        raise CommandError(f"usage: blackout {USAGE['confirm']}")
    return Reply(service.confirm(args[0], args[1] if len(args) == 2 else None,
                                 source=ctx.source))


# -- games ------------------------------------------------------------------------------


def _challenge(service: Service, args: list[str], ctx: Context) -> Reply:
    name = "pbmserv"
    options: dict[str, Any] = {}
    seed: int | None = None
    players: list[str] = []
    items = iter(args)
    for word in items:
        if not word.startswith("-"):
            players.append(word)
            continue
        key, _, value = word[1:].partition("=")
        if key == "variant":
            value = value or next(items, "")
            if not value:
                raise CommandError("-variant needs a name, e.g. -variant standard")
            name = value
        elif key in ("inorder", "hook", "nohook") and not value:
            options["inorder" if key == "inorder" else "hook"] = key != "nohook"
        elif key == "seed":
            if not re.fullmatch(r"\d{1,18}", value):
                raise CommandError("-seed=N needs a number")
            seed = int(value)
        elif re.fullmatch(r"[a-z_]{1,30}", key) and value:
            options[key] = _option_value(value)
            if key == "schedule" and isinstance(options[key], int):
                options[key] = [options[key]]  # -schedule=1: a single hand of one card
        else:
            raise CommandError(f"unknown parameter {_quote(word)}; usage: blackout "
                               f"{USAGE['challenge']}")
    if not players:
        raise CommandError(f"name the players; usage: blackout {USAGE['challenge']}")
    if seed is not None and not ctx.operator and not all(
            p.startswith(BOT_PREFIX) for p in players):
        raise CommandError(SEED_REFUSED)
    rules = variant(name, **options)
    outcome = service.challenge(players, rules, seed=seed, source=ctx.source)
    snap = service.snapshot(outcome.board)
    text = f"board {outcome.board} started\n" + render.board_text(snap)
    return Reply(text, outcome.events)


def _option_value(text: str) -> Any:
    """``-schedule=1,2,3`` -> [1, 2, 3]; ``true``/``false``; numbers; else the word."""
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    if re.fullmatch(r"-?\d{1,6}", text):
        return int(text)
    if re.fullmatch(r"\d{1,6}(,\d{1,6})+,?", text):
        return [int(n) for n in text.split(",") if n]
    if text.startswith("["):
        # A flat list of numbers only: deep nesting would exhaust the parser's recursion.
        if len(text) > 400 or text.count("[") > 1:
            raise CommandError(f"bad option value {_quote(text)}: a list is [1, 2, 3]")
        try:
            return json.loads(text)
        except ValueError:
            raise CommandError(f"bad option value {_quote(text)}") from None
    return text


def _move_words(name: str, args: list[str]) -> tuple[int, str, str, str]:
    if len(args) < 4:
        raise CommandError(f"usage: blackout {USAGE[name]}")
    return _board(args[0]), args[1], args[2], " ".join(args[3:])


def _move(service: Service, args: list[str], ctx: Context) -> Reply:
    board, userid, password, text = _move_words("move", args)
    expected = None
    guarded = MOVE_NUMBER.fullmatch(text)
    if guarded:
        text, expected = guarded.group(1), int(guarded.group(2))
    outcome = service.move(board, userid, password, text, expected=expected,
                           comment=ctx.comment, source=ctx.source)
    made = outcome.events[0]
    assert isinstance(made, MoveAccepted)  # a move's first event is the move
    return _after_move(service, outcome.board, userid, outcome.events,
                       f"move #{made.number} accepted on board {board}: {made.action}")


def _queue(service: Service, args: list[str], ctx: Context) -> Reply:
    board, userid, password, text = _move_words("queue", args)
    outcome = service.queue(board, userid, password, text, comment=ctx.comment,
                            source=ctx.source)
    return _after_move(service, board, userid, outcome.events, outcome.message)


def _resign(service: Service, args: list[str], ctx: Context) -> Reply:
    _expect("resign", args, 3)
    board, userid, password = _board(args[0]), args[1], args[2]
    outcome = service.resign(board, userid, password, source=ctx.source)
    return _after_move(service, board, None, outcome.events, outcome.message)


def _after_move(service: Service, board: int, userid: str | None, events: list[Event],
                headline: str) -> Reply:
    snap = service.snapshot(board)
    seat = None if userid is None else snap.seat_of(userid)
    return Reply(headline + "\n" + render.board_text(snap, seat), events)


# -- views ----------------------------------------------------------------------------------


def _show(service: Service, args: list[str], ctx: Context) -> Reply:
    _expect("show", args, 1)
    board = _board(args[0])
    return Reply(render.board_text(service.snapshot(board)))


def _showas(service: Service, args: list[str], ctx: Context) -> Reply:
    _expect("showas", args, 3)
    board = _board(args[0])
    snap, seat = service.snapshot_as(board, args[1], args[2], source=ctx.source)
    return Reply(render.board_text(snap, seat))


def _history(service: Service, args: list[str], ctx: Context) -> Reply:
    _expect("history", args, 1)
    board = _board(args[0])
    return Reply(render.history_text(service.snapshot(board)))


def _replay(service: Service, args: list[str], ctx: Context) -> Reply:
    _expect("replay", args, 1)
    match = BOARD_AT.fullmatch(args[0])
    if not match:
        raise CommandError(f"usage: blackout {USAGE['replay']} (not {_quote(args[0])})")
    board, number = int(match.group(1)), int(match.group(2))
    snap = service.snapshot(board, upto=number)
    return Reply(render.board_text(snap, None, f", after move #{number}"))


def _games(service: Service, args: list[str], ctx: Context) -> Reply:
    if len(args) > 1:
        raise CommandError(f"usage: blackout {USAGE['games']}")
    return Reply(render.games_text(service.games(args[0] if args else None)))


def _standings(service: Service, args: list[str], ctx: Context) -> Reply:
    _expect("standings", args, 0)
    return Reply(render.standings_text(standings(service.finished_games())))


def _ratings(service: Service, args: list[str], ctx: Context) -> Reply:
    _expect("ratings", args, 0)
    return Reply(render.ratings_text(ratings(service.finished_games())))


def help_text(command: str | None = None) -> str:
    if command is None:
        return "\n".join(["blackout server commands:",
                          *(f"  blackout {USAGE[name]}" for name in USAGE),
                          "Computer players: " + ", ".join(_bot_names())])
    if command not in USAGE:
        raise CommandError(f"no command {_quote(command)}; try: blackout help")
    return f"blackout {USAGE[command]}\n{HELP[command]}"


def _bot_names() -> list[str]:
    from blackout import bots

    return [BOT_PREFIX + name for name in bots.NAMES]


def _help(service: Service, args: list[str], ctx: Context) -> Reply:
    if len(args) > 1:
        raise CommandError(f"usage: blackout {USAGE['help']}")
    return Reply(help_text(args[0].lower() if args else None))


_HANDLERS: dict[str, Callable[[Service, list[str], Context], Reply]] = {
    "signup": _signup,
    "password": _password,
    "address": _address,
    "confirm": _confirm,
    "challenge": _challenge,
    "move": _move,
    "queue": _queue,
    "resign": _resign,
    "show": _show,
    "showas": _showas,
    "history": _history,
    "replay": _replay,
    "games": _games,
    "standings": _standings,
    "ratings": _ratings,
    "help": _help,
}

__all__ = ["HELP", "USAGE", "CommandError", "Reply", "ServiceError",
           "execute", "help_text"]
