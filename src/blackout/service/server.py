"""The play-by-email front of the service: every request carries its password.

:class:`Service` is what the command language (:mod:`blackout.commands`), the command
line and the mail gateway call.  It checks the password (argon2, with the login
throttle, counted by ``source``: the mail sender) and hands the work to the service's
parts (:class:`~blackout.service.services.Services`): the same tables, the same event
log and the same runner as the web, so a mail move shows on the web table and the
reverse.  Mail about a change goes into the outbox in that change's transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Generic

from sqlalchemy import select
from sqlalchemy.orm import Session

from blackout.core.actions import parse_action
from blackout.core.game import Events, Game
from blackout.core.rules import Rules
from blackout.service.errors import BadRequest, Forbidden, NotFound
from blackout.service.events import Event, GameForfeited, Reminder
from blackout.service.outbox import Notice, Outbox
from blackout.service.services import DEFAULT_BOT_THINK, Services, utc_now
from blackout.service.store import (
    BOT_PREFIX,
    FIRST_BOARD,
    Board,
    PositionCache,
    T,
    build_game,
    is_bot,
    seat_of,
)
from blackout.storage import Account, Database, GameRow, MoveRow, SeatRow

__all__ = ["BOT_PREFIX", "DEFAULT_BOT_THINK", "FIRST_BOARD", "Outcome", "Reader", "Service",
           "Snapshot", "Told"]


@dataclass
class Snapshot:
    """A stored game for the text renderers: its rows and the position after ``moves``.

    ``events`` are the core's events of the game: the opening ones, then each stored
    move's as :meth:`Game.apply` returned them while the game was replayed (so
    ``events[n]`` is what move ``n`` caused); None until :meth:`game_events` is asked.
    """

    row: GameRow
    seats: list[SeatRow]
    moves: list[MoveRow]
    game: Game
    events: list[Events] | None = None

    @property
    def board(self) -> int:
        return self.row.id

    @property
    def next_number(self) -> int:
        return len(self.moves) + 1

    def seat_of(self, userid: str) -> int | None:
        return seat_of(self.seats, userid)

    def controller(self, seat: int) -> str:
        return self.seats[seat].controller

    def game_events(self) -> list[Events]:
        """The core's events: opening ones first, then one tuple per stored move."""
        if self.events is None:
            self.events = replay(self.row, self.moves)[1]
        return self.events

    @property
    def humans(self) -> list[tuple[int, str]]:
        return humans(self.seats)


def humans(seats: list[SeatRow]) -> list[tuple[int, str]]:
    """(seat, userid) for every seat a person plays now."""
    return [(s.seat, s.controller) for s in seats
            if s.controller and not is_bot(s.controller) and s.joined]


@dataclass
class Told(Generic[T]):
    """A board as the write transaction leaves it, with a ``T`` that has told its game
    up to there (:meth:`Reader.told`)."""

    row: GameRow
    seats: list[SeatRow]
    game: Game
    story: T
    #: What each move the mail tells about caused (the core's events).
    caused: dict[int, Events]

    @property
    def humans(self) -> list[tuple[int, str]]:
        return humans(self.seats)


@dataclass
class Outcome:
    """What a request did: the board it touched and what happened (for mail)."""

    board: int
    events: list[Event] = field(default_factory=list)
    message: str = ""


class Reader:
    """Reads inside the write transaction of ``board``: what a notifier sees while
    composing mail about what that transaction did."""

    def __init__(self, session: Session, board: Board) -> None:
        self._session = session
        self._board = board

    def told(self, board: int, kind: type[T], since: int | None) -> Told[T]:
        """``board`` (the one this transaction wrote) told by a ``kind``, with what each
        move from number ``since`` on caused (None: no move's).  The telling comes from
        this process's cache, caught up with the moves it lacks (on a miss, told from
        the game's start once), and is kept there if the transaction commits."""
        current = self._board
        if current.number != board or current.game is None:
            raise ValueError(f"board {board} is not the started board this transaction wrote")
        positions = current.positions or PositionCache()  # a board made, not loaded
        game, story, caused = positions.telling(self._session, current.row, kind, since)
        current.telling = (current.row.move_count, game, story)
        return Told(current.row, current.seats, game, story, caused)

    def live(self, board: int) -> bool:
        """Whether ``board`` is a live (web) table, without loading its moves."""
        current = self._board
        row = current.row if current.number == board else self._session.get(GameRow, board)
        return row is not None and row.live

    def email_of(self, userid: str) -> str | None:
        """Where ``userid``'s mail goes: their address once confirmed, else nowhere
        (issue 19.11: an address nobody confirmed gets no board mail)."""
        account = self._session.get(Account, userid)
        if account is None or account.email_confirmed_at is None:
            return None
        return account.email


#: Composes the mail (outbox notices) that tells people about some events.
Notifier = Callable[[Reader, list[Event]], list[Notice]]


class Service:
    """The password-carrying requests of the command language, over :class:`Services`.

    ``clock`` gives the current naive-UTC time (tests pass their own);
    ``takeover_bot`` plays the seat of a player who resigned or timed out;
    ``bot_think``/``bot_iterations`` the bots' budget; ``notifier``, when set, turns
    the events of each write into outbox mail; ``run_bots``: after a request, play the
    computer players it made due (the command line's one-shot process is the runner's
    host; the mail gateway answers first and runs them after).
    """

    def __init__(self, db: Database, clock: Callable[[], datetime] = utc_now,
                 takeover_bot: str | None = None, bot_think: float = DEFAULT_BOT_THINK,
                 bot_iterations: int | None = None, notifier: Notifier | None = None,
                 run_bots: bool = True, services: Services | None = None) -> None:
        self.parts = services or Services(db, clock=clock, bot_think=bot_think,
                                          bot_iterations=bot_iterations,
                                          takeover_bot=takeover_bot)
        self.db = db
        self.clock = clock
        self.notifier = notifier
        self.run_bots = run_bots
        self.outbox = Outbox(db, clock)
        self.parts.store.notifiers.append(self._mail)  # the notifier may be set later

    @property
    def takeover_bot(self) -> str:
        return self.parts.tables.takeover_bot

    def _mail(self, board: Board, events: list[Event]) -> None:
        if self.notifier is not None and events:
            self.outbox.post(board.session, self.notifier(Reader(board.session, board), events))

    def post(self, notices: Sequence[Notice]) -> None:
        """Put mail in the outbox (answers to requests, in a transaction of their own)."""
        if notices:
            with self.db.transaction() as session:
                self.outbox.post(session, notices)

    # -- accounts -------------------------------------------------------------------------

    def signup(self, userid: str, email: str, password: str) -> str:
        """Create the account and mail the code that confirms its address; what was
        done about the code."""
        return self.parts.accounts.signup(userid, email, password)

    def change_password(self, userid: str, old: str, new: str,
                        source: str | None = None) -> None:
        self.parts.accounts.change_password(userid, old, new, source)

    def change_address(self, userid: str, password: str, email: str,
                       source: str | None = None) -> str:
        return self.parts.accounts.change_address(userid, password, email, source)

    def confirm(self, userid: str, code: str | None, source: str | None = None) -> str:
        """Confirm ``userid``'s address with its code; without a code, mail a new one."""
        if code is None:
            return self.parts.accounts.resend(userid)
        return self.parts.accounts.confirm(userid, code, source)

    def email_of(self, userid: str) -> str | None:
        return self.parts.accounts.email_of(userid)

    def _login(self, board: int, userid: str, password: str, source: str | None) -> None:
        """pbmserv's order: the board must exist before the password is looked at."""
        with self.db.transaction() as session:
            if session.get(GameRow, board) is None:
                raise NotFound(f"board {board} not found")
        self.parts.accounts.verify(userid, password, source)
        if source is not None:  # a mail command: mail play needs a confirmed address
            self.parts.accounts.require_confirmed(userid)

    # -- games ------------------------------------------------------------------------------

    def challenge(self, players: Sequence[str], rules: Rules,
                  seed: int | None = None, source: str | None = None) -> Outcome:
        """Start a game at once; a player is a userid or ``bot:NAME``.  ``seed`` is the
        operator's choice (the command language allows it only where no person plays).
        By mail (``source``: the sender) the sender must be an account's confirmed
        address."""
        if source is not None and self.parts.accounts.confirmed_owner(source) is None:
            raise Forbidden(f"{source} is not the confirmed address of an account: sign up "
                            "(blackout signup USERID EMAIL PASSWORD) and confirm the "
                            "address with the code mailed to it, then challenge")
        with self.parts.store.collect() as happened:
            board = self.parts.tables.challenge(players, rules, seed)
        return self._then_bots(Outcome(board, happened, f"board {board} started"))

    def move(self, board: int, userid: str, password: str, text: str,
             expected: int | None = None, comment: str | None = None,
             source: str | None = None) -> Outcome:
        """Make a move.  ``expected`` (pbmserv's ``#N``) must be the next move number."""
        self._login(board, userid, password, source)
        with self.parts.store.collect() as happened:
            self.parts.tables.make_move(board, userid, text, expected, comment)
        return self._then_bots(Outcome(board, happened))

    def queue(self, board: int, userid: str, password: str, text: str,
              comment: str | None = None, source: str | None = None) -> Outcome:
        """Play ``text`` when the player's turn comes, if it is still legal then."""
        self._login(board, userid, password, source)
        with self.parts.store.collect() as happened:
            _, message = self.parts.tables.queue_move(board, userid, text, comment)
        return self._then_bots(Outcome(board, happened, message))

    def resign(self, board: int, userid: str, password: str,
               source: str | None = None) -> Outcome:
        """Leave the game: a computer player plays the seat; the result counts as a loss."""
        self._login(board, userid, password, source)
        with self.parts.store.collect() as happened:
            self.parts.tables.resign_seat(board, userid)
        return self._then_bots(Outcome(board, happened, f"{userid} resigned board {board}"))

    def _then_bots(self, outcome: Outcome) -> Outcome:
        if self.run_bots:
            with self.parts.store.collect() as happened:
                self.parts.runner.run_board(outcome.board)
            outcome.events += happened
        return outcome

    def play_bots(self, board: int) -> list[Event]:
        """Let the computer players due on ``board`` move (the runner, for one board)."""
        with self.parts.store.collect() as happened:
            self.parts.runner.run_board(board)
        return happened

    # -- timeouts -----------------------------------------------------------------------

    def check_timeouts(self, now: datetime, remind_after: timedelta, give_up_after: timedelta,
                       forfeit: bool = False) -> list[Event]:
        """Remind players of mail games who have not moved for ``remind_after``; after
        ``give_up_after`` a computer player takes the seat, or with ``forfeit`` the game
        ends, lost by them.  Then the runner plays what became due."""
        with self.db.transaction() as session:
            boards = list(session.scalars(select(GameRow.id).where(
                GameRow.status == "active", GameRow.live.is_(False),
                GameRow.last_move_at <= now - remind_after)))
        events: list[Event] = []
        store = self.parts.store
        for board in boards:
            with store.collect() as happened, store.write(board) as b:
                seat = b.to_move()
                if seat is None:
                    continue
                userid = b.controller(seat)
                idle = now - b.row.last_move_at
                if is_bot(userid):
                    pass  # a bot's move left undone (a crash after a commit): the runner
                elif idle >= give_up_after:
                    if forfeit:
                        others = [s for s in range(len(b.seats)) if s != seat]
                        store.end(b, "forfeited", others)
                        b.notices[-1] = GameForfeited(board, userid)
                        b.emit({"type": "game_over", "scores": list(b.row_scores()),
                                "winners": others, "forfeited": seat})
                    else:
                        self.parts.tables.take_over(b, seat, "timeout")
                elif idle >= remind_after and (b.row.reminded_at is None
                                               or b.row.reminded_at < b.row.last_move_at):
                    b.row.reminded_at = now
                    b.notices.append(Reminder(board, userid))
            events += happened
            events += self.play_bots(board)
        return events

    # -- reading --------------------------------------------------------------------------

    def snapshot(self, board: int, upto: int | None = None) -> Snapshot:
        """The game on ``board`` (after move ``upto`` when given), for outsiders' views."""
        with self.db.transaction() as session:
            snap = load_snapshot(session, board)
        if upto is None:
            return snap
        if not 0 <= upto <= len(snap.moves):
            raise BadRequest(f"board {board} has moves 0 to {len(snap.moves)}, not {upto}")
        moves = snap.moves[:upto]
        return Snapshot(snap.row, snap.seats, moves, build_game(snap.row, moves),
                        snap.game_events()[:upto + 1])

    def snapshot_as(self, board: int, userid: str, password: str,
                    source: str | None = None) -> tuple[Snapshot, int]:
        """The game and the seat ``userid`` plays on it, after a login."""
        self._login(board, userid, password, source)
        snap = self.snapshot(board)
        seat = snap.seat_of(userid)
        if seat is None:  # also after resigning: the seat's cards are the bot's now
            raise Forbidden("You are NOT playing this game")
        return snap, seat

    def games(self, userid: str | None = None) -> list[Snapshot]:
        with self.db.transaction() as session:
            query = select(GameRow.id).where(GameRow.status != "waiting").order_by(GameRow.id)
            if userid is not None:
                query = query.where(GameRow.id.in_(select(SeatRow.game_id).where(
                    (SeatRow.name == userid) | (SeatRow.controller == userid))))
            return [load_snapshot(session, board) for board in session.scalars(query)]

    def finished_games(self) -> list[tuple[list[str], dict[str, Any]]]:
        """(seat names, result) of every finished game, in the order they finished."""
        return self.parts.queries.finished()


def load_snapshot(session: Session, board: int) -> Snapshot:
    row = session.get(GameRow, board)
    if row is None:
        raise NotFound(f"board {board} not found")
    if row.status == "waiting":
        raise BadRequest(f"board {board} has not started: seats are still open")
    seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == board)
                                 .order_by(SeatRow.seat)))
    moves = list(session.scalars(select(MoveRow).where(MoveRow.game_id == board)
                                 .order_by(MoveRow.number)))
    return Snapshot(row, seats, moves, *replay(row, moves))


def replay(row: GameRow, moves: list[MoveRow]) -> tuple[Game, list[Events]]:
    """The game of ``row`` after ``moves`` and the events it told on the way: the
    opening ones, then what each move caused (one replay gives both)."""
    game = build_game(row)
    events = [game.opening_events()]
    for move in moves:
        events.append(game.apply(parse_action(move.action), seat=move.seat))
    return game, events
