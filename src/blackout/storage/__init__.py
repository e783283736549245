"""Storage: SQLAlchemy models and the database a server keeps its accounts and games in.

Only :mod:`blackout.service` uses this package.  The schema is created and upgraded
by the Alembic migrations in ``migrations/`` when a :class:`Database` is opened.
"""

from blackout.storage.database import DATABASE_ENV, Busy, Database, default_url
from blackout.storage.models import (
    Account,
    AnalysisRow,
    Base,
    EventRow,
    GameRow,
    LoginThrottle,
    MoveRow,
    OutboxMail,
    QueuedMove,
    SeatRow,
    SessionRow,
)

__all__ = [
    "DATABASE_ENV",
    "Account",
    "AnalysisRow",
    "Base",
    "Busy",
    "Database",
    "EventRow",
    "GameRow",
    "LoginThrottle",
    "MoveRow",
    "OutboxMail",
    "QueuedMove",
    "SeatRow",
    "SessionRow",
    "default_url",
]
