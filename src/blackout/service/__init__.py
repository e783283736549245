"""The server's service layer: accounts, sessions, tables, the runner of computer
players, read queries and the event bus (:class:`Services`); :class:`Service` is the
password-carrying front the command language, the command line and the mail gateway use.
No HTTP, no SMTP: events go out after commit.
"""

from blackout.service import errors
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
from blackout.service.services import Services
from blackout.service.standings import Standing, ratings, standings
from blackout.storage import Busy  # Services.db.at_once refused to wait

__all__ = [
    "BOT_PREFIX",
    "FIRST_BOARD",
    "Busy",
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
    "Services",
    "Snapshot",
    "Standing",
    "errors",
    "ratings",
    "standings",
]
