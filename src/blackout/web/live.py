"""The WebSocket hub: ``WS /api/tables/{board}/live?after=N``.

Each connection sends the board's events numbered after ``N`` (the client's last), then
each new one as it is committed, in order and each once, and after each batch the table
state as the connection's seat may see it.  The board is read once per batch for all of
its connections in this process (:meth:`BoardFeed.board_now`); each connection's state is
then made from that one read for its own seat (a seat's view for its player, the public
view for anyone else: never another seat's cards).  The loop of a connection is the only thing
that sends to it, and it always asks "what is there after the last number I sent?", so a
notification that arrives twice, late or out of order cannot cause a gap or a repeat.

Commits are heard from the service's bus (any thread; on PostgreSQL also commits made by
other processes) and, for boards with watchers, by a slow poll: on SQLite the bus is
in-process only, and a move made by ``blackout move`` or the mail gateway in another
process must still reach the browser.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from typing import Any

from anyio import to_thread
from fastapi import APIRouter, Query, WebSocket, WebSocketDisconnect

from blackout.service import Services, errors
from blackout.service.store import Board
from blackout.web.api import COOKIE, MAX_INT
from blackout.web.errors import service_refusal

log = logging.getLogger("blackout.web")
router = APIRouter()

KEEP_EVENTS = 2000  # events a board keeps in memory for its watchers (a long Potomac game)
CLOSE_CODES = {404: 4404, 403: 4403, 401: 4401}


class BoardFeed:
    """One board's watchers in this process and the events read for them (read and
    encoded once, sent to every watcher): the events numbered ``low + 1 .. high``."""

    def __init__(self, board: int, services: Services) -> None:
        self.board = board
        self.services = services
        # Each watcher's flag, and the number of the newest state its socket was sent.
        self.watchers: dict[asyncio.Event, int] = {}
        self.messages: list[str] = []  # the events numbered low + 1 .. high, encoded
        self.low = self.high = -1  # nothing read yet
        self.heard = time.monotonic()
        self._lock = asyncio.Lock()
        self.wakes = 0  # how many commits were heard (on the event loop)
        self.announced = 0  # the newest event number a commit was heard for
        self._board: tuple[int, Board] | None = None  # (wakes when read, the board)
        self._board_lock = asyncio.Lock()
        self.boards = 0  # boards taken for the watchers (tests count them)
        self.reads = 0  # of which read from the database (not this process's own commit)

    def wake(self, last_event: int | None = None) -> None:
        self.heard = time.monotonic()
        self.wakes += 1
        if last_event is not None:
            self.announced = max(self.announced, last_event)
        for dirty in self.watchers:
            dirty.set()

    async def board_now(self) -> Board:
        """The board as it is now, read once for every watcher woken by the same
        commits: a read started after the latest wake covers every commit heard.  When
        this process made the newest commit heard, the board it left is used as is."""
        wanted = self.wakes
        async with self._board_lock:
            if self._board is None or self._board[0] < wanted:
                wakes = self.wakes  # the read starts after these were heard
                board = self.services.store.recent(self.board, self.announced)
                if board is None:
                    board = await to_thread.run_sync(self.services.store.read, self.board)
                    self.reads += 1
                self._board = (wakes, board)
                self.boards += 1
            return self._board[1]

    async def state_for(self, userid: str | None) -> dict[str, Any]:
        """The table state as ``userid`` (None: a spectator) may see it, now."""
        return self.services.queries.state(await self.board_now(), userid)

    def note(self, newest: int) -> None:
        """Start keeping events from ``newest`` on (when nothing is kept yet)."""
        if self.high < 0:
            self.low = self.high = newest

    async def messages_after(self, after: int, upto: int) -> list[str]:
        """The event messages numbered ``after + 1 .. upto``, as sent (each encoded once
        for all of the board's sockets: an event is the same for every seat)."""
        if upto <= after:
            return []
        async with self._lock:
            if self.high < 0 or after < self.low:  # nothing kept that far back: read again
                rows = await to_thread.run_sync(self.services.queries.events, self.board, after)
                self.messages, self.low = [_event_message(row) for row in rows], after
                self.high = rows[-1]["n"] if rows else after
            elif self.high < upto:
                rows = self._committed_here(upto) or await to_thread.run_sync(
                    self.services.queries.events, self.board, self.high)
                self.messages.extend(_event_message(row) for row in rows)
                self.high = rows[-1]["n"] if rows else self.high
            if len(self.messages) > KEEP_EVENTS:
                drop = len(self.messages) - KEEP_EVENTS
                self.low += drop
                del self.messages[:drop]
            # A board's events are numbered 1, 2, 3...: message i is event low + 1 + i.
            return self.messages[after - self.low:upto - self.low]

    def _committed_here(self, upto: int) -> list[dict[str, Any]]:
        """The events after ``high`` up to at least ``upto`` as this process's latest
        commit on the board logged them, when they are all there (else [])."""
        board = self.services.store.recent(self.board, upto)
        if board is None or not board.events:
            return []
        last = board.row.last_event
        first = last - len(board.events) + 1
        if first > self.high + 1:
            return []  # some were logged by an earlier commit
        return [{"n": first + i, "event": body} for i, body in enumerate(board.events)
                if first + i > self.high]

    async def newest(self) -> int:
        """The number of the board's newest event (asks the database)."""
        await self.messages_after(self.high, MAX_INT)
        return self.high


class Hub:
    """Every board watched in this process, woken by the bus or the poll."""

    def __init__(self, services: Services, poll: float | None) -> None:
        self.services = services
        self.poll = poll
        self.feeds: dict[int, BoardFeed] = {}
        self.present: Counter[tuple[int, str]] = Counter()  # open sockets per player
        self._announcing: defaultdict[tuple[int, str], asyncio.Lock] = defaultdict(asyncio.Lock)
        self.listeners: list[Callable[[], None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._unsubscribe: Callable[[], None] | None = None
        self._poller: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._unsubscribe = self.services.bus.subscribe(self._on_commit)
        if self.poll:
            self._poller = asyncio.create_task(self._poll_quiet_boards(self.poll))

    async def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._poller
        self._loop = None

    def _on_commit(self, board: int, last_event: int) -> None:
        """Called by the bus from any thread."""
        loop = self._loop
        if loop is None:
            return
        with contextlib.suppress(RuntimeError):  # the loop is closing
            loop.call_soon_threadsafe(self.changed, board, last_event)

    def changed(self, board: int, last_event: int | None = None) -> None:
        """Something was committed on ``board`` (its log now ends at ``last_event`` when
        known), on the event loop."""
        feed = self.feeds.get(board)
        if feed is not None:
            feed.wake(last_event)
        for listener in self.listeners:
            listener()

    async def _poll_quiet_boards(self, every: float) -> None:
        """Look for events the bus did not report (another process on SQLite)."""
        while True:
            await asyncio.sleep(every)
            quiet = [feed for feed in self.feeds.values()
                     if feed.watchers and time.monotonic() - feed.heard > every]
            for feed in quiet:
                try:
                    # Compared with what each socket was sent, not with what the feed has
                    # read: a socket opening on the board may have read them already.
                    newest = await feed.newest()
                    if min(feed.watchers.values(), default=newest) < newest:
                        self.changed(feed.board, newest)
                    feed.heard = time.monotonic()
                except Exception:  # a database hiccup: try again next round
                    log.exception("polling board %s", feed.board)

    def watched(self) -> frozenset[int]:
        """The boards with a connection in this process (on the event loop)."""
        return frozenset(self.feeds)

    def watch(self, board: int, dirty: asyncio.Event) -> BoardFeed:
        feed = self.feeds.get(board)
        if feed is None:
            feed = self.feeds[board] = BoardFeed(board, self.services)
        feed.watchers[dirty] = MAX_INT  # nothing sent yet: its first state is read fresh
        return feed

    def unwatch(self, feed: BoardFeed, dirty: asyncio.Event) -> None:
        feed.watchers.pop(dirty, None)
        if not feed.watchers and self.feeds.get(feed.board) is feed:
            del self.feeds[feed.board]

    async def arrive(self, board: int, userid: str | None) -> None:
        """Tell the service a player's first connection to the board opened.  A second
        tab waits until the first one's news is written, so its first state shows it."""
        if userid is not None:
            async with self._announcing[board, userid]:
                self.present[board, userid] += 1
                if self.present[board, userid] == 1:
                    await self._presence(board, userid, True)

    async def depart(self, board: int, userid: str | None) -> None:
        """Tell the service a player's last connection to the board closed."""
        if userid is not None:
            async with self._announcing[board, userid]:
                self.present[board, userid] -= 1
                if self.present[board, userid] <= 0:
                    del self.present[board, userid]
                    await self._presence(board, userid, False)

    async def _presence(self, board: int, userid: str, connected: bool) -> None:
        try:
            await to_thread.run_sync(self.services.tables.presence, board, userid, connected)
        except errors.ServiceError:
            pass  # not a player at this table: nothing to tell
        except Exception:
            log.exception("presence of %s at board %s", userid, board)


@router.websocket("/api/tables/{board}/live")
async def live(websocket: WebSocket, board: int,
               after: int = Query(0, ge=0, le=MAX_INT),
               token: str | None = Query(None, max_length=500)) -> None:
    hub: Hub = websocket.app.state.hub
    services = hub.services
    await websocket.accept()
    userid = await _userid(services, token or websocket.cookies.get(COOKIE))
    dirty = asyncio.Event()
    feed = hub.watch(board, dirty)  # before the first read: no commit falls in between
    await hub.arrive(board, userid)  # so the first state already shows the player here
    try:
        state = await to_thread.run_sync(services.queries.table, board, userid)
    except errors.ServiceError as exc:
        hub.unwatch(feed, dirty)
        await hub.depart(board, userid)
        status, body = service_refusal(exc)
        await _send_error(websocket, CLOSE_CODES.get(status, 4400), body)
        return
    sender = asyncio.create_task(_send_forever(websocket, feed, dirty, userid, after, state))
    listener = asyncio.create_task(_until_closed(websocket))
    try:
        await asyncio.wait({sender, listener}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (sender, listener):
            task.cancel()
        for task in (sender, listener):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        hub.unwatch(feed, dirty)
        await hub.depart(board, userid)
        with contextlib.suppress(Exception):
            await websocket.close()


async def _userid(services: Services, token: str | None) -> str | None:
    if not token:
        return None
    try:
        return await to_thread.run_sync(services.sessions.userid_for, token)
    except errors.Unauthorized:
        return None  # an expired session watches as a spectator


def _event_message(row: dict[str, Any]) -> str:
    """An event as the socket sends it (encoded as ``WebSocket.send_json`` does)."""
    return json.dumps({"type": "event", "n": row["n"], "event": row["event"]},
                      separators=(",", ":"), ensure_ascii=False)


async def _send_error(websocket: WebSocket, code: int, body: dict[str, object]) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json({"type": "error", **body})
        await websocket.close(code=code)


async def _until_closed(websocket: WebSocket) -> None:
    """Read (and ignore) what the client sends, until it goes away."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return


async def _send_forever(websocket: WebSocket, feed: BoardFeed, dirty: asyncio.Event,
                        userid: str | None, after: int, state: dict[str, Any]) -> None:
    """Events after ``after``, then the state; again each time the board changes.

    The state is read first and the events only up to the state's number, so the state
    sent is always as of the last event sent; anything committed since then set ``dirty``
    (the flag is cleared before the state is read) and is sent next round.
    """
    sent = after
    first = True
    while True:
        upto = state["event"]
        feed.note(upto)
        for message in await feed.messages_after(sent, upto):
            await websocket.send_text(message)
        if upto > sent or first:
            await websocket.send_json({"type": "state", "n": upto, "table": state})
            sent, first = max(sent, upto), False
            feed.watchers[dirty] = sent
        await dirty.wait()
        dirty.clear()
        state = await feed.state_for(userid)
