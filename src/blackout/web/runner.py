"""The bot runner inside the web server: computer players and clocks, off the request path.

A task on the event loop runs the due turns (``services.runner``) whenever a commit is
heard or ``services.runner.next_due()`` says something falls due; a slow idle round
catches what nobody announced (a clock or grace period kept by another process).  Two
processes may run this at once: the service's claim on a bot turn makes sure only one of
them plays it.

Where the turns are worked out: a bot that thinks (``expert``) always does it in a worker
thread.  The rounds of claims, in which the instant bots (``basic``, ``random``) also
play, run on the event loop a batch at a time, between the requests (on SQLite in a
thread when another writer holds the database: see :mod:`blackout.web.loop`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Collection
from functools import partial
from typing import TypeVar

from anyio import CapacityLimiter, to_thread

from blackout.service import Busy, Services
from blackout.service.runner import BURST
from blackout.web.loop import on_loop_or_in_thread

T = TypeVar("T")

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
                moves = await self._run_due(local)
                if moves == 0:
                    await asyncio.sleep(MIN_WAIT)  # commits that bring nothing due: no spin
                if self._kick.is_set():
                    continue  # committed meanwhile: look again at once (next_due can wait)
                due = await self._here_or_in_thread(partial(runner.next_due, local))
            except Exception:
                log.exception("bot runner")
                await asyncio.sleep(RETRY)
                continue
            wait = self.idle if due is None else min(max(due, 0.0), self.idle)
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._kick.wait(), wait)

    async def _run_due(self, local: Collection[int] | None) -> int:
        """The turns due now (``Runner.run_due``); how many moves were made."""
        runner = self.services.runner
        if not runner.caught_up:
            await self._in_thread(runner.catch_up)  # reads every active board, once
        made = 0
        while made < BURST:
            try:
                claimed, played = await self.services.db.on_loop(
                    partial(runner.claim_due, local=local))
            except Busy:  # SQLite, another writer: wait for it in a thread, not here
                return made + await self._in_thread(partial(
                    runner.run_due, BURST - made, local))
            if not claimed and not played:
                break
            made += played
            if claimed:
                made += await self._in_thread(partial(runner.play_claimed, claimed))
            await asyncio.sleep(0)  # the requests and sockets that waited meanwhile
        return made

    async def _here_or_in_thread(self, work: Callable[[], T]) -> T:
        return await on_loop_or_in_thread(self.services, work, self._one_at_a_time)

    async def _in_thread(self, work: Callable[[], T]) -> T:
        return await to_thread.run_sync(work, limiter=self._one_at_a_time)
