"""Database work from the event loop: on it whenever it need not wait, else in a thread.

The service is synchronous.  Handing each call to a worker thread is the safe way to run
it from the event loop, and the costly one under load: the hand-off itself, and then the
GIL, which the loop may wait up to the interpreter's switch interval (5 ms) to get back
from a busy worker, at every database round trip the worker makes.  So short work (a
move, an instant bot's batch) runs on the loop itself, by
:meth:`~blackout.storage.Database.on_loop`:

* on PostgreSQL through the asynchronous driver: every round trip, and any wait for a
  row lock or a connection, is awaited, and the loop serves everyone else meanwhile;
* on SQLite, whose driver cannot wait that way, it is tried: it refuses, having written
  nothing, whenever it would have had to wait for another writer (a terminal's
  ``blackout move`` can hold the lock for seconds), and only then goes to a thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from anyio import CapacityLimiter, to_thread

from blackout.service import Busy, Services

T = TypeVar("T")


async def on_loop_or_in_thread(services: Services, work: Callable[[], T],
                               limiter: CapacityLimiter | None = None) -> T:
    """``work()`` on the event loop where the database lets it (see above), else in a
    worker thread (under ``limiter``).  ``work`` must be safe to start again: its
    transactions before the one that met SQLite's lock only read, or write what a repeat
    writes again."""
    try:
        return await services.db.on_loop(work)
    except Busy:
        pass  # SQLite, another writer: nothing was written
    return await to_thread.run_sync(work, limiter=limiter)
