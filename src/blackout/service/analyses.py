"""Post-game analyses of finished boards: worked out once, on request, off the request path.

:func:`blackout.analysis.analyse` asks the expert about every decision of the game:
seconds of search (about 13 s for a whole pbmserv game at 100 simulations a move).  So
:meth:`Analyses.get` never waits for it.  The first request for a finished board starts
the work in a separate process (a search in one of the server's threads would hold the
GIL for seconds while the others serve the tables) and answers "pending"; the result
is written to the ``analyses`` table when it is done, and every later request reads it
from there.  A finished game never changes, so neither does its analysis.

Two server processes on one PostgreSQL database may both work out the same board's
analysis; the first to write it wins and the other's is dropped (it is the same, since
the analysis is seeded).
"""

from __future__ import annotations

import json
import logging
import multiprocessing
import signal
import threading
import time
from datetime import datetime
from functools import partial
from multiprocessing.pool import Pool
from typing import Any

from sqlalchemy.exc import IntegrityError

from blackout.service.errors import NotFinished
from blackout.service.store import Store
from blackout.storage import AnalysisRow

log = logging.getLogger("blackout.service")

#: Simulations a candidate move for the analyses a server works out (as ``blackout analyse``).
ANALYSIS_ITERATIONS = 100

#: Seconds after which an analysis not back is taken for lost (a worker killed mid-way
#: never answers) and started again on the next request.
LOST_AFTER = 900.0


def _worked_out(record: dict[str, Any], iterations: int) -> dict[str, Any]:
    """The analysis as JSON, in the worker process."""
    from blackout.analysis import analyse

    return analyse(record, iterations=iterations).to_dict()


def _leave_interrupts_to_the_server() -> None:
    """Ctrl-C reaches every process of the terminal's group: the server stops the worker."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Analyses:
    """The analyses of finished boards (see the module docstring)."""

    def __init__(self, store: Store, iterations: int = ANALYSIS_ITERATIONS) -> None:
        self.store = store
        self.iterations = iterations
        self._lock = threading.Lock()  # get() in request threads, callbacks in the pool's
        self._running: dict[int, float] = {}  # board -> when its work started (monotonic)
        self._failed: set[int] = set()
        self._pool: Pool | None = None

    def get(self, board: int) -> dict[str, Any]:
        """``{"status": "ready", "board": …, **analysis}`` once worked out, else
        ``{"status": "pending", "board": …}`` (and the work started).  Raises
        :class:`~blackout.service.errors.NotFound` for no such board and
        :class:`~blackout.service.errors.NotFinished` for a game not played to the end
        (or whose analysis failed: the server's log says why)."""
        with self.store.db.read() as session:
            row = session.get(AnalysisRow, board)
            if row is not None:
                return {"status": "ready", "board": board, **json.loads(row.body)}
        b = self.store.read(board)
        if b.row.status != "over" or b.game is None or not b.game.is_over:
            what = "ended early" if b.row.status == "forfeited" else "is not over yet"
            raise NotFinished(f"The game {what}: only a game played to the end can be "
                              "analysed")
        with self._lock:
            if board in self._failed:
                raise NotFinished("This game could not be analysed; the server's log says why")
            started = self._running.get(board)
            if started is None or time.monotonic() - started > LOST_AFTER:
                self._workers().apply_async(
                    _worked_out, (b.game.record(), self.iterations),
                    callback=partial(self._keep, board),
                    error_callback=partial(self._give_up, board))
                # Marked only once handed out; work done before this line is stored
                # already, and found above by the next request.
                self._running[board] = time.monotonic()
        return {"status": "pending", "board": board}

    def _workers(self) -> Pool:
        if self._pool is None:
            # forkserver: forking this (threaded) process itself is unsafe.
            method = ("forkserver" if "forkserver" in multiprocessing.get_all_start_methods()
                      else "spawn")
            self._pool = multiprocessing.get_context(method).Pool(
                1, initializer=_leave_interrupts_to_the_server)
        return self._pool

    def _keep(self, board: int, analysis: dict[str, Any]) -> None:
        """Store a finished analysis (in the pool's thread) before it stops being
        pending, so a request in between never finds neither."""
        try:
            self._store(board, analysis)
        except Exception as exc:
            self._give_up(board, exc)
            return
        self._done(board)

    def _give_up(self, board: int, exc: BaseException) -> None:
        log.error("the analysis of board %s failed", board, exc_info=exc)
        with self._lock:
            self._failed.add(board)
        self._done(board)

    def _done(self, board: int) -> None:
        with self._lock:
            self._running.pop(board, None)

    def _store(self, board: int, analysis: dict[str, Any]) -> None:
        created: datetime = self.store.clock()
        try:
            with self.store.db.transaction() as session:
                session.add(AnalysisRow(game_id=board, iterations=self.iterations,
                                        body=json.dumps(analysis), created_at=created))
        except IntegrityError:
            pass  # another server process stored it first: the same analysis

    def close(self) -> None:
        """Stop the worker at once: an analysis cut short is started again on request."""
        if self._pool is not None:
            self._pool.terminate()
            self._pool.join()
            self._pool = None
