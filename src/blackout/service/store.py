"""The boards: loading one in a transaction, changing it, logging what happened.

Every change to a board goes through :meth:`Store.write`: the board's rows are loaded
(row-locked on PostgreSQL; SQLite's ``BEGIN IMMEDIATE`` serializes writers), its game
comes from the per-process :class:`PositionCache` (checked by move count, caught up
from the moves it lacks, rebuilt only on a miss), the change is made, and the events it
caused are appended to the board's numbered log in the same transaction.  After the
commit the cache keeps the new position and the bus is told.  A refused change rolls
the whole transaction back: nothing is written, the cache keeps the old position.  The
board mail's story of the game (a :class:`Telling`) is kept the same way, next to the
position: told in the write (:meth:`PositionCache.telling`), kept after its commit.

Every write also keeps ``games.due_at``: when the runner must act on the board next (a
computer player's turn, a move clock running out, an absent player's grace period
ending), or None when only a person can move or the game is over.  It is worked out by
:meth:`Timing.when`, the one definition the runner uses too, from the rows as the
write leaves them, so the runner finds due boards with one indexed query.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol, Self, TypeVar

from sqlalchemy import bindparam, delete, insert, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from blackout.core import codec
from blackout.core.actions import Action, IllegalAction, parse_action
from blackout.core.fast import Game
from blackout.core.game import Events
from blackout.core.rules import variant
from blackout.service.bus import Bus
from blackout.service.errors import Illegal, NotFound, Stale
from blackout.service.events import Event, GameEnded, MoveAccepted, QueuedMoveRefused
from blackout.storage import Database, EventRow, GameRow, MoveRow, QueuedMove, SeatRow

BOT_PREFIX = "bot:"
FIRST_BOARD = 101
#: A seat nobody has taken yet (a waiting table's open seat).
OPEN = ""

#: Composes the mail about some events inside the transaction that caused them.
Notifier = Callable[["Board", list[Event]], None]


def is_bot(controller: str) -> bool:
    return controller.startswith(BOT_PREFIX)


def bot_name(controller: str) -> str:
    """The bot of a computer player's controller: ``bot:expert`` (or ``bot:expert-2``,
    a second seat of the same bot) -> ``expert``."""
    return controller[len(BOT_PREFIX):].split("-")[0]


def seat_of(seats: list[SeatRow], userid: str) -> int | None:
    """The seat ``userid`` plays now (not one they resigned or have yet to join)."""
    for seat in seats:
        if seat.controller == userid and seat.joined:
            return seat.seat
    return None


# The statements of every move, built once: building a statement costs more than
# running it (SQLAlchemy caches the SQL, not the Python objects that say it).
_GAME = select(GameRow).where(GameRow.id == bindparam("board"))
_GAME_LOCKED = _GAME.with_for_update()  # PostgreSQL: writers on one board queue here
_SEATS = select(SeatRow).where(SeatRow.game_id == bindparam("board")).order_by(SeatRow.seat)
_MOVES_BETWEEN = (select(MoveRow).where(MoveRow.game_id == bindparam("board"),
                                        MoveRow.number > bindparam("after"),
                                        MoveRow.number <= bindparam("upto"))
                  .order_by(MoveRow.number))
# Plain inserts on the transaction's connection: no ORM objects to track, no flush.
_INSERT_MOVE = insert(MoveRow)
_INSERT_EVENT = insert(EventRow)
_NEXT_QUEUED = (select(QueuedMove).where(QueuedMove.game_id == bindparam("board"),
                                         QueuedMove.seat == bindparam("seat"))
                .order_by(QueuedMove.id).limit(1))


def build_game(row: GameRow, moves: list[MoveRow] | None = None) -> Game:
    """The game of ``row`` from its rules and seed, after ``moves``."""
    game = Game.new(variant(row.variant, **json.loads(row.options)),
                    json.loads(row.players), seed=row.seed)
    for move in moves or ():
        game.apply(parse_action(move.action), seat=move.seat)
    return game


class Telling(Protocol):
    """What a front end folds from a game's events move by move (the board mail's
    story), kept next to the cached position so that it is not told from the game's
    start again on every move.  It must stay small however long the game: it is copied
    out of the cache on every use."""

    @classmethod
    def begin(cls, game: Game) -> Self:
        """A telling of ``game``, which has told nothing yet."""
        ...

    def tell(self, move: MoveRow | None, events: Events) -> None:
        """Fold what ``move`` caused (None: the game's opening events)."""
        ...

    def copy(self) -> Self:
        ...


T = TypeVar("T", bound=Telling)
E = TypeVar("E")


class PositionCache:
    """board -> (move count, game) for this process, so that a move costs the same at
    move 10 and at move 400; and board -> (move count, game, telling) for the front ends
    that tell the game (:meth:`telling`).  Entries are only ever copied out, never lent,
    and only what a committed write left is kept (:meth:`keep`)."""

    def __init__(self, size: int = 2000) -> None:
        self._games: dict[int, tuple[int, Game]] = {}
        self._tellings: dict[int, tuple[int, Game, Telling]] = {}
        self._lock = threading.Lock()
        self.size = size
        self.misses = 0
        self.telling_misses = 0

    def game(self, session: Session, row: GameRow) -> Game:
        """A private copy of ``row``'s game at its current move count."""
        with self._lock:
            cached = self._games.get(row.id)
        if cached is not None and cached[0] <= row.move_count:
            count, game = cached[0], cached[1].copy()
        else:
            self.misses += 1
            count, game = 0, build_game(row)
        for move in _moves_after(session, row, count):
            game.apply(parse_action(move.action), seat=move.seat)
        return game

    def telling(self, session: Session, row: GameRow, kind: type[T],
                since: int | None) -> tuple[Game, T, dict[int, Events]]:
        """``row``'s game at its move count (a private copy), a ``kind`` that has told
        it up to there, and what each move from ``since`` on caused (None: no move's).
        Caught up from the kept telling with the moves it lacks; told from the game's
        start when none is kept or it has told move ``since`` already."""
        with self._lock:
            cached = self._tellings.get(row.id)
        if cached is not None and cached[0] <= row.move_count and isinstance(cached[2], kind) \
                and (since is None or cached[0] < since):
            count, game, telling = cached[0], cached[1].copy(), cached[2].copy()
        else:
            self.telling_misses += 1
            count, game = 0, build_game(row)
            telling = kind.begin(game)
            telling.tell(None, game.opening_events())
        caused = {}
        for move in _moves_after(session, row, count):
            events = game.apply(parse_action(move.action), seat=move.seat)
            telling.tell(move, events)
            if since is not None and move.number >= since:
                caused[move.number] = events
        return game, telling, caused

    def keep(self, board: int, count: int, game: Game,
             telling: tuple[int, Game, Telling] | None = None) -> None:
        """After a commit: the position it left (``count`` moves) and the telling made
        in its transaction, if any (a newer one kept already stays)."""
        with self._lock:
            _keep(self._games, self.size, board, (count, game.copy()))
            if telling is not None:
                told, told_game, story = telling
                kept = self._tellings.get(board)
                if kept is None or kept[0] <= told:
                    _keep(self._tellings, self.size, board,
                          (told, told_game.copy(), story.copy()))

    def forget(self, board: int) -> None:
        with self._lock:
            self._games.pop(board, None)
            self._tellings.pop(board, None)


def _keep(entries: dict[int, E], size: int, board: int, entry: E) -> None:
    if len(entries) >= size and board not in entries:
        entries.pop(next(iter(entries)))
    entries[board] = entry


def _moves_after(session: Session, row: GameRow, count: int) -> list[MoveRow]:
    """The moves of ``row``'s game after the first ``count``, up to its move count."""
    if count >= row.move_count:
        return []
    # Only up to the row's count: on PostgreSQL (READ COMMITTED) a move committed after
    # the row was read would otherwise mix two moments in one position.
    return list(session.scalars(_MOVES_BETWEEN, {"board": row.id, "after": count,
                                                 "upto": row.move_count}))


@dataclass
class Due:
    """A turn for the runner: the seat, who plays it and why (``bot``, ``clock``, ``away``)."""

    board: int
    move: int
    seat: int
    bot: str
    reason: str


@dataclass
class Timing:
    """When the runner must act on a board: computer players keep ``pace`` at live
    tables; a live player away for ``grace`` is played for by ``takeover_bot``, as is a
    live player whose move clock ran out."""

    pace: timedelta = timedelta()
    grace: timedelta = timedelta(seconds=30)
    takeover_bot: str = BOT_PREFIX + "random"

    def when(self, b: Board) -> tuple[datetime, Due] | None:
        """When the turn on ``b`` is due for the runner, and what it is (None: a
        person's turn with no clock running out and no absence, or no turn at all).
        Depends only on stored fields, never on the time now."""
        seat = b.to_move()
        if seat is None:
            return None
        row, seat_row = b.row, b.seats[seat]
        controller = seat_row.controller
        if is_bot(controller):
            start = row.last_move_at + (self.pace if row.live else timedelta())
            return start, Due(b.number, b.next_move, seat, controller, "bot")
        if not row.live:
            return None  # mail games: reminders and takeovers by check-timeouts
        times = []
        if row.clock_seconds is not None:
            times.append((row.last_move_at + timedelta(seconds=row.clock_seconds), "clock"))
        if seat_row.disconnected_at is not None and not seat_row.connected:
            times.append((seat_row.disconnected_at + self.grace, "away"))
        if not times:
            return None
        start, reason = min(times)
        return start, Due(b.number, b.next_move, seat, self.takeover_bot, reason)

    def due_at(self, b: Board) -> datetime | None:
        """What ``games.due_at`` of ``b`` must be: :meth:`when`, or the end of a
        runner's claim on that very turn (it is being thought about: others skip it)."""
        when = self.when(b)
        if when is None:
            return None
        row = b.row
        if row.claimed_move == b.next_move and row.claimed_until is not None:
            return max(when[0], row.claimed_until)
        return when[0]


@dataclass
class Board:
    """One board loaded inside a write (or read) transaction."""

    session: Session
    row: GameRow
    seats: list[SeatRow]
    game: Game | None
    now: datetime
    #: Codec JSON of what happened, appended to the log at the end of the write.
    events: list[dict[str, Any]] = field(default_factory=list)
    #: What happened, for the mail notifier.
    notices: list[Event] = field(default_factory=list)
    #: Loaded with the row locked (PostgreSQL): only then is ``due_at`` worked out
    #: again at the end of the write (an unlocked one may have read a row that changed).
    locked: bool = True
    #: This process's positions and tellings (None: a board made, not loaded).
    positions: PositionCache | None = None
    #: A telling made in this write (move count, game, telling): kept after the commit.
    telling: tuple[int, Game, Telling] | None = None

    @property
    def number(self) -> int:
        return self.row.id

    @property
    def next_move(self) -> int:
        return self.row.move_count + 1

    @property
    def active(self) -> bool:
        return self.row.status == "active"

    def seat_of(self, userid: str) -> int | None:
        return seat_of(self.seats, userid)

    def controller(self, seat: int) -> str:
        return self.seats[seat].controller

    def to_move(self) -> int | None:
        return None if self.game is None or not self.active else self.game.to_move

    def emit(self, body: dict[str, Any]) -> None:
        self.events.append(body)

    def row_scores(self) -> list[int]:
        return [] if self.game is None else list(self.game.scores)


class Store:
    """Loads and writes boards (see the module docstring)."""

    def __init__(self, db: Database, clock: Callable[[], datetime], bus: Bus,
                 timing: Timing | None = None) -> None:
        self.db = db
        self.clock = clock
        self.bus = bus
        self.timing = timing or Timing()
        self.cache = PositionCache()
        # board -> the board as this process's latest commit on it left it (read-only):
        # the WebSocket hub sends it instead of reading the board again.
        self._recent: dict[int, Board] = {}
        self._recent_lock = threading.Lock()
        self.notifiers: list[Notifier] = []
        self._collectors = threading.local()

    @contextmanager
    def collect(self) -> Iterator[list[Event]]:
        """Gather what the writes made in this thread during the block (for replies)."""
        happened: list[Event] = []
        stack = self._collectors.__dict__.setdefault("stack", [])
        stack.append(happened)
        try:
            yield happened
        finally:
            stack.remove(happened)

    @contextmanager
    def write(self, board: int, lock: bool = True) -> Iterator[Board]:
        """Load ``board`` for a change; commit, cache and publish on success."""
        with self.db.transaction() as session:
            loaded = self.load(session, board, lock=lock)
            loaded.locked = lock
            yield loaded
            self.finish_write(loaded)
        self.after_commit(loaded)

    def finish_write(self, board: Board) -> None:
        """Inside the transaction: the runner's next due time, the mail, then the events
        into the log."""
        if board.locked:
            self.keep_due(board)
        if board.notices:
            for notifier in self.notifiers:
                notifier(board, board.notices)
        if board.events:
            row = board.row
            first = row.last_event + 1
            row.last_event += len(board.events)
            board.session.connection().execute(_INSERT_EVENT, [
                {"game_id": row.id, "number": first + i, "body": json.dumps(body),
                 "created_at": board.now} for i, body in enumerate(board.events)])
            self.bus.notify(board.session, row.id, row.last_event)

    def keep_due(self, board: Board) -> None:
        """Set ``games.due_at`` from the board as it is now (written only if it changed)."""
        due = self.timing.due_at(board)
        if board.row.due_at != due:
            board.row.due_at = due

    def refresh_due(self, board: int) -> None:
        """Work ``due_at`` out again for ``board`` (a row from before it was kept)."""
        with self.write(board):
            pass

    def after_commit(self, board: Board) -> None:
        for happened in getattr(self._collectors, "stack", ()):
            happened.extend(board.notices)
        if board.game is not None:
            self.cache.keep(board.number, board.row.move_count, board.game, board.telling)
        with self._recent_lock:
            known = self._recent.get(board.number)
            if known is None or known.row.last_event <= board.row.last_event:
                self._recent.pop(board.number, None)  # newest last: the oldest go first
                if len(self._recent) >= self.cache.size:
                    self._recent.pop(next(iter(self._recent)))
                self._recent[board.number] = board
        if board.events:
            self.bus.publish(board.number, board.row.last_event)

    def forget(self) -> None:
        """Drop what this process remembers of boards (positions, latest commits): a
        unit of work (:meth:`Database.unit`) whose writes were cached as committed has
        been rolled back."""
        self.cache = PositionCache(self.cache.size)
        with self._recent_lock:
            self._recent.clear()

    def recent(self, board: int, last_event: int) -> Board | None:
        """The board as this process's latest commit on it left it, if that commit
        logged event ``last_event`` or later (else None: read it).  Shared: read only."""
        with self._recent_lock:
            known = self._recent.get(board)
        return known if known is not None and known.row.last_event >= last_event else None

    def read(self, board: int) -> Board:
        """``board`` as it is now (the game is a private copy); a read-only transaction."""
        with self.db.read() as session:
            return self.load(session, board)

    def load(self, session: Session, board: int, lock: bool = False) -> Board:
        row = session.scalars(_GAME_LOCKED if lock else _GAME, {"board": board}).first()
        if row is None:
            raise NotFound(f"board {board} not found")
        return self.board_of(session, row)

    def board_of(self, session: Session, row: GameRow,
                 seats: list[SeatRow] | None = None) -> Board:
        """The board of a game row already read in ``session`` (its seats read now
        unless given, in seat order)."""
        if seats is None:
            seats = list(session.scalars(_SEATS, {"board": row.id}))
        game = None if row.status == "waiting" else self.cache.game(session, row)
        return Board(session, row, seats, game, self.clock(), positions=self.cache)

    # -- changes ------------------------------------------------------------------------

    def play(self, board: Board, seat: int, text: str | Action, kind: str,
             comment: str | None = None) -> None:
        """Apply a move for ``seat``, store it and log its events."""
        assert board.game is not None
        try:
            action = parse_action(text, board.game.rules.pass_bid) \
                if isinstance(text, str) else text
            happened = board.game.apply(action, seat=seat)
        except IllegalAction as exc:
            raise Illegal(str(exc)) from None
        row = board.row
        number = row.move_count + 1
        try:  # the unique (board, number) constraint speaks now
            board.session.connection().execute(_INSERT_MOVE, {
                "game_id": row.id, "number": number, "seat": seat, "action": str(action),
                "kind": kind, "comment": comment or None, "created_at": board.now})
        except IntegrityError:
            raise Stale(f"board {row.id} changed while your move was being made; it was "
                        "not applied, look at the board and try again", number) from None
        row.move_count = number
        row.last_move_at = board.now
        for event in happened:
            board.emit(codec.event_to_json(event))
        board.notices.append(MoveAccepted(row.id, number, seat, board.game.players[seat],
                                          str(action), kind, comment or None))

    def settle(self, board: Board, finish: Callable[[Board], None]) -> None:
        """Play queued moves until a computer player or a person without one must move;
        ``finish`` the game if it ended."""
        game = board.game
        assert game is not None
        while board.active and game.to_move is not None:
            seat = game.to_move
            controller = board.controller(seat)
            if is_bot(controller):
                break  # computer players move off the request path (the runner)
            # No autoflush: the row's changes go out in one UPDATE at the commit.
            with board.session.no_autoflush:
                queued = board.session.scalars(_NEXT_QUEUED, {"board": board.number,
                                                              "seat": seat}).first()
            if queued is None:
                break
            board.session.delete(queued)
            try:
                self.play(board, seat, queued.action, "queued", queued.comment)
            except Illegal as exc:
                board.notices.append(QueuedMoveRefused(board.number, controller,
                                                       queued.action, exc.message))
                # Later queued moves were planned after this one: drop them too.
                self.drop_queue(board, seat)
                break
        if game.is_over and board.active:
            finish(board)

    def drop_queue(self, board: Board, seat: int) -> None:
        board.session.execute(delete(QueuedMove).where(QueuedMove.game_id == board.number,
                                                       QueuedMove.seat == seat))

    def end(self, board: Board, status: str, winners: list[int]) -> None:
        """Record the end of the game on ``board``'s row."""
        game = board.game
        assert game is not None
        resigned = sorted(s.seat for s in board.seats if s.resigned)
        board.row.status = status
        board.row.finished_at = board.now
        # Moves queued for turns that will never come (a seat that no longer had to move,
        # the game ended by resignation) are dropped with it.
        board.session.execute(delete(QueuedMove).where(QueuedMove.game_id == board.number))
        board.row.result = json.dumps({"scores": game.scores, "winners": winners,
                                       "resigned": resigned})
        board.notices.append(GameEnded(board.number, tuple(game.players[s] for s in winners)))

    def finish_game(self, board: Board) -> None:
        """The rules ended the game: a seat that resigned does not win."""
        assert board.game is not None
        resigned = {s.seat for s in board.seats if s.resigned}
        self.end(board, "over", [s for s in board.game.winners if s not in resigned])
