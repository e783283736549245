"""The mail that tells players what happened: the board from each player's own seat after
every accepted move, reminders, refused queued moves.

:func:`mail_notices` is the service's notifier for every front end (the command line, the
mail gateway, ``check-timeouts``): it runs inside the write transaction whose events it
tells about, so the mail is in the outbox exactly when the move is committed, whichever
front end made it.  It needs no gateway settings; the gateway (or ``check-timeouts``)
delivers the outbox later.

What a move caused in the game (the rules' automatic plays, the trick it took and who
won it, the hand it ended and its scores) is told from the core's events for that move,
with the same lines as ``history`` (:func:`blackout.commands.render.consequence_lines`).
The board is drawn from a brief :class:`~blackout.commands.render.Story` that this
process keeps next to the board's cached position and catches up with the moves it
lacks (:meth:`Reader.told <blackout.service.server.Reader.told>`): the mail of a move
costs the same whatever the length of the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from blackout.commands.render import Story, consequence_lines, told_board_text
from blackout.core.game import Events
from blackout.service import (
    Event,
    GameEnded,
    GameForfeited,
    GameStarted,
    MoveAccepted,
    QueuedMoveRefused,
    Reminder,
    SeatTakenOver,
)
from blackout.service.outbox import Notice
from blackout.service.server import Reader

#: The service events that change a board, told to its players with the new board.
BOARD_EVENTS = (MoveAccepted, GameStarted, GameEnded, SeatTakenOver, GameForfeited)


def mail_notices(reader: Reader, events: list[Event]) -> list[Notice]:
    """Mail telling players about ``events`` (boards after moves, reminders...), composed
    inside the transaction that made them happen."""
    notices: list[Notice] = []
    boards: dict[int, list[Event]] = {}
    for event in events:
        if isinstance(event, BOARD_EVENTS):
            boards.setdefault(event.board, []).append(event)
        elif isinstance(event, QueuedMoveRefused):
            notices += _to_user(reader, event.userid,
                                f"blackout Board {event.board} queued move",
                                f"Your queued move {event.action} on board {event.board}"
                                f" was not played: {event.reason}")
        elif isinstance(event, Reminder):
            notices += _to_user(reader, event.userid,
                                f"blackout Board {event.board} reminder",
                                f"It is your move on board {event.board}.")
    for board, told in boards.items():
        notices += _board_notices(reader, board, told)
    return notices


def _board_notices(reader: Reader, board: int, told: list[Event]) -> list[Notice]:
    if reader.live(board):
        return []  # a live (web) table's players watch it; they get no board mail
    moves = [event.number for event in told if isinstance(event, MoveAccepted)]
    now = reader.told(board, Story, min(moves, default=None))
    game = now.game
    happened = "\n".join(line for event in told
                         for line in describe(event, now.caused, game.players))
    next_player = "game over" if game.to_move is None or now.row.status != "active" \
        else now.seats[game.to_move].controller
    notices = []
    for seat, userid in now.humans:
        email = reader.email_of(userid)
        if email is not None:
            notices.append(Notice(email, f"blackout Board {board} {next_player}",
                                  told_board_text(now.row, now.seats, game, now.story, seat),
                                  summary=happened, topic=f"board {board}"))
    return notices


def _to_user(reader: Reader, userid: str, subject: str, text: str) -> list[Notice]:
    email = reader.email_of(userid)
    return [] if email is None else [Notice(email, subject, text)]


def describe(event: Event, caused: Mapping[int, Events], names: Sequence[str]) -> list[str]:
    """``event`` in a line or more; a move is followed by what it caused in the game
    (``caused``: the core's events of each move told)."""
    if isinstance(event, MoveAccepted):
        how = {"bot": " (computer)", "queued": " (queued)"}.get(event.kind, "")
        said = f" saying: {event.comment}" if event.comment else ""
        return [f"Move #{event.number}: {event.player} {event.action}{how}{said}",
                *("  " + line for line in consequence_lines(caused[event.number], names))]
    if isinstance(event, GameStarted):
        return [f"Board {event.board} started: {', '.join(event.players)}"]
    if isinstance(event, GameEnded):
        return [f"The game has ended. Winner: {', '.join(event.winners) or 'nobody'}"]
    if isinstance(event, SeatTakenOver):
        why = "resigned" if event.reason == "resigned" else "did not move in time"
        return [f"{event.userid} {why}; {event.bot} plays the seat now"]
    if isinstance(event, GameForfeited):
        return [f"{event.userid} did not move in time and forfeits the game"]
    return []


__all__ = ["describe", "mail_notices"]
