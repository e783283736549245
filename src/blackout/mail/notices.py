"""The mail that tells players what happened: the board from each player's own seat after
every accepted move, reminders, refused queued moves.

:func:`mail_notices` is the service's notifier for every front end (the command line, the
mail gateway, ``check-timeouts``): it runs inside the write transaction whose events it
tells about, so the mail is in the outbox exactly when the move is committed, whichever
front end made it.  It needs no gateway settings; the gateway (or ``check-timeouts``)
delivers the outbox later.
"""

from __future__ import annotations

from blackout.commands import board_text
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


def mail_notices(reader: Reader, events: list[Event]) -> list[Notice]:
    """Mail telling players about ``events`` (boards after moves, reminders...), composed
    inside the transaction that made them happen."""
    notices: list[Notice] = []
    boards: dict[int, list[str]] = {}
    for event in events:
        if isinstance(event, MoveAccepted | GameStarted | GameEnded | SeatTakenOver
                      | GameForfeited):
            boards.setdefault(event.board, []).append(_describe(event))
        elif isinstance(event, QueuedMoveRefused):
            notices += _to_user(reader, event.userid,
                                f"blackout Board {event.board} queued move",
                                f"Your queued move {event.action} on board {event.board}"
                                f" was not played: {event.reason}")
        elif isinstance(event, Reminder):
            notices += _to_user(reader, event.userid,
                                f"blackout Board {event.board} reminder",
                                f"It is your move on board {event.board}.")
    for board, lines in boards.items():
        notices += _board_notices(reader, board, lines)
    return notices


def _board_notices(reader: Reader, board: int, happened: list[str]) -> list[Notice]:
    snap = reader.snapshot(board)
    if snap.row.live:
        return []  # a live (web) table's players watch it; they get no board mail
    game = snap.game
    next_player = "game over" if game.to_move is None or snap.row.status != "active" \
        else snap.controller(game.to_move)
    notices = []
    for seat, userid in snap.humans:
        email = reader.email_of(userid)
        if email is not None:
            notices.append(Notice(email, f"blackout Board {board} {next_player}",
                                  board_text(snap, seat), summary="\n".join(happened),
                                  topic=f"board {board}"))
    return notices


def _to_user(reader: Reader, userid: str, subject: str, text: str) -> list[Notice]:
    email = reader.email_of(userid)
    return [] if email is None else [Notice(email, subject, text)]


def _describe(event: Event) -> str:
    if isinstance(event, MoveAccepted):
        how = {"bot": " (computer)", "queued": " (queued)"}.get(event.kind, "")
        said = f" saying: {event.comment}" if event.comment else ""
        return f"Move #{event.number}: {event.player} {event.action}{how}{said}"
    if isinstance(event, GameStarted):
        return f"Board {event.board} started: {', '.join(event.players)}"
    if isinstance(event, GameEnded):
        return f"The game has ended. Winner: {', '.join(event.winners) or 'nobody'}"
    if isinstance(event, SeatTakenOver):
        why = "resigned" if event.reason == "resigned" else "did not move in time"
        return f"{event.userid} {why}; {event.bot} plays the seat now"
    if isinstance(event, GameForfeited):
        return f"{event.userid} did not move in time and forfeits the game"
    return ""


__all__ = ["mail_notices"]
