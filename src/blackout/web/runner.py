"""The bot runner inside the web server: computer players and clocks, off the request path.

A task on the event loop calls ``services.runner.run_due()`` (in a worker thread: bots
think and the database is synchronous) whenever a commit is heard or
``services.runner.next_due()`` says something falls due; a slow idle round catches what
nobody announced (a clock or grace period kept by another process).  Two processes may run
this at once: the service's claim on a bot turn makes sure only one of them plays it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection
from functools import partial

from anyio import CapacityLimiter, to_thread

from blackout.service import Services

log = logging.getLogger("blackout.web")

IDLE = 5.0  # seconds between rounds when nothing is announced
RETRY = 1.0  # seconds to wait after the runner failed (the database went away...)
MIN_WAIT = 0.02  # seconds between rounds that played nothing (a busy server is kicked often)


class BotRunner:
    """``local``: the boards this process's clients watch, asked before each round; their
    turns go first (see :meth:`blackout.service.runner.Runner.run_due`).  None: every due
    board alike (SQLite: one process serves everything)."""

    def __init__(self, services: Services, idle: float = IDLE,
                 local: Callable[[], Collection[int]] | None = None) -> None:
        self.services = services
        self.idle = idle
        self.local = local
        self._kick = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._one_at_a_time = CapacityLimiter(1)

    def kick(self) -> None:
        """Something was committed: look for due work now (on the event loop)."""
        self._kick.set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        runner = self.services.runner
        while True:
            self._kick.clear()
            local = None if self.local is None else self.local()
            try:
                moves = await to_thread.run_sync(partial(runner.run_due, local=local),
                                                 limiter=self._one_at_a_time)
                if moves == 0:
                    await asyncio.sleep(MIN_WAIT)  # commits that bring nothing due: no spin
                if self._kick.is_set():
                    continue  # committed meanwhile: look again at once (next_due can wait)
                due = await to_thread.run_sync(partial(runner.next_due, local),
                                               limiter=self._one_at_a_time)
            except Exception:
                log.exception("bot runner")
                await asyncio.sleep(RETRY)
                continue
            wait = self.idle if due is None else min(max(due, 0.0), self.idle)
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._kick.wait(), wait)
