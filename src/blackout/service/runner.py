"""Computer players and clocks, off the request path.

:meth:`Runner.run_due` finds every turn due now: a computer player's (at a live table
after ``bot_pace`` seconds), a live player's whose move clock ran out (a computer player
makes that one move), or a live player's who has been disconnected for longer than
``grace`` (a computer player plays for them until they come back).  For each it

1. claims the turn in a short transaction: the board must still be at that move number
   and nobody else's claim may be live (PostgreSQL: ``FOR UPDATE SKIP LOCKED``, so a
   runner never waits on another); the claim is a lease on the game row, so two
   processes never think for the same turn;
2. thinks with no transaction open;
3. writes the one move in a transaction of its own, only if the board is still at the
   move number it was worked out for (else the turn is claimed and thought again).

Each bot seat keeps one bot object for the life of the game in this process; after a
restart it is rebuilt by replaying the game's moves and showing the bot the view after
each (``observe``), so the expert's watch of the table (``others="auto"``) learns on
the server as it does in ``blackout play``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select

from blackout import bots
from blackout.bots.base import Bot
from blackout.core.actions import Action, parse_action
from blackout.core.game import Game
from blackout.service.store import BOT_PREFIX, Board, Store, build_game, is_bot
from blackout.storage import GameRow, MoveRow

#: Longest a claimed turn stays claimed beyond the thinking budget (a runner that died).
CLAIM_SLACK = timedelta(seconds=60)
#: Moves one board may get in one ``run_due`` before the others get their turn.
BURST = 400


@dataclass
class Due:
    """A turn to play now: the seat, who plays it and why (``bot``, ``clock``, ``away``)."""

    board: int
    move: int
    seat: int
    bot: str
    reason: str


@dataclass
class _Player:
    """One computer player of one seat of one game, and the game as it has seen it."""

    bot: Bot
    game: Game
    count: int


class Runner:
    def __init__(self, store: Store, takeover_bot: str, budget: dict[str, Any],
                 pace: float = 0.0, grace: float = 30.0) -> None:
        self.store = store
        self.grace = timedelta(seconds=grace)
        self.takeover_bot = takeover_bot
        self.budget = budget
        self.pace = timedelta(seconds=pace)
        self.lease = timedelta(seconds=float(budget.get("think", 1.0))) + CLAIM_SLACK
        self._players: dict[tuple[int, int, str], _Player] = {}
        self._lock = threading.Lock()

    @property
    def clock(self) -> Callable[[], datetime]:
        return self.store.clock

    # -- what is due --------------------------------------------------------------------

    def run_due(self) -> int:
        """Play every turn due now; how many moves were made."""
        made = 0
        for board in self._candidates():
            made += self.run_board(board)
        return made

    def run_board(self, board: int, limit: int = BURST) -> int:
        """Play the turns due on ``board`` until none is (or ``limit`` moves)."""
        made = 0
        while made < limit:
            due = self._due_now(board)
            if due is None or not self._claim(due):
                break
            made += self._play(due)
        return made

    def next_due(self) -> float | None:
        """Seconds until the next turn is due (0: now), None when nothing is waiting."""
        now = self.clock()
        soonest: float | None = None
        for board in self._candidates():
            b = self.store.read(board)
            when = self._when(b)
            if when is not None:
                wait = max(0.0, (when[0] - now).total_seconds())
                soonest = wait if soonest is None else min(soonest, wait)
        return soonest

    def _candidates(self) -> list[int]:
        with self.store.db.transaction() as session:
            return list(session.scalars(select(GameRow.id).where(
                GameRow.status == "active").order_by(GameRow.id)))

    def _due_now(self, board: int) -> Due | None:
        b = self.store.read(board)
        when = self._when(b)
        if when is None or when[0] > b.now:
            return None
        return when[1]

    def _when(self, b: Board) -> tuple[datetime, Due] | None:
        """When the turn on ``b`` is due for the runner, and what it is (None: a
        person's turn with no clock running out and no absence)."""
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

    # -- claim, think, write --------------------------------------------------------------

    def _claim(self, due: Due) -> bool:
        now = self.clock()
        with self.store.db.transaction() as session:
            query = select(GameRow).where(GameRow.id == due.board,
                                          GameRow.move_count == due.move - 1)
            if not self.store.db.is_sqlite:  # SQLite's BEGIN IMMEDIATE serializes already
                query = query.with_for_update(skip_locked=True)
            row = session.scalars(query).first()
            if row is None or row.status != "active":
                return False
            if (row.claimed_move == due.move and row.claimed_until is not None
                    and row.claimed_until > now):
                return False  # another runner is thinking about this turn
            row.claimed_move = due.move
            row.claimed_until = now + self.lease
            return True

    def _play(self, due: Due) -> int:
        action = self._think(due)
        if action is None:
            return 0
        with self.store.write(due.board) as b:
            if b.next_move != due.move or b.to_move() != due.seat:
                return 0  # the board moved on while the bot thought: think again
            if due.reason == "bot" and b.controller(due.seat) != due.bot:
                return 0
            kind = "bot" if due.reason == "bot" else due.reason
            self.store.play(b, due.seat, action, kind)
            b.row.claimed_move = None
            b.row.claimed_until = None
            self.store.settle(b, self.store.finish_game)
        return 1

    def _think(self, due: Due) -> Action | None:
        player = self._player(due)
        view = player.game.view(due.seat)
        return player.bot.choose(view)

    def _player(self, due: Due) -> _Player:
        """The seat's one bot object, caught up with the moves it has not seen."""
        key = (due.board, due.seat, due.bot)
        with self._lock:
            player = self._players.get(key)
        with self.store.db.transaction() as session:
            row = session.get(GameRow, due.board)
            assert row is not None
            if player is None:
                player = _Player(self._new_bot(due, row.seed), build_game(row), 0)
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
        name = due.bot[len(BOT_PREFIX):].split("-")[0]
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
