"""The server's service layer: accounts, games, moves and the events they cause.

No HTTP, no argument parsing: the command language (:mod:`blackout.commands`), the
command line and the mail gateway all call :class:`Service` and nothing else.
"""

from blackout.service.errors import ServiceError
from blackout.service.events import (
    Event,
    GameEnded,
    GameForfeited,
    GameStarted,
    MoveAccepted,
    QueuedMoveRefused,
    Reminder,
    SeatTakenOver,
)
from blackout.service.server import BOT_PREFIX, FIRST_BOARD, Outcome, Service, Snapshot
from blackout.service.standings import Standing, ratings, standings

__all__ = [
    "BOT_PREFIX",
    "FIRST_BOARD",
    "Event",
    "GameEnded",
    "GameForfeited",
    "GameStarted",
    "MoveAccepted",
    "Outcome",
    "QueuedMoveRefused",
    "Reminder",
    "SeatTakenOver",
    "Service",
    "ServiceError",
    "Snapshot",
    "Standing",
    "ratings",
    "standings",
]
