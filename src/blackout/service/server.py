"""The Blackout server's service layer: every front end (command line, mail) calls this.

Each request runs in one database transaction.  A game is rebuilt from its rules, seed
and stored moves by the rules engine, the request is checked against that position and
only then written; a refused request writes nothing (except a wrong password, which
counts toward the account's lockout).  A move is acknowledged only after its commit.

Computer players move after that commit: each bot move is worked out with no transaction
open (an expert bot thinks for a while and must not hold the database's write lock) and
then written in a short transaction of its own, only if the board is still at the move
number it was worked out for; otherwise it is worked out again from the new position.
Mail about what a transaction did goes into the outbox in that same transaction.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from blackout import bots
from blackout.core.actions import Action, IllegalAction, parse_action
from blackout.core.game import Game
from blackout.core.rules import Rules, variant
from blackout.service import accounts
from blackout.service.errors import ServiceError
from blackout.service.events import (
    Event,
    GameEnded,
    GameForfeited,
    GameStarted,
    MoveAccepted,
    QueuedMoveRefused,
    Reminder,
    SeatTakenOver,
)
from blackout.service.outbox import Notice, Outbox
from blackout.storage import Account, Database, GameRow, MoveRow, QueuedMove, SeatRow

FIRST_BOARD = 101
BOT_PREFIX = "bot:"
WRONG_PASSWORD = "Invalid password/userid entered"
#: Seconds a computer player with a time budget (``bot:expert``) thinks per decision.
DEFAULT_BOT_THINK = 0.5


def utc_now() -> datetime:
    """Naive UTC, as stored in the database."""
    return datetime.now(UTC).replace(tzinfo=None)


def default_bot() -> str:
    """The strongest computer player available, to take over a seat."""
    for name in ("expert", "basic", "random"):
        if name in bots.NAMES:
            return BOT_PREFIX + name
    return BOT_PREFIX + bots.NAMES[0]


@dataclass
class Snapshot:
    """A stored game rebuilt: its rows and the engine's position after ``moves``."""

    row: GameRow
    seats: list[SeatRow]
    moves: list[MoveRow]
    game: Game

    @property
    def board(self) -> int:
        return self.row.id

    @property
    def next_number(self) -> int:
        return len(self.moves) + 1

    def seat_of(self, userid: str) -> int | None:
        for seat in self.seats:
            if seat.controller == userid:
                return seat.seat
        return None

    def controller(self, seat: int) -> str:
        return self.seats[seat].controller

    def hand_numbers(self) -> list[int]:
        """The hand each stored move was made in (rebuilt from the start)."""
        game = Game.new(self.game.rules, json.loads(self.row.players), seed=self.row.seed)
        numbers = []
        for move in self.moves:
            numbers.append(game.hand_number)
            game.apply(parse_action(move.action), seat=move.seat)
        return numbers

    @property
    def humans(self) -> list[tuple[int, str]]:
        """(seat, userid) for every seat a person plays now."""
        return [(s.seat, s.controller) for s in self.seats
                if not s.controller.startswith(BOT_PREFIX)]


@dataclass
class Outcome:
    """What a request did: the board it touched and the events to tell people about."""

    board: int
    events: list[Event] = field(default_factory=list)
    message: str = ""


class _WrongPassword(Exception):
    def __init__(self, userid: str) -> None:
        self.userid = userid


class Reader:
    """Reads inside a write transaction: what a notifier sees while composing mail about
    what that transaction did."""

    def __init__(self, service: Service, session: Session) -> None:
        self._service = service
        self._session = session

    def snapshot(self, board: int) -> Snapshot:
        return self._service._load(self._session, board)

    def email_of(self, userid: str) -> str | None:
        account = self._session.get(Account, userid)
        return None if account is None else account.email


#: Composes the mail (outbox notices) that tells people about some events.
Notifier = Callable[[Reader, list[Event]], list[Notice]]


class Service:
    """Accounts, games and moves over one :class:`~blackout.storage.Database`.

    ``clock`` gives the current naive-UTC time (tests pass their own);
    ``takeover_bot`` plays the seat of a player who resigned or timed out;
    ``bot_think`` is the time budget per decision of bots that take one (seconds), or
    ``bot_iterations`` a fixed amount of search instead, which makes their play
    repeatable; ``notifier``, when set, turns the events of each write into outbox mail.
    """

    def __init__(self, db: Database, clock: Callable[[], datetime] = utc_now,
                 takeover_bot: str | None = None, bot_think: float = DEFAULT_BOT_THINK,
                 bot_iterations: int | None = None, notifier: Notifier | None = None) -> None:
        if bot_think <= 0:
            raise ServiceError("the bots' thinking time must be a positive number of seconds")
        self.db = db
        self.clock = clock
        self.takeover_bot = takeover_bot or default_bot()
        # One process per bot: the gateway runs threads, and forking a search pool from a
        # threaded process is unsafe.
        self.bot_budget: dict[str, float] = ({"think": bot_think} if bot_iterations is None
                                             else {"iterations": bot_iterations})
        self.bot_budget["workers"] = 1
        self.notifier = notifier
        self.outbox = Outbox(db, clock)

    def post(self, notices: Sequence[Notice]) -> None:
        """Put mail in the outbox (answers to requests, in a transaction of their own)."""
        if notices:
            with self.db.transaction() as session:
                self.outbox.post(session, notices)

    def _tell(self, session: Session, events: list[Event]) -> None:
        """Mail about ``events``, written in the transaction that caused them."""
        if self.notifier is not None and events:
            self.outbox.post(session, self.notifier(Reader(self, session), events))

    # -- accounts -------------------------------------------------------------------------

    def signup(self, userid: str, email: str, password: str) -> None:
        accounts.check_userid(userid)
        accounts.check_email(email)
        accounts.check_password(password)
        password_hash = accounts.hash_password(password)
        try:
            with self.db.transaction() as session:
                if session.get(Account, userid) is not None:
                    raise ServiceError(f"userid {userid} is already taken")
                session.add(Account(userid=userid, email=email, password_hash=password_hash,
                                    failures=0, created_at=self.clock()))
        except IntegrityError:
            raise ServiceError(f"userid {userid} is already taken") from None

    def change_password(self, userid: str, old: str, new: str) -> None:
        accounts.check_password(new)
        new_hash = accounts.hash_password(new)

        def change(session: Session) -> None:
            self._authenticate(session, userid, old).password_hash = new_hash

        self._with_login(userid, change)

    def change_address(self, userid: str, password: str, email: str) -> None:
        accounts.check_email(email)

        def change(session: Session) -> None:
            self._authenticate(session, userid, password).email = email

        self._with_login(userid, change)

    def email_of(self, userid: str) -> str | None:
        with self.db.transaction() as session:
            account = session.get(Account, userid)
            return None if account is None else account.email

    def _with_login(self, userid: str, work: Callable[[Session], Any]) -> Any:
        """Run ``work`` in a transaction; a wrong password is counted after rollback."""
        try:
            with self.db.transaction() as session:
                return work(session)
        except _WrongPassword:
            self._count_failure(userid)
            raise ServiceError(WRONG_PASSWORD) from None

    def _authenticate(self, session: Session, userid: str, password: str) -> Account:
        account = session.get(Account, userid)
        if account is None:
            raise ServiceError(WRONG_PASSWORD)
        now = self.clock()
        if account.locked_until is not None and account.locked_until > now:
            until = account.locked_until.strftime("%Y-%m-%d %H:%M:%S")
            raise ServiceError(f"too many wrong passwords for {userid}; try again after "
                               f"{until} UTC")
        if not accounts.password_matches(account.password_hash, password):
            raise _WrongPassword(userid)
        if account.failures:
            account.failures = 0
            account.locked_until = None
        return account

    def _count_failure(self, userid: str) -> None:
        with self.db.transaction() as session:
            account = session.get(Account, userid)
            if account is not None:
                account.failures += 1
                account.locked_until = accounts.lock_after(account.failures, self.clock())

    # -- games --------------------------------------------------------------------------

    def challenge(self, players: Sequence[str], rules: Rules,
                  seed: int | None = None) -> Outcome:
        """Start a game at once; seats are shuffled from the seed unless the rules say
        ``inorder``.  A player is a userid or ``bot:NAME``."""
        people = [p for p in players if not p.startswith(BOT_PREFIX)]
        if len(set(people)) != len(people):
            raise ServiceError("a player may take only one seat")
        for player in players:
            if player.startswith(BOT_PREFIX) and player[len(BOT_PREFIX):] not in bots.NAMES:
                raise ServiceError(f"unknown computer player {player!r}; computer players are "
                                   + ", ".join(BOT_PREFIX + n for n in bots.NAMES))
        players = _distinct_bot_names(players)
        try:
            rules.check_players(len(players))
        except ValueError as exc:
            raise ServiceError(str(exc)) from None
        if seed is None:
            seed = secrets.randbits(62)
        game = Game.new(rules, list(players), seed=seed)
        for _attempt in range(5):
            try:
                outcome, snap = self._store_new_game(game, list(players))
            except IntegrityError:
                continue  # another challenge took the same board number; take the next
            outcome.events += self.play_bots(snap)
            return outcome
        raise ServiceError("the server is busy; try the challenge again")

    def _store_new_game(self, game: Game, players: list[str]) -> tuple[Outcome, Snapshot]:
        with self.db.transaction() as session:
            for player in players:
                if not player.startswith(BOT_PREFIX) and session.get(Account, player) is None:
                    shown = player if accounts.USERID.fullmatch(player) else repr(player)
                    raise ServiceError(f"unknown user {shown}")
            board = max(session.scalar(select(func.max(GameRow.id))) or 0, FIRST_BOARD - 1) + 1
            now = self.clock()
            row = GameRow(id=board, variant=game.rules.variant,
                          options=json.dumps(game.rules.options()), seed=game.seed,
                          players=json.dumps(players), status="active", created_at=now,
                          last_move_at=now)
            session.add(row)
            seats = [SeatRow(game_id=board, seat=i, name=name, controller=name.split("-")[0]
                             if name.startswith(BOT_PREFIX) else name, resigned=False)
                     for i, name in enumerate(game.players)]
            session.add_all(seats)
            session.flush()
            snap = Snapshot(row, seats, [], game)
            events: list[Event] = [GameStarted(board, tuple(game.players))]
            events += self._settle(session, snap)
            self._tell(session, events)
            return Outcome(board, events, f"board {board} started"), snap

    def move(self, board: int, userid: str, password: str, text: str,
             expected: int | None = None, comment: str | None = None) -> Outcome:
        """Make a move.  ``expected`` (pbmserv's ``#N``) must be the next move number."""

        def work(session: Session) -> tuple[Outcome, Snapshot]:
            snap, seat = self._player_request(session, board, userid, password)
            if expected is not None and expected != snap.next_number:
                raise ServiceError(f"move #{expected} is stale: board {board} is at move "
                                   f"#{snap.next_number}")
            game = snap.game
            if seat != game.to_move and not game.legal_actions(seat):
                raise ServiceError("It is not your move")
            self._apply(session, snap, seat, text, "player", comment)
            return self._moved(session, snap), snap

        return self._committed(board, lambda: self._with_login(userid, work))

    def queue(self, board: int, userid: str, password: str, text: str,
              comment: str | None = None) -> Outcome:
        """Play ``text`` when the player's turn comes, if it is still legal then."""

        def work(session: Session) -> tuple[Outcome, Snapshot]:
            snap, seat = self._player_request(session, board, userid, password)
            try:
                action = parse_action(text, snap.game.rules.pass_bid)
            except IllegalAction as exc:
                raise ServiceError(str(exc)) from None
            if seat == snap.game.to_move:
                self._apply(session, snap, seat, text, "player", comment)
                outcome = self._moved(session, snap)
                outcome.message = "it was your move: played now"
                return outcome, snap
            session.add(QueuedMove(game_id=board, seat=seat, action=str(action),
                                   comment=comment, created_at=self.clock()))
            return Outcome(board, [], f"queued {action} on board {board}"), snap

        return self._committed(board, lambda: self._with_login(userid, work))

    def resign(self, board: int, userid: str, password: str) -> Outcome:
        """Leave the game: a computer player plays the seat; the result counts as a loss."""

        def work(session: Session) -> tuple[Outcome, Snapshot]:
            snap, seat = self._player_request(session, board, userid, password)
            return Outcome(board, self._take_over(session, snap, seat, "resigned"),
                           f"{userid} resigned board {board}"), snap

        return self._committed(board, lambda: self._with_login(userid, work))

    def _moved(self, session: Session, snap: Snapshot) -> Outcome:
        """After a person's move: queued moves that follow, the end, the mail."""
        events: list[Event] = [snap_event(snap), *self._settle(session, snap)]
        self._tell(session, events)
        return Outcome(snap.board, events)

    def _committed(self, board: int,
                   work: Callable[[], tuple[Outcome, Snapshot]]) -> Outcome:
        """Run ``work`` (one transaction), then the computer players it made due."""
        try:
            outcome, snap = work()
        except IntegrityError:
            # The unique (game, move number) constraint: another move won the race.
            raise ServiceError(f"board {board} changed while your move was being made; "
                               "it was not applied, look at the board and try again") from None
        outcome.events += self.play_bots(snap)
        return outcome

    def _player_request(self, session: Session, board: int, userid: str,
                        password: str) -> tuple[Snapshot, int]:
        """The checks every player request makes, in pbmserv's order."""
        snap = self._load(session, board, lock=True)
        self._authenticate(session, userid, password)
        if snap.row.status != "active":
            raise ServiceError("The game has ended")
        seat = snap.seat_of(userid)
        if seat is None:
            raise ServiceError("You are NOT playing this game")
        return snap, seat

    def _apply(self, session: Session, snap: Snapshot, seat: int, text: str, kind: str,
               comment: str | None) -> None:
        try:
            action = parse_action(text, snap.game.rules.pass_bid)
            snap.game.apply(action, seat=seat)
        except IllegalAction as exc:
            raise ServiceError(str(exc)) from None
        self._record(session, snap, seat, str(action), kind, comment)

    def _record(self, session: Session, snap: Snapshot, seat: int, action: str, kind: str,
                comment: str | None) -> None:
        now = self.clock()
        move = MoveRow(game_id=snap.board, number=snap.next_number, seat=seat, action=action,
                       kind=kind, comment=comment or None, created_at=now)
        session.add(move)
        session.flush()  # the unique constraint speaks now, inside the transaction
        snap.moves.append(move)
        snap.row.last_move_at = now

    def _settle(self, session: Session, snap: Snapshot) -> list[Event]:
        """Play queued moves until a computer player or a person without one must move;
        record the end of the game if it came."""
        game = snap.game
        events: list[Event] = []
        while game.to_move is not None and snap.row.status == "active":
            seat = game.to_move
            controller = snap.controller(seat)
            if controller.startswith(BOT_PREFIX):
                break  # bots move after the commit, see play_bots
            queued = session.scalars(select(QueuedMove).where(
                QueuedMove.game_id == snap.board, QueuedMove.seat == seat
            ).order_by(QueuedMove.id).limit(1)).first()
            if queued is None:
                break
            session.delete(queued)
            try:
                self._apply(session, snap, seat, queued.action, "queued", queued.comment)
            except ServiceError as exc:
                events.append(QueuedMoveRefused(snap.board, controller, queued.action, str(exc)))
                # Later queued moves were planned after this one: drop them too.
                session.execute(delete(QueuedMove).where(QueuedMove.game_id == snap.board,
                                                         QueuedMove.seat == seat))
                break
            events.append(snap_event(snap))
        if game.is_over and snap.row.status == "active":
            events.append(self._finish(snap))
        return events

    def play_bots(self, snap: Snapshot) -> list[Event]:
        """Let computer players move on ``snap``'s board until a person must move.

        Each move is worked out with no transaction open, then written in a short one
        only if the board is still at the move it was worked out for (the same guard as
        a player's ``#N``); if another request or worker got there first, the bot looks
        at the new position and thinks again.  Safe to run from several processes at
        once: each move number is written exactly once.
        """
        events: list[Event] = []
        while (choice := self._bot_choice(snap)) is not None:
            seat, action = choice
            try:
                with self.db.transaction() as session:
                    fresh = self._load(session, snap.board, lock=True)
                    if (fresh.next_number == snap.next_number and fresh.row.status == "active"
                            and fresh.game.to_move == seat):
                        self._apply(session, fresh, seat, str(action), "bot", None)
                        made: list[Event] = [snap_event(fresh), *self._settle(session, fresh)]
                        self._tell(session, made)
                        events += made
                    snap = fresh
            except IntegrityError:  # another worker wrote this move number first
                snap = self.snapshot(snap.board)
        return events

    def _bot_choice(self, snap: Snapshot) -> tuple[int, Action] | None:
        """The seat and move of the computer player to move on ``snap``, if any."""
        seat = snap.game.to_move
        if seat is None or snap.row.status != "active":
            return None
        controller = snap.controller(seat)
        if not controller.startswith(BOT_PREFIX):
            return None
        name = controller[len(BOT_PREFIX):]
        # The seed depends only on the game and the move number, so whichever worker
        # works a move out finds the same move (unless the budget is a time).
        seed = (snap.row.seed * 1_000_003 + snap.next_number) % 2**62
        try:
            bot = bots.create(name, seed=seed, **self.bot_budget)
        except ValueError:  # a bot that takes no budget
            bot = bots.create(name, seed=seed)
        action = bot.choose(snap.game.view(seat))
        return None if action is None else (seat, action)

    def _finish(self, snap: Snapshot) -> GameEnded:
        game = snap.game
        resigned = {s.seat for s in snap.seats if s.resigned}
        winners = [s for s in game.winners if s not in resigned]
        snap.row.status = "over"
        snap.row.finished_at = self.clock()
        snap.row.result = json.dumps({"scores": game.scores, "winners": winners,
                                      "resigned": sorted(resigned)})
        return GameEnded(snap.board, tuple(game.players[s] for s in winners))

    def _take_over(self, session: Session, snap: Snapshot, seat: int,
                   reason: str) -> list[Event]:
        userid = snap.controller(seat)
        bot = self.takeover_bot
        snap.seats[seat].controller = bot
        snap.seats[seat].resigned = True
        session.execute(delete(QueuedMove).where(QueuedMove.game_id == snap.board,
                                                 QueuedMove.seat == seat))
        events: list[Event] = [SeatTakenOver(snap.board, userid, bot, reason)]
        self._tell(session, events)
        return events

    # -- timeouts -----------------------------------------------------------------------

    def check_timeouts(self, now: datetime, remind_after: timedelta, give_up_after: timedelta,
                       forfeit: bool = False) -> list[Event]:
        """Remind players who have not moved for ``remind_after``; after ``give_up_after``
        a computer player takes the seat, or with ``forfeit`` the game ends, lost by them."""
        with self.db.transaction() as session:
            boards = list(session.scalars(select(GameRow.id).where(
                GameRow.status == "active", GameRow.last_move_at <= now - remind_after)))
        events: list[Event] = []
        for board in boards:
            with self.db.transaction() as session:
                snap = self._load(session, board, lock=True)
                seat = snap.game.to_move
                if snap.row.status != "active" or seat is None:
                    continue
                userid = snap.controller(seat)
                idle = now - snap.row.last_move_at
                if userid.startswith(BOT_PREFIX):
                    pass  # a bot's move left undone (a crash after a commit): played below
                elif idle >= give_up_after:
                    if forfeit:
                        events.append(self._forfeit(snap, seat))
                        self._tell(session, events[-1:])
                    else:
                        events += self._take_over(session, snap, seat, "timeout")
                elif idle >= remind_after and (snap.row.reminded_at is None
                                               or snap.row.reminded_at < snap.row.last_move_at):
                    snap.row.reminded_at = now
                    events.append(Reminder(board, userid))
                    self._tell(session, events[-1:])
            events += self.play_bots(snap)
        return events

    def _forfeit(self, snap: Snapshot, seat: int) -> GameForfeited:
        others = [s for s in range(len(snap.seats)) if s != seat]
        snap.row.status = "forfeited"
        snap.row.finished_at = self.clock()
        snap.row.result = json.dumps({"scores": snap.game.scores, "winners": others,
                                      "resigned": [seat]})
        return GameForfeited(snap.board, snap.controller(seat))

    # -- reading --------------------------------------------------------------------------

    def snapshot(self, board: int, upto: int | None = None) -> Snapshot:
        """The game on ``board`` (after move ``upto`` when given), for outsiders' views."""
        with self.db.transaction() as session:
            snap = self._load(session, board)
        if upto is None:
            return snap
        if not 0 <= upto <= len(snap.moves):
            raise ServiceError(f"board {board} has moves 0 to {len(snap.moves)}, not {upto}")
        return _rebuild(snap.row, snap.seats, snap.moves[:upto])

    def snapshot_as(self, board: int, userid: str, password: str) -> tuple[Snapshot, int]:
        """The game and the seat ``userid`` plays on it, after a login."""

        def work(session: Session) -> tuple[Snapshot, int]:
            snap = self._load(session, board)
            self._authenticate(session, userid, password)
            seat = snap.seat_of(userid)
            if seat is None:  # also after resigning: the seat's cards are the bot's now
                raise ServiceError("You are NOT playing this game")
            return snap, seat

        return self._with_login(userid, work)

    def games(self, userid: str | None = None) -> list[Snapshot]:
        with self.db.transaction() as session:
            query = select(GameRow.id).order_by(GameRow.id)
            if userid is not None:
                query = query.where(GameRow.id.in_(select(SeatRow.game_id).where(
                    (SeatRow.name == userid) | (SeatRow.controller == userid))))
            return [self._load(session, board) for board in session.scalars(query)]

    def finished_games(self) -> list[tuple[list[str], dict[str, Any]]]:
        """(seat names, result) of every finished game, in the order they finished."""
        with self.db.transaction() as session:
            rows = session.scalars(select(GameRow).where(GameRow.status != "active")
                                   .order_by(GameRow.finished_at, GameRow.id)).all()
            out = []
            for row in rows:
                names = list(session.scalars(select(SeatRow.name).where(
                    SeatRow.game_id == row.id).order_by(SeatRow.seat)))
                out.append((names, json.loads(row.result or "{}")))
            return out

    def _load(self, session: Session, board: int, lock: bool = False) -> Snapshot:
        query = select(GameRow).where(GameRow.id == board)
        if lock:
            query = query.with_for_update()  # PostgreSQL: movers on one board queue here
        row = session.scalars(query).first()
        if row is None:
            raise ServiceError(f"board {board} not found")
        seats = list(session.scalars(select(SeatRow).where(SeatRow.game_id == board)
                                     .order_by(SeatRow.seat)))
        moves = list(session.scalars(select(MoveRow).where(MoveRow.game_id == board)
                                     .order_by(MoveRow.number)))
        return _rebuild(row, seats, moves)


def _distinct_bot_names(players: Sequence[str]) -> list[str]:
    """Seat names must differ: a second ``bot:random`` sits as ``bot:random-2``."""
    seen: dict[str, int] = {}
    names = []
    for player in players:
        seen[player] = seen.get(player, 0) + 1
        names.append(player if seen[player] == 1 else f"{player}-{seen[player]}")
    return names


def _rebuild(row: GameRow, seats: list[SeatRow], moves: list[MoveRow]) -> Snapshot:
    rules = variant(row.variant, **json.loads(row.options))
    game = Game.new(rules, json.loads(row.players), seed=row.seed)
    for move in moves:
        game.apply(parse_action(move.action), seat=move.seat)
    return Snapshot(row, seats, list(moves), game)


def snap_event(snap: Snapshot) -> MoveAccepted:
    """The event for the move just recorded on ``snap``."""
    move = snap.moves[-1]
    return MoveAccepted(snap.board, move.number, move.seat, snap.game.players[move.seat],
                        move.action, move.kind, move.comment)
