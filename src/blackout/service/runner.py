"""Computer players and clocks, off the request path.

A turn is due for the runner when a computer player is to move (at a live table after
``bot_pace`` seconds), when a live player's move clock ran out (a computer player makes
that one move), or when a live player has been disconnected for longer than ``grace`` (a
computer player plays for them until they come back).  Every write keeps the board's
``games.due_at`` (see :class:`~blackout.service.store.Timing`, the one definition), so

* :meth:`Runner.run_due` reads only the boards with ``due_at <= now``: one indexed query,
  earliest first, a bounded batch at a time; :meth:`Runner.next_due` is ``min(due_at)``;
* it claims the batch in one short transaction: the board must still be at that move
  number and nobody else's claim may be live (PostgreSQL: ``FOR UPDATE SKIP LOCKED``, so
  two processes split the due boards instead of waiting on each other); the claim is a
  lease on the game row and moves ``due_at`` to the lease's end, so the other process's
  query does not even see the board;
* it thinks with no transaction open;
* it writes the one move in a transaction of its own, only if the board is still at the
  move number it was worked out for and the turn is still the runner's (else the claim is
  released and the turn is worked out again).

An *instant* bot (``basic``, ``random``: microseconds a decision, see
:func:`blackout.bots.is_instant`) needs none of that: its turn is decided and written
in the very transaction that found it due (a savepoint per board), one commit a move
instead of two.

Each bot seat keeps one bot object for the life of the game in this process; after a
restart it is rebuilt by replaying the game's moves and showing the bot the view after
each (``observe``), so the expert's watch of the table (``others="auto"``) learns on
the server as it does in ``blackout play``.
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    ARRAY,
    ColumnElement,
    Integer,
    Select,
    SQLColumnExpression,
    and_,
    any_,
    bindparam,
    exists,
    func,
    or_,
    select,
)

from blackout import bots
from blackout.bots.base import Bot
from blackout.core.actions import Action, parse_action
from blackout.core.game import Game
from blackout.service.store import Board, Due, Store, bot_name, build_game
from blackout.storage import GameRow, MoveRow, SeatRow

log = logging.getLogger("blackout.runner")

#: Longest a claimed turn stays claimed beyond the thinking budget (a runner that died).
CLAIM_SLACK = timedelta(seconds=60)
#: Most moves one ``run_due`` / ``run_board`` makes before returning.
BURST = 400
#: How late a board that a player watches through another process may be before this
#: process takes its turn anyway (see :meth:`Runner.run_due`'s ``local``).  Long enough
#: for a busy process to get to its own boards: under bench/server.py's capped load a
#: claimed batch took 0.2 s at the median and 0.6 s at p99, and with 0.25 s here two
#: processes took each other's boards, each taking costing a rebuilt position in one and
#: a read back in the other (two processes made 1.3x the moves of one, at 6.4 ms of CPU
#: a move against 4.1).  A board nobody watches is taken at once.
HANDOFF = timedelta(seconds=5)
#: Due boards claimed in one transaction (the earliest due first).  They are then played
#: one after the other by this process (an expert thinks 0.5 s a move), so the batch is
#: small: boards due meanwhile are left to the next batch, or to another process.
BATCH = 8


class Played:
    """What taking a turn gives when an instant bot played it there and then."""


PLAYED = Played()

__all__ = ["BATCH", "BURST", "CLAIM_SLACK", "HANDOFF", "PLAYED", "Due", "Runner"]


@dataclass(frozen=True)
class _Statements:
    """The runner's statements, asked every round by every web process: built once
    (:func:`_statements`), with bind parameters ``now``, ``late`` (now less
    :data:`HANDOFF`), ``local`` (the boards this process watches), ``limit`` and
    ``boards``.  ``peek`` and ``due`` are keyed by which due boards may be taken:
    ``all``, ``late`` ones (and those no player watches), or ``mine or late`` (also the
    ones watched here)."""

    soonest: Select[Any]
    soonest_mine: Select[Any]
    seats: Select[Any]
    peek: dict[str, Select[Any]]
    due: dict[str, Select[Any]]


def _statements(sqlite: bool) -> _Statements:
    def among(column: SQLColumnExpression[int], given: str) -> ColumnElement[bool]:
        # PostgreSQL: one array parameter (= ANY), not an IN list rendered again for
        # each list of boards (a web process may watch hundreds).
        if sqlite:
            return column.in_(bindparam(given, expanding=True))
        return column == any_(bindparam(given, type_=ARRAY(Integer)))

    now, late = GameRow.due_at <= bindparam("now"), GameRow.due_at <= bindparam("late")
    # No player has a connection open to the board, in any process (seats.connected is
    # kept by every process's WebSocket hub): nobody's process is waiting to play it.
    unwatched = ~exists().where(SeatRow.game_id == GameRow.id, SeatRow.connected)
    takeable = {"all": now, "late": and_(now, or_(late, unwatched)),
                "mine or late": and_(now, or_(among(GameRow.id, "local"), late, unwatched))}
    due = {which: select(GameRow).where(where).order_by(GameRow.due_at, GameRow.id)
           .limit(bindparam("limit")) for which, where in takeable.items()}
    soonest = select(func.min(GameRow.due_at))
    return _Statements(
        soonest=soonest,
        soonest_mine=soonest.where(or_(among(GameRow.id, "local"), unwatched)),
        seats=(select(SeatRow).where(among(SeatRow.game_id, "boards"))
               .order_by(SeatRow.game_id, SeatRow.seat)),
        peek={which: select(GameRow.id).where(where).limit(1)
              for which, where in takeable.items()},
        due=due if sqlite else {which: query.with_for_update(skip_locked=True)
                                for which, query in due.items()})


@dataclass
class _Player:
    """One computer player of one seat of one game, and the game as it has seen it."""

    bot: Bot
    game: Game
    count: int


class Runner:
    """Plays the turns due (see the module docstring); when a turn is due comes from the
    store's :class:`~blackout.service.store.Timing` (pace, grace, the takeover bot)."""

    def __init__(self, store: Store, budget: dict[str, Any]) -> None:
        self.store = store
        self.timing = store.timing
        self.budget = budget
        self.lease = timedelta(seconds=float(budget.get("think", 1.0))) + CLAIM_SLACK
        self._players: dict[tuple[int, int, str], _Player] = {}
        # (board, move) -> (the position read when the turn was claimed, the game's seed)
        self._positions: dict[tuple[int, int], tuple[Game, int]] = {}
        self._lock = threading.Lock()
        self._caught_up = False
        self._sql = _statements(store.db.is_sqlite)

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.store.clock

    # -- what is due --------------------------------------------------------------------

    def run_due(self, limit: int = BURST, local: Collection[int] | None = None) -> int:
        """Play the turns due now, earliest first, a claimed batch at a time, until none
        is due (or ``limit`` moves); how many moves were made.

        ``local``: the boards this process has watchers for (a web server among several
        on one database).  Their turns are taken when due, and those of boards no
        player watches anywhere (``seats.connected``); a board a player watches through
        another process only once it is :data:`HANDOFF` late, so that the process whose
        clients see a board plays it and sends them its own commit, with no read of the
        database (a board whose process is stuck or gone is still played, later)."""
        self.catch_up()
        made = 0
        for _round in range(limit):
            claimed, played = self.claim_due(min(BATCH, limit - made), local)
            if not claimed and not played:
                break
            made += played + self.play_claimed(claimed)
            if made >= limit:
                break
        return made

    def play_claimed(self, claimed: Collection[Due]) -> int:
        """Think and write each claimed turn (see :meth:`claim_due`); how many moves
        were made.  A failure is logged and the rest are still played."""
        return sum(self._play_logged(due) for due in claimed)

    def run_board(self, board: int, limit: int = BURST) -> int:
        """Play the turns due on ``board`` until none is (or ``limit`` moves).  Works
        the turn out from the board itself, whatever its ``due_at`` says."""
        made = 0
        for _attempt in range(limit):
            taken = self._claim_board(board)
            if taken is None:
                break
            made += 1 if isinstance(taken, Played) else self._play(taken)
            if made >= limit:
                break
        return made

    def next_due(self, local: Collection[int] | None = None) -> float | None:
        """Seconds until the next turn :meth:`run_due` would take is due (0: now), None
        when nothing is waiting: one indexed query (``min(due_at)``)."""
        self.catch_up()
        with self.store.db.read() as session:
            soonest: datetime | None = session.scalar(self._sql.soonest)
            if soonest is not None and local is not None:
                soonest += HANDOFF
                mine = session.scalar(self._sql.soonest_mine, {"local": list(local)})
                soonest = soonest if mine is None else min(soonest, mine)
        if soonest is None:
            return None
        return max(0.0, (soonest - self.clock()).total_seconds())

    @property
    def caught_up(self) -> bool:
        """Whether :meth:`catch_up` has run in this process."""
        return self._caught_up

    def catch_up(self, force: bool = False) -> int:
        """Once per process: work ``due_at`` out for active boards that have none (rows
        written before it was kept); how many were read."""
        if self._caught_up and not force:
            return 0
        self._caught_up = True
        with self.store.db.read() as session:
            boards = list(session.scalars(select(GameRow.id).where(
                GameRow.status == "active", GameRow.due_at.is_(None))))
        for board in boards:
            if self.timing.due_at(self.store.read(board)) is not None:
                self.store.refresh_due(board)
        return len(boards)

    # -- claim, think, write --------------------------------------------------------------

    def claim_due(self, limit: int = BATCH, local: Collection[int] | None = None
                  ) -> tuple[list[Due], int]:
        """One round of :meth:`run_due`: in one transaction, up to ``limit`` of the
        boards due now (see :meth:`run_due` for ``local``), the turns of instant bots
        played at once, the others claimed, to be thought about with no transaction
        open (:meth:`play_claimed`); the claimed turns and how many moves were played.
        Call :meth:`catch_up` once before the first round."""
        now = self.clock()
        db = self.store.db
        which = "all" if local is None else "mine or late" if local else "late"  # see _Statements
        given = {"now": now, "late": now - HANDOFF, "local": list(local or ()), "limit": limit}
        if db.is_sqlite:
            # Look before taking SQLite's write lock: most rounds find nothing due.
            with db.read() as session:
                if session.scalar(self._sql.peek[which], given) is None:
                    return [], 0
        played: list[Board] = []
        claimed: list[Due] = []
        with db.transaction() as session:
            rows = list(session.scalars(self._sql.due[which], given))
            if not rows:
                return [], 0
            seats: defaultdict[int, list[SeatRow]] = defaultdict(list)
            for seat in session.scalars(self._sql.seats,
                                        {"boards": [row.id for row in rows]}):
                seats[seat.game_id].append(seat)
            for row in rows:
                b = self.store.board_of(session, row, seats[row.id])
                taken = self._take(b, now)
                if isinstance(taken, Played):
                    played.append(b)
                elif taken is not None:
                    claimed.append(taken)
        for b in played:
            self.store.after_commit(b)
        return claimed, len(played)

    def _claim_board(self, board: int) -> Due | Played | None:
        """The turn due now on ``board``, if there is one: played (an instant bot's) or
        claimed."""
        now = self.clock()
        query = select(GameRow).where(GameRow.id == board)
        if not self.store.db.is_sqlite:  # SQLite's BEGIN IMMEDIATE serializes already
            query = query.with_for_update(skip_locked=True)
        with self.store.db.transaction() as session:
            row = session.scalars(query).first()
            if row is None:
                return None
            b = self.store.board_of(session, row)
            taken = self._take(b, now)
        if isinstance(taken, Played):
            self.store.after_commit(b)
        return taken

    def _take(self, b: Board, now: datetime) -> Due | Played | None:
        """Inside the transaction that read ``b`` (row-locked): the turn due on it now
        played at once by an instant bot (PLAYED), else claimed (the Due: a lease on the
        row, ``due_at`` moved to its end), or None (nothing due, or another runner's
        claim is live); ``due_at`` is put right either way."""
        when = self.timing.when(b)
        row = b.row
        if when is None or when[0] > now or (
                row.claimed_move == b.next_move and row.claimed_until is not None
                and row.claimed_until > now):
            self.store.keep_due(b)
            return None
        due = when[1]
        bot = None if b.game is None else self._instant_bot(due, row.seed)
        if bot is not None and self._play_at_once(b, due, bot):
            return PLAYED
        # Claimed; or an instant bot failed (logged), and the board waits out the lease.
        row.claimed_move = due.move
        row.claimed_until = now + self.lease
        if bot is not None:
            row.due_at = row.claimed_until  # the failed write's position is not kept
            return None
        if b.game is not None:  # a private copy: the bot may keep it
            with self._lock:
                self._positions[due.board, due.move] = (b.game, row.seed)
        self.store.keep_due(b)
        return due

    def _instant_bot(self, due: Due, game_seed: int) -> Bot | None:
        """The seat's bot object when it is an instant one (else None)."""
        try:
            if not bots.is_instant(bot_name(due.bot)):
                return None
        except ValueError:  # no such bot: the claim's path logs it
            return None
        with self._lock:
            player = self._players.get((due.board, due.seat, due.bot))
        return player.bot if player is not None else self._new_bot(due, game_seed)

    def _play_at_once(self, b: Board, due: Due, bot: Bot) -> bool:
        """An instant bot's turn decided and written inside the transaction that found
        it due, in a savepoint: a failure (logged, False) undoes this board only."""
        game = b.game
        assert game is not None
        try:
            with b.session.begin_nested():
                action = bot.choose(game.view(due.seat))
                if action is None:
                    raise ValueError(f"{due.bot} chose nothing on its own turn")
                self.store.play(b, due.seat, action, due.reason)
                self.store.settle(b, self.store.finish_game)
                self.store.finish_write(b)
        except Exception:
            log.exception("runner: board %s move %s", due.board, due.move)
            return False
        key = (due.board, due.seat, due.bot)
        with self._lock:
            if game.is_over:
                self._players.pop(key, None)
            else:
                self._players[key] = _Player(bot, game.copy(), b.row.move_count)
        return True

    def _play_logged(self, due: Due) -> int:
        """:meth:`_play`, a failure logged (the turn stays claimed until the lease ends,
        then it is tried again) so that the rest of the batch is played."""
        try:
            return self._play(due)
        except Exception:
            log.exception("runner: board %s move %s", due.board, due.move)
            return 0
        finally:
            with self._lock:
                self._positions.pop((due.board, due.move), None)

    def _play(self, due: Due) -> int:
        action = self._think(due)
        if action is None:
            return 0
        with self.store.write(due.board) as b:
            if b.row.claimed_move == due.move:
                b.row.claimed_move = None  # the claim ends here, written or not
                b.row.claimed_until = None
            when = self.timing.when(b)
            if when is None or when[0] > b.now or (
                    (when[1].move, when[1].seat, when[1].bot) != (due.move, due.seat, due.bot)):
                return 0  # the board moved on (or the player came back): work it out again
            self.store.play(b, due.seat, action, due.reason)
            self.store.settle(b, self.store.finish_game)
        return 1

    def _think(self, due: Due) -> Action | None:
        player = self._player(due)
        view = player.game.view(due.seat)
        return player.bot.choose(view)

    def _player(self, due: Due) -> _Player:
        """The seat's one bot object, caught up with the moves it has not seen.  A bot
        that does not watch the table (no ``observe``) is simply given the position read
        when the turn was claimed; one that does is shown every move it missed."""
        key = (due.board, due.seat, due.bot)
        with self._lock:
            player = self._players.get(key)
            claimed = self._positions.pop((due.board, due.move), None)
        bot = None
        if claimed is not None:
            game, game_seed = claimed
            if player is None:
                bot = self._new_bot(due, game_seed)
                if getattr(bot, "observe", None) is None:
                    player = _Player(bot, game, due.move - 1)
            elif getattr(player.bot, "observe", None) is None:
                player.game, player.count = game, due.move - 1
        if player is None or player.count < due.move - 1:
            with self.store.db.read() as session:
                row = session.get(GameRow, due.board)
                assert row is not None
                if player is None:
                    player = _Player(bot or self._new_bot(due, row.seed), build_game(row), 0)
                    self._show(player, due.seat)
                moves = list(session.scalars(select(MoveRow).where(
                    MoveRow.game_id == due.board, MoveRow.number > player.count)
                    .order_by(MoveRow.number)))
            for move in moves:
                player.game.apply(parse_action(move.action), seat=move.seat)
                player.count = move.number
                self._show(player, due.seat)
        with self._lock:
            self._players[key] = player
            if player.game.is_over:
                self._players.pop(key, None)
        return player

    @staticmethod
    def _show(player: _Player, seat: int) -> None:
        observe = getattr(player.bot, "observe", None)
        if observe is not None:
            observe(player.game.view(seat))

    def _new_bot(self, due: Due, game_seed: int) -> Bot:
        name = bot_name(due.bot)
        # Seeded from the game's secret seed and the seat: repeatable for a fixed budget.
        seed = (game_seed * 1_000_003 + due.seat) % 2**62
        try:
            return bots.create(name, seed=seed, **self.budget)
        except ValueError:  # a bot that takes no budget
            return bots.create(name, seed=seed)

    def forget(self, board: int) -> None:
        """Drop the bot objects of a finished board."""
        with self._lock:
            for key in [k for k in self._players if k[0] == board]:
                self._players.pop(key)
