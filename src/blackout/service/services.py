"""The service of parts, as the fronts use it (see /work/SERVICE_INTERFACE.md):

* ``accounts`` and ``sessions``: sign-up, password checks with the login throttle,
  opaque session tokens;
* ``tables``: create, join, leave, move, queue, resign, chat, presence;
* ``queries``: plain data (views, the event log, records, ratings);
* ``runner``: computer players and clocks, off the request path;
* ``analyses``: finished games' post-game analyses, worked out in another process;
* ``bus``: events after commit, to any number of subscribers, across processes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import text

from blackout import bots
from blackout.service.accounts import Accounts
from blackout.service.analyses import ANALYSIS_ITERATIONS, Analyses
from blackout.service.bus import Bus, channel_for
from blackout.service.errors import BadRequest
from blackout.service.events import (
    GameEnded,
    GameForfeited,
    GameStarted,
    MoveAccepted,
    SeatTakenOver,
)
from blackout.service.queries import Queries
from blackout.service.runner import Runner
from blackout.service.sessions import Sessions
from blackout.service.store import BOT_PREFIX, Store, Timing
from blackout.service.tables import Tables
from blackout.storage import Database

#: Events whose only mail is the board sent to a mail game's players (none at a live table).
BOARD_MAIL = (MoveAccepted, GameStarted, GameEnded, SeatTakenOver, GameForfeited)

#: Seconds a computer player with a time budget (``bot:expert``) thinks per decision.
DEFAULT_BOT_THINK = 0.5


def utc_now() -> datetime:
    """Naive UTC, as stored in the database."""
    return datetime.now(UTC).replace(tzinfo=None)


def default_bot() -> str:
    """The strongest computer player available, to take over a seat."""
    for name in ("expert", "basic", "random"):
        if name in bots.NAMES:
            return BOT_PREFIX + name
    return BOT_PREFIX + bots.NAMES[0]


class Services:
    """Every part over one :class:`~blackout.storage.Database`."""

    def __init__(self, db: Database, clock: Callable[[], datetime] = utc_now,
                 bot_think: float = DEFAULT_BOT_THINK, bot_iterations: int | None = None,
                 bot_pace: float = 0.0, grace: float = 30.0, takeover_bot: str | None = None,
                 listen: bool = False, analysis_iterations: int = ANALYSIS_ITERATIONS) -> None:
        if not bot_think > 0:
            raise BadRequest("the bots' thinking time must be a positive number of seconds")
        if not analysis_iterations > 0:
            raise BadRequest("the analyses need a positive number of simulations a move")
        self.db = db
        self.clock = clock
        self.bus = Bus()
        if not db.is_sqlite:
            with db.engine.connect() as connection:
                schema = connection.execute(text("SELECT current_schema()")).scalar_one()
            self.bus.channel = channel_for(schema)
            if listen:
                self.bus.listen(db.url, schema)
        takeover = takeover_bot or default_bot()
        # When the runner must act on a board: kept in games.due_at by every write.
        timing = Timing(pace=timedelta(seconds=bot_pace), grace=timedelta(seconds=grace),
                        takeover_bot=takeover)
        self.store = Store(db, clock, self.bus, timing)
        # One process per bot: a server runs threads, and forking a search pool from a
        # threaded process is unsafe.
        budget: dict[str, Any] = ({"think": bot_think} if bot_iterations is None
                                  else {"iterations": bot_iterations})
        budget["workers"] = 1
        self.accounts = Accounts(db, clock)
        self.sessions = Sessions(db, clock, self.accounts)
        self.queries = Queries(self.store, grace)
        self.tables = Tables(self.store, self.queries, takeover)
        self.runner = Runner(self.store, budget)
        self.analyses = Analyses(self.store, analysis_iterations)

    def mail_with(self, notifier: Any) -> None:
        """Write the mail ``notifier`` composes about each change (boards to the players
        of mail games) into the outbox, in that change's transaction."""
        from blackout.service.outbox import Outbox
        from blackout.service.server import Reader

        outbox = Outbox(self.db, self.clock)

        def mail(board: Any, events: list[Any]) -> None:
            if not events:
                return
            if board.row.live and all(isinstance(event, BOARD_MAIL) for event in events):
                return  # a live table's players watch it: no board mail (and no reading
                # of every move of the game to compose it, on every move)
            outbox.post(board.session, notifier(Reader(board.session, board), events))

        self.store.notifiers.append(mail)

    @classmethod
    def open(cls, url: str | None = None, clock: Callable[[], datetime] = utc_now,
             bot_think: float = DEFAULT_BOT_THINK, bot_iterations: int | None = None,
             bot_pace: float = 0.0, grace: float = 30.0,
             analysis_iterations: int = ANALYSIS_ITERATIONS) -> Services:
        """The services on the database at ``url`` (None: the default SQLite file); on
        PostgreSQL a listener thread hears other processes' commits."""
        services = cls(Database(url), clock=clock, bot_think=bot_think,
                       bot_iterations=bot_iterations, bot_pace=bot_pace, grace=grace,
                       listen=True, analysis_iterations=analysis_iterations)
        # The composition root: whichever front makes a move at a mail game, its
        # players get the board by mail (the gateway or check-timeouts delivers it).
        from blackout.mail.notices import mail_notices

        services.mail_with(mail_notices)
        return services

    def close(self) -> None:
        self.analyses.close()
        self.bus.close()
        self.db.dispose()
