"""Database work from the event loop: on it when it cannot wait, else in a worker thread.

The service is synchronous.  Handing each call to a worker thread is the safe way to run
it from the event loop, and the costly one under load: the hand-off itself, and then the
GIL, which the loop may wait up to the interpreter's switch interval (5 ms) to get back
from a busy worker.  On SQLite short work (a move, an instant bot's batch) can instead be
tried on the loop with :meth:`~blackout.storage.Database.at_once`: it refuses, having
written nothing, whenever it would have had to wait for another writer (a terminal's
``blackout move`` can hold the lock for seconds), and only then goes to a thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from anyio import CapacityLimiter, to_thread

from blackout.service import Busy, Services

T = TypeVar("T")


async def at_once_or_in_thread(services: Services, work: Callable[[], T],
                               limiter: CapacityLimiter | None = None) -> T:
    """``work()`` on the event loop when the database can do it without waiting, else
    in a worker thread (under ``limiter``).  ``work`` must be safe to start again: its
    transactions before the one that met the lock only read, or write what a repeat
    writes again."""
    if services.db.can_refuse_to_wait:
        try:
            with services.db.at_once():
                return work()
        except Busy:
            pass  # nothing was written
    return await to_thread.run_sync(work, limiter=limiter)
