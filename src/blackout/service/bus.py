"""Events after commit: ``subscribe(callback)``; ``callback(board, last_event)`` runs
after every commit that appended events to a board's log, from any thread.

In one process (SQLite) the store publishes right after its commit.  On PostgreSQL the
transaction also sends ``NOTIFY`` (payload ``"board:n"`` only, far below the 8 kB
limit; delivered by PostgreSQL at commit, never for a rolled-back transaction) and a
listener thread hears the commits of every process; a board's number is passed on only
when it is newer than the last one passed on, so the local publish and the echo of its
own NOTIFY reach subscribers once.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)
Callback = Callable[[int, int], None]
CHANNEL_PREFIX = "blackout_events"


class Bus:
    def __init__(self) -> None:
        self._subscribers: list[Callback] = []
        self._latest: dict[int, int] = {}
        self._lock = threading.Lock()
        self._listener: _Listener | None = None
        self.channel: str | None = None

    def subscribe(self, callback: Callback) -> Callable[[], None]:
        """Call ``callback(board, last_event)`` after every commit; returns the
        function that unsubscribes it."""
        with self._lock:
            self._subscribers.append(callback)

        def unsubscribe() -> None:
            with self._lock:
                if callback in self._subscribers:
                    self._subscribers.remove(callback)

        return unsubscribe

    def publish(self, board: int, last_event: int) -> None:
        """Tell every subscriber that ``board``'s log now ends at ``last_event``."""
        with self._lock:
            if last_event <= self._latest.get(board, 0):
                return
            self._latest[board] = last_event
            subscribers = list(self._subscribers)
        for callback in subscribers:
            try:
                callback(board, last_event)
            except Exception:  # one broken subscriber must not stop the others
                log.exception("event subscriber failed for board %s", board)

    # -- PostgreSQL ---------------------------------------------------------------------

    def notify(self, session: Session, board: int, last_event: int) -> None:
        """Inside the transaction: NOTIFY other processes at commit (PostgreSQL)."""
        if self.channel is not None:
            session.execute(text("SELECT pg_notify(:channel, :payload)"),
                            {"channel": self.channel, "payload": f"{board}:{last_event}"})

    def listen(self, url: str, schema: str) -> None:
        """Start hearing other processes' commits on the database at ``url``."""
        self.channel = channel_for(schema)
        self._listener = _Listener(url, self.channel, self.publish)
        self._listener.start()

    def close(self) -> None:
        if self._listener is not None:
            self._listener.stop()
            self._listener = None


def channel_for(schema: str) -> str:
    """One channel per schema: test schemas on one database do not hear each other."""
    return f"{CHANNEL_PREFIX}_{schema}"[:63]


class _Listener(threading.Thread):
    """``LISTEN`` on its own autocommit connection; reconnects after a failure."""

    def __init__(self, url: str, channel: str, publish: Callback) -> None:
        super().__init__(name="blackout-listen", daemon=True)
        parsed = make_url(url).set(drivername="postgresql")
        self.conninfo = parsed.render_as_string(hide_password=False)
        self.channel = channel
        self.publish = publish
        self._stopping = threading.Event()
        self.ready = threading.Event()

    def run(self) -> None:
        import psycopg

        while not self._stopping.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True) as connection:
                    connection.execute(f'LISTEN "{self.channel}"')
                    self.ready.set()
                    while not self._stopping.is_set():
                        for note in connection.notifies(timeout=0.5):
                            board, _, number = note.payload.partition(":")
                            if board.isdigit() and number.isdigit():
                                self.publish(int(board), int(number))
            except Exception:
                log.exception("listening for events failed; listening again")
                self._stopping.wait(1.0)

    def stop(self) -> None:
        self._stopping.set()
        self.join(timeout=5)
